/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LIBRA's DP (Algorithm 1) against brute-force enumeration, the fusion baselines (MG-WFBP,
// Horovod's cycle) on hand-made cases, and the policies on the shipped model zoo.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/gpu-contention-model.h"
#include "ns3/gpu-contention-params.h"
#include "ns3/model-zoo.h"
#include "ns3/thread-alloc-dp.h"
#include "ns3/thread-alloc-plan.h"
#include "ns3/thread-alloc-policy.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using Layers = std::vector<GpuContentionModel::Layer>;

/// Best backward time over every plan of at most maxGroups groups and threads in R.
double
BruteForce(const GpuContentionModel& model,
           const Layers& layers,
           uint32_t maxGroups,
           const std::vector<uint32_t>& threads)
{
    const size_t n = layers.size();
    double best = std::numeric_limits<double>::infinity();
    // cuts: bit k set = a group ends after layer k
    for (uint32_t cuts = 0; cuts < (1u << (n - 1)); ++cuts)
    {
        std::vector<ThreadAllocPlan::Group> groups;
        uint32_t first = 0;
        for (uint32_t k = 0; k < n; ++k)
        {
            if (k == n - 1 || (cuts & (1u << k)))
            {
                groups.push_back({first, k, 0});
                first = k + 1;
            }
        }
        if (groups.size() > maxGroups)
        {
            continue;
        }
        size_t combos = 1;
        for (size_t g = 0; g < groups.size(); ++g)
        {
            combos *= threads.size();
        }
        for (size_t c = 0; c < combos; ++c)
        {
            size_t x = c;
            for (auto& g : groups)
            {
                g.threads = threads[x % threads.size()];
                x /= threads.size();
            }
            ThreadAllocPlan plan(groups, n);
            best = std::min(best, model.BackwardS(plan.Tasks(layers)));
        }
    }
    return best;
}

/// Best backward time over thread assignments of a fixed fusion.
double
BruteForceThreads(const GpuContentionModel& model,
                  const Layers& layers,
                  const ThreadAllocPlan& fusion,
                  const std::vector<uint32_t>& threads)
{
    std::vector<ThreadAllocPlan::Group> groups = fusion.GetGroups();
    size_t combos = 1;
    for (size_t g = 0; g < groups.size(); ++g)
    {
        combos *= threads.size();
    }
    double best = std::numeric_limits<double>::infinity();
    for (size_t c = 0; c < combos; ++c)
    {
        size_t x = c;
        for (auto& g : groups)
        {
            g.threads = threads[x % threads.size()];
            x /= threads.size();
        }
        best =
            std::min(best, model.BackwardS(ThreadAllocPlan(groups, layers.size()).Tasks(layers)));
    }
    return best;
}

/// Five layers whose communication and computation are of the same order (where threads matter).
Layers
TinyLayers()
{
    return {{0.004, 8e6}, {0.011, 20e6}, {0.003, 2e6}, {0.017, 60e6}, {0.009, 30e6}};
}

double
Evaluate(const GpuContentionModel& model, const Layers& layers, const ThreadAllocPlan& plan)
{
    return model.BackwardS(plan.Tasks(layers));
}

} // namespace

TEST(ThreadAllocDpTest, JointDpWithinTheoremBoundOfBruteForce)
{
    const Layers layers = TinyLayers();
    for (uint32_t nodes : {8u, 64u, 1024u})
    {
        GpuContentionModel model(GpuContentionParams::Illustrative(), nodes);
        for (uint32_t k : {1u, 2u, 3u, 5u})
        {
            for (uint32_t z : {7u, 50u, 300u})
            {
                ThreadAllocDp::Config config;
                config.maxGroups = k;
                config.chunks = z;
                config.threads = {128, 512, 2048};
                ThreadAllocDp dp(model, config);
                ThreadAllocDp::Result res = dp.SolveJoint(layers);
                const double best = BruteForce(model, layers, k, config.threads);
                const double got = Evaluate(model, layers, res.plan);
                SCOPED_TRACE("N=" + std::to_string(nodes) + " K=" + std::to_string(k) +
                             " Z=" + std::to_string(z));
                EXPECT_LE(res.plan.GetGroupCount(), k);
                // Theorem 2 with at most K groups: T^ <= T(K, Z) <= T* + (K - 1) w
                EXPECT_GE(got, best * (1 - 1e-12));
                EXPECT_LE(got, res.chunkedS * (1 + 1e-12));
                EXPECT_LE(got, best * (1.0 + (k - 1.0) / z) * (1 + 1e-12));
            }
        }
    }
}

