/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// SweepExpander: exact run order (product, last axis fastest, repeats innermost), zip groups,
// ranges, run ids, seeds, JSON, and errors that name the sweep line and the axis.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/scenario-error.h"
#include "ns3/sweep-expander.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const char* BASE = R"(name: rack
seed: 10
topology: {type: star, hosts: 16}
jobs:
  - protocol: switchml
    workers: 4
)";

/// A temporary folder holding scenarios/base.yaml; sweeps are written to sweeps/.
class ScenarioSweep : public ::testing::Test
{
  protected:
    void SetUp() override
    {
        char tmpl[] = "/tmp/inasim-sweep-test-XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        m_dir = tmpl;
        std::filesystem::create_directories(m_dir / "scenarios");
        std::filesystem::create_directories(m_dir / "sweeps");
        std::ofstream(m_dir / "scenarios" / "base.yaml") << BASE;
    }

    void TearDown() override
    {
        std::filesystem::remove_all(m_dir);
    }

    std::string Write(const std::string& text)
    {
        const auto path = m_dir / "sweeps" / "s.yaml";
        std::ofstream(path) << text;
        return path.string();
    }

    SweepPlan Expand(const std::string& text)
    {
        return SweepExpander::Expand(Write(text));
    }

    std::string ErrorOf(const std::string& text)
    {
        return ns3::tests::ErrorOf<ScenarioError>(
            [&] {
                Expand(text);
            },
            "no error");
    }

    std::filesystem::path m_dir;
};

std::vector<std::string>
Ids(const SweepPlan& plan)
{
    std::vector<std::string> ids;
    for (const auto& r : plan.runs)
    {
        ids.push_back(r.id);
    }
    return ids;
}

} // namespace

TEST_F(ScenarioSweep, ProductInFileOrderWithRepeatsInnermost)
{
    const SweepPlan plan = Expand(R"(name: workers-vs-protocol
base: ../scenarios/base.yaml
repeats: 2
axes:
  jobs.0.protocol: [switchml, atp, ring]
  jobs.0.workers: [4, 8]
)");
    EXPECT_EQ(plan.name, "workers-vs-protocol");
    EXPECT_EQ(plan.baseFile, (m_dir / "scenarios" / "base.yaml").string());
    EXPECT_EQ(plan.repeats, 2U);
    EXPECT_EQ(plan.baseSeed, 10U);
    EXPECT_EQ(plan.axisKeys, (std::vector<std::string>{"jobs.0.protocol", "jobs.0.workers"}));
    EXPECT_EQ(Ids(plan),
              (std::vector<std::string>{"r0000-protocol=switchml-workers=4-seed=10",
                                        "r0001-protocol=switchml-workers=4-seed=11",
                                        "r0002-protocol=switchml-workers=8-seed=10",
                                        "r0003-protocol=switchml-workers=8-seed=11",
                                        "r0004-protocol=atp-workers=4-seed=10",
                                        "r0005-protocol=atp-workers=4-seed=11",
                                        "r0006-protocol=atp-workers=8-seed=10",
                                        "r0007-protocol=atp-workers=8-seed=11",
                                        "r0008-protocol=ring-workers=4-seed=10",
                                        "r0009-protocol=ring-workers=4-seed=11",
                                        "r0010-protocol=ring-workers=8-seed=10",
                                        "r0011-protocol=ring-workers=8-seed=11"}));
    const SweepRun& r = plan.runs[7];
    EXPECT_EQ(r.index, 7U);
    EXPECT_EQ(r.repeat, 1U);
    EXPECT_EQ(r.seed, 11U);
    EXPECT_EQ(r.overrides,
              (std::vector<std::string>{"jobs.0.protocol=atp", "jobs.0.workers=8", "seed=11"}));
    EXPECT_EQ(r.values,
              (std::vector<std::pair<std::string, std::string>>{{"jobs.0.protocol", "atp"},
                                                                {"jobs.0.workers", "8"}}));
}

