/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GridProblem: GRID's planner input (workers, PS, programmable switches, capacities, routes).

#include "ns3/grid-problem.h"
#include "ns3/ina-routing-table.h"
#include "ns3/ina-topology.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

const std::string FIG1 = std::string(INASIM_SOURCE_DIR) + "/topologies/grid-fig1.topo";

std::vector<uint32_t>
Nodes(const InaTopology& t, const std::vector<std::string>& names)
{
    std::vector<uint32_t> out;
    for (const std::string& n : names)
    {
        out.push_back(t.FindNode(n));
    }
    return out;
}

/// Runs `f`, expects std::invalid_argument whose message contains every part.
template<typename F>
void
ExpectInvalid(F f, const std::vector<std::string>& parts)
{
    try
    {
        f();
        ADD_FAILURE() << "no exception; expected one mentioning '" << parts.front() << "'";
    }
    catch (const std::invalid_argument& e)
    {
        for (const std::string& p : parts)
        {
            EXPECT_NE(std::string(e.what()).find(p), std::string::npos)
                << "message '" << e.what() << "' lacks '" << p << "'";
        }
    }
}

class GridProblemFig1 : public ::testing::Test
{
  protected:
    InaTopology topo = InaTopology::FromFile(FIG1);
    std::vector<uint32_t> workers = Nodes(topo, {"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"});
    uint32_t ps = topo.FindNode("ps");
    std::vector<GridProblem::ProgrammableSwitch> switches{{topo.FindNode("s1"), 9e9},
                                                          {topo.FindNode("s2"), 9e9},
                                                          {topo.FindNode("s3"), 9e9}};
};

TEST_F(GridProblemFig1, TheFileIsThePapersExample)
{
    EXPECT_EQ(topo.GetNHosts(), 9u);
    EXPECT_EQ(topo.GetNSwitches(), 3u);
    EXPECT_EQ(topo.GetNLinks(), 12u); // 9 host links, L1, s1-s2, L3
    EXPECT_EQ(topo.HostsUnder(topo.FindNode("s1")), Nodes(topo, {"w1", "w2", "w3", "w4"}));
    EXPECT_EQ(topo.HostsUnder(topo.FindNode("s2")), Nodes(topo, {"w5", "w6"}));
    EXPECT_EQ(topo.HostsUnder(topo.FindNode("s3")), Nodes(topo, {"w7", "w8", "ps"}));
}

TEST_F(GridProblemFig1, RatesComeFromTheTopology)
{
    const GridProblem p(topo, workers, ps, switches);
    EXPECT_EQ(p.GetNWorkers(), 8u);
    EXPECT_EQ(p.GetNSwitches(), 3u);
    EXPECT_EQ(p.GetPsTarget(), 3u);
    EXPECT_EQ(p.GetTargetNode(3), ps);
    EXPECT_EQ(p.GetTargetNode(1), topo.FindNode("s2"));
    for (uint32_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(p.GetWorkerRateBps(i), 3e9) << i;
    }
    EXPECT_EQ(p.GetMinWorkerRateBps(), 3e9);
    EXPECT_EQ(p.GetPsIngressBps(), 9e9); // the PS's own link
    EXPECT_EQ(p.GetEdgeTo(p.GetPsEdge()), ps);
    EXPECT_EQ(p.GetEdgeFrom(p.GetPsEdge()), topo.FindNode("s3"));
    EXPECT_EQ(p.GetEdgeCapacityBps(p.GetPsEdge()), 9e9);
    EXPECT_EQ(p.EdgeName(p.GetPsEdge()), "s3->ps");
    EXPECT_EQ(p.GetSwitchIndex(topo.FindNode("s2")), 1);
    EXPECT_EQ(p.GetSwitchIndex(topo.FindNode("w1")), -1);

    const GridProblem q(topo, workers, ps, switches, 5e9);
    EXPECT_EQ(q.GetPsIngressBps(), 5e9);
}

