/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GridOnlinePlanner: re-planning the running jobs when a job starts or ends, each on what the
// others leave; fluid job completion at the planned rates.

#include "ns3/grid-online-planner.h"
#include "ns3/ina-topology.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double G = 1e9;

/// Eight 10 Gb/s hosts on one switch tor0 (one instance: the planners keep a reference).
const InaTopology&
Star8()
{
    static const InaTopology t = InaTopology::FromString("defaults rate=10Gbps delay=1us\n"
                                                         "switch tor0 tier=tor\n"
                                                         "host h0..h7 attach=tor0\n",
                                                         "star8.topo");
    return t;
}

/// Star8's tor0 programmable with C = 20 Gb/s.
std::vector<GridProblem::ProgrammableSwitch>
Tor0At20G()
{
    return {{Star8().FindNode("tor0"), 20 * G}};
}

GridOnlinePlanner::Job
MakeJob(const std::string& name,
        GridOnlinePlanner::Scheme scheme,
        std::vector<uint32_t> workers,
        uint32_t ps,
        double startS,
        double bits)
{
    GridOnlinePlanner::Job j;
    j.name = name;
    j.scheme = scheme;
    j.workers = std::move(workers);
    j.ps = ps;
    j.startS = startS;
    j.bitsPerWorker = bits;
    return j;
}

} // namespace

/**
 * Job a (2 workers, GRID) alone aggregates both at tor0 (2 x 10 = C) and sends at T = 10 Gb/s.
 * Job b starts at 1 s: a, planned first, keeps all of C; b finds tor0 full and sends its two
 * workers straight to its PS: 10 / 2 = 5 Gb/s. a ends at 2 s (20 Gb per worker); b, re-planned
 * alone, gets tor0: 10 Gb/s, and ends at 2 + (10 - 5) / 10 = 2.5 s.
 */
TEST(GridOnlinePlanner, ReplansWhenAJobStartsAndEnds)
{
    GridOnlinePlanner online(Star8(), Tor0At20G(), GridPlanner::Options());
    online.AddJob(MakeJob("a", GridOnlinePlanner::Scheme::GRID, {0, 1}, 2, 0, 20 * G));
    online.AddJob(MakeJob("b", GridOnlinePlanner::Scheme::GRID, {3, 4}, 5, 1, 10 * G));
    online.Run();

    const auto& replans = online.GetReplans();
    ASSERT_EQ(replans.size(), 3U);
    EXPECT_DOUBLE_EQ(replans[0].timeS, 0);
    EXPECT_EQ(replans[0].trigger, "start a");
    ASSERT_EQ(replans[0].rateBps.size(), 1U);
    EXPECT_NEAR(replans[0].rateBps[0], 10 * G, 1e-6 * G);
    EXPECT_DOUBLE_EQ(replans[1].timeS, 1);
    EXPECT_EQ(replans[1].trigger, "start b");
    ASSERT_EQ(replans[1].jobs, (std::vector<uint32_t>{0, 1}));
    EXPECT_NEAR(replans[1].rateBps[0], 10 * G, 1e-6 * G);
    EXPECT_NEAR(replans[1].rateBps[1], 5 * G, 1e-6 * G);
    EXPECT_NEAR(replans[2].timeS, 2, 1e-9);
    EXPECT_EQ(replans[2].trigger, "end a");
    ASSERT_EQ(replans[2].jobs, (std::vector<uint32_t>{1}));
    EXPECT_NEAR(replans[2].rateBps[0], 10 * G, 1e-6 * G);
    for (const auto& r : replans)
    {
        EXPECT_GE(r.wallS, 0);
    }

    const auto& res = online.GetResults();
    EXPECT_NEAR(res[0].endS, 2, 1e-9);
    EXPECT_NEAR(res[1].endS, 2.5, 1e-9);
    EXPECT_EQ(res[0].plans, 2U);
    EXPECT_EQ(res[1].plans, 2U);
    EXPECT_NEAR(res[1].minRateBps, 5 * G, 1e-6 * G);
    EXPECT_NEAR(res[1].maxRateBps, 10 * G, 1e-6 * G);
    EXPECT_NEAR(res[1].firstRates.switchAggregationBps, 0, 1e-6 * G);
    EXPECT_NEAR(res[0].firstRates.switchAggregationBps, 20 * G, 1e-6 * G);
}

/**
 * Geryon never aggregates, so two Geryon jobs only share links: on a star each PS link is its
 * own, and both run at B / N = 5 Gb/s from start to end (one plan each time, rates unchanged).
 * An ATP job and a SwitchML job behind it see what is left of tor0's capacity.
 */
TEST(GridOnlinePlanner, BaselinesSeeTheSameResidualCapacities)
{
    GridOnlinePlanner ger(Star8(), Tor0At20G(), GridPlanner::Options());
    ger.AddJob(MakeJob("g1", GridOnlinePlanner::Scheme::GERYON, {0, 1}, 2, 0, 10 * G));
    ger.AddJob(MakeJob("g2", GridOnlinePlanner::Scheme::GERYON, {3, 4}, 5, 0, 10 * G));
    ger.Run();
    ASSERT_EQ(ger.GetReplans().size(), 1U); // both start at 0, both end at 2 s together
    EXPECT_EQ(ger.GetReplans()[0].trigger, "start g1, start g2");
    EXPECT_NEAR(ger.GetResults()[0].endS, 2, 1e-9);
    EXPECT_NEAR(ger.GetResults()[1].endS, 2, 1e-9);

    // ATP first takes 20 of tor0's 20 Gb/s (both workers at 10); SwitchML then finds tor0 full:
    // not programmable for it, so its workers go direct: 5 Gb/s.
    GridOnlinePlanner mixed(Star8(), Tor0At20G(), GridPlanner::Options());
    mixed.AddJob(MakeJob("atp", GridOnlinePlanner::Scheme::ATP, {0, 1}, 2, 0, 10 * G));
    mixed.AddJob(MakeJob("sml", GridOnlinePlanner::Scheme::SWITCHML, {3, 4}, 5, 0, 10 * G));
    mixed.Run();
    const auto& r0 = mixed.GetReplans().at(0);
    EXPECT_NEAR(r0.rateBps.at(0), 10 * G, 1e-6 * G);
    EXPECT_NEAR(r0.rateBps.at(1), 5 * G, 1e-6 * G);
}

TEST(GridOnlinePlanner, BadInputIsNamed)
{
    EXPECT_EQ(GridOnlinePlanner::ParseScheme("switchml"), GridOnlinePlanner::Scheme::SWITCHML);
    try
    {
        GridOnlinePlanner::ParseScheme("ring");
        FAIL() << "ring has no planner-level model";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("'ring': expected grid, atp, switchml or geryon"),
                  std::string::npos)
            << e.what();
    }
    const InaTopology t = Star8();
    GridOnlinePlanner online(t, {}, GridPlanner::Options());
    online.AddJob(MakeJob("a", GridOnlinePlanner::Scheme::GERYON, {0, 1}, 2, 0, 1));
    EXPECT_THROW(online.AddJob(MakeJob("b", GridOnlinePlanner::Scheme::GERYON, {2}, 3, 0, 1)),
                 std::invalid_argument); // host 2 is a's PS
    EXPECT_THROW(online.AddJob(MakeJob("c", GridOnlinePlanner::Scheme::GERYON, {4}, 5, 0, 0)),
                 std::invalid_argument); // nothing to send
}
