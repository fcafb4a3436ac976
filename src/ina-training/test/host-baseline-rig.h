/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_BASELINE_RIG_H
#define HOST_BASELINE_RIG_H

// The fixture the tests of the host baselines (ring all-reduce, sharded PS) share: one job of the
// protocol on a star of 100 Gb/s, 1 us links, its agents created and their completions recorded.

#include "test-job-context.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace tests
{
constexpr uint64_t KIB = 1024;
constexpr uint64_t MIB = 1024 * 1024;
constexpr uint64_t HEADER = 64; // InaTransportSender::HeaderBytes
} // namespace tests

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
    /// per worker, per tensor handed by AllReduceAll or AllReduceAt: its values, then its sum
    std::vector<std::vector<std::vector<float>>> values;

    /// A star of `hosts` hosts whose links lose `lossRate` of their packets.
    HostBaselineRig(uint32_t hosts, double lossRate)
        : fabric(tests::TestStar(hosts, 100000000000ULL, lossRate))
        , protocol(CreateObject<Protocol>())
    {
    }

    /// Install the job (workers on hosts 0..workers-1, servers on `psHosts`) and its agents.
    void Install(const std::string& name,
                 uint32_t workers,
                 const std::vector<uint32_t>& psHosts,
                 uint64_t seed,
                 bool values)
    {
        JobContext ctx =
            tests::TestJobContext(fabric, name, tests::FirstHosts(workers), seed, values);
        ctx.psHosts = psHosts;
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

    /// Every worker fills tensor `ids[t]` (`sizes[t]` bytes) with its gradient and all-reduces it,
    /// worker by worker, each its tensors in order.
    void AllReduceAll(const std::vector<uint64_t>& ids, const std::vector<uint64_t>& sizes)
    {
        FillValues(ids, sizes);
        for (uint32_t w = 0; w < agents.size(); ++w)
        {
            for (uint32_t t = 0; t < ids.size(); ++t)
            {
                agents[w]->AllReduce(ids[t], sizes[t], &values[w][t]);
            }
        }
    }

    /**
     * As AllReduceAll, but worker w hands its tensors at `startUs[w]` microseconds, after calling
     * `atStart(w)` (if set) to look at its agent before.
     */
    void AllReduceAt(const std::vector<uint64_t>& ids,
                     const std::vector<uint64_t>& sizes,
                     const std::vector<int64_t>& startUs,
                     std::function<void(uint32_t)> atStart = {})
    {
        FillValues(ids, sizes);
        for (uint32_t w = 0; w < agents.size(); ++w)
        {
            Simulator::Schedule(MicroSeconds(startUs[w]),
                                MakeInaFunctorEvent([this, w, ids, sizes, atStart]() {
                                    if (atStart)
                                    {
                                        atStart(w);
                                    }
                                    for (uint32_t t = 0; t < ids.size(); ++t)
                                    {
                                        agents[w]->AllReduce(ids[t], sizes[t], &values[w][t]);
                                    }
                                }));
        }
    }

  private:
    void FillValues(const std::vector<uint64_t>& ids, const std::vector<uint64_t>& sizes)
    {
        values.assign(agents.size(), std::vector<std::vector<float>>(ids.size()));
        for (uint32_t w = 0; w < agents.size(); ++w)
        {
            for (uint32_t t = 0; t < ids.size(); ++t)
            {
                GradientValues::Fill(Seed(), ids[t], w, sizes[t] / 4, values[w][t]);
            }
        }
    }

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

/// A test case of a host baseline, with the checks every baseline's suite makes of its protocol.
class HostBaselineTestCase : public TestCase
{
  protected:
    using TestCase::TestCase;

    /// `Protocol` is registered for scenarios as `name` (TypeId `typeId`) and says whether its
    /// jobs place parameter servers (`usesPs`, `why`).
    template<typename Protocol>
    void ExpectRegistered(const std::string& name,
                          const std::string& typeId,
                          bool usesPs,
                          const std::string& why)
    {
        NS_TEST_EXPECT_MSG_EQ(AggregationProtocolRegistry::Lookup(name),
                              typeId,
                              "registered as " << name);
        NS_TEST_EXPECT_MSG_EQ(CreateObject<Protocol>()->UsesParameterServers(), usesPs, why);
    }

    /// A RunTwoLayerJob job of `workers` workers and `iterations` iterations with values checked
    /// completed, every value checked and exact.
    void ExpectTwoLayerJobExact(Ptr<TrainingJob> job, uint32_t workers, uint32_t iterations)
    {
        NS_TEST_EXPECT_MSG_EQ(job->IsCompleted(), true, "completed");
        NS_TEST_EXPECT_MSG_EQ(job->GetValuesChecked(),
                              workers * iterations * (100000 + 300001),
                              "all checked");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "exact");
    }
};

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
