/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GeryonRouter: Geryon-like flow scheduling as one path per worker (GRID paper, Sec. 3.1 and
// Fig. 1(a)), the plan protocol "geryon" runs at packet level.

#include "ns3/geryon-router.h"
#include "ns3/grid-baselines.h"
#include "ns3/grid-problem.h"
#include "ns3/ina-topology.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

const std::string FIG1 = std::string(INASIM_SOURCE_DIR) + "/topologies/grid-fig1.topo";
constexpr double G = 1e9;

std::vector<uint32_t>
Nodes(const InaTopology& t, std::initializer_list<const char*> names)
{
    std::vector<uint32_t> v;
    for (const char* n : names)
    {
        v.push_back(t.FindNode(n));
    }
    return v;
}

/// Workers on every directed edge of the routing.
std::vector<uint32_t>
Loads(const GridProblem& p, const GeryonRouter::Result& r)
{
    std::vector<uint32_t> load(p.GetNEdges(), 0);
    for (const std::vector<uint32_t>& path : r.paths)
    {
        for (std::size_t k = 0; k + 1 < path.size(); ++k)
        {
            const InaTopology& t = p.GetTopology();
            const uint32_t link = t.Neighbors(path[k]).at(t.PortTo(path[k], path[k + 1])).second;
            ++load[2 * link + (t.GetLink(link).a == path[k] ? 0 : 1)];
        }
    }
    return load;
}

} // namespace

// Fig. 1(a): with every worker on its shortest route L1 carries w1-w4 (0.75 Gb/s each); Geryon
// moves one of them over s1 -> s2 -> s3, so L1 and L3 carry three each: 1 Gb/s, the paper's value.
TEST(GeryonRouter, Fig1DetoursOneWorkerOfS1)
{
    const InaTopology t = InaTopology::FromFile(FIG1);
    const auto workers = Nodes(t, {"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"});
    const uint32_t ps = t.FindNode("ps");
    const GridProblem p(t, workers, ps, {});
    const GeryonRouter::Result r = GeryonRouter::Route(p);
    EXPECT_NEAR(r.lambdaBps, 1 * G, 1e-6);
    EXPECT_NE(r.bottleneck.find("link"), std::string::npos) << r.bottleneck;
    const auto sw = Nodes(t, {"s1", "s2", "s3"});
    uint32_t detours = 0;
    for (uint32_t i = 0; i < 8; ++i)
    {
        const std::vector<uint32_t>& path = r.paths.at(i);
        ASSERT_EQ(path.front(), workers[i]);
        ASSERT_EQ(path.back(), ps);
        if (path == std::vector<uint32_t>{workers[i], sw[0], sw[1], sw[2], ps})
        {
            ++detours;
            EXPECT_LT(i, 4u) << "only a worker of s1 detours";
        }
        else
        {
            EXPECT_EQ(path, p.RouteNodes(workers[i], ps)) << "worker " << i;
        }
    }
    EXPECT_EQ(detours, 1u);
    const std::vector<uint32_t> load = Loads(p, r);
    for (uint32_t e = 0; e < p.GetNEdges(); ++e)
    {
        EXPECT_LE(load[e] * 1 * G, p.GetEdgeCapacityBps(e) * (1 + 1e-12)) << p.EdgeName(e);
    }
    const GridPlan plan = GeryonRouter::Plan(p);
    EXPECT_EQ(plan.directWorkers, 8u);
    EXPECT_TRUE(plan.switches.empty());
    EXPECT_EQ(plan.psFanIn, 8u);
    for (uint32_t i = 0; i < 8; ++i)
    {
        EXPECT_EQ(plan.workers[i].node, ps);
        EXPECT_EQ(plan.workers[i].path, r.paths[i]);
        EXPECT_DOUBLE_EQ(plan.workers[i].rateBps, r.lambdaBps);
    }
}

// No alternative path (one switch): min(T, B / N), every worker on its only route.
TEST(GeryonRouter, StarIsMinOfTAndBOverN)
{
    for (uint32_t n : {2u, 5u, 20u})
    {
        const std::string text = "defaults delay=1us\nswitch tor0 tier=tor\nhost h0..h" +
                                 std::to_string(n - 1) +
                                 " attach=tor0 rate=10Gbps\nhost ps attach=tor0 rate=40Gbps\n";
        const InaTopology t = InaTopology::FromString(text, "star");
        std::vector<uint32_t> workers;
        for (uint32_t i = 0; i < n; ++i)
        {
            workers.push_back(i);
        }
        const GridProblem p(t, workers, n, {});
        const GeryonRouter::Result r = GeryonRouter::Route(p);
        EXPECT_NEAR(r.lambdaBps, std::min(10 * G, 40 * G / n), 1e-6) << n;
        for (uint32_t i = 0; i < n; ++i)
        {
            EXPECT_EQ(r.paths[i], p.RouteNodes(i, n));
        }
    }
}

// Two leaves and two 10 Gb/s spines, four workers on one leaf, the PS (100 Gb/s) on the other:
// whatever the fixed routes share, the router spreads the workers two per spine, 5 Gb/s each,
// which is also the splittable optimum (GridBaselines::Geryon).
TEST(GeryonRouter, SpreadsOverSpines)
{
    const InaTopology t =
        InaTopology::FromString("defaults rate=10Gbps delay=1us\n"
                                "switch l0..l1 tier=tor\n"
                                "switch p0..p1 tier=spine\n"
                                "host h0..h3 attach=l0\n"
                                "host ps attach=l1 rate=100Gbps\n"
                                "link l0 p0\nlink l0 p1\nlink l1 p0\nlink l1 p1\n",
                                "leaf-spine");
    const GridProblem p(t, {0, 1, 2, 3}, 4, {});
    const GeryonRouter::Result r = GeryonRouter::Route(p);
    EXPECT_NEAR(r.lambdaBps, 5 * G, 1e-6);
    EXPECT_NEAR(r.lambdaBps, GridBaselines::Geryon(p).lambdaBps, 1e-3);
    uint32_t viaP0 = 0;
    for (const auto& path : r.paths)
    {
        ASSERT_EQ(path.size(), 5u);
        viaP0 += path[2] == t.FindNode("p0") ? 1 : 0;
    }
    EXPECT_EQ(viaP0, 2u);
}
