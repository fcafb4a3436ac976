/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A user's own simulation script, built from inasim's helpers instead of a YAML scenario: two
// training jobs share a leaf-spine fabric, one aggregating in the switches with SwitchML, one with
// ring all-reduce between the hosts, with every aggregated value checked against the true sum.
// (Two different switch programs on one switch must fit its pipeline together: SwitchML and ATP
// side by side need more stateful ALUs per stage than a Tofino-like stage has, and set-up says so.)
//
// Build and run it (the standalone build compiles every scratch/*.cc, as ns-3 does):
//   ./inasim build scratch_two-jobs && build/scratch/two-jobs --tensor-kb=4000 --iterations=2
// Inside an ns-3 source tree, copy this file to ns-3's own scratch/ and run
//   ./ns3 run "two-jobs --tensor-kb=4000"
// Outside both, against an installed inasim (docs/building.md, "Your own program"):
//   g++ -std=c++17 two-jobs.cc $(pkg-config --cflags --libs inasim) -o two-jobs
//
// Start from here: change the topology (InaTopology::FatTree, Star, FromFile), the protocols (any
// name that `inasim-run --help` lists), the workload (a model from the zoo, or tensor sizes), or
// the job attributes, then read what the jobs measured.

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/job-placement.h"
#include "ns3/model-zoo.h"
#include "ns3/training-job.h"

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One job as the script sets it up: a protocol by its scenario name and how many workers.
struct JobPlan
{
    std::string name;
    std::string protocol;
    uint32_t workers;
};

} // namespace

int
main(int argc, char* argv[])
{
    // Picosecond time and inasim's scheduler, first: before any Time exists, and before the
    // command line, so that a --SchedulerType given there still wins (docs/architecture.md).
    InaFabricHelper::ConfigureSimulator();

    uint32_t iterations = 2;
    uint32_t tensorKb = 4000;
    uint32_t workers = 4;
    CommandLine cmd(__FILE__);
    cmd.Usage(
        "Two training jobs (SwitchML and ring all-reduce) on one leaf-spine, built from inasim's "
        "helpers; every aggregated value is checked.");
    cmd.AddValue("iterations", "training iterations of each job", iterations);
    cmd.AddValue("tensor-kb", "gradient per iteration (one tensor), in KB (1000 B)", tensorKb);
    cmd.AddValue("workers", "workers per job", workers);
    cmd.Parse(argc, argv);

    // The fabric: 2 leaves x 2 spines, 8 hosts per leaf, 100 Gb/s links with 1 us of delay.
    InaFabricHelper fabricHelper;
    fabricHelper.SetQueue(1000000, 100000); // 1 MB per port, ECN above 100 KB
    const InaTopology::LinkSpec link{100000000000ULL, 1000000};
    Ptr<InaFabric> fabric = fabricHelper.Build(InaTopology::LeafSpine(2, 2, 8, link, link));
    const InaTopology& topo = fabric->GetTopology();

    // One tensor per iteration, the same for both jobs (or ModelZoo::Default().Get("resnet50")).
    const ModelSpec model = ModelZoo::TensorWorkload(uint64_t{tensorKb} * 1000);

    const std::vector<JobPlan> plans{{"sml", "switchml", workers}, {"ring", "ring", workers}};
    std::vector<bool> hostUsed(topo.GetNHosts(), false);
    std::vector<Ptr<TrainingJob>> jobs;
    // Set-up checks what it is given (free hosts, tiers, switch memory) and says why not.
    try
    {
        for (uint32_t j = 0; j < plans.size(); ++j)
        {
            ObjectFactory factory(AggregationProtocolRegistry::Lookup(plans[j].protocol));
            Ptr<AggregationProtocol> protocol = factory.Create<AggregationProtocol>();

            JobContext ctx;
            ctx.fabric = fabric;
            ctx.jobId = j + 1;
            ctx.name = plans[j].name;
            ctx.inaTiers = {"leaf", "spine"}; // aggregate at the leaves, then at one spine
            ctx.seed = 1 + j;
            ctx.checkValues = true; // real values on the wire, every result compared
            ctx.flowIdBase = (j + 1) * JobContext::FLOW_IDS_PER_JOB;
            // Spread the workers over both leaves, so each job aggregates at two levels.
            ctx.workerHosts = JobPlacement::Place(JobPlacement::Kind::SPREAD,
                                                  plans[j].workers,
                                                  {},
                                                  topo,
                                                  hostUsed,
                                                  ctx.seed);
            if (protocol->UsesParameterServers())
            {
                ctx.psHosts = JobPlacement::Place(JobPlacement::Kind::SPREAD,
                                                  1,
                                                  {},
                                                  topo,
                                                  hostUsed,
                                                  ctx.seed);
            }

            Ptr<TrainingJob> job = CreateObject<TrainingJob>();
            job->SetAttribute("Iterations", UintegerValue(iterations));
            job->Setup(ctx, model, protocol);
            job->Start();
            jobs.push_back(job);
        }
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "two-jobs: %s\n", e.what());
        return 2;
    }

    Simulator::Stop(Seconds(10));
    Simulator::Run();

    int failures = 0;
    for (uint32_t j = 0; j < jobs.size(); ++j)
    {
        const Ptr<TrainingJob> job = jobs[j];
        std::printf("job %s (%s, %u workers): %s, JCT %.6f s, %llu/%llu values wrong\n",
                    plans[j].name.c_str(),
                    plans[j].protocol.c_str(),
                    plans[j].workers,
                    job->IsCompleted() ? "completed" : "INCOMPLETE",
                    job->GetJct().GetSeconds(),
                    static_cast<unsigned long long>(job->GetValueErrors()),
                    static_cast<unsigned long long>(job->GetValuesChecked()));
        if (!job->IsCompleted() || job->GetValueErrors() != 0 || job->GetValuesChecked() == 0)
        {
            ++failures;
        }
    }
    for (auto& job : jobs)
    {
        job->Dispose();
    }
    Simulator::Destroy();
    return failures == 0 ? 0 : 1;
}
