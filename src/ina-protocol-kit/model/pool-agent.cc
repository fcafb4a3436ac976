/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pool-agent.h"

#include "int32-quantizer.h"
#include "pool-header.h"

#include "ns3/ina-host.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PoolAgent");
NS_OBJECT_ENSURE_REGISTERED(PoolAgent);

TypeId
PoolAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PoolAgent")
                            .SetParent<AggregationAgent>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<PoolAgent>();
    return tid;
}

void
PoolAgent::DoDispose()
{
    m_timer.Cancel();
    m_host = nullptr;
    m_protocol = nullptr;
    m_indexTable = nullptr;
    m_tensors.clear();
    AggregationAgent::DoDispose();
}

void
PoolAgent::SetProtocol(Ptr<PoolProtocol> protocol)
{
    m_protocol = protocol;
}

const PoolAgent::Counters&
PoolAgent::GetCounters() const
{
    return m_counters;
}

uint32_t
PoolAgent::GetWindow() const
{
    return m_window;
}

double
PoolAgent::GetWindowBytes() const
{
    return m_cwnd;
}

uint32_t
PoolAgent::GetPendingTensors() const
{
    return m_pending;
}

uint64_t
PoolAgent::GetLastAck() const
{
    return m_lastAck;
}

void
PoolAgent::DoSetup()
{
    NS_ABORT_MSG_UNLESS(m_protocol, "PoolAgent: created without PoolProtocol");
    const JobContext& ctx = GetContext();
    m_host = GetHost();
    m_pool = &m_host->GetPool();
    m_jobId = ctx.jobId;
    // One flow id per (job, parameter server), not per worker: ATP's routing is fixed per job,
    // so a rack's packets of a fragment keep their order up to the PS (a flush and a later
    // pass-through of the same fragment must not overtake each other on different spines).
    m_flowId = ctx.flowIdBase;
    m_endpoint = m_protocol->GetEndpoint();
    m_protocolNumber = m_protocol->GetSwitchProtocol();
    m_servers = m_protocol->GetNServers();
    m_routes.clear();
    for (uint32_t p = 0; p < m_servers; ++p)
    {
        m_routes.push_back(m_protocol->GetWorkerRoute(static_cast<uint8_t>(p), GetRank()));
    }
    m_indexTable = &m_protocol->GetIndexTable();
    m_slots = m_protocol->GetMaxWindow();
    m_factor = m_protocol->GetScalingFactor();
    const double packet = PoolHeader::WIRE_BYTES;
    m_minBytes = m_protocol->GetMinWindow() * packet;
    m_maxBytes = m_protocol->GetMaxWindow() * packet;
    m_increase = m_protocol->GetAdditiveIncrease();
    m_lossDecrease = m_protocol->GetLossDecrease();
    m_fastRetransmit = m_protocol->GetFastRetransmit();
    m_rtoPs = m_protocol->GetRto().GetTimeStep();
    m_firstRtoPs = m_protocol->GetFirstRto().GetTimeStep();
    // A worker that lost its whole burst (its link down, the switch rebooting) resends only when
    // its FirstRto expires: until the silence has lasted that long, the others cannot tell a dead
    // fabric from such a peer.
    SetTimeoutGrace(m_protocol->GetFirstRto());
    uint64_t ring = 2;
    while (ring <= m_slots)
    {
        ring *= 2;
    }
    m_done.assign(ring, 0);
    m_ringMask = ring - 1;
    m_cwnd = m_protocol->GetInitialWindow() * packet;
    UpdateWindow();
    m_marker = m_window;
    BindEndpoint(m_endpoint, this);
}

uint32_t
PoolAgent::Reroute()
{
    for (uint32_t p = 0; p < m_servers; ++p)
    {
        m_routes.at(p) = m_protocol->GetWorkerRoute(static_cast<uint8_t>(p), GetRank());
    }
    if (HasGivenUp())
    {
        return 0;
    }
    // Sent as new, not flagged as resends: the new tree's switches aggregate them (a resend
    // would pass every worker's copy to the parameter server, an incast of the whole window).
    // A fragment some worker has already completed does not complete at a switch; its other
    // workers' timeouts resend it, and the server answers it again.
    uint32_t n = 0;
    for (uint64_t s = m_lastAck + 1; s < m_nextSeq; ++s)
    {
        if (m_done[s & m_ringMask] == 0)
        {
            SendFragment(s, false);
            ++m_stats.retransmissions;
            ++n;
        }
    }
    ArmTimer();
    return n;
}

