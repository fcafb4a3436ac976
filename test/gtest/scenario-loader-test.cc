/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// ScenarioLoader on files: defaults, the contract's example, unknown keys, wrong types, bad units,
// cross-key rules and the location every error starts with.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/scenario-loader.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The message of the ScenarioError loading `yaml` (as rack.yaml) throws, or "no error".
std::string
ErrorOf(const std::string& yaml, const std::vector<std::string>& overrides = {})
{
    return ns3::tests::ErrorOf<ScenarioError>(
        [&] {
            ScenarioLoader::LoadString(yaml, "rack.yaml", overrides);
        },
        "no error");
}

/// The example of the scenario format the project was specified with (its user contract), verbatim.
const char* CONTRACT_EXAMPLE = R"(name: switchml-rack          # output folder name
seed: 1                      # every random choice derives from it
check_values: true           # carry real gradient values; verify every aggregated result
link: fast                   # fast (inasim's link) | p2p (ns-3 PointToPointNetDevice), same results
stop_time: 10s               # optional cap on simulated time
topology:
  type: star                 # star | fat-tree | leaf-spine | file
  hosts: 8                   # star: hosts on one switch
  k: 4                       # fat-tree: k-ary, k^3/4 hosts
  leaves: 4                  # leaf-spine
  spines: 2
  hosts_per_leaf: 8
  file: topologies/example.topo   # file
  host_link:   {rate: 100Gbps, delay: 1us}
  fabric_link: {rate: 100Gbps, delay: 1us}   # oversubscription = lower fabric rate
  loss_rate: 0                # independent random loss per packet per link
  queue: {capacity: 1MB, ecn_threshold: 100KB}
switch:                       # pipeline of every INA-capable switch; defaults are Tofino-like
  stages: 12
  sram_per_stage: 1.25MB
  stateful_alus_per_stage: 4
  recirculation: {rate: 100Gbps, latency: 1us}
  ina_tiers: [tor]            # which tiers aggregate: tor, agg, core / leaf, spine
routing: ecmp                 # ecmp (the only routing; GRID pins its flows itself)
jobs:
  - name: j0
    protocol: switchml        # switchml | atp | esa | libra | ring | ps
    workers: 8
    placement: packed         # packed | spread | random | [host ids]
    ps_hosts: 1               # where the protocol uses parameter servers
    workload:
      model: resnet50         # a model from the zoo (layer sizes + compute times), or:
      tensor_bytes: 100MB     # one tensor, no compute
      iterations: 3
    start: 0s
    params: {}                # protocol attributes, by their ns-3 Attribute names
traffic:                      # plain flows beside or instead of jobs (fabric tests, background load)
  - pattern: permutation      # permutation | incast | all-to-all
    hosts: all                # all | [host ids]
    flow_bytes: 1MB
    start: 0s
outputs:
  pcap: false
  timeseries_interval: 0      # > 0: sample queues, pool occupancy, rates
)";

} // namespace

TEST(ScenarioLoader, EmptyFileGivesEveryDefault)
{
    const Scenario s = ScenarioLoader::LoadString("", "dir/my-rack.yaml");
    EXPECT_EQ(s.name, "my-rack"); // the file name's stem
    EXPECT_EQ(s.seed, 1U);
    EXPECT_FALSE(s.checkValues);
    EXPECT_EQ(s.link, Scenario::LinkModel::FAST);
    EXPECT_EQ(s.stopTimePs, 0);
    EXPECT_EQ(s.topology.type, ScenarioTopology::Type::STAR);
    EXPECT_EQ(s.topology.hosts, 8U);
    EXPECT_EQ(s.topology.k, 4U);
    EXPECT_EQ(s.topology.leaves, 4U);
    EXPECT_EQ(s.topology.spines, 2U);
    EXPECT_EQ(s.topology.hostsPerLeaf, 8U);
    EXPECT_EQ(s.topology.file, "");
    EXPECT_EQ(s.topology.hostLink.rateBps, 100000000000ULL);
    EXPECT_EQ(s.topology.hostLink.delayPs, 1000000);
    EXPECT_EQ(s.topology.fabricLink.rateBps, 100000000000ULL);
    EXPECT_EQ(s.topology.fabricLink.delayPs, 1000000);
    EXPECT_EQ(s.topology.lossRate, 0.0);
    EXPECT_EQ(s.topology.queue.capacityBytes, 1000000ULL);
    EXPECT_EQ(s.topology.queue.ecnThresholdBytes, 100000ULL);
    EXPECT_EQ(s.topology.priorityClasses, 1U);
    EXPECT_EQ(s.switchConfig.stages, 12U);
    EXPECT_EQ(s.switchConfig.sramPerStageBytes, 1310720ULL);
    EXPECT_EQ(s.switchConfig.statefulAlusPerStage, 4U);
    EXPECT_EQ(s.switchConfig.recirculation.rateBps, 100000000000ULL);
    EXPECT_EQ(s.switchConfig.recirculation.latencyPs, 1000000);
    EXPECT_EQ(s.switchConfig.inaTiers, std::vector<std::string>{"tor"});
    EXPECT_TRUE(s.switchConfig.params.empty());
    EXPECT_EQ(s.routing, Scenario::Routing::ECMP);
    EXPECT_TRUE(s.jobs.empty());
    EXPECT_TRUE(s.traffic.empty());
    EXPECT_FALSE(s.outputs.pcap);
    EXPECT_EQ(s.outputs.timeseriesIntervalPs, 0);
    EXPECT_TRUE(s.origins.where.empty());
    EXPECT_TRUE(s.origins.warnings.empty());
    EXPECT_EQ(s.topology.GetHostCount(), 8U);
}

