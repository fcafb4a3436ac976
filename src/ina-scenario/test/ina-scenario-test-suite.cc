/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The scenario files shipped in examples/scenarios/ load, validate and survive a round trip through
// their effective configuration. (Parser details are covered by the GoogleTest files
// test/gtest/scenario-*-test.cc.)

#include "../../ina-fabric/test/error-of.h"

#include "ns3/ina-test-suite.h"
#include "ns3/scenario-loader.h"
#include "ns3/test.h"

#include <algorithm>
#include <filesystem>

using namespace ns3;

/**
 * \ingroup ina-scenario
 * examples/scenarios/traffic.yaml, the plain-traffic example (the fabric smoke tests run it): a
 * star of 8 hosts with one permutation of 1MB flows and no jobs.
 */
class InaScenarioDefaultFileTestCase : public TestCase
{
  public:
    InaScenarioDefaultFileTestCase()
        : TestCase("traffic.yaml is a star of 8 hosts with a permutation of 1MB flows")
    {
    }

  private:
    void DoRun() override
    {
        SetDataDir(NS_TEST_SOURCEDIR);
        const std::string path = CreateDataDirFilename("../../../examples/scenarios/traffic.yaml");
        NS_TEST_ASSERT_MSG_EQ(std::filesystem::is_regular_file(path), true, "missing " << path);
        Scenario s;
        try
        {
            s = ScenarioLoader::Load(path);
        }
        catch (const ScenarioError& e)
        {
            NS_TEST_ASSERT_MSG_EQ(true, false, e.what());
        }
        NS_TEST_EXPECT_MSG_EQ(s.name, "traffic", "scenario name");
        NS_TEST_EXPECT_MSG_EQ(s.seed, 1, "seed");
        NS_TEST_EXPECT_MSG_EQ((s.topology.type == ScenarioTopology::Type::STAR), true, "type");
        NS_TEST_EXPECT_MSG_EQ(s.topology.GetHostCount(), 8, "hosts");
        NS_TEST_EXPECT_MSG_EQ(s.topology.hostLink.rateBps, 100000000000ULL, "host link rate");
        NS_TEST_EXPECT_MSG_EQ(s.topology.hostLink.delayPs, 1000000, "host link delay");
        NS_TEST_EXPECT_MSG_EQ(s.jobs.size(), 0, "no jobs");
        NS_TEST_ASSERT_MSG_EQ(s.traffic.size(), 1, "one traffic entry");
        NS_TEST_EXPECT_MSG_EQ((s.traffic[0].pattern == ScenarioTraffic::Pattern::PERMUTATION),
                              true,
                              "pattern");
        NS_TEST_EXPECT_MSG_EQ(s.traffic[0].allHosts, true, "all hosts");
        NS_TEST_EXPECT_MSG_EQ(s.traffic[0].flowBytes, 1000000, "1MB flows");
        NS_TEST_EXPECT_MSG_EQ(s.traffic[0].startPs, 0, "start");
        NS_TEST_EXPECT_MSG_EQ(tests::Throws<ScenarioError>([&] {
                                  s.CheckHostIds(s.topology.GetHostCount());
                              }),
                              false,
                              "host ids fit the topology");
    }
};

/**
 * \ingroup ina-scenario
 * Every YAML file in examples/scenarios/ loads, and loading its effective configuration gives the
 * same scenario and the same text again.
 */
class InaScenarioExamplesTestCase : public TestCase
{
  public:
    InaScenarioExamplesTestCase()
        : TestCase("every shipped scenario loads and round-trips")
    {
    }

  private:
    void DoRun() override
    {
        namespace fs = std::filesystem;
        SetDataDir(NS_TEST_SOURCEDIR);
        const fs::path dir = CreateDataDirFilename("../../../examples/scenarios");
        NS_TEST_ASSERT_MSG_EQ(fs::is_directory(dir), true, "missing " << dir);
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(dir))
        {
            if (entry.path().extension() == ".yaml")
            {
                files.push_back(entry.path());
            }
        }
        std::sort(files.begin(), files.end());
        NS_TEST_ASSERT_MSG_GT(files.size(), 0, "no scenario files in " << dir);
        for (const auto& file : files)
        {
            std::string problem;
            try
            {
                const Scenario s = ScenarioLoader::Load(file.string());
                const std::string text = EffectiveConfigYaml(s);
                const Scenario again = ScenarioLoader::LoadString(text, file.string());
                NS_TEST_EXPECT_MSG_EQ((again == s), true, file << ": round trip changed it");
                NS_TEST_EXPECT_MSG_EQ(EffectiveConfigYaml(again), text, file << ": text changed");
            }
            catch (const ScenarioError& e)
            {
                problem = e.what();
            }
            NS_TEST_EXPECT_MSG_EQ(problem, "", file << " does not load");
        }
    }
};

