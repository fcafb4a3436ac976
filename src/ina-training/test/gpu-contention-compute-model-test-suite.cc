/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LIBRA's GPU contention in packet mode on whole jobs: a two-worker, two-layer job on an agent that
// answers after a fixed delay, its iteration times and hand-offs worked by hand under contention
// (and equal to the profiled model's without it), and a ring all-reduce paced at the injection
// cap. The fluid model alone is in test/gtest/gpu-packet-mode-test.cc.

#include "delay-protocol.h"
#include "test-job-context.h"

#include "ns3/aggregation-agent.h"
#include "ns3/gpu-contention-compute-model.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/ring-all-reduce-protocol.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace ns3;
using tests::DelayProtocol;
using tests::RunJobToEnd;
using tests::TestJobContext;
using tests::TestStar;
using tests::TwoLayers;

namespace
{

constexpr int64_t US = 1000000; // ps

/**
 * alpha1 = 1 and alpha2 = 2.5e-4 (or 0: no contention), so 2000 threads compute at half speed;
 * p and q flat at 5e9 and 6e9 B/s.
 */
std::string
ParamsFile(const std::string& name, double alpha2)
{
    const std::string path =
        (std::filesystem::temp_directory_path() / ("inasim-gpu-" + name + ".yaml")).string();
    std::ofstream out(path);
    out << "alpha1: 1\nalpha2: " << alpha2 << "\n"
        << "p_gamma1_bytes_per_s: 5e9\np_gamma2_bytes_per_s: 0\np_gamma3: 1\np_gamma4: 0.6\n"
        << "q_gamma1_bytes_per_s: " << (name == "slow-q" ? "1e9" : "6e9")
        << "\nq_gamma2_bytes_per_s: 0\nq_gamma3: 1\nq_gamma4: 0.6\n"
        << "alpha_hop_s: 1e-5\nina_startup_s: 2e-5\n";
    return path;
}

/// The context of every job here: two workers on hosts 0 and 1.
JobContext
Context(Ptr<InaFabric> fabric)
{
    return TestJobContext(fabric, "gpu", {0, 1}, 5);
}

Ptr<TrainingJob>
GpuJob(const std::string& paramsFile, uint32_t threads)
{
    Ptr<TrainingJob> job = CreateObject<TrainingJob>();
    job->SetAttribute("Iterations", UintegerValue(2));
    job->SetComputeModel(TrainingJob::ComputeModelTypeName("gpu-contention"));
    job->SetComputeModelAttribute("GpuParams", StringValue(paramsFile));
    job->SetComputeModelAttribute("GpuThreads", UintegerValue(threads));
    return job;
}

/// A GpuJob of `iterations` iterations of `model` with `protocol`, run to its end on two hosts.
struct GpuRun
{
    GpuRun(const std::string& paramsFile,
           uint32_t threads,
           uint32_t iterations,
           const ModelSpec& model,
           Ptr<AggregationProtocol> protocol)
        : fabric(TestStar(2))
        , job(GpuJob(paramsFile, threads))
    {
        job->SetAttribute("Iterations", UintegerValue(iterations));
        RunJobToEnd(job, Context(fabric), model, protocol);
    }

    Ptr<InaFabric> fabric;
    Ptr<TrainingJob> job;
};

} // namespace

/**
 * Two workers, layers as in the training-job suite, the agent answering 10 us after a hand-off,
 * 2000 threads per kernel (half speed). Iteration 1: forward 0-4 us, layer 1's backward 4-10 us
 * (no kernel), its gradient handed at 10 us and resident until 20 us; layer 0's 2 us of backward
 * run at half speed, 10-14 us; its gradient handed at 14 us, back at 24 us. Iteration 2 (its
 * forward pass waits for layer 0's gradient): forward 24-28, backward 28-34 and 34-38 us,
 * hand-offs at 34 and 38 us, end at 48 us. Without contention: 22 and 44 us (the training-job
 * suite's numbers). The kernel is resident 10-24 us: 4 us beside computation (X_o = 40 Gb/s),
 * 10 us with the GPU idle (X_n = 48 Gb/s).
 */
