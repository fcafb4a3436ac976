/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-program.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "ns3/value-lanes.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EsaProgram");
NS_OBJECT_ENSURE_REGISTERED(EsaProgram);

namespace
{
uint32_t
KeyOf(uint64_t cell)
{
    return static_cast<uint32_t>(cell & EsaProgram::KEY_MASK);
}

uint8_t
PriorityOf(uint64_t cell)
{
    return static_cast<uint8_t>(cell >> EsaProgram::PRIORITY_SHIFT);
}

uint32_t
CountOf(uint64_t cell)
{
    return static_cast<uint32_t>((cell >> EsaProgram::COUNT_SHIFT) & 0xff);
}

uint8_t
PsOf(uint64_t cell)
{
    return static_cast<uint8_t>((cell >> EsaProgram::PS_SHIFT) & 3);
}

} // namespace

TypeId
EsaProgram::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EsaProgram")
            .SetParent<PoolProgram>()
            .SetGroupName("InaAggregation")
            .AddConstructor<EsaProgram>()
            .AddAttribute("Preemption",
                          "What a fragment does when its aggregator holds another fragment: "
                          "priority (ESA: preempt iff its priority is higher, else fall back and "
                          "halve the holder's), always (the paper's Straw1) or random (Straw2: "
                          "preempt with PreemptProbability).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          EnumValue(static_cast<int>(EsaPreemptionMode::PRIORITY)),
                          MakeEnumAccessor(&EsaProgram::m_mode),
                          MakeEsaPreemptionModeChecker())
            .AddAttribute("PreemptProbability",
                          "Preemption policy random: the chance that a collision preempts (the "
                          "paper's Straw2: 0.5).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&EsaProgram::m_probability),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("CoinSeed",
                          "Preemption policy random: the seed of the switch's coin.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(1),
                          MakeUintegerAccessor(&EsaProgram::m_coinSeed),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

EsaProgram::EsaProgram()
    : PoolProgram(ESA_PROTOCOL,
                  "esa",
                  "result",
                  {"preempted",
                   "fallback",
                   "downgraded",
                   "fallback_tie",
                   "evicted_sent",
                   "level1_done",
                   "reminder_flushed",
                   "reminder_missed",
                   "stale_holder",
                   "duplicate_contribution",
                   "passed",
                   "no_route"})
{
    NS_LOG_FUNCTION(this);
}

EsaPreemptionMode
EsaProgram::GetPreemptionMode() const
{
    return static_cast<EsaPreemptionMode>(m_mode);
}

double
EsaProgram::GetPreemptProbability() const
{
    return m_probability;
}

ResourceDemand
EsaProgram::Demand(uint32_t poolSize, const PipelineLimits& limits) const
{
    // "agtr_id" holds key, priority, count and PS index; no separate "counter".
    return PoolDemand(poolSize, limits, 64, false);
}

void
EsaProgram::DoResetState()
{
    std::fill(m_seqOf.begin(), m_seqOf.end(), 0);
    m_occupancy.AllFreed();
}

void
EsaProgram::InitializePool()
{
    const FcfsAggregatorPool::Registers r = ResolvePoolRegisters(false);
    m_meta = r.id;
    m_bitmap = r.bitmap;
    m_ecn = r.ecn;
    m_value = r.value;
    m_routes.clear();
    m_routed.clear();
    m_seqOf.assign(GetPoolSize(), 0);
    m_coin = std::make_unique<EsaCoin>(m_coinSeed, m_probability);
    m_occupancy.Reset();
}

const AggregatorOccupancy&
EsaProgram::GetOccupancy() const
{
    return m_occupancy;
}

void
EsaProgram::SetJobRoute(uint32_t jobId, uint8_t psIndex, const JobRoute& route)
{
    uint64_t entry = 0;
    if (!ControlLookupJob(jobId, psIndex, &entry))
    {
        throw std::runtime_error("ESA: job id " + std::to_string(jobId) + ", parameter server " +
                                 std::to_string(psIndex) +
                                 ", does not aggregate at this switch (AddJob first)");
    }
    if (route.top && (route.resultGroup & INA_MULTICAST_BIT) == 0)
    {
        throw std::runtime_error("ESA: job id " + std::to_string(jobId) +
                                 " completes its aggregates at this switch but has no multicast "
                                 "group for its results");
    }
    if (m_routes.size() <= entry)
    {
        m_routes.resize(entry + 1);
        m_routed.resize(entry + 1, false);
    }
    m_routes[entry] = route;
    m_routed[entry] = true;
}

uint32_t
EsaProgram::ReadKey(uint32_t index) const
{
    return KeyOf(m_meta->ControlRead(ControlIndex(index)));
}

uint8_t
EsaProgram::ReadPriority(uint32_t index) const
{
    return PriorityOf(m_meta->ControlRead(ControlIndex(index)));
}

uint32_t
EsaProgram::ReadCount(uint32_t index) const
{
    return CountOf(m_meta->ControlRead(ControlIndex(index)));
}

void
EsaProgram::SetContributors(PoolHeader* h, const JobConfig& job, uint32_t bitmap)
{
    if (job.role == Role::LEVEL1)
    {
        h->bitmap0 = bitmap;
        h->bitmap1 = job.groupBit;
        h->flags &= ~PoolHeader::FLAG_EDGE;
    }
    else
    {
        h->bitmap0 = 0;
        h->bitmap1 = bitmap;
        h->flags |= PoolHeader::FLAG_EDGE;
    }
}

void
EsaProgram::DoProcess(InaPacket* p, PipelinePass& pass)
{
    PoolHeader* h = p->Header<PoolHeader>();
    if (pass.GetPassIndex() > 0)
    {
        SecondPass(p, pass, h);
        return;
    }
    const EsaHeader::Kind kind = EsaHeader::GetKind(h);
    if (kind == EsaHeader::CONTROL || kind == EsaHeader::EVICTED)
    {
        CountReason(PASSED);
        Forward(p);
        return;
    }
    if (m_address == INA_NO_ADDRESS)
    {
        m_address = GetSwitchAddress();
    }
    if (kind == EsaHeader::REMINDER && p->dst != m_address)
    {
        CountReason(PASSED); // for another switch of the tree, or flushed on its way back
        Forward(p);
        return;
    }
    uint64_t entry = 0;
    const bool known = LookupJob(p, pass, h, &entry);
    if (!known || h->aggregatorIndex >= GetPoolSize())
    {
        CountReason(known ? BAD_PACKET : NOT_AGGREGATED);
        if (kind == EsaHeader::REMINDER)
        {
            // Addressed to this switch: answer "nothing here" rather than loop.
            h->bitmap0 = 0;
            h->bitmap1 = 0;
            h->flags &= ~PoolHeader::FLAG_EDGE;
            p->dst = p->src;
        }
        Forward(p);
        return;
    }
    const JobConfig& job = GetJobEntry(entry);
    if ((h->flags & PoolHeader::FLAG_ACK) != 0)
    {
        PassResult(p, pass, h);
        return;
    }
    if (kind == EsaHeader::REMINDER)
    {
        Remind(p, pass, h, job);
        return;
    }
    const uint32_t gate = Gate(p, h, job);
    if (gate != N_REASONS)
    {
        CountReason(gate); // collided or flushed at level 1 (BYPASSED): the PS merges it
        Forward(p);
        return;
    }
    if (entry >= m_routed.size() || !m_routed[entry])
    {
        CountReason(NO_ROUTE);
        Forward(p);
        return;
    }
    Aggregate(p, pass, h, job, m_routes[entry]);
}

void
EsaProgram::Aggregate(InaPacket* p,
                      PipelinePass& pass,
                      PoolHeader* h,
                      const JobConfig& job,
                      const JobRoute& route)
{
    const bool level1 = job.role == Role::LEVEL1;
    const uint32_t mine = level1 ? h->bitmap0 : h->bitmap1;
    const uint32_t index = h->aggregatorIndex;
    const Claim claim = ClaimAggregator(p, pass, h, level1 ? h->fanInDegree0 : h->fanInDegree1);
    const Action action = claim.decision.action;
    if (action == Action::FALLBACK)
    {
        FallBack(p, h, claim);
        return;
    }
    const uint32_t oldBitmap = RecordContributors(pass, index, action, mine, claim.complete);
    const uint32_t all = action == Action::AGGREGATE ? oldBitmap | mine : mine;
    if (action == Action::AGGREGATE && (oldBitmap & mine) != 0)
    {
        CountReason(DUPLICATE_CONTRIBUTION);
    }
    const bool ecnIn = h->CongestionSeen(p);
    const bool ecnBefore = RecordCongestion(pass, index, action, ecnIn, claim.complete);

    // A fan-in-1 fragment that preempts completes at once and evicts too: the result is a copy.
    InaPacket* result = nullptr;
    if (action == Action::PREEMPT && claim.complete)
    {
        result = GetPool().Clone(p);
    }
    UpdateValues(p, pass, index, action, claim.complete);
    if (action == Action::PREEMPT)
    {
        CountReason(COLLISION);
        CountReason(claim.staleHolder ? STALE_HOLDER : PREEMPTED);
        if (claim.complete)
        {
            m_occupancy.Freed();
            Complete(result, result->Header<PoolHeader>(), job, route, ecnIn);
        }
        Evict(p, pass, h, claim, oldBitmap, ecnBefore);
        return;
    }
    if (!claim.complete)
    {
        if (action == Action::ALLOCATE)
        {
            CountReason(ALLOCATED);
            m_occupancy.Taken();
            m_seqOf[index] = p->seq;
        }
        CountReason(ABSORBED);
        Consume(p);
        return;
    }
    if (action == Action::AGGREGATE)
    {
        m_occupancy.Freed();
    }
    m_seqOf[index] = 0;
    if (level1)
    {
        h->bitmap0 = all;
    }
    else
    {
        h->bitmap1 = all;
    }
    Complete(p, h, job, route, ecnBefore || ecnIn);
}

EsaProgram::Claim
EsaProgram::ClaimAggregator(const InaPacket* p,
                            PipelinePass& pass,
                            const PoolHeader* h,
                            uint32_t fanIn)
{
    const uint32_t key = h->jobIdAndSeq;
    const uint8_t priority = h->priority;
    const uint8_t psIndex = h->psIndex;
    // Simulator-side: a holder with this key but an older full fragment number is stale.
    const bool stale = m_seqOf[h->aggregatorIndex] != p->seq;
    const auto mode = static_cast<EsaPreemptionMode>(m_mode);
    EsaCoin* coin = m_coin.get();
    // Stage 0: decide, count, and free at the fan-in, in one action on the key's cell.
    Claim c{{Action::FALLBACK, 0}, false, false, 0};
    c.before = pass.ReadModifyWrite(*m_meta, h->aggregatorIndex, 0, [&](uint64_t& cell) {
        const uint64_t old = cell;
        const uint32_t holder = KeyOf(old);
        c.staleHolder = holder == key && stale;
        if (c.staleHolder)
        {
            c.decision = {Action::PREEMPT, priority};
        }
        else
        {
            const bool collision = holder != 0 && holder != key;
            const bool flip = collision && mode == EsaPreemptionMode::RANDOM ? coin->Flip() : false;
            c.decision =
                EsaPreemptionPolicy::OnData(holder, PriorityOf(old), key, priority, mode, flip);
        }
        switch (c.decision.action)
        {
        case Action::ALLOCATE:
        case Action::PREEMPT:
            c.complete = fanIn <= 1;
            cell = c.complete ? 0 : PackCell(key, c.decision.priority, 1, psIndex);
            break;
        case Action::AGGREGATE: {
            const uint32_t count = CountOf(old) + 1;
            c.complete = count >= fanIn;
            cell = c.complete ? 0 : PackCell(key, c.decision.priority, count, psIndex);
            break;
        }
        case Action::FALLBACK:
            cell = (old & ~(0xffULL << PRIORITY_SHIFT)) |
                   (static_cast<uint64_t>(c.decision.priority) << PRIORITY_SHIFT);
            break;
        }
        return old;
    });
    return c;
}

void
EsaProgram::FallBack(InaPacket* p, PoolHeader* h, const Claim& claim)
{
    CountReason(COLLISION);
    CountReason(FALLBACK);
    if (claim.decision.priority != PriorityOf(claim.before))
    {
        CountReason(DOWNGRADED);
    }
    // A tie keeps the incumbent (Section 5.2, "higher or equal"); counted apart because jobs of
    // one model at the same point of their plan carry equal priorities (src/esa/doc/esa.rst).
    if (static_cast<EsaPreemptionMode>(m_mode) == EsaPreemptionMode::PRIORITY &&
        h->priority == PriorityOf(claim.before))
    {
        CountReason(FALLBACK_TIE);
    }
    h->flags |= PoolHeader::FLAG_COLLISION;
    Forward(p);
}

uint32_t
EsaProgram::RecordContributors(PipelinePass& pass,
                               uint32_t index,
                               Action action,
                               uint32_t mine,
                               bool complete)
{
    // Stage 1: contributions. A preemption takes the holder's bitmap out with it.
    return static_cast<uint32_t>(
        pass.ReadModifyWrite(*m_bitmap, index, 0, [action, mine, complete](uint64_t& cell) {
            const uint64_t old = cell;
            const uint64_t next = action == Action::AGGREGATE ? (old | mine) : mine;
            cell = complete ? 0 : next;
            return old;
        }));
}

bool
EsaProgram::RecordCongestion(PipelinePass& pass,
                             uint32_t index,
                             Action action,
                             bool ecnIn,
                             bool complete)
{
    // Stage 2: congestion, ORed over the contributions like ATP's.
    return pass.ReadModifyWrite(*m_ecn, index, 0, [action, ecnIn, complete](uint64_t& cell) {
        const uint64_t old = cell;
        const bool next = (action == Action::AGGREGATE && old != 0) || ecnIn;
        cell = complete ? 0 : (next ? 1 : 0);
        return old;
    }) != 0;
}

void
EsaProgram::UpdateValues(InaPacket* p,
                         PipelinePass& pass,
                         uint32_t index,
                         Action action,
                         bool complete)
{
    // Stages 3..: the values. Virtual payloads skip the arithmetic, not the passes.
    if (p->values == nullptr)
    {
        return;
    }
    int32_t* v = p->values->AsInt32();
    if (action == Action::AGGREGATE)
    {
        ValueLanes::Accumulate(pass, *m_value, index, VALUE_LANES, v, complete);
    }
    else if (action == Action::PREEMPT)
    {
        // Packet swapping: the fragment's values in, the holder's partial out.
        ValueLanes::Swap(pass, *m_value, index, VALUE_LANES, v);
    }
    else if (!complete)
    {
        ValueLanes::Overwrite(pass, *m_value, index, VALUE_LANES, v);
    }
}

void
EsaProgram::Evict(InaPacket* p,
                  PipelinePass& pass,
                  PoolHeader* h,
                  const Claim& claim,
                  uint32_t oldBitmap,
                  bool ecnBefore)
{
    const uint32_t index = h->aggregatorIndex;
    // The packet now carries the holder's partial: its identity rides in the header until the
    // second pass addresses it to the holder's own parameter server.
    const uint64_t holderSeq = m_seqOf[index];
    m_seqOf[index] = claim.complete ? 0 : p->seq;
    h->jobIdAndSeq = KeyOf(claim.before);
    h->psIndex = PsOf(claim.before);
    h->bitmap0 = oldBitmap;
    h->priority = 0;
    h->flags =
        static_cast<uint8_t>((ecnBefore ? PoolHeader::FLAG_ECN : 0) | PoolHeader::FLAG_COLLISION);
    EsaHeader::SetKind(h, EsaHeader::EVICTED);
    p->jobId = PoolHeader::JobOfKey(KeyOf(claim.before));
    p->seq = holderSeq;
    pass.Recirculate();
}

void
EsaProgram::Complete(InaPacket* p,
                     PoolHeader* h,
                     const JobConfig& job,
                     const JobRoute& route,
                     bool ecn)
{
    if (ecn)
    {
        h->flags |= PoolHeader::FLAG_ECN;
    }
    if (!route.top)
    {
        // A level-1 aggregate under a level-2 switch: on to the parameter server's rack.
        h->flags |= PoolHeader::FLAG_EDGE;
        CountReason(LEVEL1_DONE);
        Forward(p);
        return;
    }
    h->flags |= PoolHeader::FLAG_ACK;
    EsaHeader::SetKind(h, EsaHeader::DATA);
    h->priority = 0;
    p->dst = route.resultGroup;
    p->flowId = route.resultFlowId;
    p->srcPort = route.endpoint;
    p->dstPort = route.endpoint;
    p->priority = 0;
    CountReason(COMPLETED);
    Forward(p);
}

void
EsaProgram::Remind(InaPacket* p, PipelinePass& pass, PoolHeader* h, const JobConfig& job)
{
    const uint32_t index = h->aggregatorIndex;
    const uint32_t key = h->jobIdAndSeq;
    const bool current = m_seqOf[index] == p->seq;
    const uint64_t before = pass.ReadModifyWrite(*m_meta, index, 0, [key, current](uint64_t& cell) {
        const uint64_t old = cell;
        if (current && EsaPreemptionPolicy::ReminderHits(KeyOf(old), key))
        {
            cell = 0;
        }
        return old;
    });
    const bool hit = current && EsaPreemptionPolicy::ReminderHits(KeyOf(before), key);
    h->flags &= ~(PoolHeader::FLAG_COLLISION | PoolHeader::FLAG_ECN);
    if (!hit)
    {
        // Another key holds it: untouched. The reminder goes back with no contributions.
        h->bitmap0 = 0;
        h->bitmap1 = 0;
        h->flags &= ~PoolHeader::FLAG_EDGE;
        p->dst = p->src;
        CountReason(REMINDER_MISSED);
        Forward(p);
        return;
    }
    m_occupancy.Freed();
    m_seqOf[index] = 0;
    const auto bitmap =
        static_cast<uint32_t>(pass.ReadModifyWrite(*m_bitmap, index, 0, [](uint64_t& cell) {
            const uint64_t old = cell;
            cell = 0;
            return old;
        }));
    const bool ecn = pass.ReadModifyWrite(*m_ecn, index, 0, [](uint64_t& cell) {
        const uint64_t old = cell;
        cell = 0;
        return old;
    }) != 0;
    if (p->values != nullptr && p->values->words.size() >= PoolHeader::VALUES)
    {
        int32_t* v = p->values->AsInt32();
        ValueLanes::ReadOut(pass, *m_value, index, VALUE_LANES, v);
    }
    SetContributors(h, job, bitmap);
    if (ecn)
    {
        h->flags |= PoolHeader::FLAG_ECN;
    }
    CountReason(REMINDER_FLUSHED);
    // The flush frees the aggregator's metadata: a resubmit, as a preemption (spec C2).
    pass.Recirculate();
}

void
EsaProgram::PassResult(InaPacket* p, PipelinePass& pass, PoolHeader* h)
{
    const uint32_t index = h->aggregatorIndex;
    const uint32_t key = h->jobIdAndSeq;
    const bool current = m_seqOf[index] == p->seq;
    const uint64_t before = pass.ReadModifyWrite(*m_meta, index, 0, [key, current](uint64_t& cell) {
        const uint64_t old = cell;
        if (current && KeyOf(old) == key)
        {
            cell = 0;
        }
        return old;
    });
    if (current && KeyOf(before) == key)
    {
        // Leftover contributions of a fragment the parameter server completed: dropped (their
        // workers are in the result).
        m_occupancy.Freed();
        m_seqOf[index] = 0;
        CountReason(ACK_FREED);
    }
    else
    {
        CountReason(ACK_PASSED);
    }
    Forward(p);
}

void
EsaProgram::SecondPass(InaPacket* p, PipelinePass& pass, PoolHeader* h)
{
    if (EsaHeader::GetKind(h) == EsaHeader::REMINDER)
    {
        p->dst = p->src; // back to the parameter server that sent it
        Forward(p);
        return;
    }
    // An evicted partial: find its own job's entry and parameter server.
    uint64_t entry = 0;
    if (!LookupJob(p, pass, h, &entry) || entry >= m_routed.size() || !m_routed[entry])
    {
        CountReason(NO_ROUTE);
        Consume(p);
        return;
    }
    const JobConfig& job = GetJobEntry(entry);
    const JobRoute& route = m_routes[entry];
    SetContributors(h, job, h->bitmap0);
    p->dst = route.ps;
    p->flowId = route.psFlowId;
    p->srcPort = route.endpoint;
    p->dstPort = route.endpoint;
    p->priority = 0;
    CountReason(EVICTED_SENT);
    Forward(p);
}

} // namespace ns3