/**
 * \ingroup ina-scenario
 * Events of every kind survive the effective config: each written with the keys its kind takes,
 * so that config.yaml of a run with faults loads again to the same scenario (it used to write
 * every key, e.g. a switch_fail with `link: []`, which loading refuses).
 */
class InaScenarioEventsRoundTripTestCase : public TestCase
{
  public:
    InaScenarioEventsRoundTripTestCase()
        : TestCase("events of every kind round-trip through the effective config")
    {
    }

  private:
    void DoRun() override
    {
        const std::string yaml = R"(name: events
topology: {type: leaf-spine, leaves: 2, spines: 2, hosts_per_leaf: 2}
jobs:
  - {protocol: ring, workers: 4, workload: {tensor_bytes: 1MB}}
events:
  - {kind: link_down, at: 10us, link: [leaf0, spine0]}
  - {kind: link_up, at: 20us, link: [leaf0, spine0]}
  - {kind: link_flap, at: 30us, link: [leaf1, spine1], period: 10us, count: 3}
  - {kind: link_flap, at: 30us, link: [leaf1, spine0], period: 10us, down_for: 2us, until: 90us}
  - {kind: switch_fail, at: 40us, switch: spine1}
  - {kind: switch_reboot, at: 50us, switch: leaf1, down_for: 5us}
  - {kind: loss, at: 60us, link: [leaf0, spine1], rate: 0.01}
  - {kind: loss, rate: 0.001, tiers: [leaf, spine]}
)";
        std::string problem;
        try
        {
            const Scenario s = ScenarioLoader::LoadString(yaml, "events.yaml");
            NS_TEST_ASSERT_MSG_EQ(s.events.size(), 8, "every event read");
            const std::string text = EffectiveConfigYaml(s);
            const Scenario again = ScenarioLoader::LoadString(text, "config.yaml");
            NS_TEST_EXPECT_MSG_EQ((again == s), true, "round trip changed it:\n" << text);
            NS_TEST_EXPECT_MSG_EQ(EffectiveConfigYaml(again), text, "text changed");
        }
        catch (const ScenarioError& e)
        {
            problem = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(problem, "", "the effective config does not load");
    }
};

/**
 * \ingroup ina-scenario
 * Errors name where the value came from, the key and what was expected.
 */
class InaScenarioErrorTestCase : public TestCase
{
  public:
    InaScenarioErrorTestCase()
        : TestCase("errors name file:line or the override, the key and what was expected")
    {
    }

  private:
    static std::string ErrorOf(const std::string& yaml, const std::vector<std::string>& overrides)
    {
        try
        {
            ScenarioLoader::LoadString(yaml, "rack.yaml", overrides);
        }
        catch (const ScenarioError& e)
        {
            return e.what();
        }
        return "no error";
    }

    void DoRun() override
    {
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("topology:\n  type: fat-tree\n  k: 6\n", {"topology.k=5"}),
                              "override 'topology.k=5': key 'topology.k': a fat-tree needs an "
                              "even k >= 4, got 5",
                              "override blamed");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf("seed: 1\ntopology:\n  type: fat-tree\n  k: 3\n", {}),
                              "rack.yaml:4: key 'topology.k': a fat-tree needs an even k >= 4, "
                              "got 3",
                              "file line blamed");
    }
};

/**
 * \ingroup ina-scenario
 * Scenario files: shipped examples and error reporting.
 */
class InaScenarioTestSuite : public InaTestSuite
{
  public:
    InaScenarioTestSuite()
        : InaTestSuite("ina-scenario", TestSuite::Type::UNIT)
    {
        AddTestCase(new InaScenarioDefaultFileTestCase);
        AddTestCase(new InaScenarioExamplesTestCase);
        AddTestCase(new InaScenarioErrorTestCase);
        AddTestCase(new InaScenarioEventsRoundTripTestCase);
    }
};

/// \ingroup ina-scenario
static InaScenarioTestSuite g_inaScenarioTestSuite;
