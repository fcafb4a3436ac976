/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-p2p-port.h"

#include "ecn-codepoints.h"
#include "ina-packet-tag.h"

#include "ns3/log.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaP2pPort");

namespace
{
constexpr uint32_t PPP_HEADER_BYTES = 2;
constexpr uint16_t PPP_CARRIED_PROTOCOL = 0x0800; // any number the device can map to PPP
} // namespace

InaP2pPort::InaP2pPort(Ptr<PointToPointNetDevice> device,
                       uint64_t capacityBytes,
                       uint64_t ecnThresholdBytes)
    : m_device(device)
    , m_capacityBytes(capacityBytes)
    , m_ecnThresholdBytes(ecnThresholdBytes)
{
    m_device->SetReceiveCallback(MakeCallback(&InaP2pPort::OnReceive, this));
    m_device->TraceConnectWithoutContext("PhyRxDrop", MakeCallback(&InaP2pPort::OnRxDrop, this));
}

InaP2pPort::~InaP2pPort() = default;

void
InaP2pPort::SetPeer(InaP2pPort* peer)
{
    m_peer = peer;
}

Ptr<PointToPointNetDevice>
InaP2pPort::GetDevice() const
{
    return m_device;
}

uint64_t
InaP2pPort::GetRateBps() const
{
    DataRateValue v;
    m_device->GetAttribute("DataRate", v);
    return v.Get().GetBitRate();
}

uint64_t
InaP2pPort::GetBacklogBytes()
{
    return m_device->GetQueue()->GetNBytes();
}

void
InaP2pPort::Send(InaPacket* p, int64_t extraDelayPs)
{
    // The sender's processing latency comes before the queue here; InaNetDevice adds it after the
    // wire instead. For a constant latency per port both give the same arrival times.
    if (extraDelayPs == 0)
    {
        Enqueue(p);
    }
    else
    {
        Simulator::Schedule(TimeStep(extraDelayPs), &InaP2pPort::Enqueue, this, p);
    }
}

void
InaP2pPort::Enqueue(InaPacket* p)
{
    if (p->wireBytes > m_device->GetMtu())
    {
        ++m_counters.oversize;
        m_pool->Free(p);
        return;
    }
    uint64_t backlog = m_device->GetQueue()->GetNBytes();
    if (backlog + p->wireBytes > m_capacityBytes)
    {
        ++m_counters.drops;
        m_pool->Free(p);
        return;
    }
    if (m_ecnThresholdBytes != 0 && backlog > m_ecnThresholdBytes && p->ecn != 0)
    {
        p->ecn = INA_ECN_CE;
        ++m_counters.ecnMarks;
    }
    ++m_counters.txPackets;
    m_counters.txBytes += p->wireBytes;
    uint32_t payload = p->wireBytes > PPP_HEADER_BYTES ? p->wireBytes - PPP_HEADER_BYTES : 0;
    Ptr<Packet> pkt = Create<Packet>(payload);
    pkt->AddPacketTag(InaPacketTag(p));
    m_device->Send(pkt, m_device->GetBroadcast(), PPP_CARRIED_PROTOCOL);
    // The queue holds packets waiting behind the one on the wire, as InaNetDevice counts them.
    m_counters.peakBacklogBytes =
        std::max<uint64_t>(m_counters.peakBacklogBytes, m_device->GetQueue()->GetNBytes());
}

bool
InaP2pPort::OnReceive(Ptr<NetDevice> dev,
                      Ptr<const Packet> pkt,
                      uint16_t proto,
                      const Address& from)
{
    InaPacketTag tag;
    pkt->PeekPacketTag(tag);
    // Counters of a direction live at the sending end, as with InaNetDevice.
    ++m_peer->m_counters.rxPackets;
    DeliverUp(tag.GetPacket());
    return true;
}

void
InaP2pPort::OnRxDrop(Ptr<const Packet> pkt)
{
    InaPacketTag tag;
    if (pkt->PeekPacketTag(tag))
    {
        ++m_peer->m_counters.lost;
        m_pool->Free(tag.GetPacket());
    }
}

} // namespace ns3
