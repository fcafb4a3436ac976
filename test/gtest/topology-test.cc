/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Topology generators, the topology file format, and route computation (ECMP sets, multicast
// trees). Expected values are worked out by hand in the comments.

#include "../../src/ina-fabric/test/error-of.h"
#include "test-temp-dir.h"

#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-routing-table.h"
#include "ns3/ina-topology.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const InaTopology::LinkSpec G100{100000000000ULL, 1000000};
const std::string TOPO_DIR = std::string(INASIM_SOURCE_DIR) + "/topologies/";

/// The error message of parsing `text`, or "" if it parsed.
std::string
ParseError(const std::string& text)
{
    return ns3::tests::ErrorOf<std::runtime_error>([&] {
        InaTopology::FromString(text, "mem.topo");
    });
}

/// Plain BFS hop counts from `src`, independent of InaRoutingTable.
std::vector<uint32_t>
Bfs(const InaTopology& t, uint32_t src)
{
    std::vector<uint32_t> dist(t.GetNNodes(), UINT32_MAX);
    std::vector<uint32_t> q{src};
    dist[src] = 0;
    for (size_t i = 0; i < q.size(); ++i)
    {
        for (const auto& nb : t.Neighbors(q[i]))
        {
            if (dist[nb.first] == UINT32_MAX)
            {
                dist[nb.first] = dist[q[i]] + 1;
                q.push_back(nb.first);
            }
        }
    }
    return dist;
}

/// Number of shortest paths src -> every node, by dynamic programming over BFS layers.
std::vector<uint64_t>
CountPaths(const InaTopology& t, uint32_t src)
{
    std::vector<uint32_t> dist = Bfs(t, src);
    std::vector<uint32_t> order(t.GetNNodes());
    for (uint32_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return dist[a] < dist[b];
    });
    std::vector<uint64_t> count(t.GetNNodes(), 0);
    count[src] = 1;
    for (uint32_t u : order)
    {
        for (const auto& nb : t.Neighbors(u))
        {
            if (dist[nb.first] == dist[u] + 1 && !(u != src && t.IsHost(u)))
            {
                count[nb.first] += count[u];
            }
        }
    }
    return count;
}

/// Walks a flow hop by hop with SelectPort; returns the nodes visited.
std::vector<uint32_t>
Walk(const InaRoutingTable& rt, uint32_t src, uint32_t dst, uint32_t flow, uint64_t seed)
{
    std::vector<uint32_t> path{src};
    uint32_t node = src;
    while (node != dst && path.size() < 64)
    {
        node = rt.GetTopology().Neighbors(node)[rt.SelectPort(node, dst, flow, seed)].first;
        path.push_back(node);
    }
    return path;
}

/// Follows a multicast tree from the root; returns how often each node receives a copy.
std::map<uint32_t, uint32_t>
WalkTree(const InaRoutingTable& rt,
         uint32_t root,
         const std::vector<InaRoutingTable::MulticastEntry>& tree,
         std::map<uint32_t, uint32_t>& depth)
{
    const InaTopology& t = rt.GetTopology();
    std::map<uint32_t, std::vector<uint16_t>> ports(tree.begin(), tree.end());
    std::map<uint32_t, uint32_t> received;
    std::vector<std::pair<uint32_t, uint32_t>> stack; // (node, depth)
    if (t.IsHost(root))
    {
        stack.emplace_back(t.Neighbors(root)[0].first, 1);
        received[t.Neighbors(root)[0].first]++;
    }
    else
    {
        stack.emplace_back(root, 0);
    }
    while (!stack.empty())
    {
        auto [node, d] = stack.back();
        stack.pop_back();
        depth[node] = d;
        auto it = ports.find(node);
        if (it == ports.end())
        {
            continue;
        }
        for (uint16_t p : it->second)
        {
            uint32_t child = t.Neighbors(node)[p].first;
            if (received[child]++ == 0)
            {
                stack.emplace_back(child, d + 1);
            }
        }
    }
    return received;
}

} // namespace

// ---------------------------------------------------------------- generators: counts

TEST(TopologyGenerators, StarCounts)
{
    for (uint32_t hosts : {8u, 64u})
    {
        InaTopology t = InaTopology::Star(hosts, G100);
        EXPECT_EQ(t.GetNHosts(), hosts);
        EXPECT_EQ(t.GetNSwitches(), 1u);
        EXPECT_EQ(t.GetNLinks(), hosts);
        EXPECT_EQ(t.GetNode(hosts).name, "tor0");
        EXPECT_EQ(t.HostsUnder(hosts).size(), hosts);
    }
}

TEST(TopologyGenerators, FatTreeCounts)
{
    // hosts k^3/4; switches k^2/2 ToR + k^2/2 agg + k^2/4 core = 5k^2/4;
    // links: k^3/4 host + k*(k/2)^2 ToR-agg + k*(k/2)^2 agg-core = 3k^3/4.
    struct Expect
    {
        uint32_t k, hosts, switches, links;
    };

    for (const Expect& e : {Expect{4, 16, 20, 48}, Expect{6, 54, 45, 162}, Expect{8, 128, 80, 384}})
    {
        InaTopology t = InaTopology::FatTree(e.k, G100, G100);
        EXPECT_EQ(t.GetNHosts(), e.hosts) << "k=" << e.k;
        EXPECT_EQ(t.GetNSwitches(), e.switches) << "k=" << e.k;
        EXPECT_EQ(t.GetNLinks(), e.links) << "k=" << e.k;
        EXPECT_EQ(t.NodesInTier("tor").size(), e.k * e.k / 2);
        EXPECT_EQ(t.NodesInTier("agg").size(), e.k * e.k / 2);
        EXPECT_EQ(t.NodesInTier("core").size(), e.k * e.k / 4);
        for (uint32_t s = t.GetNHosts(); s < t.GetNNodes(); ++s)
        {
            EXPECT_EQ(t.Neighbors(s).size(), e.k) << "every fat-tree switch has k ports";
        }
    }
}

