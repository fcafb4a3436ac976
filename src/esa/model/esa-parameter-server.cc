/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-parameter-server.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EsaParameterServer");
NS_OBJECT_ENSURE_REGISTERED(EsaParameterServer);

TypeId
EsaParameterServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EsaParameterServer")
                            .SetParent<PoolParameterServer>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<EsaParameterServer>();
    return tid;
}

EsaParameterServer::EsaParameterServer() = default;

EsaParameterServer::~EsaParameterServer() = default;

void
EsaParameterServer::DoDispose()
{
    m_timer.Cancel();
    m_esa.indexOf = Callback<uint16_t, uint64_t>();
    PoolParameterServer::DoDispose();
}

void
EsaParameterServer::SetEsaConfig(const EsaConfig& config)
{
    const std::string& name = m_config.name;
    if (config.switches.empty())
    {
        throw std::invalid_argument(name + ": ESA needs the aggregating switches to remind");
    }
    if (config.workers.size() != GetNWorkers())
    {
        throw std::invalid_argument(name + ": " + std::to_string(config.workers.size()) +
                                    " worker hosts for a job of " + std::to_string(GetNWorkers()) +
                                    " workers");
    }
    if (config.indexOf.IsNull())
    {
        throw std::invalid_argument(name + ": ESA needs the job's aggregator index function");
    }
    if (config.rtoMinPs <= 0 || config.rtoMaxPs < config.rtoMinPs)
    {
        throw std::invalid_argument(name + ": reminder timeout bounds RtoMin " +
                                    std::to_string(config.rtoMinPs) + " and RtoMax " +
                                    std::to_string(config.rtoMaxPs) +
                                    " ps; expected 0 < RtoMin <= RtoMax");
    }
    m_esa = config;
    m_rto = EsaRtoEstimator(config.rtoMinPs, config.rtoMinPs, config.rtoMaxPs);
    m_entries.assign(static_cast<size_t>(SlotOf(~0ULL)) + 1, Entry{});
    m_open.clear();
    m_groups = static_cast<uint32_t>(m_config.groups.size());
    m_configured = true;
}

const EsaParameterServer::EsaCounters&
EsaParameterServer::GetEsaCounters() const
{
    return m_esaCounts;
}

uint32_t
EsaParameterServer::GetOpenEntries() const
{
    uint32_t n = 0;
    for (const Entry& e : m_entries)
    {
        n += e.open ? 1 : 0;
    }
    return n;
}

int64_t
EsaParameterServer::GetRtoPs() const
{
    return m_rto.GetRto();
}

bool
EsaParameterServer::IsComplete(uint64_t seq) const
{
    const uint32_t slot = SlotOf(seq);
    return SlotSeq(slot) == seq && SlotCount(slot) >= GetNWorkers();
}

EsaParameterServer::Entry*
EsaParameterServer::Track(uint64_t seq, bool activity)
{
    Entry& e = m_entries[SlotOf(seq)];
    const int64_t now = Simulator::Now().GetTimeStep();
    if (e.seq != seq)
    {
        if (e.seq > seq)
        {
            return nullptr; // the ring has moved on: a stale packet
        }
        e = Entry{};
        e.seq = seq;
        e.createdPs = now;
        e.lastPs = now;
    }
    if (activity)
    {
        e.lastPs = now;
    }
    if (!e.done && !e.open)
    {
        e.open = true;
        if (!e.listed)
        {
            e.listed = true;
            m_open.push_back(seq);
        }
        ArmTimer(now + m_rto.GetRto());
    }
    return &e;
}