TEST_F(ScenarioSweep, ZipGroupsMoveTogetherAndCrossTheAxes)
{
    const SweepPlan plan = Expand(R"(base: ../scenarios/base.yaml
axes:
  jobs.0.protocol: [switchml, atp]
zip:
  - {topology.hosts: [4, 8, 16], topology.host_link.rate: [10Gbps, 25Gbps, 100Gbps]}
)");
    EXPECT_EQ(plan.name, "s"); // the sweep file's stem
    EXPECT_EQ(plan.repeats, 1U);
    EXPECT_EQ(Ids(plan),
              (std::vector<std::string>{"r0000-protocol=switchml-hosts=4-rate=10Gbps",
                                        "r0001-protocol=switchml-hosts=8-rate=25Gbps",
                                        "r0002-protocol=switchml-hosts=16-rate=100Gbps",
                                        "r0003-protocol=atp-hosts=4-rate=10Gbps",
                                        "r0004-protocol=atp-hosts=8-rate=25Gbps",
                                        "r0005-protocol=atp-hosts=16-rate=100Gbps"}));
    EXPECT_EQ(plan.runs[4].overrides,
              (std::vector<std::string>{"jobs.0.protocol=atp",
                                        "topology.hosts=8",
                                        "topology.host_link.rate=25Gbps",
                                        "seed=10"}));
    EXPECT_EQ(plan.runs[4].seed, 10U);
}

TEST_F(ScenarioSweep, Ranges)
{
    const SweepPlan mul = Expand("base: ../scenarios/base.yaml\n"
                                 "axes:\n  jobs.0.workers: {range: [2, 16], mul: 2}\n");
    EXPECT_EQ(Ids(mul),
              (std::vector<std::string>{"r0000-workers=2",
                                        "r0001-workers=4",
                                        "r0002-workers=8",
                                        "r0003-workers=16"}));
    const SweepPlan step =
        Expand("base: ../scenarios/base.yaml\n"
               "axes:\n  topology.host_link.rate: {range: [10Gbps, 40Gbps], step: 10Gbps}\n");
    EXPECT_EQ(Ids(step),
              (std::vector<std::string>{"r0000-rate=10Gbps",
                                        "r0001-rate=20Gbps",
                                        "r0002-rate=30Gbps",
                                        "r0003-rate=40Gbps"}));
    EXPECT_EQ(step.runs[2].overrides[0], "topology.host_link.rate=30Gbps");
    const SweepPlan uneven = Expand("base: ../scenarios/base.yaml\n"
                                    "axes:\n  topology.hosts: {range: [4, 13], step: 4}\n");
    EXPECT_EQ(Ids(uneven),
              (std::vector<std::string>{"r0000-hosts=4", "r0001-hosts=8", "r0002-hosts=12"}));
    const SweepPlan ones = Expand("base: ../scenarios/base.yaml\n"
                                  "zip:\n  - {jobs.0.workers: {range: [1, 3]}, seed: [7, 8, 9]}\n");
    EXPECT_EQ(Ids(ones),
              (std::vector<std::string>{"r0000-workers=1-seed=7",
                                        "r0001-workers=2-seed=8",
                                        "r0002-workers=3-seed=9"}));
    EXPECT_EQ(ones.runs[1].seed, 8U); // seed swept: no seed=N added
    EXPECT_EQ(ones.runs[1].overrides, (std::vector<std::string>{"jobs.0.workers=2", "seed=8"}));
}

TEST_F(ScenarioSweep, RunIdsStaySafeAndDistinct)
{
    const SweepPlan plan = Expand(R"(base: ../scenarios/base.yaml
axes:
  jobs.0.workers: [2]
  jobs.1.workers: [3]
  switch.ina_tiers: [[tor], []]
  jobs.0.params.Note: ["a b/c", "x: y"]
)");
    EXPECT_EQ(Ids(plan),
              (std::vector<std::string>{"r0000-0.workers=2-1.workers=3-ina_tiers=tor-Note=a_b_c",
                                        "r0001-0.workers=2-1.workers=3-ina_tiers=tor-Note=x_y",
                                        "r0002-0.workers=2-1.workers=3-ina_tiers=_-Note=a_b_c",
                                        "r0003-0.workers=2-1.workers=3-ina_tiers=_-Note=x_y"}));
    EXPECT_EQ(plan.runs[1].overrides,
              (std::vector<std::string>{"jobs.0.workers=2",
                                        "jobs.1.workers=3",
                                        "switch.ina_tiers=[tor]",
                                        "jobs.0.params.Note=\"x: y\"",
                                        "seed=10"}));
    EXPECT_EQ(plan.runs[1].values[3].second, "x: y");
    EXPECT_EQ(plan.runs[2].values[2].second, "[]");

    std::string many = "base: ../scenarios/base.yaml\naxes:\n  jobs.0.params.Long: [";
    many += std::string(200, 'v') + "]\n";
    const SweepPlan longOne = Expand(many);
    EXPECT_EQ(longOne.runs[0].id.size(), 96U);
    EXPECT_EQ(longOne.runs[0].id.substr(0, 11), "r0000-Long=");
}