TEST(TopologyGenerators, FatTreeHostsPerTor)
{
    // GRID's fabric: a k=8 fat-tree with 6 hosts per ToR: 32 ToRs x 6 = 192 hosts, the same 80
    // switches, links 192 + 8*4*4 + 8*4*4 = 448; a ToR has 6 + 4 ports and is 1.5:1.
    InaTopology t = InaTopology::FatTree(8, G100, G100, 6);
    EXPECT_EQ(t.GetNHosts(), 192u);
    EXPECT_EQ(t.GetNSwitches(), 80u);
    EXPECT_EQ(t.GetNLinks(), 448u);
    const uint32_t tor0 = t.FindNode("tor0");
    EXPECT_EQ(t.Neighbors(tor0).size(), 10u);
    EXPECT_DOUBLE_EQ(t.Oversubscription(tor0), 1.5);
    EXPECT_DOUBLE_EQ(t.Oversubscription(t.FindNode("agg0")), 1.0);
    // Hosts 0..5 under tor0, 6..11 under tor1 (pod 0); host 24 is the first of pod 1.
    EXPECT_EQ(t.Neighbors(5)[0].first, tor0);
    EXPECT_EQ(t.Neighbors(6)[0].first, t.FindNode("tor1"));
    EXPECT_EQ(t.GetNode(24).pod, 1u);
    EXPECT_EQ(t.GetNode(24).index, 0u);
    // hostsPerTor = k/2 is the classic fat-tree, node for node.
    InaTopology a = InaTopology::FatTree(4, G100, G100);
    InaTopology b = InaTopology::FatTree(4, G100, G100, 2);
    EXPECT_EQ(a.GetNNodes(), b.GetNNodes());
    EXPECT_EQ(a.GetNLinks(), b.GetNLinks());
    for (uint32_t l = 0; l < a.GetNLinks(); ++l)
    {
        EXPECT_EQ(a.GetLink(l).a, b.GetLink(l).a);
        EXPECT_EQ(a.GetLink(l).b, b.GetLink(l).b);
    }
    // Fewer hosts than uplinks (undersubscribed) is allowed.
    InaTopology one = InaTopology::FatTree(4, G100, G100, 1);
    EXPECT_EQ(one.GetNHosts(), 8u);
    EXPECT_DOUBLE_EQ(one.Oversubscription(one.FindNode("tor0")), 0.5);
    EXPECT_THROW(InaTopology::FatTree(4, G100, G100, 65535), std::invalid_argument);
}

TEST(TopologyGenerators, LeafSpineCounts)
{
    InaTopology a = InaTopology::LeafSpine(4, 2, 8, G100, G100);
    EXPECT_EQ(a.GetNHosts(), 32u);
    EXPECT_EQ(a.GetNSwitches(), 6u);
    EXPECT_EQ(a.GetNLinks(), 40u); // 32 host + 4*2 fabric
    InaTopology b = InaTopology::LeafSpine(16, 4, 32, G100, G100);
    EXPECT_EQ(b.GetNHosts(), 512u);
    EXPECT_EQ(b.GetNSwitches(), 20u);
    EXPECT_EQ(b.GetNLinks(), 576u); // 512 + 16*4
    EXPECT_EQ(b.NodesInTier("spine"), (std::vector<uint32_t>{528, 529, 530, 531}));
}

TEST(TopologyGenerators, InvalidArguments)
{
    for (uint32_t k : {0u, 2u, 3u, 5u, 7u})
    {
        try
        {
            InaTopology::FatTree(k, G100, G100);
            ADD_FAILURE() << "k=" << k << " accepted";
        }
        catch (const std::invalid_argument& e)
        {
            EXPECT_NE(std::string(e.what()).find(
                          "k must be even and >= 4 (got k=" + std::to_string(k) + ")"),
                      std::string::npos)
                << e.what();
        }
    }
    EXPECT_THROW(InaTopology::Star(0, G100), std::invalid_argument);
    EXPECT_THROW(InaTopology::Star(70000, G100), std::invalid_argument);
    EXPECT_THROW(InaTopology::LeafSpine(0, 2, 8, G100, G100), std::invalid_argument);
    EXPECT_THROW(InaTopology::LeafSpine(4, 0, 8, G100, G100), std::invalid_argument);
    EXPECT_THROW(InaTopology::LeafSpine(4, 2, 0, G100, G100), std::invalid_argument);
    EXPECT_THROW(InaTopology::Star(4, {0, 1000}), std::invalid_argument);
    EXPECT_THROW(InaTopology::FatTree(4, G100, {1000, -1}), std::invalid_argument);
}