void
EsaParameterServer::Receive(InaPacket* p, uint32_t port)
{
    PoolHeader* h = p->Header<PoolHeader>();
    if (!m_configured || p->protocol != m_config.protocol || p->jobId != m_config.jobId ||
        h->psIndex != m_config.psIndex || p->seq == 0 || (h->flags & PoolHeader::FLAG_ACK) != 0)
    {
        PoolParameterServer::Receive(p, port); // counted as malformed there
        return;
    }
    const uint64_t seq = p->seq;
    const EsaHeader::Kind kind = EsaHeader::GetKind(h);

    if (kind == EsaHeader::CONTROL)
    {
        switch (h->reserved)
        {
        case EsaHeader::WORKER_REMINDER:
            OnWorkerReminder(p);
            return;
        case EsaHeader::CONTRIBUTION:
            ++m_esaCounts.contributions;
            break;
        case EsaHeader::CACHED_RESULT:
            // Every worker's contribution is in it: merge it as a full aggregate.
            ++m_esaCounts.cachedResults;
            h->bitmap0 = 0;
            h->bitmap1 = m_groups >= 32 ? 0xffffffffu : (1u << m_groups) - 1;
            h->flags |= PoolHeader::FLAG_EDGE;
            break;
        default:
            ++m_counts.malformed;
            m_config.host->GetPool().Free(p);
            return;
        }
    }
    Entry* e = Track(seq, true);
    if (e == nullptr)
    {
        // Older than what the ring holds now (a partial from a long-lived leftover aggregator).
        ++m_counts.stale;
        m_config.host->GetPool().Free(p);
        return;
    }
    DupAck(seq);
    if (kind == EsaHeader::REMINDER)
    {
        e->answeredPs = Simulator::Now().GetTimeStep();
        if (Decode(h) == 0)
        {
            // The aggregator held another key (or nothing): no partial to merge.
            ++m_esaCounts.flushMisses;
            m_config.host->GetPool().Free(p);
            AfterMerge(seq, true);
            return;
        }
        ++m_esaCounts.flushAnswers;
    }
    const uint64_t discarded = m_counts.overlapDiscarded;
    PoolParameterServer::Receive(p, port);
    AfterMerge(seq, kind == EsaHeader::REMINDER || m_counts.overlapDiscarded != discarded);
}

void
EsaParameterServer::AfterMerge(uint64_t seq, bool pull)
{
    Entry& e = m_entries[SlotOf(seq)];
    if (e.seq != seq || e.done)
    {
        return;
    }
    if (IsComplete(seq))
    {
        return; // SendResult closed it
    }
    // A reminder that went out together with its pull (a worker's reminder) needs no second pull
    // when it comes back: the workers were asked already and their answers are on their way.
    if (pull && !(e.pulledPs >= 0 && e.pulledPs >= e.remindedPs))
    {
        Pull(seq);
    }
}

void
EsaParameterServer::DupAck(uint64_t seq)
{
    if (m_esa.dupAckThreshold == 0)
    {
        return;
    }
    // Every open entry counts the arrivals above it on its own (the paper's reminder is per
    // dictionary entry, Section 5.1): a gap that opens while a lower one is still being counted
    // must not wait for the lower one to close.
    const int64_t now = Simulator::Now().GetTimeStep();
    auto out = m_open.begin();
    for (uint64_t s : m_open)
    {
        Entry& o = m_entries[SlotOf(s)];
        if (o.seq != s || !o.open)
        {
            if (o.seq == s)
            {
                o.listed = false;
            }
            continue;
        }
        *out++ = s;
        if (s >= seq || ++o.dups < m_esa.dupAckThreshold)
        {
            continue;
        }
        o.dups = 0;
        if (o.remindedPs < 0 || now - o.remindedPs >= m_rto.GetRto())
        {
            ++m_esaCounts.dupAckReminders;
            RemindSwitches(s, o);
        }
    }
    m_open.erase(out, m_open.end());
}

