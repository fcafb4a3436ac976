/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-program.h"

#include "libra-layout.h"
#include "libra-resources.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/ina-port.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LibraProgram");
NS_OBJECT_ENSURE_REGISTERED(LibraProgram);

TypeId
LibraProgram::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LibraProgram")
            .SetParent<SwitchProgram>()
            .SetGroupName("Libra")
            .AddConstructor<LibraProgram>()
            .AddAttribute("Registers",
                          "m, the register arrays hot parameters are spread over (rank mod m); "
                          "every Libra job on the switch uses the same m",
                          UintegerValue(16),
                          MakeUintegerAccessor(&LibraProgram::m_registers),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("MemoryShare",
                          "c of Principle 1: the share of the switch's 20 MiB of SRAM granted to "
                          "Libra's hot registers, for all its jobs together",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&LibraProgram::m_memoryShare),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("AddMode",
                          "float add of the registers: lns-approx (the paper's log-domain table "
                          "lookups, tables in pipeline memory) or exact (an IEEE add)",
                          StringValue("lns-approx"),
                          MakeStringAccessor(&LibraProgram::m_addModeName),
                          MakeStringChecker())
            .AddAttribute("MaxJobs",
                          "Libra jobs one switch can serve (cells of the done counter)",
                          UintegerValue(64),
                          MakeUintegerAccessor(&LibraProgram::m_maxJobs),
                          MakeUintegerChecker<uint32_t>(1, 4096))
            .AddAttribute("CpuDelay",
                          "latency of the switch CPU path a retransmitted packet takes to the "
                          "records (spec A.8: 20 us)",
                          TimeValue(MicroSeconds(20)),
                          MakeTimeAccessor(&LibraProgram::m_cpuDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("SwitchRto",
                          "how long the CPU waits for every worker's ACK of a READY or RESULT "
                          "before resending it (spec A.9: the host RTO, 200 us, plus the CPU "
                          "delay)",
                          TimeValue(MicroSeconds(220)),
                          MakeTimeAccessor(&LibraProgram::m_switchRto),
                          MakeTimeChecker(PicoSeconds(1)));
    return tid;
}

LibraProgram::LibraProgram()
    : m_registers(16)
    , m_memoryShare(0.05)
    , m_maxJobs(64)
    , m_addModeName("lns-approx")
    , m_adder(LibraLnsAdder::Mode::LNS_APPROX)
{
    SetReasonNames({"unknown_job",
                    "bad_packet",
                    "pairs_aggregated",
                    "retx_to_cpu",
                    "repeats_absorbed",
                    "results_sent",
                    "unpushed_reads",
                    "cpu_resends",
                    "rounds_completed",
                    "frozen_drops",
                    "state_chunks"});
}

void
LibraProgram::DoDispose()
{
    // The held copies (and those of a frozen job's state) belong to the fabric's pool, which
    // frees its blocks wholesale; at the end of a simulation the fabric may be gone before the
    // switch that holds this program is disposed (Pipeline::DoDispose), so they are not handed
    // back one by one.
    m_held.clear();
    m_heldFifo.clear();
    m_jobs.clear();
    SwitchProgram::DoDispose();
}

uint16_t
LibraProgram::GetProtocolNumber() const
{
    return LIBRA_PROTOCOL;
}

std::string
LibraProgram::GetName() const
{
    return "libra";
}

uint32_t
LibraProgram::GetSlotsPerRegister() const
{
    const double bytes = m_memoryShare * static_cast<double>(LibraResources::SWITCH_SRAM_BYTES);
    const uint64_t keys = static_cast<uint64_t>(bytes / LibraResources::BYTES_PER_HOT_KEY);
    return static_cast<uint32_t>(keys / m_registers);
}

uint64_t
LibraProgram::GetCapacityKeys() const
{
    return uint64_t{GetSlotsPerRegister()} * m_registers;
}

uint64_t
LibraProgram::GetUsedKeys() const
{
    return uint64_t{m_nextBase} * m_registers;
}

uint64_t
LibraProgram::GetAggregatorsInUse() const
{
    return GetUsedKeys();
}

uint64_t
LibraProgram::GetPeakAggregatorsInUse() const
{
    return GetUsedKeys();
}

void
LibraProgram::CheckConfig()
{
    m_adder = LibraLnsAdder(LibraLnsAdder::ParseMode(m_addModeName));
    if (GetSlotsPerRegister() == 0)
    {
        throw std::invalid_argument("MemoryShare " + std::to_string(m_memoryShare) +
                                    " of the switch's 20 MiB leaves no "
                                    "cell for " +
                                    std::to_string(m_registers) + " registers; raise MemoryShare");
    }
    if (m_registers > GetPipelineLimits().valuesPerPass)
    {
        throw std::invalid_argument("Registers " + std::to_string(m_registers) +
                                    ": a packet may touch one cell of every "
                                    "register in one pass, but the pipeline lets a pass touch " +
                                    std::to_string(GetPipelineLimits().valuesPerPass) +
                                    " values (ValuesPerPass)");
    }
}

void
LibraProgram::DeclareResources(ResourceDemand& demand) const
{
    const bool lns = LibraLnsAdder::ParseMode(m_addModeName) == LibraLnsAdder::Mode::LNS_APPROX;
    const PipelineLimits& limits = GetPipelineLimits();
    const uint32_t first = LibraResources::GetRegisterFirstStage(lns);
    if (lns)
    {
        for (const auto& t : LibraLnsAdder::GetTableSpecs())
        {
            demand.AddTable(t.name, t.entries, t.keyBits, 8 * t.valueBytes, t.depth);
        }
    }
    const uint32_t perStage = std::max(1U, limits.statefulAlusPerStage);
    demand.AddTable("libra_jobs", m_maxJobs, 16, 16, 0);
    // A register pair per cell: the 4-B sum Principle 1 counts, and the readers count beside it
    // in the same stateful ALU (the paper's 130 KB of control logic is where it would live; it
    // does not say how its registers are reset).
    demand.AddRegisterArray(LibraResources::HOT_ARRAY_NAME,
                            GetSlotsPerRegister(),
                            2 * 8 * LibraResources::BYTES_PER_HOT_KEY,
                            first,
                            m_registers,
                            perStage);
    const uint32_t doneStage = first + (m_registers + perStage - 1) / perStage;
    demand.AddRegisterArray("libra_done", m_maxJobs, 32, doneStage).payload = false;
}

void
LibraProgram::DoResetState()
{
    // The switch CPU's copies go with the reboot; its timer finds nothing due.
    for (auto& [key, h] : m_held)
    {
        GetPool().Free(h.copy);
    }
    m_held.clear();
    m_heldFifo.clear();
    // So does a state snapshot waiting for the controller; the job stays frozen (control plane).
    for (Job& j : m_jobs)
    {
        if (j.frozenState)
        {
            FreeState(*j.frozenState);
            j.frozenState.reset();
        }
    }
}

void
LibraProgram::InitializeState()
{
    m_hot = &GetRegister(LibraResources::HOT_ARRAY_NAME);
    m_done = &GetRegister("libra_done");
    m_jobTable = &GetTable("libra_jobs");
    if (m_adder.GetMode() == LibraLnsAdder::Mode::LNS_APPROX)
    {
        // The tables hold what the adder computes with: the same entries, in pipeline memory
        // (209,152 of them on every switch that installs the program, so straight from the
        // adder's arrays rather than through GetEntry's checks).
        for (const auto& t : LibraLnsAdder::GetTableSpecs())
        {
            ExactMatchTable& table = GetTable(t.name);
            const std::vector<uint16_t>& entries = LibraLnsAdder::GetTableEntries(t.id);
            for (uint32_t k = 0; k < entries.size(); ++k)
            {
                table.Insert(k, entries[k]);
            }
        }
    }
    m_laneCount.assign(m_registers, 0);
}

void
LibraProgram::AddJob(const JobConfig& cfg)
{
    NS_ABORT_MSG_UNLESS(IsInstalled(), "LibraProgram::AddJob before Install");
    if (FindJob(cfg.jobId) != nullptr)
    {
        throw std::runtime_error("job " + cfg.name + " (libra): job id " +
                                 std::to_string(cfg.jobId) + " is already on this switch");
    }
    if (m_jobs.size() >= m_maxJobs)
    {
        throw std::runtime_error("job " + cfg.name + " (libra): the switch serves at most " +
                                 std::to_string(m_maxJobs) + " Libra jobs (MaxJobs)");
    }
    const uint32_t blocks = (cfg.hotKeys + m_registers - 1) / m_registers;
    if (uint64_t{m_nextBase} + blocks > GetSlotsPerRegister())
    {
        std::string others;
        for (const Job& j : m_jobs)
        {
            others +=
                (others.empty() ? "" : ", ") + j.cfg.name + " " + std::to_string(j.cfg.hotKeys);
        }
        throw std::runtime_error(
            "job " + cfg.name + " (libra): switch memory cannot hold its " +
            std::to_string(cfg.hotKeys) + " hot parameters (" + std::to_string(blocks) +
            " cells in each of " + std::to_string(m_registers) + " registers) beside " +
            (others.empty() ? std::string("no other job")
                            : "the jobs already there (" + others + " hot parameters)") +
            ": Libra's share of the switch (MemoryShare " + std::to_string(m_memoryShare) +
            " of 20 MiB) holds " + std::to_string(GetCapacityKeys()) + " hot parameters (" +
            std::to_string(GetSlotsPerRegister()) + " cells per register), " +
            std::to_string(GetUsedKeys()) + " taken; lower HotKeys or raise MemoryShare");
    }
    Job job;
    job.cfg = cfg;
    job.base = m_nextBase;
    job.blocks = blocks;
    job.index = static_cast<uint32_t>(m_jobs.size());
    m_nextBase += blocks;
    m_jobTable->Insert(cfg.jobId & 0xffff, job.index);
    m_jobs.push_back(std::move(job));
    m_done->ControlWrite(m_jobs.back().index, 0, 0);
}

uint32_t
LibraProgram::GetBlocks(uint32_t jobId) const
{
    for (const Job& j : m_jobs)
    {
        if (j.cfg.jobId == jobId)
        {
            return j.blocks;
        }
    }
    throw std::invalid_argument("LibraProgram: no job " + std::to_string(jobId));
}

float
LibraProgram::ReadHot(uint32_t jobId, uint32_t rank) const
{
    for (const Job& j : m_jobs)
    {
        if (j.cfg.jobId == jobId)
        {
            return LibraBitsFloat(static_cast<uint32_t>(
                m_hot->ControlRead(j.base + rank / m_registers, rank % m_registers)));
        }
    }
    throw std::invalid_argument("LibraProgram: no job " + std::to_string(jobId));
}

uint32_t
LibraProgram::ReadReaders(uint32_t jobId, uint32_t rank) const
{
    for (const Job& j : m_jobs)
    {
        if (j.cfg.jobId == jobId)
        {
            return static_cast<uint32_t>(
                m_hot->ControlRead(j.base + rank / m_registers, rank % m_registers) >>
                READERS_SHIFT);
        }
    }
    throw std::invalid_argument("LibraProgram: no job " + std::to_string(jobId));
}

uint64_t
LibraProgram::GetRecords() const
{
    uint64_t n = 0;
    for (const Job& j : m_jobs)
    {
        n += j.records.GetSize();
    }
    return n;
}

LibraProgram::Job*
LibraProgram::FindJob(uint32_t jobId)
{
    for (Job& j : m_jobs)
    {
        if (j.cfg.jobId == jobId)
        {
            return &j;
        }
    }
    return nullptr;
}

LibraProgram::Job*
LibraProgram::Admit(InaPacket* p, PipelinePass& pass)
{
    const LibraHeader* h = p->Header<LibraHeader>();
    uint64_t index = 0;
    uint32_t reason = N_REASONS;
    if (!pass.Lookup(*m_jobTable, p->jobId & 0xffff, &index) || index >= m_jobs.size() ||
        m_jobs[index].cfg.jobId != p->jobId)
    {
        reason = UNKNOWN_JOB;
    }
    // Header fields the switch CPU's records key on (a round or a push number no worker sends
    // would not fit the record key: they threw out of the pipeline, found by
    // fuzz-switch-packets). A pull names the push it wants, so its number keys the same way.
    else if (h->worker >= m_jobs[index].cfg.workers || h->round >= LibraSwitchRecords::MAX_ROUND ||
             ((h->type == LibraHeader::PUSH || h->type == LibraHeader::PULL) &&
              h->seq >= LibraSwitchRecords::MAX_SEQ))
    {
        reason = BAD_PACKET;
    }
    // The job's state went to the controller: nothing may take effect here any more, and
    // nothing is acknowledged, so the workers resend it to the standby.
    else if (m_jobs[index].frozen && h->type != LibraHeader::HEARTBEAT &&
             h->type != LibraHeader::STATE_PULL)
    {
        reason = FROZEN_DROPS;
    }
    if (reason != N_REASONS)
    {
        CountReason(reason);
        Consume(p);
        return nullptr;
    }
    return &m_jobs[index];
}

void
LibraProgram::DoProcess(InaPacket* p, PipelinePass& pass)
{
    if (m_address == INA_NO_ADDRESS)
    {
        m_address = GetSwitchAddress();
    }
    // Results, ACKs and READYs on their way to workers, and packets for another switch, pass.
    if (p->dst != m_address)
    {
        Forward(p);
        return;
    }
    LibraHeader* h = p->Header<LibraHeader>();
    Job* found = Admit(p, pass);
    if (found == nullptr)
    {
        return;
    }
    Job& job = *found;
    const bool viaCpu = (h->flags & LibraHeader::FLAG_RETX) != 0 &&
                        (h->flags & LibraHeader::FLAG_FROM_CPU) == 0 &&
                        (h->type == LibraHeader::PUSH || h->type == LibraHeader::DONE ||
                         h->type == LibraHeader::PULL);
    if (viaCpu && pass.GetPassIndex() == 0)
    {
        // Libra_s: the CPU sees the retransmission after its path delay and decides.
        CountReason(RETX_TO_CPU);
        InaPacket* c = GetPool().Clone(p);
        Consume(p);
        Simulator::Schedule(m_cpuDelay, &LibraProgram::CpuCheck, this, c);
        return;
    }
    switch (h->type)
    {
    case LibraHeader::PUSH:
        ProcessPush(p, pass, job);
        return;
    case LibraHeader::DONE:
        ProcessDone(p, pass, job);
        return;
    case LibraHeader::PULL:
        ProcessPull(p, pass, job);
        return;
    case LibraHeader::READY_ACK:
    case LibraHeader::RESULT_ACK:
        ProcessAck(p, job);
        return;
    case LibraHeader::HEARTBEAT:
        AnswerHeartbeat(p);
        return;
    case LibraHeader::STATE_PULL:
    case LibraHeader::STATE_INSTALL: {
        // Libra_s moves the state: the CPU answers after its path delay.
        InaPacket* c = GetPool().Clone(p);
        Consume(p);
        Simulator::Schedule(m_cpuDelay,
                            h->type == LibraHeader::STATE_PULL ? &LibraProgram::CpuStatePull
                                                               : &LibraProgram::CpuStateInstall,
                            this,
                            c);
        return;
    }
    default:
        CountReason(BAD_PACKET);
        Consume(p);
        return;
    }
}

void
LibraProgram::AnswerHeartbeat(InaPacket* p)
{
    // Answered by the switch (Figure 11) with statistics of its state: what its ports sent and
    // lost (the paper's "high packet loss rates") and the copies its CPU holds. A failed switch
    // answers nothing, which is how the controller finds out.
    const uint32_t held = static_cast<uint32_t>(m_held.size());
    uint64_t sent = 0;
    uint64_t lost = 0;
    for (const InaPort* port : m_statPorts)
    {
        const InaLinkCounters& c = port->GetCounters();
        sent += c.txPackets;
        lost += c.lost + c.drops;
    }
    MakeAck(p, LibraHeader::HEARTBEAT_ACK);
    p->Header<LibraHeader>()->pairs = static_cast<uint16_t>(std::min<uint32_t>(held, 0xffff));
    p->values = GetPool().AllocValues(4);
    p->values->words.assign({static_cast<uint32_t>(sent),
                             static_cast<uint32_t>(sent >> 32),
                             static_cast<uint32_t>(lost),
                             static_cast<uint32_t>(lost >> 32)});
    Forward(p);
}

uint32_t
LibraProgram::DropMalformed(InaPacket* p)
{
    CountReason(BAD_PACKET);
    Consume(p);
    return 0;
}

uint32_t
LibraProgram::PlanPasses(InaPacket* p, const Job& job, uint32_t pass)
{
    const uint32_t n = p->Header<LibraHeader>()->pairs;
    if (p->values == nullptr || p->values->words.size() < 2 * size_t{n} || n == 0)
    {
        return DropMalformed(p);
    }
    const uint32_t* words = p->values->words.data();
    m_passOf.resize(n);
    std::fill(m_laneCount.begin(), m_laneCount.end(), 0);
    uint32_t passesNeeded = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t rank = words[2 * i];
        if (rank >= job.cfg.hotKeys)
        {
            return DropMalformed(p);
        }
        m_passOf[i] = m_laneCount[rank % m_registers]++;
        passesNeeded = std::max(passesNeeded, m_passOf[i] + 1);
    }
    m_serve.clear();
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_passOf[i] == pass)
        {
            m_serve.emplace_back(words[2 * i] % m_registers, i);
        }
    }
    std::sort(m_serve.begin(), m_serve.end());
    return passesNeeded;
}

