/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/libra-lns-adder.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using A = LibraLnsAdder;

const A&
Lns()
{
    static const A adder(A::Mode::LNS_APPROX);
    return adder;
}

} // namespace

TEST(LibraLnsAdder, TableMemoryIsComputedFromTheSevenTables)
{
    // 256 x 2 + 3 x 4096 x 2 + 3 x 65536 x 2 = 418,304 B = 408.5 KiB (paper Sec. 3.5)
    EXPECT_EQ(A::GetTableMemoryBytes(), 418304u);
    EXPECT_DOUBLE_EQ(A::GetTableMemoryBytes() / 1024.0, 408.5);
    ASSERT_EQ(A::GetTableSpecs().size(), 7u);
    uint32_t keyBits12 = 0;
    uint32_t keyBits16 = 0;
    for (const auto& t : A::GetTableSpecs())
    {
        EXPECT_EQ(t.entries, 1u << t.keyBits) << t.name;
        EXPECT_EQ(t.valueBytes, 2u) << t.name;
        keyBits12 += t.keyBits == 12 ? 1 : 0;
        keyBits16 += t.keyBits == 16 ? 1 : 0;
        // the tables exist with these sizes: the last key is readable, the next is not
        EXPECT_NO_THROW(Lns().GetEntry(t.id, t.entries - 1)) << t.name;
        EXPECT_THROW(Lns().GetEntry(t.id, t.entries), std::out_of_range) << t.name;
    }
    EXPECT_EQ(keyBits12, 3u);
    EXPECT_EQ(keyBits16, 3u);
    EXPECT_EQ(A::GetTableSpecs()[0].keyBits, 8u);
}

TEST(LibraLnsAdder, TableEntriesByHand)
{
    // Q8.7: 128 steps per unit of log2, rounded to nearest.
    EXPECT_EQ(Lns().GetEntry(A::EPO, 127), 0);
    EXPECT_EQ(Lns().GetEntry(A::EPO, 128), 128);
    EXPECT_EQ(Lns().GetEntry(A::EPO, 1), -126 * 128);
    EXPECT_EQ(Lns().GetEntry(A::LOG_M, 2048), 0);      // m = 1
    EXPECT_EQ(Lns().GetEntry(A::LOG_M, 3072), 75);     // log2 1.5 = 0.58496 -> 74.875 -> 75
    EXPECT_EQ(Lns().GetEntry(A::LOG_MLN2, 2048), -68); // log2 ln 2 = -0.52877 -> -67.68
    EXPECT_EQ(Lns().GetEntry(A::LOG_DM, 0), A::LOG_ZERO);
    EXPECT_EQ(Lns().GetEntry(A::LOG_DM, 1), -23 * 128);          // 2^-23
    EXPECT_EQ(Lns().GetEntry(A::LOG_DM, 2048), -12 * 128);       // 2^11 * 2^-23
    EXPECT_EQ(Lns().GetEntry(A::TAYLOR_EXP, 0), 128);            // 2^0
    EXPECT_EQ(Lns().GetEntry(A::TAYLOR_EXP, 0x10000 - 1536), 0); // 2^-12 * 128 = 0.03 -> 0
    EXPECT_EQ(Lns().GetEntry(A::MI, 0), 128);                    // log2(1 + 1) = 1
    EXPECT_EQ(Lns().GetEntry(A::MI, 128), 75);                   // log2(1 + 1/2)
    EXPECT_EQ(Lns().GetEntry(A::MI, 0x8000 | 128), -128);        // log2(1 - 1/2) = -1
    EXPECT_EQ(Lns().GetEntry(A::MI, 0x8000 | 1), -964);          // log2(1 - 2^-1/128) = -7.533
    EXPECT_EQ(Lns().GetEntry(A::MI, 0x8000), A::LOG_ZERO);       // x - x = 0
    EXPECT_EQ(Lns().GetEntry(A::MI, 0x7fff), 0);                 // far apart: the larger one
    EXPECT_EQ(Lns().GetEntry(A::EXP, 0), 0);                     // 2^0 = 1.0: mantissa 0
    EXPECT_EQ(Lns().GetEntry(A::EXP, 64), 27146);                // (sqrt 2 - 1) * 65536 = 27145.9
    EXPECT_EQ(Lns().GetEntry(A::EXP, 0x10000 - 64), 27146);      // L = -0.5: same fraction
}

