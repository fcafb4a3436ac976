/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// KEY=VALUE overrides: every form (scalars, sections, lists, list indices, params), their order,
// and errors that name the override.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/scenario-loader.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* BASE = R"(name: rack
topology:
  type: fat-tree
  k: 4
  host_link: {rate: 100Gbps, delay: 2us}
jobs:
  - protocol: switchml
    workers: 8
    params: {PoolSize: 512, Window: 4}
  - protocol: atp
    workers: 4
traffic:
  - {pattern: permutation, hosts: [0, 1, 2, 3]}
)";

Scenario
Load(const std::vector<std::string>& overrides)
{
    return ScenarioLoader::LoadString(BASE, "rack.yaml", overrides);
}

std::string
ErrorOf(const std::vector<std::string>& overrides)
{
    return ns3::tests::ErrorOf<ScenarioError>(
        [&] {
            Load(overrides);
        },
        "no error");
}

} // namespace

TEST(ScenarioOverride, ScalarsAndNestedKeys)
{
    const Scenario s = Load({"topology.k=8", "seed=42", "check_values=true", "stop_time=1ms"});
    EXPECT_EQ(s.topology.k, 8U);
    EXPECT_EQ(s.seed, 42U);
    EXPECT_TRUE(s.checkValues);
    EXPECT_EQ(s.stopTimePs, 1000000000);
    EXPECT_EQ(s.Where("topology.k"), "override 'topology.k=8'");
    EXPECT_EQ(s.Where("topology.type"), "rack.yaml:3");

    // A key inside a flow section: the section's other keys stay as the file has them.
    const Scenario t = Load({"topology.host_link.rate=25Gbps"});
    EXPECT_EQ(t.topology.hostLink.rateBps, 25000000000ULL);
    EXPECT_EQ(t.topology.hostLink.delayPs, 2000000);
    // A key the file does not mention.
    const Scenario u = Load({"switch.recirculation.latency=500ns", "outputs.pcap=yes"});
    EXPECT_EQ(u.switchConfig.recirculation.latencyPs, 500000);
    EXPECT_TRUE(u.outputs.pcap);
}

TEST(ScenarioOverride, WholeSectionsAndListsAsYamlFlow)
{
    const Scenario s =
        Load({"switch.ina_tiers=[tor,agg]", "topology.fabric_link={rate: 40Gbps, delay: 3us}"});
    EXPECT_EQ(s.switchConfig.inaTiers, (std::vector<std::string>{"tor", "agg"}));
    EXPECT_EQ(s.topology.fabricLink.rateBps, 40000000000ULL);
    EXPECT_EQ(s.topology.fabricLink.delayPs, 3000000);

    const Scenario t = Load({"jobs=[{protocol: ring, workers: 2}]"});
    ASSERT_EQ(t.jobs.size(), 1U);
    EXPECT_EQ(t.jobs[0].protocol, "ring");
    EXPECT_EQ(t.jobs[0].workers, 2U);
    EXPECT_TRUE(t.jobs[0].params.empty()); // a whole list replaces the old entries
    EXPECT_EQ(t.Where("jobs.0.params.PoolSize"), "override 'jobs=[{protocol: ring, workers: 2}]'");
}