void
LibraProgram::ProcessPush(InaPacket* p, PipelinePass& pass, Job& job)
{
    LibraHeader* h = p->Header<LibraHeader>();
    const uint32_t k = pass.GetPassIndex();
    const uint32_t passesNeeded = PlanPasses(p, job, k);
    if (passesNeeded == 0)
    {
        return;
    }
    const uint32_t* words = p->values->words.data();
    for (const auto& [lane, i] : m_serve)
    {
        const uint32_t rank = words[2 * i];
        const float v = LibraBitsFloat(words[2 * i + 1]);
        pass.ReadModifyWrite(*m_hot,
                             job.base + rank / m_registers,
                             lane,
                             [this, v](uint64_t& cell) {
                                 const uint64_t readers = (cell >> READERS_SHIFT) + 1;
                                 const float sum =
                                     m_adder.Add(LibraBitsFloat(static_cast<uint32_t>(cell)), v);
                                 cell = readers << READERS_SHIFT | LibraFloatBits(sum);
                             });
    }
    CountReason(PAIRS_AGGREGATED, m_serve.size());
    if (k + 1 < passesNeeded)
    {
        pass.Recirculate();
        return;
    }
    if (!job.records.RecordPush(h->worker, h->round, h->seq))
    {
        // A re-injected retransmission that another copy beat to the pipeline: nothing to undo
        // is possible, so it must never happen (the CPU re-injects only unrecorded pushes).
        NS_LOG_WARN("push recorded twice: job " << job.cfg.name << " worker " << h->worker
                                                << " round " << h->round << " seq " << h->seq);
    }
    MakeAck(p, LibraHeader::PUSH_ACK);
    Forward(p);
}

