/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-net-device.h"

#include "ecn-codepoints.h"
#include "ina-channel.h"
#include "ina-packet-tag.h"
#include "ina-time-resolution.h"
#include "ina-wire-time.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaNetDevice");
NS_OBJECT_ENSURE_REGISTERED(InaNetDevice);

TypeId
InaNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("InaFabric")
            .AddConstructor<InaNetDevice>()
            .AddAttribute("DataRate",
                          "Serialization rate of the link leaving this device.",
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&InaNetDevice::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("QueueCapacity",
                          "Output queue capacity in bytes (packets waiting, not the one being "
                          "serialized); a packet that does not fit is tail-dropped.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&InaNetDevice::m_capacityBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("EcnThreshold",
                          "Mark ECN-capable packets CE when more than this many bytes are already "
                          "waiting; 0 disables marking.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaNetDevice::SetEcnThreshold,
                                               &InaNetDevice::GetEcnThreshold),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PriorityClasses",
                          "Strict-priority classes (InaPacket::priority, 0 first). 1 keeps the "
                          "one-event-per-hop FIFO; more costs a second event per hop.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaNetDevice::m_priorityClasses),
                          MakeUintegerChecker<uint32_t>(1, 8))
            .AddAttribute("Mtu",
                          "Largest packet the link carries, in wire bytes (headers included); a "
                          "larger one is dropped at Send and counted in InaLinkCounters::oversize.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&InaNetDevice::SetMtu, &InaNetDevice::GetMtu),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute(
                "ErrorModel",
                "Random loss on the wire (ns-3 ErrorModel), drawn once per packet sent.",
                PointerValue(),
                MakePointerAccessor(&InaNetDevice::SetErrorModel, &InaNetDevice::GetErrorModel),
                MakePointerChecker<ErrorModel>());
    return tid;
}

InaNetDevice::InaNetDevice()
    : m_txCompleteEvent(this)
{
    // The layout the header's comment on the hot fields promises, checked where a new field or
    // a grown base would silently move them: line 2 holds everything an arrival touches, line 3
    // what a send touches beyond it (a hop's cost is mostly its misses, docs/performance.md).
    // offsetof on a class with virtual functions is conditionally supported; GCC and Clang give
    // the real offsets.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
    constexpr size_t LINE = 64;
    static_assert(offsetof(InaNetDevice, m_ring) == 2 * LINE, "arrival fields start line 2");
    static_assert(offsetof(InaNetDevice, m_rxPackets) + sizeof(m_rxPackets) <= 3 * LINE,
                  "arrival fields end within line 2");
    static_assert(offsetof(InaNetDevice, m_busyUntilPs) == 3 * LINE, "send fields start line 3");
    static_assert(offsetof(InaNetDevice, m_txBytes) + sizeof(m_txBytes) <= 4 * LINE,
                  "send fields end within line 3");
#pragma GCC diagnostic pop
    // Small to start with (it doubles when full): a fat-tree of k=48 has 166 k devices, most with
    // a few packets in flight.
    m_ringStore = std::make_unique<InFlight[]>(16);
    m_ring = m_ringStore.get();
    m_ringShift = 4;
}

InaNetDevice::~InaNetDevice() = default;

void
InaNetDevice::DoDispose()
{
    // Packets still in flight belong to the pool, which frees its blocks wholesale.
    m_node = nullptr;
    m_channel = nullptr;
    m_peer = nullptr;
    m_peerSink = nullptr;
    SetErrorModel(nullptr);
    m_lossProbe = nullptr;
    m_pcap = nullptr;
    m_slow &= ~PCAP;
    m_batcher = nullptr;
    m_ownBatcher.reset();
    NetDevice::DoDispose();
}

void
InaNetDevice::Attach(Ptr<InaChannel> channel)
{
    InaTimeResolution::Require("InaNetDevice::Attach");
    m_channel = channel;
    channel->Add(this);
}

Ptr<InaNetDevice>
InaNetDevice::GetPeer() const
{
    return m_peer;
}

int64_t
InaNetDevice::SerializationPs(uint32_t bytes) const
{
    return InaPacketSerializationPs(bytes, m_rateBps);
}

int64_t
InaNetDevice::PacedPs(uint32_t bytes) const
{
    return InaPacketSerializationPs(bytes, m_injectionCapBps);
}

void
InaNetDevice::SetEventBatcher(InaEventBatcher* batcher)
{
    m_batcher = batcher;
}

void
InaNetDevice::SetInjectionRateCap(uint64_t bps)
{
    m_injectionCapBps = bps;
    m_slow = bps == 0 ? (m_slow & ~PACED) : (m_slow | PACED);
}

uint64_t
InaNetDevice::GetInjectionRateCap() const
{
    return m_injectionCapBps;
}