class GpuContentionTinyJobTestCase : public TestCase
{
  public:
    GpuContentionTinyJobTestCase()
        : TestCase(
              "a two-layer job under contention ends its iterations at the hand-computed times")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<DelayProtocol> protocol = CreateObject<DelayProtocol>();
        const std::string params = ParamsFile("round", 2.5e-4);
        const GpuRun run(params, 2000, 2, TwoLayers(), protocol);
        Ptr<TrainingJob> job = run.job;
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        const std::vector<Time> it = job->GetIterationTimes();
        NS_TEST_ASSERT_MSG_EQ(it.size(), 2, "two iterations");
        NS_TEST_EXPECT_MSG_EQ(it[0], MicroSeconds(24), "first iteration");
        NS_TEST_EXPECT_MSG_EQ(it[1], MicroSeconds(24), "second iteration");
        NS_TEST_EXPECT_MSG_EQ(job->GetJct(), MicroSeconds(48), "JCT");
        for (uint32_t rank = 0; rank < 2; ++rank)
        {
            NS_TEST_EXPECT_MSG_EQ((protocol->HandedAt(rank) ==
                                   std::vector<int64_t>{10 * US, 14 * US, 34 * US, 38 * US}),
                                  true,
                                  "hand-offs of rank " << rank);
        }
        const ComputeModel::Report r = job->GetComputeReport();
        NS_TEST_ASSERT_MSG_EQ(r.perIteration.size(), 4, "four series");
        const std::vector<std::pair<std::string, double>> expected = {{"backward_s", 20e-6},
                                                                      {"backward_compute_s", 10e-6},
                                                                      {"compute_slowdown_s", 2e-6},
                                                                      {"kernel_resident_s", 14e-6}};
        for (std::size_t k = 0; k < expected.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(r.perIteration[k].first, expected[k].first, "name");
            NS_TEST_ASSERT_MSG_EQ(r.perIteration[k].second.size(), 2, expected[k].first);
            for (double v : r.perIteration[k].second)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(v, expected[k].second, 1e-15, expected[k].first);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(r.values[0].first, "groups", "groups");
        NS_TEST_EXPECT_MSG_EQ(r.values[0].second, 2, "one group per layer");
        NS_TEST_EXPECT_MSG_EQ(r.values[2].first, "mean_injection_cap_gbps", "cap");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.values[2].second, (4 * 40.0 + 10 * 48.0) / 14, 1e-9, "cap");
        NS_TEST_EXPECT_MSG_EQ(r.text[3].second, "fixed", "policy");
        NS_TEST_EXPECT_MSG_EQ(r.text[5].second, "2000;2000", "threads");
        Simulator::Destroy();
        std::filesystem::remove(params);
    }
};

/**
 * With alpha2 = 0 the kernels cost nothing: the same job gives the profiled model's times and
 * hand-offs to the picosecond (22 and 44 us; hand-offs at 10, 12, 32, 34 us).
 */