void
LibraProgram::ProcessDone(InaPacket* p, PipelinePass& pass, Job& job)
{
    LibraHeader* h = p->Header<LibraHeader>();
    const uint32_t n = job.cfg.workers;
    const uint32_t phase = h->seq;
    if (phase >= PHASES)
    {
        CountReason(BAD_PACKET);
        Consume(p);
        return;
    }
    // One counter serves both phases: a phase's N-th DONE resets it before any DONE of the next
    // phase can be sent (each waits for the READY of the one before).
    const uint64_t before = pass.ReadModifyWrite(*m_done, job.index, 0, [n](uint64_t& cell) {
        const uint64_t old = cell;
        cell = old + 1 == n ? 0 : old + 1;
        return old;
    });
    job.records.RecordDone(h->worker, h->round, phase);
    if (before + 1 < n)
    {
        MakeAck(p, LibraHeader::DONE_ACK);
        Forward(p);
        return;
    }
    // The last worker of the round: ACK it, and tell every worker to pull.
    const uint32_t round = h->round;
    InaPacket* ack = GetPool().Clone(p);
    MakeAck(ack, LibraHeader::DONE_ACK);
    Forward(ack);
    if (phase == 0 && round >= 1 && round - 1 > job.lastPrunedRound)
    {
        job.records.PruneBefore(round - 1);
        job.lastPrunedRound = round - 1;
    }
    h->type = LibraHeader::READY;
    h->flags = 0;
    h->seq = phase;
    p->src = m_address;
    p->dst = job.cfg.group;
    p->srcPort = job.cfg.endpoint;
    p->dstPort = job.cfg.endpoint;
    p->wireBytes = LibraHeader::MIN_FRAME_BYTES;
    if (p->values != nullptr)
    {
        GetPool().FreeValues(p->values);
        p->values = nullptr;
    }
    if (phase == 0)
    {
        CountReason(ROUNDS_COMPLETED);
    }
    Hold(job, p, MakeHeldId(job.index, round, ALL_WORKERS, READY_SEQ - phase), ALL_WORKERS);
    Forward(p);
}

