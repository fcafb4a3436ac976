/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// SwitchML's quantization (SwitchMlQuantizer), pure logic: the paper's Appendix C examples, the
// automatic factor of Theorem 2, rounding and wrap-around, block exponents, and the two error
// bounds checked against exact sums over random gradients, including values at the bound. Expected
// values are worked out by hand in the comments.

#include "ns3/switch-ml-header.h"
#include "ns3/switch-ml-quantizer.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

TEST(SwitchMlQuantizer, PaperAppendixCExamples)
{
    // n = 2, d = 1: 1.56 and 4.23. f = 100 gives 156 + 423 = 579, i.e. 5.79 exactly; f = 10
    // gives 16 + 42 = 58, i.e. 5.8, an error of 0.01 <= n / (2f) = 0.1.
    const float g[2] = {1.56f, 4.23f};
    int32_t q[2];
    EXPECT_EQ(SwitchMlQuantizer::Quantize(g, 2, 100, q), 0u);
    EXPECT_EQ(q[0], 156);
    EXPECT_EQ(q[1], 423);
    int32_t sum = q[0] + q[1];
    float out;
    SwitchMlQuantizer::Dequantize(&sum, 1, 100, &out);
    EXPECT_FLOAT_EQ(out, 5.79f);
    SwitchMlQuantizer::Quantize(g, 2, 10, q);
    EXPECT_EQ(q[0], 16);
    EXPECT_EQ(q[1], 42);
    sum = q[0] + q[1];
    SwitchMlQuantizer::Dequantize(&sum, 1, 10, &out);
    EXPECT_FLOAT_EQ(out, 5.8f);
}

TEST(SwitchMlQuantizer, GlobalFactorIsTheorem2ForRoundToNearest)
{
    // (2^31 - 1 - n) / (n B): n = 8, B = 1: 2147483639 / 8 = 268435454.875.
    EXPECT_DOUBLE_EQ(SwitchMlQuantizer::GlobalFactor(8, 1.0), 268435454.875);
    // n = 1, B = 0.5: (2^31 - 2) / 0.5 = 4294967292.
    EXPECT_DOUBLE_EQ(SwitchMlQuantizer::GlobalFactor(1, 0.5), 4294967292.0);
    EXPECT_THROW(SwitchMlQuantizer::GlobalFactor(0, 1.0), std::invalid_argument);
    EXPECT_THROW(SwitchMlQuantizer::GlobalFactor(4, 0.0), std::invalid_argument);
    EXPECT_THROW(SwitchMlQuantizer::GlobalFactor(4, -1.0), std::invalid_argument);
    EXPECT_THROW(SwitchMlQuantizer::GlobalFactor(4, std::numeric_limits<double>::infinity()),
                 std::invalid_argument);
}

TEST(SwitchMlQuantizer, RoundsToNearestEvenAndWrapsLikeTheSwitch)
{
    const float g[6] = {0.5f, 1.5f, -2.5f, 2.4999f, -0.5f, 3e9f};
    int32_t q[6];
    // 3e9 does not fit: it wraps modulo 2^32, 3000000000 - 4294967296 = -1294967296.
    EXPECT_EQ(SwitchMlQuantizer::Quantize(g, 6, 1.0, q), 1u);
    EXPECT_EQ(q[0], 0);
    EXPECT_EQ(q[1], 2);
    EXPECT_EQ(q[2], -2);
    EXPECT_EQ(q[3], 2);
    EXPECT_EQ(q[4], 0);
    EXPECT_EQ(q[5], -1294967296);

    const float edge[3] = {-2147483648.0f, std::numeric_limits<float>::quiet_NaN(), 2147483648.0f};
    EXPECT_EQ(SwitchMlQuantizer::Quantize(edge, 3, 1.0, q), 2u); // NaN and 2^31 do not fit
    EXPECT_EQ(q[0], INT32_MIN);
    EXPECT_EQ(q[1], 0);
    EXPECT_EQ(q[2], INT32_MIN); // 2^31 wraps to -2^31
}

TEST(SwitchMlQuantizer, BlockExponent)
{
    const float a[3] = {0.75f, -3.0f, 1.0f}; // max 3 = 0.75 x 2^2
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(a, 3), 2);
    const float one[1] = {1.0f}; // 0.5 x 2^1
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(one, 1), 1);
    const float small[2] = {0.0f, -0.001f}; // 0.001 = 0.512 x 2^-9
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(small, 2), -9);
    const float zero[2] = {0.0f, -0.0f};
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(zero, 2), SwitchMlQuantizer::EXP_ZERO);
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(zero, 0), SwitchMlQuantizer::EXP_ZERO);
    const float tiny[1] = {std::numeric_limits<float>::denorm_min()}; // 2^-149 = 0.5 x 2^-148
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(tiny, 1), -148);
    EXPECT_LT(SwitchMlQuantizer::EXP_ZERO, -148);
    const float bad[2] = {1.0f, std::numeric_limits<float>::infinity()};
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(bad, 2), 128);
    const float nan[2] = {std::numeric_limits<float>::quiet_NaN(), 1.0f};
    EXPECT_EQ(SwitchMlQuantizer::BlockExponent(nan, 2), 128);
    // F = (2^31 - 1 - n) / (n 2^e): n = 4, e = 2: 2147483643 / 16.
    EXPECT_DOUBLE_EQ(SwitchMlQuantizer::BlockFactor(4, 2), 2147483643.0 / 16);
    EXPECT_DOUBLE_EQ(SwitchMlQuantizer::BlockFactor(1, -3), 2147483646.0 * 8);
    EXPECT_TRUE(std::isfinite(SwitchMlQuantizer::BlockFactor(64, SwitchMlQuantizer::EXP_ZERO)));
}

