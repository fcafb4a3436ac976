/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/libra-sparse-model.h"
#include "ns3/libra-workload-fit.h"

#include <gtest/gtest.h>
#include <numeric>
#include <stdexcept>
#include <string>

using namespace ns3;

// The five models of the paper's Figure 12 with the sizes their sources give (libra.rst, "The five
// models"): a changed number here is a changed model, and the docs must follow.
TEST(LibraSparseModel, SizesAreTheSourcesOnes)
{
    const LibraSparseModel oa = LibraSparseModel::Lookup("oa-like");
    EXPECT_EQ(oa.rows, 150000000U);
    EXPECT_EQ(oa.dim, 1U);
    EXPECT_EQ(oa.topKeys, 30000U);
    EXPECT_DOUBLE_EQ(oa.topShare, 0.50);
    const LibraSparseModel se = LibraSparseModel::Lookup("se-like");
    EXPECT_EQ(se.rows, 9000000U);
    EXPECT_DOUBLE_EQ(se.topShare, 0.70);

    const LibraSparseModel dl = LibraSparseModel::Lookup("deeplight");
    ASSERT_EQ(dl.fieldRows.size(), 39U);
    EXPECT_EQ(std::accumulate(dl.fieldRows.begin(), dl.fieldRows.end(), uint64_t{0}), 1326055U);
    EXPECT_EQ(dl.rows, 1326055U);
    // the log's 13,260,550 second-order embedding parameters
    EXPECT_EQ(uint64_t{dl.rows} * dl.dim, 13260550U);
    EXPECT_EQ(dl.accesses, 39U * 2048U);
    EXPECT_EQ(dl.topKeys, 40000U);

    const LibraSparseModel lstm = LibraSparseModel::Lookup("lstm");
    EXPECT_EQ(lstm.rows, 2U * 793470U);
    EXPECT_EQ(lstm.dim, 512U);
    EXPECT_EQ(lstm.accesses, 2U * 128U * 20U + 8192U);
    EXPECT_DOUBLE_EQ(lstm.exponent, 1.0);

    const LibraSparseModel ncf = LibraSparseModel::Lookup("ncf");
    EXPECT_EQ(ncf.rows, 6040U + 3706U);
    EXPECT_EQ(ncf.dim, 40U);
    EXPECT_EQ(ncf.accesses, 512U);
    EXPECT_EQ(ncf.topKeys, 60000U);
    for (const std::string& name : LibraSparseModel::Names())
    {
        EXPECT_EQ(LibraSparseModel::Lookup(name).name, name);
        EXPECT_FALSE(LibraSparseModel::Lookup(name).source.empty()) << name;
    }
}

TEST(LibraSparseModel, UnknownNameListsTheModels)
{
    const std::string what = ns3::tests::ErrorOf<std::invalid_argument>([] {
        LibraSparseModel::Lookup("dlrm");
    });
    EXPECT_NE(what.find("unknown sparse model 'dlrm': expected oa-like, se-like, deeplight, lstm, "
                        "ncf, or custom"),
              std::string::npos)
        << what;
}

// One uniform draw per field and sample, worked by hand: fields of 1 and 4 rows, 2 samples. The
// one-row field is updated by every push (u = 1), a row of the other with 1 - (3/4)^2 = 7/16, so
// the hottest row takes 1 / (1 + 4 x 7/16) = 4/11 of the updates and the top two 4/11 + 7/44.
TEST(LibraSparseModel, FieldUniformShareByHand)
{
    EXPECT_NEAR(LibraWorkloadFit::FieldUniformUpdateShare({4, 1}, 2, 1), 4.0 / 11.0, 1e-12);
    EXPECT_NEAR(LibraWorkloadFit::FieldUniformUpdateShare({4, 1}, 2, 2),
                4.0 / 11.0 + 7.0 / 44.0,
                1e-12);
    EXPECT_NEAR(LibraWorkloadFit::FieldUniformUpdateShare({4, 1}, 2, 5), 1.0, 1e-12);
    EXPECT_THROW(LibraWorkloadFit::FieldUniformUpdateShare({4, 1}, 2, 6), std::invalid_argument);
    EXPECT_THROW(LibraWorkloadFit::FieldUniformUpdateShare({4, 0}, 2, 1), std::invalid_argument);
}

// The exponent each model's workload uses reproduces its skew: the fitted models' top rows take
// the share their sources give (OA, SE) or their fields' law gives (DeepLight, NCF); the LSTM's
// law is given, s = 1.
TEST(LibraSparseModel, ExponentReproducesTheSkew)
{
    for (const std::string& name : LibraSparseModel::Names())
    {
        const LibraSparseModel m = LibraSparseModel::Lookup(name);
        const double s = m.SolveExponent(m.dim, m.accesses);
        if (m.exponent >= 0)
        {
            EXPECT_DOUBLE_EQ(s, m.exponent) << name;
            continue;
        }
        const uint32_t topRows = m.topKeys / m.dim;
        const double want = m.fieldRows.empty()
                                ? m.topShare
                                : LibraWorkloadFit::FieldUniformUpdateShare(
                                      m.fieldRows,
                                      m.accesses / static_cast<uint32_t>(m.fieldRows.size()),
                                      topRows);
        EXPECT_NEAR(LibraWorkloadFit::ExpectedUpdateShare(m.rows, s, m.accesses, topRows),
                    want,
                    1e-6)
            << name;
        EXPECT_GT(want, static_cast<double>(topRows) / m.rows) << name << ": skewed at all";
    }
    // DeepLight's 40 K hot parameters are the 4,000 rows of its smallest fields: the 13
    // numerical fields and the 12 categorical ones below 1,500 rows (3,157 rows), then 843 of
    // the 2,058-row field.
    const LibraSparseModel dl = LibraSparseModel::Lookup("deeplight");
    const double share = LibraWorkloadFit::FieldUniformUpdateShare(dl.fieldRows, 2048, 4000);
    EXPECT_GT(share, 0.10);
    EXPECT_LT(share, 0.13);
}
