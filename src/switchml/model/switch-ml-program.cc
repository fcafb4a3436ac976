/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-ml-program.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMlProgram");
NS_OBJECT_ENSURE_REGISTERED(SwitchMlProgram);

namespace
{
constexpr uint32_t VALUE_LANES = 32;     //!< stateful ALUs the aggregate takes (both modes)
constexpr uint32_t MAX_JOB_ID = 0xffff;  //!< the job table's key is 16 bits
constexpr uint32_t MAX_SHARE = 0x10000;  //!< idx is 16 bits
constexpr uint64_t HALF = 0xffffffffULL; //!< one version's half of a 64-bit cell
} // namespace

TypeId
SwitchMlProgram::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchMlProgram")
            .SetParent<SwitchProgram>()
            .SetGroupName("InaAggregation")
            .AddConstructor<SwitchMlProgram>()
            .AddAttribute("PoolSize",
                          "Aggregation slots at this switch (each with two versions), shared by "
                          "every SwitchML job aggregating here. Checked against the pipeline's "
                          "SRAM and ALUs at install (the code of NSDI'21 SwitchML: 8192).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(8192),
                          MakeUintegerAccessor(&SwitchMlProgram::m_poolSize),
                          MakeUintegerChecker<uint32_t>(1, MAX_POOL))
            .AddAttribute("ElementsPerPacket",
                          "int32 elements per packet: 32 (the 2019 paper, one pass) or 64 "
                          "(NSDI'21: a second pass for every packet that carries a result out).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(32),
                          MakeUintegerAccessor(&SwitchMlProgram::m_elements),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("BlockExponent",
                          "Keep the per-slot maximum of the workers' block exponents (NSDI'21 "
                          "quantization) in an extra register.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          BooleanValue(false),
                          MakeBooleanAccessor(&SwitchMlProgram::m_blockExponent),
                          MakeBooleanChecker())
            .AddAttribute("MaxFanIn",
                          "Largest number of contributors (workers or child switches) a job may "
                          "have here: one 64-bit bitmap register per 32 (one stateful ALU each).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(64),
                          MakeUintegerAccessor(&SwitchMlProgram::m_maxFanIn),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxJobs",
                          "Entries of the job table: SwitchML jobs that may aggregate here.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(32),
                          MakeUintegerAccessor(&SwitchMlProgram::m_maxJobs),
                          MakeUintegerChecker<uint32_t>(1, 256));
    return tid;
}

SwitchMlProgram::SwitchMlProgram()
    : PoolSizedProgram(MAX_POOL)
{
    NS_LOG_FUNCTION(this);
    SetReasonNames({"absorbed",
                    "completed",
                    "partial_sent_up",
                    "duplicate_replied",
                    "duplicate_resent_up",
                    "duplicate_dropped",
                    "stale_contribution",
                    "harvest_passes",
                    "unknown_job",
                    "bad_slot",
                    "bad_worker",
                    "bad_payload"});
}

uint16_t
SwitchMlProgram::GetProtocolNumber() const
{
    return SWITCHML_PROTOCOL;
}

std::string
SwitchMlProgram::GetName() const
{
    return "switchml";
}

void
SwitchMlProgram::CheckConfig()
{
    if (m_elements != 32 && m_elements != 64)
    {
        throw std::invalid_argument("ElementsPerPacket is " + std::to_string(m_elements) +
                                    "; expected 32 (one value per register lane) or 64 (two per "
                                    "lane, harvested in a second pass)");
    }
    if (GetPipelineLimits().valuesPerPass < VALUE_LANES)
    {
        throw std::invalid_argument("SwitchML touches " + std::to_string(VALUE_LANES) +
                                    " payload register lanes per pass but the pipeline's "
                                    "ValuesPerPass is " +
                                    std::to_string(GetPipelineLimits().valuesPerPass));
    }
    const uint32_t seenLanes = (m_maxFanIn + 31) / 32;
    if (seenLanes > GetPipelineLimits().statefulAlusPerStage)
    {
        throw std::invalid_argument("MaxFanIn " + std::to_string(m_maxFanIn) + " needs " +
                                    std::to_string(seenLanes) +
                                    " bitmap registers in one stage but a stage has " +
                                    std::to_string(GetPipelineLimits().statefulAlusPerStage) +
                                    " stateful ALUs (StatefulAlusPerStage); at most " +
                                    std::to_string(32 * GetPipelineLimits().statefulAlusPerStage) +
                                    " contributors per switch");
    }
}