TEST(ThreadAllocDpTest, JointDpEqualsBruteForceWhenStartsAreChunkAligned)
{
    // Equal layers of 10 ms and small gradients: every all-reduce ends before the next group's
    // gradients are ready, so every start is a layer boundary, i.e. a chunk edge when Z is a
    // multiple of L. The chunked optimum is then the true optimum.
    const Layers layers = {{0.01, 1e6}, {0.01, 3e6}, {0.01, 2e6}, {0.01, 4e6}};
    GpuContentionModel model(GpuContentionParams::Illustrative(), 8);
    ThreadAllocDp::Config config;
    config.maxGroups = 4;
    config.chunks = 40;
    config.threads = {128, 1024, 4096};
    ThreadAllocDp::Result res = ThreadAllocDp(model, config).SolveJoint(layers);
    const double best = BruteForce(model, layers, 4, config.threads);
    EXPECT_NEAR(res.chunkedS, best, 1e-12);
    EXPECT_NEAR(Evaluate(model, layers, res.plan), best, 1e-12);
}

TEST(ThreadAllocDpTest, FixedFusionDpWithinTheoremBoundOfBruteForce)
{
    const Layers layers = TinyLayers();
    ThreadAllocPlan fusion({{0, 1, 1}, {2, 2, 1}, {3, 4, 1}}, layers.size());
    for (uint32_t nodes : {8u, 256u})
    {
        GpuContentionModel model(GpuContentionParams::Illustrative(), nodes);
        for (uint32_t z : {10u, 150u})
        {
            ThreadAllocDp::Config config;
            config.chunks = z;
            ThreadAllocDp::Result res =
                ThreadAllocDp(model, config).SolveFixedFusion(layers, fusion);
            const double best = BruteForceThreads(model, layers, fusion, config.threads);
            const double got = Evaluate(model, layers, res.plan);
            EXPECT_EQ(res.plan.LayersString(), "0-1;2-2;3-4");
            // Theorem 1 with K = 3 groups
            EXPECT_GE(got, best * (1 - 1e-12));
            EXPECT_LE(got, res.chunkedS * (1 + 1e-12));
            EXPECT_LE(got, best * (1.0 + 2.0 / z) * (1 + 1e-12));
        }
    }
}

TEST(ThreadAllocDpTest, NeverWorseThanSingleGroupAndFixedThreads)
{
    // SE (one group at the end) is exact in the chunked model, so the DP can only beat it; and a
    // fixed r in R over any plan of <= K groups is in the DP's search space (up to the bound).
    const Layers layers = TinyLayers();
    for (uint32_t nodes : {8u, 128u, 2048u})
    {
        GpuContentionModel model(GpuContentionParams::Illustrative(), nodes);
        ThreadAllocDp::Config config;
        config.maxGroups = 3;
        ThreadAllocDp::Result res = ThreadAllocDp(model, config).SolveJoint(layers);
        const double got = Evaluate(model, layers, res.plan);
        for (uint32_t r : config.threads)
        {
            const double se =
                Evaluate(model, layers, ThreadAllocPlan::SingleGroup(layers.size(), r));
            EXPECT_LE(got, se * (1 + 1e-12));
            const double fixed = BruteForce(model, layers, 3, {r});
            EXPECT_LE(got, fixed * (1.0 + 2.0 / config.chunks) * (1 + 1e-12));
        }
    }
}

TEST(ThreadAllocDpTest, NoEmptyGroupsAndSingleLayer)
{
    GpuContentionModel model(GpuContentionParams::Illustrative(), 16);
    ThreadAllocDp dp(model, ThreadAllocDp::Config());
    ThreadAllocDp::Result one = dp.SolveJoint({{0.01, 1e7}});
    EXPECT_EQ(one.plan.LayersString(), "0-0");
    ThreadAllocDp::Result res = dp.SolveJoint(TinyLayers());
    for (const auto& g : res.plan.GetGroups())
    {
        EXPECT_LE(g.firstLayer, g.lastLayer);
    }
    // no computation at all: every all-reduce is alone, so one group is best
    ThreadAllocDp::Result flat = dp.SolveJoint({{0, 1e7}, {0, 1e7}, {0, 1e7}});
    EXPECT_EQ(flat.plan.LayersString(), "0-2");
    EXPECT_EQ(flat.plan.ThreadsString(), "4096");
    EXPECT_THROW(dp.SolveJoint({}), std::invalid_argument);
}

TEST(ThreadAllocDpTest, ConfigErrors)
{
    GpuContentionModel model(GpuContentionParams::Illustrative(), 8);
    ThreadAllocDp::Config c;
    c.maxGroups = 0;
    EXPECT_THROW(ThreadAllocDp(model, c), std::invalid_argument);
    c = ThreadAllocDp::Config();
    c.chunks = 0;
    EXPECT_THROW(ThreadAllocDp(model, c), std::invalid_argument);
    c = ThreadAllocDp::Config();
    c.threads.clear();
    EXPECT_THROW(ThreadAllocDp(model, c), std::invalid_argument);
    c = ThreadAllocDp::Config();
    c.threads = {128, 8192}; // illustrative speed at 8192: 1 - 1.106 < 0
    EXPECT_THROW(ThreadAllocDp(model, c), std::invalid_argument);
}

