/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pool-program.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/pipeline.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PoolProgram");
NS_OBJECT_ENSURE_REGISTERED(PoolProgram);

TypeId
PoolProgram::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PoolProgram")
            .SetParent<SwitchProgram>()
            .SetGroupName("InaProtocolKit")
            .AddAttribute("PoolSize",
                          "Aggregators at this switch (62 int32 values each), shared by every job "
                          "of the protocol aggregating here. Checked against the pipeline's SRAM, "
                          "ALUs and stages at install (ATP's code: 20000, about 5 MB of values).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(DEFAULT_POOL_SIZE),
                          MakeUintegerAccessor(&PoolProgram::m_poolSize),
                          MakeUintegerChecker<uint32_t>(1, MAX_POOL))
            .AddAttribute("MaxJobs",
                          "Entries of the job table: (job, parameter server) pairs that may "
                          "aggregate here.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(256),
                          MakeUintegerAccessor(&PoolProgram::m_maxJobs),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("PassWhenFull",
                          "On a switch with an aggregation capacity, a fragment whose "
                          "contributions no longer all fit below the capacity queue's ECN "
                          "threshold (its capacity if it marks nothing) passes this "
                          "switch unaggregated, every gradient of it on to the parameter server "
                          "(FcfsAggregatorPool::Pass; ns3::PoolProtocol::PassWhenFull sets it).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          BooleanValue(false),
                          MakeBooleanAccessor(&PoolProgram::m_passWhenFull),
                          MakeBooleanChecker());
    return tid;
}

PoolProgram::PoolProgram(uint16_t protocolNumber,
                         const std::string& name,
                         const std::string& resultWord,
                         const std::vector<std::string>& extraReasons)
    : PoolSizedProgram(MAX_POOL)
    , m_protocolNumber(protocolNumber)
    , m_name(name)
{
    SetReasonNames(PoolReasons::Names(resultWord, extraReasons));
}

uint16_t
PoolProgram::GetProtocolNumber() const
{
    return m_protocolNumber;
}

std::string
PoolProgram::GetName() const
{
    return m_name;
}

ResourceDemand
PoolProgram::PoolDemand(uint32_t poolSize,
                        const PipelineLimits& limits,
                        uint32_t idWidthBits,
                        bool counter) const
{
    ResourceDemand d;
    d.program = GetName();
    d.AddTable("jobs", m_maxJobs, 18, 16, 0);
    FcfsAggregatorPool::DeclareRegisters(d, poolSize, limits, idWidthBits, counter);
    return d;
}

FcfsAggregatorPool::Registers
PoolProgram::ResolvePoolRegisters(bool counter) const
{
    return {&GetRegister("agtr_id"),
            &GetRegister("bitmap"),
            counter ? &GetRegister("counter") : nullptr,
            &GetRegister("ecn"),
            &GetRegister("value")};
}

const AggregatorOccupancy&
PoolProgram::GetOccupancy() const
{
    if (m_fcfsPool == nullptr)
    {
        throw std::logic_error(GetName() + ": a pool program without an FcfsAggregatorPool "
                                           "reports its own occupancy (GetOccupancy)");
    }
    return m_fcfsPool->GetOccupancy();
}

void
PoolProgram::CheckConfig()
{
    if (m_passWhenFull && GetFcfsPool() == nullptr)
    {
        throw std::invalid_argument("PassWhenFull: " + GetName() +
                                    " keeps its own aggregators; only the first-come, "
                                    "first-served pool (ATP, GRID) can pass a fragment");
    }
    if (GetPipelineLimits().valuesPerPass < VALUE_LANES)
    {
        throw std::invalid_argument("ATP touches " + std::to_string(VALUE_LANES) +
                                    " payload register lanes (62 values in pairs) per pass but the "
                                    "pipeline's ValuesPerPass is " +
                                    std::to_string(GetPipelineLimits().valuesPerPass));
    }
}

uint64_t
PoolProgram::GetAggregatorsInUse() const
{
    return GetOccupancy().InUse();
}

uint64_t
PoolProgram::GetPeakAggregatorsInUse() const
{
    return GetOccupancy().Peak();
}