TEST(SwitchMlQuantizer, Tolerances)
{
    // Global: n / (2f) plus the float rounding of |result| <= n B + that: 2 / 200 = 0.01.
    const double g = SwitchMlQuantizer::GlobalTolerance(2, 100, 5);
    EXPECT_GE(g, 0.01);
    EXPECT_LE(g, 0.01 + 1e-6);
    // Block: n^2 B / (2^31 - 1 - n): 64^2 / (2^31 - 65) = 1.9073e-6, plus 2^-24 x 64 = 3.8e-6.
    const double b = SwitchMlQuantizer::BlockTolerance(64, 1.0);
    EXPECT_NEAR(b, 4096.0 / 2147483583.0 + std::ldexp(64.0, -24), 1e-9);
}

/// Aggregates n workers' random blocks with the global factor; returns the worst error / bound.
double
WorstGlobalRatio(uint32_t n, double bound, uint32_t blocks, std::mt19937_64& rng)
{
    const double f = SwitchMlQuantizer::GlobalFactor(n, bound);
    const double tol = SwitchMlQuantizer::GlobalTolerance(n, f, bound);
    std::uniform_real_distribution<float> u(static_cast<float>(-bound), static_cast<float>(bound));
    double worst = 0;
    std::vector<float> g(32);
    std::vector<int32_t> q(32);
    for (uint32_t b = 0; b < blocks; ++b)
    {
        std::vector<int64_t> acc(32, 0);
        std::vector<double> exact(32, 0);
        for (uint32_t w = 0; w < n; ++w)
        {
            for (auto& x : g)
            {
                x = u(rng);
            }
            if (b == 0)
            {
                // Every worker at the bound, same sign: the overflow case of Theorem 2.
                std::fill(g.begin(), g.end(), static_cast<float>(bound));
                g[1] = static_cast<float>(-bound);
            }
            EXPECT_EQ(SwitchMlQuantizer::Quantize(g.data(), 32, f, q.data()), 0u);
            for (int i = 0; i < 32; ++i)
            {
                acc[i] += q[i];
                exact[i] += g[i];
            }
        }
        std::vector<int32_t> a(32);
        for (int i = 0; i < 32; ++i)
        {
            EXPECT_LE(std::llabs(acc[i]), INT32_MAX) << "n " << n << " element " << i;
            a[i] = static_cast<int32_t>(acc[i]);
        }
        std::vector<float> out(32);
        SwitchMlQuantizer::Dequantize(a.data(), 32, f, out.data());
        for (int i = 0; i < 32; ++i)
        {
            worst = std::max(worst, std::fabs(out[i] - exact[i]) / tol);
        }
    }
    return worst;
}

TEST(SwitchMlQuantizer, GlobalBoundHoldsAndNeverOverflows)
{
    std::mt19937_64 rng(42);
    for (uint32_t n : {1u, 2u, 7u, 64u, 1000u})
    {
        // Bounds a float holds exactly, so no value exceeds B by its rounding.
        for (double bound : {1.0, 29.25, 0.0009765625})
        {
            const double r = WorstGlobalRatio(n, bound, 200, rng);
            EXPECT_LE(r, 1.0) << "n " << n << " B " << bound;
        }
    }
}

