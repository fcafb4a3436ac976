/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_H
#define SCENARIO_H

#include "scenario-error.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

/**
 * \defgroup ina-scenario Scenario files
 * YAML scenarios and sweeps: parsing with units, KEY=VALUE overrides, validation with
 * file/line/key errors, the effective configuration, and sweep expansion. Pure data and logic;
 * the simulation runner turns a Scenario into ns-3 objects.
 */

namespace ns3
{

/*
 * The member initialisers below are THE defaults of every scenario key: the loader starts from
 * default-constructed structs and only overwrites what a file or an override sets, and
 * `inasim-config defaults` prints EffectiveConfigYaml() of a default Scenario for the docs.
 * Each member names its YAML key; units are in the member name (Bps = bits per second,
 * Ps = picoseconds, Bytes).
 */

/// \ingroup ina-scenario
/// `{rate, delay}` of one class of links.
struct ScenarioLink
{
    uint64_t rateBps = 100000000000ULL; ///< `rate`: 100Gbps
    int64_t delayPs = 1000000;          ///< `delay`: 1us, propagation
};

/// \ingroup ina-scenario
/// `topology.queue`: the output queue of every port.
struct ScenarioQueue
{
    uint64_t capacityBytes = 1000000;    ///< `capacity`: 1MB, tail drop beyond it
    uint64_t ecnThresholdBytes = 100000; ///< `ecn_threshold`: 100KB, <= capacity
    bool ecnAtHosts = false;             ///< `ecn_at_hosts`: hosts' NIC queues mark too
};

/// \ingroup ina-scenario
/// `topology`
struct ScenarioTopology
{
    enum class Type
    {
        STAR,       ///< `star`: `hosts` hosts on one switch
        FAT_TREE,   ///< `fat-tree`: k-ary fat tree, k^2/2 x `hosts_per_tor` (k/2) hosts
        LEAF_SPINE, ///< `leaf-spine`: `leaves` x `hosts_per_leaf` hosts, `spines` spines
        FROM_FILE,  ///< `file`: read from `file`
    };

    Type type = Type::STAR;    ///< `type`
    uint32_t hosts = 8;        ///< `hosts` (star)
    uint32_t k = 4;            ///< `k` (fat-tree), even, >= 4
    uint32_t hostsPerTor = 0;  ///< `hosts_per_tor` (fat-tree); 0: k/2
    uint32_t leaves = 4;       ///< `leaves` (leaf-spine)
    uint32_t spines = 2;       ///< `spines` (leaf-spine)
    uint32_t hostsPerLeaf = 8; ///< `hosts_per_leaf` (leaf-spine)
    /// `file` (type file): as written when the type is not file; when it is, the loader has
    /// checked that the file exists and stored its absolute path.
    std::string file;
    ScenarioLink hostLink;   ///< `host_link`: host <-> first switch
    ScenarioLink fabricLink; ///< `fabric_link`: switch <-> switch
    double lossRate = 0;     ///< `loss_rate`: independent loss per packet per link, in [0, 1)
    ScenarioQueue queue;     ///< `queue`
    /// `priority_classes` (extension): strict-priority queues per port, 1..8
    uint32_t priorityClasses = 1;
    /// `mtu` (extension): largest packet of every link in wire bytes, 68..65535 (a topology
    /// file's mtu= wins for its links); transports send packets of the smallest link MTU
    uint64_t mtuBytes = 1500;

