/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atp-program.h"

#include "atp-quantizer.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AtpProgram");
NS_OBJECT_ENSURE_REGISTERED(AtpProgram);

namespace
{
constexpr uint32_t MAX_JOB_ID = 0xffff; //!< 16 bits of the job table's key
constexpr uint32_t MAX_POOL = 0x10000;  //!< aggregatorIndex is 16 bits
constexpr uint8_t CE = 3;               //!< IP ECN codepoint "congestion experienced"

uint64_t
Pack(int32_t lo, int32_t hi)
{
    return (static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) | static_cast<uint32_t>(lo);
}

int32_t
Lo(uint64_t cell)
{
    return static_cast<int32_t>(static_cast<uint32_t>(cell));
}

int32_t
Hi(uint64_t cell)
{
    return static_cast<int32_t>(static_cast<uint32_t>(cell >> 32));
}

} // namespace

TypeId
AtpProgram::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AtpProgram")
            .SetParent<SwitchProgram>()
            .SetGroupName("InaAggregation")
            .AddConstructor<AtpProgram>()
            .AddAttribute("PoolSize",
                          "Aggregators at this switch (62 int32 values each), shared by every ATP "
                          "job aggregating here. Checked against the pipeline's SRAM, ALUs and "
                          "stages at install (ATP's code: 20000, about 5 MB of values).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(DEFAULT_POOL_SIZE),
                          MakeUintegerAccessor(&AtpProgram::m_poolSize),
                          MakeUintegerChecker<uint32_t>(1, MAX_POOL))
            .AddAttribute("MaxJobs",
                          "Entries of the job table: (job, parameter server) pairs that may "
                          "aggregate here.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(256),
                          MakeUintegerAccessor(&AtpProgram::m_maxJobs),
                          MakeUintegerChecker<uint32_t>(1, 65536));
    return tid;
}

AtpProgram::AtpProgram()
{
    NS_LOG_FUNCTION(this);
    SetReasonNames({"allocated",
                    "absorbed",
                    "completed",
                    "collision",
                    "duplicate_reemitted",
                    "duplicate_dropped",
                    "resend_flushed",
                    "resend_passed",
                    "bypassed",
                    "ack_freed",
                    "ack_passed",
                    "not_aggregated",
                    "overflow_passed",
                    "bad_packet"});
}

AtpProgram::~AtpProgram() = default;

uint16_t
AtpProgram::GetProtocolNumber() const
{
    return ATP_PROTOCOL;
}

std::string
AtpProgram::GetName() const
{
    return "atp";
}

void
AtpProgram::CheckConfig()
{
    if (GetPipelineLimits().valuesPerPass < VALUE_LANES)
    {
        throw std::invalid_argument("ATP touches " + std::to_string(VALUE_LANES) +
                                    " payload register lanes (62 values in pairs) per pass but the "
                                    "pipeline's ValuesPerPass is " +
                                    std::to_string(GetPipelineLimits().valuesPerPass));
    }
}

ResourceDemand
AtpProgram::Demand(uint32_t poolSize, const PipelineLimits& limits) const
{
    ResourceDemand d;
    d.program = GetName();
    d.AddTable("jobs", m_maxJobs, 18, 16, 0);
    d.AddRegisterArray("agtr_id", poolSize, 32, 0).payload = false;
    d.AddRegisterArray("bitmap", poolSize, 32, 1).payload = false;
    d.AddRegisterArray("counter", poolSize, 8, 2).payload = false;
    d.AddRegisterArray("ecn", poolSize, 1, 2).payload = false;
    d.AddRegisterArray("value",
                       poolSize,
                       64,
                       3,
                       VALUE_LANES,
                       std::max<uint32_t>(1, limits.statefulAlusPerStage));
    return d;
}

void
AtpProgram::DeclareResources(ResourceDemand& demand) const
{
    ResourceDemand d = Demand(m_poolSize, GetPipelineLimits());
    demand.registerArrays = std::move(d.registerArrays);
    demand.tables = std::move(d.tables);
}

