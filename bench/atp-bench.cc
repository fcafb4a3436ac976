/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench atp`: ATP's multi-tenant case, in one process so the ratios are meaningful on a
// noisy machine. 8 training jobs of 8 workers (ResNet-50 and VGG16 from the model zoo, one
// iteration each, alternating by job) on a 4-leaf leaf-spine of 100 Gb/s links with 18 hosts per
// leaf and 18 spines (no oversubscription); workers spread over the leaves (two per leaf:
// two-level aggregation, every leaf's pool shared by all eight jobs), one parameter server per
// job; job j starts at j x 125 us (spread over 1 ms, as ESA's simulation does). Virtual
// payloads. The same jobs on the same fabric run once with ATP and once with the sharded
// parameter server (the paper's baseline).
// Printed as atp.<case>.* for case atp and ps:
//   wall_s, events, hops, hops_per_s     simulator cost of the run
//   sim_time_s                           simulated time until the last job finished
//   jct_mean_s, jct_max_s                over the jobs
//   job<i>_<model>.jct_s                 each job's completion time
//   ps_fallback_fraction (atp)           packets the PS had to aggregate / packets workers sent
//   ps_fallback_packets, collisions, peak_aggregators (atp)
// and atp.ratio.jct_mean_ps_over_atp. Options shrink or change the workload (--models, --jobs,
// --workers, --iterations).

#include "bench-main.h"
#include "bench-process.h"
#include "bench-report.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/atp-program.h"
#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/job-placement.h"
#include "ns3/model-zoo.h"
#include "ns3/pipeline.h"
#include "ns3/training-job.h"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

struct Options
{
    uint32_t jobs = 8;
    uint32_t workers = 8;
    uint32_t iterations = 1;
    uint32_t leaves = 4;
    uint32_t spines = 18;
    uint32_t hostsPerLeaf = 18;
    std::vector<std::string> models{"resnet50", "vgg16"};
};

struct JobOutcome
{
    std::string model;
    double jctS = 0;
    bool completed = false;
};

struct Outcome
{
    double wallS = 0;
    uint64_t events = 0;
    uint64_t hops = 0;
    double simTimeS = 0;
    std::vector<JobOutcome> jobs;
    uint64_t sent = 0;
    uint64_t fallback = 0;
    uint64_t collisions = 0;
    uint64_t peakAggregators = 0;
};

/// The jobs of `o` with protocol `name` on a fresh fabric.
Outcome
Run(const std::string& name, const Options& o)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 100000);
    helper.SetEcmpSeed(1);
    const InaTopology::LinkSpec link{BENCH_RATE_BPS, BENCH_DELAY_PS};
    Ptr<InaFabric> fabric =
        helper.Build(InaTopology::LeafSpine(o.leaves, o.spines, o.hostsPerLeaf, link, link));
    const InaTopology& topo = fabric->GetTopology();
    std::vector<bool> used(topo.GetNHosts(), false);
    std::vector<Ptr<TrainingJob>> jobs;
    Outcome out;
    for (uint32_t j = 0; j < o.jobs; ++j)
    {
        const std::string model = o.models[j % o.models.size()];
        ObjectFactory f(AggregationProtocolRegistry::Lookup(name));
        Ptr<AggregationProtocol> protocol = f.Create<AggregationProtocol>();
        JobContext ctx;
        ctx.fabric = fabric;
        ctx.jobId = j + 1;
        ctx.name = "job" + std::to_string(j) + "_" + model;
        ctx.inaTiers = {"leaf"};
        ctx.seed = 1000003ULL + 7919ULL * (j + 1);
        ctx.checkValues = false;
        ctx.flowIdBase = (j + 64) * JobContext::FLOW_IDS_PER_JOB;
        ctx.workerHosts =
            JobPlacement::Place(JobPlacement::Kind::SPREAD, o.workers, {}, topo, used, ctx.seed);
        if (protocol->UsesParameterServers())
        {
            ctx.psHosts =
                JobPlacement::Place(JobPlacement::Kind::SPREAD, 1, {}, topo, used, ctx.seed + 1);
        }
        Ptr<TrainingJob> job = CreateObject<TrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(o.iterations));
        job->SetAttribute("Start", TimeValue(MicroSeconds(125) * j));
        job->Setup(ctx, ModelZoo::Default().Get(model), protocol);
        job->Start();
        jobs.push_back(job);
        out.jobs.push_back(JobOutcome{model, 0, false});
    }
    Simulator::Stop(Seconds(100));
    const BenchCost cost = BenchMeasure(&Simulator::Run);
    out.wallS = cost.wallS;
    out.events = cost.events;
    out.hops = fabric->GetPacketHops();
    for (uint32_t j = 0; j < o.jobs; ++j)
    {
        out.jobs[j].completed = jobs[j]->IsCompleted();
        out.jobs[j].jctS = jobs[j]->GetJct().GetSeconds();
        out.simTimeS =
            std::max(out.simTimeS, jobs[j]->GetStartTime().GetSeconds() + out.jobs[j].jctS);
        const AggregationAgent::Stats s = jobs[j]->GetAgentStats();
        out.sent += s.packetsSent;
        out.fallback += s.psFallbackPackets;
    }
    for (const auto& sw : fabric->GetSwitches())
    {
        Ptr<SwitchProgram> p = sw->GetPipeline()->GetProgram(ATP_PROTOCOL);
        if (p)
        {
            out.collisions += p->GetReasonCount(AtpProgram::COLLISION);
            out.peakAggregators += p->GetPeakAggregatorsInUse();
        }
    }
    for (auto& job : jobs)
    {
        job->Dispose();
    }
    Simulator::Destroy();
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    std::string models = "resnet50,vgg16";
    CommandLine cmd = BenchCommandLine(
        __FILE__,
        "ATP benchmark: 8 jobs x 8 workers (ResNet-50, VGG16) on a leaf-spine, ATP and the "
        "sharded parameter server: wall time, packet-hops/s, JCT per job, PS fallback.");
    cmd.AddValue("jobs", "training jobs", o.jobs);
    cmd.AddValue("workers", "workers per job", o.workers);
    cmd.AddValue("iterations", "iterations per job", o.iterations);
    cmd.AddValue("models", "comma-separated zoo models, assigned to jobs in turn", models);
    cmd.AddValue("leaves", "leaf switches", o.leaves);
    cmd.AddValue("spines", "spine switches", o.spines);
    cmd.AddValue("hosts-per-leaf", "hosts under each leaf", o.hostsPerLeaf);
    cmd.Parse(argc, argv);
    o.models = BenchSplitList(models);
    if (o.models.empty() || o.jobs == 0 || o.workers == 0 || o.iterations == 0)
    {
        std::fprintf(stderr,
                     "atp-bench: --models, --jobs, --workers and --iterations must not "
                     "be empty or 0\n");
        return 2;
    }
    if (o.jobs * (o.workers + 1) > o.leaves * o.hostsPerLeaf)
    {
        std::fprintf(stderr,
                     "atp-bench: %u jobs of %u workers and a parameter server need %u hosts but "
                     "the leaf-spine has %u (--leaves x --hosts-per-leaf)\n",
                     o.jobs,
                     o.workers,
                     o.jobs * (o.workers + 1),
                     o.leaves * o.hostsPerLeaf);
        return 2;
    }
    for (const std::string& m : o.models)
    {
        if (!ModelZoo::Default().Has(m))
        {
            std::fprintf(stderr, "atp-bench: --models: no model '%s' in the zoo\n", m.c_str());
            return 2;
        }
    }

    BenchJson json;
    double jctMean[2] = {0, 0};
    const char* cases[2] = {"atp", "ps"};
    for (int c = 0; c < 2; ++c)
    {
        std::fprintf(stderr,
                     "atp-bench: %u jobs x %u workers on %s\n",
                     o.jobs,
                     o.workers,
                     cases[c]);
        const Outcome r = Run(cases[c], o);
        const std::string p = std::string("atp.") + cases[c] + ".";
        double jctMax = 0;
        for (uint32_t j = 0; j < r.jobs.size(); ++j)
        {
            if (!r.jobs[j].completed)
            {
                std::fprintf(stderr,
                             "atp-bench: job %u (%s) did not complete on %s\n",
                             j,
                             r.jobs[j].model.c_str(),
                             cases[c]);
                return 1;
            }
            jctMean[c] += r.jobs[j].jctS / r.jobs.size();
            jctMax = std::max(jctMax, r.jobs[j].jctS);
        }
        json.Put(p + "wall_s", r.wallS, "%.6f");
        json.Put(p + "events", r.events, "%.0f");
        json.Put(p + "hops", r.hops, "%.0f");
        json.Put(p + "hops_per_s", r.hops / r.wallS, "%.1f");
        json.Put(p + "sim_time_s", r.simTimeS, "%.9f");
        json.Put(p + "jct_mean_s", jctMean[c], "%.9f");
        json.Put(p + "jct_max_s", jctMax, "%.9f");
        for (uint32_t j = 0; j < r.jobs.size(); ++j)
        {
            json.Put(p + "job" + std::to_string(j) + "_" + r.jobs[j].model + ".jct_s",
                     r.jobs[j].jctS,
                     "%.9f");
        }
        if (c == 0)
        {
            json.Put(p + "ps_fallback_fraction", r.sent ? double(r.fallback) / r.sent : 0, "%.6f");
            json.Put(p + "ps_fallback_packets", r.fallback, "%.0f");
            json.Put(p + "collisions", r.collisions, "%.0f");
            json.Put(p + "peak_aggregators", r.peakAggregators, "%.0f");
        }
    }
    json.Put("atp.ratio.jct_mean_ps_over_atp", jctMean[1] / jctMean[0], "%.4f");
    json.Print();
    return 0;
}