TEST(ScenarioLoader, ContractExampleLoadsWithItsMeaning)
{
    const Scenario s = ScenarioLoader::LoadString(CONTRACT_EXAMPLE, "switchml-rack.yaml");
    EXPECT_EQ(s.name, "switchml-rack");
    EXPECT_EQ(s.seed, 1U);
    EXPECT_TRUE(s.checkValues);
    EXPECT_EQ(s.stopTimePs, 10000000000000);
    EXPECT_EQ(s.topology.file, "topologies/example.topo"); // kept as written: type is star
    EXPECT_EQ(s.switchConfig.sramPerStageBytes, 1250000ULL);
    ASSERT_EQ(s.jobs.size(), 1U);
    const ScenarioJob& j = s.jobs[0];
    EXPECT_EQ(j.name, "j0");
    EXPECT_EQ(j.protocol, "switchml");
    EXPECT_EQ(j.workers, 8U);
    EXPECT_EQ(j.placement.kind, ScenarioPlacement::Kind::PACKED);
    EXPECT_EQ(j.psHosts, 1U);
    EXPECT_EQ(j.workload.model, "resnet50");
    EXPECT_EQ(j.workload.tensorBytes, 100000000ULL);
    EXPECT_EQ(j.workload.iterations, 3U);
    EXPECT_EQ(j.startPs, 0);
    EXPECT_TRUE(j.params.empty());
    ASSERT_EQ(s.traffic.size(), 1U);
    EXPECT_EQ(s.traffic[0].pattern, ScenarioTraffic::Pattern::PERMUTATION);
    EXPECT_TRUE(s.traffic[0].allHosts);
    EXPECT_EQ(s.traffic[0].flowBytes, 1000000ULL);
    // Model and tensor_bytes together load; the unused one is pointed out.
    ASSERT_EQ(s.origins.warnings.size(), 1U);
    EXPECT_EQ(s.origins.warnings[0],
              "switchml-rack.yaml:33: key 'jobs.0.workload.tensor_bytes': not used, the tensors "
              "come from model 'resnet50'");
    // Apart from the name, the contract example spells out the defaults.
    Scenario defaults;
    defaults.name = s.name;
    defaults.checkValues = true;
    defaults.stopTimePs = s.stopTimePs;
    defaults.topology.file = s.topology.file;
    defaults.switchConfig.sramPerStageBytes = 1250000; // the contract writes 1.25MB (decimal)
    defaults.jobs.push_back(ScenarioJob());
    defaults.jobs[0].name = "j0";
    defaults.jobs[0].workload.model = "resnet50";
    defaults.traffic.push_back(ScenarioTraffic());
    EXPECT_EQ(s, defaults);
}

TEST(ScenarioLoader, TopologyTypesAndHostCounts)
{
    const Scenario ft = ScenarioLoader::LoadString("topology: {type: fat-tree, k: 8}", "x.yaml");
    EXPECT_EQ(ft.topology.type, ScenarioTopology::Type::FAT_TREE);
    EXPECT_EQ(ft.topology.GetHostCount(), 128U);
    const Scenario ft6 =
        ScenarioLoader::LoadString("topology: {type: fat-tree, k: 8, hosts_per_tor: 6}", "x.yaml");
    EXPECT_EQ(ft6.topology.GetHostCount(), 192U);
    const Scenario ls = ScenarioLoader::LoadString(
        "topology: {type: leaf-spine, leaves: 3, spines: 5, hosts_per_leaf: 7}",
        "x.yaml");
    EXPECT_EQ(ls.topology.GetHostCount(), 21U);
    EXPECT_EQ(ls.topology.spines, 5U);
    const Scenario p2p = ScenarioLoader::LoadString("link: p2p\nrouting: ecmp\n", "x.yaml");
    EXPECT_EQ(p2p.link, Scenario::LinkModel::P2P);
    EXPECT_EQ(p2p.routing, Scenario::Routing::ECMP);
    // routing: grid did nothing and is gone: GRID's routes come with protocol: grid.
    const std::string grid = ErrorOf("routing: grid\n");
    EXPECT_NE(grid.find("rack.yaml:1: key 'routing'"), std::string::npos) << grid;
}