void
LibraProgram::ProcessPull(InaPacket* p, PipelinePass& pass, Job& job)
{
    LibraHeader* h = p->Header<LibraHeader>();
    const uint32_t n = h->pairs;
    const uint32_t k = pass.GetPassIndex();
    const uint32_t passesNeeded = PlanPasses(p, job, k);
    if (passesNeeded == 0)
    {
        return;
    }
    uint32_t* words = p->values->words.data();
    uint64_t unpushed = 0;
    for (const auto& [lane, i] : m_serve)
    {
        const uint32_t rank = words[2 * i];
        uint32_t* out = &words[2 * i + 1];
        pass.ReadModifyWrite(*m_hot,
                             job.base + rank / m_registers,
                             lane,
                             [out, &unpushed](uint64_t& cell) {
                                 const uint64_t readers = cell >> READERS_SHIFT;
                                 *out = static_cast<uint32_t>(cell);
                                 if (readers == 0)
                                 {
                                     ++unpushed;
                                 }
                                 // The round's last reader leaves the cell clean for the next.
                                 cell = readers <= 1 ? 0 : (readers - 1) << READERS_SHIFT | *out;
                             });
    }
    if (unpushed > 0)
    {
        CountReason(UNPUSHED_READS, unpushed);
    }
    if (k + 1 < passesNeeded)
    {
        pass.Recirculate();
        return;
    }
    job.records.RecordPull(h->worker, h->round, h->seq);
    CountReason(RESULTS_SENT);
    const uint32_t worker = h->worker;
    h->type = LibraHeader::RESULT;
    h->flags = 0;
    std::swap(p->srcPort, p->dstPort);
    p->dst = job.cfg.workerAddresses[worker];
    p->src = m_address;
    // The ranks come back with their sums: the size of the push they were pulled for.
    p->wireBytes = LibraLayout::HEADER_BYTES + n * (4 + LibraLayout::VALUE_BYTES);
    Hold(job, p, MakeHeldId(job.index, h->round, worker, h->seq), worker);
    Forward(p);
}