void
PoolAgent::Abandon(const std::string& why)
{
    GiveUp(why);
    m_timer.Cancel();
}

void
PoolAgent::UpdateWindow()
{
    const auto w = static_cast<uint32_t>(m_cwnd / PoolHeader::WIRE_BYTES);
    m_window = std::min(std::max(w, m_protocol->GetMinWindow()), m_slots);
}

uint16_t
PoolAgent::IndexOf(uint64_t seq) const
{
    return (*m_indexTable)[(seq - 1) % m_slots];
}

uint8_t
PoolAgent::PriorityOf(uint64_t seq)
{
    return 0;
}

int64_t
PoolAgent::RtoPs() const
{
    return m_gotFirst ? m_rtoPs : m_firstRtoPs;
}

bool
PoolAgent::FastRetransmitEnabled() const
{
    return m_fastRetransmit;
}

bool
PoolAgent::IsDone(uint64_t seq) const
{
    if (seq <= m_lastAck)
    {
        return true;
    }
    return seq < m_nextSeq && m_done[seq & m_ringMask] != 0;
}

PoolAgent::Tensor&
PoolAgent::TensorOf(uint64_t seq)
{
    auto it =
        std::upper_bound(m_tensors.begin(), m_tensors.end(), seq, [](uint64_t s, const Tensor& t) {
            return s < t.firstSeq;
        });
    NS_ABORT_MSG_IF(it == m_tensors.begin(), "PoolAgent: fragment " << seq << " has no tensor");
    return *(it - 1);
}

void
PoolAgent::FinishEmptyTensor(uint64_t tensorId)
{
    --m_pending;
    NotifyDone(tensorId);
}

void
PoolAgent::DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values)
{
    uint64_t elements = (bytes + 3) / 4;
    if (values != nullptr)
    {
        elements = std::max<uint64_t>(elements, values->size());
    }
    const uint64_t fragments = (elements + PoolHeader::VALUES - 1) / PoolHeader::VALUES;
    ++m_pending;
    if (fragments == 0)
    {
        Simulator::ScheduleNow(&PoolAgent::FinishEmptyTensor, this, tensorId);
        return;
    }
    const bool wasIdle = m_nextSeq - 1 == m_lastAck;
    const auto ps = static_cast<uint8_t>(m_tensorsHanded++ % m_servers);
    m_tensors.push_back(Tensor{tensorId,
                               m_endSeq + 1,
                               fragments,
                               values != nullptr ? values->size() : 0,
                               values,
                               0,
                               ps});
    m_endSeq += fragments;
    if (wasIdle)
    {
        // A new burst: the other workers may not have reached this tensor yet.
        m_gotFirst = false;
        m_lastActivityPs = NowPs();
        NoteBurstStart();
    }
    SendNew();
    ArmTimer();
}

void
PoolAgent::SendNew()
{
    while (m_nextSeq <= m_endSeq && m_nextSeq <= m_lastAck + m_window)
    {
        SendFragment(m_nextSeq++, false);
    }
}

InaPacket*
PoolAgent::NewFragment(uint64_t seq, const PoolProtocol::WorkerRoute& r, uint8_t ps)
{
    InaPacket* p = m_pool->Alloc();
    p->dst = r.ps;
    p->flowId = r.flowId != 0 ? r.flowId : m_flowId + ps;
    p->jobId = m_jobId;
    p->srcPort = m_endpoint;
    p->dstPort = m_endpoint;
    p->protocol = m_protocolNumber;
    p->wireBytes = PoolHeader::WIRE_BYTES;
    p->seq = seq;
    p->ecn = INA_ECN_ECT;
    p->sentPs = NowPs();
    r.Stamp(p->Header<PoolHeader>());
    return p;
}