uint64_t
InaNetDevice::GetRateBps() const
{
    return m_rate.GetBitRate();
}

bool
InaNetDevice::DrawLoss(uint32_t bytes)
{
    if (!m_errorModel)
    {
        return false;
    }
    if (!m_lossProbe || m_lossProbe->GetSize() != bytes)
    {
        m_lossProbe = Create<Packet>(bytes);
    }
    return m_errorModel->IsCorrupt(m_lossProbe);
}

void
InaNetDevice::Wire()
{
    // Lazily resolved so the channel can be wired in any order.
    NS_ABORT_MSG_UNLESS(m_channel && m_channel->GetNDevices() == 2,
                        "InaNetDevice: Send on a device whose channel has no peer");
    m_peer = m_channel->GetPeerOf(this);
    m_peerSink = m_peer->m_sink;
    NS_ABORT_MSG_UNLESS(m_peer->m_portIndex <= 0xffff,
                        "InaNetDevice: the far end's port index " << m_peer->m_portIndex
                                                                  << " does not fit 16 bits");
    m_peerPortIndex = static_cast<uint16_t>(m_peer->m_portIndex);
    NS_ABORT_MSG_UNLESS(m_peerSink != nullptr,
                        "InaNetDevice: Send before the far end's owner is attached");
    m_delayPs = m_channel->GetDelay().GetTimeStep();
    m_rateBps = m_rate.GetBitRate();
    if (m_priorityClasses > 1)
    {
        // Only here: an empty std::deque still allocates a node (about 600 B), which 20,000 FIFO
        // devices would scatter between the objects a run allocates and reads.
        m_classQueues.resize(m_priorityClasses);
        m_slow |= PRIORITY;
    }
    if (m_batcher == nullptr)
    {
        m_ownBatcher = std::make_unique<InaEventBatcher>();
        m_batcher = m_ownBatcher.get();
    }
    m_slow &= ~UNWIRED;
}

void
InaNetDevice::RetireStarted(int64_t now)
{
    while (m_queueHead != m_tail && m_ring[m_queueHead & RingMask()].txStartPs <= now)
    {
        m_backlogBytes -= m_ring[m_queueHead & RingMask()].bytes;
        ++m_queueHead;
    }
}

bool
InaNetDevice::Admit(InaPacket* p, uint32_t bytes)
{
    if (m_backlogBytes + bytes > m_capacityBytes)
    {
        ++m_counters.drops;
        m_pool->Free(p);
        return false;
    }
    if (m_ecnThreshold32 != 0 && m_backlogBytes > m_ecnThreshold32 && p->ecn != 0 &&
        ((m_slow & WIDE_ECN) == 0 || m_backlogBytes > m_ecnThresholdBytes))
    {
        p->ecn = INA_ECN_CE;
        ++m_counters.ecnMarks;
    }
    ++m_txPackets;
    m_txBytes += bytes;
    return true;
}

void
InaNetDevice::Send(InaPacket* p, int64_t extraDelayPs)
{
    if ((m_slow & (LINK_DOWN | UNWIRED)) != 0)
    {
        if ((m_slow & LINK_DOWN) != 0)
        {
            ++m_faultDrops;
            m_pool->Free(p);
            return;
        }
        Wire();
    }
    const uint32_t bytes = p->wireBytes;
    if (bytes > m_mtu)
    {
        ++m_counters.oversize;
        m_pool->Free(p);
        return;
    }
    if ((m_slow & PRIORITY) != 0)
    {
        SendPriority(p, extraDelayPs);
        return;
    }

    // FIFO: retire from the backlog every packet whose transmission has started by now.
    const int64_t now = m_batcher->NowPs(); // wired above, so there is a batcher
    RetireStarted(now);
    if (!Admit(p, bytes))
    {
        return;
    }
    const int64_t start = std::max(now, m_busyUntilPs);
    const int64_t end = start + SerializationPs(bytes);
    // The pacer holds the next start back; this packet still leaves at the link rate.
    m_busyUntilPs = (m_slow & PACED) == 0 ? end : std::max(end, start + PacedPs(bytes));
    PushInFlight(p, start, end, extraDelayPs);
    if (start > now)
    {
        m_backlogBytes += bytes;
        m_peakBacklogBytes = std::max(m_peakBacklogBytes, m_backlogBytes);
    }
    else
    {
        // On the wire at once: never counted as waiting, and everything before it has started.
        m_queueHead = m_tail;
    }
}