TEST(ScenarioLoader, JobsTrafficAndExtensions)
{
    const Scenario s = ScenarioLoader::LoadString(R"(
topology: {type: star, hosts: 16, priority_classes: 3}
switch: {params: {MaxPasses: 2}}
jobs:
  - protocol: atp
    placement: [3, 1, 2]
    workload: {tensor_bytes: 4MiB, iterations: 5, layers: 50}
    start: 2.5us
    params: {PoolSize: 4096, Quantize: "true"}
  - name: second
    protocol: ring
    workers: 2
    placement: spread
    ps_hosts: 0
traffic:
  - {pattern: incast, hosts: [0, 4, 5], dst: 4, flow_bytes: 64KiB, start: 1ms}
  - {pattern: all-to-all, hosts: all}
)",
                                                  "x.yaml");
    ASSERT_EQ(s.jobs.size(), 2U);
    EXPECT_EQ(s.jobs[0].name, "j0");
    EXPECT_EQ(s.jobs[0].workers, 3U); // from the explicit placement
    EXPECT_EQ(s.jobs[0].placement.kind, ScenarioPlacement::Kind::EXPLICIT);
    EXPECT_EQ(s.jobs[0].placement.hosts, (std::vector<uint32_t>{3, 1, 2}));
    EXPECT_EQ(s.jobs[0].workload.tensorBytes, 4194304ULL);
    EXPECT_EQ(s.jobs[0].workload.iterations, 5U);
    EXPECT_EQ(s.jobs[0].workload.extra, (std::map<std::string, std::string>{{"layers", "50"}}));
    EXPECT_EQ(s.jobs[0].startPs, 2500000);
    EXPECT_EQ(s.jobs[0].params,
              (std::map<std::string, std::string>{{"PoolSize", "4096"}, {"Quantize", "true"}}));
    EXPECT_EQ(s.jobs[1].name, "second");
    EXPECT_EQ(s.jobs[1].placement.kind, ScenarioPlacement::Kind::SPREAD);
    EXPECT_EQ(s.jobs[1].psHosts, 0U);
    EXPECT_EQ(s.switchConfig.params, (std::map<std::string, std::string>{{"MaxPasses", "2"}}));
    EXPECT_EQ(s.topology.priorityClasses, 3U);
    ASSERT_EQ(s.traffic.size(), 2U);
    EXPECT_EQ(s.traffic[0].pattern, ScenarioTraffic::Pattern::INCAST);
    EXPECT_FALSE(s.traffic[0].allHosts);
    EXPECT_EQ(s.traffic[0].hosts, (std::vector<uint32_t>{0, 4, 5}));
    EXPECT_EQ(s.traffic[0].dst, 4U);
    EXPECT_EQ(s.traffic[0].flowBytes, 65536ULL);
    EXPECT_EQ(s.traffic[0].startPs, 1000000000);
    EXPECT_EQ(s.traffic[1].pattern, ScenarioTraffic::Pattern::ALL_TO_ALL);
    EXPECT_TRUE(s.traffic[1].allHosts);
    EXPECT_EQ(s.traffic[1].dst, 0U);
}

