/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GridFairRates: max-min fair rates of jobs with fixed streams on shared capacities (GRID's
// online re-planning at packet level), and GridProblem's routes around failed links.

#include "ns3/grid-fair-rates.h"
#include "ns3/grid-planner.h"
#include "ns3/grid-problem.h"
#include "ns3/ina-topology.h"

#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

constexpr double G = 1e9;

GridFairRates::Job
MakeJob(double ceiling, std::vector<std::pair<uint32_t, double>> uses)
{
    GridFairRates::Job j;
    j.ceilingBps = ceiling;
    j.uses = std::move(uses);
    return j;
}

} // namespace

TEST(GridFairRates, OneJobGetsItsTightestConstraint)
{
    // A switch of 9 Gb/s with fan-in 3, a link of 3 Gb/s with 2 streams, NICs of 3 Gb/s.
    const auto r = GridFairRates::Solve({9 * G, 3 * G}, {MakeJob(3 * G, {{0, 3}, {1, 2}})});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0], 1.5 * G);
}

TEST(GridFairRates, TwoJobsShareASwitchEqually)
{
    const auto r =
        GridFairRates::Solve({9 * G}, {MakeJob(3 * G, {{0, 3}}), MakeJob(3 * G, {{0, 3}})});
    EXPECT_EQ(r[0], 1.5 * G);
    EXPECT_EQ(r[1], 1.5 * G);
}

TEST(GridFairRates, WhatOneCannotUseGoesToTheOther)
{
    // Job 0 is held at 1 Gb/s by its own ceiling; job 1 takes the rest of the switch:
    // (9 - 3 x 1) / 3 = 2 Gb/s, below its 3 Gb/s ceiling.
    const auto r =
        GridFairRates::Solve({9 * G}, {MakeJob(1 * G, {{0, 3}}), MakeJob(3 * G, {{0, 3}})});
    EXPECT_EQ(r[0], 1 * G);
    EXPECT_DOUBLE_EQ(r[1], 2 * G);
}

TEST(GridFairRates, MaxMinAcrossTwoBottlenecks)
{
    // Jobs 0 and 1 share link 0 (4 Gb/s, one stream each); job 1 and 2 share link 1 (10 Gb/s).
    // Link 0 fills first at 2 each; job 2 then takes 10 - 2 = 8 on link 1.
    const auto r = GridFairRates::Solve({4 * G, 10 * G},
                                        {MakeJob(100 * G, {{0, 1}}),
                                         MakeJob(100 * G, {{0, 1}, {1, 1}}),
                                         MakeJob(100 * G, {{1, 1}})});
    EXPECT_EQ(r[0], 2 * G);
    EXPECT_EQ(r[1], 2 * G);
    EXPECT_EQ(r[2], 8 * G);
}

TEST(GridFairRates, RejectsBadInput)
{
    EXPECT_THROW(GridFairRates::Solve({1 * G}, {MakeJob(1 * G, {{1, 1}})}), std::invalid_argument);
    EXPECT_THROW(GridFairRates::Solve({1 * G}, {MakeJob(1 * G, {{0, 0}})}), std::invalid_argument);
    EXPECT_THROW(GridFairRates::Solve({-1.0}, {}), std::invalid_argument);
    EXPECT_THROW(GridFairRates::Solve({1 * G}, {MakeJob(-1, {})}), std::invalid_argument);
}

/// GRID's Fig. 1 network; link 1 of the switch links is s1-s2.
InaTopology
Fig1()
{
    return InaTopology::FromString("defaults rate=3Gbps delay=1us\n"
                                   "switch s1..s3 tier=tor\n"
                                   "host w1..w4 attach=s1\n"
                                   "host w5..w6 attach=s2\n"
                                   "host w7..w8 attach=s3\n"
                                   "host ps attach=s3 rate=9Gbps\n"
                                   "link s1 s3\n"
                                   "link s1 s2\n"
                                   "link s2 s3\n",
                                   "fig1.topo");
}