// A mistyped size is refused before anything is allocated: a fat-tree of k=1000 died of
// std::bad_alloc, a leaf-spine of 1.8e9 hosts took 2 GB and 14 s to fail the same way, and a
// topology of more than MAX_SWITCHES switches would need over 1 GiB of routes.
TEST(TopologyGenerators, SizeBounds)
{
    auto message = [](auto make) {
        try
        {
            make();
        }
        catch (const std::exception& e)
        {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(
        message([] {
            InaTopology::FatTree(1000, G100, G100);
        }).find("has 250000000 hosts and 1250000 switches; a topology has at most 1048576 nodes"),
        std::string::npos);
    EXPECT_NE(
        message([] {
            InaTopology::LeafSpine(60000, 4, 30000, G100, G100);
        }).find("has 1800000000 hosts and 60004 switches; a topology has at most 1048576 nodes"),
        std::string::npos);
    EXPECT_NE(message([] {
                  InaTopology::LeafSpine(16381, 4, 1, G100, G100);
              }).find("has 16385 switches; a topology has at most 16384"),
              std::string::npos);
    // The largest fabric inasim is built for stays well within both bounds.
    EXPECT_EQ(InaTopology::FatTree(48, G100, G100).GetNNodes(), 30528u);
    EXPECT_EQ(InaTopology::LeafSpine(16380, 4, 1, G100, G100).GetNNodes(), 16380u + 16384u);
    // A topology file is bounded as it is read, at the line that crosses the bound.
    const std::string many = "defaults rate=100Gbps delay=1us\nswitch s0..s16384 tier=tor\n";
    EXPECT_NE(message([&] {
                  InaTopology::FromString(many, "mem.topo");
              }).find("mem.topo:2: too many switches (a topology has at most 16384"),
              std::string::npos);
}

// ---------------------------------------------------------------- address plan, accessors

TEST(TopologyAddressPlan, FatTreeK4)
{
    InaTopology t = InaTopology::FatTree(4, G100, G100);
    // 0..15 hosts, 16..23 ToRs, 24..31 aggs, 32..35 cores
    EXPECT_EQ(t.GetTiers(), (std::vector<std::string>{"host", "tor", "agg", "core"}));
    EXPECT_EQ(t.GetNode(0).name, "h0");
    EXPECT_EQ(t.GetNode(16).name, "tor0");
    EXPECT_EQ(t.GetNode(24).name, "agg0");
    EXPECT_EQ(t.GetNode(35).name, "core3");
    EXPECT_EQ(t.FindNode("agg5"), 29u);
    EXPECT_THROW(t.FindNode("agg9"), std::invalid_argument);
    EXPECT_EQ(t.RackOf(0), 16u);
    EXPECT_EQ(t.RackOf(1), 16u);
    EXPECT_EQ(t.RackOf(2), 17u);
    EXPECT_EQ(t.RackOf(15), 23u);
    EXPECT_THROW(t.RackOf(16), std::invalid_argument);
    EXPECT_EQ(t.HostsUnder(17), (std::vector<uint32_t>{2, 3}));
    EXPECT_TRUE(t.HostsUnder(24).empty());
    EXPECT_THROW(t.HostsUnder(3), std::invalid_argument);
    EXPECT_EQ(t.GetTier(5), "host");
    EXPECT_EQ(t.GetTier(26), "agg");
    EXPECT_EQ(t.GetLevel(0), 0u);
    EXPECT_EQ(t.GetLevel(20), 1u);
    EXPECT_EQ(t.GetLevel(27), 2u);
    EXPECT_EQ(t.GetLevel(33), 3u);
    // host 5 = pod 1 (hosts 4..7), second host of the pod; agg 26 = pod 1, j = 0
    EXPECT_EQ(t.GetNode(5).pod, 1u);
    EXPECT_EQ(t.GetNode(5).index, 1u);
    EXPECT_EQ(t.GetNode(26).pod, 1u);
    EXPECT_EQ(t.GetNode(26).index, 0u);
    EXPECT_EQ(t.GetNode(23).pod, 3u);
    EXPECT_EQ(t.GetNode(23).index, 1u);
    EXPECT_EQ(t.NodesInTier("core"), (std::vector<uint32_t>{32, 33, 34, 35}));
    EXPECT_TRUE(t.NodesInTier("spine").empty());

    // ToR 16 (pod 0, i 0): hosts 0, 1 then aggs 24, 25; ports in ascending neighbour order.
    const auto& tor = t.Neighbors(16);
    ASSERT_EQ(tor.size(), 4u);
    EXPECT_EQ(tor[0].first, 0u);
    EXPECT_EQ(tor[1].first, 1u);
    EXPECT_EQ(tor[2].first, 24u);
    EXPECT_EQ(tor[3].first, 25u);
    EXPECT_EQ(tor[0].second, 0u); // the link of host 0 is link 0
    EXPECT_EQ(t.PortTo(16, 25), 3u);
    EXPECT_THROW(t.PortTo(16, 26), std::invalid_argument);
    // agg j=1 of pod 2 (node 29) connects to ToRs 20, 21 and cores 2, 3 (nodes 34, 35).
    std::vector<uint32_t> nb;
    for (const auto& e : t.Neighbors(29))
    {
        nb.push_back(e.first);
    }
    EXPECT_EQ(nb, (std::vector<uint32_t>{20, 21, 34, 35}));
    // core 0 connects to agg 0 of every pod.
    nb.clear();
    for (const auto& e : t.Neighbors(32))
    {
        nb.push_back(e.first);
    }
    EXPECT_EQ(nb, (std::vector<uint32_t>{24, 26, 28, 30}));
    // links: 16 host links, then ToR-agg, then agg-core
    EXPECT_EQ(t.GetLink(16).a, 16u);
    EXPECT_EQ(t.GetLink(16).b, 24u);
    EXPECT_EQ(t.GetLink(32).a, 24u);
    EXPECT_EQ(t.GetLink(32).b, 32u);
    EXPECT_THROW(t.GetLink(48), std::out_of_range);
    EXPECT_THROW(t.GetNode(36), std::out_of_range);
}

TEST(TopologyAddressPlan, LeafSpineAndStar)
{
    InaTopology t = InaTopology::LeafSpine(3, 2, 4, G100, G100);
    // hosts 0..11 (4 per leaf), leaves 12..14, spines 15..16
    EXPECT_EQ(t.GetTiers(), (std::vector<std::string>{"host", "leaf", "spine"}));
    EXPECT_EQ(t.RackOf(7), 13u);
    EXPECT_EQ(t.GetNode(13).name, "leaf1");
    EXPECT_EQ(t.GetNode(16).name, "spine1");
    EXPECT_EQ(t.HostsUnder(14), (std::vector<uint32_t>{8, 9, 10, 11}));
    EXPECT_EQ(t.PortTo(14, 16), 5u);
    InaTopology s = InaTopology::Star(3, G100);
    EXPECT_EQ(s.GetTiers(), (std::vector<std::string>{"host", "tor"}));
    EXPECT_EQ(s.RackOf(2), 3u);
}

TEST(TopologyOversubscription, Values)
{
    InaTopology::LinkSpec g40{40000000000ULL, 1000000};
    InaTopology::LinkSpec g400{400000000000ULL, 1000000};
    // 8 hosts x 100G over 2 x 100G uplinks = 4
    InaTopology a = InaTopology::LeafSpine(4, 2, 8, G100, G100);
    EXPECT_DOUBLE_EQ(a.Oversubscription(32), 4.0);
    EXPECT_DOUBLE_EQ(a.MaxOversubscription(), 4.0);
    // 8 x 40G / (2 x 100G) = 1.6
    EXPECT_DOUBLE_EQ(InaTopology::LeafSpine(4, 2, 8, g40, G100).Oversubscription(35), 1.6);
    // 8 x 100G / (2 x 400G) = 1
    EXPECT_DOUBLE_EQ(InaTopology::LeafSpine(4, 2, 8, G100, g400).MaxOversubscription(), 1.0);
    EXPECT_THROW(a.Oversubscription(36), std::invalid_argument); // a spine: no uplink
    EXPECT_THROW(a.Oversubscription(0), std::invalid_argument);  // a host
    // fat-tree: 2 down / 2 up at both ToR and agg, with fabric at half rate: 2
    InaTopology f = InaTopology::FatTree(4, G100, {50000000000ULL, 0});
    EXPECT_DOUBLE_EQ(f.Oversubscription(16), 2.0);
    EXPECT_DOUBLE_EQ(f.Oversubscription(24), 1.0);
    EXPECT_DOUBLE_EQ(f.MaxOversubscription(), 2.0);
    EXPECT_DOUBLE_EQ(InaTopology::Star(8, G100).MaxOversubscription(), 1.0);
}

// ---------------------------------------------------------------- file format

namespace
{

/// Checks a loaded topology's host, switch and link counts.
void
ExpectSize(const InaTopology& t, uint32_t hosts, uint32_t switches, uint32_t links)
{
    EXPECT_EQ(t.GetNHosts(), hosts);
    EXPECT_EQ(t.GetNSwitches(), switches);
    EXPECT_EQ(t.GetNLinks(), links);
}

} // namespace

TEST(TopologyFile, ExamplesLoad)
{
    InaTopology small = InaTopology::FromFile(TOPO_DIR + "small-2tier.topo");
    ExpectSize(small, 8u, 4u, 12u);
    EXPECT_EQ(small.GetLink(8).delayPs, 500000); // tor0-spine0 overrides the default delay
    EXPECT_EQ(small.GetLink(0).delayPs, 1000000);
    EXPECT_DOUBLE_EQ(small.MaxOversubscription(), 2.0);

    InaTopology ls = InaTopology::FromFile(TOPO_DIR + "leaf-spine-oversub.topo");
    ExpectSize(ls, 56u, 6u, 64u);
    EXPECT_EQ(ls.FindNode("gpu0"), 48u);
    EXPECT_EQ(ls.FindNode("leaf0"), 56u);
    EXPECT_EQ(ls.GetLink(0).rateBps, 25000000000ULL);
    EXPECT_EQ(ls.GetLink(48).rateBps, 100000000000ULL);
    EXPECT_EQ(ls.GetLink(48).delayPs, 500000);
    EXPECT_DOUBLE_EQ(ls.Oversubscription(ls.FindNode("leaf0")), 2.0); // 16 x 25 / 200
    EXPECT_DOUBLE_EQ(ls.Oversubscription(ls.FindNode("leaf3")), 4.0); // 8 x 100 / 200
    EXPECT_DOUBLE_EQ(ls.MaxOversubscription(), 4.0);

    // example.topo: 16 workers at 25G + ps0 at 100G; ps0 shares tor0, so it is node 4.
    InaTopology ex = InaTopology::FromFile(TOPO_DIR + "example.topo");
    ExpectSize(ex, 17u, 9u, 29u);
    EXPECT_EQ(ex.FindNode("ps0"), 4u);
    EXPECT_EQ(ex.FindNode("h4"), 5u);
    EXPECT_EQ(ex.FindNode("tor0"), 17u);
    EXPECT_EQ(ex.FindNode("agg0"), 21u);
    EXPECT_EQ(ex.FindNode("core0"), 25u);
    EXPECT_EQ(ex.HostsUnder(17), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(ex.GetLink(4).rateBps, 100000000000ULL); // ps0's link
    EXPECT_EQ(ex.GetLink(5).rateBps, 25000000000ULL);
    EXPECT_EQ(ex.GetNode(ex.FindNode("h9")).pod, 1u);
    EXPECT_EQ(ex.GetNode(ex.FindNode("agg3")).index, 1u);
    EXPECT_DOUBLE_EQ(ex.Oversubscription(17), 1.0); // 4 x 25 + 100 down, 2 x 100 up
    EXPECT_DOUBLE_EQ(ex.Oversubscription(18), 0.5);
    EXPECT_DOUBLE_EQ(ex.Oversubscription(21), 4.0); // 2 x 100 down, 50 up
    EXPECT_DOUBLE_EQ(ex.MaxOversubscription(), 4.0);

    // Every file in topologies/ loads.
    uint32_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(TOPO_DIR))
    {
        if (entry.path().extension() == ".topo")
        {
            EXPECT_NO_THROW(InaTopology::FromFile(entry.path().string())) << entry.path();
            ++files;
        }
    }
    EXPECT_GE(files, 4u);
}

TEST(TopologyFile, FatTreeFileEqualsGenerator)
{
    InaTopology file = InaTopology::FromFile(TOPO_DIR + "fat-tree-k4.topo");
    InaTopology gen = InaTopology::FatTree(4, G100, G100);
    ASSERT_EQ(file.GetNNodes(), gen.GetNNodes());
    ASSERT_EQ(file.GetNLinks(), gen.GetNLinks());
    for (uint32_t i = 0; i < gen.GetNNodes(); ++i)
    {
        EXPECT_EQ(file.GetNode(i).name, gen.GetNode(i).name) << i;
        EXPECT_EQ(file.GetNode(i).tier, gen.GetNode(i).tier) << i;
        EXPECT_EQ(file.GetNode(i).pod, gen.GetNode(i).pod) << i;
        EXPECT_EQ(file.GetNode(i).index, gen.GetNode(i).index) << i;
    }
    for (uint32_t l = 0; l < gen.GetNLinks(); ++l)
    {
        EXPECT_EQ(file.GetLink(l).a, gen.GetLink(l).a) << l;
        EXPECT_EQ(file.GetLink(l).b, gen.GetLink(l).b) << l;
        EXPECT_EQ(file.GetLink(l).rateBps, gen.GetLink(l).rateBps) << l;
        EXPECT_EQ(file.GetLink(l).delayPs, gen.GetLink(l).delayPs) << l;
    }
}

TEST(TopologyFile, NumberingUnitsAndRanges)
{
    // Declared out of order: t1 before t0, hosts interleaved. The address plan puts hosts in rack
    // order (t1's host b first), then switches tier by tier in declaration order.
    const std::string text = "# test\n"
                             "defaults rate=100Gbps delay=1us\n"
                             "switch s1 tier=spine\n"
                             "switch t1 tier=tor pod=7\n"
                             "switch t0 tier=tor\n"
                             "host a attach=t0\n"
                             "host b attach=t1 rate=2.5Gbps delay=1.5ns\n"
                             "host c\n"
                             "link c t0 delay=0ps   # attaches host c\n"
                             "link t0 s1\n"
                             "link t1 s1 rate=1Tbps delay=0.5us\n";
    InaTopology t = InaTopology::FromString(text, "mem.topo");
    ASSERT_EQ(t.GetNNodes(), 6u);
    EXPECT_EQ(t.GetNode(0).name, "b");
    EXPECT_EQ(t.GetNode(1).name, "a");
    EXPECT_EQ(t.GetNode(2).name, "c");
    EXPECT_EQ(t.GetNode(3).name, "t1");
    EXPECT_EQ(t.GetNode(4).name, "t0");
    EXPECT_EQ(t.GetNode(5).name, "s1");
    EXPECT_EQ(t.GetNode(0).pod, 7u); // a host's pod is its rack's
    EXPECT_EQ(t.GetNode(0).index, 0u);
    EXPECT_EQ(t.GetNode(2).index, 1u); // second host of pod 0
    EXPECT_EQ(t.GetTiers(), (std::vector<std::string>{"host", "tor", "spine"}));
    ASSERT_EQ(t.GetNLinks(), 5u);
    // host links first in host order, a = host; then link lines in file order
    EXPECT_EQ(t.GetLink(0).a, 0u);
    EXPECT_EQ(t.GetLink(0).b, 3u);
    EXPECT_EQ(t.GetLink(0).rateBps, 2500000000ULL);
    EXPECT_EQ(t.GetLink(0).delayPs, 1500);
    EXPECT_EQ(t.GetLink(1).b, 4u);
    EXPECT_EQ(t.GetLink(1).delayPs, 1000000);
    EXPECT_EQ(t.GetLink(2).a, 2u);
    EXPECT_EQ(t.GetLink(2).delayPs, 0);
    EXPECT_EQ(t.GetLink(3).a, 4u);
    EXPECT_EQ(t.GetLink(3).b, 5u);
    EXPECT_EQ(t.GetLink(4).a, 3u);
    EXPECT_EQ(t.GetLink(4).rateBps, 1000000000000ULL);
    EXPECT_EQ(t.GetLink(4).delayPs, 500000);

    // Ranges: hosts spread in blocks over a range of switches; link ranges are all pairs.
    InaTopology r = InaTopology::FromString("defaults rate=10Mbps delay=2ms\n"
                                            "switch x0..x2 tier=tor\n"
                                            "switch y5..y6 tier=spine\n"
                                            "host n1..n6 attach=x0..x2\n"
                                            "link x0..x2 y5..y6\n",
                                            "r.topo");
    EXPECT_EQ(r.GetNLinks(), 12u);
    EXPECT_EQ(r.GetNode(r.RackOf(r.FindNode("n4"))).name, "x1");
    EXPECT_EQ(r.GetNode(r.RackOf(r.FindNode("n6"))).name, "x2");
    EXPECT_EQ(r.GetLink(6).rateBps, 10000000ULL);
    EXPECT_EQ(r.GetLink(6).delayPs, 2000000000LL);
    EXPECT_EQ(r.Neighbors(r.FindNode("y6")).size(), 3u);
    // CRLF line ends are accepted
    EXPECT_EQ(InaTopology::FromString("switch s tier=tor\r\nhost h attach=s rate=1bps delay=1s\r\n",
                                      "crlf.topo")
                  .GetLink(0)
                  .delayPs,
              1000000000000LL);
}

TEST(TopologyFile, ErrorsNameTheLine)
{
    struct Case
    {
        std::string text;
        std::string expect; // must appear in the message, which starts with "mem.topo:LINE: "
    };

    const std::string head = "defaults rate=100Gbps delay=1us\n" // line 1
                             "switch t0 tier=tor\n"              // line 2
                             "switch t1 tier=tor\n";             // line 3
    const std::vector<Case> cases = {
        {head + "swich s0 tier=spine\n", "mem.topo:4: unknown directive 'swich'"},
        {head + "host h0 attach=t0\nlink t0 t9\n", "mem.topo:5: unknown node 't9' in link"},
        {head + "host h0 attach=t9\n", "mem.topo:4: unknown node 't9' in attach="},
        {head + "\n# comment\nswitch t0 tier=agg\n",
         "mem.topo:6: duplicate name 't0' (first declared at line 2)"},
        {head + "host h0..h3 attach=t0\nhost h2 attach=t1\n",
         "mem.topo:5: duplicate name 'h2' (first declared at line 4)"},
        {head + "host h0 attach=t0\nlink t0 t1 rate=100Gbs\n",
         "mem.topo:5: bad rate '100Gbs': expected a non-negative number followed by a unit bps, "
         "Kbps, Mbps, Gbps or Tbps (unknown unit 'Gbs')"},
        {head + "host h0 attach=t0\nlink t0 t1 rate=fast\n", "mem.topo:5: bad rate 'fast'"},
        {head + "host h0 attach=t0\nlink t0 t1 rate=0Gbps\n",
         "mem.topo:5: bad rate '0Gbps': a rate must be > 0"},
        {head + "host h0 attach=t0\nlink t0 t1 delay=10\n",
         "mem.topo:5: bad delay '10': expected a non-negative number followed by a unit ps, ns, "
         "us, ms or s (the unit is missing)"},
        {head + "host h0 attach=t0\nlink t0 t1 delay=1.5ps\n",
         "mem.topo:5: bad delay '1.5ps': not a whole number of ps"},
        {head + "host h0 attach=t0\nlink t0 t1 delay=-1us\n", "mem.topo:5: bad delay '-1us'"},
        {"defaults delay=1us\nswitch t0 tier=tor\nhost h0 attach=t0\n",
         "mem.topo:3: no rate for this link"},
        {head + "host h0 attach=t0\nhost h1\nlink t0 t1\n",
         "mem.topo:5: host 'h1' has no attachment"},
        {head + "host h0 attach=t0\nlink t1 h0\n",
         "mem.topo:5: host 'h0' is already attached to 't0' (line 4): expected exactly one "
         "attachment per host"},
        {head + "host h0 attach=t0\nhost h1 attach=t1\n",
         "mem.topo:3: node 't1' cannot be reached from 'h0'"},
        {head + "switch s0 tier=spine\nhost h0 attach=t0\nlink t0 t1\n",
         "mem.topo:4: node 's0' cannot be reached from 'h0'"},
        {head + "host h0 attach=t0\nlink t0 t0\n", "mem.topo:5: link from 't0' to itself"},
        {head + "host h0 attach=t0\nlink t0 t1 speed=1Gbps\n",
         "mem.topo:5: unknown key 'speed' for 'link': expected one of rate, delay"},
        {head + "host h0 attach=t0\nlink t0 t1 rate = 1Gbps\n",
         "mem.topo:5: bad '=': expected KEY=VALUE with no spaces around '='"},
        {head + "host h0 attach=t0\nlink t0 rate=1Gbps t1\n",
         "mem.topo:5: 't1' after rate=: expected names first, then KEY=VALUE pairs"},
        {head + "host h0 attach=t0 attach=t1\n", "mem.topo:4: key 'attach' given twice"},
        {head + "host h0 attach=t0\nhost h1 attach=h0\n",
         "mem.topo:5: attach='h0' is a host: expected a switch"},
        {head + "host h0 attach=t0\nhost h1 attach=t0\nlink h0 h1\n",
         "mem.topo:6: link between hosts 'h0' and 'h1'"},
        {head + "host h0 attach=t0\nlink t0 t1\nlink t1 t0 rate=1Gbps\n",
         "mem.topo:6: second link between 't1' and 't0' (first at line 5)"},
        {head + "host h5..h2 attach=t0\n", "mem.topo:4: bad range 'h5..h2'"},
        {head + "host h0..g3 attach=t0\n", "mem.topo:4: bad range 'h0..g3': both ends must share"},
        {head + "host h0..h2 attach=t0..t1\n",
         "mem.topo:4: 3 hosts cannot be spread evenly over 2 switches"},
        {head + "switch s tier=host\n", "mem.topo:4: tier 'host' is reserved"},
        {head + "switch s pod=1\n", "mem.topo:4: 'switch' needs tier=TIER"},
        {head + "switch s tier=spine pod=x\n", "mem.topo:4: bad pod 'x'"},
        {head + "host h!\n", "mem.topo:4: bad name 'h!'"},
        {head + "host h0 rate=1Gbps\n", "mem.topo:4: rate=/delay=/mtu= on a 'host' line"},
        {head + "link t0\n", "mem.topo:4: 'link' takes two names"},
        {head + "\n\n", "mem.topo:5: no hosts declared"},
        {"", "mem.topo:1: no hosts declared"},
    };
    for (const Case& c : cases)
    {
        std::string msg = ParseError(c.text);
        EXPECT_NE(msg.find(c.expect), std::string::npos)
            << "input:\n"
            << c.text << "\nexpected to contain: " << c.expect << "\ngot: " << msg;
        EXPECT_EQ(msg.rfind("mem.topo:", 0), 0u) << msg;
    }
}

TEST(TopologyFile, FromFileNamesPathAndLine)
{
    const std::string path = (inasim_test::TempDir() / "inasim-topology-test-bad.topo").string();
    {
        std::ofstream out(path);
        out << "# bad\nswitch t0 tier=tor\nhost h0 attach=t0 rate=1Gbps delay=1us\nlnk t0 h0\n";
    }
    try
    {
        InaTopology::FromFile(path);
        ADD_FAILURE() << "bad file accepted";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  path + ":4: unknown directive 'lnk': expected one of defaults, switch, host, "
                         "link (or a # comment)");
    }
    std::remove(path.c_str());
    try
    {
        InaTopology::FromFile(path);
        ADD_FAILURE() << "missing file accepted";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "cannot open topology file '" + path + "': No such file or directory");
    }
}

