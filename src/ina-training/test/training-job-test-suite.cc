/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of jobs and workers with a test-only protocol whose agent answers after a fixed delay:
// iteration timing by hand, wait-free back-propagation order, fusion and partitioning, the
// exactness check catching a wrong aggregate, the sender jitter (draws, bounds, both scopes,
// repeatability), the ByteScheduler-style send order and the overlap of the next forward pass
// with the communication, and the workload the job tells its protocol.

#include "delay-protocol.h"
#include "test-job-context.h"

#include "ns3/aggregation-agent.h"
#include "ns3/aggregation-protocol-registry.h"
#include "ns3/boolean.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/model-zoo.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using tests::DelayProtocol;
using tests::FirstHosts;
using tests::Handed;
using tests::TestJobContext;
using tests::TestStar;
using tests::TwoLayers;

namespace
{

/**
 * One training job with a DelayProtocol on a star of its workers: a test sets the protocol's and
 * the workers' settings, then sets the job up on every host, or also runs it to its end.
 */
struct DelayJobRig
{
    explicit DelayJobRig(uint32_t iterations,
                         uint32_t workers = 2,
                         uint64_t rateBps = 100000000000ULL)
        : workers(workers)
        , fabric(TestStar(workers, rateBps))
        , protocol(CreateObject<DelayProtocol>())
        , job(CreateObject<TrainingJob>())
    {
        job->SetAttribute("Iterations", UintegerValue(iterations));
    }

    /// Sets the workers' Attributes (TrainingJob::SetWorkerAttribute), each a name and its value
    /// as the scenario files write it.
    void SetWorkers(std::initializer_list<std::pair<std::string, std::string>> attributes)
    {
        for (const auto& [name, value] : attributes)
        {
            job->SetWorkerAttribute(name, StringValue(value));
        }
    }

    /// Sets the job up on every host with `model`, checking values if `values`.
    void Setup(const ModelSpec& model, bool values, uint64_t seed = 11)
    {
        job->Setup(TestJobContext(fabric, "test", FirstHosts(workers), seed, values),
                   model,
                   protocol);
    }

    /// Sets the job up (as Setup) and runs the simulation to its end.
    void Run(const ModelSpec& model, bool values, uint64_t seed = 11)
    {
        Setup(model, values, seed);
        job->Start();
        Simulator::Run();
    }