TEST(ScenarioLoader, UnknownKeysNameTheKeyTheLineAndTheValidKeys)
{
    EXPECT_EQ(ErrorOf("seed: 3\ntopology:\n  type: star\n  kk: 4\n"),
              "rack.yaml:4: key 'topology.kk': unknown key (did you mean 'k'?); valid keys here: "
              "type, hosts, k, hosts_per_tor, leaves, spines, hosts_per_leaf, file, host_link, "
              "fabric_link, "
              "loss_rate, queue, priority_classes, mtu");
    EXPECT_EQ(ErrorOf("sed: 3\n"),
              "rack.yaml:1: key 'sed': unknown key (did you mean 'seed'?); valid keys here: name, "
              "seed, check_values, link, stop_time, topology, switch, routing, level, planner, "
              "jobs, job_count, traffic, outputs, limits, events, fault_detection");
    EXPECT_EQ(ErrorOf("jobs:\n  - protocol: atp\n    worker: 4\n"),
              "rack.yaml:3: key 'jobs.0.worker': unknown key (did you mean 'workers'?); valid keys "
              "here: name, protocol, workers, placement, ps_hosts, workload, start, params");
    EXPECT_EQ(ErrorOf("topology:\n  host_link: {rate: 1Gbps, jitter: 1us}\n"),
              "rack.yaml:2: key 'topology.host_link.jitter': unknown key; valid keys here: rate, "
              "delay");
    EXPECT_EQ(ErrorOf("outputs: {pcap: true, csv: true}\n"),
              "rack.yaml:1: key 'outputs.csv': unknown key; valid keys here: pcap, "
              "timeseries_interval");
}

TEST(ScenarioLoader, BadUnitsNameTheKey)
{
    EXPECT_EQ(ErrorOf("topology:\n  host_link: {rate: 100GB, delay: 1us}\n"),
              "rack.yaml:2: key 'topology.host_link.rate': expected a data rate like 100Gbps "
              "(units: bps, Kbps, Mbps, Gbps, Tbps), got \"100GB\"");
    EXPECT_EQ(ErrorOf("stop_time: 10\n"),
              "rack.yaml:1: key 'stop_time': expected a time like 1us (units: ps, ns, us, ms, s), "
              "got \"10\": the unit is missing");
    EXPECT_EQ(ErrorOf("switch:\n  sram_per_stage: 1.25Mb\n"),
              "rack.yaml:2: key 'switch.sram_per_stage': expected a size like 64MB (units: B, KB, "
              "MB, GB, TB, KiB, MiB, GiB, TiB, or a plain number of bytes), got \"1.25Mb\"");
    EXPECT_EQ(ErrorOf("topology:\n  fabric_link: {rate: 0Gbps}\n"),
              "rack.yaml:2: key 'topology.fabric_link.rate': expected a data rate > 0, got "
              "\"0Gbps\"");
}

TEST(ScenarioLoader, WrongTypesAreErrors)
{
    EXPECT_EQ(ErrorOf("topology:\n  hosts: eight\n"),
              "rack.yaml:2: key 'topology.hosts': expected a non-negative integer, got \"eight\"");
    EXPECT_EQ(ErrorOf("topology:\n  hosts: -3\n"),
              "rack.yaml:2: key 'topology.hosts': expected a non-negative integer, got \"-3\"");
    EXPECT_EQ(ErrorOf("topology:\n  hosts: 4.5\n"),
              "rack.yaml:2: key 'topology.hosts': expected a non-negative integer, got \"4.5\"");
    EXPECT_EQ(ErrorOf("topology:\n  hosts: 5000000000\n"),
              "rack.yaml:2: key 'topology.hosts': expected an integer <= 4294967295, got "
              "5000000000");
    EXPECT_EQ(ErrorOf("topology:\n  hosts: [1, 2]\n"),
              "rack.yaml:2: key 'topology.hosts': expected a non-negative integer, got a list");
    EXPECT_EQ(ErrorOf("jobs:\n  - workers: 0\n"),
              "rack.yaml:2: key 'jobs.0.workers': expected an integer >= 1, got 0");
    EXPECT_EQ(ErrorOf("check_values: maybe\n"),
              "rack.yaml:1: key 'check_values': expected true or false, got \"maybe\"");
    EXPECT_EQ(ErrorOf("topology: [star]\n"),
              "rack.yaml:1: key 'topology': expected a section with keys (type, hosts, k, "
              "hosts_per_tor, leaves, spines, hosts_per_leaf, file, host_link, fabric_link, "
              "loss_rate, queue, priority_classes, mtu), got a list");
    EXPECT_EQ(ErrorOf("jobs: {protocol: atp}\n"),
              "rack.yaml:1: key 'jobs': expected a list of jobs, got a section of keys");
    EXPECT_EQ(ErrorOf("topology: {type: torus}\n"),
              "rack.yaml:1: key 'topology.type': expected one of star, fat-tree, leaf-spine, file, "
              "got \"torus\"");
    EXPECT_EQ(ErrorOf("link: ns3\n"),
              "rack.yaml:1: key 'link': expected one of fast, p2p, got \"ns3\"");
    EXPECT_EQ(ErrorOf("jobs:\n  - placement: explicit\n"),
              "rack.yaml:2: key 'jobs.0.placement': an explicit placement is written as the list "
              "of host ids, e.g. [0, 1, 2, 3]");
    EXPECT_EQ(ErrorOf("traffic:\n  - hosts: some\n"),
              "rack.yaml:2: key 'traffic.0.hosts': expected all or a list of host ids like [0, 1, "
              "2], got \"some\"");
    EXPECT_EQ(ErrorOf("jobs:\n  - params: {PoolSize: [1, 2]}\n"),
              "rack.yaml:2: key 'jobs.0.params.PoolSize': expected a single value (a number or a "
              "string), got a list");
    EXPECT_EQ(ErrorOf("topology: {loss_rate: lots}\n"),
              "rack.yaml:1: key 'topology.loss_rate': expected a probability in [0, 1) like 0.001, "
              "got \"lots\"");
    EXPECT_EQ(ErrorOf("topology: {priority_classes: 9}\n"),
              "rack.yaml:1: key 'topology.priority_classes': expected an integer <= 8, got 9");
    EXPECT_EQ(ErrorOf("topology: {mtu: 67}\n"),
              "rack.yaml:1: key 'topology.mtu': expected a size >= 68B, got \"67\"");
    EXPECT_EQ(ErrorOf("topology: {mtu: 64KiB}\n"),
              "rack.yaml:1: key 'topology.mtu': expected a size <= 65535B, got \"64KiB\"");
    EXPECT_EQ(ErrorOf("topology: {mtu: jumbo}\n").rfind("rack.yaml:1: key 'topology.mtu': ", 0),
              0u);
}