    /// \return the number of hosts the topology will have, or 0 for type file (unknown until the
    ///         file is read)
    uint32_t GetHostCount() const;
};

/// \ingroup ina-scenario
/// `switch.recirculation`
struct ScenarioRecirculation
{
    uint64_t rateBps = 100000000000ULL; ///< `rate`: 100Gbps
    int64_t latencyPs = 1000000;        ///< `latency`: 1us per recirculation pass
};

/// \ingroup ina-scenario
/// An aggregation capacity: a bit rate or a packet rate (at most one non-zero; both 0: line rate).
struct ScenarioCapacity
{
    uint64_t bps = 0; ///< bit/s of aggregated wire bytes
    uint64_t pps = 0; ///< aggregated packets per second
};

/// \ingroup ina-scenario
/// `switch.aggregation` (extension): GRID's C_s, the aggregation work a switch can do
struct ScenarioAggregation
{
    ScenarioCapacity capacity;     ///< `capacity`: every switch; 0 = line rate
    uint64_t queueBytes = 1048576; ///< `queue`: the FIFO in front of the pipeline
    std::map<std::string, ScenarioCapacity> perSwitch; ///< `per_switch`: switch name -> capacity
};

/// \ingroup ina-scenario
/// `planner` (extension): the planner-level run (`level: planner`), GRID paper Sec. 6.3
struct ScenarioPlanner
{
    /// `programmable`: `tiers` (the switches of switch.ina_tiers) or `random` (a random
    /// `fraction` of all switches, drawn from the seed)
    std::string programmable = "tiers";
    double fraction = 0.2; ///< `fraction`: of all switches, for `random` (the paper's (b): 20 %)
    uint64_t capacityMinBps = 0; ///< `capacity_min`: C_s drawn uniformly in [min, max] per switch
    uint64_t capacityMaxBps = 0; ///< `capacity_max`: 0 and 0: C_s from switch.aggregation
    uint32_t trials = 32;        ///< `trials`: R-GRIA's roundings
    bool repair = true;          ///< `repair`: GRID's repair step after each rounding
    bool linkRows = true;        ///< `link_rows`: link capacities in the LP and the baselines
};

/// \ingroup ina-scenario
/// `switch`: the pipeline of every INA-capable switch (Tofino-like defaults).
struct ScenarioSwitch
{
    uint32_t stages = 12;                     ///< `stages`
    uint64_t sramPerStageBytes = 1310720;     ///< `sram_per_stage`: 1.25MiB (80 blocks of 16 KiB)
    uint32_t statefulAlusPerStage = 4;        ///< `stateful_alus_per_stage`
    ScenarioRecirculation recirculation;      ///< `recirculation`
    std::vector<std::string> inaTiers{"tor"}; ///< `ina_tiers`: tor, agg, core / leaf, spine
    ScenarioAggregation aggregation;          ///< `aggregation` (extension)
    uint64_t inaMemoryBytes = 0; ///< `ina_memory` (extension): 0 = each protocol's own pool
    /// `params` (extension): further ns3::Pipeline Attributes, name -> value as written
    std::map<std::string, std::string> params;
};

/// \ingroup ina-scenario
/// `jobs[i].placement`: `packed | spread | random | [host ids]`
struct ScenarioPlacement
{
    enum class Kind
    {
        PACKED,   ///< `packed`: fill hosts in id order
        SPREAD,   ///< `spread`: as far apart as the topology allows
        RANDOM,   ///< `random`: drawn from the scenario seed
        EXPLICIT, ///< a list of host ids
    };