TEST_F(GridProblemFig1, RoutesAreThePathsOfThePaper)
{
    const GridProblem p(topo, workers, ps, switches);
    EXPECT_EQ(p.RouteNodes(topo.FindNode("w4"), topo.FindNode("s2")),
              Nodes(topo, {"w4", "s1", "s2"}));
    EXPECT_EQ(p.RouteNodes(topo.FindNode("s1"), ps), Nodes(topo, {"s1", "s3", "ps"})); // L1
    EXPECT_EQ(p.RouteNodes(topo.FindNode("w5"), ps), Nodes(topo, {"w5", "s2", "s3", "ps"}));
    EXPECT_EQ(p.RouteNodes(ps, ps), Nodes(topo, {"ps"}));
    // The stored route of worker w4 (index 3) to s2 (target 1), edge by edge.
    const std::vector<uint32_t>& e = p.GetWorkerPath(3, 1);
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(p.EdgeName(e[0]), "w4->s1");
    EXPECT_EQ(p.EdgeName(e[1]), "s1->s2");
    EXPECT_EQ(p.GetEdgeFrom(e[1]), p.GetEdgeTo(e[0]));
    ASSERT_EQ(p.GetSwitchPath(1).size(), 2u);
    EXPECT_EQ(p.EdgeName(p.GetSwitchPath(1)[0]), "s2->s3"); // L3
    EXPECT_EQ(p.EdgeName(p.GetSwitchPath(1)[1]), "s3->ps");
    EXPECT_EQ(p.GetSwitchPath(2).size(), 1u);
    // Both directions of a link are distinct edges with the link's rate.
    const uint32_t back = e[1] ^ 1u;
    EXPECT_EQ(p.EdgeName(back), "s2->s1");
    EXPECT_EQ(p.GetEdgeCapacityBps(back), 3e9);
}

TEST(GridProblemRoutes, FollowTheRoutingTablesEcmpChoice)
{
    // A k=4 fat-tree has up to four equal-cost paths between pods: every route must be the one
    // SelectPort gives the route's flow id, hence a shortest path, and the seed must matter.
    const InaTopology topo = InaTopology::FatTree(4, {100000000000ULL, 0}, {100000000000ULL, 0});
    const InaRoutingTable rt(topo);
    const uint32_t ps = 15;
    std::vector<uint32_t> workers{0, 1, 4, 8, 12};
    uint32_t differs = 0;
    for (uint64_t seed : {0ULL, 1ULL, 7ULL})
    {
        const GridProblem p(topo, workers, ps, {{32, 1e11}, {24, 1e11}}, 0, seed);
        for (uint32_t src = 0; src < topo.GetNNodes(); ++src)
        {
            for (uint32_t dst : {0u, 15u, 24u, 32u, 35u})
            {
                const std::vector<uint32_t> nodes = p.RouteNodes(src, dst);
                ASSERT_EQ(nodes.size(), rt.Distance(src, dst) + 1) << src << "->" << dst;
                uint32_t node = src;
                for (std::size_t k = 1; k < nodes.size(); ++k)
                {
                    const uint16_t port =
                        rt.SelectPort(node, dst, GridProblem::PathFlowId(src, dst), seed);
                    node = topo.Neighbors(node)[port].first;
                    ASSERT_EQ(nodes[k], node) << src << "->" << dst << " hop " << k;
                }
                if (seed == 7 &&
                    GridProblem(topo, workers, ps, {}, 0, 0).RouteNodes(src, dst) != nodes)
                {
                    ++differs;
                }
            }
        }
        EXPECT_EQ(p.GetWorkerPath(4, 0).size(), rt.Distance(12, 32));
    }
    EXPECT_GT(differs, 0u);
}

TEST_F(GridProblemFig1, BadInputIsNamed)
{
    const uint32_t s1 = topo.FindNode("s1");
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, {}, ps, switches);
        },
        {"no workers"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, s1, switches);
        },
        {"PS", "'s1'", "a switch"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, 99, switches);
        },
        {"PS", "99", "does not exist"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, {workers[0], s1}, ps, switches);
        },
        {"worker 1", "'s1'", "a switch", "expected a host"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, {workers[0], workers[0]}, ps, switches);
        },
        {"worker 1", "repeats", "'w1'"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, {workers[0], ps}, ps, switches);
        },
        {"worker 1", "the PS"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, ps, {{workers[2], 9e9}});
        },
        {"programmable switch 0", "'w3'", "a host", "expected a switch"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, ps, {{s1, 9e9}, {s1, 9e9}});
        },
        {"programmable switch 1", "repeats", "'s1'"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, ps, {{s1, 0}});
        },
        {"capacity", "'s1'", "expected a finite capacity > 0"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, ps, {{s1, -5e9}});
        },
        {"capacity", "'s1'"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, ps, {{s1, NAN}});
        },
        {"capacity", "'s1'"});
    ExpectInvalid(
        [&] {
            (void)GridProblem(topo, workers, ps, switches, -1);
        },
        {"PS ingress"});
}

} // namespace