TEST(ScenarioLoader, YamlProblemsAreLocated)
{
    EXPECT_EQ(ErrorOf("seed: 1\ntopology: {type: star\n"),
              "rack.yaml:3: not valid YAML: end of map flow not found");
    EXPECT_EQ(ErrorOf("seed: 1\nseed: 2\n"),
              "rack.yaml:2: key 'seed': duplicate key (first given on line 1)");
    EXPECT_EQ(
        ErrorOf("- a\n- b\n"),
        "rack.yaml:1: expected a scenario: a section with keys (name, seed, check_values, "
        "link, stop_time, topology, switch, routing, level, planner, jobs, job_count, traffic, "
        "outputs, limits, events, fault_detection), got a list");
    EXPECT_EQ(ns3::tests::ErrorOf<ScenarioError>(
                  [&] {
                      ScenarioLoader::Load("/nonexistent/inasim/x.yaml");
                  },
                  "no error"),
              "/nonexistent/inasim/x.yaml: cannot read the scenario file: No such file or "
              "directory");
}

TEST(ScenarioLoader, AFolderIsNotAScenario)
{
    EXPECT_EQ(ns3::tests::ErrorOf<ScenarioError>(
                  [&] {
                      ScenarioLoader::Load("/tmp");
                  },
                  "no error"),
              "/tmp: is a folder, not a scenario file");
}

