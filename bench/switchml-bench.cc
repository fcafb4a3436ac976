/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench switchml`: one SwitchML all-reduce of a 100 MB tensor (virtual payloads) by 8
// and by 64 workers on one 100 Gb/s switch (1 us links), in one process so the ratios are
// meaningful on a noisy machine. Per worker count W, printed as switchml.wW.*:
//   inasim.wall_s, inasim.hops, inasim.events, inasim.hops_per_s   the run on inasim's links
//   p2p.hops_per_s, p2p.wall_s       the same protocol on ns-3 PointToPoint links (10 MB tensor)
//   sim_time_s                       simulated time until the last worker has the sum
//   line_rate_bound_s                packets x 180 B x 8 / 100 Gb/s (no preamble/IFG: inasim's
//                                    links count frame bytes only)
//   ring.sim_time_s                  ring all-reduce (protocol "ring") of the same tensor on the
//                                    same fabric: the paper's headline comparison
//   ratio.inasim_over_p2p, ratio.sim_over_bound
// The targets (ISSUE): inasim >= 8 x p2p in hops/s and >= 0.8 x scheduler.raw.events_per_s at 64
// workers (the driver runs the scheduler benchmark beside this one); sim_time within 2 % of the
// bound.

#include "bench-main.h"
#include "bench-process.h"
#include "bench-report.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/all-reduce-runner.h"
#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"

#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Outcome
{
    double wallS = 0;
    uint64_t hops = 0;
    uint64_t events = 0;
    double simTimeS = 0;
    bool complete = false;
};

/// One all-reduce of `bytes` by `workers` workers on a star, with protocol `typeId`.
Outcome
RunOnce(const std::string& typeId, uint32_t workers, uint64_t bytes, InaFabricHelper::LinkKind kind)
{
    InaFabricHelper helper;
    helper.SetLinkKind(kind);
    Ptr<InaFabric> fabric =
        helper.Build(InaTopology::Star(workers, {BENCH_RATE_BPS, BENCH_DELAY_PS}));
    AllReduceRunner::Spec spec;
    for (uint32_t w = 0; w < workers; ++w)
    {
        spec.hosts.push_back(w);
    }
    spec.name = "bench";
    spec.tensorBytes = {bytes};
    spec.values = false;
    spec.seed = 1;
    AllReduceRunner run(fabric, typeId, spec);
    const BenchCost cost = BenchMeasure([&run] {
        AllReduceRunner::RunAll({&run}, Seconds(10));
    });
    Outcome o;
    o.wallS = cost.wallS;
    o.hops = fabric->GetPacketHops();
    o.events = cost.events;
    o.simTimeS = run.LastFinishPs() * 1e-12;
    o.complete = run.Complete();
    run.Dispose();
    Simulator::Destroy();
    return o;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t tensorBytes = 100000000;
    uint64_t p2pBytes = 10000000;
    std::string workerList = "8,64";
    bool ring = true;
    CommandLine cmd = BenchCommandLine(
        __FILE__,
        "SwitchML benchmark: one all-reduce on one 100 Gb/s switch, inasim links vs "
        "PointToPoint, simulated time vs the line-rate bound and vs ring all-reduce.");
    cmd.AddValue("tensor-bytes", "tensor of the inasim and ring runs", tensorBytes);
    cmd.AddValue("p2p-bytes", "tensor of the PointToPoint run", p2pBytes);
    cmd.AddValue("workers", "comma-separated worker counts", workerList);
    cmd.AddValue("ring", "also run ring all-reduce (protocol \"ring\")", ring);
    cmd.Parse(argc, argv);

    // Every worker has a port of the one switch, whose port numbers are 16 bits with one kept
    // for "no port".
    const std::vector<uint32_t> counts =
        BenchParseCounts("switchml-bench", "workers", workerList, INA_NO_PORT - 1);
    std::string ringType;
    if (ring)
    {
        if (!AggregationProtocolRegistry::Has("ring"))
        {
            std::fprintf(stderr, "switchml-bench: no protocol \"ring\" registered\n");
            return 1;
        }
        ringType = AggregationProtocolRegistry::Lookup("ring");
    }

    BenchJson json;
    for (uint32_t w : counts)
    {
        const std::string p = "switchml.w" + std::to_string(w) + ".";
        std::fprintf(stderr, "switchml-bench: %u workers, inasim links\n", w);
        const Outcome fast =
            RunOnce("ns3::SwitchMlProtocol", w, tensorBytes, InaFabricHelper::LinkKind::FAST);
        std::fprintf(stderr, "switchml-bench: %u workers, PointToPoint links\n", w);
        const Outcome p2p =
            RunOnce("ns3::SwitchMlProtocol", w, p2pBytes, InaFabricHelper::LinkKind::P2P);
        if (!fast.complete || !p2p.complete)
        {
            std::fprintf(stderr, "switchml-bench: the all-reduce did not complete\n");
            return 1;
        }
        const double packets = static_cast<double>((tensorBytes / 4 + 31) / 32);
        const double bound = packets * 180 * 8 / BENCH_RATE_BPS;
        json.Put(p + "inasim.wall_s", fast.wallS, "%.6f");
        json.Put(p + "inasim.hops", fast.hops, "%.0f");
        json.Put(p + "inasim.events", fast.events, "%.0f");
        json.Put(p + "inasim.hops_per_s", fast.hops / fast.wallS, "%.1f");
        json.Put(p + "p2p.wall_s", p2p.wallS, "%.6f");
        json.Put(p + "p2p.hops_per_s", p2p.hops / p2p.wallS, "%.1f");
        json.Put(p + "sim_time_s", fast.simTimeS, "%.9f");
        json.Put(p + "line_rate_bound_s", bound, "%.9f");
        json.Put(p + "ratio.inasim_over_p2p",
                 (fast.hops / fast.wallS) / (p2p.hops / p2p.wallS),
                 "%.3f");
        json.Put(p + "ratio.sim_over_bound", fast.simTimeS / bound, "%.5f");
        if (ring)
        {
            std::fprintf(stderr, "switchml-bench: %u workers, ring all-reduce\n", w);
            const Outcome r = RunOnce(ringType, w, tensorBytes, InaFabricHelper::LinkKind::FAST);
            if (!r.complete)
            {
                std::fprintf(stderr, "switchml-bench: the ring all-reduce did not complete\n");
                return 1;
            }
            json.Put(p + "ring.sim_time_s", r.simTimeS, "%.9f");
            json.Put(p + "ring.wall_s", r.wallS, "%.6f");
        }
    }
    json.Print();
    return 0;
}