uint32_t
AtpProgram::GetMaxPoolSize(const PipelineLimits& limits) const
{
    auto fits = [&](uint32_t s) {
        return PipelineResources::Check({Demand(s, limits)}, limits).fits;
    };
    if (!fits(1))
    {
        return 0;
    }
    uint32_t lo = 1;
    uint32_t hi = MAX_POOL;
    if (fits(hi))
    {
        return hi;
    }
    while (hi - lo > 1)
    {
        const uint32_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

void
AtpProgram::InitializeState()
{
    m_regs.jobs = &GetTable("jobs");
    m_regs.id = &GetRegister("agtr_id");
    m_regs.bitmap = &GetRegister("bitmap");
    // ESA keeps its contribution count beside the key and declares no "counter".
    const ResourceDemand d = Demand(m_poolSize, GetPipelineLimits());
    const bool hasCounter =
        std::any_of(d.registerArrays.begin(), d.registerArrays.end(), [](const auto& a) {
            return a.name == "counter";
        });
    m_regs.counter = hasCounter ? &GetRegister("counter") : nullptr;
    m_regs.ecn = &GetRegister("ecn");
    m_regs.value = &GetRegister("value");
    m_jobs.clear();
    m_inUse = 0;
    m_peakInUse = 0;
}

void
AtpProgram::AddJob(const JobConfig& job)
{
    NS_LOG_FUNCTION(this << job.jobId << +job.psIndex);
    if (!IsInstalled())
    {
        throw std::runtime_error("AtpProgram::AddJob before the program is installed");
    }
    if (job.jobId == 0 || job.jobId > MAX_JOB_ID)
    {
        throw std::runtime_error("job " + job.name + " has id " + std::to_string(job.jobId) +
                                 "; ATP's job/seq field takes job ids 1.." +
                                 std::to_string(MAX_JOB_ID));
    }
    if (job.psIndex >= ATP_MAX_PS)
    {
        throw std::runtime_error("job " + job.name + ": parameter server index " +
                                 std::to_string(job.psIndex) + "; expected 0.." +
                                 std::to_string(ATP_MAX_PS - 1));
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
        throw std::runtime_error("job " + job.name + ": the ATP job table is full (" +
                                 std::to_string(m_maxJobs) +
                                 " (job, parameter server) entries, ns3::AtpProgram::MaxJobs)");
    }
    m_regs.jobs->Insert(JobTableKey(job.jobId, job.psIndex), m_jobs.size());
    m_jobs.push_back(job);
}

const AtpProgram::JobConfig&
AtpProgram::Find(uint32_t jobId, uint8_t psIndex) const
{
    for (const JobConfig& j : m_jobs)
    {
        if (j.jobId == jobId && j.psIndex == psIndex)
        {
            return j;
        }
    }
    throw std::out_of_range("job id " + std::to_string(jobId) + ", parameter server " +
                            std::to_string(psIndex) + ", does not aggregate at this ATP switch");
}

bool
AtpProgram::HasJob(uint32_t jobId, uint8_t psIndex) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [jobId, psIndex](const JobConfig& j) {
        return j.jobId == jobId && j.psIndex == psIndex;
    });
}

const AtpProgram::JobConfig&
AtpProgram::GetJobConfig(uint32_t jobId, uint8_t psIndex) const
{
    return Find(jobId, psIndex);
}

uint32_t
AtpProgram::GetNJobs() const
{
    return static_cast<uint32_t>(m_jobs.size());
}

uint32_t
AtpProgram::GetPoolSize() const
{
    return m_poolSize;
}

uint64_t
AtpProgram::GetAggregatorsInUse() const
{
    return m_inUse;
}

uint64_t
AtpProgram::GetPeakAggregatorsInUse() const
{
    return m_peakInUse;
}

uint32_t
AtpProgram::ControlIndex(uint32_t index) const
{
    if (!IsInstalled())
    {
        throw std::logic_error("AtpProgram: register read before Install");
    }
    if (index >= m_poolSize)
    {
        throw std::out_of_range("aggregator " + std::to_string(index) + " of a pool of " +
                                std::to_string(m_poolSize));
    }
    return index;
}

uint32_t
AtpProgram::ReadId(uint32_t index) const
{
    return static_cast<uint32_t>(m_regs.id->ControlRead(ControlIndex(index)));
}

