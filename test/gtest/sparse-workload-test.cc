/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/sparse-workload.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

/// Plain summation, independent of the Euler-Maclaurin shortcut in the class.
double
DirectHarmonic(uint64_t n, double s)
{
    double sum = 0;
    for (uint64_t k = n; k >= 1; --k)
    {
        sum += std::pow(static_cast<double>(k), -s);
    }
    return sum;
}

} // namespace

TEST(SparseWorkload, TopOnePercentShareIsTheExactZipfExpectation)
{
    // 1e6 rows, s = 1.1: the top 1 % (10,000 rows) get H(1e4, 1.1) / H(1e6, 1.1) of the accesses.
    SparseWorkload w(1000000, 16, 1000, 1.1, 7);
    double exact = DirectHarmonic(10000, 1.1) / DirectHarmonic(1000000, 1.1);
    // 0.818005056426642 from Hurwitz zeta values at 30 digits (mpmath)
    EXPECT_NEAR(exact, 0.818005056426642, 1e-12);
    EXPECT_NEAR(w.ExpectedTopShare(10000), exact, 1e-12);
    EXPECT_GT(exact, 0.5);

    // 4 workers x 50 iterations x 1000 accesses = 200,000 draws: standard error 0.00086
    double measured = w.MeasuredTopShare(10000, 4, 50);
    EXPECT_NEAR(measured, exact, 0.005);
}

TEST(SparseWorkload, HottestRowGetsItsExactProbability)
{
    SparseWorkload w(1000000, 1, 1000, 1.1, 3);
    // P(rank 0) = 1 / H(1e6, 1.1) = 0.123876407551810
    EXPECT_NEAR(w.ExpectedTopShare(1), 0.123876407551810, 1e-12);
    uint32_t hottest = w.RowOfRank(0);
    uint64_t hits = 0;
    uint64_t total = 0;
    for (uint32_t i = 0; i < 100; ++i)
    {
        for (uint32_t row : w.AccessesForIteration(0, i))
        {
            hits += row == hottest ? 1 : 0;
            ++total;
        }
    }
    // 100,000 draws: standard error 0.00104
    EXPECT_NEAR(static_cast<double>(hits) / total, 0.123876407551810, 0.006);
}

TEST(SparseWorkload, UniformWhenExponentIsZero)
{
    SparseWorkload w(1000, 1, 500, 0.0, 11);
    EXPECT_NEAR(w.ExpectedTopShare(100), 0.1, 1e-12);
    EXPECT_NEAR(w.MeasuredTopShare(100, 2, 100), 0.1, 0.01); // 100,000 draws, s.e. 0.00095
}

TEST(SparseWorkload, GeneralizedHarmonicMatchesIndependentValues)
{
    // Reference values from mpmath (30 digits): zeta(s) - zeta(s, n + 1), harmonic(n).
    EXPECT_NEAR(SparseWorkload::GeneralizedHarmonic(1000000, 1.1) / 8.07256215903552, 1, 1e-13);
    EXPECT_NEAR(SparseWorkload::GeneralizedHarmonic(10000000, 1.0) / 16.6953113658599, 1, 1e-13);
    EXPECT_NEAR(SparseWorkload::GeneralizedHarmonic(150000000, 0.975) / 24.6170068664585, 1, 1e-13);
    EXPECT_NEAR(SparseWorkload::GeneralizedHarmonic(123456789, 0.5) / 22220.7618116023, 1, 1e-13);
    // either side of the switch from summation to Euler-Maclaurin
    EXPECT_NEAR(SparseWorkload::GeneralizedHarmonic(99999, 0.975) / 13.9162428648273, 1, 1e-13);
    EXPECT_NEAR(SparseWorkload::GeneralizedHarmonic(100000, 0.975) / 13.9162562000417, 1, 1e-13);
    EXPECT_NEAR(SparseWorkload::GeneralizedHarmonic(100001, 0.975) / 13.9162695351260, 1, 1e-13);
    EXPECT_EQ(SparseWorkload::GeneralizedHarmonic(5000000, 0.0), 5000000.0);
    EXPECT_EQ(SparseWorkload::GeneralizedHarmonic(0, 1.0), 0.0);
}

TEST(SparseWorkload, ReproducesLibrasReportedSkew)
{
    // Libra (Fig. 5): the top 30 K of OA's 150 M parameters take just over 50 % of the updates;
    // s = 0.975 matches it, and doubling the hot set adds about 7 % (relative).
    SparseWorkload oa(150000000, 1, 1000, 0.975, 1);
    EXPECT_NEAR(oa.ExpectedTopShare(30000), 0.501062927684741, 1e-12);
    EXPECT_NEAR(oa.ExpectedTopShare(60000), 0.537814969220053, 1e-12);
    // SE: about 9 M parameters, top 30 K about 70 % with s = 1.024
    SparseWorkload se(9000000, 1, 1000, 1.024, 1);
    EXPECT_NEAR(se.ExpectedTopShare(30000), 0.699995273659011, 1e-12);
}

