/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-agent.h"

#include "esa-priority.h"
#include "esa-protocol.h"

#include "ns3/ina-host.h"
#include "ns3/int32-quantizer.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EsaAgent");
NS_OBJECT_ENSURE_REGISTERED(EsaAgent);

TypeId
EsaAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EsaAgent")
                            .SetParent<PoolAgent>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<EsaAgent>();
    return tid;
}

void
EsaAgent::DoDispose()
{
    m_esa = nullptr;
    PoolAgent::DoDispose();
}

const EsaAgent::EsaCounters&
EsaAgent::GetEsaCounters() const
{
    return m_esaCounts;
}

int64_t
EsaAgent::GetEsaRtoPs() const
{
    return m_rto.GetRto();
}

uint8_t
EsaAgent::GetLastPriority() const
{
    return m_prio;
}

void
EsaAgent::Configure()
{
    m_esa = dynamic_cast<EsaProtocol*>(PeekPointer(m_protocol));
    NS_ABORT_MSG_UNLESS(m_esa != nullptr, "EsaAgent: created without EsaProtocol");
    uint64_t ring = 2;
    while (ring < 2ULL * m_protocol->GetMaxWindow())
    {
        ring *= 2;
    }
    m_mask = ring - 1;
    m_sentPs.assign(ring, 0);
    m_reminded.assign(ring, 0);
    m_pulled.assign(ring, 0);
    m_cacheSeq.assign(ring, 0);
    m_cacheValuesOn = GetContext().checkValues;
    m_cacheValues.assign(m_cacheValuesOn ? ring * PoolHeader::VALUES : 0, 0);
    const int64_t minPs = m_esa->GetRtoMin().GetTimeStep();
    m_rtoMinPs = minPs;
    m_rtoMaxPs = std::max(minPs, m_esa->GetRtoMax().GetTimeStep());
    m_stallRtoPs = minPs;
    m_rto = EsaRtoEstimator(minPs, minPs, m_rtoMaxPs);
    m_firstRtoPs = m_protocol->GetFirstRto().GetTimeStep();
    m_dupThreshold = m_esa->GetDupAckThreshold();
    const InaTopology& topo = GetContext().fabric->GetTopology();
    const uint32_t host = GetContext().workerHosts.at(GetRank());
    m_rateBps = static_cast<double>(topo.GetLink(topo.Neighbors(host).front().second).rateBps);
    m_configured = true;
}

uint16_t
EsaAgent::IndexOf(uint64_t seq) const
{
    return static_cast<const EsaProtocol*>(PeekPointer(m_protocol))->IndexOf(seq);
}

bool
EsaAgent::FastRetransmitEnabled() const
{
    return false; // replaced by the duplicate-result reminder
}

int64_t
EsaAgent::RtoPs() const
{
    if (!m_configured)
    {
        return m_protocol->GetFirstRto().GetTimeStep();
    }
    return GotFirst() ? std::min(m_rto.GetRto(), m_stallRtoPs) : m_firstRtoPs;
}

uint8_t
EsaAgent::PriorityOf(uint64_t seq)
{
    if (!m_configured)
    {
        Configure();
    }
    const Tensor& t = TensorOf(seq);
    if (t.firstSeq == m_prioFirstSeq)
    {
        return m_prio;
    }
    const int64_t now = NowPs();
    if (m_startPs < 0)
    {
        m_startPs = now;
    }
    double timeS = 0;
    switch (m_esa->GetTimeSource())
    {
    case EsaPriority::TimeSource::REMAINING: {
        const EsaJobProfile* profile = m_esa->GetProfile();
        const auto iteration = static_cast<uint32_t>(t.id >> 32);
        const auto piece = static_cast<uint32_t>(t.id & 0xffffffffULL);
        if (profile != nullptr && iteration < profile->GetIterations() &&
            piece < profile->GetPieces().size())
        {
            // The job's remaining communication and computation, from its workload.
            timeS = profile->RemainingTime(iteration, piece, m_rateBps);
            break;
        }
        // Without the workload: what this worker still has to all-reduce, from this tensor on,
        // at its line rate.
        const double handed = static_cast<double>(m_stats.payloadBytes);
        const double done = static_cast<double>(m_counters.fragments) * PoolHeader::VALUES * 4;
        timeS = EsaPriority::RemainingTime(std::max(0.0, handed - done), m_rateBps, 0);
        break;
    }
    case EsaPriority::TimeSource::ATTAINED:
        // The service so far, at least one nanosecond (the first push would be infinite).
        timeS = std::max<int64_t>(now - m_startPs, 1000) * 1e-12;
        break;
    case EsaPriority::TimeSource::FIXED:
        timeS = m_esa->GetFixedTime();
        break;
    }
    const auto piece = static_cast<uint32_t>(t.id & 0xffffffffULL);
    EsaPriority::Clamp clamp = EsaPriority::Clamp::NONE;
    m_prio = EsaPriority::Compute(timeS,
                                  m_esa->GetLayers(),
                                  m_esa->LayerOf(piece),
                                  m_esa->GetCommCompRatio(),
                                  m_esa->GetPriorityScale(),
                                  &clamp);
    m_esaCounts.clampedLow += clamp == EsaPriority::Clamp::LOW ? 1 : 0;
    m_esaCounts.clampedHigh += clamp == EsaPriority::Clamp::HIGH ? 1 : 0;
    m_prioFirstSeq = t.firstSeq;
    return m_prio;
}