TEST(ScenarioLoader, CrossKeyRules)
{
    EXPECT_EQ(ErrorOf("topology:\n  type: fat-tree\n  k: 5\n"),
              "rack.yaml:3: key 'topology.k': a fat-tree needs an even k >= 4, got 5");
    EXPECT_EQ(ErrorOf("topology:\n  type: fat-tree\n  k: 2\n"),
              "rack.yaml:3: key 'topology.k': a fat-tree needs an even k >= 4, got 2");
    EXPECT_EQ(ErrorOf("topology:\n  type: fat-tree\n  k: 4\n  hosts_per_tor: 65534\n"),
              "rack.yaml:4: key 'topology.hosts_per_tor': a ToR has 65535 ports; 65534 hosts and "
              "2 uplinks do not fit");
    // k is only checked when the topology is a fat-tree.
    EXPECT_EQ(ErrorOf("topology:\n  type: star\n  k: 5\n"), "no error");
    EXPECT_EQ(ErrorOf("topology:\n  type: leaf-spine\n  spines: 0\n"),
              "rack.yaml:3: key 'topology.spines': a leaf-spine needs spines >= 1, got 0");
    EXPECT_EQ(ErrorOf("topology:\n  hosts: 0\n"),
              "rack.yaml:2: key 'topology.hosts': a star needs at least 1 host, got 0");
    EXPECT_EQ(ErrorOf("topology:\n  loss_rate: 1\n"),
              "rack.yaml:2: key 'topology.loss_rate': expected a probability in [0, 1), got 1");
    EXPECT_EQ(ErrorOf("topology:\n  loss_rate: 0.001\n"), "no error");
    EXPECT_EQ(ErrorOf("topology:\n  queue: {capacity: 50KB}\n"),
              "rack.yaml:2: key 'topology.queue.capacity': ecn_threshold 100KB is above the queue "
              "capacity 50KB");
    EXPECT_EQ(ErrorOf("topology:\n  queue:\n    capacity: 1MB\n    ecn_threshold: 2MB\n"),
              "rack.yaml:4: key 'topology.queue.ecn_threshold': ecn_threshold 2MB is above the "
              "queue capacity 1MB");
    EXPECT_EQ(ErrorOf("jobs:\n  - placement: [1, 2, 1]\n"),
              "rack.yaml:2: key 'jobs.0.placement': host id 1 is listed twice; each host may "
              "appear once");
    EXPECT_EQ(ErrorOf("jobs:\n  - workers: 4\n    placement: [1, 2]\n"),
              "rack.yaml:3: key 'jobs.0.placement': lists 2 host ids but workers is 4 "
              "(rack.yaml:2); give one host id per worker");
    EXPECT_EQ(ErrorOf("jobs:\n  - placement: []\n"),
              "rack.yaml:2: key 'jobs.0.placement': an explicit placement needs at least one host "
              "id");
    EXPECT_EQ(ErrorOf("jobs:\n  - name: a\n  - name: a\n"),
              "rack.yaml:3: key 'jobs.1.name': job name 'a' is already used by jobs.0");
    EXPECT_EQ(ErrorOf("jobs:\n  - name: a/b\n"),
              "rack.yaml:2: key 'jobs.0.name': a job name is used in file names: letters, digits, "
              "'-', '_', '.' only, got 'a/b'");
    EXPECT_EQ(ErrorOf("jobs:\n  - protocol: ''\n"),
              "rack.yaml:2: key 'jobs.0.protocol': a job needs a protocol (switchml, atp, esa, "
              "libra, ring, ps)");
    EXPECT_EQ(ErrorOf("jobs:\n  - workload: {tensor_bytes: 0}\n"),
              "rack.yaml:2: key 'jobs.0.workload.tensor_bytes': a workload needs a model or "
              "tensor_bytes > 0");
    EXPECT_EQ(ErrorOf("name: my rack\n"),
              "rack.yaml:1: key 'name': the name is used as a folder name: letters, digits, '-', "
              "'_', '.' only, got 'my rack'");
    EXPECT_EQ(ErrorOf("switch:\n  ina_tiers: [tor, spine]\n"),
              "rack.yaml:2: key 'switch.ina_tiers.1': a star topology has tiers tor, leaf, got "
              "'spine'");
    EXPECT_EQ(ErrorOf("topology: {type: leaf-spine}\nswitch:\n  ina_tiers: [leaf, spine, tor]\n"),
              "rack.yaml:3: key 'switch.ina_tiers.2': tier 'tor' is listed twice (tor and leaf are "
              "the same tier)");
    EXPECT_EQ(ErrorOf("topology: {type: fat-tree}\nswitch: {ina_tiers: [tor, agg, core]}\n"),
              "no error");
    EXPECT_EQ(ErrorOf("switch: {ina_tiers: []}\n"), "no error");
    // Built-in topologies check host ids at load time already.
    EXPECT_EQ(ErrorOf("jobs:\n  - workers: 9\n"),
              "rack.yaml:2: key 'jobs.0.workers': 9 workers do not fit on 8 hosts");
    EXPECT_EQ(ErrorOf("topology: {hosts: 4}\ntraffic:\n  - hosts: [1, 4]\n"),
              "rack.yaml:3: key 'traffic.0.hosts': host id 4 does not exist: host ids go from 0 to "
              "3 (4 hosts)");
    EXPECT_EQ(ErrorOf("topology: {type: fat-tree, k: 4}\njobs:\n  - placement: [15, 0]\n"),
              "no error");
    EXPECT_EQ(ErrorOf("traffic:\n  - hosts: [3, 3]\n"),
              "rack.yaml:2: key 'traffic.0.hosts': host id 3 is listed twice; each host may appear "
              "once");
    EXPECT_EQ(ErrorOf("traffic:\n  - hosts: [3]\n"),
              "rack.yaml:2: key 'traffic.0.hosts': a permutation needs at least 2 hosts, got 1");
    EXPECT_EQ(ErrorOf("traffic:\n  - {pattern: incast, hosts: [2], dst: 2}\n"),
              "rack.yaml:2: key 'traffic.0.hosts': an incast needs at least one sender besides dst "
              "2");
}