// ---------------------------------------------------------------- routing

TEST(TopologyRouting, FatTreeK4NextHopsAndPaths)
{
    InaRoutingTable rt(InaTopology::FatTree(4, G100, G100));
    // h0 (pod 0, ToR 16) to h15 (pod 3, ToR 23): (k/2)^2 = 4 shortest paths of 6 hops.
    EXPECT_EQ(rt.Distance(0, 15), 6u);
    auto paths = rt.AllShortestPaths(0, 15);
    ASSERT_EQ(paths.size(), 4u);
    // lowest port first: via agg 24 (core 32, 33), then agg 25 (cores 34, 35), down agg 30/31
    EXPECT_EQ(paths[0], (std::vector<uint32_t>{0, 16, 24, 32, 30, 23, 15}));
    EXPECT_EQ(paths[1], (std::vector<uint32_t>{0, 16, 24, 33, 30, 23, 15}));
    EXPECT_EQ(paths[2], (std::vector<uint32_t>{0, 16, 25, 34, 31, 23, 15}));
    EXPECT_EQ(paths[3], (std::vector<uint32_t>{0, 16, 25, 35, 31, 23, 15}));
    // h0 -port 0-> tor16 -3-> agg25 -2-> core34 -3-> agg31 -1-> tor23 -1-> h15
    EXPECT_EQ(rt.PathPorts(paths[2]), (std::vector<uint16_t>{0, 3, 2, 3, 1, 1}));
    EXPECT_THROW(rt.PathPorts({0, 24}), std::invalid_argument);

    EXPECT_EQ(rt.NextHops(16, 15), (std::vector<uint16_t>{2, 3})); // ToR: both aggs
    EXPECT_EQ(rt.NextHops(24, 15), (std::vector<uint16_t>{2, 3})); // agg: both of its cores
    EXPECT_EQ(rt.NextHops(32, 15), (std::vector<uint16_t>{3}));    // core 0: agg 30 of pod 3
    EXPECT_EQ(rt.NextHops(30, 15), (std::vector<uint16_t>{1}));    // down to ToR 23
    EXPECT_EQ(rt.NextHops(23, 15), (std::vector<uint16_t>{1}));    // ToR 23: port of h15
    EXPECT_EQ(rt.NextHops(23, 14), (std::vector<uint16_t>{0}));
    EXPECT_EQ(rt.NextHops(0, 15), (std::vector<uint16_t>{0})); // a host: its only port
    EXPECT_TRUE(rt.NextHops(15, 15).empty());
    EXPECT_TRUE(rt.NextHops(16, 16).empty());
    EXPECT_EQ(rt.NextHops(16, 35), (std::vector<uint16_t>{3})); // to core 3 only via agg 25
    EXPECT_EQ(rt.NextHops(32, 16), (std::vector<uint16_t>{0})); // core 0 to ToR 16 via agg 24

    // same pod, other rack: 2 paths of 4 hops; same rack: 1 path of 2 hops
    EXPECT_EQ(rt.Distance(0, 2), 4u);
    EXPECT_EQ(rt.AllShortestPaths(0, 2).size(), 2u);
    EXPECT_EQ(rt.Distance(0, 1), 2u);
    EXPECT_EQ(rt.AllShortestPaths(0, 1).size(), 1u);
    EXPECT_EQ(rt.Distance(0, 16), 1u);
    EXPECT_EQ(rt.Distance(0, 32), 3u);
    EXPECT_EQ(rt.Distance(16, 35), 2u);
    EXPECT_EQ(rt.Distance(7, 7), 0u);
    EXPECT_EQ(rt.AllShortestPaths(7, 7), (std::vector<std::vector<uint32_t>>{{7}}));
    EXPECT_THROW(rt.Distance(0, 36), std::out_of_range);

    // GroupTable agrees with NextHops
    std::vector<uint16_t> table = rt.GroupTable(24);
    ASSERT_EQ(table.size(), 36u);
    for (uint32_t d = 0; d < 36; ++d)
    {
        EXPECT_EQ(rt.Groups(24)[table[d]], rt.NextHops(24, d)) << d;
    }
    EXPECT_TRUE(rt.Groups(24)[0].empty());
    EXPECT_THROW(rt.GroupTable(3), std::invalid_argument);
}