TEST_F(ScenarioSweep, Json)
{
    const SweepPlan plan = Expand(R"(name: j
base: ../scenarios/base.yaml
repeats: 2
axes:
  jobs.0.workers: [4, 8]
)");
    const nlohmann::ordered_json j = plan.ToJson();
    EXPECT_EQ(j.dump(),
              "{\"name\":\"j\",\"sweep_file\":\"" + (m_dir / "sweeps" / "s.yaml").string() +
                  "\",\"base\":\"" + (m_dir / "scenarios" / "base.yaml").string() +
                  "\",\"repeats\":2,\"base_seed\":10,\"axes\":[\"jobs.0.workers\"],\"runs\":["
                  "{\"id\":\"r0000-workers=4-seed=10\",\"index\":0,\"repeat\":0,\"seed\":10,"
                  "\"values\":{\"jobs.0.workers\":\"4\"},\"overrides\":[\"jobs.0.workers=4\","
                  "\"seed=10\"]},"
                  "{\"id\":\"r0001-workers=4-seed=11\",\"index\":1,\"repeat\":1,\"seed\":11,"
                  "\"values\":{\"jobs.0.workers\":\"4\"},\"overrides\":[\"jobs.0.workers=4\","
                  "\"seed=11\"]},"
                  "{\"id\":\"r0002-workers=8-seed=10\",\"index\":2,\"repeat\":0,\"seed\":10,"
                  "\"values\":{\"jobs.0.workers\":\"8\"},\"overrides\":[\"jobs.0.workers=8\","
                  "\"seed=10\"]},"
                  "{\"id\":\"r0003-workers=8-seed=11\",\"index\":3,\"repeat\":1,\"seed\":11,"
                  "\"values\":{\"jobs.0.workers\":\"8\"},\"overrides\":[\"jobs.0.workers=8\","
                  "\"seed=11\"]}]}");
}

TEST_F(ScenarioSweep, NoAxesIsJustRepeats)
{
    const SweepPlan plan = Expand("base: ../scenarios/base.yaml\nrepeats: 3\n");
    EXPECT_EQ(Ids(plan),
              (std::vector<std::string>{"r0000-seed=10", "r0001-seed=11", "r0002-seed=12"}));
}

TEST_F(ScenarioSweep, Errors)
{
    const std::string sweep = (m_dir / "sweeps" / "s.yaml").string();
    EXPECT_EQ(
        ErrorOf("base: ../scenarios/base.yaml\nzip:\n"
                "  - {topology.hosts: [4, 8, 16], topology.host_link.rate: [10Gbps, 25Gbps]}\n"),
        sweep + ":3: key 'zip.0': the lists of a zip group move together and need the same "
                "length, got topology.hosts: 3 values, topology.host_link.rate: 2 values");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n  jobs.0.workers: [4, 0]\n"),
              sweep + ":3: key 'axes.jobs.0.workers': run r0001-workers=0: override "
                      "'jobs.0.workers=0': key 'jobs.0.workers': expected an integer >= 1, got 0");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n  topology.hostz: [4]\n"),
              sweep + ":3: key 'axes.topology.hostz': run r0000-hostz=4: override "
                      "'topology.hostz=4': key 'topology.hostz': unknown key (did you mean "
                      "'hosts'?); valid keys here: type, hosts, k, hosts_per_tor, leaves, spines, "
                      "hosts_per_leaf, file, host_link, fabric_link, loss_rate, queue, "
                      "priority_classes, mtu");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n  topology.hosts: []\n"),
              sweep + ":3: key 'axes.topology.hosts': expected a non-empty list of values or a "
                      "range like {range: [4, 64], mul: 2}, got a list");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\nrepeats: 2\naxes:\n  seed: [1, 2]\n"),
              sweep + ":4: key 'seed': seed is swept and repeats is 2: use one or the other");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n  topology.hosts: [4]\nzip:\n"
                      "  - {topology.hosts: [8]}\n"),
              sweep + ":5: key 'zip.0.topology.hosts': key 'topology.hosts' is already swept (" +
                  sweep + ":3)");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n"
                      "  jobs.0.workers: {range: [64, 4], mul: 2}\n"),
              sweep + ":3: key 'axes.jobs.0.workers': the range goes down: [64, 4]");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n"
                      "  jobs.0.workers: {range: [4, 64], mul: 1}\n"),
              sweep + ":3: key 'axes.jobs.0.workers': mul needs a whole factor >= 2 and a range "
                      "starting above 0, got \"1\"");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n"
                      "  topology.host_link.rate: {range: [10Gbps, 40Mbps], step: 10Gbps}\n"),
              sweep + ":3: key 'axes.topology.host_link.rate': range ends must be whole numbers "
                      "with the same unit (if any), like [4, 64] or [10Gbps, 40Gbps], got [10Gbps, "
                      "40Mbps]");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n"
                      "  jobs.0.workers: {range: [1, 4], by: 2}\n"),
              sweep + ":3: key 'axes.jobs.0.workers': unknown key 'by' in a range; valid keys "
                      "here: range, step, mul");
    EXPECT_EQ(ErrorOf("axes: {seed: [1]}\n"),
              sweep + ": key 'base': a sweep needs base: the scenario file to vary, relative to "
                      "the sweep file");
    EXPECT_EQ(ErrorOf("base: nothere.yaml\n"),
              sweep + ":1: cannot read the base scenario '" +
                  (m_dir / "sweeps" / "nothere.yaml").string() + "': No such file or directory");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\nrepeat: 3\n"),
              sweep + ":2: key 'repeat': unknown key; valid keys here: name, base, repeats, axes, "
                      "zip");
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\nrepeats: 0\n"),
              sweep + ":2: key 'repeats': expected an integer from 1 to 10000, got \"0\"");
}

