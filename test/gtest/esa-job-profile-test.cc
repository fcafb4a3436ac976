/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// What ESA's priority needs to know about a job (EsaJobProfile), pure logic: the pieces WorkerApp
// hands (fusion and partitioning replayed), each piece's front-most layer, the remaining time at
// each push and the communication-to-computation ratio, on the paper's DNN A and B and on a fused
// four-layer model, in the worker's backward and ByteScheduler-style send orders. Expected values
// are worked out by hand in the comments.

#include "ns3/esa-job-profile.h"
#include "ns3/model-zoo.h"

#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

constexpr double RATE = 100e9;
constexpr int64_t US = 1000000; // ps

ModelSpec
Model(const std::vector<uint64_t>& bytes,
      const std::vector<int64_t>& forwardPs,
      const std::vector<int64_t>& backwardPs)
{
    ModelSpec m;
    m.name = "test";
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        m.layers.push_back({"l" + std::to_string(i), bytes[i], forwardPs[i], backwardPs[i]});
    }
    return m;
}

TEST(EsaJobProfile, ThePapersDnnAInFourPartitions)
{
    // esa-dnn-a: two 8 MB layers, 0.32 ms forward each, no backward; PartitionBytes 4 MB.
    // Backward order: layer 2's two halves (l = 2), then layer 1's (l = 1).
    const ModelSpec a = Model({8000000, 8000000}, {320 * US, 320 * US}, {0, 0});
    EsaJobProfile p(a, 0, 4000000, 1);
    EXPECT_EQ(p.GetLayers(), 2u);
    ASSERT_EQ(p.GetPieces().size(), 4u);
    const uint32_t layers[4] = {2, 2, 1, 1};
    const uint64_t left[4] = {16000000, 12000000, 8000000, 4000000};
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(p.GetPieces()[i].bytes, 4000000u);
        EXPECT_EQ(p.LayerOf(i), layers[i]);
        EXPECT_EQ(p.GetPieces()[i].bytesLeft, left[i]);
        EXPECT_EQ(p.GetPieces()[i].computePs, 0);
    }
    // Comm / Comp: 16 MB at 100 Gb/s = 1.28 ms over 0.64 ms = 2 (the paper's 2:1).
    EXPECT_DOUBLE_EQ(p.CommCompRatio(RATE), 2.0);
    // T at the first push: 16 MB = 1.28 ms; at the last: 4 MB = 0.32 ms.
    EXPECT_DOUBLE_EQ(p.RemainingTime(0, 0, RATE), 1.28e-3);
    EXPECT_DOUBLE_EQ(p.RemainingTime(0, 3, RATE), 0.32e-3);
}

TEST(EsaJobProfile, ThePapersDnnBHasRatioOneHalf)
{
    // esa-dnn-b: two 4 MB layers, 0.64 ms each: 8 MB = 0.64 ms over 1.28 ms.
    const ModelSpec b = Model({4000000, 4000000}, {640 * US, 640 * US}, {0, 0});
    EsaJobProfile p(b, 0, 2000000, 1);
    EXPECT_EQ(p.GetPieces().size(), 4u);
    EXPECT_DOUBLE_EQ(p.CommCompRatio(RATE), 0.5);
    EXPECT_DOUBLE_EQ(p.RemainingTime(0, 0, RATE), 0.64e-3);
}

TEST(EsaJobProfile, LaterIterationsCountInTheRemainingTime)
{
    const ModelSpec a = Model({8000000, 8000000}, {320 * US, 320 * US}, {0, 0});
    EsaJobProfile p(a, 0, 4000000, 3);
    // Iteration 0, piece 0: 16 MB now + 2 x 16 MB later = 3.84 ms, plus 2 x 0.64 ms = 5.12 ms.
    EXPECT_DOUBLE_EQ(p.RemainingTime(0, 0, RATE), 5.12e-3);
    // Iteration 2, piece 2: 8 MB = 0.64 ms.
    EXPECT_DOUBLE_EQ(p.RemainingTime(2, 2, RATE), 0.64e-3);
    EXPECT_THROW(p.RemainingTime(3, 0, RATE), std::out_of_range);
    EXPECT_THROW(p.RemainingTime(0, 4, RATE), std::out_of_range);
}

