/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GridBaselines: the fluid models of Geryon, SwitchML (extended) and ATP that GRID is compared
// with (inasim spec B.7, B.9 (i)).

#include "grid-fig1.h"

#include "ns3/grid-baselines.h"
#include "ns3/grid-planner.h"
#include "ns3/grid-problem.h"
#include "ns3/ina-topology.h"

#include <gtest/gtest.h>
#include <random>
#include <string>

using namespace ns3;

namespace
{

constexpr double G = 1e9;

/// Bisection and the LP stop within a relative 1e-12 or so; hand values are exact.
constexpr double kRel = 1e-9;

GridProblem
Fig1()
{
    return inasim_test::GridFig1Problem();
}

/// One switch "tor0" with `workers` hosts at `workerGbps` and a PS at `psGbps`.
InaTopology
Star(uint32_t workers, double workerGbps, double psGbps)
{
    const std::string text = "defaults delay=1us\nswitch tor0 tier=tor\nhost h0..h" +
                             std::to_string(workers - 1) +
                             " attach=tor0 rate=" + std::to_string(workerGbps) +
                             "Gbps\nhost ps attach=tor0 rate=" + std::to_string(psGbps) + "Gbps\n";
    return InaTopology::FromString(text, "star");
}

std::vector<uint32_t>
Range(uint32_t n)
{
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        v[i] = i;
    }
    return v;
}

TEST(GridBaselines, Fig1Values)
{
    const GridProblem p = Fig1();
    // Geryon: W4 detoured over s1 -> s2 -> s3; L1 carries W1..W3, L3 W4..W6: 3/3 = 1.
    const GridSchemeRates ger = GridBaselines::Geryon(p);
    EXPECT_NEAR(ger.lambdaBps, 1 * G, 1 * G * kRel);
    EXPECT_NEAR(ger.psAggregationBps, 8 * G, 8 * G * kRel);
    EXPECT_EQ(ger.switchAggregationBps, 0);
    // Without links only the PS ingress counts: 9/8.
    EXPECT_DOUBLE_EQ(GridBaselines::Geryon(p, false).lambdaBps, 9.0 / 8 * G);

    // ATP: s1 aggregates W1..W4 at 9/4 = 2.25 each; L1 carries that aggregate and 4 x 0.1875 of
    // unaggregated excess, which s3 aggregates: 2.25 + 4 (lambda - 2.25) = 3 gives 2.4375.
    const GridSchemeRates atp = GridBaselines::Atp(p);
    EXPECT_NEAR(atp.lambdaBps, 2.4375 * G, 2.4375 * G * kRel);
    EXPECT_NEAR(atp.meanSendingBps, 2.4375 * G, 2.4375 * G * kRel);
    // In switches: s1 9, s2 2 x 2.4375, s3 2 x 2.4375 + 0.75 = 19.5; at the PS: 2.25 + 2 x 2.4375.
    EXPECT_NEAR(atp.switchAggregationBps, 19.5 * G, 19.5 * G * kRel);
    EXPECT_NEAR(atp.psAggregationBps, 7.125 * G, 7.125 * G * kRel);

    // SwitchML: rack aggregation, s1 has four workers: 9/4.
    EXPECT_EQ(GridBaselines::SwitchMlAssignment(p),
              (std::vector<uint32_t>{0, 0, 0, 0, 1, 1, 2, 2}));
    const GridSchemeRates sml = GridBaselines::SwitchMl(p);
    EXPECT_DOUBLE_EQ(sml.lambdaBps, 2.25 * G);
    EXPECT_DOUBLE_EQ(sml.switchAggregationBps, 18 * G);
    EXPECT_DOUBLE_EQ(sml.psAggregationBps, 6.75 * G);
}

TEST(GridBaselines, AtpLoadsAtAGivenRate)
{
    const GridProblem p = Fig1();
    const InaTopology& t = p.GetTopology();
    const GridBaselines::AtpLoads at = GridBaselines::AtpAt(p, 2.4375 * G, true);
    EXPECT_TRUE(at.feasible);
    const uint32_t s1 = t.FindNode("s1");
    const uint32_t s2 = t.FindNode("s2");
    const uint32_t s3 = t.FindNode("s3");
    auto edge = [&](uint32_t from, uint32_t to) {
        for (uint32_t e = 0; e < p.GetNEdges(); ++e)
        {
            if (p.GetEdgeFrom(e) == from && p.GetEdgeTo(e) == to)
            {
                return at.edgeBps[e];
            }
        }
        ADD_FAILURE() << "no edge";
        return 0.0;
    };
    EXPECT_NEAR(edge(s1, s3), 3 * G, 3 * G * kRel);           // L1 full
    EXPECT_NEAR(edge(s2, s3), 2.4375 * G, 2.4375 * G * kRel); // s2's aggregate of w5, w6
    EXPECT_NEAR(edge(s1, s2), 0, 1);                          // ATP never detours
    EXPECT_NEAR(at.psIngressBps, 7.125 * G, 7.125 * G * kRel);
    EXPECT_NEAR(at.switchBps[0], 9 * G, 9 * G * kRel); // s1 full
    EXPECT_NEAR(at.switchBps[1], 4.875 * G, 4.875 * G * kRel);
    EXPECT_NEAR(at.switchBps[2], 5.625 * G, 5.625 * G * kRel); // w7, w8 and the 0.75 excess
    EXPECT_FALSE(GridBaselines::AtpAt(p, 2.4376 * G, true).feasible);
    EXPECT_TRUE(GridBaselines::AtpAt(p, 2.4374 * G, true).feasible);
    // The printed model has no L1: ATP then runs at T.
    EXPECT_NEAR(GridBaselines::Atp(p, false).lambdaBps, 3 * G, 3 * G * kRel);
}