    Kind kind = Kind::PACKED;
    std::vector<uint32_t> hosts; ///< the ids, only for EXPLICIT (unique, one per worker)
};

/// \ingroup ina-scenario
/// `jobs[i].workload`
struct ScenarioWorkload
{
    std::string model;                ///< `model`: from the model zoo; empty = one tensor
    uint64_t tensorBytes = 100000000; ///< `tensor_bytes`: 100MB; unused when a model is given
    uint32_t iterations = 3;          ///< `iterations`
    /// further keys, kept as written for workload kinds to come (single values only)
    std::map<std::string, std::string> extra;
};

/// \ingroup ina-scenario
/// One entry of `jobs`.
struct ScenarioJob
{
    std::string name;                  ///< `name`: default "j<index>"
    std::string protocol = "switchml"; ///< `protocol`: switchml, atp, esa, libra, ring, ps, ...
    uint32_t workers = 8;        ///< `workers`: with an explicit placement, defaults to its length
    ScenarioPlacement placement; ///< `placement`
    uint32_t psHosts = 1;        ///< `ps_hosts`: parameter servers, where the protocol uses them
    ScenarioWorkload workload;   ///< `workload`
    int64_t startPs = 0;         ///< `start`
    /// `params`: protocol Attributes by their ns-3 Attribute names -> value as written
    std::map<std::string, std::string> params;
};

/// \ingroup ina-scenario
/// One entry of `traffic`: plain flows beside or instead of jobs.
struct ScenarioTraffic
{
    enum class Pattern
    {
        PERMUTATION, ///< `permutation`: every host sends to one other, each receives once
        INCAST,      ///< `incast`: every host sends to `dst`
        ALL_TO_ALL,  ///< `all-to-all`: every host to every other
    };

    Pattern pattern = Pattern::PERMUTATION; ///< `pattern`
    bool allHosts = true;                   ///< `hosts: all`
    std::vector<uint32_t> hosts;            ///< `hosts: [ids]` when !allHosts (unique)
    uint64_t flowBytes = 1000000;           ///< `flow_bytes`: 1MB per flow
    int64_t startPs = 0;                    ///< `start`
    uint32_t dst = 0;                       ///< `dst` (extension, incast only): the receiving host
};

/// \ingroup ina-scenario
/// `outputs`
struct ScenarioOutputs
{
    bool pcap = false;                ///< `pcap`
    int64_t timeseriesIntervalPs = 0; ///< `timeseries_interval`: > 0 samples queues, pools, rates
};

/// \ingroup ina-scenario
/// `limits` (extension): when a run that cannot finish is ended. The simulated-time cap is the
/// top-level `stop_time`.
struct ScenarioLimits
{
    /// `no_progress`: end the run when no flow, tensor, compute layer or iteration finished for
    /// this long in simulated time while work remained; 0 = never. Work is finite, so with this
    /// set every run ends.
    int64_t noProgressPs = 10000000000000; // 10 s
};

/// \ingroup ina-scenario
/// One entry of `events` (extension): a fault injected into the fabric at a simulated time.
struct ScenarioEvent
{
    enum class Kind
    {
        LINK_DOWN,     ///< `link_down`: `link` fails at `at` (until a `link_up`)
        LINK_UP,       ///< `link_up`: `link` comes back at `at`
        LINK_FLAP,     ///< `link_flap`: `link` down for `down_for` every `period`, `count` times
                       ///< or until `until`
        SWITCH_FAIL,   ///< `switch_fail`: `switch` dies at `at`, its state lost, for good
        SWITCH_REBOOT, ///< `switch_reboot`: `switch` dies at `at`, its state lost, and is back
                       ///< `down_for` later
        LOSS,          ///< `loss`: random loss `rate` on `link`, or on every link between
                       ///< `tiers`, from `at` on
    };

    Kind kind = Kind::LINK_DOWN;    ///< `kind`
    int64_t atPs = 0;               ///< `at`
    std::vector<std::string> link;  ///< `link: [a, b]`: the link's two ends, by node name
    std::string switchName;         ///< `switch`: a switch, by name
    int64_t downForPs = 0;          ///< `down_for`: flap (default: half the period), reboot
    int64_t periodPs = 0;           ///< `period`: flap, from one failure to the next
    uint32_t count = 0;             ///< `count`: flap, failures (0: until `until`)
    int64_t untilPs = 0;            ///< `until`: flap, no failure starts at or after it
    double rate = 0;                ///< `rate`: loss
    std::vector<std::string> tiers; ///< `tiers: [a, b]`: loss on every link between two tiers