bool
PoolProgram::ProcessFcfs(InaPacket* p,
                         PipelinePass& pass,
                         FcfsAggregatorPool& pool,
                         const JobConfig** job,
                         FcfsAggregatorPool::Result* collision)
{
    PoolHeader* h = p->Header<PoolHeader>();
    uint64_t entry = 0;
    if (!LookupJob(p, pass, h, &entry))
    {
        CountReason(NOT_AGGREGATED);
        Forward(p);
        return false;
    }
    *job = &GetJobEntry(entry);
    if (h->aggregatorIndex >= GetPoolSize())
    {
        CountReason(BAD_PACKET);
        Forward(p);
        return false;
    }
    if ((h->flags & PoolHeader::FLAG_ACK) != 0)
    {
        if (!m_admissions.empty() && m_admissions[h->aggregatorIndex].key == h->jobIdAndSeq)
        {
            // Its result is back: a gradient still awaited was lost on the way here, and the
            // fragment completed without it (resends are flushed, never admitted).
            EndAdmission(h->aggregatorIndex);
        }
        Settle(p, pool.Release(pass, h));
        return false;
    }
    const uint32_t gate = Gate(p, h, **job);
    if (gate != N_REASONS)
    {
        CountReason(gate);
        Forward(p);
        return false;
    }
    const bool level1 = (*job)->role == Role::LEVEL1;
    // The first gradient of a fragment IsAggregationWork declared passing claims its
    // aggregator for the pass; the later ones find it held so and pass as well.
    bool passing = false;
    if (!m_admissions.empty())
    {
        Admission& a = m_admissions[h->aggregatorIndex];
        passing = a.passes && a.key == h->jobIdAndSeq;
        a.passes = a.passes && !passing;
    }
    const FcfsAggregatorPool::Result r = passing ? pool.Pass(pass, h)
                                         : (h->flags & PoolHeader::FLAG_RESEND) != 0
                                             ? pool.Flush(p, pass, h, level1)
                                             : pool.Aggregate(p, pass, h, level1);
    if (r.reason == COLLISION)
    {
        *collision = r;
        return true;
    }
    Settle(p, r);
    return false;
}

void
PoolProgram::InitializeState()
{
    m_table = &GetTable("jobs");
    m_jobs.clear();
    InitializePool();
}

void
PoolProgram::AddJob(const JobConfig& job)
{
    NS_LOG_FUNCTION(this << job.jobId << +job.psIndex);
    if (!IsInstalled())
    {
        throw std::runtime_error(GetInstanceTypeId().GetName() +
                                 "::AddJob before the program is installed");
    }
    if (job.jobId == 0 || job.jobId > MAX_JOB_ID)
    {
        throw std::runtime_error("job " + job.name + " has id " + std::to_string(job.jobId) +
                                 "; ATP's job/seq field takes job ids 1.." +
                                 std::to_string(MAX_JOB_ID));
    }
    if (job.psIndex >= POOL_MAX_PS)
    {
        throw std::runtime_error("job " + job.name + ": parameter server index " +
                                 std::to_string(job.psIndex) + "; expected 0.." +
                                 std::to_string(POOL_MAX_PS - 1));
    }
    if (HasJob(job.jobId, job.psIndex))
    {
        throw std::runtime_error("job id " + std::to_string(job.jobId) + " (" + job.name +
                                 "), parameter server " + std::to_string(job.psIndex) +
                                 ", is already installed at this switch");
    }
    if (job.role == Role::LEVEL1 && (job.groupBit == 0 || (job.groupBit & (job.groupBit - 1)) != 0))
    {
        throw std::runtime_error("job " + job.name +
                                 ": a level-1 switch aggregates one group, but its group "
                                 "bitmap is " +
                                 std::to_string(job.groupBit) + " (expected a single bit)");
    }
    if (m_jobs.size() >= m_maxJobs)
    {
        throw std::runtime_error("job " + job.name + ": the " + GetName() + " job table is full (" +
                                 std::to_string(m_maxJobs) + " (job, parameter server) entries, " +
                                 GetInstanceTypeId().GetName() + "::MaxJobs)");
    }
    m_table->Insert(JobTableKey(job.jobId, job.psIndex), m_jobs.size());
    m_jobs.push_back(job);
}

const PoolProgram::JobConfig&
PoolProgram::Find(uint32_t jobId, uint8_t psIndex) const
{
    for (const JobConfig& j : m_jobs)
    {
        if (j.jobId == jobId && j.psIndex == psIndex)
        {
            return j;
        }
    }
    throw std::out_of_range("job id " + std::to_string(jobId) + ", parameter server " +
                            std::to_string(psIndex) + ", does not aggregate at this " + GetName() +
                            " switch");
}

