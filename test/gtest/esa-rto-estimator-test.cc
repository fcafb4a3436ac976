/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ESA's reminder timeout (EsaRtoEstimator), pure logic: RFC 6298 smoothing in integer time steps,
// the RTO_min floor of the paper (1 ms), exponential back-off capped at RTO_max and reset by the
// next sample. Expected values are worked out by hand in the comments.

#include "ns3/esa-rto-estimator.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <stdexcept>

using namespace ns3;

namespace
{

TEST(EsaRtoEstimator, ThePapersFloorHidesMicrosecondRtts)
{
    // 1 ms floor, in picoseconds. A 10 us RTT: SRTT 10 us, RTTVAR 5 us, SRTT + 4 RTTVAR = 30 us,
    // below the floor: RTO stays 1 ms.
    EsaRtoEstimator e(1000000000, 1000000000, 64000000000);
    EXPECT_EQ(e.GetRto(), 1000000000);
    e.Sample(10000000);
    EXPECT_EQ(e.GetSrtt(), 10000000);
    EXPECT_EQ(e.GetRttvar(), 5000000);
    EXPECT_EQ(e.GetRto(), 1000000000);
    EXPECT_EQ(e.GetSamples(), 1u);
}

TEST(EsaRtoEstimator, SmoothsLikeRfc6298WithTruncatingDivisions)
{
    EsaRtoEstimator e(10, 10, 100000);
    // First sample 100: SRTT 100, RTTVAR 50, RTO 100 + 200 = 300.
    e.Sample(100);
    EXPECT_EQ(e.GetRto(), 300);
    // 200: err 100; RTTVAR (150 + 100) / 4 = 62; SRTT (700 + 200) / 8 = 112; RTO 112 + 248 = 360.
    e.Sample(200);
    EXPECT_EQ(e.GetRttvar(), 62);
    EXPECT_EQ(e.GetSrtt(), 112);
    EXPECT_EQ(e.GetRto(), 360);
    // 100: err 12; RTTVAR (186 + 12) / 4 = 49; SRTT (784 + 100) / 8 = 110; RTO 110 + 196 = 306.
    e.Sample(100);
    EXPECT_EQ(e.GetRttvar(), 49);
    EXPECT_EQ(e.GetSrtt(), 110);
    EXPECT_EQ(e.GetRto(), 306);
}

TEST(EsaRtoEstimator, BacksOffExponentiallyUpToTheCeilingUntilTheNextSample)
{
    EsaRtoEstimator e(10, 10, 100000);
    e.Sample(100);
    e.Sample(200);
    e.Sample(100); // RTO 306, SRTT 110, RTTVAR 49
    const int64_t expected[9] = {612, 1224, 2448, 4896, 9792, 19584, 39168, 78336, 100000};
    for (int i = 0; i < 9; ++i)
    {
        e.Backoff();
        EXPECT_EQ(e.GetRto(), expected[i]) << "expiry " << i + 1;
    }
    e.Backoff();
    EXPECT_EQ(e.GetRto(), 100000);
    // The next sample recomputes: 100 vs SRTT 110, err 10; RTTVAR (147 + 10) / 4 = 39;
    // SRTT (770 + 100) / 8 = 108; RTO 108 + 156 = 264.
    e.Sample(100);
    EXPECT_EQ(e.GetRto(), 264);
}

TEST(EsaRtoEstimator, InitialValueIsKeptWithinTheBounds)
{
    EXPECT_EQ(EsaRtoEstimator(50, 10, 1000).GetRto(), 50);
    EXPECT_EQ(EsaRtoEstimator(50, 5000, 1000).GetRto(), 1000);
    EXPECT_EQ(EsaRtoEstimator(50, 70, 1000).GetRto(), 70);
    // A zero RTT gives the floor.
    EsaRtoEstimator e(50, 70, 1000);
    e.Sample(0);
    EXPECT_EQ(e.GetRto(), 50);
    // A huge one counts as the ceiling: err 1000, RTTVAR 250, SRTT 125, RTO 1125 -> 1000.
    e.Sample(INT64_MAX / 2);
    EXPECT_EQ(e.GetSrtt(), 125);
    EXPECT_EQ(e.GetRttvar(), 250);
    EXPECT_EQ(e.GetRto(), 1000);
    // The largest allowed ceiling does not overflow either.
    EsaRtoEstimator big(1, 1, EsaRtoEstimator::MAX_RTO);
    big.Sample(INT64_MAX);
    big.Sample(INT64_MAX);
    EXPECT_EQ(big.GetRto(), EsaRtoEstimator::MAX_RTO);
}

TEST(EsaRtoEstimator, RefusesBadBoundsAndNegativeSamples)
{
    EXPECT_THROW(EsaRtoEstimator(0, 10, 100), std::invalid_argument);
    EXPECT_THROW(EsaRtoEstimator(-5, 10, 100), std::invalid_argument);
    EXPECT_THROW(EsaRtoEstimator(100, 100, 99), std::invalid_argument);
    EXPECT_THROW(EsaRtoEstimator(1, 1, EsaRtoEstimator::MAX_RTO + 1), std::invalid_argument);
    EsaRtoEstimator e(10, 10, 100);
    EXPECT_THROW(e.Sample(-1), std::invalid_argument);
    EXPECT_EQ(e.GetSamples(), 0u);
}

} // namespace