TEST(ThreadAllocPlanTest, Validation)
{
    EXPECT_NO_THROW(ThreadAllocPlan({{0, 1, 128}, {2, 2, 256}}, 3));
    EXPECT_THROW(ThreadAllocPlan({{0, 1, 128}, {3, 3, 256}}, 4), std::invalid_argument); // gap
    EXPECT_THROW(ThreadAllocPlan({{0, 1, 128}, {2, 1, 256}}, 2), std::invalid_argument); // empty
    EXPECT_THROW(ThreadAllocPlan({{0, 1, 128}}, 3), std::invalid_argument);              // short
    EXPECT_THROW(ThreadAllocPlan({{0, 2, 0}}, 3), std::invalid_argument); // no threads
    ThreadAllocPlan p({{0, 1, 128}, {2, 2, 256}}, 3);
    EXPECT_EQ(p.ThreadsString(), "128;256");
    EXPECT_EQ(p.LayersString(), "0-1;2-2");
    auto tasks = p.Tasks({{0.001, 10}, {0.002, 20}, {0.004, 40}});
    ASSERT_EQ(tasks.size(), 2u);
    EXPECT_NEAR(tasks[0].computeS, 0.003, 1e-15);
    EXPECT_EQ(tasks[0].bytes, 30.0);
    EXPECT_EQ(tasks[1].threads, 256u);
    EXPECT_THROW(p.Tasks({{0.001, 10}}), std::invalid_argument);
}

namespace
{

/// N = 2 ring with a = 2 alphaHop, c^ = c, a constant 1e9 B/s and no contention.
GpuContentionParams
FlatParams(double alphaHopS)
{
    GpuContentionParams p;
    p.alpha1 = 1;
    p.alpha2 = 0;
    p.overlapped = {1e9, 0, 1, 0.6};
    p.alone = {1e9, 0, 1, 0.6};
    p.alphaHopS = alphaHopS;
    p.inaStartupS = 0;
    return p;
}

} // namespace

TEST(ThreadAllocPolicyTest, MgWfbpMergesWhenWaitingIsCheaperThanAStartup)
{
    // a = 2 ms; all-reduce of 1 MB = 3 ms. Ready at 1, 2, 7 ms. Layer 0 would start at 1 and end
    // at 4; layer 1 is ready at 2, after a wait of 1 < a: merge (2 MB, 4 ms, from 2 to 6).
    // Layer 2 is ready at 7 > 6: separate.
    GpuContentionModel model(FlatParams(1e-3), 2);
    Layers layers = {{1e-3, 1e6}, {1e-3, 1e6}, {5e-3, 1e6}};
    EXPECT_EQ(ThreadAllocPolicy::MgWfbpFusion(model, layers, 512).LayersString(), "0-1;2-2");
    // the first all-reduce is long (7 ms): everything merges
    Layers big = {{1e-3, 5e6}, {1e-3, 1e6}, {1e-3, 1e6}};
    EXPECT_EQ(ThreadAllocPolicy::MgWfbpFusion(model, big, 512).LayersString(), "0-2");
}

TEST(ThreadAllocPolicyTest, MgWfbpMergesWhenTheAllReduceHasNotStarted)
{
    // a = 0.2 ms: layer 0 (5 MB) runs 1 to 6.2 ms; layer 1 (ready at 2, wait 1 > a) stays
    // alone and would start at 6.2; layer 2 is ready at 3 < 6.2, before it starts: merge.
    GpuContentionModel model(FlatParams(0.1e-3), 2);
    Layers layers = {{1e-3, 5e6}, {1e-3, 1e6}, {1e-3, 1e6}};
    EXPECT_EQ(ThreadAllocPolicy::MgWfbpFusion(model, layers, 512).LayersString(), "0-0;1-2");
}

