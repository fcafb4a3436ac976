/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-transport-receiver.h"

#include "ecn-codepoints.h"
#include "ina-transport-header.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaTransportReceiver");
NS_OBJECT_ENSURE_REGISTERED(InaTransportReceiver);

TypeId
InaTransportReceiver::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaTransportReceiver")
                            .SetParent<Object>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaTransportReceiver>()
                            .AddAttribute("AckBytes",
                                          "Wire bytes of an ACK (Ethernet + IP + UDP + header).",
                                          UintegerValue(64),
                                          MakeUintegerAccessor(&InaTransportReceiver::m_ackBytes),
                                          MakeUintegerChecker<uint32_t>(1))
                            .AddAttribute("GoBackN",
                                          "Take packets in order only; drop the rest and NAK "
                                          "the first of each hole (an RDMA NIC; pair with a "
                                          "sender whose LossRecovery is go-back-n).",
                                          BooleanValue(false),
                                          MakeBooleanAccessor(&InaTransportReceiver::m_goBackN),
                                          MakeBooleanChecker());
    return tid;
}

InaTransportReceiver::InaTransportReceiver() = default;

InaTransportReceiver::~InaTransportReceiver()
{
    if (m_listening && m_host)
    {
        m_host->Unbind(m_localPort);
    }
}

void
InaTransportReceiver::DoDispose()
{
    if (m_listening && m_host)
    {
        m_host->Unbind(m_localPort);
    }
    m_listening = false;
    m_host = nullptr;
    m_msgs.clear();
    m_receivedCb = MakeNullCallback<void, uint32_t, uint64_t, std::vector<uint32_t>&>();
    Object::DoDispose();
}

void
InaTransportReceiver::Listen(Ptr<InaHost> host, uint16_t localPort, uint32_t flowId)
{
    auto who = [flowId]() {
        return "InaTransportReceiver (flow " + std::to_string(flowId) + "): ";
    };
    if (m_listening)
    {
        throw std::invalid_argument(who() + "Listen called twice");
    }
    if (!host)
    {
        throw std::invalid_argument(who() + "Listen needs a host, got null");
    }
    m_host = host;
    m_pool = &host->GetPool();
    m_localPort = localPort;
    m_flowId = flowId;
    host->Bind(localPort, this);
    m_listening = true;
}

void
InaTransportReceiver::SetMessageReceivedCallback(MessageReceivedCallback cb)
{
    m_receivedCb = cb;
}

void
InaTransportReceiver::Receive(InaPacket* p, uint32_t port)
{
    const InaTransportHeader* h = p->Header<InaTransportHeader>();
    if (h->type != InaTransportHeader::DATA || p->flowId != m_flowId)
    {
        ++m_stats.strayPackets;
        m_pool->Free(p);
        return;
    }
    const uint64_t seq = p->seq;
    const bool ce = p->ecn == INA_ECN_CE;
    if (ce)
    {
        ++m_stats.ceMarked;
    }
    if (m_goBackN && seq > m_rcvNxt)
    {
        ++m_stats.outOfOrderDrops;
        if (m_nakedHole != static_cast<int64_t>(m_rcvNxt))
        {
            m_nakedHole = static_cast<int64_t>(m_rcvNxt);
            ++m_stats.naksSent;
            SendAck(p, InaTransportHeader::FLAG_NAK | (ce ? InaTransportHeader::FLAG_ECE : 0));
        }
        m_pool->Free(p);
        return;
    }
    const bool duplicate = seq < m_rcvNxt || (seq < m_arrived.Tail() && m_arrived.At(seq) != 0);
    if (duplicate)
    {
        ++m_stats.duplicates;
    }
    else
    {
        Accept(p, h);
    }

    // Acknowledge before delivering: what a callback sends must not delay this ACK at the NIC.
    SendAck(p, ce ? InaTransportHeader::FLAG_ECE : 0);
    m_pool->Free(p);

    if (!duplicate)
    {
        DeliverCompleted();
    }
}