void
PoolAgent::SendFragment(uint64_t seq, bool resend)
{
    const Tensor& t = TensorOf(seq);
    const PoolProtocol::WorkerRoute& r = m_routes[t.ps];
    InaPacket* p = NewFragment(seq, r, t.ps);
    PoolHeader* h = p->Header<PoolHeader>();
    if (resend)
    {
        h->flags |= PoolHeader::FLAG_RESEND;
    }
    h->priority = PriorityOf(seq);
    h->aggregatorIndex = IndexOf(seq);
    h->psIndex = t.ps;
    h->reserved = r.epoch;
    h->jobIdAndSeq = PoolHeader::Key(m_jobId, seq);
    WriteValues(p, t, seq);
    ++m_stats.packetsSent;
    m_stats.wireBytesSent += PoolHeader::WIRE_BYTES;
    if (resend)
    {
        ++m_stats.retransmissions;
    }
    m_host->Send(p);
}

void
PoolAgent::WriteValues(InaPacket* p, const Tensor& t, uint64_t seq)
{
    if (t.values == nullptr)
    {
        return;
    }
    if (p->values == nullptr)
    {
        p->values = m_pool->AllocValues(PoolHeader::VALUES);
    }
    int32_t* out = p->values->AsInt32();
    const uint64_t begin = (seq - t.firstSeq) * PoolHeader::VALUES;
    uint32_t count = 0;
    if (begin < t.elements)
    {
        count = static_cast<uint32_t>(std::min<uint64_t>(PoolHeader::VALUES, t.elements - begin));
        m_counters.quantizationOverflows +=
            Int32Quantizer::Quantize(t.values->data() + begin, count, m_factor, out);
    }
    // Quantize wrote the fragment's lanes; those past the tensor's end are cleared, as a buffer
    // the packet already had (ESA answers a pull in the packet that brought it) may hold others.
    std::fill(out + count, out + PoolHeader::VALUES, 0);
}

uint32_t
PoolAgent::ResendRange(uint64_t from, uint64_t to)
{
    uint32_t n = 0;
    for (uint64_t s = from; s <= to && s < m_nextSeq; ++s)
    {
        if (m_done[s & m_ringMask] == 0)
        {
            SendFragment(s, true);
            ++n;
        }
    }
    return n;
}

void
PoolAgent::FastRetransmit(uint64_t above)
{
    if (!FastRetransmitEnabled() || m_lastAck + 1 <= m_highestResent)
    {
        return; // once per gap
    }
    ResendRange(m_lastAck + 1, above - 1);
    m_highestResent = above - 1;
    ++m_counters.fastRetransmits;
}

void
PoolAgent::HalveWindow()
{
    m_cwnd = std::max(m_cwnd / 2, m_minBytes);
    UpdateWindow();
}

void
PoolAgent::LossReaction()
{
    if (!m_lossDecrease || m_lastAck < m_recoverSeq)
    {
        return;
    }
    m_cwnd = std::max(m_cwnd / 2, m_minBytes);
    UpdateWindow();
    ++m_counters.lossDecreases;
    m_recoverSeq = m_nextSeq - 1;
}

void
PoolAgent::Receive(InaPacket* p, uint32_t port)
{
    const PoolHeader* h = p->Header<PoolHeader>();
    if (p->protocol != m_protocolNumber || p->jobId != m_jobId ||
        (h->flags & PoolHeader::FLAG_ACK) == 0)
    {
        ++m_counters.staleResults;
        m_pool->Free(p);
        return;
    }
    const int64_t now = NowPs();
    m_lastActivityPs = now;
    const uint64_t s = p->seq;
    if (s <= m_lastAck || s >= m_nextSeq || m_done[s & m_ringMask] != 0)
    {
        ++m_counters.duplicateResults;
        m_pool->Free(p);
        return;
    }
    NoteReceived();
    if (!m_gotFirst)
    {
        NoteFirstResult(now);
    }
    Tensor& t = TensorOf(s);
    // A fragment's values (the last of a tensor is padded; the job's progress allows for that).
    NoteResultBytes(4ULL * PoolHeader::VALUES);
    TakeValues(p, s, t);
    if ((h->flags & PoolHeader::FLAG_COLLISION) != 0)
    {
        ++m_counters.collidedResults;
    }
    const bool ecn = h->CongestionSeen(p);
    m_pool->Free(p);

    m_done[s & m_ringMask] = 1;
    ++m_counters.fragments;
    const bool tensorDone = ++t.done == t.fragments;
    const uint64_t doneId = t.id;
    AdvanceAck(s);
    if (s == m_marker)
    {
        AdjustWindow(s, ecn);
    }
    if (tensorDone)
    {
        --m_pending;
        while (!m_tensors.empty() && m_tensors.front().done == m_tensors.front().fragments)
        {
            m_tensors.pop_front();
        }
    }
    SendNew();
    if (tensorDone)
    {
        // Last: the worker may hand the next tensor from inside the callback.
        NotifyDone(doneId);
    }
}

