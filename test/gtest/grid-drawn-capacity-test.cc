/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// planner.capacity_min/capacity_max (the GRID paper's Sec. 6.3: C_s drawn per programmable switch)
// at both levels: the packet level gives the switches the planner level draws the capacities it
// draws, so that one scenario file is one set-up at either level.

#include "test-messages.h"

#include <cmath>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

using namespace ns3;
using nlohmann::json;

namespace
{

/// A GRID job of 4 workers on a k = 4 fat-tree with C_s drawn in [10, 40] Gb/s.
std::string
Scenario(const std::string& level, const std::string& programmable)
{
    return "level: " + level +
           "\n"
           "seed: 3\n"
           "topology: {type: fat-tree, k: 4}\n"
           "switch: {ina_tiers: [tor, agg, core]}\n"
           "planner: {" +
           programmable +
           ", capacity_min: 10Gbps, capacity_max: 40Gbps}\n"
           "jobs: [{protocol: grid, workers: 4, ps_hosts: 1, placement: packed,\n"
           "        workload: {tensor_bytes: 100KB, iterations: 1}}]\n";
}

json
Run(const std::string& yaml)
{
    return json::parse(inasim_test::RunSummaryText(yaml, "drawn.yaml"));
}

/// Each switch's aggregation capacity in the packet level's summary (0: line rate, no limit).
std::map<std::string, double>
PacketCapacities(const json& summary)
{
    std::map<std::string, double> capacities;
    for (const json& s : summary.at("switches"))
    {
        const json& pipeline = s.at("pipeline");
        capacities[s.at("name").get<std::string>()] =
            pipeline.contains("aggregation")
                ? pipeline.at("aggregation").at("capacity_bps").get<double>()
                : 0.0;
    }
    return capacities;
}

void
ExpectTheSameDraw(const std::string& programmable)
{
    const json planner = Run(Scenario("planner", programmable));
    const json packet = Run(Scenario("packet", programmable));
    ASSERT_TRUE(packet.at("completed").get<bool>());
    std::map<std::string, double> capacities = PacketCapacities(packet);
    const json& names = planner.at("planner").at("programmable");
    const json& drawn = planner.at("planner").at("capacities_gbps");
    ASSERT_EQ(names.size(), drawn.size());
    ASSERT_FALSE(names.empty());
    for (size_t i = 0; i < names.size(); ++i)
    {
        const std::string name = names[i].get<std::string>();
        const double bps = drawn[i].get<double>() * 1e9;
        EXPECT_GE(bps, 10e9) << name;
        EXPECT_LE(bps, 40e9) << name;
        EXPECT_NEAR(capacities[name], bps, 1.0) << name;
        capacities.erase(name);
    }
    for (const auto& [name, bps] : capacities)
    {
        EXPECT_EQ(bps, 0.0) << name << " was not drawn and keeps line rate";
    }
    // GRID at packet level plans with its pipelines' capacities: the same plan as the planner
    // level's (4 workers: no fan-in rows; the same seed, trials and link rows).
    EXPECT_NEAR(packet.at("jobs")[0].at("protocol_counters").at("plan_rate_bps").get<double>(),
                planner.at("jobs")[0].at("rate_gbps").get<double>() * 1e9,
                1e3);
}

} // namespace

TEST(GridDrawnCapacity, PacketLevelSetsTheRandomSetsDrawnCapacities)
{
    ExpectTheSameDraw("programmable: random, fraction: 0.25");
}

TEST(GridDrawnCapacity, PacketLevelSetsEveryTiersSwitchsDrawnCapacity)
{
    ExpectTheSameDraw("programmable: tiers");
}
