/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario.h"

#include <tuple>

namespace ns3
{

uint32_t
ScenarioTopology::GetHostCount() const
{
    // The loader rejects topologies whose host count does not fit 32 bits, so no overflow here.
    switch (type)
    {
    case Type::STAR:
        return hosts;
    case Type::FAT_TREE:
        return static_cast<uint32_t>(static_cast<uint64_t>(k) * (k / 2) *
                                     (hostsPerTor == 0 ? k / 2 : hostsPerTor));
    case Type::LEAF_SPINE:
        return static_cast<uint32_t>(static_cast<uint64_t>(leaves) * hostsPerLeaf);
    case Type::FROM_FILE:
        return 0;
    }
    return 0;
}

std::string
Scenario::Where(const std::string& path) const
{
    std::string p = path;
    while (!p.empty())
    {
        auto it = origins.where.find(p);
        if (it != origins.where.end())
        {
            return it->second;
        }
        const size_t dot = p.rfind('.');
        p = dot == std::string::npos ? std::string() : p.substr(0, dot);
    }
    return origins.source;
}

ScenarioError
Scenario::Error(const std::string& path, const std::string& what) const
{
    return ScenarioError(Where(path), path, what);
}

void
Scenario::CheckHostIds(uint32_t hostCount) const
{
    const std::string range = hostCount == 0
                                  ? std::string("the topology has no hosts")
                                  : "host ids go from 0 to " + std::to_string(hostCount - 1) +
                                        " (" + std::to_string(hostCount) + " hosts)";
    for (size_t j = 0; j < jobs.size(); ++j)
    {
        const ScenarioJob& job = jobs[j];
        const std::string path = "jobs." + std::to_string(j);
        if (job.placement.kind == ScenarioPlacement::Kind::EXPLICIT)
        {
            for (uint32_t id : job.placement.hosts)
            {
                if (id >= hostCount)
                {
                    throw Error(path + ".placement",
                                "host id " + std::to_string(id) + " does not exist: " + range);
                }
            }
        }
        else if (job.workers > hostCount)
        {
            throw Error(path + ".workers",
                        std::to_string(job.workers) + " workers do not fit on " +
                            std::to_string(hostCount) + (hostCount == 1 ? " host" : " hosts"));
        }
    }
    for (size_t t = 0; t < traffic.size(); ++t)
    {
        const ScenarioTraffic& tr = traffic[t];
        const std::string path = "traffic." + std::to_string(t);
        if (!tr.allHosts)
        {
            for (uint32_t id : tr.hosts)
            {
                if (id >= hostCount)
                {
                    throw Error(path + ".hosts",
                                "host id " + std::to_string(id) + " does not exist: " + range);
                }
            }
        }
        if (tr.pattern == ScenarioTraffic::Pattern::INCAST && tr.dst >= hostCount)
        {
            throw Error(path + ".dst",
                        "host id " + std::to_string(tr.dst) + " does not exist: " + range);
        }
    }
}

namespace
{
/// The spelling of `value` in `names`, "?" for a value that has none.
template<class E>
std::string
NameOf(const ScenarioNames<E>& names, E value)
{
    for (const auto& [name, v] : names)
    {
        if (v == value)
        {
            return name;
        }
    }
    return "?";
}
} // namespace

const ScenarioNames<ScenarioTopology::Type>&
TopologyTypeNames()
{
    static const ScenarioNames<ScenarioTopology::Type> names = {
        {"star", ScenarioTopology::Type::STAR},
        {"fat-tree", ScenarioTopology::Type::FAT_TREE},
        {"leaf-spine", ScenarioTopology::Type::LEAF_SPINE},
        {"file", ScenarioTopology::Type::FROM_FILE}};
    return names;
}

const ScenarioNames<ScenarioPlacement::Kind>&
PlacementKindNames()
{
    static const ScenarioNames<ScenarioPlacement::Kind> names = {
        {"packed", ScenarioPlacement::Kind::PACKED},
        {"spread", ScenarioPlacement::Kind::SPREAD},
        {"random", ScenarioPlacement::Kind::RANDOM}};
    return names;
}

const ScenarioNames<ScenarioTraffic::Pattern>&
TrafficPatternNames()
{
    static const ScenarioNames<ScenarioTraffic::Pattern> names = {
        {"permutation", ScenarioTraffic::Pattern::PERMUTATION},
        {"incast", ScenarioTraffic::Pattern::INCAST},
        {"all-to-all", ScenarioTraffic::Pattern::ALL_TO_ALL}};
    return names;
}

const ScenarioNames<Scenario::LinkModel>&
LinkModelNames()
{
    static const ScenarioNames<Scenario::LinkModel> names = {{"fast", Scenario::LinkModel::FAST},
                                                             {"p2p", Scenario::LinkModel::P2P}};
    return names;
}

const ScenarioNames<Scenario::Routing>&
RoutingNames()
{
    // `grid` was a routing mode that nothing implemented: GRID's planned routes come with
    // `protocol: grid` (its plan pins them), and `level: planner` runs its planner alone.
    static const ScenarioNames<Scenario::Routing> names = {{"ecmp", Scenario::Routing::ECMP}};
    return names;
}

const ScenarioNames<Scenario::Level>&
LevelNames()
{
    static const ScenarioNames<Scenario::Level> names = {{"packet", Scenario::Level::PACKET},
                                                         {"planner", Scenario::Level::PLANNER}};
    return names;
}

const ScenarioNames<ScenarioEvent::Kind>&
EventKindNames()
{
    static const ScenarioNames<ScenarioEvent::Kind> names = {
        {"link_down", ScenarioEvent::Kind::LINK_DOWN},
        {"link_up", ScenarioEvent::Kind::LINK_UP},
        {"link_flap", ScenarioEvent::Kind::LINK_FLAP},
        {"switch_fail", ScenarioEvent::Kind::SWITCH_FAIL},
        {"switch_reboot", ScenarioEvent::Kind::SWITCH_REBOOT},
        {"loss", ScenarioEvent::Kind::LOSS}};
    return names;
}

std::string
ToString(ScenarioTopology::Type type)
{
    return NameOf(TopologyTypeNames(), type);
}

std::string
ToString(ScenarioPlacement::Kind kind)
{
    return kind == ScenarioPlacement::Kind::EXPLICIT ? "explicit"
                                                     : NameOf(PlacementKindNames(), kind);
}

std::string
ToString(ScenarioTraffic::Pattern pattern)
{
    return NameOf(TrafficPatternNames(), pattern);
}

std::string
ToString(Scenario::LinkModel link)
{
    return NameOf(LinkModelNames(), link);
}

std::string
ToString(Scenario::Routing routing)
{
    return NameOf(RoutingNames(), routing);
}

std::string
ToString(Scenario::Level level)
{
    return NameOf(LevelNames(), level);
}

std::string
ToString(ScenarioEvent::Kind kind)
{
    return NameOf(EventKindNames(), kind);
}

uint64_t
ScenarioEvent::GetFlapFailures() const
{
    if (kind != Kind::LINK_FLAP || periodPs <= 0)
    {
        return 0;
    }
    if (count > 0)
    {
        return count;
    }
    if (untilPs <= atPs)
    {
        return 0;
    }
    // Periods starting in [at, until), counted without forming at + n * period (no overflow).
    return static_cast<uint64_t>(untilPs - atPs - 1) / static_cast<uint64_t>(periodPs) + 1;
}

bool
operator==(const ScenarioPlanner& a, const ScenarioPlanner& b)
{
    return std::tie(a.programmable,
                    a.fraction,
                    a.capacityMinBps,
                    a.capacityMaxBps,
                    a.trials,
                    a.repair,
                    a.linkRows) == std::tie(b.programmable,
                                            b.fraction,
                                            b.capacityMinBps,
                                            b.capacityMaxBps,
                                            b.trials,
                                            b.repair,
                                            b.linkRows);
}

bool
operator==(const ScenarioLink& a, const ScenarioLink& b)
{
    return std::tie(a.rateBps, a.delayPs) == std::tie(b.rateBps, b.delayPs);
}

bool
operator==(const ScenarioQueue& a, const ScenarioQueue& b)
{
    return std::tie(a.capacityBytes, a.ecnThresholdBytes, a.ecnAtHosts) ==
           std::tie(b.capacityBytes, b.ecnThresholdBytes, b.ecnAtHosts);
}

bool
operator==(const ScenarioTopology& a, const ScenarioTopology& b)
{
    return std::tie(a.type,
                    a.hosts,
                    a.k,
                    a.hostsPerTor,
                    a.leaves,
                    a.spines,
                    a.hostsPerLeaf,
                    a.file,
                    a.hostLink,
                    a.fabricLink,
                    a.lossRate,
                    a.queue,
                    a.priorityClasses,
                    a.mtuBytes) == std::tie(b.type,
                                            b.hosts,
                                            b.k,
                                            b.hostsPerTor,
                                            b.leaves,
                                            b.spines,
                                            b.hostsPerLeaf,
                                            b.file,
                                            b.hostLink,
                                            b.fabricLink,
                                            b.lossRate,
                                            b.queue,
                                            b.priorityClasses,
                                            b.mtuBytes);
}

bool
operator==(const ScenarioRecirculation& a, const ScenarioRecirculation& b)
{
    return std::tie(a.rateBps, a.latencyPs) == std::tie(b.rateBps, b.latencyPs);
}

bool
operator==(const ScenarioCapacity& a, const ScenarioCapacity& b)
{
    return a.bps == b.bps && a.pps == b.pps;
}

bool
operator==(const ScenarioAggregation& a, const ScenarioAggregation& b)
{
    return a.capacity == b.capacity && a.queueBytes == b.queueBytes && a.perSwitch == b.perSwitch;
}

bool
operator==(const ScenarioSwitch& a, const ScenarioSwitch& b)
{
    return std::tie(a.stages,
                    a.sramPerStageBytes,
                    a.statefulAlusPerStage,
                    a.recirculation,
                    a.inaTiers,
                    a.aggregation,
                    a.inaMemoryBytes,
                    a.params) == std::tie(b.stages,
                                          b.sramPerStageBytes,
                                          b.statefulAlusPerStage,
                                          b.recirculation,
                                          b.inaTiers,
                                          b.aggregation,
                                          b.inaMemoryBytes,
                                          b.params);
}

bool
operator==(const ScenarioPlacement& a, const ScenarioPlacement& b)
{
    return std::tie(a.kind, a.hosts) == std::tie(b.kind, b.hosts);
}

bool
operator==(const ScenarioWorkload& a, const ScenarioWorkload& b)
{
    return std::tie(a.model, a.tensorBytes, a.iterations, a.extra) ==
           std::tie(b.model, b.tensorBytes, b.iterations, b.extra);
}

bool
operator==(const ScenarioJob& a, const ScenarioJob& b)
{
    return std::tie(a.name,
                    a.protocol,
                    a.workers,
                    a.placement,
                    a.psHosts,
                    a.workload,
                    a.startPs,
                    a.params) == std::tie(b.name,
                                          b.protocol,
                                          b.workers,
                                          b.placement,
                                          b.psHosts,
                                          b.workload,
                                          b.startPs,
                                          b.params);
}

bool
operator==(const ScenarioTraffic& a, const ScenarioTraffic& b)
{
    return std::tie(a.pattern, a.allHosts, a.hosts, a.flowBytes, a.startPs, a.dst) ==
           std::tie(b.pattern, b.allHosts, b.hosts, b.flowBytes, b.startPs, b.dst);
}

bool
operator==(const ScenarioOutputs& a, const ScenarioOutputs& b)
{
    return std::tie(a.pcap, a.timeseriesIntervalPs) == std::tie(b.pcap, b.timeseriesIntervalPs);
}

bool
operator==(const ScenarioLimits& a, const ScenarioLimits& b)
{
    return a.noProgressPs == b.noProgressPs;
}

bool
operator==(const ScenarioEvent& a, const ScenarioEvent& b)
{
    return std::tie(a.kind,
                    a.atPs,
                    a.link,
                    a.switchName,
                    a.downForPs,
                    a.periodPs,
                    a.count,
                    a.untilPs,
                    a.rate,
                    a.tiers) == std::tie(b.kind,
                                         b.atPs,
                                         b.link,
                                         b.switchName,
                                         b.downForPs,
                                         b.periodPs,
                                         b.count,
                                         b.untilPs,
                                         b.rate,
                                         b.tiers);
}

bool
operator==(const Scenario& a, const Scenario& b)
{
    return std::tie(a.name,
                    a.seed,
                    a.checkValues,
                    a.link,
                    a.stopTimePs,
                    a.topology,
                    a.switchConfig,
                    a.routing,
                    a.level,
                    a.planner,
                    a.jobs,
                    a.jobCount,
                    a.traffic,
                    a.outputs,
                    a.limits,
                    a.events,
                    a.faultDetectionPs) == std::tie(b.name,
                                                    b.seed,
                                                    b.checkValues,
                                                    b.link,
                                                    b.stopTimePs,
                                                    b.topology,
                                                    b.switchConfig,
                                                    b.routing,
                                                    b.level,
                                                    b.planner,
                                                    b.jobs,
                                                    b.jobCount,
                                                    b.traffic,
                                                    b.outputs,
                                                    b.limits,
                                                    b.events,
                                                    b.faultDetectionPs);
}

bool
operator!=(const ScenarioLink& a, const ScenarioLink& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioQueue& a, const ScenarioQueue& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioTopology& a, const ScenarioTopology& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioRecirculation& a, const ScenarioRecirculation& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioSwitch& a, const ScenarioSwitch& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioPlacement& a, const ScenarioPlacement& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioWorkload& a, const ScenarioWorkload& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioJob& a, const ScenarioJob& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioTraffic& a, const ScenarioTraffic& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioOutputs& a, const ScenarioOutputs& b)
{
    return !(a == b);
}

bool
operator!=(const ScenarioLimits& a, const ScenarioLimits& b)
{
    return !(a == b);
}

bool
operator!=(const Scenario& a, const Scenario& b)
{
    return !(a == b);
}

} // namespace ns3
