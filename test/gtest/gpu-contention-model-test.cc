/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// LIBRA's contention model (Eq. 4-15) on hand-computed cases, and the spec's anchors.

#include "ns3/gpu-contention-model.h"
#include "ns3/gpu-contention-params.h"
#include "ns3/model-zoo.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const double kTol = 1e-12;

/**
 * Round numbers for hand computation: speed 1 - 1e-4 r (0.9 at r = 1000, 0.8 at 2000);
 * p rate 1e9 (1 - 2^(-r/1000)) (0.5e9 at r = 1000); q rate 1e9 (1 - 4^(-r/1000)) (0.75e9 at
 * 1000, 0.9375e9 at 2000); gamma4 = 1; ring over N = 5: a = 2 x 4 x 0.5 ms = 4 ms,
 * c^ = 8/5 c = 1.6 c.
 */
GpuContentionParams
HandParams()
{
    GpuContentionParams p;
    p.alpha1 = 1.0;
    p.alpha2 = 1e-4;
    p.overlapped = {1e9, 1e9, std::log(2.0) / 1000, 1.0};
    p.alone = {1e9, 1e9, std::log(4.0) / 1000, 1.0};
    p.alphaHopS = 0.5e-3;
    p.inaStartupS = 1e-3;
    p.source = "hand";
    return p;
}

} // namespace

TEST(GpuContentionModelTest, StartupAndWireBytesOfTheCollectives)
{
    GpuContentionModel ring(HandParams(), 5);
    EXPECT_NEAR(ring.GetStartupS(), 0.004, kTol);
    EXPECT_NEAR(ring.WireBytes(1e7), 1.6e7, 1e-6);
    GpuContentionModel ina(HandParams(), 5, GpuContentionModel::IN_NETWORK);
    EXPECT_NEAR(ina.GetStartupS(), 0.001, kTol);
    EXPECT_EQ(ina.WireBytes(1e7), 1e7);
    // one node has nothing to exchange, whatever the collective
    GpuContentionModel alone(HandParams(), 1);
    EXPECT_EQ(alone.GetStartupS(), 0.0);
    EXPECT_EQ(alone.WireBytes(1e7), 0.0);
    GpuContentionModel inaAlone(HandParams(), 1, GpuContentionModel::IN_NETWORK);
    EXPECT_EQ(inaAlone.GetStartupS(), 0.0);
    EXPECT_EQ(inaAlone.WireBytes(1e7), 0.0);
    EXPECT_THROW(GpuContentionModel(HandParams(), 0), std::invalid_argument);
}

TEST(GpuContentionModelTest, CurvesGpq)
{
    GpuContentionModel m(HandParams(), 5);
    EXPECT_NEAR(m.SlowedComputeS(0.09, 1000), 0.1, kTol);               // 0.09 / 0.9
    EXPECT_NEAR(m.SlowedComputeS(0.08, 2000), 0.1, kTol);               // 0.08 / 0.8
    EXPECT_NEAR(m.OverlappedTransmitS(1e7, 1000), 0.032, kTol);         // 1.6e7 / 0.5e9
    EXPECT_NEAR(m.AloneTransmitS(1e7, 1000), 0.0213333333333333, kTol); // 1.6e7 / 0.75e9
    EXPECT_NEAR(m.AloneTransmitS(1e7, 2000), 0.0170666666666667, kTol); // 1.6e7 / 0.9375e9
    EXPECT_EQ(m.OverlappedTransmitS(0, 1000), 0.0);
    EXPECT_THROW(m.OverlappedTransmitS(1e7, 0), std::invalid_argument);
}

TEST(GpuContentionModelTest, IdleSpeedIsOneNotAlpha1)
{
    // g(b, 0) = b even when alpha1 != 1; with a kernel, b / (alpha1 - alpha2 r)
    GpuContentionParams p = HandParams();
    p.alpha1 = 0.95;
    GpuContentionModel m(p, 5);
    EXPECT_EQ(m.SlowedComputeS(0.05, 0), 0.05);
    EXPECT_NEAR(m.SlowedComputeS(0.085, 1000), 0.1, kTol); // 0.085 / 0.85
}

TEST(GpuContentionModelTest, OverlapCommunicationEndsFirst)
{
    // b = 0.09: g = 0.1 > p + a = 0.036, so f_o = 0.036, delta_b = 1 - 0.036 / 0.1 = 0.64,
    // f_b = 0.09 x 0.64 = 0.0576, f_c = 0
    GpuContentionModel m(HandParams(), 5);
    auto t = m.Overlap(1e7, 0.09, 1000);
    EXPECT_NEAR(t.overlapS, 0.036, kTol);
    EXPECT_NEAR(t.residualComputeS, 0.0576, kTol);
    EXPECT_EQ(t.residualCommS, 0.0);
}