void
EsaAgent::SendFragment(uint64_t seq, bool resend)
{
    if (!m_configured)
    {
        Configure();
    }
    if (!resend)
    {
        if (m_pulled[seq & m_mask] == seq)
        {
            ++m_esaCounts.sendsSkipped; // the parameter server already has it
            if (m_cacheSeq[seq & m_mask] == seq)
            {
                // Its result came early: deliver it once the window has taken the fragment.
                Simulator::ScheduleNow(&EsaAgent::DeliverEarly, this, seq);
            }
            return;
        }
        m_sentPs[seq & m_mask] = NowPs();
        m_reminded[seq & m_mask] = 0;
        PoolAgent::SendFragment(seq, false);
        return;
    }
    // ATP resends on a timeout; ESA reminds the parameter server instead (once per expiry it
    // also backs the timeout off).
    if (m_counters.timeouts != m_timeoutsSeen)
    {
        m_timeoutsSeen = m_counters.timeouts;
        m_rto.Backoff();
    }
    ++m_esaCounts.timeoutReminders;
    SendReminder(seq);
}

void
EsaAgent::SendReminder(uint64_t seq)
{
    const Tensor& t = TensorOf(seq);
    const PoolProtocol::WorkerRoute& r = m_protocol->GetWorkerRoute(t.ps, GetRank());
    m_reminded[seq & m_mask] = seq;
    m_sentPs[seq & m_mask] = NowPs();
    // ESA's routes pin no flow of their own (WorkerRoute::flowId 0): the job's flow to the PS.
    InaPacket* p = NewFragment(seq, r, t.ps);
    PoolHeader* h = p->Header<PoolHeader>();
    EsaHeader::SetKind(h, EsaHeader::CONTROL);
    h->reserved = EsaHeader::WORKER_REMINDER;
    // The reminder is the worker's retransmission: "all retransmitted packets will be directly
    // sent to the PS" and "only the workers who lost packets are required to resend" (Section
    // 5.1). It carries this worker's own contribution, so the server has it without pulling it:
    // a round trip server -> worker -> server less per recovery, and one crossing less of the
    // worker's NIC queue, which holds up to a window of fragments. A worker that reminds cannot
    // tell whether its gradient or the result was lost; the server's merge takes a contribution
    // it already has (from the switch's flush) at most once.
    ++m_stats.retransmissions;
    WriteValues(p, t, seq);
    h->priority = 0;
    h->aggregatorIndex = IndexOf(seq);
    h->psIndex = t.ps;
    h->jobIdAndSeq = PoolHeader::Key(GetContext().jobId, seq);
    ++m_stats.packetsSent;
    m_stats.wireBytesSent += p->wireBytes;
    GetHost()->Send(p);
}

bool
EsaAgent::CanAnswerPull(uint64_t seq)
{
    // Outstanding: handed and not done, sent or not yet (a worker behind the others: it answers
    // now and will not send the fragment to the switch any more).
    if (seq > GetLastAck() && !IsDone(seq) && GetPendingTensors() > 0)
    {
        const Tensor& t = TensorOf(seq);
        return seq >= t.firstSeq && seq < t.firstSeq + t.fragments;
    }
    return false;
}

