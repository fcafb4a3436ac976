/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GridPlanner with a fan-in limit (GridProblem::SetMaxFanIn): the limit GRID's data plane has
// (the pool header's 5-bit fan-in degrees) bounds the workers per switch and the groups at the
// PS (a group per aggregating switch, the direct workers 31 to a group); the planner must stay
// within it, or the packet-level trees cannot be laid.

#include "ns3/grid-planner.h"
#include "ns3/grid-problem.h"
#include "ns3/ina-topology.h"
#include "ns3/pool-header.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double G = 1e9;

/// Workers behind one programmable leaf, beyond the data plane's fan-in; the PS (10 Gb/s, as a
/// worker's NIC) behind another leaf. The leaf can aggregate them all at line rate, so a planner
/// that ignores the fan-in puts every worker there (the only plan with one stream into the PS:
/// every NIC's 10 Gb/s); within the fan-in, 31 at the leaf and 9 direct make 10 streams into the
/// PS, 1 Gb/s each.
constexpr uint32_t kWorkers = PoolHeader::MAX_FAN_IN + 9;

GridProblem
CrowdedLeaf(bool limited)
{
    const InaTopology t = InaTopology::FromString("defaults rate=100Gbps delay=1us\n"
                                                  "switch leaf0 tier=tor\n"
                                                  "switch leaf1 tier=tor\n"
                                                  "switch spine0 tier=spine\n"
                                                  "host w0..w" +
                                                      std::to_string(kWorkers - 1) +
                                                      " attach=leaf0 rate=10Gbps\n"
                                                      "host ps attach=leaf1 rate=10Gbps\n"
                                                      "link leaf0 spine0 rate=1000Gbps\n"
                                                      "link leaf1 spine0 rate=1000Gbps\n",
                                                  "crowded-leaf");
    std::vector<uint32_t> workers;
    for (uint32_t i = 0; i < kWorkers; ++i)
    {
        workers.push_back(t.FindNode("w" + std::to_string(i)));
    }
    GridProblem p(t, workers, t.FindNode("ps"), {{t.FindNode("leaf0"), 3200 * G}});
    if (limited)
    {
        p.SetMaxFanIn(PoolHeader::MAX_FAN_IN);
    }
    return p;
}

} // namespace

TEST(GridFanIn, UnlimitedPlannerCrowdsOneSwitch)
{
    // The premise of the next test: without the limit the plan is beyond the data plane.
    const GridProblem p = CrowdedLeaf(false);
    const GridPlan plan = GridPlanner().Plan(p);
    ASSERT_EQ(plan.switches.size(), 1u);
    EXPECT_EQ(plan.switches[0].fanIn, kWorkers);
    EXPECT_DOUBLE_EQ(plan.achievedBps, 10 * G);
    EXPECT_NEAR(plan.lpBoundBps, 10 * G, 1e-6 * G);
}

TEST(GridFanIn, PlannerStaysWithinTheLimit)
{
    for (bool linkRows : {true, false})
    {
        for (bool repair : {true, false})
        {
            GridPlanner::Options o;
            o.linkRows = linkRows;
            o.repair = repair;
            const GridProblem p = CrowdedLeaf(true);
            const GridPlan plan = GridPlanner(o).Plan(p);
            SCOPED_TRACE(std::string("linkRows ") + (linkRows ? "on" : "off") + ", repair " +
                         (repair ? "on" : "off"));
            for (const GridPlan::SwitchRoute& s : plan.switches)
            {
                EXPECT_LE(s.fanIn, PoolHeader::MAX_FAN_IN);
            }
            EXPECT_LE(plan.psFanIn, PoolHeader::MAX_FAN_IN);
            // 31 at the leaf and 9 direct: 10 streams share the PS's 10 Gb/s.
            EXPECT_DOUBLE_EQ(plan.achievedBps, 1 * G) << plan.bottleneck;
            // The LP's fan-in rows bind: without them lambda~ is every NIC's 10 Gb/s. With them
            // it stays a bound (y_s may sit below lambda when workers split, hence not 1 Gb/s).
            EXPECT_GE(plan.lpBoundBps, plan.achievedBps * (1 - 1e-9));
            EXPECT_LT(plan.lpBoundBps, 2 * G);
        }
    }
}