TEST(EsaJobProfile, FusionAndPartitionsLikeTheWorker)
{
    // Layers 0..3 of 1, 2, 3, 4 MB, backward 10, 20, 30, 40 us; FusionBytes 5 MB, PartitionBytes
    // 4 MB. Backward: layer 3 (4 MB < 5 MB, kept), layer 2 (7 MB: flushed when layer 2 is done,
    // layers 0 and 1 still to run: 30 us): [0, 4 MB) is layer 3 alone (l = 4), [4, 7 MB) layer 2
    // (l = 3). Then layer 1 (2 MB, kept) and layer 0 (3 MB, flushed at the first layer): one
    // 3 MB piece holding layers 1 and 0, front-most l = 1, nothing left to compute.
    const ModelSpec m = Model({1000000, 2000000, 3000000, 4000000},
                              {0, 0, 0, 0},
                              {10 * US, 20 * US, 30 * US, 40 * US});
    EsaJobProfile p(m, 5000000, 4000000, 1);
    ASSERT_EQ(p.GetPieces().size(), 3u);
    EXPECT_EQ(p.GetPieces()[0].bytes, 4000000u);
    EXPECT_EQ(p.GetPieces()[0].layer, 4u);
    EXPECT_EQ(p.GetPieces()[0].computePs, 30 * US);
    EXPECT_EQ(p.GetPieces()[0].bytesLeft, 10000000u);
    EXPECT_EQ(p.GetPieces()[1].bytes, 3000000u);
    EXPECT_EQ(p.GetPieces()[1].layer, 3u);
    EXPECT_EQ(p.GetPieces()[1].computePs, 30 * US);
    EXPECT_EQ(p.GetPieces()[1].bytesLeft, 6000000u);
    EXPECT_EQ(p.GetPieces()[2].bytes, 3000000u);
    EXPECT_EQ(p.GetPieces()[2].layer, 1u);
    EXPECT_EQ(p.GetPieces()[2].computePs, 0);
    // T at piece 1: 6 MB = 0.48 ms plus 30 us.
    EXPECT_DOUBLE_EQ(p.RemainingTime(0, 1, RATE), 0.48e-3 + 30e-6);
    // Ratio: 10 MB = 0.8 ms over 100 us of backward.
    EXPECT_DOUBLE_EQ(p.CommCompRatio(RATE), 8.0);
}

TEST(EsaJobProfile, WithoutFusionOrPartitioningEachLayerIsOnePiece)
{
    const ModelSpec m = Model({1000, 2000, 3000}, {US, US, US}, {US, US, US});
    EsaJobProfile p(m, 0, 0, 1);
    ASSERT_EQ(p.GetPieces().size(), 3u);
    EXPECT_EQ(p.GetPieces()[0].bytes, 3000u);
    EXPECT_EQ(p.LayerOf(0), 3u);
    EXPECT_EQ(p.GetPieces()[0].computePs, 2 * US);
    EXPECT_EQ(p.LayerOf(1), 2u);
    EXPECT_EQ(p.LayerOf(2), 1u);
    EXPECT_EQ(p.GetIterationBytes(), 6000u);
    EXPECT_EQ(p.GetIterationComputePs(), 6 * US);
    // A partition boundary exactly at a layer boundary does not drag the next layer in. With
    // FusionBytes 5000 and PartitionBytes 3000: layer 2 (3000 B) is kept, layer 1 makes 5000 B and
    // flushes (layer 0's 1 us of backward still to run): [0, 3000) is layer 2 alone (l = 3, not 2),
    // [3000, 5000) layer 1 (l = 2); then layer 0 alone (l = 1).
    EsaJobProfile q(m, 5000, 3000, 1);
    ASSERT_EQ(q.GetPieces().size(), 3u);
    EXPECT_EQ(q.GetPieces()[0].bytes, 3000u);
    EXPECT_EQ(q.LayerOf(0), 3u);
    EXPECT_EQ(q.GetPieces()[0].computePs, US);
    EXPECT_EQ(q.GetPieces()[1].bytes, 2000u);
    EXPECT_EQ(q.LayerOf(1), 2u);
    EXPECT_EQ(q.GetPieces()[1].computePs, US);
    EXPECT_EQ(q.GetPieces()[2].bytes, 1000u);
    EXPECT_EQ(q.LayerOf(2), 1u);
    EXPECT_EQ(q.GetPieces()[2].computePs, 0);
}

TEST(EsaJobProfile, TheZoosEsaModelsMatchThePaper)
{
    // ESA 7.2.1: DNN A has 4 MB partitions and 0.32 ms per layer (comm : comp = 2 : 1), DNN B 2 MB
    // and 0.64 ms (1 : 2); two layers of two partitions each.
    const ModelZoo zoo(std::string(INASIM_SOURCE_DIR) + "/src/ina-training/data/model-zoo.yaml");
    EsaJobProfile a(zoo.Get("esa-dnn-a"), 0, 4000000, 1);
    EXPECT_EQ(a.GetLayers(), 2u);
    EXPECT_EQ(a.GetPieces().size(), 4u);
    EXPECT_EQ(a.GetIterationComputePs(), 640 * US);
    EXPECT_DOUBLE_EQ(a.CommCompRatio(RATE), 2.0);
    EsaJobProfile b(zoo.Get("esa-dnn-b"), 0, 2000000, 1);
    EXPECT_EQ(b.GetPieces().size(), 4u);
    EXPECT_EQ(b.GetPieces()[0].bytes, 2000000u);
    EXPECT_EQ(b.GetIterationComputePs(), 1280 * US);
    EXPECT_DOUBLE_EQ(b.CommCompRatio(RATE), 0.5);
}