TEST(GridProblemFailedLinks, RoutesGoAroundAndCutTargetsAreUnreachable)
{
    const InaTopology t = Fig1();
    const uint32_t s1 = t.FindNode("s1");
    const uint32_t s2 = t.FindNode("s2");
    const uint32_t s3 = t.FindNode("s3");
    std::vector<bool> failed(t.GetNLinks(), false);
    uint32_t s1s2 = 0;
    for (uint32_t l = 0; l < t.GetNLinks(); ++l)
    {
        const auto& k = t.GetLink(l);
        s1s2 = (k.a == s1 && k.b == s2) || (k.a == s2 && k.b == s1) ? l : s1s2;
    }
    failed[s1s2] = true;
    const std::vector<GridProblem::ProgrammableSwitch> sw{{s1, 9 * G}, {s2, 9 * G}, {s3, 9 * G}};
    const GridProblem p(t, {t.FindNode("w1")}, t.FindNode("ps"), sw, 0, 0, failed);
    EXPECT_TRUE(p.Reaches(0, 1));
    EXPECT_EQ(p.RouteNodes(t.FindNode("w1"), s2),
              (std::vector<uint32_t>{t.FindNode("w1"), s1, s3, s2}));
    EXPECT_EQ(p.GetEdgeCapacityBps(2 * s1s2), 0.0);

    // w1's own link down: it reaches nothing, its streams rate 0, the LP gives it nothing.
    uint32_t w1Link = t.Neighbors(t.FindNode("w1")).at(0).second;
    failed.assign(t.GetNLinks(), false);
    failed[w1Link] = true;
    const GridProblem
        cut({t}, {t.FindNode("w1"), t.FindNode("w5")}, t.FindNode("ps"), sw, 0, 0, failed);
    EXPECT_FALSE(cut.Reaches(0, 0));
    EXPECT_FALSE(cut.Reaches(0, cut.GetPsTarget()));
    EXPECT_TRUE(cut.Reaches(1, 1));
    const GridPlanner::Evaluation ev = GridPlanner::Evaluate(cut, {0, 1}, true);
    EXPECT_EQ(ev.lambdaBps, 0.0);
    EXPECT_NE(ev.bottleneck.find("no route from w1"), std::string::npos) << ev.bottleneck;
    const GridPlan plan = GridPlanner().Plan(cut);
    EXPECT_EQ(plan.lpBoundBps, 0.0);
}

TEST(GridProblemFailedLinks, PlansAvoidAFailedSwitch)
{
    // Two leaves of three workers, the PS on a third leaf, two spines that may aggregate; spine
    // a1 fails (every link of it down). Before the repair step checked reachability it moved
    // workers to a1, whose (empty) routes cost nothing in stream counting, and MakePlan then
    // threw for the missing route.
    const InaTopology t = InaTopology::FromString("# inasim topology v1\n"
                                                  "defaults rate=10Gbps delay=1us\n"
                                                  "switch l1..l3 tier=tor\n"
                                                  "switch a1..a2 tier=agg\n"
                                                  "host w1..w3 attach=l1\n"
                                                  "host w4..w6 attach=l2\n"
                                                  "host ps attach=l3\n"
                                                  "link l1 a1\nlink l1 a2\nlink l2 a1\n"
                                                  "link l2 a2\nlink l3 a1\nlink l3 a2\n",
                                                  "two-spines.topo");
    const uint32_t a1 = t.FindNode("a1");
    std::vector<bool> failed(t.GetNLinks(), false);
    for (uint32_t l = 0; l < t.GetNLinks(); ++l)
    {
        failed[l] = t.GetLink(l).a == a1 || t.GetLink(l).b == a1;
    }
    std::vector<uint32_t> workers;
    for (const char* w : {"w1", "w2", "w3", "w4", "w5", "w6"})
    {
        workers.push_back(t.FindNode(w));
    }
    const std::vector<GridProblem::ProgrammableSwitch> sw{{a1, 40 * G}, {t.FindNode("a2"), 40 * G}};
    const GridProblem p(t, workers, t.FindNode("ps"), sw, 0, 0, failed);
    for (uint32_t seed = 1; seed <= 8; ++seed)
    {
        GridPlanner::Options o;
        o.seed = seed;
        GridPlan plan;
        ASSERT_NO_THROW(plan = GridPlanner(o).Plan(p)) << "seed " << seed;
        EXPECT_GT(plan.achievedBps, 0.0) << "seed " << seed;
        for (const GridPlan::WorkerRoute& w : plan.workers)
        {
            EXPECT_NE(w.node, a1) << "seed " << seed;
        }
    }
}