void
PoolAgent::NoteFirstResult(int64_t nowPs)
{
    m_gotFirst = true;
    // The pending timer still runs on FirstRto: bring it forward.
    if (m_timer.IsRunning() && m_timerDuePs > nowPs + RtoPs())
    {
        m_timer.Cancel();
        ScheduleTimer(nowPs + RtoPs());
    }
}

void
PoolAgent::TakeValues(const InaPacket* p, uint64_t seq, const Tensor& t) const
{
    if (t.values == nullptr || p->values == nullptr)
    {
        return;
    }
    const uint64_t begin = (seq - t.firstSeq) * PoolHeader::VALUES;
    if (begin < t.elements)
    {
        Int32Quantizer::Dequantize(
            p->values->AsInt32(),
            static_cast<uint32_t>(std::min<uint64_t>(PoolHeader::VALUES, t.elements - begin)),
            m_factor,
            t.values->data() + begin);
    }
}

void
PoolAgent::AdvanceAck(uint64_t seq)
{
    if (seq != m_lastAck + 1)
    {
        ++m_outOfOrder;
        FastRetransmit(seq);
        return;
    }
    while (m_lastAck + 1 < m_nextSeq && m_done[(m_lastAck + 1) & m_ringMask] != 0)
    {
        m_done[(m_lastAck + 1) & m_ringMask] = 0;
        ++m_lastAck;
        m_outOfOrder -= m_lastAck != seq ? 1 : 0;
    }
    // Results already in above a new gap count as its first out-of-order result.
    if (m_outOfOrder > 0 && FastRetransmitEnabled() && m_lastAck + 1 > m_highestResent)
    {
        uint64_t above = m_lastAck + 2;
        while (above < m_nextSeq && m_done[above & m_ringMask] == 0)
        {
            ++above;
        }
        FastRetransmit(above);
    }
}

void
PoolAgent::AdjustWindow(uint64_t seq, bool ecn)
{
    if (ecn)
    {
        m_cwnd = std::max(m_cwnd / 2, m_minBytes);
        ++m_counters.ecnDecreases;
    }
    else
    {
        m_cwnd = std::min(m_cwnd + m_increase, m_maxBytes);
        ++m_counters.increases;
    }
    UpdateWindow();
    m_marker = seq + m_window;
}

void
PoolAgent::ArmTimer()
{
    if (!m_timer.IsRunning() && m_nextSeq - 1 > m_lastAck)
    {
        ScheduleTimer(m_lastActivityPs + RtoPs());
    }
}

void
PoolAgent::ScheduleTimer(int64_t atPs)
{
    const int64_t now = NowPs();
    m_timerDuePs = std::max(atPs, now);
    m_timer = Simulator::Schedule(TimeStep(m_timerDuePs - now), &PoolAgent::OnTimer, this);
}

void
PoolAgent::OnTimer()
{
    if (m_nextSeq - 1 == m_lastAck)
    {
        return; // idle: the next AllReduce re-arms
    }
    const int64_t now = NowPs();
    const int64_t rto = RtoPs();
    if (now < m_lastActivityPs + rto)
    {
        ScheduleTimer(m_lastActivityPs + rto);
        return;
    }
    ++m_counters.timeouts;
    // Only the timeouts after FirstRto of silence count towards MaxTimeouts (SetTimeoutGrace).
    if (NoteTimeout())
    {
        return; // MaxTimeouts in a row: given up, the timer stays off
    }
    // Resend the gap below the lowest fragment done out of order, or lastAck + 1 alone.
    uint64_t end = m_lastAck + 1;
    for (uint64_t s = m_lastAck + 2; s < m_nextSeq; ++s)
    {
        if (m_done[s & m_ringMask] != 0)
        {
            end = s - 1;
            break;
        }
    }
    ResendRange(m_lastAck + 1, end);
    m_highestResent = std::max(m_highestResent, end);
    LossReaction();
    m_lastActivityPs = now;
    ScheduleTimer(now + rto);
}

} // namespace ns3