    /**
     * Failures all `link_flap` events of a scenario may make together. Every failure is booked
     * as two simulator events when the run is set up (so the order of events at equal times is
     * the order of the list), about 170 B per failure (100,000 failures add 16.6 MB to a run),
     * and each failure and repair reroutes the fabric: without a bound, `count: 4000000000` or
     * `period: 1ps, until: 1s` passed validation and exhausted memory instead of getting an
     * error. 100,000 is far more than a flapping link makes in any run one would simulate.
     */
    static constexpr uint64_t MAX_LINK_FLAP_FAILURES = 100000;

    /// The failures of a `link_flap` event: `count`, or how many periods start in [at, until).
    uint64_t GetFlapFailures() const;
};

/// \ingroup ina-scenario
/// Where each key of a loaded scenario came from; not part of the configuration itself.
struct ScenarioOrigins
{
    /// the file (or source name) the scenario was loaded from
    std::string source;
    /// dotted path -> "FILE:LINE" or "override 'KEY=VALUE'", for every key set explicitly
    std::map<std::string, std::string> where;
    /// things that load but look unintended, each starting with its location like an error
    std::vector<std::string> warnings;
};

/**
 * \ingroup ina-scenario
 * A parsed, validated scenario: the typed form of the YAML contract (docs/scenario-reference.md).
 * A default-constructed Scenario holds every default; ScenarioLoader fills in the rest.
 */
struct Scenario
{
    enum class LinkModel
    {
        FAST, ///< `fast`: inasim's own link
        P2P,  ///< `p2p`: ns-3 PointToPointNetDevice
    };

    enum class Routing
    {
        ECMP, ///< `ecmp` (GRID's planned routes come with `protocol: grid`, not a routing mode)
    };

    enum class Level
    {
        PACKET,  ///< `packet`: the packet-level simulation
        PLANNER, ///< `planner`: GRID's planner and the fluid baselines, no packets (extension)
    };

    std::string name;                 ///< `name`: output folder name; default: the file name's stem
    uint64_t seed = 1;                ///< `seed`
    bool checkValues = false;         ///< `check_values`
    LinkModel link = LinkModel::FAST; ///< `link`
    int64_t stopTimePs = 0;           ///< `stop_time`: 0 = none
    ScenarioTopology topology;        ///< `topology`
    ScenarioSwitch switchConfig;      ///< `switch`
    Routing routing = Routing::ECMP;  ///< `routing`
    Level level = Level::PACKET;      ///< `level` (extension)
    ScenarioPlanner planner;          ///< `planner` (extension): used at level planner
    std::vector<ScenarioJob> jobs;    ///< `jobs`
    /// `job_count` (extension): only the first N entries of `jobs` run (0 = all); a sweep axis
    /// over it varies the number of jobs (the loader drops the others)
    uint32_t jobCount = 0;
    std::vector<ScenarioTraffic> traffic; ///< `traffic`
    ScenarioOutputs outputs;              ///< `outputs`
    ScenarioLimits limits;                ///< `limits` (extension)
    std::vector<ScenarioEvent> events;    ///< `events` (extension): faults
    /// `fault_detection` (extension): how long the routing takes to learn of a fault
    /// (ns3::InaFaultInjector DetectionDelay; default BFD's 3 x 3.3 ms)
    int64_t faultDetectionPs = 9900000000;

    ScenarioOrigins origins; ///< where each key came from (ignored by operator==)

    /**
     * \param path dotted key path, e.g. "jobs.0.placement"
     * \return where the value at `path` came from: the override or file line that set it, else
     *         the line of its closest enclosing section in the file, else the source name
     */
    std::string Where(const std::string& path) const;

    /**
     * For checks made after loading (e.g. by the runner once the topology exists):
     * `throw scenario.Error("jobs.0.protocol", "unknown protocol 'x' (known: ...)")`.
     */
    ScenarioError Error(const std::string& path, const std::string& what) const;