void
EsaAgent::WriteCachedResult(InaPacket* p, uint32_t slot)
{
    ++m_esaCounts.pullsFromCache;
    p->Header<PoolHeader>()->reserved = EsaHeader::CACHED_RESULT;
    if (m_cacheValuesOn)
    {
        if (p->values == nullptr)
        {
            p->values = GetHost()->GetPool().AllocValues(PoolHeader::VALUES);
        }
        std::memcpy(p->values->AsInt32(),
                    m_cacheValues.data() + static_cast<size_t>(slot) * PoolHeader::VALUES,
                    PoolHeader::VALUES * 4);
    }
}

uint8_t
EsaAgent::WriteContribution(InaPacket* p, uint64_t seq)
{
    ++m_esaCounts.pullsAnswered;
    ++m_stats.retransmissions;
    const auto slot = static_cast<uint32_t>(seq & m_mask);
    if (seq >= GetNextSeq())
    {
        m_pulled[slot] = seq;
        m_reminded[slot] = seq; // no RTT sample from it
    }
    const Tensor& t = TensorOf(seq);
    PoolHeader* h = p->Header<PoolHeader>();
    m_protocol->GetWorkerRoute(t.ps, GetRank()).Stamp(h);
    h->reserved = EsaHeader::CONTRIBUTION;
    WriteValues(p, t, seq);
    return t.ps;
}

void
EsaAgent::AnswerPull(InaPacket* p)
{
    const uint64_t seq = p->seq;
    NoteQueryAhead(seq);
    const auto slot = static_cast<uint32_t>(seq & m_mask);
    PoolHeader* h = p->Header<PoolHeader>();
    const bool cached = m_cacheSeq[slot] == seq;
    if (!cached && !CanAnswerPull(seq))
    {
        ++m_esaCounts.pullsIgnored;
        GetHost()->GetPool().Free(p);
        return;
    }
    uint8_t psIndex = h->psIndex;
    h->flags = 0;
    h->priority = 0;
    if (cached)
    {
        WriteCachedResult(p, slot);
    }
    else
    {
        psIndex = WriteContribution(p, seq);
    }
    EsaHeader::SetKind(h, EsaHeader::CONTROL);
    h->psIndex = psIndex;
    h->aggregatorIndex = IndexOf(seq);
    h->jobIdAndSeq = PoolHeader::Key(GetContext().jobId, seq);
    p->dst = p->src;
    p->flowId = GetContext().flowIdBase + psIndex;
    p->srcPort = m_protocol->GetEndpoint();
    p->dstPort = p->srcPort;
    p->wireBytes = PoolHeader::WIRE_BYTES;
    p->ecn = INA_ECN_ECT;
    p->sentPs = NowPs();
    ++m_stats.packetsSent;
    m_stats.wireBytesSent += p->wireBytes;
    GetHost()->Send(p);
}

void
EsaAgent::CacheResult(uint64_t seq, const InaPacket* p)
{
    const uint32_t slot = static_cast<uint32_t>(seq & m_mask);
    m_cacheSeq[slot] = seq;
    if (m_cacheValuesOn && p->values != nullptr && p->values->words.size() >= PoolHeader::VALUES)
    {
        std::memcpy(m_cacheValues.data() + static_cast<size_t>(slot) * PoolHeader::VALUES,
                    p->values->AsInt32(),
                    PoolHeader::VALUES * 4);
    }
}

void
EsaAgent::DeliverEarly(uint64_t seq)
{
    const uint32_t slot = static_cast<uint32_t>(seq & m_mask);
    if (m_cacheSeq[slot] != seq || IsDone(seq) || seq >= GetNextSeq())
    {
        return;
    }
    InaPacketPool& pool = GetHost()->GetPool();
    InaPacket* p = pool.Alloc();
    p->jobId = GetContext().jobId;
    p->protocol = m_protocol->GetSwitchProtocol();
    p->seq = seq;
    p->wireBytes = PoolHeader::WIRE_BYTES;
    PoolHeader* h = p->Header<PoolHeader>();
    h->flags = PoolHeader::FLAG_ACK;
    h->jobIdAndSeq = PoolHeader::Key(GetContext().jobId, seq);
    if (m_cacheValuesOn)
    {
        p->values = pool.AllocValues(PoolHeader::VALUES);
        std::memcpy(p->values->AsInt32(),
                    m_cacheValues.data() + static_cast<size_t>(slot) * PoolHeader::VALUES,
                    PoolHeader::VALUES * 4);
    }
    Receive(p, 0);
}

