/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench fabric`: packet-hops per wall second of inasim's link and of ns-3's
// PointToPointNetDevice on the same traffic, a permutation on a k=4 fat-tree, in one process so the
// ratio is meaningful on a noisy machine. Prints one flat JSON object (docs/driver.md).

#include "bench-main.h"
#include "bench-permutation-traffic.h"
#include "bench-report.h"

#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"

#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

using namespace ns3;

namespace
{

struct Result
{
    uint64_t hops;
    uint64_t events;
    double wallS;
};

Result
RunOnce(InaFabricHelper::LinkKind kind, uint64_t packetsPerHost)
{
    InaTopology::LinkSpec link{100000000000ULL, 1000000};
    InaFabricHelper helper;
    helper.SetLinkKind(kind);
    helper.SetQueue(1000000, 0);
    helper.SetEcmpSeed(1);
    Ptr<InaFabric> fabric = helper.Build(InaTopology::FatTree(4, link, link));
    uint32_t n = fabric->GetNHosts();
    // A fixed derangement: host i sends to perm[i] != i.
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::mt19937 rng(12345);
    do
    {
        std::shuffle(perm.begin(), perm.end(), rng);
    } while ([&] {
        for (uint32_t i = 0; i < n; ++i)
        {
            if (perm[i] == i)
            {
                return true;
            }
        }
        return false;
    }());
    auto traffic = std::make_unique<BenchPermutationTraffic>(*fabric, perm, packetsPerHost);
    const BenchCost cost = BenchMeasure(&Simulator::Run);
    Result r{fabric->GetPacketHops(), Simulator::GetEventCount(), cost.wallS};
    traffic.reset();
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t packets = 200000;
    uint64_t p2pPackets = 0;
    CommandLine cmd = BenchCommandLine(
        __FILE__,
        "Fabric benchmark: permutation traffic on a k=4 fat-tree, inasim link vs PointToPoint.");
    cmd.AddValue("packets", "packets each host sends (inasim link)", packets);
    cmd.AddValue("p2p-packets", "packets each host sends on the p2p run (0: same)", p2pPackets);
    cmd.Parse(argc, argv);
    if (p2pPackets == 0)
    {
        p2pPackets = packets;
    }
    Result fast = RunOnce(InaFabricHelper::LinkKind::FAST, packets);
    Result p2p = RunOnce(InaFabricHelper::LinkKind::P2P, p2pPackets);
    std::printf("{\"fabric.inasim.hops\": %llu, \"fabric.inasim.events\": %llu, "
                "\"fabric.inasim.wall_s\": %.6f, \"fabric.inasim.hops_per_s\": %.1f, "
                "\"fabric.p2p.hops\": %llu, \"fabric.p2p.events\": %llu, "
                "\"fabric.p2p.wall_s\": %.6f, \"fabric.p2p.hops_per_s\": %.1f, "
                "\"fabric.ratio.inasim_over_p2p\": %.3f}\n",
                (unsigned long long)fast.hops,
                (unsigned long long)fast.events,
                fast.wallS,
                fast.hops / fast.wallS,
                (unsigned long long)p2p.hops,
                (unsigned long long)p2p.events,
                p2p.wallS,
                p2p.hops / p2p.wallS,
                (fast.hops / fast.wallS) / (p2p.hops / p2p.wallS));
    return 0;
}