TEST(SwitchMlQuantizer, BlockBoundHoldsAndNeverOverflows)
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> mag(-9, 3); // block scales 1e-9 .. 1e3
    std::uniform_real_distribution<float> u(-1, 1);
    for (uint32_t n : {1u, 3u, 64u})
    {
        for (int b = 0; b < 300; ++b)
        {
            std::vector<std::vector<float>> g(n, std::vector<float>(64));
            int16_t emax = SwitchMlHeader::EXP_NONE;
            double maxAbs = 0;
            for (auto& block : g)
            {
                const float scale = static_cast<float>(std::pow(10.0, mag(rng)));
                for (auto& x : block)
                {
                    x = u(rng) * scale;
                    maxAbs = std::max<double>(maxAbs, std::fabs(x));
                }
                if (b == 0)
                {
                    block.assign(64, 0.0f); // all zero: exponent EXP_ZERO, sum exactly 0
                }
                emax = std::max(emax, SwitchMlQuantizer::BlockExponent(block.data(), 64));
            }
            const double f = SwitchMlQuantizer::BlockFactor(n, emax);
            std::vector<int64_t> acc(64, 0);
            std::vector<double> exact(64, 0);
            std::vector<int32_t> q(64);
            for (const auto& block : g)
            {
                ASSERT_EQ(SwitchMlQuantizer::Quantize(block.data(), 64, f, q.data()), 0u);
                for (int i = 0; i < 64; ++i)
                {
                    acc[i] += q[i];
                    exact[i] += block[i];
                }
            }
            // Per block: n / (2F); over any block bounded by B: BlockTolerance(n, B).
            const double perBlock = n * 0.5 / f;
            const double tol = SwitchMlQuantizer::BlockTolerance(n, std::max(maxAbs, 1e-300));
            for (int i = 0; i < 64; ++i)
            {
                ASSERT_LE(std::llabs(acc[i]), INT32_MAX);
                const int32_t a = static_cast<int32_t>(acc[i]);
                float out;
                SwitchMlQuantizer::Dequantize(&a, 1, f, &out);
                const double err = std::fabs(out - exact[i]);
                EXPECT_LE(err, tol) << "n " << n << " block " << b;
                EXPECT_LE(std::fabs(a / f - exact[i]), perBlock * (1 + 1e-6) + 1e-12 * n * maxAbs)
                    << "before the float rounding";
                if (b == 0)
                {
                    EXPECT_EQ(out, 0.0f);
                }
            }
        }
    }
}

TEST(SwitchMlHeader, WireBytes)
{
    EXPECT_EQ(SwitchMlHeader::WireBytes(32, false, true), 180u); // 42 + 10 + 128
    EXPECT_EQ(SwitchMlHeader::WireBytes(32, true, true), 182u);  // + the 2-B exponent
    EXPECT_EQ(SwitchMlHeader::WireBytes(64, false, true), 308u); // 42 + 8 + 256 + 2
    EXPECT_EQ(SwitchMlHeader::WireBytes(64, true, true), 308u);
    EXPECT_EQ(SwitchMlHeader::WireBytes(32, true, false), 60u);     // 54, padded to 60
    EXPECT_EQ(SwitchMlHeader::WireBytes(64, true, false), 60u);     // 52, padded to 60
    EXPECT_EQ(SwitchMlHeader::WireBytes(32, false, true, 2), 116u); // float16: 42 + 10 + 64
    EXPECT_EQ(SwitchMlHeader::WireBytes(64, true, true, 2), 180u);  // 42 + 8 + 2 + 128
}

// IEEE 754 binary16: 11 significant bits, largest 65504, smallest normal 2^-14, subnormal step
// 2^-24; ties to even.
TEST(SwitchMlQuantizer, ToHalfRoundsToNearestEvenHalf)
{
    const auto p2 = [](int e) {
        return static_cast<float>(std::ldexp(1.0, e));
    };
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(1.0f), 1.0f);
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(1.0f + p2(-11)), 1.0f);              // tie: to even (1)
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(1.0f + 3 * p2(-11)), 1.0f + p2(-9)); // tie: to even (2 ulp)
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(1.0f + p2(-10)), 1.0f + p2(-10));    // exact
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(4095.0f / 4096), 1.0f);     // 2047.5 steps of 2^-11: up
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(-0.1f), -0.0999755859375f); // 1638.4 x 2^-14 -> 1638
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(65504.0f), 65504.0f);
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(65519.0f), 65504.0f);
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(65520.0f), std::numeric_limits<float>::infinity());
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(-1e6f), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(p2(-24)), p2(-24));     // smallest subnormal
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(p2(-25)), 0.0f);        // tie: to even (0)
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(3 * p2(-25)), p2(-23)); // tie: to even (2 steps)
    EXPECT_EQ(SwitchMlQuantizer::ToHalf(p2(-14) + p2(-24)), p2(-14) + p2(-24)); // normal, exact
    EXPECT_TRUE(std::isnan(SwitchMlQuantizer::ToHalf(std::nanf(""))));
}

// Every contribution and the aggregate rounded to half stay within HalfTolerance of the exact
// sum, over random gradients in [-B, B] including the bound itself.
TEST(SwitchMlQuantizer, HalfBoundHolds)
{
    std::mt19937_64 rng(7);
    for (uint32_t n : {2u, 8u, 64u})
    {
        const double maxAbs = 1.0;
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        double worst = 0;
        for (int trial = 0; trial < 20000; ++trial)
        {
            double exact = 0;
            double halves = 0;
            for (uint32_t w = 0; w < n; ++w)
            {
                const float g = trial == 0 ? 1.0f : u(rng);
                exact += g;
                halves += SwitchMlQuantizer::ToHalf(g);
            }
            const double back = SwitchMlQuantizer::ToHalf(static_cast<float>(halves));
            worst = std::max(worst, std::fabs(back - exact));
        }
        EXPECT_LE(worst, SwitchMlQuantizer::HalfTolerance(n, maxAbs)) << n << " workers";
        EXPECT_GT(worst, SwitchMlQuantizer::HalfTolerance(n, maxAbs) / 64) << "not loose";
    }
}

} // namespace