TEST(ScenarioLoader, TopologyFileIsResolvedAgainstTheScenarioFolder)
{
    namespace fs = std::filesystem;
    char tmpl[] = "/tmp/inasim-scenario-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const fs::path dir(tmpl);
    fs::create_directories(dir / "topologies");
    std::ofstream(dir / "topologies" / "two.topo") << "hosts 2\n";
    const std::string yaml = "topology:\n  type: file\n  file: topologies/two.topo\n";
    std::ofstream(dir / "s.yaml") << yaml;
    const Scenario s = ScenarioLoader::Load((dir / "s.yaml").string());
    EXPECT_EQ(s.topology.type, ScenarioTopology::Type::FROM_FILE);
    EXPECT_EQ(s.topology.file, (dir / "topologies" / "two.topo").string());
    EXPECT_EQ(s.topology.GetHostCount(), 0U); // known once the runner reads the file

    try
    {
        ScenarioLoader::LoadString("topology:\n  type: file\n  file: nope.topo\n",
                                   (dir / "t.yaml").string());
        FAIL() << "no error";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(e.GetWhere(), (dir / "t.yaml").string() + ":3");
        EXPECT_EQ(e.GetKey(), "topology.file");
        EXPECT_EQ(e.GetWhat(),
                  "no such file 'nope.topo' (looked for " + (dir / "nope.topo").string() + ", " +
                      (fs::current_path() / "nope.topo").string() + ")");
    }
    EXPECT_EQ(ErrorOf("topology: {type: file}\n"),
              "rack.yaml:1: key 'topology.file': topology type 'file' needs file: the path of a "
              "topology file");
    fs::remove_all(dir);
}

TEST(ScenarioLoader, TopologyFileThroughASymlinkedFolderKeepsItsRealPath)
{
    // A scenario reached through a symlinked folder (the modules symlinked into an ns-3 tree)
    // naming "../topologies/x.topo": "link/../topologies" exists only physically, so the stored
    // path must be the real one, or the effective config would not load again.
    namespace fs = std::filesystem;
    char tmpl[] = "/tmp/inasim-scenario-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const fs::path dir(tmpl);
    fs::create_directories(dir / "real" / "scenarios");
    fs::create_directories(dir / "real" / "topologies");
    std::ofstream(dir / "real" / "topologies" / "two.topo") << "hosts 2\n";
    std::ofstream(dir / "real" / "scenarios" / "s.yaml")
        << "topology:\n  type: file\n  file: ../topologies/two.topo\n";
    fs::create_directories(dir / "tree");
    fs::create_directory_symlink(dir / "real" / "scenarios", dir / "tree" / "scenarios");
    const Scenario s = ScenarioLoader::Load((dir / "tree" / "scenarios" / "s.yaml").string());
    EXPECT_EQ(s.topology.file, fs::canonical(dir / "real" / "topologies" / "two.topo").string());
    const Scenario again =
        ScenarioLoader::LoadString(EffectiveConfigYaml(s), (dir / "effective.yaml").string());
    EXPECT_EQ(again.topology.file, s.topology.file);
    fs::remove_all(dir);
}

TEST(ScenarioLoader, WhereAndHostIdChecksForTheRunner)
{
    const Scenario s = ScenarioLoader::LoadString(R"(seed: 2
topology:
  hosts: 4
jobs:
  - placement: [0, 3]
traffic:
  - {pattern: incast, hosts: [0, 1, 2], dst: 2}
)",
                                                  "rack.yaml");
    EXPECT_EQ(s.Where("topology.hosts"), "rack.yaml:3");
    EXPECT_EQ(s.Where("topology.k"), "rack.yaml:2"); // default: its section's line
    EXPECT_EQ(s.Where("stop_time"), "rack.yaml");    // default outside any section
    EXPECT_EQ(s.Where("jobs.0.placement"), "rack.yaml:5");
    EXPECT_EQ(std::string(s.Error("jobs.0.protocol", "unknown protocol 'x'").what()),
              "rack.yaml:5: key 'jobs.0.protocol': unknown protocol 'x'");

    EXPECT_NO_THROW(s.CheckHostIds(4));
    EXPECT_EQ(ns3::tests::ErrorOf<ScenarioError>(
                  [&] {
                      s.CheckHostIds(3);
                  },
                  "no error"),
              "rack.yaml:5: key 'jobs.0.placement': host id 3 does not exist: host ids go "
              "from 0 to 2 (3 hosts)");
    const Scenario t = ScenarioLoader::LoadString(
        "traffic:\n  - {pattern: incast, dst: 9}\njobs:\n  - {workers: 2}\ntopology: {hosts: 10}\n",
        "rack.yaml");
    EXPECT_EQ(ns3::tests::ErrorOf<ScenarioError>(
                  [&] {
                      t.CheckHostIds(8);
                  },
                  "no error"),
              "rack.yaml:2: key 'traffic.0.dst': host id 9 does not exist: host ids go from 0 "
              "to 7 (8 hosts)");
    EXPECT_EQ(ns3::tests::ErrorOf<ScenarioError>(
                  [&] {
                      t.CheckHostIds(1);
                  },
                  "no error"),
              "rack.yaml:4: key 'jobs.0.workers': 2 workers do not fit on 1 host");
}