TEST(EsaJobProfile, ThePapersSendOrder)
{
    // SendOrder bytescheduler (ESA 7.2.1): layer 2's first partition, layer 1's two, layer 2's
    // second. The layers follow the order; the bytes left do not depend on it.
    const ModelSpec a = Model({8000000, 8000000}, {320 * US, 320 * US}, {0, 0});
    EsaJobProfile p(a, 0, 4000000, 1, JobContext::SendOrder::BYTESCHEDULER, RATE);
    ASSERT_EQ(p.GetPieces().size(), 4u);
    const uint32_t layers[4] = {2, 1, 1, 2};
    const uint64_t left[4] = {16000000, 12000000, 8000000, 4000000};
    for (uint32_t i = 0; i < 4; ++i)
    {
        EXPECT_EQ(p.LayerOf(i), layers[i]);
        EXPECT_EQ(p.GetPieces()[i].bytesLeft, left[i]);
        EXPECT_EQ(p.GetPieces()[i].computePs, 0);
    }
    EXPECT_DOUBLE_EQ(p.CommCompRatio(RATE), 2.0);
    EXPECT_DOUBLE_EQ(p.RemainingTime(0, 1, RATE), 0.96e-3);
    // The order needs the rate it is planned with.
    EXPECT_THROW(EsaJobProfile(a, 0, 4000000, 1, JobContext::SendOrder::BYTESCHEDULER, 0),
                 std::invalid_argument);
}

TEST(EsaJobProfile, ReorderedPiecesCountTheBackwardStillAhead)
{
    // Layer 0: 4000 B, backward 2 us; layer 1: 8000 B, backward 6 us; 4000-B pieces; planned at
    // 1 Gb/s (32 us a piece): L2p1 (handed when layer 1 is done: layer 0's 2 us still to run),
    // then L1 and L2p2, both handed once layer 0 is done (nothing left).
    const ModelSpec m = Model({4000, 8000}, {0, 0}, {2 * US, 6 * US});
    EsaJobProfile p(m, 0, 4000, 2, JobContext::SendOrder::BYTESCHEDULER, 1e9);
    ASSERT_EQ(p.GetPieces().size(), 3u);
    EXPECT_EQ(p.LayerOf(0), 2u);
    EXPECT_EQ(p.LayerOf(1), 1u);
    EXPECT_EQ(p.LayerOf(2), 2u);
    EXPECT_EQ(p.GetPieces()[0].computePs, 2 * US);
    EXPECT_EQ(p.GetPieces()[1].computePs, 0);
    EXPECT_EQ(p.GetPieces()[2].computePs, 0);
    // Iteration 0, piece 0: 12000 B + 12000 B later at 1 Gb/s = 192 us, plus 2 us + 8 us.
    EXPECT_DOUBLE_EQ(p.RemainingTime(0, 0, 1e9), 192e-6 + 10e-6);
    // The backward order computes the same pieces differently: L2p1, L2p2 (2 us left), L1.
    EsaJobProfile b(m, 0, 4000, 2);
    EXPECT_EQ(b.LayerOf(1), 2u);
    EXPECT_EQ(b.GetPieces()[1].computePs, 2 * US);
}

TEST(EsaJobProfile, FromAJobsContext)
{
    JobContext ctx;
    ctx.name = "j0";
    EXPECT_THROW(EsaJobProfile::FromContext(ctx), std::invalid_argument);
    ctx.model =
        std::make_shared<const ModelSpec>(Model({8000000, 8000000}, {320 * US, 320 * US}, {0, 0}));
    EXPECT_THROW(EsaJobProfile::FromContext(ctx), std::invalid_argument); // 0 iterations
    ctx.iterations = 3;
    ctx.partitionBytes = 4000000;
    const EsaJobProfile p = EsaJobProfile::FromContext(ctx);
    EXPECT_EQ(p.GetIterations(), 3u);
    EXPECT_EQ(p.LayerOf(1), 2u); // backward order: no rate needed
    ctx.sendOrder = JobContext::SendOrder::BYTESCHEDULER;
    EXPECT_THROW(EsaJobProfile::FromContext(ctx), std::invalid_argument); // no fabric, no rate
}

TEST(EsaJobProfile, RefusesWhatItCannotDescribe)
{
    EXPECT_THROW(EsaJobProfile(ModelSpec{}, 0, 0, 1), std::invalid_argument);
    const ModelSpec m = Model({1000}, {US}, {US});
    EXPECT_THROW(EsaJobProfile(m, 0, 0, 0), std::invalid_argument);
    EXPECT_THROW(EsaJobProfile(Model({0, 0}, {US, US}, {US, US}), 0, 0, 1), std::invalid_argument);
    EsaJobProfile p(m, 0, 0, 1);
    EXPECT_THROW(p.LayerOf(1), std::out_of_range);
    EXPECT_THROW(p.CommCompRatio(0.0), std::invalid_argument);
    EXPECT_THROW(EsaJobProfile(Model({1000}, {0}, {0}), 0, 0, 1).CommCompRatio(RATE),
                 std::domain_error);
}

} // namespace