bool
PoolProgram::RemoveJob(uint32_t jobId, uint8_t psIndex)
{
    NS_LOG_FUNCTION(this << jobId << +psIndex);
    FcfsAggregatorPool* pool = GetFcfsPool();
    if (pool == nullptr)
    {
        throw std::runtime_error(GetName() + ": RemoveJob needs an aggregator pool that names its "
                                             "holders' jobs (FcfsAggregatorPool)");
    }
    const auto it =
        std::find_if(m_jobs.begin(), m_jobs.end(), [jobId, psIndex](const JobConfig& j) {
            return j.jobId == jobId && j.psIndex == psIndex;
        });
    if (it == m_jobs.end())
    {
        return false;
    }
    m_jobs.erase(it);
    // The table's values index m_jobs: lay them out again (a control-plane rewrite, rare).
    m_table->Clear();
    for (uint64_t i = 0; i < m_jobs.size(); ++i)
    {
        m_table->Insert(JobTableKey(m_jobs[i].jobId, m_jobs[i].psIndex), i);
    }
    pool->FreeJob(jobId);
    return true;
}

bool
PoolProgram::HasJob(uint32_t jobId, uint8_t psIndex) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [jobId, psIndex](const JobConfig& j) {
        return j.jobId == jobId && j.psIndex == psIndex;
    });
}

const PoolProgram::JobConfig&
PoolProgram::GetJobConfig(uint32_t jobId, uint8_t psIndex) const
{
    return Find(jobId, psIndex);
}

uint32_t
PoolProgram::GetNJobs() const
{
    return static_cast<uint32_t>(m_jobs.size());
}

uint32_t
PoolProgram::GetPoolSize() const
{
    return m_poolSize;
}

bool
PoolProgram::LookupJob(const InaPacket* p, PipelinePass& pass, const PoolHeader* h, uint64_t* entry)
{
    // The header's key must name the packet's own job: aggregators are claimed and matched by
    // key, and key 0 marks a free one, so a key of another job (or 0) would let a packet add
    // into, or free, an aggregator a job it does not belong to holds (found by
    // fuzz-switch-packets: a key-0 packet left its values in a "free" aggregator, and the next
    // job to claim it got them in its sum).
    return p->jobId <= MAX_JOB_ID && PoolHeader::JobOfKey(h->jobIdAndSeq) == p->jobId &&
           h->psIndex < POOL_MAX_PS &&
           pass.Lookup(*m_table, JobTableKey(p->jobId, h->psIndex), entry);
}

bool
PoolProgram::ControlLookupJob(uint32_t jobId, uint8_t psIndex, uint64_t* entry) const
{
    return IsInstalled() && m_table->ControlLookup(JobTableKey(jobId, psIndex), entry);
}

uint32_t
PoolProgram::Gate(const InaPacket* p, const PoolHeader* h, const JobConfig& job)
{
    if ((h->flags & PoolHeader::FLAG_OVERFLOW) != 0)
    {
        return OVERFLOW_PASSED;
    }
    const bool edge = (h->flags & PoolHeader::FLAG_EDGE) != 0;
    uint32_t fanIn;
    if (job.role == Role::LEVEL1)
    {
        // Only this rack's group, and only before its level-1 aggregation.
        if (edge || h->bitmap1 != job.groupBit)
        {
            return NOT_AGGREGATED;
        }
        fanIn = h->fanInDegree0;
    }
    else
    {
        // Not aggregated at level 1 (collided there, or a partial flush): the PS merges it.
        if (!edge)
        {
            return BYPASSED;
        }
        fanIn = h->fanInDegree1;
    }
    if (fanIn == 0 || fanIn > PoolHeader::MAX_FAN_IN ||
        (p->values != nullptr && p->values->words.size() < PoolHeader::VALUES))
    {
        return BAD_PACKET;
    }
    return N_REASONS;
}

void
PoolProgram::Settle(InaPacket* p, const FcfsAggregatorPool::Result& r)
{
    if (r.allocated)
    {
        CountReason(ALLOCATED);
    }
    CountReason(r.reason);
    if (r.reason == ABSORBED || r.reason == DUPLICATE_DROPPED)
    {
        Consume(p);
    }
    else
    {
        Forward(p);
    }
}

bool
PoolProgram::FollowsAggregationQueue(const InaPacket* p) const
{
    return p == m_passing;
}

