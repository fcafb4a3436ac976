/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of jobs and workers with a test-only protocol whose agent answers after a fixed delay:
// iteration timing by hand, wait-free back-propagation order, fusion and partitioning, and the
// exactness check catching a wrong aggregate.

#include "ns3/aggregation-agent.h"
#include "ns3/aggregation-protocol-registry.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/model-zoo.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace
{

/// Returns every tensor `delay` after it was handed over, holding the true sum (or a wrong one).
class DelayAgent : public AggregationAgent
{
  public:
    Time delay;
    bool corrupt = false;
    std::vector<std::pair<uint64_t, int64_t>>* handed = nullptr;

  private:
    void DoSetup() override
    {
    }

    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override
    {
        if (handed != nullptr)
        {
            handed->push_back({tensorId, Simulator::Now().GetTimeStep()});
        }
        Simulator::Schedule(
            delay,
            MakeInaFunctorEvent([this, tensorId, values]() {
                if (values != nullptr)
                {
                    const JobContext& ctx = GetContext();
                    for (std::size_t i = 0; i < values->size(); ++i)
                    {
                        (*values)[i] = static_cast<float>(
                            GradientValues::TrueSum(ctx.seed, tensorId, ctx.workerHosts.size(), i));
                    }
                    if (corrupt && GetRank() == 1 && !values->empty())
                    {
                        (*values)[0] += 0.5f;
                    }
                }
                NotifyDone(tensorId);
            }));
    }
};

class DelayProtocol : public AggregationProtocol
{
  public:
    Time delay = MicroSeconds(10);
    bool corrupt = false;
    std::vector<std::pair<uint64_t, int64_t>> handed; //!< rank 0's hand-overs

  private:
    void DoInstall() override
    {
    }

    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override
    {
        Ptr<DelayAgent> a = CreateObject<DelayAgent>();
        a->delay = delay;
        a->corrupt = corrupt;
        a->handed = rank == 0 ? &handed : nullptr;
        return a;
    }
};

ModelSpec
TwoLayers()
{
    ModelSpec m;
    m.name = "two-layers";
    m.layers.push_back({"l0", 4000, 1000000, 2000000}); // 1 us forward, 2 us backward
    m.layers.push_back({"l1", 8000, 3000000, 6000000}); // 3 us forward, 6 us backward
    return m;
}

JobContext
Context(Ptr<InaFabric> fabric, uint32_t workers, bool values)
{
    JobContext ctx;
    ctx.fabric = fabric;
    ctx.jobId = 1;
    ctx.name = "test";
    for (uint32_t w = 0; w < workers; ++w)
    {
        ctx.workerHosts.push_back(w);
    }
    ctx.seed = 11;
    ctx.checkValues = values;
    ctx.flowIdBase = 1;
    return ctx;
}

Ptr<InaFabric>
Star(uint32_t hosts)
{
    InaFabricHelper helper;
    return helper.Build(InaTopology::Star(hosts, {100000000000ULL, 1000000}));
}

} // namespace

/**
 * Two layers, fwd 1 + 3 us, bwd 6 us (layer 1) then 2 us (layer 0); the agent answers 10 us after
 * each hand-over. Layer 1's gradient is handed at 4 + 6 = 10 us, layer 0's at 12 us and back at
 * 22 us: iteration 1 ends at 22 us, iteration 2 at 44 us.
 */
class TrainingIterationTimeTestCase : public TestCase
{
  public:
    TrainingIterationTimeTestCase()
        : TestCase("a two-layer worker finishes its iterations at the hand-computed times")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(2);
        Ptr<DelayProtocol> protocol = CreateObject<DelayProtocol>();
        Ptr<TrainingJob> job = CreateObject<TrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(2));
        job->Setup(Context(fabric, 2, false), TwoLayers(), protocol);
        job->Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        std::vector<Time> it = job->GetIterationTimes();
        NS_TEST_ASSERT_MSG_EQ(it.size(), 2, "two iterations");
        NS_TEST_EXPECT_MSG_EQ(it[0], MicroSeconds(22), "first iteration");
        NS_TEST_EXPECT_MSG_EQ(it[1], MicroSeconds(22), "second iteration");
        NS_TEST_EXPECT_MSG_EQ(job->GetJct(), MicroSeconds(44), "JCT");
        const auto& h = protocol->handed;
        NS_TEST_ASSERT_MSG_EQ(h.size(), 4, "two tensors per iteration");
        NS_TEST_EXPECT_MSG_EQ(h[0].second, 10000000, "last layer's gradient first, at 10 us");
        NS_TEST_EXPECT_MSG_EQ(h[1].second, 12000000, "first layer's at 12 us");
        NS_TEST_EXPECT_MSG_EQ(job->GetWorkers()[0]->GetAgent()->GetStats().payloadBytes,
                              2 * 12000,
                              "both layers' gradients, twice");
        Simulator::Destroy();
    }
};

