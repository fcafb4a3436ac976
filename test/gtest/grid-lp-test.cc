/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// GridLp: the lp_solve wrapper GRID's planner builds its LP in.

#include "ns3/grid-lp.h"

#include <cmath>
#include <gtest/gtest.h>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using Sense = GridLp::Sense;
using Status = GridLp::Status;

/// Maximizes lp and checks the optimum's objective and each listed column's value.
void
ExpectOptimum(GridLp& lp, double objective, const std::vector<std::pair<uint32_t, double>>& values)
{
    ASSERT_EQ(lp.Maximize(), Status::OPTIMAL);
    EXPECT_NEAR(lp.GetObjective(), objective, 1e-9);
    for (const auto& [column, value] : values)
    {
        EXPECT_NEAR(lp.GetValue(column), value, 1e-9) << "column " << column;
    }
}

TEST(GridLp, SolvesATextbookProgram)
{
    // max 3x + 2y s.t. x + y <= 4, x + 3y <= 6, x <= 3: the optimum is the vertex x = 3, y = 1.
    GridLp lp;
    const uint32_t x = lp.AddColumn(3.0, 3.0);
    const uint32_t y = lp.AddColumn(2.0);
    lp.AddRow({{x, 1.0}, {y, 1.0}}, Sense::LESS_EQUAL, 4.0);
    lp.AddRow({{x, 1.0}, {y, 3.0}}, Sense::LESS_EQUAL, 6.0);
    EXPECT_EQ(lp.GetNColumns(), 2u);
    EXPECT_EQ(lp.GetNRows(), 2u);
    ExpectOptimum(lp, 11.0, {{x, 3.0}, {y, 1.0}});
}

TEST(GridLp, EqualityAndGreaterRows)
{
    // max x - y s.t. x + y = 10, y >= 4 (x free up to 100): x = 6, y = 4, objective 2.
    GridLp lp;
    const uint32_t x = lp.AddColumn(1.0, 100.0);
    const uint32_t y = lp.AddColumn(-1.0);
    lp.AddRow({{x, 1.0}, {y, 1.0}}, Sense::EQUAL, 10.0);
    lp.AddRow({{y, 1.0}}, Sense::GREATER_EQUAL, 4.0);
    ExpectOptimum(lp, 2.0, {{x, 6.0}, {y, 4.0}});
}

TEST(GridLp, RepeatedColumnsInARowAddUp)
{
    // x + x <= 4 is 2x <= 4.
    GridLp lp;
    const uint32_t x = lp.AddColumn(1.0);
    lp.AddRow({{x, 1.0}, {x, 1.0}}, Sense::LESS_EQUAL, 4.0);
    ASSERT_EQ(lp.Maximize(), Status::OPTIMAL);
    EXPECT_NEAR(lp.GetValue(x), 2.0, 1e-9);
}

TEST(GridLp, ReportsInfeasibleAndUnbounded)
{
    GridLp infeasible;
    const uint32_t x = infeasible.AddColumn(1.0, 3.0);
    infeasible.AddRow({{x, 1.0}}, Sense::GREATER_EQUAL, 5.0);
    EXPECT_EQ(infeasible.Maximize(), Status::INFEASIBLE);
    EXPECT_THROW(infeasible.GetValue(x), std::out_of_range);

    GridLp unbounded;
    const uint32_t u = unbounded.AddColumn(1.0);
    const uint32_t v = unbounded.AddColumn(0.0);
    unbounded.AddRow({{u, 1.0}, {v, -1.0}}, Sense::LESS_EQUAL, 1.0);
    EXPECT_EQ(unbounded.Maximize(), Status::UNBOUNDED);
    EXPECT_STREQ(GridLp::StatusName(Status::UNBOUNDED), "unbounded");
}

TEST(GridLp, CanBeExtendedAndSolvedAgain)
{
    GridLp lp;
    const uint32_t x = lp.AddColumn(1.0, 10.0);
    ASSERT_EQ(lp.Maximize(), Status::OPTIMAL);
    EXPECT_NEAR(lp.GetObjective(), 10.0, 1e-9);
    lp.AddRow({{x, 2.0}}, Sense::LESS_EQUAL, 7.0);
    ASSERT_EQ(lp.Maximize(), Status::OPTIMAL);
    EXPECT_NEAR(lp.GetValue(x), 3.5, 1e-9);
}

TEST(GridLp, RejectsBadInput)
{
    GridLp lp;
    const uint32_t x = lp.AddColumn(1.0);
    EXPECT_THROW(lp.AddColumn(1.0, -1.0), std::invalid_argument);
    EXPECT_THROW(lp.AddColumn(NAN), std::invalid_argument);
    EXPECT_THROW(lp.AddRow({{x + 1, 1.0}}, Sense::LESS_EQUAL, 1.0), std::invalid_argument);
    EXPECT_THROW(lp.AddRow({{x, NAN}}, Sense::LESS_EQUAL, 1.0), std::invalid_argument);
    EXPECT_THROW(lp.AddRow({{x, 1.0}}, Sense::LESS_EQUAL, INFINITY), std::invalid_argument);
    // A rejected row leaves the LP as it was.
    EXPECT_EQ(lp.GetNRows(), 0u);
}

} // namespace
