/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "grid-replan-report.h"
#include "output-file.h"
#include "planner-level-runner.h"
#include "programmable-draw.h"
#include "scenario-faults.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-units.h"
#include "ns3/job-attribute-error.h"
#include "ns3/job-placement.h"
#include "ns3/model-zoo.h"
#include "ns3/pipeline.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-program.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

namespace ns3
{

namespace
{

double
WallNow()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// `text` as one CSV field: quoted (quotes doubled) when it holds a comma, quote or newline.
std::string
CsvField(const std::string& text)
{
    if (text.find_first_of(",\"\n") == std::string::npos)
    {
        return text;
    }
    std::string quoted = "\"";
    for (char c : text)
    {
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    }
    return quoted + "\"";
}

double
PsToS(int64_t ps)
{
    return static_cast<double>(ps) * 1e-12;
}

/// The scenario's tier names, with the aliases a user may reach for on the other topology kind.
std::string
CanonicalTier(const InaTopology& topo, const std::string& tier)
{
    if (topo.HasTier(tier))
    {
        return tier;
    }
    if (tier == "tor" && topo.HasTier("leaf"))
    {
        return "leaf";
    }
    if (tier == "leaf" && topo.HasTier("tor"))
    {
        return "tor";
    }
    return "";
}

/// An integer attribute's value: plain digits, or a size with a unit (64KB) as bytes.
std::string
NormalizeInteger(const std::string& value, bool isUnsigned)
{
    const bool negative = !value.empty() && value[0] == '-';
    if (negative && isUnsigned)
    {
        throw std::invalid_argument("expected a non-negative integer, got \"" + value + "\"");
    }
    const std::string digits = negative ? value.substr(1) : value;
    const bool plain =
        !digits.empty() && digits.find_first_not_of("0123456789") == std::string::npos;
    if (plain)
    {
        if (digits.size() > 19)
        {
            throw std::invalid_argument("expected an integer, got \"" + value + "\", too large");
        }
        return value;
    }
    try
    {
        if (negative)
        {
            throw std::invalid_argument("negative size");
        }
        return std::to_string(InaUnits::ParseBytes(value));
    }
    catch (const std::exception&)
    {
        throw std::invalid_argument("expected an integer (sizes may carry a unit, e.g. 64KB), "
                                    "got \"" +
                                    value + "\"");
    }
}

/**
 * ns-3 aborts (instead of failing) when an attribute is given text it cannot read: a Time like
 * "abc" or "4MB" ends the process in Time's parser, an unsigned integer "-1" wraps around. So
 * every value a scenario hands an Attribute is read here first, with the scenario's own rules
 * (sizes and times carry units as everywhere in a scenario), and handed on in a form ns-3 reads
 * exactly. Throws std::invalid_argument saying what was expected.
 */
std::string
NormalizeAttributeValue(const TypeId::AttributeInformation& info, const std::string& value)
{
    // An enum's type information is its value names joined by '|' ("int32|float16"): not a type.
    if (DynamicCast<const EnumChecker>(info.checker))
    {
        return value;
    }
    const std::string type = info.checker->GetUnderlyingTypeInformation();
    const std::string valueType = info.checker->GetValueTypeName();
    const bool isUnsigned = type.rfind("uint", 0) == 0;
    const bool isInt = isUnsigned || type.rfind("int", 0) == 0;
    if (isInt)
    {
        return NormalizeInteger(value, isUnsigned);
    }
    if (type.rfind("double", 0) == 0)
    {
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        if (value.empty() || end == nullptr || *end != '\0' || std::isspace(value[0]))
        {
            throw std::invalid_argument("expected a number, got \"" + value + "\"");
        }
        if (!std::isfinite(v))
        {
            throw std::invalid_argument("expected a finite number, got \"" + value + "\"");
        }
        return value;
    }
    if (valueType == "ns3::TimeValue")
    {
        try
        {
            return std::to_string(InaUnits::ParseTime(value)) + "ps";
        }
        catch (const std::exception&)
        {
            throw std::invalid_argument("expected a time with a unit (ps, ns, us, ms, s), e.g. "
                                        "1ms, got \"" +
                                        value + "\"");
        }
    }
    if (valueType == "ns3::DataRateValue")
    {
        try
        {
            return std::to_string(InaUnits::ParseDataRate(value)) + "bps";
        }
        catch (const std::exception&)
        {
            throw std::invalid_argument("expected a data rate with a unit, e.g. 100Gbps, got \"" +
                                        value + "\"");
        }
    }
    return value;
}

/**
 * `value` (text as a scenario gives it) as a valid value of the Attribute `info` of `tid`, or a
 * ScenarioError at `key` saying what was expected. Nothing reaches ns-3's attribute system
 * unchecked, since a bad value there is a fatal error, not an exception.
 */
Ptr<AttributeValue>
CheckedAttributeValue(const TypeId::AttributeInformation& info,
                      TypeId tid,
                      const std::string& name,
                      const std::string& value,
                      const Scenario& scenario,
                      const std::string& key)
{
    Ptr<AttributeValue> v;
    try
    {
        v = info.checker->CreateValidValue(StringValue(NormalizeAttributeValue(info, value)));
    }
    catch (const std::invalid_argument& e)
    {
        throw scenario.Error(key, e.what());
    }
    if (!v)
    {
        throw scenario.Error(key,
                             "'" + value + "' is not a valid value for " + tid.GetName() +
                                 "::" + name + " (expected " +
                                 info.checker->GetUnderlyingTypeInformation() + ")");
    }
    return v;
}

/// Set by RequestStop from a signal handler, read by the progress tick.
volatile std::sig_atomic_t g_stopSignal = 0;

std::string
SignalName(int signal)
{
    switch (signal)
    {
    case SIGINT:
        return "SIGINT (Ctrl-C)";
    case SIGTERM:
        return "SIGTERM";
    case SIGHUP:
        return "SIGHUP";
    default:
        return "signal " + std::to_string(signal);
    }
}

} // namespace

void
ScenarioRunner::RequestStop(int signal)
{
    g_stopSignal = signal;
}

int
ScenarioRunner::GetStopSignal()
{
    return g_stopSignal;
}

ScenarioRunner::ScenarioRunner(const Scenario& scenario, const std::string& outDir)
    : m_scenario(scenario)
    , m_outDir(outDir)
    , m_progressOut(&std::cerr)
    , m_summaryOut(&std::cout)
{
}

ScenarioRunner::~ScenarioRunner() = default;

JobPlacement::Kind
ScenarioRunner::PlacementKind(ScenarioPlacement::Kind kind)
{
    switch (kind)
    {
    case ScenarioPlacement::Kind::PACKED:
        return JobPlacement::Kind::PACKED;
    case ScenarioPlacement::Kind::SPREAD:
        return JobPlacement::Kind::SPREAD;
    case ScenarioPlacement::Kind::RANDOM:
        return JobPlacement::Kind::RANDOM;
    case ScenarioPlacement::Kind::EXPLICIT:
        return JobPlacement::Kind::EXPLICIT;
    }
    return JobPlacement::Kind::PACKED;
}

void
ScenarioRunner::SetConsole(std::ostream* progress, std::ostream* summary)
{
    m_progressOut = progress;
    m_summaryOut = summary;
}

InaTopology
ScenarioRunner::BuildTopology() const
{
    const ScenarioTopology& t = m_scenario.topology;
    InaTopology::LinkSpec host{t.hostLink.rateBps, t.hostLink.delayPs};
    InaTopology::LinkSpec fabric{t.fabricLink.rateBps, t.fabricLink.delayPs};
    try
    {
        switch (t.type)
        {
        case ScenarioTopology::Type::STAR:
            return InaTopology::Star(t.hosts, host);
        case ScenarioTopology::Type::FAT_TREE:
            return InaTopology::FatTree(t.k, host, fabric, t.hostsPerTor);
        case ScenarioTopology::Type::LEAF_SPINE:
            return InaTopology::LeafSpine(t.leaves, t.spines, t.hostsPerLeaf, host, fabric);
        case ScenarioTopology::Type::FROM_FILE:
            return InaTopology::FromFile(t.file);
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw m_scenario.Error("topology", e.what());
    }
    catch (const std::runtime_error& e)
    {
        // The topology file reader names its own file and line.
        throw m_scenario.Error("topology.file", e.what());
    }
    throw m_scenario.Error("topology.type", "unknown topology type");
}

void
ScenarioRunner::BuildFabric(const std::function<void(const std::string&)>& step)
{
    const ScenarioTopology& t = m_scenario.topology;
    InaTopology topo = BuildTopology();
    m_scenario.CheckHostIds(topo.GetNHosts());
    CheckInaTiers(topo);

    InaFabricHelper helper;
    helper.SetLinkKind(m_scenario.link == Scenario::LinkModel::P2P
                           ? InaFabricHelper::LinkKind::P2P
                           : InaFabricHelper::LinkKind::FAST);
    helper.SetQueue(t.queue.capacityBytes, t.queue.ecnThresholdBytes);
    helper.SetEcnAtHosts(t.queue.ecnAtHosts);
    helper.SetPriorityClasses(t.priorityClasses);
    helper.SetMtu(static_cast<uint32_t>(t.mtuBytes));
    m_transportMtu = static_cast<uint32_t>(t.mtuBytes);
    for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
    {
        m_transportMtu = std::min(m_transportMtu, helper.GetLinkMtu(topo, l));
    }
    helper.SetLossRate(t.lossRate);
    helper.SetEcmpSeed(m_scenario.seed);
    helper.SetStreamBase(0);
    SetPipelineAttributes(helper);
    if (m_scenario.outputs.pcap && !m_outDir.empty())
    {
        std::filesystem::create_directories(std::filesystem::path(m_outDir) / "pcap");
        helper.EnablePcap((std::filesystem::path(m_outDir) / "pcap" / "inasim").string());
    }
    helper.SetProgress(step);
    m_fabric = helper.Build(topo);
    SetPerSwitchCapacities();
}

void
ScenarioRunner::CheckInaTiers(const InaTopology& topo) const
{
    for (const std::string& tier : m_scenario.switchConfig.inaTiers)
    {
        if (CanonicalTier(topo, tier).empty())
        {
            std::ostringstream known;
            for (const std::string& k : topo.GetTiers())
            {
                known << (known.tellp() > 0 ? ", " : "") << k;
            }
            throw m_scenario.Error(
                "switch.ina_tiers",
                "tier '" + tier + "' is not in this topology (its switch tiers: " + known.str() +
                    ")");
        }
    }
}

void
ScenarioRunner::SetPipelineAttributes(InaFabricHelper& helper) const
{
    const ScenarioSwitch& sw = m_scenario.switchConfig;
    // switch.aggregation.capacity, GRID's C_s for every switch (0: line rate, the default);
    // per_switch entries and a topology file's capacity= are set on their pipelines once built.
    helper.SetPipelineAttribute("AggregationCapacity",
                                DataRateValue(DataRate(sw.aggregation.capacity.bps)));
    helper.SetPipelineAttribute("AggregationCapacityPps",
                                UintegerValue(sw.aggregation.capacity.pps));
    helper.SetPipelineAttribute("AggregationQueueBytes", UintegerValue(sw.aggregation.queueBytes));
    TypeId pipelineTid = Pipeline::GetTypeId();
    // The switch keys are Pipeline Attributes too; each goes through its checker so that a value
    // the Attribute refuses (sram_per_stage: 0) is an error naming the scenario key.
    const std::pair<const char*, std::pair<const char*, std::string>> switchKeys[] = {
        {"Stages", {"switch.stages", std::to_string(sw.stages)}},
        {"SramPerStage", {"switch.sram_per_stage", std::to_string(sw.sramPerStageBytes)}},
        {"StatefulAlusPerStage",
         {"switch.stateful_alus_per_stage", std::to_string(sw.statefulAlusPerStage)}},
        {"RecirculationRate",
         {"switch.recirculation.rate", std::to_string(sw.recirculation.rateBps) + "bps"}},
        {"RecirculationLatency",
         {"switch.recirculation.latency", std::to_string(sw.recirculation.latencyPs) + "ps"}},
    };
    for (const auto& [name, keyValue] : switchKeys)
    {
        TypeId::AttributeInformation info;
        pipelineTid.LookupAttributeByName(name, &info);
        const Ptr<AttributeValue> v = CheckedAttributeValue(info,
                                                            pipelineTid,
                                                            name,
                                                            keyValue.second,
                                                            m_scenario,
                                                            keyValue.first);
        helper.SetPipelineAttribute(name, *v);
    }
    for (const auto& [name, value] : sw.params)
    {
        TypeId::AttributeInformation info;
        if (!pipelineTid.LookupAttributeByName(name, &info))
        {
            std::ostringstream known;
            for (uint32_t i = 0; i < pipelineTid.GetAttributeN(); ++i)
            {
                known << (i ? ", " : "") << pipelineTid.GetAttribute(i).name;
            }
            throw m_scenario.Error("switch.params." + name,
                                   "ns3::Pipeline has no attribute '" + name +
                                       "' (it has: " + known.str() + ")");
        }
        helper.SetPipelineAttribute(name,
                                    *CheckedAttributeValue(info,
                                                           pipelineTid,
                                                           name,
                                                           value,
                                                           m_scenario,
                                                           "switch.params." + name));
    }
}

void
ScenarioRunner::SetPerSwitchCapacities()
{
    for (const auto& [name, capacity] : m_scenario.switchConfig.aggregation.perSwitch)
    {
        Ptr<InaSwitch> target;
        std::ostringstream known;
        for (const auto& s : m_fabric->GetSwitches())
        {
            known << (known.tellp() > 0 ? ", " : "") << s->GetName();
            if (s->GetName() == name)
            {
                target = s;
            }
        }
        if (!target)
        {
            throw m_scenario.Error("switch.aggregation.per_switch." + name,
                                   "no switch named '" + name +
                                       "' in this topology (its switches: " + known.str() + ")");
        }
        target->GetPipeline()->SetAggregationCapacity(capacity.bps, capacity.pps);
    }
    // planner.capacity_min/capacity_max draw every programmable switch's C_s from the seed (the
    // GRID paper's Sec. 6.3), overriding the keys above as at the planner level: the packet
    // level sets the same draw on the same switches, so that one scenario file is one set-up at
    // either level and every protocol's pipeline aggregates at most what the planner assumed.
    if (!ProgrammableDraw::DrawsCapacities(m_scenario))
    {
        return;
    }
    const InaTopology& topo = m_fabric->GetTopology();
    std::mt19937_64 rng = ProgrammableDraw::Generator(m_scenario.seed);
    for (uint32_t n : ProgrammableDraw::Choose(m_scenario, topo, rng))
    {
        const double capacity = ProgrammableDraw::DrawCapacity(m_scenario, rng);
        // Every switch has a pipeline; a drawn one outside switch.ina_tiers runs no program.
        m_fabric->GetSwitch(n)->GetPipeline()->SetAggregationCapacity(
            static_cast<uint64_t>(std::llround(capacity)),
            0);
    }
}

void
ScenarioRunner::InstallTraffic()
{
    uint32_t firstFlowId = 1;
    for (std::size_t i = 0; i < m_scenario.traffic.size(); ++i)
    {
        const ScenarioTraffic& tr = m_scenario.traffic[i];
        std::vector<uint32_t> hosts = tr.hosts;
        if (tr.allHosts)
        {
            hosts.clear();
            for (uint32_t h = 0; h < m_fabric->GetNHosts(); ++h)
            {
                hosts.push_back(h);
            }
        }
        std::string key = "traffic." + std::to_string(i);
        if (hosts.size() < 2)
        {
            throw m_scenario.Error(key + ".hosts", "a traffic pattern needs at least 2 hosts");
        }
        if (m_scenario.checkValues && tr.flowBytes % 4 != 0)
        {
            throw m_scenario.Error(key + ".flow_bytes",
                                   "with check_values the flow size must be a multiple of 4 bytes");
        }
        Ptr<InaFlowApp> app = CreateObject<InaFlowApp>();
        app->SetAttribute(
            "Pattern",
            EnumValue(tr.pattern == ScenarioTraffic::Pattern::PERMUTATION ? InaFlowApp::PERMUTATION
                      : tr.pattern == ScenarioTraffic::Pattern::INCAST    ? InaFlowApp::INCAST
                                                                       : InaFlowApp::ALL_TO_ALL));
        app->SetAttribute("FlowBytes", UintegerValue(tr.flowBytes));
        app->SetAttribute("Start", TimeValue(TimeStep(tr.startPs)));
        app->SetAttribute("Seed", UintegerValue(m_scenario.seed * 1000003ULL + i));
        app->SetAttribute("IncastDestination", UintegerValue(tr.dst));
        app->SetAttribute("FirstFlowId", UintegerValue(firstFlowId));
        app->SetAttribute("CheckValues", BooleanValue(m_scenario.checkValues));
        app->SetSenderAttribute("Mtu", UintegerValue(m_transportMtu));
        app->SetHosts(hosts);
        app->Install(m_fabric);
        firstFlowId += app->GetNFlows();
        m_traffic.push_back(app);
    }
}

namespace
{
/// Set `name` = `value` on `factory` if `tid` has that attribute; error naming `key` if the value
/// is invalid. Returns false if the attribute does not exist.
bool
TrySetAttribute(ObjectFactory& factory,
                TypeId tid,
                const std::string& name,
                const std::string& value,
                const Scenario& scenario,
                const std::string& key)
{
    TypeId::AttributeInformation info;
    if (!tid.LookupAttributeByName(name, &info))
    {
        return false;
    }
    factory.Set(name, *CheckedAttributeValue(info, tid, name, value, scenario, key));
    return true;
}

std::string
AttributeNames(TypeId tid, const std::string& base = "ns3::Object")
{
    std::string names;
    for (TypeId t = tid; t.GetName() != base; t = t.GetParent())
    {
        for (uint32_t i = 0; i < t.GetAttributeN(); ++i)
        {
            names += (names.empty() ? "" : ", ") + t.GetAttribute(i).name;
        }
    }
    return names.empty() ? "none" : names;
}

/**
 * planner.programmable: random at packet level: the switches the planner level draws for the same
 * seed (ProgrammableDraw), as ProgrammableSwitches' comma-separated names. Each must be in
 * switch.ina_tiers, since only those switches get a pipeline for the protocols' programs.
 */
std::string
RandomProgrammableNames(const Scenario& sc, const InaTopology& topo)
{
    std::mt19937_64 rng = ProgrammableDraw::Generator(sc.seed);
    std::string names;
    for (uint32_t n : ProgrammableDraw::Choose(sc, topo, rng))
    {
        const InaTopology::Node& node = topo.GetNode(n);
        if (!ProgrammableDraw::InTiers(node.tier, sc.switchConfig.inaTiers))
        {
            throw sc.Error("switch.ina_tiers",
                           "planner.programmable: random drew switch '" + node.name +
                               "' of tier '" + node.tier +
                               "', which this list leaves out; at packet level list every tier "
                               "the draw can pick (all of the topology's)");
        }
        names += (names.empty() ? "" : ",") + node.name;
    }
    return names;
}
} // namespace

void
ScenarioRunner::InstallJobs()
{
    const InaTopology& topo = m_fabric->GetTopology();
    std::vector<bool> used(topo.GetNHosts(), false);
    std::vector<std::string> tiers;
    for (const std::string& t : m_scenario.switchConfig.inaTiers)
    {
        tiers.push_back(CanonicalTier(topo, t));
    }
    for (std::size_t i = 0; i < m_scenario.jobs.size(); ++i)
    {
        Ptr<TrainingJob> job = CreateObject<TrainingJob>();
        Ptr<AggregationProtocol> protocol = CreateJobProtocol(i, job);
        std::string workloadKey;
        const ModelSpec model = JobModel(i, &workloadKey);
        JobContext ctx = PlaceJob(i, protocol, tiers, used);
        SetUpJob(i, job, ctx, model, protocol, workloadKey);
        job->Start();
        m_jobs.push_back(job);
    }
}

Ptr<AggregationProtocol>
ScenarioRunner::CreateJobProtocol(std::size_t i, Ptr<TrainingJob> job)
{
    const ScenarioJob& sj = m_scenario.jobs[i];
    const std::string key = "jobs." + std::to_string(i);
    std::string typeName;
    try
    {
        typeName = AggregationProtocolRegistry::Lookup(sj.protocol);
    }
    catch (const std::runtime_error& e)
    {
        throw m_scenario.Error(key + ".protocol", e.what());
    }
    const TypeId protocolTid = TypeId::LookupByName(typeName);
    ObjectFactory protocolFactory(typeName);
    // `ComputeModel` names the workers' compute model; its Attributes are params too.
    std::string computeName = TrainingJob::ComputeModelTypeName("profiled");
    if (auto cm = sj.params.find("ComputeModel"); cm != sj.params.end())
    {
        try
        {
            computeName = TrainingJob::ComputeModelTypeName(cm->second);
        }
        catch (const std::invalid_argument& e)
        {
            throw m_scenario.Error(key + ".params.ComputeModel", e.what());
        }
        job->SetComputeModel(computeName);
    }
    // switch.ina_memory: the protocols with a pool at the switches size it from the memory
    // (SwitchMemory), unless the job's params say otherwise.
    TypeId::AttributeInformation memoryInfo;
    if (m_scenario.switchConfig.inaMemoryBytes != 0 && sj.params.count("SwitchMemory") == 0 &&
        protocolTid.LookupAttributeByName("SwitchMemory", &memoryInfo))
    {
        protocolFactory.Set("SwitchMemory", UintegerValue(m_scenario.switchConfig.inaMemoryBytes));
    }
    // planner.programmable: random (the GRID paper's scenario (b)): the packet level makes the
    // planner level's random set the only programmable switches of every job, unless its params
    // name a set; a protocol that cannot be held to a set is refused rather than run on all.
    TypeId::AttributeInformation setInfo;
    if (m_scenario.planner.programmable == "random" && sj.params.count("ProgrammableSwitches") == 0)
    {
        if (!protocolTid.LookupAttributeByName("ProgrammableSwitches", &setInfo))
        {
            throw m_scenario.Error(key + ".protocol",
                                   "planner.programmable: random makes a random set of switches "
                                   "programmable, but protocol '" +
                                       sj.protocol +
                                       "' aggregates at every switch of switch.ina_tiers (grid, "
                                       "switchml-ps, geryon and atp-paced take the set)");
        }
        protocolFactory.Set(
            "ProgrammableSwitches",
            StringValue(RandomProgrammableNames(m_scenario, m_fabric->GetTopology())));
    }
    ApplyJobParams(i, protocolFactory, computeName, job);
    SetTransportMtu(i, protocolFactory);
    return protocolFactory.Create<AggregationProtocol>();
}

void
ScenarioRunner::ApplyJobParams(std::size_t i,
                               ObjectFactory& protocolFactory,
                               const std::string& computeName,
                               Ptr<TrainingJob> job) const
{
    const ScenarioJob& sj = m_scenario.jobs[i];
    const std::string key = "jobs." + std::to_string(i);
    const TypeId protocolTid = protocolFactory.GetTypeId();
    const TypeId computeTid = TypeId::LookupByName(computeName);
    ObjectFactory computeCheck(computeName);
    for (const auto& [name, value] : sj.params)
    {
        if (name == "ComputeModel")
        {
            continue;
        }
        // A protocol attribute, else a worker attribute (FusionBytes, SendJitter, ...), else
        // the compute model's (GpuThreads, ...).
        if (TrySetAttribute(protocolFactory,
                            protocolTid,
                            name,
                            value,
                            m_scenario,
                            key + ".params." + name))
        {
            continue;
        }
        ObjectFactory workerCheck(WorkerApp::GetTypeId().GetName());
        if (TrySetAttribute(workerCheck,
                            WorkerApp::GetTypeId(),
                            name,
                            value,
                            m_scenario,
                            key + ".params." + name))
        {
            TypeId::AttributeInformation info;
            WorkerApp::GetTypeId().LookupAttributeByName(name, &info);
            job->SetWorkerAttribute(name, StringValue(NormalizeAttributeValue(info, value)));
            continue;
        }
        if (TrySetAttribute(computeCheck,
                            computeTid,
                            name,
                            value,
                            m_scenario,
                            key + ".params." + name))
        {
            TypeId::AttributeInformation info;
            computeTid.LookupAttributeByName(name, &info);
            job->SetComputeModelAttribute(name, StringValue(NormalizeAttributeValue(info, value)));
            continue;
        }
        throw m_scenario.Error(
            key + ".params." + name,
            "protocol '" + sj.protocol + "' (" + protocolTid.GetName() + ") has no attribute '" +
                name + "' (it has: " + AttributeNames(protocolTid) +
                "; workers have: " + AttributeNames(WorkerApp::GetTypeId(), "ns3::Application") +
                "; the compute model " + computeName +
                " has: " + AttributeNames(computeTid, "ns3::ComputeModel") +
                "; ComputeModel: profiled | gpu-contention selects it)");
    }
}

void
ScenarioRunner::SetTransportMtu(std::size_t i, ObjectFactory& protocolFactory) const
{
    // A protocol on host transports (ring, ps) sends packets of the smallest link MTU unless
    // the job names its own, which must fit every link.
    TypeId::AttributeInformation mtuInfo;
    if (!protocolFactory.GetTypeId().LookupAttributeByName("Mtu", &mtuInfo))
    {
        return;
    }
    UintegerValue v(0);
    if (m_scenario.jobs[i].params.count("Mtu") != 0)
    {
        protocolFactory.Create()->GetAttribute("Mtu", v);
    }
    if (v.Get() == 0)
    {
        protocolFactory.Set("Mtu", UintegerValue(m_transportMtu));
    }
    else if (v.Get() > m_transportMtu)
    {
        throw m_scenario.Error("jobs." + std::to_string(i) + ".params.Mtu",
                               "packets of " + std::to_string(v.Get()) +
                                   " B do not fit the fabric's smallest link MTU (" +
                                   std::to_string(m_transportMtu) +
                                   " B): raise topology.mtu (or the topology file's "
                                   "mtu=), or lower Mtu");
    }
}

ModelSpec
ScenarioRunner::JobModel(std::size_t i, std::string* workloadKey)
{
    const ScenarioJob& sj = m_scenario.jobs[i];
    const std::string key = "jobs." + std::to_string(i);
    ModelSpec model;
    if (!sj.workload.model.empty())
    {
        try
        {
            model = ModelZoo::Default().Get(sj.workload.model);
        }
        catch (const std::runtime_error& e)
        {
            throw m_scenario.Error(key + ".workload.model", e.what());
        }
    }
    else
    {
        model = ModelZoo::TensorWorkload(sj.workload.tensorBytes);
    }
    *workloadKey = key + (sj.workload.model.empty() ? ".workload.tensor_bytes" : ".workload.model");
    if (m_scenario.checkValues && model.TotalBytes() % 4 != 0)
    {
        throw m_scenario.Error(*workloadKey,
                               "with check_values the tensor must be a multiple of 4 bytes");
    }
    if (m_scenario.checkValues)
    {
        ReserveValueMemory(sj, model, *workloadKey);
    }
    return model;
}

void
ScenarioRunner::ReserveValueMemory(const ScenarioJob& sj,
                                   const ModelSpec& model,
                                   const std::string& workloadKey)
{
    // With values, each worker may hold its whole gradient while it is out, and the job
    // keeps the true sums (doubles) to check against: refuse what cannot fit in memory
    // here, with the key, rather than die of std::bad_alloc mid-run.
    const double need =
        (static_cast<double>(sj.workers) + 2.0) * static_cast<double>(model.TotalBytes());
    m_valueBytes += need;
    const double have =
        static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
    if (have > 0 && m_valueBytes > have)
    {
        std::ostringstream os;
        os << std::fixed << std::setprecision(1) << "with check_values, job '" << sj.name
           << "' needs about " << need / 1e9 << " GB for gradient values (" << sj.workers
           << " workers' gradients of " << InaUnits::FormatBytes(model.TotalBytes())
           << " and the true sums" << (m_valueBytes > need ? ", with the jobs before it" : "")
           << "), more than this machine's memory (" << have / 1e9
           << " GB); use check_values: false or a smaller workload";
        throw m_scenario.Error(workloadKey, os.str());
    }
}

JobContext
ScenarioRunner::PlaceJob(std::size_t i,
                         Ptr<AggregationProtocol> protocol,
                         const std::vector<std::string>& tiers,
                         std::vector<bool>& used) const
{
    const ScenarioJob& sj = m_scenario.jobs[i];
    const std::string key = "jobs." + std::to_string(i);
    const InaTopology& topo = m_fabric->GetTopology();
    JobContext ctx;
    ctx.fabric = m_fabric;
    ctx.jobId = static_cast<uint32_t>(i + 1);
    ctx.name = sj.name;
    ctx.inaTiers = tiers;
    ctx.seed = JobSeed(m_scenario.seed, i);
    ctx.checkValues = m_scenario.checkValues;
    // Plain traffic takes flow ids from 1 up; jobs take 2^20-wide ranges far above them.
    ctx.flowIdBase = static_cast<uint32_t>((i + 64) * JobContext::FLOW_IDS_PER_JOB);
    const JobPlacement::Kind kind = PlacementKind(sj.placement.kind);
    try
    {
        ctx.workerHosts =
            JobPlacement::Place(kind, sj.workers, sj.placement.hosts, topo, used, ctx.seed);
    }
    catch (const std::runtime_error& e)
    {
        throw m_scenario.Error(key + ".placement",
                               std::string("job '") + sj.name + "' " + e.what());
    }
    if (protocol->UsesParameterServers())
    {
        JobPlacement::Kind psKind =
            kind == JobPlacement::Kind::EXPLICIT ? JobPlacement::Kind::PACKED : kind;
        try
        {
            ctx.psHosts = JobPlacement::Place(psKind, sj.psHosts, {}, topo, used, ctx.seed + 1);
        }
        catch (const std::runtime_error& e)
        {
            throw m_scenario.Error(key + ".ps_hosts",
                                   std::string("job '") + sj.name +
                                       "' parameter servers: " + e.what());
        }
    }
    return ctx;
}

void
ScenarioRunner::SetUpJob(std::size_t i,
                         Ptr<TrainingJob> job,
                         const JobContext& ctx,
                         const ModelSpec& model,
                         Ptr<AggregationProtocol> protocol,
                         const std::string& workloadKey) const
{
    const ScenarioJob& sj = m_scenario.jobs[i];
    const std::string key = "jobs." + std::to_string(i);
    job->SetAttribute("Iterations", UintegerValue(sj.workload.iterations));
    job->SetAttribute("Start", TimeValue(TimeStep(sj.startPs)));
    try
    {
        job->Setup(ctx, model, protocol);
    }
    catch (const std::logic_error&)
    {
        throw; // a pipeline refusing a program: reported as the model's refusal
    }
    catch (const JobAttributeError& e)
    {
        // The value of one job param (GpuParams: a bad file) is at fault: blame its key.
        const bool given = sj.params.count(e.GetAttribute()) > 0;
        throw m_scenario.Error(given ? key + ".params." + e.GetAttribute() : key,
                               std::string("job '") + sj.name + "': " + e.what());
    }
    catch (const std::runtime_error& e)
    {
        throw m_scenario.Error(key, std::string("job '") + sj.name + "': " + e.what());
    }
    if (!m_scenario.checkValues)
    {
        return;
    }
    // Values travel as 4-byte floats, so every piece a worker hands must be whole floats.
    for (const WorkerApp::Piece& piece : job->GetWorkers().front()->GetPlan())
    {
        if (piece.bytes % 4 != 0)
        {
            const bool partitioned = sj.params.count("PartitionBytes") > 0;
            const bool fused = sj.params.count("FusionBytes") > 0;
            throw m_scenario.Error(partitioned ? key + ".params.PartitionBytes"
                                   : fused     ? key + ".params.FusionBytes"
                                               : workloadKey,
                                   "with check_values every piece a worker hands must be a whole "
                                   "number of 4-byte values, but this job cuts a piece of " +
                                       std::to_string(piece.bytes) +
                                       " bytes; use a multiple of 4 bytes");
        }
    }
}

double
ScenarioRunner::Progress() const
{
    // Flows and job iterations count alike: each is one unit of work to finish; a job's
    // iterations count in pieces as its aggregated bytes come back (GetProgressFraction).
    double total = 0;
    double done = 0;
    for (const auto& app : m_traffic)
    {
        total += app->GetNFlows();
        done += app->GetNCompleted();
    }
    for (const auto& job : m_jobs)
    {
        total += job->GetIterations();
        done += job->GetProgressFraction() * job->GetIterations();
    }
    return total == 0 ? 1.0 : done / total;
}

bool
ScenarioRunner::NothingLeft() const
{
    for (const auto& app : m_traffic)
    {
        for (uint32_t f = 0; f < app->GetNFlows(); ++f)
        {
            Ptr<InaTransportSender> tx = app->GetSender(f);
            if (!tx->IsFailed() && tx->GetStats().messagesAcked == 0)
            {
                return false;
            }
        }
    }
    for (const auto& job : m_jobs)
    {
        if (!job->IsCompleted() && !job->HasGivenUp())
        {
            return false;
        }
    }
    return true;
}

uint64_t
ScenarioRunner::ProgressCount() const
{
    const int64_t now = Simulator::Now().GetTimeStep();
    uint64_t count = 0;
    for (std::size_t i = 0; i < m_traffic.size(); ++i)
    {
        count += m_scenario.traffic[i].startPs <= now;
        for (uint32_t f = 0; f < m_traffic[i]->GetNFlows(); ++f)
        {
            Ptr<InaTransportSender> tx = m_traffic[i]->GetSender(f);
            count += tx->GetStats().payloadBytesAcked + tx->GetStats().messagesAcked +
                     (tx->IsFailed() ? 1 : 0);
        }
    }
    for (std::size_t i = 0; i < m_jobs.size(); ++i)
    {
        count += m_scenario.jobs[i].startPs <= now;
        count += m_jobs[i]->GetProgressSteps();
    }
    return count;
}

std::string
ScenarioRunner::EndedByName() const
{
    switch (m_endedBy)
    {
    case EndedBy::COMPLETED:
        return "completed";
    case EndedBy::NO_EVENTS:
        return "no_events";
    case EndedBy::STOP_TIME:
        return "stop_time";
    case EndedBy::NO_PROGRESS:
        return "no_progress";
    case EndedBy::GAVE_UP:
        return "gave_up";
    case EndedBy::INTERRUPTED:
        return "interrupted";
    }
    return "no_events";
}

std::string
ScenarioRunner::EndReason() const
{
    std::ostringstream r;
    switch (m_endedBy)
    {
    case EndedBy::COMPLETED:
        return "";
    case EndedBy::NO_EVENTS:
        r << "no events left (nothing was scheduled to happen any more)";
        break;
    case EndedBy::STOP_TIME:
        r << "stop_time " << PsToS(m_scenario.stopTimePs) << " s reached";
        break;
    case EndedBy::GAVE_UP: {
        uint64_t failed = 0;
        for (const auto& app : m_traffic)
        {
            for (uint32_t f = 0; f < app->GetNFlows(); ++f)
            {
                failed += app->GetSender(f)->IsFailed();
            }
        }
        r << "gave up:";
        const char* sep = " ";
        for (const auto& job : m_jobs)
        {
            if (job->HasGivenUp())
            {
                r << sep << "job '" << job->GetContext().name << "' " << job->GetGiveUpReason();
                sep = "; ";
            }
        }
        if (failed > 0)
        {
            r << sep << failed
              << " flows gave up after MaxTimeouts consecutive retransmission timeouts";
        }
        break;
    }
    case EndedBy::INTERRUPTED:
        r << "interrupted by " << SignalName(g_stopSignal)
          << "; this summary is partial, what had finished by then";
        break;
    case EndedBy::NO_PROGRESS:
        r << "no progress for " << PsToS(m_scenario.limits.noProgressPs)
          << " s of simulated time (limits.no_progress): the last progress was seen at t = "
          << PsToS(m_lastProgressPs) << " s";
        break;
    }
    return r.str();
}

bool
ScenarioRunner::AllDone() const
{
    for (const auto& app : m_traffic)
    {
        if (app->GetNCompleted() != app->GetNFlows())
        {
            return false;
        }
    }
    for (const auto& job : m_jobs)
    {
        if (!job->IsCompleted())
        {
            return false;
        }
    }
    return true;
}

int64_t
ScenarioRunner::LastCompletionPs() const
{
    int64_t last = 0;
    for (const auto& app : m_traffic)
    {
        for (const auto& rec : app->GetFlowRecords())
        {
            last = std::max(last, rec.finish.GetTimeStep());
        }
    }
    for (const auto& job : m_jobs)
    {
        last = std::max(last, (job->GetStartTime() + job->GetJct()).GetTimeStep());
    }
    return last;
}

void
ScenarioRunner::ScheduleProgress()
{
    // A fixed simulated interval keeps the number of these events, which are subtracted from the
    // reported event count, a function of the scenario alone.
    m_progressIntervalPs = 10000000; // 10 us
    Simulator::Schedule(TimeStep(m_progressIntervalPs), &ScenarioRunner::OnProgressTick, this);
}

void
ScenarioRunner::OnProgressTick()
{
    ++m_progressEvents;
    const int64_t now = Simulator::Now().GetTimeStep();
    if (m_scenario.outputs.timeseriesIntervalPs > 0 &&
        now % m_scenario.outputs.timeseriesIntervalPs < m_progressIntervalPs)
    {
        uint64_t backlog = 0;
        uint64_t maxBacklog = 0;
        const InaTopology& topo = m_fabric->GetTopology();
        for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
        {
            for (int e = 0; e < 2; ++e)
            {
                uint64_t b = m_fabric->GetLinkPort(l, e)->GetBacklogBytes();
                backlog += b;
                maxBacklog = std::max(maxBacklog, b);
            }
        }
        const uint64_t aggregators = m_fabric->GetAggregatorsInUse();
        std::ostringstream row;
        row << std::setprecision(12) << PsToS(now) << "," << backlog << "," << maxBacklog << ","
            << m_fabric->GetPool().GetInUse() << "," << m_fabric->GetPacketHops() << ","
            << aggregators << "," << Progress() << "\n";
        m_timeseries += row.str();
    }
    if (g_stopSignal != 0)
    {
        m_endedBy = EndedBy::INTERRUPTED;
        Simulator::Stop();
        return;
    }
    // Every run ends: stop once nothing is left to do (a protocol may leave timers behind), or
    // once nothing has finished for limits.no_progress. Both are checked on this fixed grid of
    // simulated time, so where a run stops depends on the scenario alone.
    if (NothingLeft())
    {
        m_endedBy = AllDone() ? EndedBy::COMPLETED : EndedBy::GAVE_UP;
        Simulator::Stop();
        return;
    }
    const int64_t noProgress = m_scenario.limits.noProgressPs;
    if (noProgress > 0 && now >= m_nextProgressCheckPs)
    {
        m_nextProgressCheckPs = now + std::max(m_progressIntervalPs, noProgress / 10);
        const uint64_t count = ProgressCount();
        if (count != m_lastProgressCount)
        {
            m_lastProgressCount = count;
            m_lastProgressPs = now;
        }
        else if (now - m_lastProgressPs >= noProgress)
        {
            m_endedBy = EndedBy::NO_PROGRESS;
            Simulator::Stop();
            return;
        }
    }
    double wall = WallNow();
    if (m_progressOut != nullptr && wall - m_lastPrint >= 1.0)
    {
        m_lastPrint = wall;
        uint64_t events = Simulator::GetEventCount();
        char line[200];
        std::snprintf(line,
                      sizeof(line),
                      "[inasim] sim %.6f s | %5.1f %% done | wall %.1f s | %.2f M events/s",
                      PsToS(now),
                      100.0 * Progress(),
                      wall - m_wallStart,
                      events / std::max(1e-9, wall - m_wallStart) / 1e6);
        *m_progressOut << line << (isatty(STDERR_FILENO) ? "\r" : "\n") << std::flush;
    }
    if (!Simulator::IsFinished())
    {
        Simulator::Schedule(TimeStep(m_progressIntervalPs), &ScenarioRunner::OnProgressTick, this);
    }
}

void
ScenarioRunner::Prepare()
{
    if (m_scenario.level == Scenario::Level::PLANNER)
    {
        // Planner level builds no fabric (Run() hands the scenario to the planner); the topology
        // is what there is to check.
        BuildTopology();
        return;
    }
    RngSeedManager::SetSeed(static_cast<uint32_t>(m_scenario.seed % 4294967295ULL + 1));
    RngSeedManager::SetRun(1);
    // Large fabrics take a while to build; say what is happening rather than stay silent.
    const double start = WallNow();
    auto step = [&](const std::string& what) {
        if (m_progressOut != nullptr)
        {
            char line[64];
            std::snprintf(line, sizeof(line), " (%.1f s)", WallNow() - start);
            *m_progressOut << "[inasim] set-up: " << what << line << "\n" << std::flush;
        }
    };
    BuildFabric(step);
    m_faults = std::make_unique<ScenarioFaults>(m_scenario, m_fabric);
    step("fabric built: " + std::to_string(m_fabric->GetNHosts()) + " hosts, " +
         std::to_string(m_fabric->GetSwitches().size()) + " switches, " +
         std::to_string(m_fabric->GetTopology().GetNLinks()) + " links");
    InstallTraffic();
    if (!m_traffic.empty())
    {
        step("traffic installed");
    }
    InstallJobs();
    if (!m_jobs.empty())
    {
        step(std::to_string(m_jobs.size()) + " job(s) installed");
    }
}

int
ScenarioRunner::Run()
{
    std::error_code ec;
    if (std::filesystem::exists(m_outDir, ec) && !std::filesystem::is_directory(m_outDir, ec))
    {
        throw std::runtime_error("the output folder " + m_outDir +
                                 " exists and is not a folder (--out names where outputs go)");
    }
    std::filesystem::create_directories(m_outDir, ec);
    if (ec)
    {
        throw std::runtime_error("cannot create the output folder " + m_outDir + ": " +
                                 ec.message());
    }
    if (m_scenario.level == Scenario::Level::PLANNER)
    {
        PlannerLevelRunner planner(m_scenario, BuildTopology(), m_outDir);
        planner.SetConsole(m_summaryOut);
        return planner.Run();
    }
    Prepare();

    m_wallStart = WallNow();
    m_lastPrint = m_wallStart;
    ScheduleProgress();
    if (m_scenario.stopTimePs > 0)
    {
        Simulator::Stop(TimeStep(m_scenario.stopTimePs));
    }
    Simulator::Run();
    if (m_endedBy == EndedBy::NO_EVENTS && m_scenario.stopTimePs > 0 &&
        Simulator::Now().GetTimeStep() >= m_scenario.stopTimePs)
    {
        m_endedBy = EndedBy::STOP_TIME;
    }
    if (AllDone())
    {
        m_endedBy = EndedBy::COMPLETED;
    }
    double wall = WallNow() - m_wallStart;
    if (m_progressOut != nullptr && isatty(STDERR_FILENO))
    {
        *m_progressOut << "\n";
    }
    uint64_t events = Simulator::GetEventCount() - m_progressEvents;
    WriteOutputs(wall, events);
    bool complete = AllDone();
    if (!complete && m_progressOut != nullptr)
    {
        *m_progressOut << "inasim: " << m_scenario.name << " ended incomplete (" << EndedByName()
                       << "): " << EndReason() << "\n";
    }
    m_traffic.clear();
    m_jobs.clear();
    m_faults.reset();
    m_fabric = nullptr;
    Simulator::Destroy();
    return complete ? 0 : 1;
}

std::string
ScenarioRunner::LinksCsv() const
{
    std::ostringstream os;
    os << "link,from,to,rate_bps,tx_packets,tx_bytes,delivered_packets,drops,ecn_marks,lost,"
          "peak_backlog_bytes\n";
    const InaTopology& topo = m_fabric->GetTopology();
    for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
    {
        const InaTopology::Link& link = topo.GetLink(l);
        for (int e = 0; e < 2; ++e)
        {
            const InaPort* port = m_fabric->GetLinkPort(l, e);
            const InaLinkCounters& c = port->GetCounters();
            uint32_t from = e == 0 ? link.a : link.b;
            uint32_t to = e == 0 ? link.b : link.a;
            os << l << "," << topo.GetNode(from).name << "," << topo.GetNode(to).name << ","
               << link.rateBps << "," << c.txPackets << "," << c.txBytes << "," << c.rxPackets
               << "," << c.drops << "," << c.ecnMarks << "," << c.lost << "," << c.peakBacklogBytes
               << "\n";
        }
    }
    return os.str();
}

std::string
ScenarioRunner::SwitchesCsv() const
{
    std::ostringstream os;
    os << "switch,tier,received,forwarded,multicast_copies,consumed,no_route,pipeline_packets,"
          "pipeline_passes,recirculated_packets,recirculation_drops\n";
    for (const auto& sw : m_fabric->GetSwitches())
    {
        const InaSwitch::Counters& c = sw->GetCounters();
        PipelineUsage u = sw->GetPipeline()->GetUsage();
        os << sw->GetName() << "," << sw->GetTier() << "," << c.received << "," << c.forwarded
           << "," << c.multicastCopies << "," << c.consumed << "," << c.noRoute << "," << u.packets
           << "," << u.passes << "," << u.recirculatedPackets << "," << u.recirculationDrops
           << "\n";
    }
    return os.str();
}

namespace
{
using json = nlohmann::ordered_json;

/// A job's compute-model report as its summary.json object.
json
ComputeJson(const ComputeModel::Report& compute)
{
    json c;
    c["summary"] = compute.line;
    for (const auto& [name, value] : compute.text)
    {
        c[name] = value;
    }
    for (const auto& [name, value] : compute.values)
    {
        c[name] = value;
    }
    for (const auto& [name, values] : compute.perIteration)
    {
        c[name] = values;
    }
    return c;
}

/// Job `sj`'s entry of summary.json; its rows of iterations.csv go to `iterationsCsv`.
json
JobJson(const ScenarioJob& sj,
        const TrainingJob& job,
        const std::string& jobReason,
        std::ostream& iterationsCsv)
{
    const AggregationAgent::Stats st = job.GetAgentStats();
    json j;
    j["name"] = sj.name;
    j["protocol"] = sj.protocol;
    j["workers"] = job.GetWorkers().size();
    j["worker_hosts"] = job.GetContext().workerHosts;
    j["ps_hosts"] = job.GetContext().psHosts;
    j["model"] = job.GetModel().name;
    j["iterations"] = job.GetIterations();
    json times = json::array();
    double end = PsToS(job.GetStartTime().GetTimeStep());
    uint32_t k = 0;
    for (const Time& t : job.GetIterationTimes())
    {
        times.push_back(t.GetSeconds());
        end += t.GetSeconds();
        iterationsCsv << sj.name << "," << k++ << "," << t.GetSeconds() << "," << end << "\n";
    }
    j["iteration_time_s"] = times;
    j["jct_s"] = job.GetJct().GetSeconds();
    j["agg_throughput_gbps"] = job.GetAggregationThroughputGbps();
    j["values_checked"] = job.GetValuesChecked();
    j["value_errors"] = job.GetValueErrors();
    j["retransmissions"] = st.retransmissions;
    j["ps_fallback_packets"] = st.psFallbackPackets;
    j["wire_bytes_sent"] = st.wireBytesSent;
    for (const auto& [name, value] : job.GetProtocol()->GetCounters())
    {
        j["protocol_counters"][name] = value;
    }
    const ComputeModel::Report compute = job.GetComputeReport();
    if (!compute.line.empty())
    {
        j["compute"] = ComputeJson(compute);
    }
    j["completed"] = job.IsCompleted();
    if (!job.IsCompleted())
    {
        j["reason"] = jobReason;
    }
    return j;
}

/// Job `sj`'s row of jobs.csv.
void
WriteJobsCsvRow(std::ostream& os,
                const ScenarioJob& sj,
                const TrainingJob& job,
                const std::string& jobReason)
{
    const AggregationAgent::Stats st = job.GetAgentStats();
    os << sj.name << "," << sj.protocol << "," << job.GetWorkers().size() << ","
       << job.GetIterations() << "," << job.GetIterationsDone() << "," << job.GetJct().GetSeconds()
       << "," << job.GetAggregationThroughputGbps() << "," << job.GetValuesChecked() << ","
       << job.GetValueErrors() << "," << st.retransmissions << "," << st.psFallbackPackets << ","
       << st.wireBytesSent << "," << (job.IsCompleted() ? "true" : "false") << ","
       << CsvField(jobReason) << "\n";
}

/// summary.json's `switches`: each switch's pipeline use.
json
SwitchesJson(const InaFabric& fabric)
{
    json switches = json::array();
    for (const auto& sw : fabric.GetSwitches())
    {
        json s;
        s["name"] = sw->GetName();
        s["tier"] = sw->GetTier();
        PipelineUsage u = sw->GetPipeline()->GetUsage();
        s["pipeline"] = u.ToJson();
        s["peak_aggregators_in_use"] = sw->GetPipeline()->GetPeakAggregatorsInUse();
        s["recirculated_packets"] = u.recirculatedPackets;
        switches.push_back(s);
    }
    return switches;
}

/// summary.json's `links`: the fabric's link counters summed.
json
LinksJson(const InaLinkCounters& links)
{
    json j = {{"drops", links.drops},
              {"ecn_marks", links.ecnMarks},
              {"lost", links.lost},
              {"tx_packets", links.txPackets},
              {"tx_bytes", links.txBytes},
              {"peak_backlog_bytes", links.peakBacklogBytes}};
    if (links.oversize != 0)
    {
        // Only when it happened: packets larger than their link's MTU (topology.mtu) are a set-up
        // mistake, and summaries of runs without any stay as they were.
        j["oversize_drops"] = links.oversize;
    }
    return j;
}

/// summary.json's `flows` over every traffic pattern; their flows.csv goes to `flowsCsv`.
json
FlowsJson(const std::vector<Ptr<InaFlowApp>>& traffic, std::ostream& flowsCsv)
{
    uint64_t count = 0;
    uint64_t completed = 0;
    uint64_t retx = 0;
    uint64_t checked = 0;
    uint64_t errors = 0;
    std::vector<int64_t> fcts;
    for (std::size_t i = 0; i < traffic.size(); ++i)
    {
        const auto& app = traffic[i];
        count += app->GetNFlows();
        completed += app->GetNCompleted();
        retx += app->GetRetransmissions();
        checked += app->GetValuesChecked();
        errors += app->GetValueErrors();
        for (const auto& rec : app->GetFlowRecords())
        {
            if (rec.completed)
            {
                fcts.push_back(rec.fct.GetTimeStep());
            }
        }
        std::ostringstream one;
        app->WriteFlowsCsv(one);
        std::string text = one.str();
        if (i > 0)
        {
            text = text.substr(text.find('\n') + 1); // one header line for all
        }
        flowsCsv << text;
    }
    double mean = 0;
    for (int64_t f : fcts)
    {
        mean += PsToS(f);
    }
    mean = fcts.empty() ? 0 : mean / fcts.size();
    return {{"count", count},
            {"completed", completed},
            {"fct_mean_s", mean},
            {"fct_p99_s", fcts.empty() ? 0.0 : PsToS(InaFlowApp::NearestRankPercentile(fcts, 99))},
            {"retransmissions", retx},
            {"values_checked", checked},
            {"value_errors", errors}};
}

/// The console lines of summary.json's `flows`.
void
PrintFlows(std::ostream& o, const json& f)
{
    char line[200];
    std::snprintf(line,
                  sizeof(line),
                  "  flows: %llu/%llu completed, mean FCT %.2f us, p99 %.2f us, %llu "
                  "retransmissions\n",
                  static_cast<unsigned long long>(f["completed"].get<uint64_t>()),
                  static_cast<unsigned long long>(f["count"].get<uint64_t>()),
                  f["fct_mean_s"].get<double>() * 1e6,
                  f["fct_p99_s"].get<double>() * 1e6,
                  static_cast<unsigned long long>(f["retransmissions"].get<uint64_t>()));
    o << line;
}

/// The console lines of one job of summary.json's `jobs`.
void
PrintJob(std::ostream& o, const json& j)
{
    char line[300];
    std::snprintf(line,
                  sizeof(line),
                  "  job %s (%s, %llu workers): %s, JCT %.6f s, %.2f Gb/s aggregation, "
                  "%llu/%llu values wrong\n",
                  j["name"].get<std::string>().c_str(),
                  j["protocol"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(j["workers"].get<uint64_t>()),
                  j["completed"].get<bool>() ? "completed" : "INCOMPLETE",
                  j["jct_s"].get<double>(),
                  j["agg_throughput_gbps"].get<double>(),
                  static_cast<unsigned long long>(j["value_errors"].get<uint64_t>()),
                  static_cast<unsigned long long>(j["values_checked"].get<uint64_t>()));
    o << line;
    if (j.contains("reason"))
    {
        o << "    why: " << j["reason"].get<std::string>() << "\n";
    }
    if (j.contains("compute"))
    {
        o << "    " << j["compute"]["summary"].get<std::string>() << "\n";
    }
}
} // namespace

void
ScenarioRunner::WriteOutputs(double wallSeconds, uint64_t events)
{
    namespace fs = std::filesystem;
    const fs::path out(m_outDir);
    // The progress ticks run on a 10 us grid, so the simulator's clock at the end overshoots the
    // last real activity by up to one tick. When everything completed, the simulated time is the
    // moment the last flow (or job) finished; otherwise it is where the simulation stopped.
    const bool flowsDone = AllDone();
    int64_t simPs = Simulator::Now().GetTimeStep();
    if (flowsDone && (!m_traffic.empty() || !m_jobs.empty()))
    {
        simPs = LastCompletionPs();
    }

    json summary;
    summary["name"] = m_scenario.name;
    summary["seed"] = m_scenario.seed;
    summary["wall_time_s"] = wallSeconds;
    summary["sim_time_s"] = PsToS(simPs);
    summary["events"] = events;
    summary["packet_hops"] = m_fabric->GetPacketHops();
    summary["events_per_wall_s"] = wallSeconds > 0 ? events / wallSeconds : 0.0;
    const std::string reason = flowsDone ? "" : IncompleteReason(simPs);
    summary["completed"] = flowsDone;
    summary["ended_by"] = EndedByName();
    if (!reason.empty())
    {
        summary["incomplete_reason"] = reason;
    }
    summary["jobs"] = WriteJobTables();
    summary["switches"] = SwitchesJson(*m_fabric);
    const InaLinkCounters links = m_fabric->GetTotalLinkCounters();
    summary["links"] = LinksJson(links);
    if (!m_scenario.events.empty())
    {
        summary["faults"] = m_faults->Summary();
    }
    if (const auto replans = GridReplanReport::Summary(m_fabric); !replans.is_null())
    {
        summary["grid_replans"] = replans;
    }

    if (!m_traffic.empty())
    {
        std::ostringstream flowsCsv;
        summary["flows"] = FlowsJson(m_traffic, flowsCsv);
        WriteOutputFile(out / "flows.csv", flowsCsv.str());
    }

    WriteOutputFile(out / "summary.json", summary.dump(2) + "\n");
    WriteOutputFile(out / "config.yaml", EffectiveConfigYaml(m_scenario));
    WriteOutputFile(out / "links.csv", LinksCsv());
    WriteOutputFile(out / "switches.csv", SwitchesCsv());
    if (m_scenario.outputs.timeseriesIntervalPs > 0)
    {
        WriteOutputFile(
            out / "timeseries.csv",
            "time_s,queued_bytes_total,queued_bytes_max_port,packets_in_flight,packet_hops,"
            "aggregators_in_use,progress\n" +
                m_timeseries);
    }
    if (m_summaryOut != nullptr)
    {
        PrintSummary(*m_summaryOut, summary, reason, simPs, wallSeconds, events, links);
    }
}

std::string
ScenarioRunner::IncompleteReason(int64_t simPs) const
{
    std::ostringstream r;
    uint64_t total = 0;
    uint64_t done = 0;
    for (const auto& app : m_traffic)
    {
        total += app->GetNFlows();
        done += app->GetNCompleted();
    }
    if (done < total)
    {
        r << (total - done) << " of " << total << " flows did not complete";
    }
    for (const auto& job : m_jobs)
    {
        if (!job->IsCompleted())
        {
            r << (r.tellp() > 0 ? "; " : "") << "job '" << job->GetContext().name << "' finished "
              << job->GetIterationsDone() << " of " << job->GetIterations() << " iterations";
        }
    }
    r << " by t = " << PsToS(simPs) << " s: " << EndReason();
    return r.str();
}

nlohmann::ordered_json
ScenarioRunner::WriteJobTables() const
{
    const std::filesystem::path out(m_outDir);
    json jobs = json::array();
    std::ostringstream jobsCsv;
    std::ostringstream iterationsCsv;
    jobsCsv << "job,protocol,workers,iterations,iterations_done,jct_s,agg_throughput_gbps,"
               "values_checked,value_errors,retransmissions,ps_fallback_packets,wire_bytes_sent,"
               "completed,reason\n";
    iterationsCsv << "job,iteration,iteration_time_s,end_s\n";
    for (std::size_t i = 0; i < m_jobs.size(); ++i)
    {
        const TrainingJob& job = *m_jobs[i];
        const ScenarioJob& sj = m_scenario.jobs[i];
        const std::string jobReason = job.IsCompleted()  ? ""
                                      : job.HasGivenUp() ? job.GetGiveUpReason()
                                                         : EndReason();
        jobs.push_back(JobJson(sj, job, jobReason, iterationsCsv));
        WriteJobsCsvRow(jobsCsv, sj, job, jobReason);
    }
    if (!m_jobs.empty())
    {
        WriteOutputFile(out / "jobs.csv", jobsCsv.str());
        WriteOutputFile(out / "iterations.csv", iterationsCsv.str());
    }
    return jobs;
}

void
ScenarioRunner::PrintSummary(std::ostream& o,
                             const nlohmann::ordered_json& summary,
                             const std::string& reason,
                             int64_t simPs,
                             double wallSeconds,
                             uint64_t events,
                             const InaLinkCounters& links) const
{
    const bool flowsDone = summary["completed"].get<bool>();
    o << "inasim: " << m_scenario.name << " — " << (flowsDone ? "completed" : "INCOMPLETE") << "\n";
    if (!reason.empty())
    {
        o << "  why: " << reason << "\n";
    }
    char line[200];
    std::snprintf(line,
                  sizeof(line),
                  "  simulated %.9f s in %.2f s wall, %llu events, %llu packet-hops\n",
                  PsToS(simPs),
                  wallSeconds,
                  static_cast<unsigned long long>(events),
                  static_cast<unsigned long long>(m_fabric->GetPacketHops()));
    o << line;
    if (summary.contains("flows"))
    {
        PrintFlows(o, summary["flows"]);
    }
    for (const auto& j : summary["jobs"])
    {
        PrintJob(o, j);
    }
    o << "  links: " << links.drops << " drops, " << links.ecnMarks << " ECN marks, " << links.lost
      << " lost";
    if (links.oversize != 0)
    {
        o << ", " << links.oversize << " dropped for exceeding the link MTU (topology.mtu)";
    }
    o << "\n";
    if (!m_scenario.events.empty())
    {
        o << m_faults->ConsoleLine() << "\n";
    }
    if (const std::string line = GridReplanReport::ConsoleLine(m_fabric); !line.empty())
    {
        o << line << "\n";
    }
    o << "  outputs in " << m_outDir << "/ (summary.json, config.yaml, links.csv, switches.csv"
      << (m_traffic.empty() ? "" : ", flows.csv")
      << (m_jobs.empty() ? "" : ", jobs.csv, iterations.csv") << ")\n";
}

} // namespace ns3