TEST(TopologyRouting, AgreesWithIndependentBfs)
{
    // Every pair of several topologies: Distance equals a plain BFS, the number of shortest
    // paths equals a DP count, and every listed path is a valid, distinct walk of that length.
    std::vector<InaTopology> topos = {InaTopology::FatTree(4, G100, G100),
                                      InaTopology::LeafSpine(3, 2, 2, G100, G100),
                                      InaTopology::Star(4, G100),
                                      InaTopology::FromFile(TOPO_DIR + "small-2tier.topo")};
    for (const InaTopology& t : topos)
    {
        InaRoutingTable rt(t);
        for (uint32_t s = 0; s < t.GetNNodes(); ++s)
        {
            std::vector<uint32_t> dist = Bfs(t, s);
            std::vector<uint64_t> count = CountPaths(t, s);
            for (uint32_t d = 0; d < t.GetNNodes(); ++d)
            {
                ASSERT_EQ(rt.Distance(s, d), dist[d]) << s << "->" << d;
                auto paths = rt.AllShortestPaths(s, d);
                ASSERT_EQ(paths.size(), count[d]) << s << "->" << d;
                std::set<std::vector<uint32_t>> unique(paths.begin(), paths.end());
                EXPECT_EQ(unique.size(), paths.size());
                for (const auto& p : paths)
                {
                    ASSERT_EQ(p.size(), dist[d] + 1);
                    EXPECT_EQ(p.front(), s);
                    EXPECT_EQ(p.back(), d);
                    EXPECT_EQ(rt.PathPorts(p).size(), p.size() - 1); // throws if not adjacent
                }
            }
        }
    }
}