void
InaTransportReceiver::Accept(const InaPacket* p, const InaTransportHeader* h)
{
    const uint64_t seq = p->seq;
    while (m_arrived.Tail() <= seq)
    {
        m_arrived.PushBack(0);
    }
    m_arrived.At(seq) = 1;
    ++m_stats.packetsReceived;
    m_stats.payloadBytes += h->payloadBytes;

    NS_ABORT_MSG_IF(h->msgIndex < m_msgBase,
                    "InaTransportReceiver (flow " << m_flowId << "): new packet " << seq
                                                  << " of message " << h->msgIndex
                                                  << ", which was already delivered");
    const uint32_t k = h->msgIndex - m_msgBase;
    if (k >= m_msgs.size())
    {
        m_msgs.resize(k + 1);
    }
    RxMessage& m = m_msgs[k];
    if (!m.known)
    {
        m.known = true;
        m.firstSeq = h->msgFirstSeq;
        m.nPackets = h->msgPackets;
        m.bytes = h->msgBytes;
    }
    if (p->values != nullptr && h->payloadBytes > 0)
    {
        if (m.values.empty())
        {
            m.values.assign(m.bytes / 4, 0);
        }
        const uint64_t first = h->offset / 4;
        const uint64_t n = p->values->words.size();
        NS_ABORT_MSG_IF(n * 4 != h->payloadBytes || first + n > m.values.size(),
                        "InaTransportReceiver (flow "
                            << m_flowId << "): packet " << seq << " carries " << n << " values for "
                            << h->payloadBytes << " bytes at offset " << h->offset << " of a "
                            << m.bytes << "-byte message");
        std::memcpy(m.values.data() + first, p->values->words.data(), n * 4);
    }
    while (!m_arrived.Empty() && m_arrived.Front() != 0)
    {
        m_arrived.PopFront();
        ++m_rcvNxt;
    }
}

void
InaTransportReceiver::SendAck(const InaPacket* p, uint8_t flags)
{
    const InaTransportHeader* h = p->Header<InaTransportHeader>();
    InaPacket* a = m_pool->Alloc();
    a->dst = p->src;
    a->flowId = p->flowId;
    a->jobId = p->jobId;
    a->srcPort = m_localPort;
    a->dstPort = p->srcPort;
    a->priority = p->priority;
    a->wireBytes = m_ackBytes;
    a->seq = p->seq;
    a->sentPs = Simulator::Now().GetTimeStep();
    InaTransportHeader* ah = a->Header<InaTransportHeader>();
    ah->type = InaTransportHeader::ACK;
    ah->flags = flags;
    ah->cumAck = m_rcvNxt;
    ah->txOrder = h->txOrder;
    ah->tsPs = h->tsPs;
    ++m_stats.acksSent;
    m_host->Send(a);
}

void
InaTransportReceiver::DeliverCompleted()
{
    while (!m_msgs.empty() && m_msgs.front().known &&
           m_rcvNxt >= m_msgs.front().firstSeq + m_msgs.front().nPackets)
    {
        // Out of the queue before the callback, which may do anything (even receive).
        RxMessage m = std::move(m_msgs.front());
        m_msgs.pop_front();
        const uint32_t index = m_msgBase++;
        ++m_stats.messagesReceived;
        if (!m_receivedCb.IsNull())
        {
            m_receivedCb(index, m.bytes, m.values);
        }
    }
}

const InaTransportReceiver::Stats&
InaTransportReceiver::GetStats() const
{
    return m_stats;
}

uint64_t
InaTransportReceiver::GetCumulativeAck() const
{
    return m_rcvNxt;
}

uint16_t
InaTransportReceiver::GetLocalPort() const
{
    return m_localPort;
}

uint32_t
InaTransportReceiver::GetFlowId() const
{
    return m_flowId;
}

} // namespace ns3
