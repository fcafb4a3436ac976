/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// EffectiveConfigYaml: exact text of the defaults, canonical units, determinism, and the round trip
// (loading the effective configuration gives an equal scenario and the same text).

#include "ns3/scenario-loader.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

const char* RICH = R"(name: rich.run-1
seed: 18446744073709551615
check_values: yes
link: p2p
stop_time: 0.5us
topology:
  type: fat-tree
  k: 6
  hosts: 3
  host_link: {rate: 2.5Gbps, delay: 1500ps}
  fabric_link: {rate: 1Tbps, delay: 0}
  loss_rate: 0.001
  queue: {capacity: 1MiB, ecn_threshold: 1024000, ecn_at_hosts: true}
  priority_classes: 2
switch:
  stages: 20
  sram_per_stage: 1.5GiB
  stateful_alus_per_stage: 0
  recirculation: {rate: 400Gbps, latency: 2.5us}
  ina_tiers: [agg, tor, core]
  aggregation: {capacity: 1.5Mpps, queue: 4KiB, per_switch: {agg0: 9Gbps, core1: 20Mpps}}
  params: {MaxPasses: 3, Mode: "a: b"}
routing: ecmp
level: planner
planner: {programmable: random, fraction: 0.25, capacity_min: 100Gbps, capacity_max: 3.2Tbps, trials: 4, repair: false, link_rows: false}
jobs:
  - name: big
    protocol: "yes"
    placement: [4, 0, 7]
    ps_hosts: 2
    workload: {model: resnet50, iterations: 10, batch: 32, note: "[x]"}
    start: 1ms
    params: {PoolSize: 4096, Empty: ""}
  - protocol: ring
    workers: 2
    placement: random
    workload: {tensor_bytes: 1}
traffic:
  - {pattern: incast, hosts: [9, 8], dst: 3, flow_bytes: 1.25MB, start: 7ns}
  - {pattern: all-to-all}
outputs:
  pcap: true
  timeseries_interval: 100us
)";

} // namespace

TEST(ScenarioEffective, DefaultsAsText)
{
    EXPECT_EQ(EffectiveConfigYaml(ScenarioLoader::LoadString("", "default.yaml")),
              R"(# inasim effective configuration: every key after defaults and overrides
name: default
seed: 1
check_values: false
link: fast
stop_time: 0s
topology:
  type: star
  hosts: 8
  k: 4
  hosts_per_tor: 0
  leaves: 4
  spines: 2
  hosts_per_leaf: 8
  file: ""
  host_link: {rate: 100Gbps, delay: 1us}
  fabric_link: {rate: 100Gbps, delay: 1us}
  loss_rate: 0
  queue: {capacity: 1MB, ecn_threshold: 100KB, ecn_at_hosts: false}
  priority_classes: 1
  mtu: 1500B
switch:
  stages: 12
  sram_per_stage: 1280KiB
  stateful_alus_per_stage: 4
  recirculation: {rate: 100Gbps, latency: 1us}
  ina_tiers: [tor]
  aggregation: {capacity: 0, queue: 1MiB, per_switch: {}}
  ina_memory: 0B
  params: {}
routing: ecmp
level: packet
planner:
  programmable: tiers
  fraction: 0.2
  capacity_min: 0
  capacity_max: 0
  trials: 32
  repair: true
  link_rows: true
jobs: []
job_count: 0
traffic: []
outputs:
  pcap: false
  timeseries_interval: 0s
limits:
  no_progress: 10s
events: []
fault_detection: 9900us
)");
}

TEST(ScenarioEffective, EntriesAsText)
{
    const std::string text = EffectiveConfigYaml(
        ScenarioLoader::LoadString("jobs: [{placement: [2, 1]}]\ntraffic: [{hosts: [0, 5]}]\n",
                                   "x.yaml"));
    const std::string jobsAndTraffic = R"(jobs:
  - name: j0
    protocol: switchml
    workers: 2
    placement: [2, 1]
    ps_hosts: 1
    workload:
      model: ""
      tensor_bytes: 100MB
      iterations: 3
    start: 0s
    params: {}
job_count: 0
traffic:
  - pattern: permutation
    hosts: [0, 5]
    flow_bytes: 1MB
    start: 0s
    dst: 0
)";
    EXPECT_NE(text.find(jobsAndTraffic), std::string::npos) << text;
}