TEST(LibraLnsAdder, LogAndExpConversions)
{
    EXPECT_EQ(Lns().ToLog(1.0f), 0);
    EXPECT_EQ(Lns().ToLog(2.0f), 128);
    EXPECT_EQ(Lns().ToLog(-2.0f), 128); // log2 |x|
    EXPECT_EQ(Lns().ToLog(1.5f), 75);
    EXPECT_EQ(Lns().ToLog(0.25f), -256);
    EXPECT_EQ(Lns().ToLog(0.0f), A::LOG_ZERO);
    EXPECT_EQ(Lns().ToLog(1e-40f), A::LOG_ZERO); // denormal, flushed
    EXPECT_EQ(Lns().FromLog(0, false), 1.0f);
    EXPECT_EQ(Lns().FromLog(128, true), -2.0f);
    EXPECT_EQ(Lns().FromLog(A::LOG_ZERO, false), 0.0f);
    EXPECT_EQ(Lns().FromLog(-127 * 128, false), 0.0f); // below 2^-126: flushed
    EXPECT_EQ(Lns().FromLog(-126 * 128, false), std::ldexp(1.0f, -126));
    EXPECT_EQ(Lns().FromLog(128 * 128, false), std::numeric_limits<float>::infinity());
    EXPECT_EQ(Lns().FromLog(-53, false), 0.7505035400390625f); // 2^-1 * (1 + 32834 / 65536)
}

TEST(LibraLnsAdder, AddsHandPickedOperandsThroughTheTables)
{
    // 1 + 1: L = 0 and 0, gap 0 -> mi = 128 -> L = 128 -> 2, exactly
    EXPECT_EQ(Lns().Add(1.0f, 1.0f), 2.0f);
    // 0.5 + 0.25: L = -128 and -256, gap 128 -> mi = 75 -> L = -53 -> 2^-1 * (1 + 32834/2^16)
    EXPECT_EQ(Lns().Add(0.5f, 0.25f), 0.7505035400390625f);
    EXPECT_EQ(Lns().Add(0.25f, 0.5f), 0.7505035400390625f); // order does not matter
    // 3 + (-1): L = 203 and 0, opposite signs, gap 203 -> mi = round(128 log2(1 - 2^-1.586))
    // = -75 -> L = 128 -> 2, exactly
    EXPECT_EQ(Lns().Add(3.0f, -1.0f), 2.0f);
    EXPECT_EQ(Lns().Add(-3.0f, 1.0f), -2.0f); // the sign of the larger operand
    EXPECT_EQ(Lns().Add(-1.0f, -1.0f), -2.0f);
    // cancellation: 1 and -0.999 have the same Q8.7 log (0), so the sum is 0 (true: 0.001)
    EXPECT_EQ(Lns().Add(1.0f, -0.999f), 0.0f);
    EXPECT_EQ(A::Precision(1.0 - 0.999f, Lns().Add(1.0f, -0.999f)), 0.0);
    EXPECT_EQ(Lns().Add(0.75f, -0.75f), 0.0f);
}

TEST(LibraLnsAdder, ZerosDenormalsAndSpecialValues)
{
    EXPECT_EQ(Lns().Add(0.1f, 0.0f), 0.1f); // zero: the other operand, unchanged
    EXPECT_EQ(Lns().Add(0.0f, -0.3f), -0.3f);
    EXPECT_EQ(Lns().Add(0.0f, 0.0f), 0.0f);
    EXPECT_EQ(Lns().Add(1e-40f, 1.0f), 1.0f); // a denormal counts as zero
    EXPECT_EQ(Lns().Add(1e-40f, 1e-40f), 0.0f);
    const float inf = std::numeric_limits<float>::infinity();
    EXPECT_EQ(Lns().Add(inf, 1.0f), inf);
    EXPECT_TRUE(std::isnan(Lns().Add(std::nanf(""), 1.0f)));
    EXPECT_EQ(Lns().Add(3e38f, 3e38f), inf); // 6e38 > FLT_MAX
}