InaPacket*
EsaParameterServer::NewControl(uint64_t seq, InaAddress dst, EsaHeader::Kind kind, uint8_t control)
{
    InaPacketPool& pool = m_config.host->GetPool();
    InaPacket* p = pool.Alloc();
    p->dst = dst;
    p->flowId = m_esa.controlFlowId;
    p->jobId = m_config.jobId;
    p->srcPort = m_config.endpoint;
    p->dstPort = m_config.endpoint;
    p->protocol = m_config.protocol;
    p->ecn = INA_ECN_ECT;
    p->seq = seq;
    p->sentPs = Simulator::Now().GetTimeStep();
    PoolHeader* h = p->Header<PoolHeader>();
    h->flags = 0;
    EsaHeader::SetKind(h, kind);
    h->reserved = control;
    h->psIndex = m_config.psIndex;
    h->aggregatorIndex = m_esa.indexOf(seq);
    h->jobIdAndSeq = PoolHeader::Key(m_config.jobId, seq);
    // A reminder is full-size, so the switch can swap the partial aggregate into it.
    if (kind == EsaHeader::REMINDER)
    {
        p->wireBytes = PoolHeader::WIRE_BYTES;
        if (m_config.checkValues)
        {
            p->values = pool.AllocValues(PoolHeader::VALUES);
        }
    }
    else
    {
        p->wireBytes = EsaHeader::CONTROL_BYTES;
    }
    return p;
}

void
EsaParameterServer::RemindSwitches(uint64_t seq, Entry& e)
{
    e.remindedPs = Simulator::Now().GetTimeStep();
    for (InaAddress sw : m_esa.switches)
    {
        ++m_esaCounts.reminders;
        m_config.host->Send(NewControl(seq, sw, EsaHeader::REMINDER, 0));
    }
}

void
EsaParameterServer::Pull(uint64_t seq)
{
    const uint32_t slot = SlotOf(seq);
    const bool held = SlotSeq(slot) == seq;
    const uint64_t* mask = SlotMask(slot);
    for (uint32_t w = 0; w < GetNWorkers(); ++w)
    {
        if (held && ((mask[w >> 6] >> (w & 63)) & 1) != 0)
        {
            continue;
        }
        const uint32_t rank = m_config.rankOfWorker[w];
        ++m_esaCounts.pulls;
        m_config.host->Send(
            NewControl(seq, m_esa.workers[rank], EsaHeader::CONTROL, EsaHeader::PULL));
    }
}

void
EsaParameterServer::OnWorkerReminder(InaPacket* p)
{
    ++m_esaCounts.workerReminders;
    const uint64_t seq = p->seq;
    const InaAddress worker = p->src;
    InaPacketPool& pool = m_config.host->GetPool();
    const uint32_t slot = SlotOf(seq);
    Entry& known = m_entries[slot];
    if (known.seq == seq && known.done)
    {
        // The worker missed the result: send it again, to that worker alone.
        ++m_esaCounts.resultsResent;
        PoolHeader* h = p->Header<PoolHeader>();
        h->flags = PoolHeader::FLAG_ACK;
        h->reserved = 0;
        h->priority = 0;
        h->aggregatorIndex = m_esa.indexOf(seq);
        h->jobIdAndSeq = PoolHeader::Key(m_config.jobId, seq);
        p->dst = worker;
        p->flowId = m_esa.controlFlowId;
        p->srcPort = m_config.endpoint;
        p->dstPort = m_config.endpoint;
        p->ecn = INA_ECN_ECT;
        p->wireBytes = PoolHeader::WIRE_BYTES;
        if (m_config.checkValues && SlotSeq(slot) == seq && SlotFilled(slot))
        {
            if (p->values == nullptr)
            {
                p->values = pool.AllocValues(PoolHeader::VALUES);
            }
            std::memcpy(p->values->AsInt32(), SlotValues(slot), PoolHeader::VALUES * 4);
        }
        m_config.host->Send(p);
        return;
    }
    // The reminder carries the worker's contribution (its retransmission, Section 5.1): progress
    // of the entry, merged as a pulled contribution is.
    Entry* e = Track(seq, true);
    if (e == nullptr)
    {
        pool.Free(p);
        return;
    }
    // Act at once (a worker's own timeout and duplicate threshold pace its reminders), unless a
    // reminder is out and younger than RtoMin: its answer will bring a pull anyway.
    const int64_t now = Simulator::Now().GetTimeStep();
    const bool pending = e->remindedPs >= 0 && e->answeredPs < e->remindedPs;
    const bool act = !pending || now - e->remindedPs >= m_esa.rtoMinPs;
    PoolParameterServer::Receive(p, 0); // merges; sends the result if this completed it
    if (act && !IsComplete(seq))
    {
        // The switches and the workers at once (ESA 5.3, Case 2: "PS will send a reminder packet
        // to switch and query packets to all workers"): the server cannot tell a lost result
        // (Case 2) from a lost gradient (Case 1) by the reminder, and asking the workers only
        // once the flush came back put one more server-switch round trip on every recovery.
        // Workers already recorded (this one, by its reminder) are not asked.
        RemindSwitches(seq, *e);
        Pull(seq);
        e->pulledPs = now;
    }
}