TEST(SparseWorkload, SameSeedSameRowsAndOtherwiseDifferent)
{
    SparseWorkload a(1000000, 8, 2000, 1.1, 42);
    SparseWorkload b(1000000, 8, 2000, 1.1, 42);
    SparseWorkload c(1000000, 8, 2000, 1.1, 43);
    EXPECT_EQ(a.RowsForIteration(3, 5), b.RowsForIteration(3, 5));
    EXPECT_EQ(a.AccessesForIteration(0, 0), b.AccessesForIteration(0, 0));
    EXPECT_NE(a.RowsForIteration(3, 5), a.RowsForIteration(3, 6));
    EXPECT_NE(a.RowsForIteration(3, 5), a.RowsForIteration(4, 5));
    EXPECT_NE(a.RowsForIteration(3, 5), c.RowsForIteration(3, 5));
    EXPECT_NE(a.HotRows(100), c.HotRows(100));
    // all workers share the hot set: the hottest row shows up for everybody
    uint32_t hottest = a.RowOfRank(0);
    for (uint32_t worker = 0; worker < 8; ++worker)
    {
        auto rows = a.RowsForIteration(worker, 1);
        EXPECT_TRUE(std::binary_search(rows.begin(), rows.end(), hottest)) << worker;
    }
}

TEST(SparseWorkload, DrawsAreStableAcrossBuilds)
{
    // The generator is specified in sparse-workload.h (SplitMix64 seeds, mt19937_64, rejection-
    // inversion, Feistel permutation); these values come from an independent Python
    // re-implementation of that specification, so a change here changes every sparse result.
    SparseWorkload w(1000, 1, 8, 1.1, 42);
    std::vector<uint32_t> expected = {311, 982, 311, 311, 843, 311, 276, 311};
    EXPECT_EQ(w.AccessesForIteration(0, 0), expected);
}

TEST(SparseWorkload, RowsAreSortedUniqueAndFromTheAccesses)
{
    SparseWorkload w(5000, 4, 3000, 1.2, 9);
    EXPECT_EQ(w.GetRowBytes(), 16u);
    auto accesses = w.AccessesForIteration(2, 7);
    ASSERT_EQ(accesses.size(), 3000u);
    auto rows = w.RowsForIteration(2, 7);
    std::set<uint32_t> unique(accesses.begin(), accesses.end());
    EXPECT_EQ(rows, std::vector<uint32_t>(unique.begin(), unique.end()));
    EXPECT_LT(rows.size(), accesses.size()); // a skewed law repeats hot rows
    EXPECT_LT(rows.back(), 5000u);
    // Libra's "updates" count each row once per push, so hot rows weigh less than in accesses
    EXPECT_LT(w.MeasuredUpdateTopShare(50, 2, 5), w.MeasuredTopShare(50, 2, 5));
}

TEST(SparseWorkload, RankPermutationIsABijectionThatSpreadsHotRows)
{
    for (uint32_t rows : {1u, 2u, 3u, 1000u, 1024u, 1025u, 65537u})
    {
        SparseWorkload w(rows, 1, 1, 1.0, 5);
        std::vector<bool> seen(rows, false);
        for (uint32_t r = 0; r < rows; ++r)
        {
            uint32_t row = w.RowOfRank(r);
            ASSERT_LT(row, rows);
            ASSERT_FALSE(seen[row]) << rows << " " << r;
            seen[row] = true;
            ASSERT_EQ(w.RankOfRow(row), r);
        }
    }
    SparseWorkload w(1000000, 1, 1, 1.0, 5);
    std::vector<uint32_t> first(10);
    std::iota(first.begin(), first.end(), 0);
    EXPECT_NE(w.HotRows(10), first);
    EXPECT_THROW(w.RowOfRank(1000000), std::out_of_range);
}

TEST(SparseWorkload, BadParametersAreRejected)
{
    EXPECT_THROW(SparseWorkload(0, 1, 1, 1.0, 1), std::invalid_argument);
    EXPECT_THROW(SparseWorkload(10, 0, 1, 1.0, 1), std::invalid_argument);
    EXPECT_THROW(SparseWorkload(10, 1, 0, 1.0, 1), std::invalid_argument);
    EXPECT_THROW(SparseWorkload(10, 1, 1, -0.5, 1), std::invalid_argument);
    EXPECT_THROW(SparseWorkload(10, 1, 1, NAN, 1), std::invalid_argument);
}