TEST(LibraLnsAdder, ExactModeIsTheIeeeAdd)
{
    const A exact(A::Mode::EXACT);
    const float a = 0.1f;
    const float b = 0.2f;
    EXPECT_EQ(exact.Add(a, b), a + b);
    EXPECT_EQ(exact.Add(0.5f, 0.25f), 0.75f);
    EXPECT_EQ(exact.Add(1.0f, -0.999f), 1.0f - 0.999f);
    EXPECT_EQ(exact.LnsAdd(0.5f, 0.25f), 0.7505035400390625f); // the LNS path is still there
    EXPECT_EQ(A::ParseMode("exact"), A::Mode::EXACT);
    EXPECT_EQ(A::ParseMode("lns-approx"), A::Mode::LNS_APPROX);
    EXPECT_EQ(A::ModeName(A::Mode::LNS_APPROX), "lns-approx");
    EXPECT_EQ(ns3::tests::ErrorOf<std::invalid_argument>(
                  [&] {
                      A::ParseMode("lns");
                  },
                  "no exception"),
              "Libra float add mode 'lns': expected 'exact' or 'lns-approx'");
}

TEST(LibraLnsAdder, PrecisionMetric)
{
    EXPECT_DOUBLE_EQ(A::Precision(2.0, 1.99), 0.995);
    EXPECT_DOUBLE_EQ(A::Precision(-2.0, -2.01), 0.995);
    EXPECT_EQ(A::Precision(0.0, 0.0), 1.0);
    EXPECT_EQ(A::Precision(0.0, 1e-9), 0.0);
    EXPECT_EQ(A::Precision(1.0, 3.0), 0.0); // floored at 0
    EXPECT_EQ(A::Precision(1.0, 1.0), 1.0);
}

TEST(LibraLnsAdder, PrecisionOn100kPairsMatchesTable2)
{
    // Positive U(0, 1) operands: spec A.7's emulation of the same scheme gives average 99.836 %,
    // median 99.854 %, min 99.46 % (paper Table 2, R2: average 99.84 %). Error bound in log2
    // units: each operand's log is off by at most 2^-8 (rounding) + 2^-11 / ln 2 (the 11-bit
    // mantissa; the Taylor term rounds to 0) = 0.0046; the smaller operand enters through s(d),
    // whose slope is at most 1/2 for d <= 0; mi adds 2^-8 of rounding, exp 2^-17: 0.0108 in all,
    // 2^0.0108 - 1 = 0.75 % relative, so no pair may fall below 99.25 %.
    const A::PrecisionStats pos = Lns().MeasurePrecision(100000, false, 1);
    EXPECT_EQ(pos.pairs, 100000u);
    EXPECT_NEAR(pos.average, 0.99836, 0.0002);
    EXPECT_NEAR(pos.median, 0.99854, 0.0002);
    EXPECT_GT(pos.minimum, 0.9925);
    EXPECT_EQ(pos.belowHalf, 0u);
    EXPECT_EQ(pos.oppositeSigns, 0u);

    // U(-1, 1): half the pairs subtract, and cancellation costs precision (doc/libra.rst): the
    // median stays near the positive one, the average drops, some sums lose everything.
    const A::PrecisionStats sgn = Lns().MeasurePrecision(100000, true, 1);
    EXPECT_NEAR(sgn.oppositeSigns, 50000.0, 500.0); // binomial sd 158
    EXPECT_GT(sgn.median, 0.997);
    EXPECT_LT(sgn.average, pos.average - 0.003);
    EXPECT_GT(sgn.average, 0.98);
    EXPECT_GT(sgn.belowHalf, 0u);
    EXPECT_LT(sgn.belowHalf, 1000u);
    EXPECT_EQ(sgn.minimum, 0.0);

    // Exact mode: the IEEE float sum of two multiples of 2^-24 below 1 is exact
    const A::PrecisionStats exact = A(A::Mode::EXACT).MeasurePrecision(1000, true, 1);
    EXPECT_EQ(exact.minimum, 1.0);
    EXPECT_THROW(Lns().MeasurePrecision(0, false, 1), std::invalid_argument);
}

// The switch loads its pipeline tables from GetTableEntries in one call per table
// (LibraProgram::InitializeState): they must be the entries GetEntry reads, 2 bytes each, for
// every key of every table, as the switch held them when it inserted GetEntry's values one by one.
TEST(LibraLnsAdder, TableEntriesAreWhatGetEntryReads)
{
    for (const auto& t : A::GetTableSpecs())
    {
        const std::vector<uint16_t>& entries = A::GetTableEntries(t.id);
        ASSERT_EQ(entries.size(), t.entries) << t.name;
        for (uint32_t k = 0; k < t.entries; ++k)
        {
            ASSERT_EQ(entries[k], static_cast<uint16_t>(Lns().GetEntry(t.id, k)))
                << t.name << " key " << k;
        }
    }
    EXPECT_THROW(A::GetTableEntries(A::N_TABLES), std::out_of_range);
}