TEST(GridFanIn, EvaluateRefusesAnAssignmentAboveTheLimit)
{
    const GridProblem p = CrowdedLeaf(true);
    GridPlanner::Evaluation ev = GridPlanner::Evaluate(p, std::vector<uint32_t>(kWorkers, 0), true);
    EXPECT_EQ(ev.lambdaBps, 0);
    EXPECT_EQ(ev.bottleneck,
              "fan-in of leaf0: " + std::to_string(kWorkers) + " workers, limit " +
                  std::to_string(PoolHeader::MAX_FAN_IN));
    // Every worker straight to the PS: 40 streams, but the PS counts the direct workers 31 to a
    // group (2 groups), so the PS's ingress binds, not its fan-in.
    ev = GridPlanner::Evaluate(p, std::vector<uint32_t>(kWorkers, p.GetPsTarget()), true);
    EXPECT_DOUBLE_EQ(ev.lambdaBps, 10 * G / kWorkers);
    EXPECT_EQ(ev.bottleneck, "PS ingress / " + std::to_string(kWorkers) + " streams");
    // The repair leaves a crowded switch: at most the limit stays.
    const std::vector<uint32_t> fixed =
        GridPlanner::Repair(p, std::vector<uint32_t>(kWorkers, 0), true);
    ev = GridPlanner::Evaluate(p, fixed, true);
    EXPECT_LE(ev.fanIn[0], PoolHeader::MAX_FAN_IN);
    EXPECT_GT(ev.lambdaBps, 0) << ev.bottleneck;
    // Without a limit the same assignment is fine.
    EXPECT_DOUBLE_EQ(
        GridPlanner::Evaluate(CrowdedLeaf(false), std::vector<uint32_t>(kWorkers, 0), true)
            .lambdaBps,
        10 * G);
}

TEST(GridFanIn, PsCountsDirectWorkersInGroups)
{
    GridProblem p = CrowdedLeaf(false);
    EXPECT_EQ(p.PsGroups(kWorkers, 0), kWorkers) << "no limit: every stream";
    p.SetMaxFanIn(PoolHeader::MAX_FAN_IN);
    EXPECT_EQ(p.PsGroups(PoolHeader::MAX_FAN_IN, 0), 1u);
    EXPECT_EQ(p.PsGroups(PoolHeader::MAX_FAN_IN + 1, 0), 2u);
    EXPECT_EQ(p.PsGroups(kWorkers, 3), 5u) << "3 switches and 2 groups of direct workers";
    EXPECT_EQ(p.PsGroups(0, 0), 0u);
    // All 40 direct: 6 groups of at most 7 fit a limit of 7; a limit of 6 holds 36 of them.
    const std::vector<uint32_t> direct(kWorkers, p.GetPsTarget());
    p.SetMaxFanIn(7);
    GridPlanner::Evaluation ev = GridPlanner::Evaluate(p, direct, true);
    EXPECT_DOUBLE_EQ(ev.lambdaBps, 10 * G / kWorkers) << ev.bottleneck;
    p.SetMaxFanIn(6);
    ev = GridPlanner::Evaluate(p, direct, true);
    EXPECT_EQ(ev.lambdaBps, 0);
    EXPECT_EQ(ev.bottleneck, "fan-in of the PS: 7 groups (40 streams), limit 6");
}

TEST(GridFanIn, AJobWithinTheLimitGetsTheUnlimitedPlan)
{
    // The fat-tree of GRID's scenario (a) (k = 8, 6 hosts per ToR, every ToR programmable at the
    // sum of its port rates, as the packet level plans it), 20 workers packed in racks and the PS
    // on the next host. No plan of 20 workers can exceed a fan-in of 31, so the limit must not
    // change the plan: its LP rows used to cut off some of the LP's equally good vertices, and
    // the rounding then started elsewhere (packet level, seed 1: 28.6 -> 20.0 Gb/s).
    const InaTopology ft = InaTopology::FatTree(8, {100000000000ULL, 0}, {100000000000ULL, 0}, 6);
    std::vector<uint32_t> workers;
    for (uint32_t h = 0; h < 20; ++h)
    {
        workers.push_back(h);
    }
    std::vector<GridProblem::ProgrammableSwitch> tors;
    for (uint32_t node = ft.GetNHosts(); node < ft.GetNNodes(); ++node)
    {
        if (ft.GetTier(node) == "tor")
        {
            tors.push_back({node, 1000 * G}); // 6 hosts and 4 uplinks at 100 Gb/s
        }
    }
    for (uint64_t seed : {1, 2, 3})
    {
        GridPlanner::Options o;
        o.seed = seed;
        GridProblem unlimited(ft, workers, 20, tors);
        GridProblem limited(ft, workers, 20, tors);
        limited.SetMaxFanIn(PoolHeader::MAX_FAN_IN);
        const GridPlan a = GridPlanner(o).Plan(unlimited);
        const GridPlan b = GridPlanner(o).Plan(limited);
        SCOPED_TRACE("seed " + std::to_string(seed));
        EXPECT_EQ(a.Assignment(), b.Assignment());
        EXPECT_EQ(a.lpRatesBps, b.lpRatesBps);
        EXPECT_EQ(a.achievedBps, b.achievedBps);
        ASSERT_EQ(a.workers.size(), b.workers.size());
        for (std::size_t i = 0; i < a.workers.size(); ++i)
        {
            EXPECT_EQ(a.workers[i].path, b.workers[i].path) << "worker " << i;
        }
    }
}
