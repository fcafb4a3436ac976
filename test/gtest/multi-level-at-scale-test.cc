/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Multi-level aggregation across pods (docs/performance.md, "Multi-level aggregation at scale"):
// SwitchML and ATP aggregating at the ToRs and one level above on a k=8 fat-tree with 63-64
// workers in 16 racks, with real values. SwitchML's window is sized to the link its racks'
// partials share (SwitchMlSharedLinkWindowTestCase checks the bound itself); ATP's AIMD on ECN (the
// paper's congestion control) halves every worker's window when the shared link into the
// parameter server's rack queues past the marking threshold. Both stay exact and drop nothing.

#include "test-temp-dir.h"

#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Runs one job across pods; returns its summary.json.
nlohmann::json
RunAcrossPods(const std::string& protocol, uint32_t workers)
{
    const std::string out = (inasim_test::TempDir() / ("inasim-multi-level-" + protocol)).string();
    const std::string yaml = "check_values: true\n"
                             "topology: {type: fat-tree, k: 8}\n"
                             "switch: {ina_tiers: [tor, core]}\n"
                             "jobs: [{protocol: " +
                             protocol + ", workers: " + std::to_string(workers) +
                             ", workload: {tensor_bytes: 2MB, iterations: 1}}]\n";
    {
        ScenarioRunner runner(ScenarioLoader::LoadString(yaml, "pods.yaml"), out);
        std::ostringstream quiet;
        runner.SetConsole(&quiet, &quiet);
        runner.Run();
    }
    Simulator::Destroy();
    std::ifstream in(std::filesystem::path(out) / "summary.json");
    nlohmann::json summary = nlohmann::json::parse(in);
    std::filesystem::remove_all(out);
    return summary;
}

void
ExpectExactWithoutDrops(const nlohmann::json& summary)
{
    const nlohmann::json& job = summary["jobs"][0];
    EXPECT_EQ(job["completed"], true) << summary.dump();
    EXPECT_EQ(job["value_errors"], 0);
    EXPECT_GT(job["values_checked"].get<uint64_t>(), 0u);
    EXPECT_EQ(summary["links"]["drops"], 0) << summary["links"].dump();
    EXPECT_EQ(job["retransmissions"], 0);
}

} // namespace

TEST(MultiLevelAtScale, SwitchMlAcrossPodsIsExactWithoutDrops)
{
    const nlohmann::json s = RunAcrossPods("switchml", 64);
    ExpectExactWithoutDrops(s);
    EXPECT_EQ(s["jobs"][0]["protocol_counters"]["tree_levels"], 2);
}

TEST(MultiLevelAtScale, AtpAcrossPodsIsExactWithoutDrops)
{
    // 63 workers and the parameter server fill the 16 racks of two pods and one more host.
    const nlohmann::json s = RunAcrossPods("atp", 63);
    ExpectExactWithoutDrops(s);
    const nlohmann::json& c = s["jobs"][0]["protocol_counters"];
    EXPECT_EQ(c["aggregation_levels"], 2);
    EXPECT_GT(s["links"]["ecn_marks"].get<uint64_t>(), 0u) << "the shared link queued";
    EXPECT_GT(c["ecn_decreases"].get<double>(), 0) << "and the workers slowed down";
}