uint32_t
AtpProgram::ReadBitmap(uint32_t index) const
{
    return static_cast<uint32_t>(m_regs.bitmap->ControlRead(ControlIndex(index)));
}

uint32_t
AtpProgram::ReadCounter(uint32_t index) const
{
    if (m_regs.counter == nullptr)
    {
        throw std::logic_error(GetName() + ": this program declares no \"counter\" register");
    }
    return static_cast<uint32_t>(m_regs.counter->ControlRead(ControlIndex(index)));
}

bool
AtpProgram::ReadEcn(uint32_t index) const
{
    return m_regs.ecn->ControlRead(ControlIndex(index)) != 0;
}

int32_t
AtpProgram::ReadValue(uint32_t index, uint32_t element) const
{
    if (element >= AtpHeader::VALUES)
    {
        throw std::out_of_range("element " + std::to_string(element) + " of a " +
                                std::to_string(AtpHeader::VALUES) + "-value aggregator");
    }
    const uint64_t cell = m_regs.value->ControlRead(ControlIndex(index), element / 2);
    return (element & 1) != 0 ? Hi(cell) : Lo(cell);
}

void
AtpProgram::NoteAllocated()
{
    CountReason(ALLOCATED);
    if (++m_inUse > m_peakInUse)
    {
        m_peakInUse = m_inUse;
    }
}

void
AtpProgram::NoteFreed()
{
    --m_inUse;
}

void
AtpProgram::DoProcess(InaPacket* p, PipelinePass& pass)
{
    AtpHeader* h = p->Header<AtpHeader>();
    uint64_t entry = 0;
    if (p->jobId > MAX_JOB_ID || h->psIndex >= ATP_MAX_PS ||
        !pass.Lookup(*m_regs.jobs, JobTableKey(p->jobId, h->psIndex), &entry))
    {
        CountReason(NOT_AGGREGATED);
        Forward(p);
        return;
    }
    const JobConfig& job = m_jobs[entry];
    if (h->aggregatorIndex >= m_poolSize)
    {
        CountReason(BAD_PACKET);
        Forward(p);
        return;
    }
    if ((h->flags & AtpHeader::FLAG_ACK) != 0)
    {
        Release(p, pass, h);
        return;
    }
    if ((h->flags & AtpHeader::FLAG_OVERFLOW) != 0)
    {
        CountReason(OVERFLOW_PASSED);
        Forward(p);
        return;
    }
    const bool edge = (h->flags & AtpHeader::FLAG_EDGE) != 0;
    uint32_t fanIn;
    if (job.role == Role::LEVEL1)
    {
        // Only this rack's group, and only before its level-1 aggregation.
        if (edge || h->bitmap1 != job.groupBit)
        {
            CountReason(NOT_AGGREGATED);
            Forward(p);
            return;
        }
        fanIn = h->fanInDegree0;
    }
    else
    {
        // Not aggregated at level 1 (collided there, or a partial flush): the PS merges it.
        if (!edge)
        {
            CountReason(BYPASSED);
            Forward(p);
            return;
        }
        fanIn = h->fanInDegree1;
    }
    if (fanIn == 0 || fanIn > AtpHeader::MAX_FAN_IN ||
        (p->values != nullptr && p->values->words.size() < AtpHeader::VALUES))
    {
        CountReason(BAD_PACKET);
        Forward(p);
        return;
    }
    if ((h->flags & AtpHeader::FLAG_RESEND) != 0)
    {
        Flush(p, pass, h, job);
    }
    else
    {
        Aggregate(p, pass, h, job);
    }
}