TEST(TopologyRouting, EcmpHashIsFixed)
{
    // Reference values computed independently (Python, the formula in the header).
    EXPECT_EQ(InaRoutingTable::EcmpHash(0, 0, 0), 2802244911u);
    EXPECT_EQ(InaRoutingTable::EcmpHash(1, 16, 1), 1317672175u);
    EXPECT_EQ(InaRoutingTable::EcmpHash(12345, 24, 42), 264644998u);
    EXPECT_EQ(InaRoutingTable::EcmpHash(0xffffffffu, 0xffffffffu, ~0ULL), 1661539390u);
}

TEST(TopologyRouting, EcmpSpreadsOverEveryPathDeterministically)
{
    InaRoutingTable rt(InaTopology::FatTree(4, G100, G100));
    const uint32_t flows = 10000;
    std::map<std::vector<uint32_t>, uint32_t> perPath;
    std::map<uint16_t, uint32_t> atTor;
    std::map<uint16_t, uint32_t> atAgg24;
    uint32_t viaAgg24 = 0;
    std::vector<std::vector<uint32_t>> chosen;
    for (uint32_t f = 0; f < flows; ++f)
    {
        auto path = Walk(rt, 0, 15, f, 1);
        ASSERT_EQ(path.size(), 7u);
        perPath[path]++;
        atTor[rt.SelectPort(16, 15, f, 1)]++;
        if (path[2] == 24)
        {
            ++viaAgg24;
            atAgg24[rt.SelectPort(24, 15, f, 1)]++;
        }
        chosen.push_back(path);
    }
    // every one of the 4 equal-cost paths is used, each near 25% (binomial sd 0.43%)
    ASSERT_EQ(perPath.size(), 4u);
    for (const auto& p : rt.AllShortestPaths(0, 15))
    {
        EXPECT_GT(perPath[p], flows * 22 / 100);
    }
    // both next hops at the ToR, and at the agg, near 50%
    ASSERT_EQ(atTor.size(), 2u);
    EXPECT_GT(atTor[2], flows * 45 / 100);
    EXPECT_GT(atTor[3], flows * 45 / 100);
    ASSERT_EQ(atAgg24.size(), 2u);
    EXPECT_GT(atAgg24[2], viaAgg24 * 45 / 100);
    EXPECT_GT(atAgg24[3], viaAgg24 * 45 / 100);

    // same seed: same choices; other seed: about 3/4 of the flows move
    uint32_t moved = 0;
    for (uint32_t f = 0; f < flows; ++f)
    {
        EXPECT_EQ(Walk(rt, 0, 15, f, 1), chosen[f]);
        moved += Walk(rt, 0, 15, f, 2) != chosen[f] ? 1 : 0;
    }
    EXPECT_GT(moved, flows * 70 / 100);
    EXPECT_LT(moved, flows * 80 / 100);
}