TEST(ThreadAllocPolicyTest, HorovodCycleByHand)
{
    // a = 1 ms, 1 MB = 1 ms on the wire, no contention; layers of 1 ms ready at 1, 2, 3 ms;
    // cycle 2.5 ms. Tick 0: nothing ready; tick 2.5: layers 0 and 1 (2 MB: p + a = 3 ms) overlap
    // the last 0.5 ms of computation, then 3 x 5/6 = 2.5 ms alone: done at 5.5. Next tick
    // max(5, 5.5) = 5.5: layer 2, 2 ms alone: backward = 7.5 ms.
    GpuContentionModel model(FlatParams(0.5e-3), 2);
    Layers layers = {{1e-3, 1e6}, {1e-3, 1e6}, {1e-3, 1e6}};
    double t = 0;
    ThreadAllocPlan plan =
        ThreadAllocPolicy::HorovodCycleFusion(model, layers, 512, 2.5e-3, 64e6, &t);
    EXPECT_EQ(plan.LayersString(), "0-1;2-2");
    EXPECT_NEAR(t, 7.5e-3, 1e-15);
    // a 1.5 MB threshold splits the first cycle's buffer: layer 0 (2 ms: 0.5 overlapped, 1.5
    // alone) ends at 4.5, layer 1 at 6.5, then layer 2 from 6.5 to 8.5
    plan = ThreadAllocPolicy::HorovodCycleFusion(model, layers, 512, 2.5e-3, 1.5e6, &t);
    EXPECT_EQ(plan.LayersString(), "0-0;1-1;2-2");
    EXPECT_NEAR(t, 8.5e-3, 1e-15);
}

TEST(ThreadAllocPolicyTest, HorovodWithoutCycleMatchesTheRecurrences)
{
    // with no cycle wait the simulation is the recurrences on the plan it formed
    const Layers layers = TinyLayers();
    for (uint32_t nodes : {8u, 512u})
    {
        GpuContentionModel model(GpuContentionParams::Illustrative(), nodes);
        double t = 0;
        ThreadAllocPlan plan =
            ThreadAllocPolicy::HorovodCycleFusion(model, layers, 1024, 0, 1e12, &t);
        EXPECT_NEAR(t, Evaluate(model, layers, plan), 1e-12);
    }
}

TEST(ThreadAllocPolicyTest, NamesRoundTripAndUnknownNamesList)
{
    for (auto kind : ThreadAllocPolicy::All())
    {
        EXPECT_EQ(ThreadAllocPolicy::FromName(ThreadAllocPolicy::Name(kind)), kind);
    }
    EXPECT_EQ(ns3::tests::ErrorOf<std::invalid_argument>(
                  [&] {
                      ThreadAllocPolicy::FromName("nccl");
                  },
                  "no error"),
              "unknown policy 'nccl' (expected one of: se, fixed, mg-n, libra-m, dp, mg-cf)");
}

TEST(ThreadAllocPolicyTest, ZooModelsDpNeverWorseThanTheFixedThreadBaselines)
{
    const ModelZoo& zoo = ModelZoo::Default();
    ThreadAllocPolicy::Options options;
    for (const char* name : {"vgg16", "resnet50", "bert-base"})
    {
        const Layers layers = GpuContentionModel::BackwardLayers(zoo.Get(name));
        for (uint32_t nodes : {8u, 64u, 512u, 2048u})
        {
            GpuContentionModel model(GpuContentionParams::Illustrative(), nodes);
            SCOPED_TRACE(std::string(name) + " N=" + std::to_string(nodes));
            auto dp = ThreadAllocPolicy::Run(ThreadAllocPolicy::LIBRA, model, layers, options);
            auto se = ThreadAllocPolicy::Run(ThreadAllocPolicy::SE, model, layers, options);
            auto fixed = ThreadAllocPolicy::Run(ThreadAllocPolicy::FIXED, model, layers, options);
            auto mgn = ThreadAllocPolicy::Run(ThreadAllocPolicy::MG_N, model, layers, options);
            auto libraM =
                ThreadAllocPolicy::Run(ThreadAllocPolicy::LIBRA_M, model, layers, options);
            auto mgcf = ThreadAllocPolicy::Run(ThreadAllocPolicy::MG_CF, model, layers, options);
            EXPECT_LE(dp.plan.GetGroupCount(), 10u);
            EXPECT_LE(dp.backwardS, dp.chunkedS * (1 + 1e-12));
            EXPECT_LE(dp.backwardS, se.backwardS);
            EXPECT_LE(dp.backwardS, fixed.backwardS);
            EXPECT_LE(dp.backwardS, mgn.backwardS);
            // LIBRA-M keeps MG-N's groups, and its threads can only help (Theorem 1's bound)
            EXPECT_EQ(libraM.plan.LayersString(), mgn.plan.LayersString());
            EXPECT_LE(libraM.backwardS,
                      mgn.backwardS * (1.0 + (mgn.plan.GetGroupCount() - 1.0) / 150));
            // without contention MG-N's plan is never slower
            EXPECT_EQ(mgcf.plan.LayersString(), mgn.plan.LayersString());
            EXPECT_LE(mgcf.backwardS, mgn.backwardS * (1 + 1e-12));
            // nothing beats the computation alone
            double computeS = 0;
            for (const auto& l : layers)
            {
                computeS += l.computeS;
            }
            EXPECT_GT(dp.backwardS, computeS);
        }
    }
}