TEST(GpuContentionModelTest, OverlapComputationEndsFirst)
{
    // b = 0.018: g = 0.02 < 0.036, so f_o = 0.02, f_b = 0, delta_c = 1 - 0.02 / 0.036 = 4/9,
    // f_c = (q + a) 4/9 = (0.0213333 + 0.004) x 4/9 = 0.0112592593
    GpuContentionModel m(HandParams(), 5);
    auto t = m.Overlap(1e7, 0.018, 1000);
    EXPECT_NEAR(t.overlapS, 0.02, kTol);
    EXPECT_EQ(t.residualComputeS, 0.0);
    EXPECT_NEAR(t.residualCommS, 0.0112592592592593, kTol);
}

TEST(GpuContentionModelTest, OverlapEdgesBZeroAndCZero)
{
    GpuContentionModel m(HandParams(), 5);
    // b = 0: no overlap, the whole communication alone: q + a = 0.0253333
    auto noCompute = m.Overlap(1e7, 0, 1000);
    EXPECT_EQ(noCompute.overlapS, 0.0);
    EXPECT_EQ(noCompute.residualComputeS, 0.0);
    EXPECT_NEAR(noCompute.residualCommS, 0.0253333333333333, kTol);
    // c = 0: no communication task (no start-up either), the computation at full speed
    auto noComm = m.Overlap(0, 0.05, 1000);
    EXPECT_EQ(noComm.overlapS, 0.0);
    EXPECT_EQ(noComm.residualComputeS, 0.05);
    EXPECT_EQ(noComm.residualCommS, 0.0);
    // both zero
    auto nothing = m.Overlap(0, 0, 1000);
    EXPECT_EQ(nothing.overlapS + nothing.residualComputeS + nothing.residualCommS, 0.0);
    // one node: c^ = 0, so a gradient is no communication
    GpuContentionModel single(HandParams(), 1);
    auto local = single.Overlap(1e7, 0.05, 1000);
    EXPECT_EQ(local.overlapS, 0.0);
    EXPECT_EQ(local.residualComputeS, 0.05);
    EXPECT_EQ(local.residualCommS, 0.0);
}

TEST(GpuContentionModelTest, InNetworkOverlap)
{
    // INA over 5 nodes: c^ = c = 1e7, a = 1 ms; p = 0.02, p + a = 0.021; q + a = 0.0143333
    // b = 0.009: g = 0.01 < 0.021: f_o = 0.01, f_c = 0.0143333 x (1 - 0.01 / 0.021) = 0.0075079
    GpuContentionModel m(HandParams(), 5, GpuContentionModel::IN_NETWORK);
    auto t = m.Overlap(1e7, 0.009, 1000);
    EXPECT_NEAR(t.overlapS, 0.01, kTol);
    EXPECT_NEAR(t.residualCommS, 0.00750793650793651, kTol);
}

TEST(GpuContentionModelTest, BackwardOneGroup)
{
    // stage 0: the whole 0.09 s of computation; stage 1: the all-reduce alone, q + a = 0.0253333
    GpuContentionModel m(HandParams(), 5);
    std::vector<GpuContentionModel::Stage> stages;
    double t = m.BackwardS({{0.09, 1e7, 1000}}, &stages);
    EXPECT_NEAR(t, 0.115333333333333, kTol);
    ASSERT_EQ(stages.size(), 2u);
    EXPECT_NEAR(stages[0].residualComputeS, 0.09, kTol);
    EXPECT_EQ(stages[1].remainingComputeS, 0.0);
    EXPECT_NEAR(stages[1].residualCommS, 0.0253333333333333, kTol);
}

TEST(GpuContentionModelTest, BackwardTwoGroupsCommunicationHidden)
{
    // b = (0.045, 0.045), r = (1000, 2000).
    // stage 0: t_b = 0.09 - 0.045 = 0.045; s_b^1 = 0.045.
    // stage 1: g = 0.05 > p + a = 0.036: t_o = 0.036, s^ = 0.045 (1 - 0.72) = 0.0126, and group 2's
    //          gradients need all of it: t_b = 0.0126.
    // stage 2: alone at r = 2000: q + a = 0.0170667 + 0.004 = 0.0210667.
    // total = 0.045 + 0.036 + 0.0126 + 0.0210667 = 0.1146667
    GpuContentionModel m(HandParams(), 5);
    std::vector<GpuContentionModel::Stage> stages;
    double t = m.BackwardS({{0.045, 1e7, 1000}, {0.045, 1e7, 2000}}, &stages);
    EXPECT_NEAR(t, 0.114666666666667, kTol);
    ASSERT_EQ(stages.size(), 3u);
    EXPECT_NEAR(stages[1].remainingComputeS, 0.045, kTol);
    EXPECT_NEAR(stages[1].overlapS, 0.036, kTol);
    EXPECT_NEAR(stages[1].residualComputeS, 0.0126, kTol);
    EXPECT_EQ(stages[1].residualCommS, 0.0);
    EXPECT_NEAR(stages[2].residualCommS, 0.0210666666666667, kTol);
}