void
LibraProgram::ProcessAck(InaPacket* p, Job& job)
{
    const LibraHeader* h = p->Header<LibraHeader>();
    const bool ready = h->type == LibraHeader::READY_ACK;
    auto it = m_held.find(MakeHeldId(job.index,
                                     h->round,
                                     ready ? ALL_WORKERS : h->worker,
                                     ready ? READY_SEQ - h->seq : h->seq));
    if (it != m_held.end() && it->second.Waits(h->worker))
    {
        if (!it->second.acked.empty())
        {
            it->second.acked[h->worker] = true;
        }
        if (--it->second.missing == 0)
        {
            GetPool().Free(it->second.copy);
            m_held.erase(it);
        }
    }
    Consume(p);
}

void
LibraProgram::MakeAck(InaPacket* p, LibraHeader::Type type)
{
    LibraHeader* h = p->Header<LibraHeader>();
    h->type = type;
    h->flags = 0;
    std::swap(p->src, p->dst);
    std::swap(p->srcPort, p->dstPort);
    p->src = m_address;
    p->wireBytes = LibraHeader::MIN_FRAME_BYTES;
    if (p->values != nullptr)
    {
        GetPool().FreeValues(p->values);
        p->values = nullptr;
    }
}

void
LibraProgram::Hold(const Job& job, const InaPacket* p, HeldId key, uint32_t to)
{
    Held h;
    h.copy = GetPool().Clone(p);
    if (to == ALL_WORKERS)
    {
        h.acked.assign(job.cfg.workers, false);
        h.missing = job.cfg.workers;
    }
    else
    {
        h.to = to;
        h.missing = 1;
    }
    h.deadlinePs = Simulator::Now().GetTimeStep() + m_switchRto.GetTimeStep();
    auto [it, inserted] = m_held.emplace(key, std::move(h));
    if (!inserted)
    {
        GetPool().Free(h.copy);
        return;
    }
    m_heldFifo.emplace_back(it->second.deadlinePs, key);
    m_peakHeld = std::max<uint64_t>(m_peakHeld, m_held.size());
    ArmCpuTimer();
}