void
AtpProgram::Aggregate(InaPacket* p, PipelinePass& pass, AtpHeader* h, const JobConfig& job)
{
    const bool level1 = job.role == Role::LEVEL1;
    uint32_t& field = level1 ? h->bitmap0 : h->bitmap1;
    const uint32_t fanIn = level1 ? h->fanInDegree0 : h->fanInDegree1;
    const uint32_t index = h->aggregatorIndex;
    const uint32_t key = h->jobIdAndSeq;

    // Stage 0: first come, first served.
    const uint64_t holder = pass.ReadModifyWrite(*m_regs.id, index, 0, [key](uint64_t& cell) {
        const uint64_t old = cell;
        if (old == 0)
        {
            cell = key;
        }
        return old;
    });
    if (holder != 0 && holder != key)
    {
        OnCollision(p, pass, h, job, static_cast<uint32_t>(holder));
        return;
    }
    if (holder == 0)
    {
        NoteAllocated();
    }

    // Stage 1: contributions.
    const uint32_t mine = field;
    const auto before = static_cast<uint32_t>(
        pass.ReadModifyWrite(*m_regs.bitmap, index, 0, [mine](uint64_t& cell) {
            const uint64_t old = cell;
            cell = old | mine;
            return old;
        }));
    const uint32_t fresh = mine & ~before;

    // Stage 2: counter and congestion.
    const auto count = static_cast<uint32_t>(
        pass.ReadModifyWrite(*m_regs.counter, index, 0, [fresh](uint64_t& cell) {
            if (fresh != 0)
            {
                ++cell;
            }
            return cell & 0xff;
        }));
    const bool ecnIn = p->ecn == CE || (h->flags & AtpHeader::FLAG_ECN) != 0;
    const bool ecnBefore = pass.ReadModifyWrite(*m_regs.ecn, index, 0, [ecnIn](uint64_t& cell) {
        const uint64_t old = cell;
        cell = old | (ecnIn ? 1 : 0);
        return old;
    }) != 0;
    const bool complete = count == fanIn;

    // Stages 3..: the values. Virtual payloads skip the arithmetic, not the decisions.
    if (p->values != nullptr && (fresh != 0 || complete))
    {
        int32_t* v = p->values->AsInt32();
        if (fresh != 0 && before == 0)
        {
            // The first contribution overwrites: values are not cleared when freed.
            pass.ReadModifyWriteLanes(*m_regs.value,
                                      index,
                                      0,
                                      VALUE_LANES,
                                      [v](uint32_t l, uint64_t& cell) {
                                          cell = Pack(v[2 * l], v[2 * l + 1]);
                                      });
        }
        else if (fresh != 0)
        {
            pass.ReadModifyWriteLanes(*m_regs.value,
                                      index,
                                      0,
                                      VALUE_LANES,
                                      [v, complete](uint32_t l, uint64_t& cell) {
                                          const int32_t lo =
                                              AtpQuantizer::SaturatingAdd(Lo(cell), v[2 * l]);
                                          const int32_t hi =
                                              AtpQuantizer::SaturatingAdd(Hi(cell), v[2 * l + 1]);
                                          cell = Pack(lo, hi);
                                          if (complete)
                                          {
                                              v[2 * l] = lo;
                                              v[2 * l + 1] = hi;
                                          }
                                      });
        }
        else
        {
            pass.ReadModifyWriteLanes(*m_regs.value,
                                      index,
                                      0,
                                      VALUE_LANES,
                                      [v](uint32_t l, uint64_t& cell) {
                                          v[2 * l] = Lo(cell);
                                          v[2 * l + 1] = Hi(cell);
                                      });
        }
    }

    if (!complete)
    {
        CountReason(fresh != 0 ? ABSORBED : DUPLICATE_DROPPED);
        Consume(p);
        return;
    }
    field = before | mine;
    if (ecnBefore || ecnIn)
    {
        h->flags |= AtpHeader::FLAG_ECN;
    }
    if (level1)
    {
        h->flags |= AtpHeader::FLAG_EDGE;
    }
    OnComplete(p, pass, h, job, fresh == 0);
}