void
EsaAgent::Receive(InaPacket* p, uint32_t port)
{
    if (!m_configured)
    {
        Configure();
    }
    const PoolHeader* h = p->Header<PoolHeader>();
    const bool ours =
        p->protocol == m_protocol->GetSwitchProtocol() && p->jobId == GetContext().jobId;
    if (ours && EsaHeader::GetKind(h) == EsaHeader::CONTROL && h->reserved == EsaHeader::PULL)
    {
        AnswerPull(p);
        return;
    }
    const bool result = ours && (h->flags & PoolHeader::FLAG_ACK) != 0;
    const uint64_t s = p->seq;
    const int64_t now = NowPs();
    if (result && s >= GetNextSeq() && m_pulled[s & m_mask] == s)
    {
        // The result of a fragment this worker gave to a pull before sending it: kept until the
        // window reaches it (ATP would drop it as not outstanding).
        CacheResult(s, p);
        GetHost()->GetPool().Free(p);
        return;
    }
    const uint64_t expected = GetLastAck() + 1;
    const bool fresh = result && s > GetLastAck() && s < GetNextSeq() && !IsDone(s);
    if (fresh)
    {
        m_highestDone = std::max(m_highestDone, s);
        CacheResult(s, p);
        // A reminded fragment measures the reminder's round trip (its send time was moved to the
        // reminder): a recovery that worked brings the timeout back down.
        m_rto.Sample(now - m_sentPs[s & m_mask]);
        ++m_esaCounts.rttSamples;
    }
    PoolAgent::Receive(p, port); // consumes p
    CheckStall(now);
    if (!fresh || m_dupThreshold == 0)
    {
        return;
    }
    if (s > expected && !IsDone(expected) && expected < GetNextSeq())
    {
        if (m_dupFor != expected)
        {
            m_dupFor = expected;
            m_dupCount = 0;
        }
        if (++m_dupCount == m_dupThreshold)
        {
            ++m_esaCounts.dupAckReminders;
            SendReminder(expected);
        }
        return;
    }
    // The expected fragment came in and the next one is missing with results above it already
    // in: those count as its duplicates, none will arrive any more.
    const uint64_t next = GetLastAck() + 1;
    if (next != expected && next < m_highestDone && !IsDone(next) && m_dupFor != next)
    {
        uint32_t above = 0;
        for (uint64_t k = next + 1; k <= m_highestDone && above < m_dupThreshold; ++k)
        {
            above += IsDone(k) ? 1 : 0;
        }
        if (above >= m_dupThreshold)
        {
            m_dupFor = next;
            m_dupCount = above;
            ++m_esaCounts.dupAckReminders;
            SendReminder(next);
        }
    }
}

void
EsaAgent::NoteQueryAhead(uint64_t seq)
{
    // A query for a fragment beyond this worker's window means another worker sent it, which its
    // own window allowed only once it had the results below: the expected one among them. So the
    // expected result exists and was lost on its way here (Section 5.3, Case 2). Nothing else
    // would tell this worker before its timeout: its window is full, so no later result comes,
    // while the others go on through the server, faster than the timeout, until the server and
    // their caches no longer hold that result. Remind at once, and again every DupAckThreshold
    // such queries while it is still missing (the reminder or its answer may be lost too).
    const uint64_t expected = GetLastAck() + 1;
    if (m_dupThreshold == 0 || seq < expected + m_protocol->GetMaxWindow() ||
        expected >= GetNextSeq() || IsDone(expected))
    {
        return;
    }
    if (m_aheadFor != expected)
    {
        m_aheadFor = expected;
        m_aheadCount = 0;
    }
    if (m_aheadCount++ % m_dupThreshold == 0)
    {
        ++m_esaCounts.aheadReminders;
        SendReminder(expected);
    }
}

void
EsaAgent::CheckStall(int64_t now)
{
    // ATP's timer restarts on every arrival, duplicates and pulls included, so a worker whose
    // next result is missing while others keep talking to it would wait for ever: remind when
    // lastAck has not moved for the timeout.
    const uint64_t next = GetLastAck() + 1;
    if (next != m_stallFor || next >= GetNextSeq() || IsDone(next))
    {
        m_stallFor = next;
        m_stallSincePs = now;
        m_stallRtoPs = m_rtoMinPs;
        return;
    }
    if (now - m_stallSincePs >= std::min(m_rto.GetRto(), m_stallRtoPs))
    {
        m_stallSincePs = now;
        m_stallRtoPs = std::min(2 * m_stallRtoPs, m_rtoMaxPs);
        ++m_esaCounts.stallReminders;
        SendReminder(next);
    }
}

} // namespace ns3