// ---------------------------------------------------------------- multicast

TEST(TopologyMulticast, EveryMemberOnceFromHostRoot)
{
    InaRoutingTable rt(InaTopology::FatTree(4, G100, G100));
    std::vector<uint32_t> members;
    for (uint32_t h = 0; h < 16; ++h)
    {
        members.push_back(h); // includes the root, which is skipped
    }
    for (uint64_t seed : {1ULL, 2ULL, 3ULL, 99ULL})
    {
        auto tree = rt.MulticastTree(0, members, seed);
        std::map<uint32_t, uint32_t> depth;
        auto received = WalkTree(rt, 0, tree, depth);
        for (const auto& r : received)
        {
            EXPECT_EQ(r.second, 1u) << "node " << r.first << " got " << r.second << " copies";
            EXPECT_NE(r.first, 0u) << "the root got a copy back";
            EXPECT_EQ(depth[r.first], rt.Distance(0, r.first)) << "not a shortest path";
        }
        for (uint32_t h = 1; h < 16; ++h)
        {
            EXPECT_EQ(received[h], 1u) << "member " << h;
        }
        for (const auto& e : tree)
        {
            EXPECT_FALSE(rt.GetTopology().IsHost(e.first));
            EXPECT_TRUE(std::is_sorted(e.second.begin(), e.second.end()));
        }
        // members sit under all 8 ToRs, so every ToR is on the tree and replicates
        uint32_t tors = 0;
        for (const auto& e : tree)
        {
            tors += rt.GetTopology().GetTier(e.first) == "tor" ? 1 : 0;
        }
        EXPECT_EQ(tors, 8u);
    }
}

TEST(TopologyMulticast, ExactTreeInsideAPod)
{
    // Root ToR 16, members h0..h3: ToR 16 sends to h0, h1 and one agg (24 or 25, by hash);
    // that agg sends to ToR 17 (port 1 of either agg), ToR 17 sends to h2, h3.
    InaRoutingTable rt(InaTopology::FatTree(4, G100, G100));
    std::set<uint32_t> aggsUsed;
    for (uint64_t seed = 0; seed < 16; ++seed)
    {
        auto tree = rt.MulticastTree(16, {0, 1, 2, 3}, seed);
        ASSERT_EQ(tree.size(), 3u);
        EXPECT_EQ(tree[0].first, 16u);
        ASSERT_EQ(tree[0].second.size(), 3u);
        EXPECT_EQ(tree[0].second[0], 0);
        EXPECT_EQ(tree[0].second[1], 1);
        const uint32_t agg = tree[0].second[2] == 2 ? 24 : 25;
        EXPECT_EQ(tree[1], (InaRoutingTable::MulticastEntry{17, {0, 1}}));
        EXPECT_EQ(tree[2], (InaRoutingTable::MulticastEntry{agg, {1}}));
        aggsUsed.insert(agg);
    }
    EXPECT_EQ(aggsUsed.size(), 2u) << "the seed should move the tree between both aggs";
}

TEST(TopologyMulticast, SwitchRootAndErrors)
{
    InaRoutingTable rt(InaTopology::FatTree(4, G100, G100));
    std::vector<uint32_t> members{0, 1, 2, 3, 8, 9, 12};
    auto tree = rt.MulticastTree(32, members, 7); // from core 0
    std::map<uint32_t, uint32_t> depth;
    auto received = WalkTree(rt, 32, tree, depth);
    uint32_t hostsReached = 0;
    for (const auto& r : received)
    {
        EXPECT_EQ(r.second, 1u) << r.first;
        EXPECT_EQ(depth[r.first], rt.Distance(32, r.first));
        if (rt.GetTopology().IsHost(r.first))
        {
            EXPECT_NE(std::find(members.begin(), members.end(), r.first), members.end())
                << "non-member host " << r.first << " got a copy";
            ++hostsReached;
        }
    }
    EXPECT_EQ(hostsReached, members.size());
    // core 0 reaches pods 0, 2, 3 through their agg 0 (24, 28, 30): ports 0, 2, 3
    EXPECT_EQ(tree[0], (InaRoutingTable::MulticastEntry{16, {0, 1}}));
    auto core = std::find_if(tree.begin(), tree.end(), [](const auto& e) {
        return e.first == 32;
    });
    ASSERT_NE(core, tree.end());
    EXPECT_EQ(core->second, (std::vector<uint16_t>{0, 2, 3}));

    EXPECT_TRUE(rt.MulticastTree(5, {5}, 1).empty());
    EXPECT_THROW(rt.MulticastTree(0, {1, 16}, 1), std::invalid_argument); // 16 is a switch
    EXPECT_THROW(rt.MulticastTree(0, {1, 1}, 1), std::invalid_argument);
    EXPECT_THROW(rt.MulticastTree(36, {1}, 1), std::invalid_argument);
}

TEST(TopologyFile, SwitchCapacity)
{
    const InaTopology t = InaTopology::FromString("defaults rate=3Gbps delay=1us\n"
                                                  "switch s1..s2 tier=tor capacity=9Gbps\n"
                                                  "switch s3 tier=tor capacity=2.5Mpps\n"
                                                  "switch s4 tier=tor\n"
                                                  "host w1 attach=s1\n"
                                                  "link s1 s2\nlink s2 s3\nlink s3 s4\n",
                                                  "mem.topo");
    EXPECT_EQ(t.GetNode(t.FindNode("s1")).aggCapacityBps, 9000000000ULL);
    EXPECT_EQ(t.GetNode(t.FindNode("s2")).aggCapacityBps, 9000000000ULL);
    EXPECT_EQ(t.GetNode(t.FindNode("s2")).aggCapacityPps, 0ULL);
    EXPECT_EQ(t.GetNode(t.FindNode("s3")).aggCapacityPps, 2500000ULL);
    EXPECT_EQ(t.GetNode(t.FindNode("s3")).aggCapacityBps, 0ULL);
    EXPECT_EQ(t.GetNode(t.FindNode("s4")).aggCapacityBps, 0ULL);
    EXPECT_EQ(t.GetNode(t.FindNode("s4")).aggCapacityPps, 0ULL);

    const std::string bad = ParseError("switch s1 tier=tor capacity=9GB\nhost h attach=s1\n");
    EXPECT_NE(bad.find("mem.topo:1: bad capacity '9GB'"), std::string::npos) << bad;
    EXPECT_NE(bad.find("capacity=20Mpps"), std::string::npos) << bad;
    const std::string zero = ParseError("switch s1 tier=tor capacity=0pps\nhost h attach=s1\n");
    EXPECT_NE(zero.find("a capacity must be > 0"), std::string::npos) << zero;
    const std::string onHost = ParseError("switch s1 tier=tor\nhost h attach=s1 capacity=1Gbps\n");
    EXPECT_NE(onHost.find("mem.topo:2:"), std::string::npos) << onHost;
}