TEST(ScenarioOverride, ListIndices)
{
    const Scenario s = Load({"jobs.0.workers=16", "jobs.1.protocol=esa"});
    EXPECT_EQ(s.jobs[0].workers, 16U);
    EXPECT_EQ(s.jobs[0].protocol, "switchml");
    EXPECT_EQ(s.jobs[1].protocol, "esa");
    EXPECT_EQ(s.jobs[1].workers, 4U);

    // One past the end appends an entry with defaults.
    const Scenario t = Load({"jobs.2.protocol=ring", "jobs.2.workers=3"});
    ASSERT_EQ(t.jobs.size(), 3U);
    EXPECT_EQ(t.jobs[2].name, "j2");
    EXPECT_EQ(t.jobs[2].protocol, "ring");
    EXPECT_EQ(t.jobs[2].workers, 3U);
    EXPECT_EQ(t.jobs[2].workload.tensorBytes, 100000000ULL);

    // Lists of values too; the default [tor] counts as the existing list.
    const Scenario u = Load({"switch.ina_tiers.1=agg", "traffic.0.hosts.2=7"});
    EXPECT_EQ(u.switchConfig.inaTiers, (std::vector<std::string>{"tor", "agg"}));
    EXPECT_EQ(u.traffic[0].hosts, (std::vector<uint32_t>{0, 1, 7, 3}));

    // Jobs on a scenario without any.
    const Scenario v = ScenarioLoader::LoadString("", "x.yaml", {"jobs.0.protocol=atp"});
    ASSERT_EQ(v.jobs.size(), 1U);
    EXPECT_EQ(v.jobs[0].protocol, "atp");
    EXPECT_EQ(v.jobs[0].name, "j0");

    EXPECT_EQ(ErrorOf({"jobs.3.workers=2"}),
              "override 'jobs.3.workers=2': key 'jobs.3': index 3 is past the end: the list has 2 "
              "entries (index 2 appends one)");
    EXPECT_EQ(ErrorOf({"jobs.x.workers=2"}),
              "override 'jobs.x.workers=2': key 'jobs.x': 'jobs' is a list: expected an entry "
              "index, got 'x'");
    EXPECT_EQ(ErrorOf({"jobs.0.placement.0=1"}),
              "override 'jobs.0.placement.0=1': key 'jobs.0.placement': the placement is "
              "'packed', not a list of host ids: give the whole list, e.g. "
              "jobs.0.placement=[0,1,2,3]");
}

TEST(ScenarioOverride, ExplicitPlacementAndWorkers)
{
    // jobs.1 sets workers: 4 in the file, so a placement must list 4 hosts, or change workers too.
    EXPECT_EQ(ErrorOf({"jobs.1.placement=[5, 6]"}),
              "override 'jobs.1.placement=[5, 6]': key 'jobs.1.placement': lists 2 host ids but "
              "workers is 4 (rack.yaml:11); give one host id per worker");
    const Scenario s = Load({"jobs.1.placement=[5, 6]", "jobs.1.workers=2"});
    EXPECT_EQ(s.jobs[1].placement.kind, ScenarioPlacement::Kind::EXPLICIT);
    EXPECT_EQ(s.jobs[1].placement.hosts, (std::vector<uint32_t>{5, 6}));
    EXPECT_EQ(s.jobs[1].workers, 2U);
    const Scenario t = Load({"jobs.1.placement=[5, 6, 7, 8]", "jobs.1.placement.0=9"});
    EXPECT_EQ(t.jobs[1].placement.hosts, (std::vector<uint32_t>{9, 6, 7, 8}));
    const Scenario u = Load({"jobs.1.placement=[5, 6, 7, 8]", "jobs.1.placement=random"});
    EXPECT_EQ(u.jobs[1].placement.kind, ScenarioPlacement::Kind::RANDOM);
    EXPECT_TRUE(u.jobs[1].placement.hosts.empty());
}

TEST(ScenarioOverride, Params)
{
    const Scenario s = Load({"jobs.0.params.PoolSize=4096", "jobs.1.params.Window=8"});
    EXPECT_EQ(s.jobs[0].params,
              (std::map<std::string, std::string>{{"PoolSize", "4096"}, {"Window", "4"}}));
    EXPECT_EQ(s.jobs[1].params, (std::map<std::string, std::string>{{"Window", "8"}}));
    // Values keep everything after the first '='.
    const Scenario t = Load({"jobs.0.params.Expr=a=b", "switch.params.Mode=fast"});
    EXPECT_EQ(t.jobs[0].params.at("Expr"), "a=b");
    EXPECT_EQ(t.switchConfig.params.at("Mode"), "fast");
    // Workload extras and an emptied model.
    const Scenario u = Load({"jobs.0.workload.layers=12", "jobs.0.workload.model="});
    EXPECT_EQ(u.jobs[0].workload.extra.at("layers"), "12");
    EXPECT_EQ(u.jobs[0].workload.model, "");
}

TEST(ScenarioOverride, LaterOverridesWin)
{
    const Scenario s = Load({"topology.k=8", "topology.k=6"});
    EXPECT_EQ(s.topology.k, 6U);
    EXPECT_EQ(s.Where("topology.k"), "override 'topology.k=6'");
}