class GpuContentionFreeTestCase : public TestCase
{
  public:
    GpuContentionFreeTestCase()
        : TestCase("without contention the fluid model gives the profiled model's times exactly")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<std::vector<int64_t>> handed[2];
        std::vector<Time> times[2];
        for (int gpu = 0; gpu < 2; ++gpu)
        {
            Ptr<InaFabric> fabric = TestStar(2);
            Ptr<DelayProtocol> protocol = CreateObject<DelayProtocol>();
            Ptr<TrainingJob> job = CreateObject<TrainingJob>();
            job->SetAttribute("Iterations", UintegerValue(2));
            if (gpu == 1)
            {
                const std::string params = ParamsFile("free", 0);
                job = GpuJob(params, 2000);
            }
            RunJobToEnd(job, Context(fabric), TwoLayers(), protocol);
            std::filesystem::remove(std::filesystem::temp_directory_path() /
                                    "inasim-gpu-free.yaml");
            handed[gpu] = {protocol->HandedAt(0), protocol->HandedAt(1)};
            times[gpu] = job->GetIterationTimes();
            Simulator::Destroy();
        }
        NS_TEST_EXPECT_MSG_EQ((times[0] == std::vector<Time>{MicroSeconds(22), MicroSeconds(22)}),
                              true,
                              "profiled: the training-job suite's times");
        NS_TEST_EXPECT_MSG_EQ((times[1] == times[0]), true, "the same iteration times");
        NS_TEST_EXPECT_MSG_EQ((handed[1] == handed[0]), true, "the same hand-offs");
        NS_TEST_EXPECT_MSG_EQ(
            (handed[1][0] == std::vector<int64_t>{10 * US, 12 * US, 32 * US, 34 * US}),
            true,
            "hand-offs");
    }
};

/**
 * A ring all-reduce of 1 MB between two workers with no computation: the GPU is idle, so each
 * host's NIC is paced at X_n = 1e9 B/s (8 Gb/s) while its kernel is resident, 12.5x below the
 * 100 Gb/s link. The all-reduce takes at least (a rank's data packets' wire bytes) / 1e9 B/s and
 * at most (all its host's bytes, acknowledgements included) / 1e9 B/s plus 20 us of pipeline and
 * latency: about 1.09 ms (uncapped, about 90 us).
 */
class GpuContentionPacedRingTestCase : public TestCase
{
  public:
    GpuContentionPacedRingTestCase()
        : TestCase("a ring all-reduce is paced at the idle-GPU injection cap")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RingAllReduceProtocol> protocol = CreateObject<RingAllReduceProtocol>();
        const std::string params = ParamsFile("slow-q", 2.5e-4);
        const GpuRun run(params, 1000, 1, ModelZoo::TensorWorkload(1000000), protocol);
        Ptr<InaFabric> fabric = run.fabric;
        Ptr<TrainingJob> job = run.job;
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        uint64_t maxTx = 0;
        const InaTopology& topo = fabric->GetTopology();
        for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
        {
            const InaTopology::Link& link = topo.GetLink(l);
            for (int e = 0; e < 2; ++e)
            {
                const uint32_t from = e == 0 ? link.a : link.b;
                if (from < 2) // a host's uplink
                {
                    maxTx = std::max(maxTx, fabric->GetLinkPort(l, e)->GetCounters().txBytes);
                }
            }
        }
        uint64_t maxData = 0;
        for (const auto& w : job->GetWorkers())
        {
            maxData = std::max(maxData, w->GetAgent()->GetStats().wireBytesSent);
        }
        NS_TEST_ASSERT_MSG_GT(maxData, 1000000, "at least the payload");
        const double jct = job->GetJct().GetSeconds();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(jct, maxData / 1e9, "every data packet paced at the cap");
        NS_TEST_EXPECT_MSG_LT(jct, maxTx / 1e9 + 20e-6, "at the cap, not below it");
        const ComputeModel::Report r = job->GetComputeReport();
        NS_TEST_EXPECT_MSG_EQ_TOL(r.values[2].second, 8.0, 1e-9, "X_n all along");
        Simulator::Destroy();
        std::filesystem::remove(params);
    }
};

class GpuContentionComputeModelTestSuite : public InaTestSuite
{
  public:
    GpuContentionComputeModelTestSuite()
        : InaTestSuite("gpu-contention-compute-model", Type::UNIT)
    {
        AddTestCase(new GpuContentionTinyJobTestCase);
        AddTestCase(new GpuContentionFreeTestCase);
        AddTestCase(new GpuContentionPacedRingTestCase);
    }
};

static GpuContentionComputeModelTestSuite g_gpuContentionComputeModelTestSuite;
