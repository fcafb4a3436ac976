/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench ring`: ring all-reduce of one 100 MB tensor over 8 and 64 hosts on a 100 Gb/s
// star, virtual payloads: wall time, packet-hops per wall second, and the simulated time against
// the bus-bandwidth bound 2(n-1)/n x B / rate. Prints one flat JSON object (docs/driver.md).

#include "ns3/aggregation-agent.h"
#include "ns3/aggregation-protocol-registry.h"
#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"

#include <chrono>
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

// A free function bound with MakeBoundCallback: ns-3 <= 3.35 Callbacks cannot wrap lambdas.
void
OnRankDone(uint32_t* done, int64_t* lastDone, uint64_t /* tensorId */)
{
    ++*done;
    *lastDone = Simulator::Now().GetTimeStep();
}

Result
RunRing(uint32_t n, uint64_t bytes)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 100000);
    Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(n, {100000000000ULL, 1000000}));
    JobContext ctx;
    ctx.fabric = fabric;
    ctx.jobId = 1;
    ctx.name = "bench";
    for (uint32_t h = 0; h < n; ++h)
    {
        ctx.workerHosts.push_back(h);
    }
    ctx.flowIdBase = 1;
    ObjectFactory f(AggregationProtocolRegistry::Lookup("ring"));
    Ptr<AggregationProtocol> protocol = f.Create<AggregationProtocol>();
    protocol->Install(ctx);
    std::vector<Ptr<AggregationAgent>> agents;
    int64_t lastDone = 0;
    uint32_t done = 0;
    for (uint32_t r = 0; r < n; ++r)
    {
        agents.push_back(protocol->CreateAgent(r));
        agents.back()->SetDoneCallback(MakeBoundCallback(&OnRankDone, &done, &lastDone));
        agents.back()->AllReduce(1, bytes, nullptr);
    }
    auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    auto t1 = std::chrono::steady_clock::now();
    if (done != n)
    {
        std::fprintf(stderr, "ring-bench: only %u of %u ranks finished\n", done, n);
        std::exit(1);
    }
    Result r{std::chrono::duration<double>(t1 - t0).count(),
             lastDone * 1e-12,
             fabric->GetPacketHops(),
             Simulator::GetEventCount()};
    agents.clear();
    Simulator::Destroy();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t bytes = 100000000;
    std::string sizes = "8,64";
    CommandLine cmd(__FILE__);
    cmd.Usage("Ring all-reduce benchmark on a 100 Gb/s star.");
    cmd.AddValue("bytes", "tensor bytes", bytes);
    cmd.AddValue("hosts", "comma-separated ring sizes", sizes);
    cmd.Parse(argc, argv);
    std::string out = "{";
    std::size_t start = 0;
    while (start < sizes.size())
    {
        std::size_t comma = sizes.find(',', start);
        uint32_t n = std::stoul(sizes.substr(start, comma - start));
        start = comma == std::string::npos ? sizes.size() : comma + 1;
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