TEST(ScenarioLoader, PlannerLevelKeys)
{
    const Scenario s = ScenarioLoader::LoadString(
        "level: planner\nplanner: {programmable: random, fraction: 0.2, capacity_min: 100Gbps, "
        "capacity_max: 3.2Tbps, trials: 8}\n",
        "x.yaml");
    EXPECT_EQ(s.level, Scenario::Level::PLANNER);
    EXPECT_EQ(s.planner.programmable, "random");
    EXPECT_DOUBLE_EQ(s.planner.fraction, 0.2);
    EXPECT_EQ(s.planner.capacityMinBps, 100000000000ULL);
    EXPECT_EQ(s.planner.capacityMaxBps, 3200000000000ULL);
    EXPECT_EQ(s.planner.trials, 8U);
    EXPECT_TRUE(s.planner.repair);
    EXPECT_TRUE(s.planner.linkRows);
    EXPECT_EQ(ScenarioLoader::LoadString("", "d.yaml").level, Scenario::Level::PACKET);
    const std::string bad = ErrorOf("planner: {programmable: some}\n");
    EXPECT_NE(bad.find("key 'planner.programmable': expected tiers"), std::string::npos) << bad;
    const std::string frac = ErrorOf("planner: {fraction: 1.5}\n");
    EXPECT_NE(frac.find("key 'planner.fraction': expected a fraction in (0, 1]"), std::string::npos)
        << frac;
    const std::string level = ErrorOf("level: fluid\n");
    EXPECT_NE(level.find("key 'level'"), std::string::npos) << level;
}

TEST(ScenarioLoader, AggregationCapacityKeys)
{
    const Scenario s = ScenarioLoader::LoadString(
        "switch:\n  aggregation: {capacity: 9Gbps, queue: 64KiB, per_switch: {s1: 20Mpps}}\n",
        "x.yaml",
        {"switch.aggregation.per_switch.s2=2.5Gbps"});
    EXPECT_EQ(s.switchConfig.aggregation.capacity.bps, 9000000000ULL);
    EXPECT_EQ(s.switchConfig.aggregation.capacity.pps, 0ULL);
    EXPECT_EQ(s.switchConfig.aggregation.queueBytes, 65536ULL);
    ASSERT_EQ(s.switchConfig.aggregation.perSwitch.size(), 2U);
    EXPECT_EQ(s.switchConfig.aggregation.perSwitch.at("s1").pps, 20000000ULL);
    EXPECT_EQ(s.switchConfig.aggregation.perSwitch.at("s1").bps, 0ULL);
    EXPECT_EQ(s.switchConfig.aggregation.perSwitch.at("s2").bps, 2500000000ULL);
    // The default is line rate: no capacity anywhere.
    const Scenario d = ScenarioLoader::LoadString("", "d.yaml");
    EXPECT_EQ(d.switchConfig.aggregation.capacity.bps, 0ULL);
    EXPECT_EQ(d.switchConfig.aggregation.capacity.pps, 0ULL);
    EXPECT_TRUE(d.switchConfig.aggregation.perSwitch.empty());
    EXPECT_EQ(d.switchConfig.aggregation.queueBytes, 1048576ULL);

    const std::string bad = ErrorOf("switch:\n  aggregation: {capacity: 9GB}\n");
    EXPECT_NE(bad.find("rack.yaml:2: key 'switch.aggregation.capacity'"), std::string::npos) << bad;
    EXPECT_NE(bad.find("a data rate or a packet rate"), std::string::npos) << bad;
    const std::string badPps = ErrorOf("switch:\n  aggregation: {per_switch: {s1: 2Xpps}}\n");
    EXPECT_NE(badPps.find("key 'switch.aggregation.per_switch.s1'"), std::string::npos) << badPps;
    EXPECT_NE(badPps.find("a packet rate like 20Mpps"), std::string::npos) << badPps;
    const std::string badQueue = ErrorOf("switch:\n  aggregation: {queue: 0}\n");
    EXPECT_NE(badQueue.find("key 'switch.aggregation.queue'"), std::string::npos) << badQueue;
}