    /**
     * Checks every host id the scenario names (explicit placements, traffic host lists, incast
     * destinations) against the number of hosts the built topology has, and that each job's
     * workers fit. Throws ScenarioError naming the key.
     */
    void CheckHostIds(uint32_t hostCount) const;
};

/// \ingroup ina-scenario
/// The YAML spellings of an enum's values, in the order an error lists them: what the loader
/// reads and ToString writes.
template<class E>
using ScenarioNames = std::vector<std::pair<std::string, E>>;

/// \ingroup ina-scenario
/// \return the spellings of each enum (placements: the scalar ones; an explicit placement is a
///         list of host ids)
const ScenarioNames<ScenarioTopology::Type>& TopologyTypeNames();
const ScenarioNames<ScenarioPlacement::Kind>& PlacementKindNames();
const ScenarioNames<ScenarioTraffic::Pattern>& TrafficPatternNames();
const ScenarioNames<Scenario::LinkModel>& LinkModelNames();
const ScenarioNames<Scenario::Routing>& RoutingNames();
const ScenarioNames<Scenario::Level>& LevelNames();
const ScenarioNames<ScenarioEvent::Kind>& EventKindNames();

/// \ingroup ina-scenario
/// \return the YAML spelling of each enum value ("fat-tree", "all-to-all", ...)
std::string ToString(ScenarioTopology::Type type);
std::string ToString(ScenarioPlacement::Kind kind);
std::string ToString(ScenarioTraffic::Pattern pattern);
std::string ToString(Scenario::LinkModel link);
std::string ToString(Scenario::Routing routing);
std::string ToString(Scenario::Level level);
std::string ToString(ScenarioEvent::Kind kind);

/// \ingroup ina-scenario
/// Field-by-field equality of the configuration (origins are not compared).
bool operator==(const ScenarioLink& a, const ScenarioLink& b);
bool operator==(const ScenarioQueue& a, const ScenarioQueue& b);
bool operator==(const ScenarioTopology& a, const ScenarioTopology& b);
bool operator==(const ScenarioRecirculation& a, const ScenarioRecirculation& b);
bool operator==(const ScenarioCapacity& a, const ScenarioCapacity& b);
bool operator==(const ScenarioPlanner& a, const ScenarioPlanner& b);
bool operator==(const ScenarioAggregation& a, const ScenarioAggregation& b);
bool operator==(const ScenarioSwitch& a, const ScenarioSwitch& b);
bool operator==(const ScenarioPlacement& a, const ScenarioPlacement& b);
bool operator==(const ScenarioWorkload& a, const ScenarioWorkload& b);
bool operator==(const ScenarioJob& a, const ScenarioJob& b);
bool operator==(const ScenarioTraffic& a, const ScenarioTraffic& b);
bool operator==(const ScenarioOutputs& a, const ScenarioOutputs& b);
bool operator==(const ScenarioLimits& a, const ScenarioLimits& b);
bool operator==(const ScenarioEvent& a, const ScenarioEvent& b);
bool operator==(const Scenario& a, const Scenario& b);

bool operator!=(const ScenarioLink& a, const ScenarioLink& b);
bool operator!=(const ScenarioQueue& a, const ScenarioQueue& b);
bool operator!=(const ScenarioTopology& a, const ScenarioTopology& b);
bool operator!=(const ScenarioRecirculation& a, const ScenarioRecirculation& b);
bool operator!=(const ScenarioSwitch& a, const ScenarioSwitch& b);
bool operator!=(const ScenarioPlacement& a, const ScenarioPlacement& b);
bool operator!=(const ScenarioWorkload& a, const ScenarioWorkload& b);
bool operator!=(const ScenarioJob& a, const ScenarioJob& b);
bool operator!=(const ScenarioTraffic& a, const ScenarioTraffic& b);
bool operator!=(const ScenarioOutputs& a, const ScenarioOutputs& b);
bool operator!=(const ScenarioLimits& a, const ScenarioLimits& b);
bool operator!=(const Scenario& a, const Scenario& b);

} // namespace ns3

#endif /* SCENARIO_H */
