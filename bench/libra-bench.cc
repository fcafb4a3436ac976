/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench libra`: one Libra job (OA-like sparse model, 10,000 row draws per worker and
// iteration, 30,000 hot parameters, 16 registers, LNS add, 400 KB dense part, one PS) on a
// 100 Gb/s star with 8, 16 and 32 workers, 3 iterations, virtual payloads (the pairs' ranks ride
// as words; values are 0). Printed as libra.w<N>.*:
//   wall_s, events, hops, hops_per_s   simulator cost of the run
//   sim_time_s                         simulated time until the job finished
//   iteration_mean_s                   mean iteration time
//   pairs_per_s                        sparse pairs absorbed per simulated second (all workers)
//   hot_share, recirculations_per_packet
// Options: --workers=8,16,32 --iterations=3 --accesses=10000.
#include "bench-process.h"
#include "bench-report.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/model-zoo.h"
#include "ns3/training-job.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Options
{
    std::vector<uint32_t> workers{8, 16, 32};
    uint32_t iterations = 3;
    uint32_t accesses = 10000;
};

[[noreturn]] void
Usage(const std::string& what)
{
    std::fprintf(stderr,
                 "libra-bench: %s\nusage: libra-bench [--workers=8,16,32] [--iterations=3] "
                 "[--accesses=10000]\n",
                 what.c_str());
    std::exit(2);
}

uint32_t
Positive(const std::string& key, const std::string& v)
{
    char* end = nullptr;
    const unsigned long x = std::strtoul(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || x == 0 || x > 100000000)
    {
        Usage(key + " '" + v + "': expected a positive integer");
    }
    return static_cast<uint32_t>(x);
}

Options
Parse(int argc, char** argv)
{
    Options o;
    for (int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        const auto eq = a.find('=');
        const std::string key = a.substr(0, eq);
        const std::string v = eq == std::string::npos ? "" : a.substr(eq + 1);
        if (key == "--workers")
        {
            o.workers = BenchParseCounts("libra-bench", "workers", v, 100000000);
        }
        else if (key == "--iterations")
        {
            o.iterations = Positive(key, v);
        }
        else if (key == "--accesses")
        {
            o.accesses = Positive(key, v);
        }
        else
        {
            Usage("unknown option '" + a + "'");
        }
    }
    return o;
}

void
Run(uint32_t workers, const Options& o, std::map<std::string, double>& out)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 100000);
    Ptr<InaFabric> fabric =
        helper.Build(InaTopology::Star(workers + 1, {100000000000ULL, 1000000}));
    JobContext ctx;
    ctx.fabric = fabric;
    ctx.jobId = 1;
    ctx.name = "libra";
    for (uint32_t w = 0; w < workers; ++w)
    {
        ctx.workerHosts.push_back(w);
    }
    ctx.psHosts = {workers};
    ctx.inaTiers = {"tor"};
    ctx.seed = 1;
    ctx.checkValues = false;
    ctx.flowIdBase = 64 * JobContext::FLOW_IDS_PER_JOB;
    ObjectFactory f(AggregationProtocolRegistry::Lookup("libra"));
    f.Set("AccessesPerIteration", UintegerValue(o.accesses));
    Ptr<TrainingJob> job = CreateObject<TrainingJob>();
    job->SetAttribute("Iterations", UintegerValue(o.iterations));
    job->Setup(ctx, ModelZoo::TensorWorkload(400000), f.Create<AggregationProtocol>());
    job->Start();
    const BenchCost cost = BenchMeasure(&Simulator::Run);
    const double wall = cost.wallS;
    if (!job->IsCompleted())
    {
        std::fprintf(stderr, "libra-bench: the %u-worker job did not complete\n", workers);
        std::exit(1);
    }
    const std::string p = "libra.w" + std::to_string(workers) + ".";
    const std::map<std::string, double> c = job->GetProtocol()->GetCounters();
    double mean = 0;
    for (const Time& t : job->GetIterationTimes())
    {
        mean += t.GetSeconds() / o.iterations;
    }
    const double sim = job->GetJct().GetSeconds();
    out[p + "wall_s"] = wall;
    out[p + "events"] = static_cast<double>(cost.events);
    out[p + "hops"] = static_cast<double>(fabric->GetPacketHops());
    out[p + "hops_per_s"] = fabric->GetPacketHops() / wall;
    out[p + "sim_time_s"] = sim;
    out[p + "iteration_mean_s"] = mean;
    out[p + "pairs_per_s"] = (c.at("hot_pairs") + c.at("cold_pairs")) / sim;
    out[p + "hot_share"] = c.at("hot_share");
    out[p + "recirculations_per_packet"] = c.at("recirculations_per_packet");
    Simulator::Destroy();
}

} // namespace

int
main(int argc, char** argv)
{
    InaFabricHelper::ConfigureSimulator(); // picosecond time steps, the scheduler: before any Time
    const Options o = Parse(argc, argv);
    std::map<std::string, double> out;
    for (uint32_t w : o.workers)
    {
        Run(w, o, out);
    }
    std::ostringstream s;
    s.precision(12);
    s << "{";
    bool first = true;
    for (const auto& [k, v] : out)
    {
        s << (first ? "" : ", ") << "\"" << k << "\": " << v;
        first = false;
    }
    s << "}\n";
    std::fputs(s.str().c_str(), stdout);
    return 0;
}