ResourceDemand
SwitchMlProgram::Demand(uint32_t poolSize, const PipelineLimits& limits) const
{
    ResourceDemand d;
    d.program = GetName();
    const uint32_t seenLanes = (m_maxFanIn + 31) / 32;
    d.AddTable("jobs", m_maxJobs, 16, 8, 0);
    d.AddRegisterArray("seen", poolSize, 64, 0, seenLanes, seenLanes).payload = false;
    d.AddRegisterArray("count", poolSize, 64, 1).payload = false;
    if (m_blockExponent)
    {
        d.AddRegisterArray("exponent", 2 * poolSize, 16, 1).payload = false;
    }
    d.AddRegisterArray("value",
                       2 * poolSize,
                       m_elements > 32 ? 64 : 32,
                       2,
                       VALUE_LANES,
                       std::max<uint32_t>(1, limits.statefulAlusPerStage));
    return d;
}

void
SwitchMlProgram::DoResetState()
{
    m_slotsInUse = 0; // the registers that held the phases are 0 again
}

void
SwitchMlProgram::InitializeState()
{
    m_jobTable = &GetTable("jobs");
    m_seen = &GetRegister("seen");
    m_count = &GetRegister("count");
    m_exponent = m_blockExponent ? &GetRegister("exponent") : nullptr;
    m_value = &GetRegister("value");
    m_jobs.clear();
    m_slotsInUse = 0;
    m_peakSlotsInUse = 0;
}

void
SwitchMlProgram::Partition(std::vector<Job>& jobs) const
{
    uint64_t explicitSlots = 0;
    uint32_t autoJobs = 0;
    for (const Job& j : jobs)
    {
        explicitSlots += j.cfg.requestedSlots;
        autoJobs += j.cfg.requestedSlots == 0 ? 1 : 0;
    }
    auto listing = [&]() {
        std::string s;
        for (const Job& j : jobs)
        {
            s += (s.empty() ? "" : ", ") + j.cfg.name + " (" +
                 (j.cfg.requestedSlots == 0 ? std::string("auto")
                                            : std::to_string(j.cfg.requestedSlots)) +
                 ")";
        }
        return s;
    };
    if (explicitSlots > m_poolSize)
    {
        throw std::runtime_error("the jobs here ask for " + std::to_string(explicitSlots) +
                                 " slots but the SwitchML pool has " + std::to_string(m_poolSize) +
                                 " (jobs and PoolSize asked: " + listing() +
                                 "); raise the switch pool (SwitchPoolSize, or "
                                 "ns3::SwitchMlProgram::PoolSize) or lower the jobs' PoolSize");
    }
    const uint64_t autoShare = autoJobs > 0 ? (m_poolSize - explicitSlots) / autoJobs : 0;
    uint32_t base = 0;
    for (Job& j : jobs)
    {
        uint64_t share = j.cfg.requestedSlots;
        if (share == 0)
        {
            share = std::min<uint64_t>(autoShare, std::max<uint32_t>(1, j.cfg.autoCap));
        }
        share = std::min<uint64_t>(share, MAX_SHARE);
        if (share == 0)
        {
            throw std::runtime_error("job " + j.cfg.name +
                                     " would get a share of 0 slots: the "
                                     "SwitchML pool has " +
                                     std::to_string(m_poolSize) + " slots for " +
                                     std::to_string(jobs.size()) +
                                     " jobs (jobs and PoolSize asked: " + listing() +
                                     "); raise the switch pool (SwitchPoolSize, or "
                                     "ns3::SwitchMlProgram::PoolSize) or run fewer SwitchML jobs "
                                     "on this switch");
        }
        j.base = base;
        j.share = static_cast<uint32_t>(share);
        base += j.share;
    }
}

