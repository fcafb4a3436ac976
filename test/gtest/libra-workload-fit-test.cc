/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/libra-workload-fit.h"
#include "ns3/sparse-workload.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using namespace ns3;

// One draw per push: an update is a draw, so the share of updates is the share of draws.
TEST(LibraWorkloadFit, OneDrawPerPushIsTheDrawShare)
{
    for (double s : {0.6, 0.975, 1.3})
    {
        const SparseWorkload w(150000000, 1, 1, s, 1);
        EXPECT_NEAR(LibraWorkloadFit::ExpectedUpdateShare(150000000, s, 1, 30000),
                    w.ExpectedTopShare(30000),
                    1e-6)
            << "s " << s;
    }
}

// The prediction against the rows a SparseWorkload actually sends (past the exact terms, so
// the tail's integral is in it too).
TEST(LibraWorkloadFit, PredictsTheMeasuredShareOfUpdates)
{
    const uint32_t rows = 400000;
    const uint32_t accesses = 3000;
    for (double s : {0.9, 1.1})
    {
        const SparseWorkload w(rows, 1, accesses, s, 7);
        const double measured = w.MeasuredUpdateTopShare(3000, 8, 8);
        const double expected = LibraWorkloadFit::ExpectedUpdateShare(rows, s, accesses, 3000);
        EXPECT_NEAR(expected, measured, 0.01) << "s " << s;
        // and well below the share of draws, which is what dedup takes away
        EXPECT_LT(expected, w.ExpectedTopShare(3000) - 0.05) << "s " << s;
    }
}

TEST(LibraWorkloadFit, SolvesForTheShareOfUpdates)
{
    const double oa = LibraWorkloadFit::SolveExponent(150000000, 10000, 30000, 0.50);
    EXPECT_NEAR(LibraWorkloadFit::ExpectedUpdateShare(150000000, oa, 10000, 30000), 0.50, 1e-7);
    // the draw fit (s = 0.975 gives 50 % of the draws) undercounts the skew of updates
    EXPECT_GT(oa, 1.0);
    const double se = LibraWorkloadFit::SolveExponent(9000000, 10000, 30000, 0.70);
    EXPECT_NEAR(LibraWorkloadFit::ExpectedUpdateShare(9000000, se, 10000, 30000), 0.70, 1e-7);
    EXPECT_GT(se, oa);
    // the same question again is answered from the cache, with the same answer
    EXPECT_EQ(LibraWorkloadFit::SolveExponent(150000000, 10000, 30000, 0.50), oa);
}

TEST(LibraWorkloadFit, UnreachableShareIsRefused)
{
    std::string what;
    try
    {
        // the top half of the rows already take more than 10 % with a uniform law
        LibraWorkloadFit::SolveExponent(1000, 10, 500, 0.10);
    }
    catch (const std::invalid_argument& e)
    {
        what = e.what();
    }
    EXPECT_NE(what.find("top 500 of 1000 rows 0.1 of the updates with 10 draws"), std::string::npos)
        << what;
    EXPECT_THROW(LibraWorkloadFit::ExpectedUpdateShare(1000, 1.0, 10, 1001), std::invalid_argument);
}
