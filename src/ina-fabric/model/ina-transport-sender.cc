/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-transport-sender.h"

#include "ina-event.h"
#include "ina-transport-header.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaTransportSender");
NS_OBJECT_ENSURE_REGISTERED(InaTransportSender);

namespace
{
constexpr uint8_t IN_FLIGHT = 0;
constexpr uint8_t LOST = 1;
constexpr uint8_t ACKED = 2;
} // namespace

// Longer than 80 lines on purpose: one Attribute per parameter of the transport's window, loss
// recovery, timers and congestion control, each with its help and default.
TypeId
InaTransportSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaTransportSender")
            .SetParent<Object>()
            .SetGroupName("InaFabric")
            .AddConstructor<InaTransportSender>()
            .AddAttribute("Mtu",
                          "Largest data packet on the wire, in bytes, headers included.",
                          UintegerValue(1500),
                          MakeUintegerAccessor(&InaTransportSender::m_mtu),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("HeaderBytes",
                          "Wire bytes of headers in every data packet (Ethernet + IP + UDP + "
                          "transport); the rest of a packet is message payload.",
                          UintegerValue(64),
                          MakeUintegerAccessor(&InaTransportSender::m_headerBytes),
                          MakeUintegerChecker<uint32_t>(0))
            .AddAttribute("InitialWindow",
                          "Congestion window at the start, in wire bytes (at least one Mtu is "
                          "always allowed). The default, 40 full packets, is one BDP of a "
                          "100 Gb/s path with a 4.8 us RTT (a single-switch rack); slow start "
                          "fills longer paths within a few RTTs.",
                          UintegerValue(60000),
                          MakeUintegerAccessor(&InaTransportSender::m_initialWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxWindow",
                          "Upper bound of the congestion window in wire bytes, standing in for "
                          "the receiver's advertised window. The default is two BDPs of "
                          "100 Gb/s x 10 us.",
                          UintegerValue(250000),
                          MakeUintegerAccessor(&InaTransportSender::m_maxWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinRto",
                          "Lower bound of the retransmission timeout.",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&InaTransportSender::m_minRto),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("MaxRto",
                          "Upper bound of the retransmission timeout after backoff.",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&InaTransportSender::m_maxRto),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("InitialRto",
                          "Retransmission timeout before the first RTT sample.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&InaTransportSender::m_initialRto),
                          MakeTimeChecker(TimeStep(1)))
            .AddAttribute("MaxTimeouts",
                          "Give the flow up after this many consecutive retransmission timeouts "
                          "(Linux's tcp_retries2 is 15); 0 retries forever.",
                          UintegerValue(15),
                          MakeUintegerAccessor(&InaTransportSender::m_maxTimeouts),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("DupThresh",
                          "A packet is lost once this many packets sent after it have been "
                          "acknowledged.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&InaTransportSender::m_dupThresh),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DctcpG",
                          "DCTCP's EWMA gain g for alpha, applied once per window of data.",
                          DoubleValue(1.0 / 16),
                          MakeDoubleAccessor(&InaTransportSender::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("DctcpInitialAlpha",
                          "DCTCP's alpha before any feedback (Linux starts at 1: the first "
                          "marked window halves).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&InaTransportSender::m_initialAlpha),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("TailLossProbe",
                          "Send a probe after 2 SRTT without progress (RFC 8985), so a lost "
                          "tail is repaired in about an RTT rather than an RTO.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&InaTransportSender::m_tailLossProbe),
                          MakeBooleanChecker())
            .AddAttribute("NicQueueLimit",
                          "Hand the host's NIC a packet only while fewer than this many bytes "
                          "wait in its queue (an empty NIC always takes one); 0 disables the "
                          "check. Keep it below the NIC's queue capacity.",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&InaTransportSender::m_nicQueueLimit),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LossRecovery",
                          "sack: SACK scoreboard, RACK, fast retransmit and tail-loss probe (TCP "
                          "with SACK, Linux since 4.4); go-back-n: resend everything from the "
                          "first hole on a NAK or a timeout (an RDMA NIC; the receiver must "
                          "have GoBackN set).",
                          EnumValue(SACK),
                          MakeEnumAccessor(&InaTransportSender::m_lossRecovery),
                          MakeEnumChecker(SACK, "sack", GO_BACK_N, "go-back-n"))
            .AddAttribute("CongestionControl",
                          "dctcp: slow start, additive increase, halve on loss, cut by alpha/2 "
                          "on ECN echoes; reno: the same without the ECN reaction (TCP with ECN "
                          "off); none: the window stays at InitialWindow (an RDMA NIC without "
                          "DCQCN).",
                          EnumValue(DCTCP),
                          MakeEnumAccessor(&InaTransportSender::m_cc),
                          MakeEnumChecker(DCTCP, "dctcp", RENO, "reno", NONE, "none"))
            .AddAttribute("ProbeMinTimeout",
                          "Floor of the tail-loss probe's timeout, max(2 SRTT, this) (Linux "
                          "4.4's tcp_schedule_loss_probe uses 10 ms); 0: none.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&InaTransportSender::m_probeMinTimeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MessageOverhead",
                          "Host software time per message (a library's send call, copy and "
                          "bookkeeping): messages take it one after the other, from when each "
                          "is queued, and a message's first packet leaves only after its own; "
                          "0: none.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&InaTransportSender::m_messageOverhead),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Priority",
                          "InaPacket::priority of the flow's data packets (0 is served first).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaTransportSender::m_priority),
                          MakeUintegerChecker<uint8_t>());
    return tid;
}

InaTransportSender::InaTransportSender()
    : m_timerEvent(new InaEvent<InaTransportSender, &InaTransportSender::OnTimer>(this), false)
{
    m_timerEvents.reserve(4);
}

InaTransportSender::~InaTransportSender()
{
    // The scheduler may still hold the timer event; it must never call back into a dead sender.
    m_timerEvent->Cancel();
    m_readyEvent.Cancel();
    if (m_gate && m_waitingNic)
    {
        m_gate->Remove(this);
    }
    if (m_connected && m_host)
    {
        m_host->Unbind(m_localPort);
    }
}

void
InaTransportSender::DoDispose()
{
    m_timerEvent->Cancel();
    m_readyEvent.Cancel();
    if (m_gate && m_waitingNic)
    {
        m_gate->Remove(this);
    }
    m_waitingNic = false;
    m_gate = nullptr;
    if (m_connected && m_host)
    {
        m_host->Unbind(m_localPort);
    }
    m_connected = false;
    m_host = nullptr;
    m_msgs.clear();
    m_ackedCb = MakeNullCallback<void, uint32_t>();
    m_source = MessageSourceCallback();
    Object::DoDispose();
}

void
InaTransportSender::Connect(Ptr<InaHost> host,
                            uint16_t localPort,
                            InaAddress peer,
                            uint16_t peerPort,
                            uint32_t flowId,
                            uint32_t jobId)
{
    // Built only on an error path: messages are never formatted on the way through.
    auto who = [flowId]() {
        return "InaTransportSender (flow " + std::to_string(flowId) + "): ";
    };
    if (m_connected)
    {
        throw std::invalid_argument(who() + "Connect called twice");
    }
    if (!host)
    {
        throw std::invalid_argument(who() + "Connect needs a host, got null");
    }
    if (m_mtu < m_headerBytes + 4)
    {
        throw std::invalid_argument(who() + "Mtu (" + std::to_string(m_mtu) +
                                    ") must exceed HeaderBytes (" + std::to_string(m_headerBytes) +
                                    ") by at least 4 bytes of payload");
    }
    if (m_maxWindow < m_mtu)
    {
        throw std::invalid_argument(who() + "MaxWindow (" + std::to_string(m_maxWindow) +
                                    ") must be at least Mtu (" + std::to_string(m_mtu) + ")");
    }
    if (m_initialWindow > m_maxWindow)
    {
        throw std::invalid_argument(who() + "InitialWindow (" + std::to_string(m_initialWindow) +
                                    ") exceeds MaxWindow (" + std::to_string(m_maxWindow) + ")");
    }
    if (m_minRto > m_maxRto)
    {
        throw std::invalid_argument(who() + "MinRto exceeds MaxRto");
    }
    m_host = host;
    m_pool = &host->GetPool();
    m_peer = peer;
    m_localPort = localPort;
    m_peerPort = peerPort;
    m_flowId = flowId;
    m_jobId = jobId;
    m_mss = (m_mtu - m_headerBytes) & ~3u;
    m_cwnd = std::max<double>(m_initialWindow, m_mtu);
    m_ssthresh = m_maxWindow;
    m_alpha = m_initialAlpha;
    if (m_nicQueueLimit > 0)
    {
        m_gate = InaNicGate::For(host);
    }
    host->Bind(localPort, this);
    m_connected = true;
}

uint32_t
InaTransportSender::SendMessage(uint64_t bytes, std::vector<uint32_t> values)
{
    if (!m_connected)
    {
        throw std::invalid_argument("InaTransportSender (flow " + std::to_string(m_flowId) +
                                    "): SendMessage before Connect");
    }
    if (m_failed)
    {
        const uint64_t index = static_cast<uint64_t>(m_msgBase) + m_msgs.size();
        Enqueue(bytes, std::move(values), 0); // checks only: a failed flow queues nothing
        ++m_msgBase;                          // keeps indices distinct; nothing will be sent
        ++m_stats.messagesAbandoned;
        return static_cast<uint32_t>(index);
    }
    const uint32_t index = Enqueue(bytes, std::move(values), Simulator::Now().GetTimeStep());
    TrySend();
    if (m_timerMode == TimerMode::NONE)
    {
        RearmTimer(Simulator::Now().GetTimeStep());
    }
    return index;
}

uint32_t
InaTransportSender::Enqueue(uint64_t bytes, std::vector<uint32_t> values, int64_t queuedPs)
{
    auto who = [this]() {
        return "InaTransportSender (flow " + std::to_string(m_flowId) + "): ";
    };
    if (!values.empty() && values.size() * 4 != bytes)
    {
        throw std::invalid_argument(who() + "a message of " + std::to_string(bytes) +
                                    " bytes cannot carry " + std::to_string(values.size()) +
                                    " 32-bit values (expected bytes = 4 x values)");
    }
    const uint64_t packets = bytes == 0 ? 1 : (bytes + m_mss - 1) / m_mss;
    if (packets > std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(who() + "a message of " + std::to_string(bytes) +
                                    " bytes needs more than 2^32 packets");
    }
    const uint64_t index = static_cast<uint64_t>(m_msgBase) + m_msgs.size();
    if (index >= std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(who() + "more than 2^32 - 1 messages on one flow");
    }
    if (m_failed)
    {
        return static_cast<uint32_t>(index);
    }
    m_msgs.push_back(TxMessage{m_seqAssigned,
                               bytes,
                               static_cast<uint32_t>(packets),
                               std::move(values),
                               queuedPs});
    m_seqAssigned += packets;
    return static_cast<uint32_t>(index);
}

void
InaTransportSender::SetMessageSource(MessageSourceCallback source)
{
    m_source = source;
}

bool
InaTransportSender::PullMessage()
{
    if (m_source.IsNull() || m_failed)
    {
        return false;
    }
    uint64_t bytes = 0;
    std::vector<uint32_t> values;
    Time queued;
    if (!m_source(bytes, values, queued))
    {
        return false;
    }
    Enqueue(bytes, std::move(values), queued.GetTimeStep());
    return true;
}

void
InaTransportSender::Wake()
{
    if (!m_connected)
    {
        throw std::invalid_argument("InaTransportSender (flow " + std::to_string(m_flowId) +
                                    "): Wake before Connect");
    }
    if (m_failed)
    {
        return;
    }
    TrySend();
    if (m_timerMode == TimerMode::NONE)
    {
        RearmTimer(Simulator::Now().GetTimeStep());
    }
}

void
InaTransportSender::SetMessageAckedCallback(MessageAckedCallback cb)
{
    m_ackedCb = cb;
}

uint32_t
InaTransportSender::WireOf(const TxMessage& m, uint64_t seq) const
{
    const uint64_t offset = (seq - m.firstSeq) * m_mss;
    const uint64_t left = m.bytes - offset;
    return m_headerBytes + static_cast<uint32_t>(left < m_mss ? left : m_mss);
}

void
InaTransportSender::TrySend()
{
    while (true)
    {
        // Lost packets go first: they hold back the cumulative point and the message callbacks.
        while (!m_retxQueue.Empty())
        {
            const uint64_t seq = m_retxQueue.Front();
            if (seq >= m_sndUna && m_slots.At(seq).state == LOST)
            {
                break;
            }
            m_retxQueue.PopFront(); // acknowledged after all, or already resent by a probe
        }
        if (!m_retxQueue.Empty())
        {
            const uint64_t seq = m_retxQueue.Front();
            const uint32_t wire = m_slots.At(seq).wire;
            if (m_pipe + wire > m_cwnd || !NicAdmits(wire))
            {
                return;
            }
            m_retxQueue.PopFront();
            Transmit(seq, true);
            continue;
        }
        if (m_sndNxt == m_seqAssigned && !PullMessage())
        {
            return;
        }
        const uint32_t wire = WireOf(m_msgs[m_sendMsg - m_msgBase], m_sndNxt);
        if (m_pipe + wire > m_cwnd ||
            (!m_messageOverhead.IsZero() && !MessageReady(Simulator::Now().GetTimeStep())) ||
            !NicAdmits(wire))
        {
            return;
        }
        SendNewPacket();
    }
}

bool
InaTransportSender::MessageReady(int64_t nowPs)
{
    if (m_readyMsg != m_sendMsg)
    {
        m_readyMsg = m_sendMsg;
        m_readyPs = -1;
    }
    if (m_readyPs < 0)
    {
        // The host's software handles messages in order, each once queued and once it is done
        // with the one before: computed when first needed, it depends only on queueing times.
        const TxMessage& m = m_msgs[m_sendMsg - m_msgBase];
        m_readyPs = std::max(m.queuedPs, m_cpuFreePs) + m_messageOverhead.GetTimeStep();
        m_cpuFreePs = m_readyPs;
    }
    if (nowPs >= m_readyPs)
    {
        return true;
    }
    if (!m_readyEvent.IsRunning())
    {
        m_readyEvent = Simulator::Schedule(TimeStep(m_readyPs - nowPs),
                                           &InaTransportSender::OnMessageReady,
                                           this);
    }
    return false;
}

void
InaTransportSender::OnMessageReady()
{
    if (m_failed)
    {
        return;
    }
    TrySend();
    if (m_timerMode == TimerMode::NONE)
    {
        RearmTimer(Simulator::Now().GetTimeStep());
    }
}

bool
InaTransportSender::NicAdmits(uint32_t wire)
{
    if (!m_gate || m_gate->HasRoom(wire, m_nicQueueLimit))
    {
        return true;
    }
    if (!m_waitingNic)
    {
        m_waitingNic = true;
        ++m_stats.nicWaits;
        m_gate->Wait(this, GetNicDrainTo());
    }
    return false;
}

uint64_t
InaTransportSender::GetNicDrainTo() const
{
    // Half the limit lets one wake-up admit many packets; a limit under two packets must drain
    // far enough for a full packet to fit, or to empty, so a wake-up always admits one.
    if (m_nicQueueLimit >= 2 * m_mtu)
    {
        return m_nicQueueLimit / 2;
    }
    return m_nicQueueLimit > m_mtu ? m_nicQueueLimit - m_mtu : 0;
}

bool
InaTransportSender::OnNicReady()
{
    m_waitingNic = false;
    const uint64_t sent = m_stats.dataPacketsSent;
    TrySend();
    if (m_timerMode == TimerMode::NONE)
    {
        RearmTimer(Simulator::Now().GetTimeStep());
    }
    return !(m_waitingNic && m_stats.dataPacketsSent == sent);
}

void
InaTransportSender::SendNewPacket()
{
    const TxMessage& m = m_msgs[m_sendMsg - m_msgBase];
    const uint64_t seq = m_sndNxt;
    Slot s;
    s.firstTxPs = Simulator::Now().GetTimeStep();
    s.msgIndex = m_sendMsg;
    s.wire = WireOf(m, seq);
    m_slots.PushBack(s); // m_slots.Tail() == m_sndNxt, so this is At(seq)
    ++m_sndNxt;
    if (m_sndNxt == m.firstSeq + m.nPackets)
    {
        ++m_sendMsg;
    }
    Transmit(seq, false);
}

void
InaTransportSender::Transmit(uint64_t seq, bool retransmission)
{
    const int64_t now = Simulator::Now().GetTimeStep();
    Slot& s = m_slots.At(seq);
    const TxMessage& m = m_msgs[s.msgIndex - m_msgBase];
    s.txOrder = ++m_txCounter;
    s.state = IN_FLIGHT;
    m_pipe += s.wire;
    m_txFifo.PushBack(TxRecord{seq, s.txOrder, now});

    const uint64_t offset = (seq - m.firstSeq) * m_mss;
    const uint32_t payload = s.wire - m_headerBytes;
    InaPacket* p = m_pool->Alloc();
    p->dst = m_peer;
    p->flowId = m_flowId;
    p->jobId = m_jobId;
    p->srcPort = m_localPort;
    p->dstPort = m_peerPort;
    p->priority = m_priority;
    p->ecn = 1;
    p->wireBytes = s.wire;
    p->seq = seq;
    p->sentPs = s.firstTxPs;
    InaTransportHeader* h = p->Header<InaTransportHeader>();
    h->type = InaTransportHeader::DATA;
    h->payloadBytes = payload;
    h->msgPackets = m.nPackets;
    h->msgIndex = s.msgIndex;
    h->msgFirstSeq = m.firstSeq;
    h->msgBytes = m.bytes;
    h->offset = offset;
    h->txOrder = s.txOrder;
    h->tsPs = now;
    if (!m.values.empty() && payload > 0)
    {
        p->values = m_pool->AllocValues(payload / 4);
        std::memcpy(p->values->words.data(), m.values.data() + offset / 4, payload);
    }
    ++m_stats.dataPacketsSent;
    m_stats.wireBytesSent += s.wire;
    if (retransmission)
    {
        ++m_stats.retransmissions;
    }
    m_host->Send(p);
}

uint64_t
InaTransportSender::AckSlot(uint64_t seq)
{
    Slot& s = m_slots.At(seq);
    if (s.state == ACKED)
    {
        return 0;
    }
    if (s.state == IN_FLIGHT)
    {
        m_pipe -= s.wire;
    }
    s.state = ACKED;
    m_stats.payloadBytesAcked += s.wire - m_headerBytes;
    return s.wire;
}

void
InaTransportSender::UpdateRtt(int64_t rttPs)
{
    if (rttPs <= 0)
    {
        return;
    }
    if (!m_haveRtt)
    {
        m_haveRtt = true;
        m_srttPs = rttPs;
        m_rttvarPs = rttPs / 2;
        m_minRttPs = rttPs;
        return;
    }
    // RFC 6298 with integer arithmetic, so runs repeat to the picosecond.
    const int64_t err = rttPs > m_srttPs ? rttPs - m_srttPs : m_srttPs - rttPs;
    m_rttvarPs += (err - m_rttvarPs) / 4;
    m_srttPs += (rttPs - m_srttPs) / 8;
    m_minRttPs = std::min(m_minRttPs, rttPs);
}

void
InaTransportSender::Receive(InaPacket* p, uint32_t port)
{
    const InaTransportHeader* h = p->Header<InaTransportHeader>();
    if (h->type != InaTransportHeader::ACK || p->flowId != m_flowId)
    {
        ++m_stats.strayPackets;
        m_pool->Free(p);
        return;
    }
    if (m_failed)
    {
        m_pool->Free(p); // a late ACK changes nothing: the flow is over
        return;
    }
    const int64_t now = Simulator::Now().GetTimeStep();
    const uint64_t seq = p->seq;
    const uint64_t cumAck = std::min<uint64_t>(h->cumAck, m_sndNxt);
    const bool ece = (h->flags & InaTransportHeader::FLAG_ECE) != 0;
    const bool nak = (h->flags & InaTransportHeader::FLAG_NAK) != 0;
    const uint64_t echoedTxOrder = h->txOrder;
    const int64_t rtt = now - h->tsPs;
    m_pool->Free(p);

    ++m_stats.acksReceived;
    UpdateRtt(rtt);
    if (echoedTxOrder > m_rackTxOrder)
    {
        m_rackTxOrder = echoedTxOrder;
        m_rackRttPs = rtt;
    }
    const uint64_t acked = TakeAcks(seq, cumAck);
    UpdateCongestion(acked, ece);
    if (m_lossRecovery == GO_BACK_N)
    {
        if (nak)
        {
            ++m_stats.naks;
            ++m_stats.goBacks;
            RequeueUnacked();
        }
    }
    else if (DetectLosses(now))
    {
        EnterLossRecovery();
    }
    if (acked > 0)
    {
        IncreaseWindow(acked);
        m_backoff = 0;
        m_probeOutstanding = false;
    }
    const auto [firstDone, lastDone] = RetireMessages();
    TrySend();
    if (acked > 0 || m_timerMode == TimerMode::NONE)
    {
        RearmTimer(now);
    }
    // Last, with the state consistent: a callback may queue the next message right away.
    if (!m_ackedCb.IsNull())
    {
        for (uint32_t i = firstDone; i != lastDone; ++i)
        {
            m_ackedCb(i);
        }
    }
}

uint64_t
InaTransportSender::TakeAcks(uint64_t seq, uint64_t cumAck)
{
    uint64_t acked = 0;
    // Go-back-N receivers take packets in order only: their ACKs are cumulative, and a NAK
    // names the packet it dropped, which is not acknowledged.
    if (m_lossRecovery == SACK && seq >= m_sndUna && seq < m_sndNxt)
    {
        acked += AckSlot(seq);
    }
    while (m_sndUna < m_sndNxt && (m_sndUna < cumAck || m_slots.At(m_sndUna).state == ACKED))
    {
        acked += AckSlot(m_sndUna);
        m_slots.PopFront();
        ++m_sndUna;
    }
    return acked;
}

void
InaTransportSender::UpdateCongestion(uint64_t acked, bool ece)
{
    // DCTCP: every ACK echoes its own packet's CE, so marked bytes are exact.
    m_windowAckedBytes += acked;
    if (ece)
    {
        ++m_stats.ecnEchoes;
        m_windowMarkedBytes += acked;
    }
    if (m_inFastRecovery && m_sndUna >= m_lossEpochEnd)
    {
        m_inFastRecovery = false;
    }
    if (m_inCwr && m_sndUna >= m_cwrEnd)
    {
        m_inCwr = false;
    }
    if (m_sndUna >= m_alphaWindowEnd && m_windowAckedBytes > 0)
    {
        const double f = static_cast<double>(m_windowMarkedBytes) / m_windowAckedBytes;
        m_alpha = (1 - m_g) * m_alpha + m_g * f;
        m_windowAckedBytes = 0;
        m_windowMarkedBytes = 0;
        m_alphaWindowEnd = m_sndNxt;
    }
    if (ece)
    {
        ReactToEce();
    }
}

std::pair<uint32_t, uint32_t>
InaTransportSender::RetireMessages()
{
    const uint32_t firstDone = m_msgBase;
    while (!m_msgs.empty() && m_sndUna >= m_msgs.front().firstSeq + m_msgs.front().nPackets)
    {
        m_msgs.pop_front();
        ++m_msgBase;
        ++m_stats.messagesAcked;
    }
    return {firstDone, m_msgBase};
}

bool
InaTransportSender::DetectLosses(int64_t nowPs)
{
    // Transmissions in order: the front is the oldest whose fate is unknown. Once one is not
    // (yet) lost, no later one is either, so the scan stops there.
    bool found = false;
    const int64_t reorderWindow = m_minRttPs / 4;
    while (!m_txFifo.Empty())
    {
        const TxRecord r = m_txFifo.Front();
        if (r.seq < m_sndUna)
        {
            m_txFifo.PopFront();
            continue;
        }
        Slot& s = m_slots.At(r.seq);
        if (s.state != IN_FLIGHT || s.txOrder != r.txOrder)
        {
            m_txFifo.PopFront(); // delivered, or superseded by a later transmission
            continue;
        }
        if (r.txOrder >= m_rackTxOrder)
        {
            break; // nothing sent after it is known to have arrived
        }
        const bool lost = r.txOrder + m_dupThresh <= m_rackTxOrder ||
                          nowPs - r.txPs >= m_rackRttPs + reorderWindow;
        if (!lost)
        {
            break;
        }
        s.state = LOST;
        m_pipe -= s.wire;
        m_retxQueue.PushBack(r.seq);
        m_txFifo.PopFront();
        ++m_stats.lossesDetected;
        found = true;
    }
    return found;
}

void
InaTransportSender::RequeueUnacked()
{
    m_retxQueue.Clear(0);
    m_txFifo.Clear(0);
    for (uint64_t seq = m_sndUna; seq < m_sndNxt; ++seq)
    {
        Slot& s = m_slots.At(seq);
        if (s.state == IN_FLIGHT)
        {
            s.state = LOST;
        }
        if (s.state == LOST)
        {
            m_retxQueue.PushBack(seq);
        }
    }
    m_pipe = 0; // what is left in flight is acknowledged, and ACKED slots are not in the pipe
}

void
InaTransportSender::EnterLossRecovery()
{
    if (m_sndUna < m_lossEpochEnd)
    {
        return; // this window was already cut (by a loss or a timeout)
    }
    m_inFastRecovery = true;
    m_lossEpochEnd = m_sndNxt;
    if (m_inCwr || m_cc == NONE)
    {
        return; // an ECN cut of this window already happened; one cut per window
    }
    m_ssthresh = std::max(m_cwnd / 2, 2.0 * m_mtu);
    m_cwnd = m_ssthresh;
    ++m_stats.lossReductions;
}

void
InaTransportSender::ReactToEce()
{
    if (m_cc != DCTCP || m_inCwr || m_inFastRecovery)
    {
        return; // once per window
    }
    m_cwnd = std::max(m_cwnd * (1 - m_alpha / 2), static_cast<double>(m_mtu));
    m_ssthresh = m_cwnd;
    m_inCwr = true;
    m_cwrEnd = m_sndNxt;
    ++m_stats.ecnReductions;
}

void
InaTransportSender::IncreaseWindow(uint64_t ackedWire)
{
    if (m_inFastRecovery || m_inCwr || m_cc == NONE)
    {
        return;
    }
    if (m_cwnd < m_ssthresh)
    {
        m_cwnd += ackedWire;
    }
    else
    {
        m_cwnd += static_cast<double>(m_mtu) * ackedWire / m_cwnd;
    }
    m_cwnd = std::min(m_cwnd, static_cast<double>(m_maxWindow));
}

int64_t
InaTransportSender::CurrentRtoPs() const
{
    int64_t rto = m_haveRtt ? std::max(m_minRto.GetTimeStep(), m_srttPs + 4 * m_rttvarPs)
                            : m_initialRto.GetTimeStep();
    const int64_t maxRto = m_maxRto.GetTimeStep();
    for (uint32_t i = 0; i < m_backoff && rto < maxRto; ++i)
    {
        rto *= 2;
    }
    return std::min(rto, maxRto);
}

void
InaTransportSender::RearmTimer(int64_t nowPs)
{
    if (m_sndUna == m_sndNxt)
    {
        m_timerMode = TimerMode::NONE;
        return;
    }
    const int64_t rto = CurrentRtoPs();
    const int64_t pto = std::max(2 * m_srttPs, m_probeMinTimeout.GetTimeStep());
    if (m_tailLossProbe && m_lossRecovery == SACK && m_haveRtt && !m_probeOutstanding &&
        !m_inFastRecovery && pto < rto)
    {
        m_timerMode = TimerMode::PROBE;
        SetDeadline(nowPs + pto, nowPs);
        return;
    }
    m_timerMode = TimerMode::RTO;
    SetDeadline(nowPs + rto, nowPs);
}

void
InaTransportSender::SetDeadline(int64_t deadlinePs, int64_t nowPs)
{
    m_deadlinePs = deadlinePs;
    // A pending event at or before the deadline will find it and re-arm; only an earlier
    // deadline needs an event of its own (rare: a timeout re-armed as a probe, a falling SRTT).
    if (m_timerEvents.empty() || deadlinePs < m_timerEvents.back())
    {
        m_timerEvents.push_back(deadlinePs);
        Simulator::Schedule(TimeStep(deadlinePs - nowPs), m_timerEvent);
    }
}

void
InaTransportSender::OnTimer()
{
    m_timerEvents.pop_back(); // events run in time order: this was the earliest
    if (m_timerMode == TimerMode::NONE)
    {
        return;
    }
    const int64_t now = Simulator::Now().GetTimeStep();
    if (now < m_deadlinePs)
    {
        SetDeadline(m_deadlinePs, now);
        return;
    }
    if (m_timerMode == TimerMode::PROBE)
    {
        SendProbe();
        m_probeOutstanding = true;
        m_timerMode = TimerMode::RTO;
        SetDeadline(now + CurrentRtoPs(), now);
        return;
    }
    OnTimeout();
}

void
InaTransportSender::SendProbe()
{
    ++m_stats.probes;
    if ((m_sndNxt < m_seqAssigned || PullMessage()) &&
        (m_messageOverhead.IsZero() || MessageReady(Simulator::Now().GetTimeStep())))
    {
        SendNewPacket(); // new data makes the best probe, window or not
        return;
    }
    for (uint64_t seq = m_sndNxt; seq-- > m_sndUna;)
    {
        Slot& s = m_slots.At(seq);
        if (s.state != ACKED)
        {
            if (s.state == IN_FLIGHT)
            {
                m_pipe -= s.wire; // Transmit counts it in flight again
            }
            Transmit(seq, true);
            return;
        }
    }
}

void
InaTransportSender::OnTimeout()
{
    const int64_t now = Simulator::Now().GetTimeStep();
    if (m_maxTimeouts > 0 && m_backoff >= m_maxTimeouts)
    {
        GiveUp();
        return;
    }
    ++m_stats.timeouts;
    RequeueUnacked();
    if (m_lossRecovery == GO_BACK_N)
    {
        ++m_stats.goBacks;
    }
    if (m_cc != NONE)
    {
        m_ssthresh = std::max(m_cwnd / 2, 2.0 * m_mtu);
        m_cwnd = m_mtu;
    }
    m_inFastRecovery = false;
    m_inCwr = false;
    m_lossEpochEnd = m_sndNxt; // losses among these packets do not cut the window again
    m_cwrEnd = m_sndNxt;
    if (m_backoff < 62)
    {
        ++m_backoff;
    }
    m_probeOutstanding = false;
    TrySend();
    m_timerMode = TimerMode::RTO;
    SetDeadline(now + CurrentRtoPs(), now);
}

void
InaTransportSender::GiveUp()
{
    m_failed = true;
    m_timerMode = TimerMode::NONE;
    m_stats.messagesAbandoned += m_msgs.size();
    m_msgBase += m_msgs.size();
    m_msgs.clear();
    m_retxQueue.Clear(0);
    m_txFifo.Clear(0);
    m_slots.Clear(m_sndNxt);
    m_sndUna = m_sndNxt;
    m_seqAssigned = m_sndNxt;
    m_sendMsg = m_msgBase;
    m_pipe = 0;
    m_readyEvent.Cancel();
    if (m_gate && m_waitingNic)
    {
        m_gate->Remove(this);
        m_waitingNic = false;
    }
}

bool
InaTransportSender::IsFailed() const
{
    return m_failed;
}

const InaTransportSender::Stats&
InaTransportSender::GetStats() const
{
    return m_stats;
}

uint32_t
InaTransportSender::GetMss() const
{
    return m_connected ? m_mss : (m_mtu - std::min(m_mtu, m_headerBytes)) & ~3u;
}

double
InaTransportSender::GetCwnd() const
{
    return m_cwnd;
}

double
InaTransportSender::GetSsthresh() const
{
    return m_ssthresh;
}

double
InaTransportSender::GetAlpha() const
{
    return m_alpha;
}

Time
InaTransportSender::GetSrtt() const
{
    return TimeStep(m_srttPs);
}

Time
InaTransportSender::GetRto() const
{
    return TimeStep(CurrentRtoPs());
}

uint64_t
InaTransportSender::GetBytesInFlight() const
{
    return m_pipe;
}

bool
InaTransportSender::IsIdle() const
{
    return m_msgs.empty() && !m_failed;
}

uint32_t
InaTransportSender::GetFlowId() const
{
    return m_flowId;
}

uint16_t
InaTransportSender::GetLocalPort() const
{
    return m_localPort;
}

} // namespace ns3