TEST(GridBaselines, GeryonIsMinOfTAndBOverN)
{
    for (uint32_t n : {2u, 4u, 7u, 20u})
    {
        // PS link as fast as a worker's: B/N.
        const GridProblem same(Star(n, 10, 10), Range(n), n, {});
        EXPECT_NEAR(GridBaselines::Geryon(same).lambdaBps, 10 * G / n, 10 * G / n * kRel) << n;
        // A 100 Gb/s PS: T binds up to 10 workers, then B/N.
        const GridProblem fast(Star(n, 10, 100), Range(n), n, {});
        const double want = std::min(10 * G, 100 * G / n);
        EXPECT_NEAR(GridBaselines::Geryon(fast).lambdaBps, want, want * kRel) << n;
        EXPECT_DOUBLE_EQ(GridBaselines::Geryon(fast, false).lambdaBps, want);
    }
    // A k=4 fat-tree, PS h15, ten workers in three pods: the fabric has room, the PS link not.
    const InaTopology ft = InaTopology::FatTree(4, {100000000000ULL, 0}, {100000000000ULL, 0});
    const GridProblem p(ft, Range(10), 15, {});
    EXPECT_NEAR(GridBaselines::Geryon(p).lambdaBps, 10 * G, 10 * G * kRel);
}

TEST(GridBaselines, RackAggregationOnAFatTree)
{
    // k=4 fat-tree: workers h0..h7 in racks tor16..tor19 (two each), PS h15 under tor23.
    const InaTopology ft = InaTopology::FatTree(4, {100000000000ULL, 0}, {100000000000ULL, 0});
    std::vector<GridProblem::ProgrammableSwitch> tors;
    for (uint32_t n = 16; n < 24; ++n)
    {
        tors.push_back({n, 100 * G});
    }
    // Every ToR programmable: four aggregates share the PS link: 25 each, for both.
    GridProblem p(ft, Range(8), 15, tors);
    EXPECT_DOUBLE_EQ(GridBaselines::SwitchMl(p).lambdaBps, 25 * G);
    EXPECT_NEAR(GridBaselines::Atp(p).lambdaBps, 25 * G, 25 * G * kRel);
    EXPECT_DOUBLE_EQ(GridBaselines::SwitchMl(p).switchAggregationBps, 200 * G);
    EXPECT_DOUBLE_EQ(GridBaselines::SwitchMl(p).psAggregationBps, 100 * G);

    // tor16 not programmable: h0, h1 go direct, 2 + 3 streams: 20.
    std::vector<GridProblem::ProgrammableSwitch> some(tors.begin() + 1, tors.end());
    GridProblem q(ft, Range(8), 15, some);
    const GridSchemeRates sml = GridBaselines::SwitchMl(q);
    EXPECT_DOUBLE_EQ(sml.lambdaBps, 20 * G);
    EXPECT_DOUBLE_EQ(sml.switchAggregationBps, 120 * G);
    EXPECT_DOUBLE_EQ(sml.psAggregationBps, 100 * G);

    // tor16 with C = 30: SwitchML is capped at 30/2 = 15. ATP lets the excess of h0, h1 through
    // and the PS's ToR (tor23, idle) aggregates it: four streams again, 15 + 3 x lambda +
    // (lambda - 15) = 4 lambda <= 100 gives 25, everything aggregated in switches.
    tors[0].capacityBps = 30 * G;
    GridProblem r(ft, Range(8), 15, tors);
    EXPECT_DOUBLE_EQ(GridBaselines::SwitchMl(r).lambdaBps, 15 * G);
    const GridSchemeRates atp = GridBaselines::Atp(r);
    EXPECT_NEAR(atp.lambdaBps, 25 * G, 25 * G * kRel);
    EXPECT_NEAR(atp.switchAggregationBps, 200 * G, 200 * G * kRel);
    EXPECT_NEAR(atp.psAggregationBps, 100 * G, 100 * G * kRel);
    const GridBaselines::AtpLoads at = GridBaselines::AtpAt(r, 25 * G, true);
    EXPECT_NEAR(at.switchBps[0], 30 * G, 30 * G * kRel);
    EXPECT_NEAR(at.switchBps[7], 20 * G, 20 * G * kRel); // tor23: 2 x (25 - 15)
}