void
AtpProgram::Flush(InaPacket* p, PipelinePass& pass, AtpHeader* h, const JobConfig& job)
{
    const bool level1 = job.role == Role::LEVEL1;
    uint32_t& field = level1 ? h->bitmap0 : h->bitmap1;
    const uint32_t fanIn = level1 ? h->fanInDegree0 : h->fanInDegree1;
    const uint32_t index = h->aggregatorIndex;
    const uint32_t key = h->jobIdAndSeq;

    // Stage 0: a resend frees an aggregator of its own key and never allocates.
    const uint64_t holder = pass.ReadModifyWrite(*m_regs.id, index, 0, [key](uint64_t& cell) {
        const uint64_t old = cell;
        if (old == key)
        {
            cell = 0;
        }
        return old;
    });
    if (holder != key)
    {
        CountReason(RESEND_PASSED);
        Forward(p);
        return;
    }
    NoteFreed();

    const uint32_t mine = field;
    const auto before =
        static_cast<uint32_t>(pass.ReadModifyWrite(*m_regs.bitmap, index, 0, [](uint64_t& cell) {
            const uint64_t old = cell;
            cell = 0;
            return old;
        }));
    const uint32_t fresh = mine & ~before;
    const auto held =
        static_cast<uint32_t>(pass.ReadModifyWrite(*m_regs.counter, index, 0, [](uint64_t& cell) {
            const uint64_t old = cell;
            cell = 0;
            return old;
        }));
    const bool ecnIn = p->ecn == CE || (h->flags & AtpHeader::FLAG_ECN) != 0;
    // ATP's code leaves a stale ECN bit here; the simulator clears it (atp.md 2.6).
    const bool ecnBefore = pass.ReadModifyWrite(*m_regs.ecn, index, 0, [](uint64_t& cell) {
        const uint64_t old = cell;
        cell = 0;
        return old;
    }) != 0;
    if (p->values != nullptr && before != 0)
    {
        int32_t* v = p->values->AsInt32();
        if (fresh != 0)
        {
            pass.ReadModifyWriteLanes(*m_regs.value,
                                      index,
                                      0,
                                      VALUE_LANES,
                                      [v](uint32_t l, uint64_t& cell) {
                                          v[2 * l] =
                                              AtpQuantizer::SaturatingAdd(Lo(cell), v[2 * l]);
                                          v[2 * l + 1] =
                                              AtpQuantizer::SaturatingAdd(Hi(cell), v[2 * l + 1]);
                                      });
        }
        else
        {
            pass.ReadModifyWriteLanes(*m_regs.value,
                                      index,
                                      0,
                                      VALUE_LANES,
                                      [v](uint32_t l, uint64_t& cell) {
                                          v[2 * l] = Lo(cell);
                                          v[2 * l + 1] = Hi(cell);
                                      });
        }
    }
    field = before | mine;
    if (ecnBefore || ecnIn)
    {
        h->flags |= AtpHeader::FLAG_ECN;
    }
    // A rack flushed whole is a level-1 aggregate; a partial one must not be merged at level 2.
    if (level1 && held + (fresh != 0 ? 1 : 0) == fanIn)
    {
        h->flags |= AtpHeader::FLAG_EDGE;
    }
    CountReason(RESEND_FLUSHED);
    Forward(p);
}

void
AtpProgram::Release(InaPacket* p, PipelinePass& pass, AtpHeader* h)
{
    const uint32_t index = h->aggregatorIndex;
    const uint32_t key = h->jobIdAndSeq;
    // An ACK of a fragment that collided carries an index another key holds: it frees nothing.
    const uint64_t holder = pass.ReadModifyWrite(*m_regs.id, index, 0, [key](uint64_t& cell) {
        const uint64_t old = cell;
        if (old == key)
        {
            cell = 0;
        }
        return old;
    });
    if (holder == key)
    {
        NoteFreed();
        pass.Write(*m_regs.bitmap, index, 0, 0);
        pass.Write(*m_regs.counter, index, 0, 0);
        pass.Write(*m_regs.ecn, index, 0, 0);
        CountReason(ACK_FREED);
    }
    else
    {
        CountReason(ACK_PASSED);
    }
    Forward(p);
}

void
AtpProgram::OnCollision(InaPacket* p,
                        PipelinePass& pass,
                        AtpHeader* h,
                        const JobConfig& job,
                        uint32_t holder)
{
    h->flags |= AtpHeader::FLAG_COLLISION;
    CountReason(COLLISION);
    Forward(p);
}

void
AtpProgram::OnComplete(InaPacket* p,
                       PipelinePass& pass,
                       AtpHeader* h,
                       const JobConfig& job,
                       bool duplicate)
{
    CountReason(duplicate ? DUPLICATE_REEMITTED : COMPLETED);
    Forward(p);
}

} // namespace ns3