TEST_F(ScenarioSweep, ErrorsFromTheBaseNameTheRunAndItsOverrides)
{
    // Too few hosts for the base's 4 workers: the base line is blamed, the run is named.
    const std::string sweep = (m_dir / "sweeps" / "s.yaml").string();
    const std::string base = (m_dir / "scenarios" / "base.yaml").string();
    EXPECT_EQ(ErrorOf("base: ../scenarios/base.yaml\naxes:\n  topology.hosts: [8, 2]\n"),
              sweep + ": run r0001-hosts=2 (topology.hosts=2 seed=10): " + base +
                  ":6: key 'jobs.0.workers': 4 workers do not fit on 2 hosts");
}

TEST_F(ScenarioSweep, CrossKeyErrorsNameTheRun)
{
    // Each value is fine alone; the combination breaks the base's explicit-worker rule.
    std::ofstream(m_dir / "scenarios" / "placed.yaml")
        << "jobs:\n  - workers: 2\n    placement: [0, 1]\n";
    const std::string sweep = (m_dir / "sweeps" / "s.yaml").string();
    const std::string placed = (m_dir / "scenarios" / "placed.yaml").string();
    EXPECT_EQ(ErrorOf("base: ../scenarios/placed.yaml\naxes:\n  topology.queue.capacity: [1MB]\n"
                      "  jobs.0.placement: [[0, 1, 2]]\n"),
              sweep +
                  ":4: key 'axes.jobs.0.placement': run r0000-capacity=1MB-placement=0_1_2: "
                  "override 'jobs.0.placement=[0, 1, 2]': key 'jobs.0.placement': lists 3 host "
                  "ids but workers is 2 (" +
                  placed + ":2); give one host id per worker");
}

TEST_F(ScenarioSweep, JobCountAxisOverAZipOfEveryJob)
{
    // Every job's protocol moves together in a zip group; job_count drops the jobs a run does not
    // use, after the zip set them (ESA paper Figure 8: 1 to 8 jobs, every protocol).
    std::ofstream(m_dir / "scenarios" / "two.yaml") << R"(topology: {type: star, hosts: 16}
jobs:
  - {protocol: switchml, workers: 4}
  - {protocol: switchml, workers: 4}
)";
    const SweepPlan plan = Expand(R"(base: ../scenarios/two.yaml
axes:
  job_count: [1, 2]
zip:
  - {jobs.0.protocol: [atp, esa], jobs.1.protocol: [atp, esa]}
)");
    EXPECT_EQ(Ids(plan),
              (std::vector<std::string>{"r0000-job_count=1-0.protocol=atp-1.protocol=atp",
                                        "r0001-job_count=1-0.protocol=esa-1.protocol=esa",
                                        "r0002-job_count=2-0.protocol=atp-1.protocol=atp",
                                        "r0003-job_count=2-0.protocol=esa-1.protocol=esa"}));
    EXPECT_EQ(ErrorOf(R"(base: ../scenarios/two.yaml
axes:
  job_count: [1, 3]
)")
                      .find("key 'job_count': asks for the first 3 jobs but 'jobs' lists 2") !=
                  std::string::npos,
              true);
}