void
LibraProgram::Resend(const Job& job, const Held& h, uint32_t worker)
{
    InaPacket* c = GetPool().Clone(h.copy);
    c->dst = job.cfg.workerAddresses[worker];
    c->Header<LibraHeader>()->flags = LibraHeader::FLAG_RETX;
    CountReason(CPU_RESENDS);
    Forward(c);
}

void
LibraProgram::ArmCpuTimer()
{
    if (m_cpuTimerPending || m_heldFifo.empty())
    {
        return;
    }
    m_cpuTimerPending = true;
    const int64_t now = Simulator::Now().GetTimeStep();
    Simulator::Schedule(TimeStep(std::max<int64_t>(0, m_heldFifo.front().first - now)),
                        &LibraProgram::OnCpuTimer,
                        this);
}

void
LibraProgram::OnCpuTimer()
{
    m_cpuTimerPending = false;
    const int64_t now = Simulator::Now().GetTimeStep();
    while (!m_heldFifo.empty() && m_heldFifo.front().first <= now)
    {
        const auto [deadline, key] = m_heldFifo.front();
        m_heldFifo.pop_front();
        auto it = m_held.find(key);
        if (it == m_held.end() || it->second.deadlinePs != deadline)
        {
            continue;
        }
        const Job& job = m_jobs[key.first >> 40];
        if (it->second.acked.empty())
        {
            Resend(job, it->second, it->second.to);
        }
        else
        {
            for (uint32_t w = 0; w < job.cfg.workers; ++w)
            {
                if (!it->second.acked[w])
                {
                    Resend(job, it->second, w);
                }
            }
        }
        it->second.deadlinePs = now + m_switchRto.GetTimeStep();
        m_heldFifo.emplace_back(it->second.deadlinePs, key);
    }
    ArmCpuTimer();
}