void
SwitchMlProgram::AddJob(const JobConfig& job)
{
    NS_LOG_FUNCTION(this << job.jobId);
    if (!IsInstalled())
    {
        throw std::runtime_error("SwitchMlProgram::AddJob before the program is installed");
    }
    if (job.jobId == 0 || job.jobId > MAX_JOB_ID)
    {
        throw std::runtime_error("job " + job.name + " has id " + std::to_string(job.jobId) +
                                 "; SwitchML's job table takes ids 1.." +
                                 std::to_string(MAX_JOB_ID));
    }
    if (HasJob(job.jobId))
    {
        throw std::runtime_error("job id " + std::to_string(job.jobId) + " (" + job.name +
                                 ") is already installed at this switch");
    }
    if (job.fanIn == 0 || job.fanIn > m_maxFanIn)
    {
        throw std::runtime_error("job " + job.name + " has " + std::to_string(job.fanIn) +
                                 " contributors here; expected 1.." + std::to_string(m_maxFanIn) +
                                 " (ns3::SwitchMlProgram::MaxFanIn)");
    }
    if (m_jobs.size() >= m_maxJobs)
    {
        throw std::runtime_error("job " + job.name + ": the SwitchML job table is full (" +
                                 std::to_string(m_maxJobs) +
                                 " jobs, ns3::SwitchMlProgram::MaxJobs)");
    }
    std::vector<Job> next = m_jobs;
    Job j;
    j.cfg = job;
    next.push_back(j);
    Partition(next);
    for (size_t i = 0; i < m_jobs.size(); ++i)
    {
        if (m_jobs[i].frozen &&
            (m_jobs[i].base != next[i].base || m_jobs[i].share != next[i].share))
        {
            throw std::runtime_error("adding job " + job.name +
                                     " would move the pool share of "
                                     "job " +
                                     m_jobs[i].cfg.name +
                                     ", which has already started; install every SwitchML job "
                                     "before the first one starts");
        }
        next[i].frozen = m_jobs[i].frozen;
    }
    m_jobTable->Insert(job.jobId, m_jobs.size());
    m_jobs = std::move(next);
}

const SwitchMlProgram::Job&
SwitchMlProgram::Find(uint32_t jobId) const
{
    for (const Job& j : m_jobs)
    {
        if (j.cfg.jobId == jobId)
        {
            return j;
        }
    }
    throw std::out_of_range("job id " + std::to_string(jobId) +
                            " does not aggregate at this SwitchML switch");
}

bool
SwitchMlProgram::HasJob(uint32_t jobId) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [jobId](const Job& j) {
        return j.cfg.jobId == jobId;
    });
}

uint32_t
SwitchMlProgram::GetShare(uint32_t jobId) const
{
    return Find(jobId).share;
}

uint32_t
SwitchMlProgram::GetBase(uint32_t jobId) const
{
    return Find(jobId).base;
}

const SwitchMlProgram::JobConfig&
SwitchMlProgram::GetJobConfig(uint32_t jobId) const
{
    return Find(jobId).cfg;
}

void
SwitchMlProgram::FreezeJob(uint32_t jobId)
{
    const_cast<Job&>(Find(jobId)).frozen = true;
}

uint32_t
SwitchMlProgram::GetNJobs() const
{
    return static_cast<uint32_t>(m_jobs.size());
}

uint32_t
SwitchMlProgram::GetPoolSize() const
{
    return m_poolSize;
}

uint32_t
SwitchMlProgram::GetElementsPerPacket() const
{
    return m_elements;
}

bool
SwitchMlProgram::IsBlockExponent() const
{
    return m_blockExponent;
}

uint32_t
SwitchMlProgram::GetMaxFanIn() const
{
    return m_maxFanIn;
}

uint64_t
SwitchMlProgram::GetSlotsInUse() const
{
    return m_slotsInUse;
}

uint64_t
SwitchMlProgram::GetAggregatorsInUse() const
{
    return m_slotsInUse;
}

uint64_t
SwitchMlProgram::GetPeakAggregatorsInUse() const
{
    return m_peakSlotsInUse;
}

uint64_t
SwitchMlProgram::GetPeakSlotsInUse() const
{
    return m_peakSlotsInUse;
}

uint32_t
SwitchMlProgram::ControlSlot(uint32_t jobId, uint16_t idx, uint8_t ver) const
{
    const Job& j = Find(jobId);
    if (idx >= j.share || ver > 1)
    {
        throw std::out_of_range("slot " + std::to_string(idx) + " version " + std::to_string(ver) +
                                " is outside job " + j.cfg.name + "'s share of " +
                                std::to_string(j.share) + " slots");
    }
    return j.base + idx;
}

