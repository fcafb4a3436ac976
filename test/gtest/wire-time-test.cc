/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// InaSerializationPs, the one wire time of links, pacing, recirculation and aggregation capacity:
// exact where the rate divides 8e12 bit-ps, rounded up elsewhere, and the same in its 64-bit
// (packet) and 128-bit (backlog) arithmetic.

#include "ns3/ina-wire-time.h"

#include <cstdint>
#include <gtest/gtest.h>

using namespace ns3;

TEST(WireTime, ExactAtTheUsualRates)
{
    // 182 B at 100 Gb/s: 14.56 ns, which nanoseconds would round to 15.
    EXPECT_EQ(InaSerializationPs(182, 100000000000ULL), 14560);
    EXPECT_EQ(InaSerializationPs(1500, 10000000000ULL), 1200000);
    EXPECT_EQ(InaSerializationPs(0, 100000000000ULL), 0);
}

TEST(WireTime, RoundsUpElsewhere)
{
    // 1 B at 3 Gb/s: 2666.67 ps.
    EXPECT_EQ(InaSerializationPs(1, 3000000000ULL), 2667);
    // 1 B at 7 b/s: 8e12 / 7 = 1142857142857.14 ps.
    EXPECT_EQ(InaSerializationPs(1, 7), 1142857142858);
}

TEST(WireTime, LargeSizesAgreeWithExactArithmetic)
{
    // Across the 64/128-bit boundary (1 MiB) the formula does not change.
    const uint64_t rate = 3000000000ULL;
    for (uint64_t bytes : {(uint64_t{1} << 20) - 1, uint64_t{1} << 20, (uint64_t{1} << 20) + 1})
    {
        const unsigned __int128 exact =
            (static_cast<unsigned __int128>(bytes) * 8000000000000ULL + rate - 1) / rate;
        EXPECT_EQ(InaSerializationPs(bytes, rate), static_cast<int64_t>(exact)) << bytes;
    }
    // A 10 MB backlog: 64-bit bytes x 8e12 would overflow (beyond 2.3 MB); 8e8 ps at 100 Gb/s.
    EXPECT_EQ(InaSerializationPs(10000000, 100000000000ULL), 800000000);
    EXPECT_EQ(InaSerializationPs(10000000, 3000000000ULL), 26666666667);
}

TEST(WireTime, RefusesWhatPicosecondsCannotHold)
{
    EXPECT_THROW(InaSerializationPs(UINT64_MAX / 2, 1), std::overflow_error);
}
