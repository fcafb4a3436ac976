/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_BASELINE_RIG_H
#define HOST_BASELINE_RIG_H

// The fixture the tests of the host baselines (ring all-reduce, sharded PS) share: one job of the
// protocol on a star of 100 Gb/s, 1 us links, its agents created and their completions recorded.

#include "ns3/gradient-values.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/simulator.h"
#include "ns3/training-job.h"

#include <cstdint>
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