int32_t
SwitchMlProgram::ReadValue(uint32_t jobId, uint16_t idx, uint8_t ver, uint32_t element) const
{
    const uint32_t slot = ControlSlot(jobId, idx, ver);
    if (element >= m_elements)
    {
        throw std::out_of_range("element " + std::to_string(element) + " of a " +
                                std::to_string(m_elements) + "-element slot");
    }
    if (m_elements == 32)
    {
        return static_cast<int32_t>(m_value->ControlRead(slot * 2 + ver, element));
    }
    const uint64_t cell = m_value->ControlRead(slot * 2 + ver, element / 2);
    return static_cast<int32_t>(static_cast<uint32_t>((element & 1) != 0 ? cell >> 32 : cell));
}

uint32_t
SwitchMlProgram::ReadCount(uint32_t jobId, uint16_t idx, uint8_t ver) const
{
    const uint64_t cell = m_count->ControlRead(ControlSlot(jobId, idx, ver));
    return static_cast<uint32_t>((cell >> (32 * ver)) & HALF);
}

bool
SwitchMlProgram::ReadSeen(uint32_t jobId, uint16_t idx, uint8_t ver, uint16_t wid) const
{
    const uint64_t cell = m_seen->ControlRead(ControlSlot(jobId, idx, ver), wid / 32);
    return ((cell >> (32 * ver + wid % 32)) & 1) != 0;
}

int16_t
SwitchMlProgram::ReadExponent(uint32_t jobId, uint16_t idx, uint8_t ver) const
{
    if (m_exponent == nullptr)
    {
        throw std::logic_error("this SwitchML program has no exponent register (BlockExponent "
                               "is false)");
    }
    const uint32_t slot = ControlSlot(jobId, idx, ver);
    return static_cast<int16_t>(static_cast<uint16_t>(m_exponent->ControlRead(slot * 2 + ver)));
}

bool
SwitchMlProgram::IsAggregationWork(const InaPacket* p) const
{
    const SwitchMlHeader* h = p->Header<SwitchMlHeader>();
    return (h->flags & SwitchMlHeader::FLAG_HARVEST) == 0 && h->type == SwitchMlHeader::UPDATE &&
           p->dst == GetSwitchAddress();
}

void
SwitchMlProgram::DoProcess(InaPacket* p, PipelinePass& pass)
{
    SwitchMlHeader* h = p->Header<SwitchMlHeader>();
    if ((h->flags & SwitchMlHeader::FLAG_HARVEST) != 0)
    {
        if (pass.GetPassIndex() > 0)
        {
            Harvest(p, pass, h);
            return;
        }
        // The flag is the switch's own note to its recirculated pass (metadata on hardware,
        // not a header field its parser trusts): set on a packet from the wire, it is ignored,
        // and the packet is checked as any other. Trusted, it read a register at the
        // unchecked index the packet named (found by fuzz-switch-packets).
        h->flags &= ~SwitchMlHeader::FLAG_HARVEST;
    }
    if (m_address == INA_NO_ADDRESS)
    {
        m_address = GetSwitchAddress();
    }
    // Results on their way down, and updates for another tier, only pass through.
    if (p->dst != m_address || h->type != SwitchMlHeader::UPDATE)
    {
        Forward(p);
        return;
    }
    const Job* job = AcceptUpdate(p, pass, *h);
    if (job == nullptr)
    {
        return;
    }
    const Contribution c = CountContribution(pass, *job, *h);
    // Stage 1: the block exponent's running maximum.
    int16_t exponent = h->exponent;
    if (m_exponent != nullptr && (!c.duplicate || c.complete))
    {
        exponent = MaxExponent(pass, c, h->exponent);
    }
    // Stages 2..: the aggregate. Virtual payloads skip the arithmetic but not the passes.
    const bool hasData = (h->flags & SwitchMlHeader::FLAG_DATA) != 0;
    if (hasData && p->values != nullptr)
    {
        int32_t* vals = p->values->AsInt32();
        if (m_elements == 32)
        {
            Aggregate32(pass, c, vals);
        }
        else
        {
            Aggregate64(pass, c, vals);
        }
    }
    if (!c.complete)
    {
        Absorb(p, c);
        return;
    }
    if (!c.duplicate && !c.first)
    {
        --m_slotsInUse;
    }
    h->exponent = exponent;
    SendOn(p, pass, *job, c, hasData);
}