TEST(ScenarioEffective, RoundTripGivesAnEqualScenarioAndTheSameText)
{
    const Scenario s = ScenarioLoader::LoadString(RICH, "rich.yaml");
    // Spot checks that the rich file means what it says.
    EXPECT_EQ(s.seed, 18446744073709551615ULL);
    EXPECT_EQ(s.topology.hostLink.rateBps, 2500000000ULL);
    EXPECT_EQ(s.topology.fabricLink.delayPs, 0);
    EXPECT_EQ(s.topology.queue.ecnThresholdBytes, 1024000ULL);
    EXPECT_TRUE(s.topology.queue.ecnAtHosts);
    EXPECT_EQ(s.switchConfig.sramPerStageBytes, 1610612736ULL);
    EXPECT_EQ(s.jobs[0].workers, 3U);
    EXPECT_EQ(s.jobs[0].protocol, "yes");
    EXPECT_EQ(s.jobs[0].params.at("Empty"), "");
    EXPECT_EQ(s.switchConfig.params.at("Mode"), "a: b");

    const std::string text = EffectiveConfigYaml(s);
    for (const char* line : {"stop_time: 500ns",
                             "host_link: {rate: 2500Mbps, delay: 1500ps}",
                             "fabric_link: {rate: 1Tbps, delay: 0s}",
                             "loss_rate: 0.001",
                             "queue: {capacity: 1MiB, ecn_threshold: 1000KiB, ecn_at_hosts: true}",
                             "sram_per_stage: 1536MiB",
                             "ina_tiers: [agg, tor, core]",
                             "flow_bytes: 1250KB",
                             "timeseries_interval: 100us"})
    {
        EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    }
    const Scenario again = ScenarioLoader::LoadString(text, "rich.yaml");
    EXPECT_EQ(again, s);
    EXPECT_EQ(EffectiveConfigYaml(again), text);
}

TEST(ScenarioEffective, RoundTripAfterOverrides)
{
    const std::vector<std::string> overrides = {"jobs.1.workers=5",
                                                "jobs.2.protocol=atp",
                                                "topology.host_link.rate=25Gbps",
                                                "switch.params.Extra=1"};
    const Scenario s = ScenarioLoader::LoadString(RICH, "rich.yaml", overrides);
    const Scenario again = ScenarioLoader::LoadString(EffectiveConfigYaml(s), "other.yaml");
    EXPECT_EQ(again, s);
    EXPECT_EQ(again.jobs.size(), 3U);
    EXPECT_EQ(again.jobs[2].name, "j2");
}

TEST(ScenarioEffective, SameScenarioSameBytes)
{
    const std::string a = EffectiveConfigYaml(ScenarioLoader::LoadString(RICH, "rich.yaml"));
    const std::string b = EffectiveConfigYaml(ScenarioLoader::LoadString(RICH, "rich.yaml"));
    EXPECT_EQ(a, b);
    // Equal scenarios written in different orders and spellings give the same text.
    const std::string c = EffectiveConfigYaml(
        ScenarioLoader::LoadString("topology: {queue: {ecn_threshold: 0.1MB}, hosts: 8}\nseed: 1\n",
                                   "same.yaml"));
    const std::string d = EffectiveConfigYaml(ScenarioLoader::LoadString(
        "seed: 1\ntopology:\n  hosts: 8\n  queue:\n    ecn_threshold: 100000\n",
        "same.yaml"));
    EXPECT_EQ(c, d);
}

TEST(ScenarioEffective, ScenarioEqualityIgnoresOrigins)
{
    const Scenario a = ScenarioLoader::LoadString("seed: 1\n", "a.yaml", {"name=x"});
    const Scenario b = ScenarioLoader::LoadString("name: x\n", "b.yaml");
    EXPECT_EQ(a, b);
    Scenario c = b;
    c.topology.queue.capacityBytes += 1;
    EXPECT_NE(c, b);
}