void
InaNetDevice::SendPriority(InaPacket* p, int64_t extraDelayPs)
{
    // Same admission rule as the FIFO, over all classes together.
    const uint32_t bytes = p->wireBytes;
    if (!Admit(p, bytes))
    {
        return;
    }
    uint32_t cls = std::min<uint32_t>(p->priority, m_priorityClasses - 1);
    m_classQueues[cls].emplace_back(p, extraDelayPs);
    m_backlogBytes += bytes;
    m_peakBacklogBytes = std::max(m_peakBacklogBytes, m_backlogBytes);
    if (!m_transmitting)
    {
        StartNextPriority();
    }
}

void
InaNetDevice::PushInFlight(InaPacket* p, int64_t txStartPs, int64_t txEndPs, int64_t extraDelayPs)
{
    if (m_tail - m_head == RingMask() + 1)
    {
        // Grow the ring, keeping the logical positions (m_head..m_tail, m_queueHead) valid.
        const uint32_t size = 2 * (RingMask() + 1);
        auto bigger = std::make_unique<InFlight[]>(size);
        for (uint32_t i = m_head; i != m_tail; ++i)
        {
            bigger[i & (size - 1)] = m_ring[i & RingMask()];
        }
        m_ringStore = std::move(bigger);
        m_ring = m_ringStore.get();
        ++m_ringShift;
    }
    // A FIFO link cannot reorder: clamp in case the owner's extra delay ever shrank.
    int64_t arrive = std::max(txEndPs + m_delayPs + extraDelayPs, m_lastArrivePs);
    m_lastArrivePs = arrive;
    const uint8_t lost = (m_slow & LOSSY) != 0 && DrawLoss(p->wireBytes) ? LOST_ON_WIRE : NOT_LOST;
    if ((m_slow & PCAP) != 0)
    {
        WritePcap(p, txStartPs);
    }
    m_ring[m_tail & RingMask()] = InFlight{txStartPs, arrive, p, p->wireBytes, lost};
    ++m_tail;
    if (m_tail - m_head == 1)
    {
        m_batcher->ScheduleAt(arrive, this);
    }
}

void
InaNetDevice::OnBatchedEvent()
{
    OnArrival();
}

void
InaNetDevice::OnArrival()
{
    InFlight& e = m_ring[m_head & RingMask()];
    InaPacket* p = e.packet;
    const uint8_t lost = e.lost;
    if (m_queueHead == m_head)
    {
        // Entries in [m_queueHead, m_tail) are the ones counted as waiting; this one started long
        // ago but nobody asked since, so retire it here.
        m_backlogBytes -= e.bytes;
        ++m_queueHead;
    }
    ++m_head;
    if (m_head != m_tail)
    {
        m_batcher->ScheduleAt(m_ring[m_head & RingMask()].arrivePs, this);
    }
    if (lost != NOT_LOST)
    {
        if (lost == LOST_TO_FAULT)
        {
            ++m_faultDrops;
        }
        else
        {
            ++m_counters.lost;
        }
        m_pool->Free(p);
        return;
    }
    ++m_rxPackets;
    m_peerSink->Receive(p, m_peerPortIndex);
}

void
InaNetDevice::StartNextPriority()
{
    const int64_t now = Simulator::Now().GetTimeStep();
    for (auto& q : m_classQueues)
    {
        if (!q.empty())
        {
            if (m_pacedUntilPs > now)
            {
                // The pacer's gap: OnTxComplete comes back then and picks the best class anew.
                m_transmitting = true;
                m_txCompleteEvent.ScheduleAt(m_pacedUntilPs);
                return;
            }
            m_inTx = q.front().first;
            m_inTxExtraPs = q.front().second;
            q.pop_front();
            m_backlogBytes -= m_inTx->wireBytes;
            m_transmitting = true;
            m_inTxStartPs = now;
            m_txCompleteEvent.ScheduleAt(m_inTxStartPs + SerializationPs(m_inTx->wireBytes));
            if ((m_slow & PACED) != 0)
            {
                m_pacedUntilPs = now + PacedPs(m_inTx->wireBytes);
            }
            return;
        }
    }
    m_transmitting = false;
}

void
InaNetDevice::OnTxComplete()
{
    if (m_inTx != nullptr && (m_slow & LINK_DOWN) != 0)
    {
        ++m_faultDrops; // its serialization ended on a link that went down meanwhile
        m_pool->Free(m_inTx);
        m_inTx = nullptr;
    }
    if (m_inTx != nullptr) // else the end of a pacer's gap
    {
        const int64_t now = Simulator::Now().GetTimeStep();
        PushInFlight(m_inTx, m_inTxStartPs, now, m_inTxExtraPs);
        m_inTx = nullptr;
    }
    StartNextPriority();
}

uint64_t
InaNetDevice::GetBacklogBytes()
{
    if (m_priorityClasses == 1)
    {
        RetireStarted(Simulator::Now().GetTimeStep());
    }
    return m_backlogBytes;
}