TEST(ScenarioOverride, ErrorsNameTheOverride)
{
    // Every refusal names the override and the key it set.
    const std::vector<std::pair<std::vector<std::string>, std::string>> refusals = {
        {{"topology.k=odd"},
         "override 'topology.k=odd': key 'topology.k': expected a non-negative integer, got "
         "\"odd\""},
        {{"topology.k=5"},
         "override 'topology.k=5': key 'topology.k': a fat-tree needs an even k >= 4, got 5"},
        {{"topology.bogus=1"},
         "override 'topology.bogus=1': key 'topology.bogus': unknown key; valid keys here: "
         "type, hosts, k, hosts_per_tor, leaves, spines, hosts_per_leaf, file, host_link, "
         "fabric_link, loss_rate, queue, priority_classes, mtu"},
        {{"jobs.0.workers=0"},
         "override 'jobs.0.workers=0': key 'jobs.0.workers': expected an integer >= 1, got 0"},
        {{"topology.host_link.rate=25GB"},
         "override 'topology.host_link.rate=25GB': key 'topology.host_link.rate': expected a "
         "data rate like 100Gbps (units: bps, Kbps, Mbps, Gbps, Tbps), got \"25GB\""},
        {{"topology.queue.ecn_threshold=2MB"},
         "override 'topology.queue.ecn_threshold=2MB': key 'topology.queue.ecn_threshold': "
         "ecn_threshold 2MB is above the queue capacity 1MB"},
        {{"topology.k.x=1"},
         "override 'topology.k.x=1': key 'topology.k': expected a non-negative integer, got "
         "a section of keys"},
        {{"topology.k"}, "override 'topology.k': expected KEY=VALUE, e.g. topology.k=8"},
        {{"topology..k=3"},
         "override 'topology..k=3': expected KEY=VALUE with KEY a dotted path of names and "
         "list indices, e.g. jobs.0.workers=16; got key 'topology..k'"},
        {{"=3"},
         "override '=3': expected KEY=VALUE with KEY a dotted path of names and list "
         "indices, e.g. jobs.0.workers=16; got key ''"},
        {{"switch.ina_tiers=[tor"},
         "override 'switch.ina_tiers=[tor': key 'switch.ina_tiers': the value is not valid "
         "YAML: end of sequence flow not found"},
        {{"traffic.0.hosts=all", "traffic.0.hosts.1=2"},
         "override 'traffic.0.hosts.1=2': key 'traffic.0.hosts': hosts is 'all', not a list: "
         "give the whole list, e.g. traffic.0.hosts=[0,1,2]"},
    };
    for (const auto& [overrides, error] : refusals)
    {
        EXPECT_EQ(ErrorOf(overrides), error);
    }
    // A rule between two keys blames the one the last layer set.
    EXPECT_EQ(ns3::tests::ErrorOf<ScenarioError>(
                  [&] {
                      ScenarioLoader::LoadString("topology:\n  queue: {ecn_threshold: 50KB}\n",
                                                 "q.yaml",
                                                 {"topology.queue.capacity=40KB"});
                  },
                  "no error"),
              "override 'topology.queue.capacity=40KB': key 'topology.queue.capacity': "
              "ecn_threshold 50KB is above the queue capacity 40KB");
}

TEST(ScenarioOverride, JobCountRunsTheFirstJobs)
{
    // The file lists two jobs; job_count keeps the first N, after every override.
    const Scenario one = Load({"job_count=1", "jobs.1.protocol=esa"});
    ASSERT_EQ(one.jobs.size(), 1U);
    EXPECT_EQ(one.jobs[0].protocol, "switchml");
    EXPECT_EQ(one.jobCount, 1U);
    const Scenario all = Load({"jobs.1.protocol=esa"});
    ASSERT_EQ(all.jobs.size(), 2U);
    EXPECT_EQ(all.jobs[1].protocol, "esa");
    EXPECT_EQ(Load({"job_count=2"}).jobs.size(), 2U);
    EXPECT_EQ(Load({"job_count=0"}).jobs.size(), 2U); // 0: all
    // A job appended by an override counts.
    EXPECT_EQ(Load({"jobs.2.protocol=ring", "job_count=3"}).jobs.size(), 3U);

    // The effective configuration holds the jobs that run and loads back to the same scenario.
    const Scenario again = ScenarioLoader::LoadString(EffectiveConfigYaml(one), "config.yaml", {});
    EXPECT_EQ(again, one);

    EXPECT_EQ(ErrorOf({"job_count=3"}),
              "override 'job_count=3': key 'job_count': asks for the first 3 jobs but 'jobs' "
              "lists 2; expected 0 (all) up to 2");
    EXPECT_EQ(ErrorOf({"job_count=-1"}).find("key 'job_count'") != std::string::npos, true);
}