TEST(GridBaselines, AtpAtTheRacksOnly)
{
    using Reach = GridBaselines::AtpReach;
    // Fig. 1: s1's excess (4 x 0.1875) goes on to the PS instead of being absorbed by s3; L1
    // carries the same 3 Gb/s either way, so the rate is the same 2.4375, with 0.75 Gb/s less
    // aggregated in switches and 0.75 more entering the PS.
    const GridProblem f = Fig1();
    const GridSchemeRates atp = GridBaselines::Atp(f, true, Reach::RACK);
    EXPECT_NEAR(atp.lambdaBps, 2.4375 * G, 2.4375 * G * kRel);
    EXPECT_NEAR(atp.switchAggregationBps, 18.75 * G, 18.75 * G * kRel);
    EXPECT_NEAR(atp.psAggregationBps, 7.875 * G, 7.875 * G * kRel);

    // The k=4 fat-tree of RackAggregationOnAFatTree, tor16 (h0, h1) at C = 30: the paper's
    // model lets tor23 absorb their excess (25); at the racks only it enters the PS:
    // 15 + 3 lambda + 2 (lambda - 15) <= 100 gives 23.
    const InaTopology ft = InaTopology::FatTree(4, {100000000000ULL, 0}, {100000000000ULL, 0});
    std::vector<GridProblem::ProgrammableSwitch> tors;
    for (uint32_t n = 16; n < 24; ++n)
    {
        tors.push_back({n, 100 * G});
    }
    tors[0].capacityBps = 30 * G;
    const GridProblem r(ft, Range(8), 15, tors);
    EXPECT_NEAR(GridBaselines::Atp(r).lambdaBps, 25 * G, 25 * G * kRel);
    EXPECT_NEAR(GridBaselines::Atp(r, true, Reach::RACK).lambdaBps, 23 * G, 23 * G * kRel);
    const GridBaselines::AtpLoads at = GridBaselines::AtpAt(r, 23 * G, true, Reach::RACK);
    EXPECT_NEAR(at.switchBps[0], 30 * G, 30 * G * kRel);
    EXPECT_NEAR(at.switchBps[7], 0, 1); // tor23 holds no worker: nothing of others there

    // tor16 not programmable: the paper's model aggregates h0 and h1 at the first programmable
    // switch on their route, the PS's ToR tor23 (four streams into the PS: 25); at the racks
    // only they go to the PS as SwitchML's do (2 direct + 3 aggregates: 20).
    std::vector<GridProblem::ProgrammableSwitch> some(tors.begin() + 1, tors.end());
    const GridProblem q(ft, Range(8), 15, some);
    EXPECT_NEAR(GridBaselines::Atp(q).lambdaBps, 25 * G, 25 * G * kRel);
    EXPECT_NEAR(GridBaselines::Atp(q, true, Reach::RACK).lambdaBps, 20 * G, 20 * G * kRel);
}

TEST(GridBaselines, OrderingsOnRandomInstances)
{
    // ATP never falls below SwitchML (at SwitchML's rate it aggregates at least as much), links
    // only remove rate, and nothing beats the NIC.
    const InaTopology ft = InaTopology::FatTree(4, {100000000000ULL, 0}, {100000000000ULL, 0});
    std::mt19937_64 rng(5);
    for (int inst = 0; inst < 30; ++inst)
    {
        const uint32_t n = 2 + rng() % 13;
        std::vector<GridProblem::ProgrammableSwitch> sw;
        for (uint32_t node = 16; node < 36; ++node)
        {
            if (rng() % 3 == 0)
            {
                sw.push_back({node, (50 + rng() % 400) * G});
            }
        }
        const GridProblem p(ft, Range(n), 15, sw);
        const double atp = GridBaselines::Atp(p).lambdaBps;
        const double sml = GridBaselines::SwitchMl(p).lambdaBps;
        const double ger = GridBaselines::Geryon(p).lambdaBps;
        EXPECT_GE(atp, sml * (1 - 1e-9)) << "instance " << inst;
        // At the racks only ATP still aggregates everything SwitchML does.
        const double rack = GridBaselines::Atp(p, true, GridBaselines::AtpReach::RACK).lambdaBps;
        EXPECT_GE(rack, sml * (1 - 1e-9)) << "instance " << inst;
        EXPECT_LE(atp, GridBaselines::Atp(p, false).lambdaBps * (1 + 1e-9)) << inst;
        EXPECT_LE(sml, GridBaselines::SwitchMl(p, false).lambdaBps * (1 + 1e-9)) << inst;
        EXPECT_LE(ger, GridBaselines::Geryon(p, false).lambdaBps * (1 + 1e-9)) << inst;
        EXPECT_LE(atp, 100 * G * (1 + 1e-12));
    }
}

} // namespace