TEST(TopologyFile, LinkMtu)
{
    const InaTopology t = InaTopology::FromString("defaults rate=100Gbps delay=1us mtu=9000\n"
                                                  "switch s1..s2 tier=tor\n"
                                                  "host a attach=s1\n"
                                                  "host b attach=s2 mtu=4KiB\n"
                                                  "host c attach=s2 mtu=1500B\n"
                                                  "link s1 s2 mtu=1500\n",
                                                  "mem.topo");
    auto mtuOf = [&](const std::string& x, const std::string& y) {
        const uint32_t a = t.FindNode(x);
        const uint32_t b = t.FindNode(y);
        return t.GetLink(t.Neighbors(a)[t.PortTo(a, b)].second).mtuBytes;
    };
    EXPECT_EQ(mtuOf("a", "s1"), 9000u);
    EXPECT_EQ(mtuOf("b", "s2"), 4096u);
    EXPECT_EQ(mtuOf("c", "s2"), 1500u);
    EXPECT_EQ(mtuOf("s1", "s2"), 1500u);
    // Without mtu= a link takes the fabric's (InaFabricHelper::SetMtu, topology.mtu).
    const InaTopology plain =
        InaTopology::FromString("switch s tier=tor\nhost h attach=s rate=1Gbps delay=1us\n",
                                "mem.topo");
    EXPECT_EQ(plain.GetLink(0).mtuBytes, 0u);
    InaFabricHelper helper;
    EXPECT_EQ(helper.GetLinkMtu(plain, 0), 1500u);
    helper.SetMtu(9000);
    EXPECT_EQ(helper.GetLinkMtu(plain, 0), 9000u);
    EXPECT_EQ(helper.GetLinkMtu(t, 0), 9000u);
    EXPECT_THROW(helper.SetMtu(67), std::invalid_argument);
    EXPECT_THROW(helper.SetMtu(65536), std::invalid_argument);

    const std::string head = "switch s tier=tor\n";
    for (const auto& [line, expect] : std::vector<std::pair<std::string, std::string>>{
             {"host h attach=s rate=1Gbps delay=1us mtu=67", "mem.topo:2: bad mtu '67'"},
             {"host h attach=s rate=1Gbps delay=1us mtu=65536", "an MTU must be 68..65535 bytes"},
             {"host h attach=s rate=1Gbps delay=1us mtu=0.5B", "mem.topo:2: bad mtu '0.5B'"},
             {"host h attach=s rate=1Gbps delay=1us mtu=9000MB", "mem.topo:2: bad mtu '9000MB'"},
             {"host h attach=s rate=1Gbps delay=1us mtu=big", "(e.g. mtu=9000 or mtu=4KiB)"},
             {"host h mtu=9000", "rate=/delay=/mtu= on a 'host' line describe its attach= link"},
         })
    {
        const std::string e = ParseError(head + line + "\n");
        EXPECT_NE(e.find(expect), std::string::npos) << line << ": " << e;
    }
}

// ------------------------------------------------- forwarding by arithmetic (InaSwitch fast path)

namespace
{

/// Every switch's forwarding choice to every host, for several flows, through a built fabric
/// (InaSwitch::SelectPort, which uses the HostRule where it is valid) against the table's own
/// ECMP choice (InaRoutingTable::SelectPort). Returns how many switches had a valid rule.
uint32_t
CheckSwitchesFollowTable(const InaTopology& topo)
{
    InaFabricHelper helper;
    helper.SetEcmpSeed(7);
    Ptr<InaFabric> fabric = helper.Build(topo);
    const InaRoutingTable& rt = fabric->GetRoutes();
    uint32_t valid = 0;
    for (uint32_t node = topo.GetNHosts(); node < topo.GetNNodes(); ++node)
    {
        Ptr<InaSwitch> sw = fabric->GetSwitch(node);
        valid += rt.GetHostRule(node).valid ? 1 : 0;
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            for (uint32_t flow = 0; flow < 16; ++flow)
            {
                InaPacket p{};
                p.dst = h;
                p.flowId = flow * 2654435761u;
                EXPECT_EQ(sw->SelectPort(&p), rt.SelectPort(node, h, p.flowId, 7))
                    << topo.GetNode(node).name << " to h" << h << " flow " << p.flowId;
            }
        }
    }
    Simulator::Destroy();
    return valid;
}

} // namespace

TEST(TopologyRouting, GeneratedTopologiesForwardByArithmeticAsTheTableDoes)
{
    // Every switch of a generated topology has the arithmetic shape, so none reads the table.
    const InaTopology fatTrees[] = {InaTopology::FatTree(4, G100, G100),
                                    InaTopology::FatTree(6, G100, G100),
                                    InaTopology::FatTree(8, G100, G100, 6),
                                    InaTopology::FatTree(4, G100, G100, 1)};
    for (const InaTopology& t : fatTrees)
    {
        EXPECT_EQ(CheckSwitchesFollowTable(t), t.GetNSwitches());
    }
    const InaTopology others[] = {InaTopology::LeafSpine(4, 2, 8, G100, G100),
                                  InaTopology::LeafSpine(3, 1, 5, G100, G100),
                                  InaTopology::Star(8, G100)};
    for (const InaTopology& t : others)
    {
        EXPECT_EQ(CheckSwitchesFollowTable(t), t.GetNSwitches());
    }
}

TEST(TopologyRouting, IrregularTopologyFallsBackToTheTable)
{
    // GRID's Fig. 1: a triangle of switches, so each reaches the hosts of the other two on
    // different ports; no switch has one "up" group and they all keep the table, forwarding as it
    // says.
    InaTopology t = InaTopology::FromFile(TOPO_DIR + "grid-fig1.topo");
    InaRoutingTable rt(t);
    for (const char* name : {"s1", "s2", "s3"})
    {
        EXPECT_FALSE(rt.GetHostRule(t.FindNode(name)).valid) << name;
    }
    EXPECT_EQ(CheckSwitchesFollowTable(t), 0u);
    EXPECT_THROW(rt.GetHostRule(0), std::invalid_argument);
}
