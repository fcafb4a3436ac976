/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ESA's priority (EsaPriority), pure logic: equation 1 of the paper on the simulation's two DNNs,
// the linear 8-bit packing with its clamps, the downgrade, the remaining-time estimate and the
// refusal of inputs that make no sense. Expected values are worked out by hand in the comments.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/esa-priority.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>

using namespace ns3;

namespace
{

// The paper's simulation (7.2.1): two layers, DNN A with Comm/Comp = 2 and DNN B with 0.5. At
// its first push each job has T = 1.92 ms left: A sends 16 MB (1.28 ms at 100 Gb/s) and computes
// 2 x 0.32 ms; B sends 8 MB (0.64 ms) and computes 2 x 0.64 ms.
constexpr double T_START = 1.92e-3;

TEST(EsaPriority, EquationOneOnThePapersTwoDnns)
{
    // P = (1/T) (L/l) (Comm/Comp): A front layer 1/1.92ms x 2 x 2 = 2083.33/s, A back layer half
    // of that; B front layer 1/1.92ms x 2 x 0.5 = 520.83/s, B back layer 260.42/s.
    EXPECT_NEAR(EsaPriority::Raw(T_START, 2, 1, 2.0), 2083.3333333, 1e-6);
    EXPECT_NEAR(EsaPriority::Raw(T_START, 2, 2, 2.0), 1041.6666667, 1e-6);
    EXPECT_NEAR(EsaPriority::Raw(T_START, 2, 1, 0.5), 520.8333333, 1e-6);
    EXPECT_NEAR(EsaPriority::Raw(T_START, 2, 2, 0.5), 260.4166667, 1e-6);
    // Half the time left doubles P.
    EXPECT_NEAR(EsaPriority::Raw(T_START / 2, 2, 1, 2.0), 4166.6666667, 1e-6);
}

TEST(EsaPriority, PacksLinearlyWithTheSharedScale)
{
    // S = 64 ms: 2083.33 x 0.064 = 133.33 -> 133; 1041.67 x 0.064 = 66.67 -> 67;
    // 520.83 x 0.064 = 33.33 -> 33; 260.42 x 0.064 = 16.67 -> 17.
    EsaPriority::Clamp c = EsaPriority::Clamp::HIGH;
    EXPECT_EQ(EsaPriority::Compute(T_START, 2, 1, 2.0, 0.064, &c), 133);
    EXPECT_EQ(c, EsaPriority::Clamp::NONE);
    EXPECT_EQ(EsaPriority::Compute(T_START, 2, 2, 2.0, 0.064), 67);
    EXPECT_EQ(EsaPriority::Compute(T_START, 2, 1, 0.5, 0.064), 33);
    EXPECT_EQ(EsaPriority::Compute(T_START, 2, 2, 0.5, 0.064), 17);
    // Rounding is half away from zero: 2.5 -> 3, 0.5 -> 1 (not a clamp), 254.5 -> 255.
    EXPECT_EQ(EsaPriority::Pack(2.5, 1.0), 3);
    EXPECT_EQ(EsaPriority::Pack(0.5, 1.0, &c), 1);
    EXPECT_EQ(c, EsaPriority::Clamp::NONE);
    EXPECT_EQ(EsaPriority::Pack(254.5, 1.0, &c), 255);
    EXPECT_EQ(c, EsaPriority::Clamp::NONE);
}

TEST(EsaPriority, ClampsToOneAndTwoHundredFiftyFiveAndSaysSo)
{
    EsaPriority::Clamp c = EsaPriority::Clamp::NONE;
    // 0.49 rounds to 0, which is reserved for an empty aggregator: raised to 1.
    EXPECT_EQ(EsaPriority::Pack(0.49, 1.0, &c), 1);
    EXPECT_EQ(c, EsaPriority::Clamp::LOW);
    EXPECT_EQ(EsaPriority::Pack(0.0, 1.0, &c), 1);
    EXPECT_EQ(c, EsaPriority::Clamp::LOW);
    // 255.5 rounds to 256: lowered to 255.
    EXPECT_EQ(EsaPriority::Pack(255.5, 1.0, &c), 255);
    EXPECT_EQ(c, EsaPriority::Clamp::HIGH);
    // A job with no time left: P is infinite, packed as the highest priority.
    EXPECT_TRUE(std::isinf(EsaPriority::Raw(0.0, 2, 1, 2.0)));
    EXPECT_EQ(EsaPriority::Compute(0.0, 2, 1, 2.0, 0.064, &c), 255);
    EXPECT_EQ(c, EsaPriority::Clamp::HIGH);
    // A long job (T = 10 s, ResNet-like) on the simulation's scale: 1/10 x 1 x 1 x 0.064 = 0.0064.
    EXPECT_EQ(EsaPriority::Compute(10.0, 1, 1, 1.0, 0.064, &c), 1);
    EXPECT_EQ(c, EsaPriority::Clamp::LOW);
}

TEST(EsaPriority, TheSwitchDowngradeHalvesAPackedPriority)
{
    // Linear packing is what makes ">> 1" mean "half the priority": P S = 200 packs to 200, and
    // the downgrade gives 100 = Pack(P / 2).
    const uint8_t q = EsaPriority::Pack(200.0, 1.0);
    EXPECT_EQ(q, 200);
    EXPECT_EQ(EsaPriority::Downgrade(q), 100);
    EXPECT_EQ(EsaPriority::Downgrade(q), EsaPriority::Pack(100.0, 1.0));
    EXPECT_EQ(EsaPriority::Downgrade(255), 127);
    EXPECT_EQ(EsaPriority::Downgrade(1), 0);
    EXPECT_EQ(EsaPriority::Downgrade(0), 0);
    static_assert(EsaPriority::Downgrade(133) == 66, "constexpr");
}

TEST(EsaPriority, OrdersFrontLayersCommHeavyJobsAndShortJobsFirst)
{
    const double s = 0.064;
    // Front layer over back layer, same job.
    EXPECT_GT(EsaPriority::Compute(T_START, 2, 1, 2.0, s),
              EsaPriority::Compute(T_START, 2, 2, 2.0, s));
    // Communication-heavy model over computation-heavy, same layer and time.
    EXPECT_GT(EsaPriority::Compute(T_START, 2, 1, 2.0, s),
              EsaPriority::Compute(T_START, 2, 1, 0.5, s));
    // Less time left over more.
    EXPECT_GT(EsaPriority::Compute(1e-3, 2, 2, 0.5, s), EsaPriority::Compute(2e-3, 2, 2, 0.5, s));
}

TEST(EsaPriority, RemainingTimeIsLineRateCommunicationPlusComputation)
{
    // DNN A at its first push: 16 MB at 100 Gb/s = 1.28 ms, plus 0.64 ms of computation.
    EXPECT_DOUBLE_EQ(EsaPriority::RemainingTime(16e6, 100e9, 0.64e-3), 1.28e-3 + 0.64e-3);
    // DNN B: 8 MB = 0.64 ms plus 1.28 ms: the same 1.92 ms.
    EXPECT_DOUBLE_EQ(EsaPriority::RemainingTime(8e6, 100e9, 1.28e-3), 0.64e-3 + 1.28e-3);
    EXPECT_DOUBLE_EQ(EsaPriority::RemainingTime(0, 100e9, 0), 0.0);
}

TEST(EsaPriority, RefusesInputsThatMakeNoSense)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_THROW(EsaPriority::Raw(1e-3, 0, 1, 1.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(1e-3, 2, 0, 1.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(1e-3, 2, 3, 1.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(-1e-3, 2, 1, 1.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(nan, 2, 1, 1.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(1e-3, 2, 1, 0.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(1e-3, 2, 1, -2.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(1e-3, 2, 1, inf), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Raw(1e-3, 2, 1, nan), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Pack(-1.0, 1.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Pack(nan, 1.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Pack(1.0, 0.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::Pack(1.0, inf), std::invalid_argument);
    EXPECT_THROW(EsaPriority::RemainingTime(1.0, 0.0, 0.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::RemainingTime(-1.0, 1e9, 0.0), std::invalid_argument);
    EXPECT_THROW(EsaPriority::RemainingTime(1.0, 1e9, -1.0), std::invalid_argument);
    // The message names the input and what was expected.
    EXPECT_EQ(ns3::tests::ErrorOf<std::invalid_argument>(
                  [&] {
                      EsaPriority::Raw(1e-3, 2, 3, 1.0);
                  },
                  "no exception"),
              "ESA priority: layer 3 of a model with 2 layers; expected 1 (the front "
              "layer) to 2");
}

} // namespace