uint64_t
PoolProgram::PassPoint() const
{
    if (m_passPoint == 0)
    {
        UintegerValue capacity;
        GetPipeline()->GetAttribute("AggregationQueueBytes", capacity);
        UintegerValue threshold;
        GetPipeline()->GetAttribute("AggregationEcnThreshold", threshold);
        // The paper's full switch passes its excess on instead of slowing its workers down; a
        // queue that marked before it passed would do both.
        m_passPoint =
            threshold.Get() != 0 ? std::min(threshold.Get(), capacity.Get()) : capacity.Get();
    }
    return m_passPoint;
}

void
PoolProgram::DoResetState()
{
    m_admissions.clear();
    m_passing = nullptr;
}

void
PoolProgram::EndAdmission(uint32_t index) const
{
    Admission& a = m_admissions[index];
    a.waiting = 0;
    a.passes = false;
}

uint32_t
PoolProgram::ControlIndex(uint32_t index) const
{
    if (!IsInstalled())
    {
        throw std::logic_error(GetName() + ": register read before Install");
    }
    if (index >= m_poolSize)
    {
        throw std::out_of_range("aggregator " + std::to_string(index) + " of a pool of " +
                                std::to_string(m_poolSize));
    }
    return index;
}

bool
PoolProgram::IsAggregationWork(const InaPacket* p) const
{
    m_passing = nullptr;
    const PoolHeader* h = p->Header<PoolHeader>();
    uint64_t entry = 0;
    if ((h->flags & PoolHeader::FLAG_ACK) != 0 || p->jobId > MAX_JOB_ID ||
        h->psIndex >= POOL_MAX_PS || !ControlLookupJob(p->jobId, h->psIndex, &entry))
    {
        return false;
    }
    const JobConfig& job = GetJobEntry(entry);
    if (Gate(p, h, job) != N_REASONS)
    {
        return false;
    }
    const FcfsAggregatorPool* pool = GetFcfsPool();
    if (!m_passWhenFull || pool == nullptr || (h->flags & PoolHeader::FLAG_RESEND) != 0 ||
        h->aggregatorIndex >= m_poolSize)
    {
        return true;
    }
    // GRID paper, Sec. 3.1: ATP's switch "directly transfer[s] the gradients to the PS" once
    // its processing capacity is exhausted. Decided per fragment, at its first gradient, so a
    // fragment is aggregated here whole or not at all. The aggregator is claimed only when that
    // gradient leaves the queue, so until then the admission is remembered here: without it the
    // later gradients of the fragment, arriving while the first still waits, would be judged
    // again, and one judged full would make the whole fragment pass after the queue had served
    // the others (capacity spent on nothing).
    if (m_admissions.empty())
    {
        m_admissions.resize(m_poolSize);
    }
    Admission& a = m_admissions[h->aggregatorIndex];
    if (a.key == h->jobIdAndSeq && a.passes)
    {
        // Its first gradient passes but has not reached the pipeline yet.
        m_passing = p;
        return false;
    }
    if (a.key == h->jobIdAndSeq && a.waiting > 0)
    {
        --a.waiting;
        return true;
    }
    bool passes = false;
    switch (pool->Peek(h->aggregatorIndex, h->jobIdAndSeq))
    {
    case FcfsAggregatorPool::Holder::PASSING:
        passes = true;
        break;
    case FcfsAggregatorPool::Holder::FREE: {
        const uint64_t fanIn = job.role == Role::LEVEL1 ? h->fanInDegree0 : h->fanInDegree1;
        // Full is what the queue holds now: the work of the fragments already admitted is in it
        // as far as it has arrived. Their later gradients are not counted ahead: they arrive
        // when their workers send them, at most a window later, while the queue drains at the
        // capacity, so room held for them (as this rule did) made a switch far below its
        // capacity pass fragments once its workers were a few fragments out of step (GRID on
        // the fat-tree of its Sec. 6.3: a ToR at 55 of 1,567 Gb/s passed 6,659 of 16,130).
        passes = GetPipeline()->GetAggregationQueueBytes() + fanIn * p->wireBytes > PassPoint();
        // A stale admission at this index (a gradient lost before this switch) ends here.
        EndAdmission(h->aggregatorIndex);
        a.key = h->jobIdAndSeq;
        a.passes = passes;
        if (!passes)
        {
            a.waiting = fanIn > 0 ? static_cast<uint32_t>(fanIn - 1) : 0;
        }
        break;
    }
    default: // its own fragment, aggregating: the rest joins it; another's: ATP's collision
        break;
    }
    m_passing = passes ? p : nullptr;
    return !passes;
}

} // namespace ns3