/// FusionBytes joins both layers into one tensor; PartitionBytes then splits it in 5000-B pieces.
class TrainingFusionTestCase : public TestCase
{
  public:
    TrainingFusionTestCase()
        : TestCase("tensor fusion and partitioning hand the agent the right tensors")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(2);
        Ptr<DelayProtocol> protocol = CreateObject<DelayProtocol>();
        Ptr<TrainingJob> job = CreateObject<TrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(1));
        job->SetWorkerAttribute("FusionBytes", UintegerValue(100000));
        job->SetWorkerAttribute("PartitionBytes", UintegerValue(5000));
        job->Setup(Context(fabric, 2, true), TwoLayers(), protocol);
        job->Start();
        Simulator::Run();
        const auto& h = protocol->handed;
        NS_TEST_ASSERT_MSG_EQ(h.size(), 3, "12000 B fused, in pieces of 5000, 5000, 2000");
        for (const auto& [id, at] : h)
        {
            NS_TEST_EXPECT_MSG_EQ(at, 12000000, "all handed when the backward pass ends");
        }
        NS_TEST_EXPECT_MSG_EQ(job->GetValuesChecked(), 2 * 3000, "every element of both workers");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "exact");
        Simulator::Destroy();
    }
};

/// A protocol that returns one wrong element at one worker is caught by the check.
class TrainingValueCheckTestCase : public TestCase
{
  public:
    TrainingValueCheckTestCase()
        : TestCase("the exactness check counts a wrong aggregate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(4);
        Ptr<DelayProtocol> protocol = CreateObject<DelayProtocol>();
        protocol->corrupt = true;
        Ptr<TrainingJob> job = CreateObject<TrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(1));
        job->Setup(Context(fabric, 4, true), TwoLayers(), protocol);
        job->Start();
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(job->GetValuesChecked(), 4 * 3000, "all checked");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 2, "one bad element per tensor at rank 1");
        Simulator::Destroy();
    }
};

/**
 * Two ring jobs whose rings both cross a 2-leaf, 1-spine fabric share the leaf-spine links: each is
 * slower together than alone, and alone both take the same time (the fabric is symmetric).
 */
class TrainingSharedFabricTestCase : public TestCase
{
  public:
    TrainingSharedFabricTestCase()
        : TestCase("two jobs on one fabric share its links")
    {
    }

  private:
    static Time RunJobs(bool both, Time* second)
    {
        InaFabricHelper helper;
        Ptr<InaFabric> fabric = helper.Build(InaTopology::LeafSpine(2,
                                                                    1,
                                                                    4,
                                                                    {100000000000ULL, 1000000},
                                                                    {100000000000ULL, 1000000}));
        ModelSpec tensor = ModelZoo::TensorWorkload(8000000);
        std::vector<Ptr<TrainingJob>> jobs;
        std::vector<std::vector<uint32_t>> hosts{{0, 4}, {1, 5}};
        for (uint32_t j = 0; j < (both ? 2u : 1u); ++j)
        {
            JobContext ctx = Context(fabric, 0, false);
            ctx.jobId = j + 1;
            ctx.workerHosts = hosts[j];
            ctx.flowIdBase = (j + 1) * JobContext::FLOW_IDS_PER_JOB;
            ObjectFactory f(AggregationProtocolRegistry::Lookup("ring"));
            Ptr<TrainingJob> job = CreateObject<TrainingJob>();
            job->SetAttribute("Iterations", UintegerValue(1));
            job->Setup(ctx, tensor, f.Create<AggregationProtocol>());
            job->Start();
            jobs.push_back(job);
        }
        Simulator::Run();
        Time first = jobs[0]->GetJct();
        if (second != nullptr && both)
        {
            *second = jobs[1]->GetJct();
        }
        Simulator::Destroy();
        return first;
    }

    void DoRun() override
    {
        Time alone = RunJobs(false, nullptr);
        Time other;
        Time together = RunJobs(true, &other);
        NS_TEST_ASSERT_MSG_GT(alone, Time(0), "the job alone completes");
        NS_TEST_EXPECT_MSG_GT(together.GetSeconds(),
                              1.5 * alone.GetSeconds(),
                              "sharing the one leaf-spine link slows the first job");
        NS_TEST_EXPECT_MSG_GT(other.GetSeconds(), 1.5 * alone.GetSeconds(), "and the second");
    }
};

class TrainingJobTestSuite : public TestSuite
{
  public:
    TrainingJobTestSuite()
        : TestSuite("ina-training-job", Type::UNIT)
    {
        AddTestCase(new TrainingIterationTimeTestCase);
        AddTestCase(new TrainingFusionTestCase);
        AddTestCase(new TrainingValueCheckTestCase);
        AddTestCase(new TrainingSharedFabricTestCase);
    }
};

static TrainingJobTestSuite g_trainingJobTestSuite;