const SwitchMlProgram::Job*
SwitchMlProgram::AcceptUpdate(InaPacket* p, PipelinePass& pass, const SwitchMlHeader& h)
{
    uint64_t index = 0;
    if (p->jobId > MAX_JOB_ID || !pass.Lookup(*m_jobTable, p->jobId, &index))
    {
        CountReason(UNKNOWN_JOB);
        Consume(p);
        return nullptr;
    }
    const Job& job = m_jobs[index];
    if (h.idx >= job.share)
    {
        CountReason(BAD_SLOT);
        Consume(p);
        return nullptr;
    }
    if (h.wid >= job.cfg.fanIn)
    {
        CountReason(BAD_WORKER);
        Consume(p);
        return nullptr;
    }
    const bool hasData = (h.flags & SwitchMlHeader::FLAG_DATA) != 0;
    const bool hasValues = hasData && p->values != nullptr;
    if (hasValues && p->values->words.size() < m_elements)
    {
        CountReason(BAD_PAYLOAD);
        Consume(p);
        return nullptr;
    }
    return &job;
}

SwitchMlProgram::Contribution
SwitchMlProgram::CountContribution(PipelinePass& pass, const Job& job, const SwitchMlHeader& h)
{
    Contribution c;
    c.slot = job.base + h.idx;
    c.ver = h.ver & 1;
    const unsigned mine = 32 * c.ver;
    const unsigned other = 32 - mine;
    const uint64_t bit = 1ULL << (h.wid & 31);

    // Stage 0: set my bit in my version and clear it in the other, unless it is already set.
    const uint64_t seenBefore =
        pass.ReadModifyWrite(*m_seen, c.slot, h.wid >> 5, [bit, mine, other](uint64_t& cell) {
            const uint64_t old = cell;
            if ((old & (bit << mine)) == 0)
            {
                cell = (old | (bit << mine)) & ~(bit << other);
            }
            return old;
        });
    c.duplicate = (seenBefore & (bit << mine)) != 0;

    // Stage 1: count new contributions modulo the fan-in; read both versions' counts.
    const uint32_t n = job.cfg.fanIn;
    const bool duplicate = c.duplicate;
    const uint64_t countsBefore =
        pass.ReadModifyWrite(*m_count, c.slot, 0, [duplicate, n, mine](uint64_t& cell) {
            const uint64_t old = cell;
            if (!duplicate)
            {
                const uint64_t count = ((old >> mine) & HALF) + 1;
                cell = (old & ~(HALF << mine)) | ((count == n ? 0 : count) << mine);
            }
            return old;
        });
    const uint32_t before = static_cast<uint32_t>((countsBefore >> mine) & HALF);
    if (c.duplicate)
    {
        c.complete = before == 0;
    }
    else
    {
        c.first = before == 0;
        c.complete = before + 1 == n;
        if ((seenBefore & (bit << other)) != 0 && ((countsBefore >> other) & HALF) != 0)
        {
            CountReason(STALE_CONTRIBUTION);
        }
    }
    return c;
}

int16_t
SwitchMlProgram::MaxExponent(PipelinePass& pass, const Contribution& c, int16_t mineExp)
{
    const bool first = c.first;
    const bool keep = c.duplicate;
    return static_cast<int16_t>(pass.ReadModifyWrite(
        *m_exponent,
        c.slot * 2 + c.ver,
        0,
        [first, keep, mineExp](uint64_t& cell) {
            const auto stored = static_cast<int16_t>(static_cast<uint16_t>(cell));
            const int16_t next = keep ? stored : (first ? mineExp : std::max(stored, mineExp));
            cell = static_cast<uint16_t>(next);
            return static_cast<uint64_t>(static_cast<uint16_t>(next));
        }));
}

void
SwitchMlProgram::Aggregate32(PipelinePass& pass, const Contribution& c, int32_t* vals)
{
    const uint32_t vi = c.slot * 2 + c.ver;
    if (!c.duplicate)
    {
        if (c.first)
        {
            pass.WriteLanes(*m_value, vi, 0, VALUE_LANES, vals);
        }
        else
        {
            pass.RmwAdd(*m_value, vi, 0, VALUE_LANES, vals, c.complete ? vals : nullptr);
        }
    }
    else if (c.complete)
    {
        pass.ReadLanes(*m_value, vi, 0, VALUE_LANES, vals);
    }
}