void
LibraProgram::CpuCheck(InaPacket* p)
{
    LibraHeader* h = p->Header<LibraHeader>();
    Job* job = FindJob(p->jobId);
    NS_ASSERT(job != nullptr);
    bool repeat = false;
    switch (h->type)
    {
    case LibraHeader::PUSH:
        repeat = job->records.HasPush(h->worker, h->round, h->seq);
        if (repeat)
        {
            MakeAck(p, LibraHeader::PUSH_ACK);
        }
        break;
    case LibraHeader::DONE:
        repeat = job->records.HasDone(h->worker, h->round, h->seq);
        if (repeat)
        {
            MakeAck(p, LibraHeader::DONE_ACK);
        }
        break;
    case LibraHeader::PULL: {
        repeat = job->records.HasPull(h->worker, h->round, h->seq);
        if (repeat)
        {
            // The pull was served: its result is on the CPU until the worker has it.
            auto it = m_held.find(MakeHeldId(job->index, h->round, h->worker, h->seq));
            if (it != m_held.end() && it->second.Waits(h->worker))
            {
                Resend(*job, it->second, h->worker);
            }
            CountReason(REPEATS_ABSORBED);
            GetPool().Free(p);
            return;
        }
        break;
    }
    default:
        break;
    }
    if (repeat)
    {
        CountReason(REPEATS_ABSORBED);
        Forward(p);
        return;
    }
    // Not applied before: back into the pipeline to take effect on the fast path.
    h->flags |= LibraHeader::FLAG_FROM_CPU;
    GetPipeline()->Process(p, 0);
}

void
LibraProgram::SetStatisticsPorts(std::vector<const InaPort*> ports)
{
    m_statPorts = std::move(ports);
}

bool
LibraProgram::IsFrozen(uint32_t jobId) const
{
    for (const Job& j : m_jobs)
    {
        if (j.cfg.jobId == jobId)
        {
            return j.frozen;
        }
    }
    return false;
}

std::unique_ptr<LibraJobState>
LibraProgram::TakeFrozenState(uint32_t jobId)
{
    Job* job = FindJob(jobId);
    return job != nullptr ? std::move(job->frozenState) : nullptr;
}

void
LibraProgram::Freeze(Job& job)
{
    job.frozen = true;
    auto state = std::make_unique<LibraJobState>();
    state->registers = m_registers;
    state->blocks = job.blocks;
    state->cells.resize(size_t{job.blocks} * m_registers);
    for (uint32_t b = 0; b < job.blocks; ++b)
    {
        for (uint32_t l = 0; l < m_registers; ++l)
        {
            const uint64_t cell = m_hot->ControlRead(job.base + b, l);
            state->cells[size_t{b} * m_registers + l] = cell;
            state->cellsWithReaders += (cell >> READERS_SHIFT) != 0 ? 1 : 0;
        }
    }
    state->doneCount = m_done->ControlRead(job.index, 0);
    state->records = std::move(job.records);
    job.records = LibraSwitchRecords();
    state->lastPrunedRound = job.lastPrunedRound;
    for (auto it = m_held.begin(); it != m_held.end();)
    {
        if ((it->first.first >> 40) != job.index)
        {
            ++it;
            continue;
        }
        LibraJobState::HeldCopy c;
        c.copy = it->second.copy;
        c.acked = std::move(it->second.acked);
        c.to = it->second.to;
        c.missing = it->second.missing;
        c.round = static_cast<uint32_t>((it->first.first >> 16) & 0xffffffU);
        c.worker = static_cast<uint32_t>(it->first.first & 0xffffU);
        c.seq = it->first.second;
        state->held.push_back(std::move(c));
        it = m_held.erase(it); // its FIFO entry finds nothing and is skipped
    }
    NS_LOG_INFO("job " << job.cfg.name << " frozen: " << state->GetBytes() << " B of state, "
                       << state->cellsWithReaders << " cells of a round in progress, "
                       << state->held.size() << " held copies");
    job.frozenState = std::move(state);
}

