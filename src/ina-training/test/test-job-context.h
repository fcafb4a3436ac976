/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TEST_JOB_CONTEXT_H
#define TEST_JOB_CONTEXT_H

// What the job-level test suites (training jobs, compute models, the host baselines, a protocol's
// training iteration) build the same way: a star of 1 us links, the JobContext of a job on it, and
// a job set up and run to its end. Each test then sets only what it changes.

#include "ns3/aggregation-protocol.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/simulator.h"
#include "ns3/training-job.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
namespace tests
{

/// A star of `hosts` hosts, links of `rateBps` and 1 us, `lossRate` of their packets lost.
inline Ptr<InaFabric>
TestStar(uint32_t hosts, uint64_t rateBps = 100000000000ULL, double lossRate = 0)
{
    InaFabricHelper helper;
    helper.SetLossRate(lossRate);
    return helper.Build(InaTopology::Star(hosts, {rateBps, 1000000}));
}

/// Hosts 0, 1, ..., n - 1: the workers of a job placed at the start of a star.
inline std::vector<uint32_t>
FirstHosts(uint32_t n)
{
    std::vector<uint32_t> hosts;
    for (uint32_t w = 0; w < n; ++w)
    {
        hosts.push_back(w);
    }
    return hosts;
}

/// Job 1 named `name` on `fabric`, its workers on `workerHosts`, its flows from 1.
inline JobContext
TestJobContext(Ptr<InaFabric> fabric,
               const std::string& name,
               const std::vector<uint32_t>& workerHosts,
               uint64_t seed = 1,
               bool checkValues = false)
{
    JobContext ctx;
    ctx.fabric = fabric;
    ctx.jobId = 1;
    ctx.name = name;
    ctx.workerHosts = workerHosts;
    ctx.seed = seed;
    ctx.checkValues = checkValues;
    ctx.flowIdBase = 1;
    return ctx;
}

/// Sets `job` up with `ctx`, `model` and `protocol`, starts it and runs the simulation to its end.
inline void
RunJobToEnd(Ptr<TrainingJob> job,
            const JobContext& ctx,
            const ModelSpec& model,
            Ptr<AggregationProtocol> protocol)
{
    job->Setup(ctx, model, protocol);
    job->Start();
    Simulator::Run();
}

} // namespace tests
} // namespace ns3

#endif /* TEST_JOB_CONTEXT_H */
