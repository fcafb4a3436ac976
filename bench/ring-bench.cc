/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench ring`: ring all-reduce of one 100 MB tensor over 8 and 64 hosts on a 100 Gb/s
// star, virtual payloads: wall time, packet-hops per wall second, and the simulated time against
// the bus-bandwidth bound 2(n-1)/n x B / rate. Prints one flat JSON object (docs/driver.md).

#include "bench-main.h"
#include "bench-process.h"
#include "bench-report.h"

#include "ns3/all-reduce-runner.h"
#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"

#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Result
{
    double wallS;
    double simS;
    uint64_t hops;
    uint64_t events;
};

Result
RunRing(uint32_t n, uint64_t bytes)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 100000);
    Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(n, {100000000000ULL, 1000000}));
    AllReduceRunner::Spec spec;
    spec.name = "bench";
    for (uint32_t h = 0; h < n; ++h)
    {
        spec.hosts.push_back(h);
    }
    spec.tensorBytes = {bytes};
    spec.values = false;
    AllReduceRunner run(fabric, "ring", spec);
    const BenchCost cost = BenchMeasure([&run] {
        AllReduceRunner::RunAll({&run}, Seconds(10));
    });
    if (!run.Complete())
    {
        std::fprintf(stderr, "ring-bench: not every rank finished\n");
        std::exit(1);
    }
    Result r{cost.wallS, run.LastFinishPs() * 1e-12, fabric->GetPacketHops(), cost.events};
    run.Dispose();
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t bytes = 100000000;
    std::string sizes = "8,64";
    CommandLine cmd = BenchCommandLine(__FILE__, "Ring all-reduce benchmark on a 100 Gb/s star.");
    cmd.AddValue("bytes", "tensor bytes", bytes);
    cmd.AddValue("hosts", "comma-separated ring sizes", sizes);
    cmd.Parse(argc, argv);
    std::string out = "{";
    // Every host has a port of the one switch, whose port numbers are 16 bits with one kept for
    // "no port".
    for (const uint32_t n : BenchParseCounts("ring-bench", "hosts", sizes, INA_NO_PORT - 1))
    {
        Result r = RunRing(n, bytes);
        double bound = 2.0 * (n - 1) / n * bytes * 8 / 100e9;
        char buf[512];
        std::snprintf(buf,
                      sizeof(buf),
                      "%s\"ring.w%u.wall_s\": %.6f, \"ring.w%u.hops_per_s\": %.1f, "
                      "\"ring.w%u.events\": %llu, \"ring.w%u.sim_time_s\": %.9f, "
                      "\"ring.w%u.bus_bound_s\": %.9f",
                      out.size() > 1 ? ", " : "",
                      n,
                      r.wallS,
                      n,
                      r.hops / r.wallS,
                      n,
                      static_cast<unsigned long long>(r.events),
                      n,
                      r.simS,
                      n,
                      bound);
        out += buf;
    }
    std::printf("%s}\n", out.c_str());
    return 0;
}