    uint32_t workers;
    Ptr<InaFabric> fabric;
    Ptr<DelayProtocol> protocol;
    Ptr<TrainingJob> job;
};

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
        DelayJobRig rig(2);
        rig.Run(TwoLayers(), false);
        const Ptr<TrainingJob>& job = rig.job;
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        std::vector<Time> it = job->GetIterationTimes();
        NS_TEST_ASSERT_MSG_EQ(it.size(), 2, "two iterations");
        NS_TEST_EXPECT_MSG_EQ(it[0], MicroSeconds(22), "first iteration");
        NS_TEST_EXPECT_MSG_EQ(it[1], MicroSeconds(22), "second iteration");
        NS_TEST_EXPECT_MSG_EQ(job->GetJct(), MicroSeconds(44), "JCT");
        const auto& h = rig.protocol->Rank0();
        NS_TEST_ASSERT_MSG_EQ(h.size(), 4, "two tensors per iteration");
        NS_TEST_EXPECT_MSG_EQ(h[0].at, 10000000, "last layer's gradient first, at 10 us");
        NS_TEST_EXPECT_MSG_EQ(h[1].at, 12000000, "first layer's at 12 us");
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
        DelayJobRig rig(1);
        const Ptr<TrainingJob>& job = rig.job;
        rig.SetWorkers({{"FusionBytes", "100000"}, {"PartitionBytes", "5000"}});
        rig.Run(TwoLayers(), true);
        const auto& h = rig.protocol->Rank0();
        NS_TEST_ASSERT_MSG_EQ(h.size(), 3, "12000 B fused, in pieces of 5000, 5000, 2000");
        for (const Handed& x : h)
        {
            NS_TEST_EXPECT_MSG_EQ(x.at, 12000000, "all handed when the backward pass ends");
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
        DelayJobRig rig(1, 4);
        rig.protocol->corrupt = true;
        rig.Run(TwoLayers(), true);
        NS_TEST_EXPECT_MSG_EQ(rig.job->GetValuesChecked(), 4 * 3000, "all checked");
        NS_TEST_EXPECT_MSG_EQ(rig.job->GetValueErrors(), 2, "one bad element per tensor at rank 1");
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
            JobContext ctx = TestJobContext(fabric, "test", hosts[j], 11);
            ctx.jobId = j + 1;
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

/// One 16000-B layer without computation in four 4000-B pieces: all ready at the start.
ModelSpec
OneLayer()
{
    ModelSpec m;
    m.name = "one-layer";
    m.layers.push_back({"l0", 16000, 0, 0});
    return m;
}

/**
 * SendJitter 100 us, scope partition, seed 11: the four pieces are ready at 0 and each waits its
 * own draw after the one before it was handed. The draws (splitmix64 of seed, rank, iteration and
 * piece, scaled to [0, 100 us] in ps) were computed by an independent implementation:
 * rank 0: 92.903711, 45.088777, 4.209639, 38.034814 us; rank 1: 78.590118, 57.903859, 72.436586,
 * 76.343402 us. Rank 1's last piece is handed at 285.273965 us and back 10 us later.
 */
class TrainingSendJitterTestCase : public TestCase
{
  public:
    TrainingSendJitterTestCase()
        : TestCase("sender jitter: one draw per worker and piece, exact, within [0, SendJitter]")
    {
    }

  private:
    static std::vector<std::vector<Handed>> Run(uint64_t seed, Time* jct)
    {
        DelayJobRig rig(1);
        rig.SetWorkers({{"PartitionBytes", "4000"}, {"SendJitter", "100us"}});
        rig.Run(OneLayer(), true, seed);
        *jct = rig.job->GetJct();
        auto h = rig.protocol->handed;
        Simulator::Destroy();
        return h;
    }

    void DoRun() override
    {
        Time jct;
        const auto h = Run(11, &jct);
        const int64_t draws[2][4] = {{92903711, 45088777, 4209639, 38034814},
                                     {78590118, 57903859, 72436586, 76343402}};
        for (uint32_t r = 0; r < 2; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(h[r].size(), 4, "four pieces");
            int64_t at = 0;
            for (uint32_t p = 0; p < 4; ++p)
            {
                at += draws[r][p];
                NS_TEST_EXPECT_MSG_EQ(h[r][p].id, WorkerApp::TensorId(0, p), "in order");
                NS_TEST_EXPECT_MSG_EQ(h[r][p].at, at, "rank " << r << " piece " << p);
                const int64_t gap = h[r][p].at - (p == 0 ? 0 : h[r][p - 1].at);
                NS_TEST_EXPECT_MSG_EQ((gap >= 0 && gap <= 100000000), true, "within bounds");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(jct.GetTimeStep(), 285273965 + 10000000, "the last piece back");
        Time again;
        NS_TEST_EXPECT_MSG_EQ((Run(11, &again) == h ? 0 : 1), 0, "the same seed repeats");
        NS_TEST_EXPECT_MSG_EQ(again, jct, "the same JCT");
        Time other;
        const auto o = Run(12, &other);
        NS_TEST_EXPECT_MSG_NE(o[0][0].at, h[0][0].at, "another seed draws otherwise");
        for (uint32_t r = 0; r < 2; ++r)
        {
            for (uint32_t p = 0; p < 4; ++p)
            {
                const int64_t gap = o[r][p].at - (p == 0 ? 0 : o[r][p - 1].at);
                NS_TEST_EXPECT_MSG_EQ((gap >= 0 && gap <= 100000000), true, "within bounds");
            }
        }
        for (uint32_t i = 0; i < 10000; ++i)
        {
            const int64_t d = WorkerApp::JitterDraw(i, i % 7, i % 3, i, 1000);
            NS_TEST_ASSERT_MSG_EQ((d >= 0 && d <= 1000), true, "draw " << i << " within bounds");
        }
        NS_TEST_EXPECT_MSG_EQ(WorkerApp::JitterDraw(11, 0, 0, 0, 0), 0, "no jitter, no delay");
    }
};

/**
 * JitterScope iteration: one draw per worker and iteration, before its first piece only; two
 * iterations, seed 11, 10 us per tensor. Draws (independent implementation): rank 0 70.210468
 * and 47.538701 us, rank 1 35.704245 and 98.575086 us. Rank 0 hands its four pieces at 70.210468,
 * has them back at 80.210468 (iteration 0 ends: rank 1 was back at 45.704245), computes nothing
 * and hands iteration 1 at 127.749169; rank 1 at 45.704245 + 98.575086 = 144.279331, back at
 * 154.279331.
 */
class TrainingJitterScopeTestCase : public TestCase
{
  public:
    TrainingJitterScopeTestCase()
        : TestCase("sender jitter per iteration delays only an iteration's first piece")
    {
    }

  private:
    void DoRun() override
    {
        DelayJobRig rig(2);
        const Ptr<TrainingJob>& job = rig.job;
        rig.SetWorkers(
            {{"PartitionBytes", "4000"}, {"SendJitter", "100us"}, {"JitterScope", "iteration"}});
        rig.Run(OneLayer(), false);
        const auto& h = rig.protocol->handed;
        NS_TEST_ASSERT_MSG_EQ(h[0].size(), 8, "four pieces, twice");
        for (uint32_t p = 0; p < 4; ++p)
        {
            NS_TEST_EXPECT_MSG_EQ(h[0][p].at, 70210468, "rank 0, iteration 0, piece " << p);
            NS_TEST_EXPECT_MSG_EQ(h[0][4 + p].at, 127749169, "rank 0, iteration 1, piece " << p);
            NS_TEST_EXPECT_MSG_EQ(h[1][p].at, 35704245, "rank 1, iteration 0, piece " << p);
            NS_TEST_EXPECT_MSG_EQ(h[1][4 + p].at, 144279331, "rank 1, iteration 1, piece " << p);
        }
        const std::vector<Time> it = job->GetIterationTimes();
        NS_TEST_ASSERT_MSG_EQ(it.size(), 2, "two iterations");
        NS_TEST_EXPECT_MSG_EQ(it[0].GetTimeStep(), 80210468, "iteration 0: rank 0's last back");
        NS_TEST_EXPECT_MSG_EQ(it[1].GetTimeStep(), 154279331 - 80210468, "iteration 1");
        NS_TEST_EXPECT_MSG_EQ(job->GetJct().GetTimeStep(), 154279331, "JCT");
        Simulator::Destroy();
    }
};

/**
 * The ESA paper's send order (7.2.1): two layers of two partitions, no computation (the paper's
 * gradients are all ready at once), SendOrder bytescheduler: layer 2's first partition (ready
 * first, the sender idle), layer 1's two, layer 2's second. Layer 0 (the paper's layer 1) has
 * 6000 B (pieces 5000 + 1000), layer 1 (layer 2) 9000 B (5000 + 4000), so the bytes tell the
 * pieces apart: 5000 (L2p1), 5000 (L1p1), 1000 (L1p2), 4000 (L2p2); backward: 5000, 4000, 5000,
 * 1000.
 */
class TrainingSendOrderTestCase : public TestCase
{
  public:
    TrainingSendOrderTestCase()
        : TestCase("send order bytescheduler hands L2p1, L1p1, L1p2, L2p2")
    {
    }

  private:
    static std::vector<Handed> Run(const std::string& order,
                                   std::vector<WorkerApp::Piece>* plan,
                                   uint64_t* checked,
                                   uint64_t* errors)
    {
        ModelSpec m;
        m.name = "paper-like";
        m.layers.push_back({"l0", 6000, 0, 0});
        m.layers.push_back({"l1", 9000, 0, 0});
        DelayJobRig rig(1);
        const Ptr<TrainingJob>& job = rig.job;
        rig.SetWorkers({{"PartitionBytes", "5000"}, {"SendOrder", order}});
        rig.Run(m, true);
        *plan = job->GetWorkers()[1]->GetPlan();
        *checked = job->GetValuesChecked();
        *errors = job->GetValueErrors();
        auto h = rig.protocol->handed[1];
        Simulator::Destroy();
        return h;
    }

    void DoRun() override
    {
        std::vector<WorkerApp::Piece> plan;
        uint64_t checked = 0;
        uint64_t errors = 0;
        const auto h = Run("bytescheduler", &plan, &checked, &errors);
        NS_TEST_EXPECT_MSG_EQ(checked, 2 * 15000 / 4, "every value of both workers checked");
        NS_TEST_EXPECT_MSG_EQ(errors, 0, "exact in the new order");
        const uint64_t bytes[4] = {5000, 5000, 1000, 4000};
        const uint32_t front[4] = {1, 0, 0, 1};
        NS_TEST_ASSERT_MSG_EQ(h.size(), 4, "four pieces");
        NS_TEST_ASSERT_MSG_EQ(plan.size(), 4, "four pieces planned");
        for (uint32_t p = 0; p < 4; ++p)
        {
            NS_TEST_EXPECT_MSG_EQ(h[p].id,
                                  WorkerApp::TensorId(0, p),
                                  "piece ids in hand-off order");
            NS_TEST_EXPECT_MSG_EQ(h[p].bytes, bytes[p], "piece " << p);
            NS_TEST_EXPECT_MSG_EQ(h[p].at, 0, "all at once");
            NS_TEST_EXPECT_MSG_EQ(plan[p].frontLayer, front[p], "layer of piece " << p);
        }
        const auto b = Run("backward", &plan, &checked, &errors);
        NS_TEST_EXPECT_MSG_EQ(errors, 0, "exact");
        const uint64_t backward[4] = {5000, 4000, 5000, 1000};
        NS_TEST_ASSERT_MSG_EQ(b.size(), 4, "four pieces");
        for (uint32_t p = 0; p < 4; ++p)
        {
            NS_TEST_EXPECT_MSG_EQ(b[p].bytes, backward[p], "backward piece " << p);
        }
    }
};

/**
 * The next forward pass overlaps the communication. Layer 0: 4000 B, forward 5 us, backward 2 us;
 * layer 1: 8000 B, forward 3 us, backward 6 us; PartitionBytes 4000; SendOrder bytescheduler on a
 * 1 Gb/s star (a piece takes 32 us there, so layer 1's second piece waits for layer 0: pieces
 * L2p1, L1, L2p2); the agent serves one tensor at a time, 10 us each.
 *
 * Iteration 0: forward 0-8, backward of layer 1 8-14 (L2p1 handed at 14, back at 24), of layer 0
 * 14-16 (L1 and L2p2 handed at 16, back at 34 and 44): it ends at 44. With OverlapForward the
 * forward of layer 0 runs 34-39 (L1 back), of layer 1 44-47 (L2p2 back), backward 47-55 (pieces
 * handed at 53, 55, 55, back at 63, 73, 83): iteration 1 takes 39 us. Without: forward 44-52,
 * backward 52-60 (handed at 58, 60, 60, back at 68, 78, 88): 44 us.
 */
class TrainingOverlapTestCase : public TestCase
{
  public:
    TrainingOverlapTestCase()
        : TestCase("the next forward pass starts per layer as its gradients come back")
    {
    }

  private:
    static std::vector<Time> Run(bool overlap, std::vector<Handed>* handed, uint64_t* checked)
    {
        ModelSpec m;
        m.name = "overlap";
        m.layers.push_back({"l0", 4000, 5000000, 2000000});
        m.layers.push_back({"l1", 8000, 3000000, 6000000});
        DelayJobRig rig(2, 2, 1000000000ULL);
        rig.protocol->serial = true;
        const Ptr<TrainingJob>& job = rig.job;
        rig.SetWorkers({{"PartitionBytes", "4000"},
                        {"SendOrder", "bytescheduler"},
                        {"OverlapForward", overlap ? "true" : "false"}});
        rig.Run(m, true);
        *checked = job->GetValueErrors() == 0 ? job->GetValuesChecked() : 0;
        *handed = rig.protocol->Rank0();
        auto t = job->GetIterationTimes();
        Simulator::Destroy();
        return t;
    }

    void DoRun() override
    {
        std::vector<Handed> h;
        uint64_t checked = 0;
        std::vector<Time> it = Run(true, &h, &checked);
        NS_TEST_EXPECT_MSG_EQ(checked, 2 * 2 * 3 * 1000, "every value checked, none wrong");
        const int64_t US = 1000000;
        const int64_t at[6] = {14 * US, 16 * US, 16 * US, 53 * US, 55 * US, 55 * US};
        NS_TEST_ASSERT_MSG_EQ(h.size(), 6, "three pieces, twice");
        for (uint32_t i = 0; i < 6; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(h[i].at, at[i], "overlap: hand-off " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(it.size(), 2, "two iterations");
        NS_TEST_EXPECT_MSG_EQ(it[0].GetTimeStep(), 44 * US, "iteration 0");
        NS_TEST_EXPECT_MSG_EQ(it[1].GetTimeStep(), 39 * US, "iteration 1 overlaps");
        it = Run(false, &h, &checked);
        NS_TEST_EXPECT_MSG_EQ(checked, 2 * 2 * 3 * 1000, "every value checked, none wrong");
        const int64_t noOverlap[6] = {14 * US, 16 * US, 16 * US, 58 * US, 60 * US, 60 * US};
        NS_TEST_ASSERT_MSG_EQ(h.size(), 6, "three pieces, twice");
        for (uint32_t i = 0; i < 6; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(h[i].at, noOverlap[i], "no overlap: hand-off " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(it[0].GetTimeStep(), 44 * US, "iteration 0");
        NS_TEST_EXPECT_MSG_EQ(it[1].GetTimeStep(), 44 * US, "iteration 1 without overlap");
    }
};

/// What TrainingJob tells its protocol about the workload.
class TrainingJobContextTestCase : public TestCase
{
  public:
    TrainingJobContextTestCase()
        : TestCase("the job's context carries its model, iterations and the workers' pieces")
    {
    }

  private:
    void DoRun() override
    {
        DelayJobRig rig(4);
        const Ptr<TrainingJob>& job = rig.job;
        rig.SetWorkers({{"FusionBytes", "100000"},
                        {"PartitionBytes", "5000"},
                        {"SendOrder", "bytescheduler"}});
        rig.Setup(TwoLayers(), false);
        const JobContext& c = rig.protocol->GetContext();
        NS_TEST_ASSERT_MSG_EQ((c.model != nullptr), true, "the model");
        NS_TEST_EXPECT_MSG_EQ(c.model->name, "two-layers", "its name");
        NS_TEST_EXPECT_MSG_EQ(c.model->layers.size(), 2, "its layers");
        NS_TEST_EXPECT_MSG_EQ(c.iterations, 4, "iterations");
        NS_TEST_EXPECT_MSG_EQ(c.fusionBytes, 100000, "FusionBytes");
        NS_TEST_EXPECT_MSG_EQ(c.partitionBytes, 5000, "PartitionBytes");
        NS_TEST_EXPECT_MSG_EQ((c.sendOrder == JobContext::SendOrder::BYTESCHEDULER),
                              true,
                              "SendOrder");
        NS_TEST_EXPECT_MSG_EQ(WorkerApp::PlanRateBps(c), 100e9, "the workers' line rate");
        const auto plan = WorkerApp::PlanIteration(c);
        const auto& own = job->GetWorkers()[0]->GetPlan();
        NS_TEST_ASSERT_MSG_EQ(plan.size(), own.size(), "the protocol replays the worker's plan");
        for (std::size_t p = 0; p < plan.size(); ++p)
        {
            NS_TEST_EXPECT_MSG_EQ(plan[p].bytes, own[p].bytes, "piece " << p);
            NS_TEST_EXPECT_MSG_EQ(plan[p].frontLayer, own[p].frontLayer, "piece " << p);
        }
        Simulator::Destroy();
    }
};

class TrainingJobTestSuite : public InaTestSuite
{
  public:
    TrainingJobTestSuite()
        : InaTestSuite("ina-training-job", Type::UNIT)
    {
        AddTestCase(new TrainingIterationTimeTestCase);
        AddTestCase(new TrainingFusionTestCase);
        AddTestCase(new TrainingValueCheckTestCase);
        AddTestCase(new TrainingSharedFabricTestCase);
        AddTestCase(new TrainingSendJitterTestCase);
        AddTestCase(new TrainingJitterScopeTestCase);
        AddTestCase(new TrainingSendOrderTestCase);
        AddTestCase(new TrainingOverlapTestCase);
        AddTestCase(new TrainingJobContextTestCase);
    }
};

static TrainingJobTestSuite g_trainingJobTestSuite;