void
InaNetDevice::EnablePcap(const std::string& filename)
{
    m_pcap = CreateObject<PcapFileWrapper>();
    m_pcap->Open(filename, std::ios::out | std::ios::binary);
    m_pcap->Init(147 /* LINKTYPE_USER0 */, 65535, 0);
    m_slow |= PCAP;
}

void
InaNetDevice::WritePcap(const InaPacket* p, int64_t atPs)
{
    std::vector<uint8_t> bytes(p->wireBytes, 0);
    InaPacketTag::SerializeHeader(*p, bytes.data(), bytes.size());
    m_pcap->Write(TimeStep(atPs), bytes.data(), bytes.size());
}

int64_t
InaNetDevice::AssignStreams(int64_t stream)
{
    if (m_errorModel)
    {
        auto rem = DynamicCast<RateErrorModel>(m_errorModel);
        if (rem)
        {
            return rem->AssignStreams(stream);
        }
    }
    return 0;
}

void
InaNetDevice::SetLossRate(double rate, int64_t stream)
{
    if (rate <= 0)
    {
        SetErrorModel(nullptr);
        return;
    }
    auto em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
    em->SetAttribute("ErrorRate", DoubleValue(rate));
    em->AssignStreams(stream);
    SetErrorModel(em);
}

void
InaNetDevice::SetErrorModel(Ptr<ErrorModel> em)
{
    m_errorModel = em;
    m_slow = em ? (m_slow | LOSSY) : (m_slow & ~LOSSY);
}

Ptr<ErrorModel>
InaNetDevice::GetErrorModel() const
{
    return m_errorModel;
}

void
InaNetDevice::SetEcnThreshold(uint64_t bytes)
{
    m_ecnThresholdBytes = bytes;
    const bool wide = bytes > std::numeric_limits<uint32_t>::max();
    m_ecnThreshold32 = wide ? std::numeric_limits<uint32_t>::max() : static_cast<uint32_t>(bytes);
    m_slow = wide ? (m_slow | WIDE_ECN) : (m_slow & ~WIDE_ECN);
}

uint64_t
InaNetDevice::GetEcnThreshold() const
{
    return m_ecnThresholdBytes;
}

void
InaNetDevice::SyncCounters() const
{
    m_counters.txPackets = m_txPackets;
    m_counters.txBytes = m_txBytes;
    m_counters.rxPackets = m_rxPackets;
    m_counters.peakBacklogBytes = m_peakBacklogBytes;
}

void
InaNetDevice::SetLinkDown(bool down)
{
    if (down && (m_slow & LINK_DOWN) == 0)
    {
        // What is queued or on the wire when the link fails never arrives. The entries keep their
        // arrival events (the ring stays ordered); they are dropped as they come due.
        for (uint32_t i = m_head; i != m_tail; ++i)
        {
            m_ring[i & RingMask()].lost = LOST_TO_FAULT;
        }
        for (auto& q : m_classQueues)
        {
            for (auto& entry : q)
            {
                m_backlogBytes -= entry.first->wireBytes;
                ++m_faultDrops;
                m_pool->Free(entry.first);
            }
            q.clear();
        }
    }
    m_slow = down ? (m_slow | LINK_DOWN) : (m_slow & ~LINK_DOWN);
}

uint64_t
InaNetDevice::GetFaultDrops() const
{
    return m_faultDrops;
}

// ---- NetDevice boilerplate: inasim devices carry InaPackets, not IP ----

void
InaNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
InaNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
InaNetDevice::GetChannel() const
{
    return m_channel;
}

void
InaNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
InaNetDevice::GetAddress() const
{
    return m_address;
}

bool
InaNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
InaNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
InaNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && (m_slow & LINK_DOWN) == 0;
}

void
InaNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
}

bool
InaNetDevice::IsBroadcast() const
{
    return false;
}

Address
InaNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
InaNetDevice::IsMulticast() const
{
    return false;
}

Address
InaNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
InaNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
InaNetDevice::IsPointToPoint() const
{
    return true;
}

bool
InaNetDevice::IsBridge() const
{
    return false;
}

bool
InaNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    // The ns-3 boundary: only packets that carry an InaPacket (made by InaP2pPort or a test) can
    // enter the fast path.
    InaPacketTag tag;
    if (!packet->PeekPacketTag(tag) || tag.GetPacket() == nullptr)
    {
        return false;
    }
    Send(tag.GetPacket(), 0);
    return true;
}

bool
InaNetDevice::SendFrom(Ptr<Packet> packet,
                       const Address& source,
                       const Address& dest,
                       uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
InaNetDevice::GetNode() const
{
    return m_node;
}

void
InaNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
InaNetDevice::NeedsArp() const
{
    return false;
}

void
InaNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
}

void
InaNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
}

bool
InaNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
