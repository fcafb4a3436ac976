/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_BASELINE_RIG_H
#define HOST_BASELINE_RIG_H

// The fixture the tests of the host baselines (ring all-reduce, sharded PS) share: one job of the
// protocol on a star of 100 Gb/s, 1 us links, its agents created and their completions recorded.

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * A job of `Protocol` (agents of type `Agent`) on a star. The constructor builds the fabric and
 * the protocol; the test's fixture sets the protocol's Attributes and then calls Install.
 */
template<typename Protocol, typename Agent>
class HostBaselineRig
{
  public:
    Ptr<InaFabric> fabric;
    Ptr<Protocol> protocol;
    std::vector<Ptr<Agent>> agents;
    std::vector<std::vector<uint64_t>> doneIds; //!< per worker, in completion order
    std::vector<std::vector<int64_t>> doneAt;   //!< per worker, ps

    /// A star of `hosts` hosts whose links lose `lossRate` of their packets.
    HostBaselineRig(uint32_t hosts, double lossRate)
    {
        InaFabricHelper helper;
        helper.SetLossRate(lossRate);
        fabric = helper.Build(InaTopology::Star(hosts, {100000000000ULL, 1000000}));
        protocol = CreateObject<Protocol>();
    }

    /// Install the job (workers on hosts 0..workers-1, servers on `psHosts`) and its agents.
    void Install(const std::string& name,
                 uint32_t workers,
                 const std::vector<uint32_t>& psHosts,
                 uint64_t seed,
                 bool values)
    {
        JobContext ctx;
        ctx.fabric = fabric;
        ctx.jobId = 1;
        ctx.name = name;
        for (uint32_t w = 0; w < workers; ++w)
        {
            ctx.workerHosts.push_back(w);
        }
        ctx.psHosts = psHosts;
        ctx.seed = seed;
        ctx.checkValues = values;
        ctx.flowIdBase = 1;
        protocol->Install(ctx);
        doneIds.resize(workers);
        doneAt.resize(workers);
        for (uint32_t w = 0; w < workers; ++w)
        {
            Ptr<Agent> a = DynamicCast<Agent>(protocol->CreateAgent(w));
            a->SetDoneCallback(MakeBoundCallback(&HostBaselineRig::RecordDone, this, w));
            agents.push_back(a);
        }
    }

    uint64_t Seed() const
    {
        return protocol->GetContext().seed;
    }

  private:
    // A static function bound with MakeBoundCallback: ns-3 <= 3.35 Callbacks cannot wrap lambdas.
    static void RecordDone(HostBaselineRig* self, uint32_t w, uint64_t id)
    {
        self->doneIds[w].push_back(id);
        self->doneAt[w].push_back(Simulator::Now().GetTimeStep());
    }
};

/// The model of the baselines' TrainingJob cases: two layers of 400,000 and 1,200,004 bytes.
inline ModelSpec
TwoLayerModel()
{
    ModelSpec model;
    model.name = "two-layers";
    model.layers.push_back({"l0", 400000, 1000000, 2000000});
    model.layers.push_back({"l1", 1200004, 3000000, 6000000});
    return model;
}

/**
 * A TrainingJob of the protocol registered as `name`, `iterations` iterations of TwoLayerModel(),
 * run to its end (the caller destroys the simulation).
 */
inline Ptr<TrainingJob>
RunTwoLayerJob(const JobContext& ctx, const std::string& name, uint32_t iterations)
{
    ObjectFactory factory(AggregationProtocolRegistry::Lookup(name));
    Ptr<TrainingJob> job = CreateObject<TrainingJob>();
    job->SetAttribute("Iterations", UintegerValue(iterations));
    job->Setup(ctx, TwoLayerModel(), factory.Create<AggregationProtocol>());
    job->Start();
    Simulator::Run();
    return job;
}

/// What Install throws for `ctx` (the job named by the protocol's message), "" if it does not.
inline std::string
InstallError(Ptr<AggregationProtocol> protocol, const JobContext& ctx)
{
    try
    {
        protocol->Install(ctx);
    }
    catch (const std::runtime_error& e)
    {
        return e.what();
    }
    return "";
}

/// Elements of `values` that differ from the true sum over `n` workers.
inline uint64_t
TrueSumErrors(uint64_t seed, uint64_t tensorId, uint32_t n, const std::vector<float>& values)
{
    uint64_t errors = 0;
    for (uint64_t i = 0; i < values.size(); ++i)
    {
        errors += static_cast<double>(values[i]) != GradientValues::TrueSum(seed, tensorId, n, i);
    }
    return errors;
}

} // namespace ns3

#endif // HOST_BASELINE_RIG_H
