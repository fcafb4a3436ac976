/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pipeline.h"

#include "ecn-codepoints.h"
#include "ina-wire-time.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Pipeline");

NS_OBJECT_ENSURE_REGISTERED(Pipeline);

// Longer than 80 lines on purpose: one Attribute per parameter of the switch's resource limits,
// latencies and recirculation, each with its help and default.
TypeId
Pipeline::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Pipeline")
            .SetParent<Object>()
            .SetGroupName("InaFabric")
            .AddConstructor<Pipeline>()
            .AddAttribute("Stages",
                          "Match-action stages (Tofino-1: 12 per pipe).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(12),
                          MakeUintegerAccessor(&Pipeline::m_stages),
                          MakeUintegerChecker<uint32_t>(1, 1024))
            .AddAttribute("SramPerStage",
                          "Bytes of SRAM per stage for register arrays and exact-match tables "
                          "(Tofino-1: 80 blocks of 16 KiB = 1.25 MiB).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(1310720),
                          MakeUintegerAccessor(&Pipeline::m_sramPerStage),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("SramBlockBytes",
                          "SRAM allocation unit in bytes: every register-array lane and every "
                          "table takes whole blocks (Tofino-1: 1024 words x 128 bit). 1 counts "
                          "exact bytes.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(16384),
                          MakeUintegerAccessor(&Pipeline::m_sramBlock),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("StatefulAlusPerStage",
                          "Stateful ALUs per stage; each register-array lane needs one "
                          "(Tofino-1: 4).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(4),
                          MakeUintegerAccessor(&Pipeline::m_alusPerStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TablesPerStage",
                          "Exact-match tables per stage (Tofino-1: 16 logical tables).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(16),
                          MakeUintegerAccessor(&Pipeline::m_tablesPerStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxRegisterWidth",
                          "Widest register cell in bits (Tofino: 32-bit halves paired to 64).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(64),
                          MakeUintegerAccessor(&Pipeline::m_maxRegisterWidth),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("ValuesPerPass",
                          "Payload register lanes one packet may touch in one pass: the PHV "
                          "limit (SwitchML: 32 values per pass).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(32),
                          MakeUintegerAccessor(&Pipeline::m_valuesPerPass),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxPasses",
                          "Passes one packet may take; asking for more is a program bug "
                          "(a recirculation loop).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(16),
                          MakeUintegerAccessor(&Pipeline::m_maxPasses),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Latency",
                          "Latency the switch adds to every packet a pass hands it "
                          "(Tofino port-to-port: a few hundred ns).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          TimeValue(NanoSeconds(400)),
                          MakeTimeAccessor(&Pipeline::m_latency),
                          MakeTimeChecker())
            .AddAttribute("RecirculationRate",
                          "Rate of the recirculation port (Tofino-1: one 100G loopback port "
                          "per pipe).",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          DataRateValue(DataRate("100Gbps")),
                          MakeDataRateAccessor(&Pipeline::m_recircRate),
                          MakeDataRateChecker())
            .AddAttribute("RecirculationLatency",
                          "Time from the end of a packet's serialisation on the recirculation "
                          "port to the start of its next pass: the rest of one trip through "
                          "the pipeline and the loopback.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          TimeValue(MicroSeconds(1)),
                          MakeTimeAccessor(&Pipeline::m_recircLatency),
                          MakeTimeChecker())
            .AddAttribute("RecirculationQueueBytes",
                          "Capacity of the recirculation port's FIFO in bytes (waiting or "
                          "serialising); a packet that does not fit is dropped.",
                          TypeId::ATTR_GET | TypeId::ATTR_CONSTRUCT,
                          UintegerValue(1048576),
                          MakeUintegerAccessor(&Pipeline::m_recircQueueCapacity),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute(
                "AggregationCapacity",
                "Aggregation work the switch can do, in bit/s of the wire bytes of "
                "the packets it aggregates (GRID's C_s). 0: no limit, the pipeline "
                "aggregates at line rate. Excess work waits in a FIFO in front of the "
                "pipeline (AggregationQueueBytes).",
                DataRateValue(DataRate(0)),
                MakeDataRateAccessor(&Pipeline::SetAggregationRate, &Pipeline::GetAggregationRate),
                MakeDataRateChecker())
            .AddAttribute(
                "AggregationCapacityPps",
                "Aggregation work the switch can do, in packets per second (the other "
                "way of giving C_s; at most one of the two may be set). 0: no limit.",
                UintegerValue(0),
                MakeUintegerAccessor(&Pipeline::SetAggregationPps, &Pipeline::GetAggregationPps),
                MakeUintegerChecker<uint64_t>())
            .AddAttribute("AggregationQueueBytes",
                          "Capacity in bytes of the FIFO where aggregation work waits for a "
                          "switch with an aggregation capacity; a packet that does not fit is "
                          "dropped. The default is the recirculation queue's, the one other "
                          "queue inside the pipeline model (no paper gives a value).",
                          UintegerValue(1048576),
                          MakeUintegerAccessor(&Pipeline::m_aggQueueCapacity),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("AggregationEcnThreshold",
                          "Mark ECN-capable aggregation work CE (as a link marks, "
                          "InaNetDevice's EcnThreshold) when more than this many bytes already "
                          "wait in the aggregation queue: the queue in front of a full switch "
                          "builds like any other, and a sender that reacts to ECN (ATP's AIMD "
                          "window) learns from it that the switch is full. 0: never. "
                          "InaFabricHelper sets it to the links' threshold.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Pipeline::m_aggEcnThreshold),
                          MakeUintegerChecker<uint64_t>())
            .AddTraceSource("AggregationStart",
                            "A packet of aggregation work starts its first pass (a switch "
                            "with an aggregation capacity only).",
                            MakeTraceSourceAccessor(&Pipeline::m_aggStartTrace),
                            "ns3::Pipeline::InaPacketTracedCallback")
            .AddTraceSource("AggregationDrop",
                            "A packet of aggregation work was dropped at the full aggregation "
                            "queue.",
                            MakeTraceSourceAccessor(&Pipeline::m_aggDropTrace),
                            "ns3::Pipeline::InaPacketTracedCallback")
            .AddTraceSource("RecirculationDrop",
                            "A packet was dropped at the full recirculation queue.",
                            MakeTraceSourceAccessor(&Pipeline::m_recircDropTrace),
                            "ns3::Pipeline::InaPacketTracedCallback");
    return tid;
}

Pipeline::Pipeline()
{
    NS_LOG_FUNCTION(this);
    m_ring.resize(64);
    m_aggRing.resize(64);
}

Pipeline::~Pipeline()
{
    NS_LOG_FUNCTION(this);
}

void
Pipeline::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_recircEvent.Cancel();
    m_recircPending = false;
    // Packets still queued belong to the fabric's pool, which frees its blocks wholesale when the
    // fabric goes, as for those on a link (InaNetDevice::DoDispose). They are not handed back one
    // by one: at the end of a simulation the fabric may already be gone (the nodes that hold this
    // pipeline are disposed last, by Simulator::Destroy), and Free would write into a freed pool.
    m_head = m_txHead = m_tail = 0;
    m_queuedBytes = 0;
    m_aggEvent.Cancel();
    m_aggHead = m_aggTail = 0;
    m_aggQueuedBytes = 0;
    m_aggQueuedWork = 0;
    for (auto& p : m_programs)
    {
        p->Dispose();
    }
    m_programs.clear();
    m_byProtocol.clear();
    m_demands.clear();
    m_actions = nullptr;
    Object::DoDispose();
}

void
Pipeline::SetActions(InaSwitchActions* actions)
{
    NS_LOG_FUNCTION(this << actions);
    m_actions = actions;
    for (auto& p : m_programs)
    {
        p->SetSwitchActions(actions);
    }
}

PipelineLimits
Pipeline::GetLimits() const
{
    PipelineLimits l;
    l.stages = m_stages;
    l.sramPerStageBytes = m_sramPerStage;
    l.sramBlockBytes = m_sramBlock;
    l.statefulAlusPerStage = m_alusPerStage;
    l.tablesPerStage = m_tablesPerStage;
    l.maxRegisterWidthBits = m_maxRegisterWidth;
    l.valuesPerPass = m_valuesPerPass;
    return l;
}

void
Pipeline::CheckConfig() const
{
    if (m_recircRate.GetBitRate() == 0)
    {
        throw PipelineFitError("Pipeline attribute RecirculationRate is 0 bps; expected a "
                               "positive rate such as 100Gbps");
    }
    if (m_latency.IsStrictlyNegative())
    {
        throw PipelineFitError("Pipeline attribute Latency is " +
                               std::to_string(m_latency.GetPicoSeconds()) +
                               " ps; expected a non-negative time");
    }
    if (m_aggBps != 0 && m_aggPps != 0)
    {
        throw PipelineFitError("Pipeline attributes AggregationCapacity (" +
                               std::to_string(m_aggBps) + " bps) and AggregationCapacityPps (" +
                               std::to_string(m_aggPps) +
                               " packets/s) are both set; expected at most one of them");
    }
    if (m_recircLatency.IsStrictlyNegative())
    {
        throw PipelineFitError("Pipeline attribute RecirculationLatency is " +
                               std::to_string(m_recircLatency.GetPicoSeconds()) +
                               " ps; expected a non-negative time");
    }
}

ResourceDemand
Pipeline::DemandOf(Ptr<SwitchProgram> program, const std::string& name) const
{
    ResourceDemand demand;
    demand.program = name;
    program->DeclareResources(demand);
    demand.program = name;
    return demand;
}

FitResult
Pipeline::CheckFit(Ptr<SwitchProgram> program) const
{
    std::vector<ResourceDemand> all = m_demands;
    all.push_back(DemandOf(program, program->GetName()));
    return PipelineResources::Check(all, GetLimits());
}

void
Pipeline::Install(Ptr<SwitchProgram> program)
{
    NS_LOG_FUNCTION(this << program);
    if (!program)
    {
        throw PipelineFitError("cannot install a null switch program");
    }
    CheckConfig();
    const std::string name = program->GetName();
    const std::string quoted = "program \"" + name + "\"";
    if (program->IsInstalled())
    {
        throw PipelineFitError(quoted + " is already installed in a pipeline; install a new "
                                        "instance per switch");
    }
    const uint16_t protocol = program->GetProtocolNumber();
    if (protocol == INA_PROTO_NONE)
    {
        throw PipelineFitError(quoted + " handles protocol 0, which is reserved for plain "
                                        "forwarding; expected a protocol number of 1 or more");
    }
    for (const auto& other : m_programs)
    {
        if (other->GetProtocolNumber() == protocol)
        {
            throw PipelineFitError(quoted + " handles protocol " + std::to_string(protocol) +
                                   ", which the installed program \"" + other->GetName() +
                                   "\" already handles");
        }
        if (other->GetName() == name)
        {
            throw PipelineFitError("a program named \"" + name +
                                   "\" is already installed; names must be unique per pipeline");
        }
    }
    try
    {
        program->CheckConfig();
    }
    catch (const std::invalid_argument& e)
    {
        throw PipelineFitError(quoted + ": " + e.what());
    }

    const ResourceDemand demand = DemandOf(program, name);
    std::vector<ResourceDemand> all = m_demands;
    all.push_back(demand);
    FitResult fit = PipelineResources::Check(all, GetLimits());
    if (!fit.fits)
    {
        throw PipelineFitError(fit.error);
    }

    program->Attach(this, m_actions, demand);
    try
    {
        program->InitializeState();
    }
    catch (const std::exception& e)
    {
        program->Detach();
        throw PipelineFitError(quoted + " failed to initialise: " + e.what());
    }

    m_demands.push_back(demand);
    m_programs.push_back(program);
    m_fit = fit;
    if (m_byProtocol.size() <= protocol)
    {
        m_byProtocol.resize(protocol + 1, nullptr);
    }
    m_byProtocol[protocol] = PeekPointer(program);
    NS_LOG_INFO("installed " << quoted << " for protocol " << protocol << ": "
                             << fit.usage.statefulAlus << " stateful ALUs, " << fit.usage.sramBytes
                             << " B of SRAM in total");
}

Ptr<SwitchProgram>
Pipeline::GetProgram(uint16_t protocol) const
{
    if (protocol >= m_byProtocol.size())
    {
        return Ptr<SwitchProgram>();
    }
    return Ptr<SwitchProgram>(m_byProtocol[protocol]);
}

Ptr<SwitchProgram>
Pipeline::GetProgramByIndex(uint32_t i) const
{
    if (i >= m_programs.size())
    {
        throw std::out_of_range("pipeline has " + std::to_string(m_programs.size()) +
                                " programs; no index " + std::to_string(i));
    }
    return m_programs[i];
}

uint64_t
Pipeline::GetAggregatorsInUse() const
{
    uint64_t n = 0;
    for (const auto& p : m_programs)
    {
        n += p->GetAggregatorsInUse();
    }
    return n;
}

uint64_t
Pipeline::GetPeakAggregatorsInUse() const
{
    uint64_t n = 0;
    for (const auto& p : m_programs)
    {
        n += p->GetPeakAggregatorsInUse();
    }
    return n;
}

void
Pipeline::Process(InaPacket* p, uint32_t inPort)
{
    if (m_actions == nullptr)
    {
        throw std::logic_error("Pipeline::Process called before SetActions");
    }
    SwitchProgram* program =
        p->protocol < m_byProtocol.size() ? m_byProtocol[p->protocol] : nullptr;
    if (program == nullptr)
    {
        ++m_unhandled;
        m_actions->Forward(p);
        return;
    }
    p->passes = 0;
    if (m_aggLimited)
    {
        if (program->IsAggregationWork(p))
        {
            AdmitAggregation(program, p, inPort);
            return;
        }
        if (m_aggHead != m_aggTail && program->FollowsAggregationQueue(p))
        {
            FollowAggregation(program, p, inPort);
            return;
        }
    }
    ++m_packets;
    RunPass(program, p, inPort);
}

void
Pipeline::SetAggregationRate(DataRate rate)
{
    m_aggBps = rate.GetBitRate();
    m_aggLimited = m_aggBps != 0 || m_aggPps != 0;
}

DataRate
Pipeline::GetAggregationRate() const
{
    return DataRate(m_aggBps);
}

void
Pipeline::SetAggregationPps(uint64_t pps)
{
    m_aggPps = pps;
    m_aggLimited = m_aggBps != 0 || m_aggPps != 0;
}

uint64_t
Pipeline::GetAggregationPps() const
{
    return m_aggPps;
}

void
Pipeline::SetAggregationCapacity(uint64_t bps, uint64_t pps)
{
    NS_LOG_FUNCTION(this << bps << pps);
    if (bps != 0 && pps != 0)
    {
        throw PipelineFitError("aggregation capacity given both as " + std::to_string(bps) +
                               " bps and as " + std::to_string(pps) +
                               " packets/s; expected one of them");
    }
    m_aggBps = bps;
    m_aggPps = pps;
    m_aggLimited = bps != 0 || pps != 0;
}

int64_t
Pipeline::AggregationServiceSteps(uint32_t bytes) const
{
    // Integer picoseconds, rounded up, so that the served rate can never exceed the capacity.
    unsigned __int128 ps;
    if (m_aggBps != 0)
    {
        ps = static_cast<uint64_t>(InaSerializationPs(bytes, m_aggBps));
    }
    else
    {
        ps = (static_cast<unsigned __int128>(1000000000000ULL) + m_aggPps - 1) / m_aggPps;
    }
    return PicoSeconds(static_cast<int64_t>(ps)).GetTimeStep();
}

void
Pipeline::AdmitAggregation(SwitchProgram* program, InaPacket* p, uint32_t inPort)
{
    const int64_t now = Simulator::Now().GetTimeStep();
    const uint32_t bytes = p->wireBytes;
    if (m_aggBusyUntil <= now && m_aggHead == m_aggTail)
    {
        // The server is idle: the pass runs now, as without a capacity.
        m_aggBusyUntil = now + AggregationServiceSteps(bytes);
        if (m_aggFirstStart < 0)
        {
            m_aggFirstStart = now;
        }
        ++m_aggPackets;
        m_aggBytes += bytes;
        m_aggStartTrace(p);
        ++m_packets;
        RunPass(program, p, inPort);
        return;
    }
    if (m_aggQueuedBytes + bytes > m_aggQueueCapacity)
    {
        ++m_aggDrops;
        m_aggDropTrace(p);
        m_actions->GetPool().Free(p);
        return;
    }
    if (m_aggEcnThreshold != 0 && m_aggQueuedBytes > m_aggEcnThreshold && p->ecn != 0)
    {
        p->ecn = INA_ECN_CE;
        ++m_aggEcnMarks;
    }
    const int64_t start = m_aggBusyUntil;
    m_aggBusyUntil = start + AggregationServiceSteps(bytes);
    PushAggregation(AggEntry{p, program, inPort, start, true});
    m_aggQueuedBytes += bytes;
    ++m_aggQueued;
    m_aggWaitSteps += start - now;
    m_aggPeakQueueBytes = std::max(m_aggPeakQueueBytes, m_aggQueuedBytes);
    // Work only, as the bytes: a packet that follows the queue (FollowAggregation) holds a place
    // in the ring but no capacity, and counting it would report a queue of work that was not.
    ++m_aggQueuedWork;
    m_aggPeakQueuePackets = std::max(m_aggPeakQueuePackets, m_aggQueuedWork);
}

void
Pipeline::FollowAggregation(SwitchProgram* program, InaPacket* p, uint32_t inPort)
{
    // It needs no service, only its place: it starts right after the last packet queued ahead
    // of it, and adds nothing to the server's busy time, the queue's bytes or the work counted.
    const int64_t behind = m_aggRing[(m_aggTail - 1) & (m_aggRing.size() - 1)].start;
    PushAggregation(AggEntry{p, program, inPort, behind, false});
}

void
Pipeline::PushAggregation(const AggEntry& e)
{
    if (m_aggTail - m_aggHead == m_aggRing.size())
    {
        std::vector<AggEntry> bigger(m_aggRing.size() * 2);
        for (uint64_t i = m_aggHead; i != m_aggTail; ++i)
        {
            bigger[i & (bigger.size() - 1)] = m_aggRing[i & (m_aggRing.size() - 1)];
        }
        m_aggRing.swap(bigger);
    }
    m_aggRing[m_aggTail & (m_aggRing.size() - 1)] = e;
    ++m_aggTail;
    if (m_aggTail - m_aggHead == 1)
    {
        m_aggEvent = Simulator::Schedule(TimeStep(e.start - Simulator::Now().GetTimeStep()),
                                         &Pipeline::AggregationStart,
                                         this);
    }
}

void
Pipeline::AggregationStart()
{
    const AggEntry e = m_aggRing[m_aggHead & (m_aggRing.size() - 1)];
    ++m_aggHead;
    if (m_aggHead != m_aggTail)
    {
        const int64_t next = m_aggRing[m_aggHead & (m_aggRing.size() - 1)].start;
        m_aggEvent = Simulator::Schedule(TimeStep(next - Simulator::Now().GetTimeStep()),
                                         &Pipeline::AggregationStart,
                                         this);
    }
    if (e.work)
    {
        m_aggQueuedBytes -= e.packet->wireBytes;
        --m_aggQueuedWork;
        if (m_aggFirstStart < 0)
        {
            m_aggFirstStart = e.start;
        }
        ++m_aggPackets;
        m_aggBytes += e.packet->wireBytes;
        m_aggStartTrace(e.packet);
    }
    ++m_packets;
    RunPass(e.program, e.packet, e.inPort);
}

void
Pipeline::RunPass(SwitchProgram* program, InaPacket* p, uint32_t inPort)
{
    ++p->passes;
    ++m_passes;
    PipelinePass pass(++m_lastPassId, p, inPort, m_valuesPerPass);
    program->Process(p, pass);
    if (pass.IsRecirculating())
    {
        Recirculate(program, p, inPort);
    }
}

int64_t
Pipeline::SerializationSteps(uint32_t bytes) const
{
    return PicoSeconds(InaSerializationPs(bytes, m_recircRate.GetBitRate())).GetTimeStep();
}

void
Pipeline::ReleaseSent(int64_t now) const
{
    while (m_txHead != m_tail && Entry(m_txHead).txEnd <= now)
    {
        m_queuedBytes -= Entry(m_txHead).bytes;
        ++m_txHead;
    }
}

uint64_t
Pipeline::GetRecirculationQueueBytes() const
{
    ReleaseSent(Simulator::Now().GetTimeStep());
    return m_queuedBytes;
}

void
Pipeline::Recirculate(SwitchProgram* program, InaPacket* p, uint32_t inPort)
{
    if (p->passes >= m_maxPasses)
    {
        throw PipelineViolation("program \"" + program->GetName() + "\" asked for pass " +
                                std::to_string(p->passes + 1) + " of packet uid " +
                                std::to_string(p->uid) + " but MaxPasses is " +
                                std::to_string(m_maxPasses) +
                                "; a program that recirculates without end is a bug (raise the "
                                "Pipeline attribute MaxPasses if it is not)");
    }
    const int64_t now = Simulator::Now().GetTimeStep();
    ReleaseSent(now);
    const uint32_t bytes = p->wireBytes;
    if (m_queuedBytes + bytes > m_recircQueueCapacity)
    {
        ++m_recircDrops;
        program->NotifyRecirculationDrop();
        m_recircDropTrace(p);
        m_actions->GetPool().Free(p);
        return;
    }
    if (m_tail - m_head == m_ring.size())
    {
        // Grow by doubling; entries keep their counters, only the mask changes.
        std::vector<RecircEntry> bigger(m_ring.size() * 2);
        for (uint64_t i = m_head; i != m_tail; ++i)
        {
            bigger[i & (bigger.size() - 1)] = Entry(i);
        }
        m_ring.swap(bigger);
    }
    const int64_t txEnd = std::max(now, m_busyUntil) + SerializationSteps(bytes);
    m_busyUntil = txEnd;
    Entry(m_tail) =
        RecircEntry{p, program, inPort, bytes, txEnd, txEnd + m_recircLatency.GetTimeStep()};
    ++m_tail;
    m_queuedBytes += bytes;
    m_peakQueueBytes = std::max(m_peakQueueBytes, m_queuedBytes);
    ++m_recirculations;
    if (p->passes == 1)
    {
        ++m_recirculatedPackets;
    }
    if (!m_recircPending)
    {
        ScheduleHead();
    }
}

void
Pipeline::ScheduleHead()
{
    const int64_t delay = Entry(m_head).back - Simulator::Now().GetTimeStep();
    m_recircEvent = Simulator::Schedule(TimeStep(delay), &Pipeline::RecirculationArrival, this);
    m_recircPending = true;
}

void
Pipeline::RecirculationArrival()
{
    m_recircPending = false;
    const RecircEntry e = Entry(m_head);
    if (m_txHead == m_head)
    {
        m_queuedBytes -= e.bytes;
        ++m_txHead;
    }
    ++m_head;
    if (m_head != m_tail)
    {
        ScheduleHead();
    }
    RunPass(e.program, e.packet, e.inPort);
}

PipelineUsage
Pipeline::GetUsage() const
{
    PipelineUsage u =
        m_programs.empty() ? PipelineResources::Check({}, GetLimits()).usage : m_fit.usage;
    for (size_t i = 0; i < m_programs.size() && i < u.programs.size(); ++i)
    {
        u.programs[i].protocol = m_programs[i]->GetProtocolNumber();
        m_programs[i]->GetCounters(u.programs[i].counterNames, u.programs[i].counterValues);
    }
    u.packets = m_packets;
    u.passes = m_passes;
    u.recirculations = m_recirculations;
    u.recirculatedPackets = m_recirculatedPackets;
    u.recirculationDrops = m_recircDrops;
    u.unhandledPackets = m_unhandled;
    u.peakRecirculationQueueBytes = m_peakQueueBytes;
    u.latencyPs = m_latency.GetPicoSeconds();
    u.recirculationLatencyPs = m_recircLatency.GetPicoSeconds();
    u.recirculationRateBps = m_recircRate.GetBitRate();
    u.recirculationQueueBytes = m_recircQueueCapacity;
    u.aggregationLimited = m_aggLimited;
    u.aggregationCapacityBps = m_aggBps;
    u.aggregationCapacityPps = m_aggPps;
    u.aggregationQueueCapacityBytes = m_aggQueueCapacity;
    u.aggregationPackets = m_aggPackets;
    u.aggregationBytes = m_aggBytes;
    u.aggregationQueuedPackets = m_aggQueued;
    u.aggregationDrops = m_aggDrops;
    u.aggregationEcnMarks = m_aggEcnMarks;
    u.peakAggregationQueueBytes = m_aggPeakQueueBytes;
    u.peakAggregationQueuePackets = m_aggPeakQueuePackets;
    u.aggregationWaitPs = TimeStep(m_aggWaitSteps).GetPicoSeconds();
    // The span of the server's work: from its first start to the end of its last service. The
    // services never overlap, so work / span cannot exceed the capacity.
    u.aggregationSpanPs =
        m_aggFirstStart < 0 ? 0 : TimeStep(m_aggBusyUntil - m_aggFirstStart).GetPicoSeconds();
    return u;
}

} // namespace ns3