void
SwitchMlProgram::Aggregate64(PipelinePass& pass, const Contribution& c, int32_t* vals)
{
    // Each register cell holds two elements; this pass returns the low halves of a result
    // (Harvest, on the recirculated pass, the high ones).
    const uint32_t vi = c.slot * 2 + c.ver;
    if (!c.duplicate)
    {
        const bool first = c.first;
        const bool out = c.complete && !first;
        pass.ReadModifyWriteLanes(*m_value,
                                  vi,
                                  0,
                                  VALUE_LANES,
                                  [vals, first, out](uint32_t l, uint64_t& cell) {
                                      const auto lo = static_cast<uint32_t>(vals[2 * l]);
                                      const auto hi = static_cast<uint32_t>(vals[2 * l + 1]);
                                      uint32_t a = lo;
                                      uint32_t b = hi;
                                      if (!first)
                                      {
                                          a += static_cast<uint32_t>(cell);
                                          b += static_cast<uint32_t>(cell >> 32);
                                      }
                                      cell = (static_cast<uint64_t>(b) << 32) | a;
                                      if (out)
                                      {
                                          vals[2 * l] = static_cast<int32_t>(a);
                                      }
                                  });
    }
    else if (c.complete)
    {
        pass.ReadModifyWriteLanes(*m_value, vi, 0, VALUE_LANES, [vals](uint32_t l, uint64_t& cell) {
            vals[2 * l] = static_cast<int32_t>(static_cast<uint32_t>(cell));
        });
    }
}

void
SwitchMlProgram::Absorb(InaPacket* p, const Contribution& c)
{
    if (c.duplicate)
    {
        CountReason(DUPLICATE_DROPPED);
    }
    else
    {
        CountReason(ABSORBED);
        if (c.first && ++m_slotsInUse > m_peakSlotsInUse)
        {
            m_peakSlotsInUse = m_slotsInUse;
        }
    }
    Consume(p);
}

void
SwitchMlProgram::SendOn(InaPacket* p,
                        PipelinePass& pass,
                        const Job& job,
                        const Contribution& c,
                        bool hasData)
{
    SwitchMlHeader* h = p->Header<SwitchMlHeader>();
    if (job.cfg.isRoot)
    {
        h->type = SwitchMlHeader::RESULT;
        p->dst = c.duplicate ? h->origin : job.cfg.resultGroup;
        p->dstPort = job.cfg.endpoint;
        CountReason(c.duplicate ? DUPLICATE_REPLIED : COMPLETED);
    }
    else
    {
        h->wid = job.cfg.childId;
        p->src = m_address;
        p->dst = job.cfg.parent;
        p->flowId = job.cfg.upFlowId;
        CountReason(c.duplicate ? DUPLICATE_RESENT_UP : PARTIAL_SENT_UP);
    }
    h->flags = static_cast<uint8_t>((h->flags & ~SwitchMlHeader::FLAG_RETX) |
                                    (c.duplicate ? SwitchMlHeader::FLAG_RETX : 0));
    // A 64-element aggregate read from the registers leaves with its low halves only.
    if (m_elements > 32 && hasData && (c.duplicate || !c.first))
    {
        h->flags |= SwitchMlHeader::FLAG_HARVEST;
        pass.Recirculate();
        return;
    }
    Forward(p);
}

void
SwitchMlProgram::Harvest(InaPacket* p, PipelinePass& pass, SwitchMlHeader* h)
{
    h->flags &= ~SwitchMlHeader::FLAG_HARVEST;
    CountReason(HARVEST_PASSES);
    uint64_t index = 0;
    if (p->values != nullptr && p->jobId <= MAX_JOB_ID &&
        pass.Lookup(*m_jobTable, p->jobId, &index))
    {
        const Job& job = m_jobs[index];
        int32_t* vals = p->values->AsInt32();
        pass.ReadModifyWriteLanes(*m_value,
                                  (job.base + h->idx) * 2 + (h->ver & 1),
                                  0,
                                  VALUE_LANES,
                                  [vals](uint32_t l, uint64_t& cell) {
                                      vals[2 * l + 1] =
                                          static_cast<int32_t>(static_cast<uint32_t>(cell >> 32));
                                  });
    }
    Forward(p);
}

} // namespace ns3