void
LibraProgram::FreeState(LibraJobState& state)
{
    for (LibraJobState::HeldCopy& h : state.held)
    {
        if (h.copy != nullptr)
        {
            GetPool().Free(h.copy);
            h.copy = nullptr;
        }
    }
    state.held.clear();
}

void
LibraProgram::CpuStatePull(InaPacket* p)
{
    LibraHeader* h = p->Header<LibraHeader>();
    Job* job = FindJob(p->jobId);
    NS_ASSERT(job != nullptr);
    if (!job->frozen)
    {
        Freeze(*job);
    }
    if (!job->frozenState)
    {
        GetPool().Free(p); // taken already (a late duplicate request), or lost with a reboot
        return;
    }
    const uint64_t chunks = job->frozenState->GetChunks();
    const uint32_t seq = h->seq;
    MakeAck(p, LibraHeader::STATE);
    h->seq = seq;
    h->round = static_cast<uint32_t>(chunks);
    if (seq >= chunks)
    {
        CountReason(BAD_PACKET);
        GetPool().Free(p);
        return;
    }
    p->wireBytes = LibraLayout::HEADER_BYTES + job->frozenState->GetChunkBytes(seq);
    CountReason(STATE_CHUNKS);
    Forward(p);
}

void
LibraProgram::CpuStateInstall(InaPacket* p)
{
    const uint32_t seq = p->Header<LibraHeader>()->seq;
    MakeAck(p, LibraHeader::STATE_INSTALL_ACK);
    p->Header<LibraHeader>()->seq = seq;
    CountReason(STATE_CHUNKS);
    Forward(p);
}

void
LibraProgram::ImportJobState(uint32_t jobId, LibraJobState& state)
{
    Job* job = FindJob(jobId);
    if (job == nullptr || state.registers != m_registers || state.blocks != job->blocks ||
        state.cells.size() != size_t{job->blocks} * m_registers)
    {
        throw std::invalid_argument("LibraProgram: the state of job " + std::to_string(jobId) +
                                    " does not fit this switch's layout of it");
    }
    for (uint32_t b = 0; b < job->blocks; ++b)
    {
        for (uint32_t l = 0; l < m_registers; ++l)
        {
            m_hot->ControlWrite(job->base + b, l, state.cells[size_t{b} * m_registers + l]);
        }
    }
    m_done->ControlWrite(job->index, 0, state.doneCount);
    job->records = std::move(state.records);
    state.records = LibraSwitchRecords();
    job->lastPrunedRound = state.lastPrunedRound;
    const int64_t deadline = Simulator::Now().GetTimeStep() + m_switchRto.GetTimeStep();
    const InaAddress self = GetSwitchAddress();
    for (LibraJobState::HeldCopy& c : state.held)
    {
        Held h;
        h.copy = c.copy;
        h.copy->src = self; // resent from here (unicast to each missing worker)
        h.acked = std::move(c.acked);
        h.to = c.to;
        h.missing = c.missing;
        h.deadlinePs = deadline;
        c.copy = nullptr;
        const HeldId key = MakeHeldId(job->index, c.round, c.worker, c.seq);
        auto [it, inserted] = m_held.emplace(key, std::move(h));
        if (!inserted)
        {
            GetPool().Free(h.copy);
            continue;
        }
        m_heldFifo.emplace_back(deadline, key);
    }
    state.held.clear();
    m_peakHeld = std::max<uint64_t>(m_peakHeld, m_held.size());
    ArmCpuTimer();
}

} // namespace ns3