void
EsaParameterServer::SendResult(InaPacket* p, uint32_t slot)
{
    Entry& e = m_entries[slot];
    const uint64_t seq = SlotSeq(slot);
    if (e.seq == seq && e.done)
    {
        ++m_esaCounts.lateAfterComplete;
        m_config.host->GetPool().Free(p);
        return;
    }
    const int64_t now = Simulator::Now().GetTimeStep();
    if (e.seq == seq)
    {
        m_rto.Sample(now - e.createdPs);
    }
    else
    {
        e = Entry{};
        e.seq = seq;
        e.createdPs = now;
    }
    e.done = true;
    e.open = false;
    PoolHeader* h = p->Header<PoolHeader>();
    EsaHeader::SetKind(h, EsaHeader::DATA);
    h->reserved = 0;
    h->priority = 0;
    h->aggregatorIndex = m_esa.indexOf(seq);
    h->jobIdAndSeq = PoolHeader::Key(m_config.jobId, seq);
    PoolParameterServer::SendResult(p, slot);
}

void
EsaParameterServer::ArmTimer(int64_t dueAtPs)
{
    if (m_timer.IsRunning() && m_timerDuePs <= dueAtPs)
    {
        return; // fires earlier; it re-arms for what is left
    }
    m_timer.Cancel();
    const int64_t now = Simulator::Now().GetTimeStep();
    m_timerDuePs = std::max(dueAtPs, now);
    m_timer = Simulator::Schedule(TimeStep(m_timerDuePs - now), &EsaParameterServer::OnTimer, this);
}

void
EsaParameterServer::OnTimer()
{
    const int64_t now = Simulator::Now().GetTimeStep();
    const int64_t rto = m_rto.GetRto();
    int64_t next = INT64_MAX;
    bool expired = false;
    auto out = m_open.begin();
    for (uint64_t s : m_open)
    {
        Entry& e = m_entries[SlotOf(s)];
        if (e.seq != s || !e.open)
        {
            if (e.seq == s)
            {
                e.listed = false;
            }
            continue;
        }
        *out++ = s;
        if (now >= e.lastPs + rto)
        {
            expired = true;
            // Flush what the switches hold and pull every worker still missing at once: an answer
            // of either kind may be lost, and a worker that was behind may have its fragment by
            // now. Whatever arrives twice is discarded by the merge.
            ++m_esaCounts.timeoutReminders;
            RemindSwitches(s, e);
            Pull(s);
            e.lastPs = now;
        }
        next = std::min(next, e.lastPs + rto);
    }
    m_open.erase(out, m_open.end());
    if (expired)
    {
        ++m_esaCounts.timerExpiries;
        m_rto.Backoff();
    }
    if (next != INT64_MAX)
    {
        m_timerDuePs = 0;
        ArmTimer(std::max(next, now + 1));
    }
}

} // namespace ns3