TEST(GpuContentionModelTest, BackwardTwoGroupsCommunicationOutlastsComputation)
{
    // b = (0.045, 0.018), r = 1000: stage 1 overlaps the last 0.018 s (g = 0.02 < 0.036), then
    // its residual 0.0112593 alone; stage 2 all alone: 0.0253333.
    // total = 0.045 + 0.02 + 0.0112593 + 0.0253333 = 0.1015926
    GpuContentionModel m(HandParams(), 5);
    double t = m.BackwardS({{0.045, 1e7, 1000}, {0.018, 1e7, 1000}});
    EXPECT_NEAR(t, 0.101592592592593, kTol);
}

TEST(GpuContentionModelTest, BackwardThreeGroupsResidualComputationInTheMiddle)
{
    // b = (0.045, 0.045, 0.009), r = 1000.
    // stage 1: s_b = 0.054, g = 0.06: t_o = 0.036, s^ = 0.0216, t_b = 0.0216 - 0.009 = 0.0126.
    // stage 2: s_b = 0.009, g = 0.01: t_o = 0.01, t_c = 0.0253333 x (1 - 0.01/0.036) = 0.0182963.
    // stage 3: 0.0253333.  total = 0.045 + 0.036 + 0.0126 + 0.01 + 0.0182963 + 0.0253333
    GpuContentionModel m(HandParams(), 5);
    double t = m.BackwardS({{0.045, 1e7, 1000}, {0.045, 1e7, 1000}, {0.009, 1e7, 1000}});
    EXPECT_NEAR(t, 0.147229629629630, kTol);
}

TEST(GpuContentionModelTest, BackwardWithoutCommunicationIsTheComputation)
{
    GpuContentionModel single(HandParams(), 1);
    EXPECT_NEAR(single.BackwardS({{0.03, 1e7, 1000}, {0.02, 1e7, 1000}}), 0.05, kTol);
    GpuContentionModel m(HandParams(), 5);
    EXPECT_NEAR(m.BackwardS({{0.03, 0, 1000}, {0.02, 0, 1000}}), 0.05, kTol);
    EXPECT_EQ(m.BackwardS({}), 0.0);
    EXPECT_THROW(m.BackwardS({{-0.01, 1e7, 1000}}), std::invalid_argument);
    EXPECT_THROW(m.BackwardS({{0.01, 1e7, 0}}), std::invalid_argument);
}

TEST(GpuContentionModelTest, UnusableThreadCountsAreErrors)
{
    GpuContentionParams p = HandParams();
    p.alpha2 = 3e-4; // speed 1 - 3e-4 r is <= 0 from r = 3334 on
    GpuContentionModel m(p, 5);
    EXPECT_NO_THROW(m.CheckThreads(2048));
    try
    {
        m.CheckThreads(4096);
        FAIL() << "no error";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("r = 4096 threads leave no compute speed"),
                  std::string::npos)
            << e.what();
    }
}

TEST(GpuContentionModelTest, IllustrativeAnchors)
{
    GpuContentionParams p = GpuContentionParams::Illustrative();
    // Fig. 1a: 2048 threads make the computation 38 % slower
    EXPECT_NEAR(1.0 / p.ComputeSpeed(2048), 1.38213180008846, 1e-12);
    // spec C.6: half the peak at 128 threads, 91 % at 1024, 97 % at 2048, 99.6 % at 4096
    EXPECT_NEAR(p.overlapped.Rate(128) / 6e9, 0.499873817667830, 1e-12);
    EXPECT_NEAR(p.overlapped.Rate(1024) / 6e9, 0.910435836504974, 1e-12);
    EXPECT_NEAR(p.overlapped.Rate(2048) / 6e9, 0.974193294860095, 1e-12);
    EXPECT_NEAR(p.overlapped.Rate(4096) / 6e9, 0.996085856634856, 1e-12);
    // a = 140 us at N = 8 and 40.94 ms at N = 2048
    EXPECT_NEAR(GpuContentionModel(p, 8).GetStartupS(), 140e-6, 1e-15);
    EXPECT_NEAR(GpuContentionModel(p, 2048).GetStartupS(), 0.04094, 1e-15);
    // C.6 sanity: BERT-Base's 112.7 MB over 8 nodes is c^ = 197.2 MB, 32.9 ms at 6 GB/s
    GpuContentionModel bert(p, 8);
    EXPECT_NEAR(bert.WireBytes(112.7e6), 197.225e6, 1e-3);
    EXPECT_NEAR(bert.WireBytes(112.7e6) / p.overlapped.gamma1, 0.0328708333333333, 1e-12);
}

TEST(GpuContentionModelTest, BackwardLayersReverseTheZoo)
{
    ModelSpec spec;
    spec.layers = {{"first", 400, 1000000000, 2000000000}, {"last", 800, 3000000000, 6000000000}};
    auto layers = GpuContentionModel::BackwardLayers(spec);
    ASSERT_EQ(layers.size(), 2u);
    EXPECT_EQ(layers[0].bytes, 800.0);
    EXPECT_NEAR(layers[0].computeS, 0.006, kTol);
    EXPECT_EQ(layers[1].bytes, 400.0);
    EXPECT_NEAR(layers[1].computeS, 0.002, kTol);
}
