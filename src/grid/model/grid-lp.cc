/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-lp.h"

#include <lpsolve/lp_lib.h>

// lp_lib.h defines its return codes as macros named like GridLp::Status's values: keep them as
// constants and drop the macros.
namespace
{
constexpr int kLpOptimal = OPTIMAL;
constexpr int kLpPresolved = PRESOLVED;
constexpr int kLpInfeasible = INFEASIBLE;
constexpr int kLpUnbounded = UNBOUNDED;
} // namespace

#undef OPTIMAL
#undef PRESOLVED
#undef INFEASIBLE
#undef UNBOUNDED

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// Owns an lprec so every exit path frees it.
struct LprecDeleter
{
    void operator()(lprec* lp) const
    {
        delete_lp(lp);
    }
};

} // namespace

uint32_t
GridLp::AddColumn(double objective, double upper)
{
    if (std::isnan(objective) || std::isinf(objective) || std::isnan(upper) || upper < 0)
    {
        throw std::invalid_argument("GridLp::AddColumn: objective must be finite and the upper "
                                    "bound >= 0, got objective " +
                                    std::to_string(objective) + ", upper " + std::to_string(upper));
    }
    m_objective.push_back(objective);
    m_upper.push_back(upper);
    return static_cast<uint32_t>(m_objective.size() - 1);
}

void
GridLp::AddRow(const std::vector<Term>& terms, Sense sense, double rhs)
{
    if (!std::isfinite(rhs))
    {
        throw std::invalid_argument("GridLp::AddRow: right-hand side must be finite, got " +
                                    std::to_string(rhs));
    }
    // Check everything before storing anything, so a rejected row leaves the LP unchanged.
    for (const Term& t : terms)
    {
        if (t.column >= m_objective.size())
        {
            throw std::invalid_argument("GridLp::AddRow: unknown column " +
                                        std::to_string(t.column) + " (the LP has " +
                                        std::to_string(m_objective.size()) + ")");
        }
        if (!std::isfinite(t.coefficient))
        {
            throw std::invalid_argument("GridLp::AddRow: coefficient of column " +
                                        std::to_string(t.column) + " must be finite");
        }
    }
    std::vector<Term> sorted = terms;
    std::sort(sorted.begin(), sorted.end(), [](const Term& a, const Term& b) {
        return a.column < b.column;
    });
    if (m_rowStart.empty())
    {
        m_rowStart.push_back(0);
    }
    for (std::size_t i = 0; i < sorted.size(); ++i)
    {
        // lp_solve does not promise to add up repeated columns, so merge them here.
        if (i > 0 && sorted[i - 1].column == sorted[i].column)
        {
            m_entryValue.back() += sorted[i].coefficient;
            continue;
        }
        m_entryColumn.push_back(static_cast<int>(sorted[i].column) + 1);
        m_entryValue.push_back(sorted[i].coefficient);
    }
    m_rowStart.push_back(static_cast<uint32_t>(m_entryValue.size()));
    m_sense.push_back(sense);
    m_rhs.push_back(rhs);
}

GridLp::Status
GridLp::Maximize()
{
    m_values.clear();
    m_objectiveValue = 0;
    std::unique_ptr<lprec, LprecDeleter> lp(make_lp(0, static_cast<int>(m_objective.size())));
    if (!lp || !Load(lp.get()))
    {
        return Status::FAILED;
    }
    return Solve(lp.get());
}

bool
GridLp::Load(lprec* lp)
{
    const int nCols = static_cast<int>(m_objective.size());
    set_verbose(lp, NEUTRAL);
    // The objective has to be in place before row mode starts adding constraints.
    std::vector<int> objCols;
    std::vector<double> objVals;
    for (int c = 0; c < nCols; ++c)
    {
        if (m_objective[c] != 0)
        {
            objCols.push_back(c + 1);
            objVals.push_back(m_objective[c]);
        }
    }
    if (!set_obj_fnex(lp, static_cast<int>(objCols.size()), objVals.data(), objCols.data()))
    {
        return false;
    }
    set_add_rowmode(lp, TRUE);
    for (std::size_t r = 0; r < m_rhs.size(); ++r)
    {
        const uint32_t begin = m_rowStart[r];
        const uint32_t count = m_rowStart[r + 1] - begin;
        int type = LE;
        if (m_sense[r] == Sense::EQUAL)
        {
            type = EQ;
        }
        else if (m_sense[r] == Sense::GREATER_EQUAL)
        {
            type = GE;
        }
        if (!add_constraintex(lp,
                              static_cast<int>(count),
                              m_entryValue.data() + begin,
                              m_entryColumn.data() + begin,
                              type,
                              m_rhs[r]))
        {
            return false;
        }
    }
    set_add_rowmode(lp, FALSE);
    const double inf = get_infinite(lp);
    for (int c = 0; c < nCols; ++c)
    {
        set_upbo(lp, c + 1, std::isinf(m_upper[c]) ? inf : m_upper[c]);
    }
    set_maxim(lp);
    return true;
}

GridLp::Status
GridLp::Solve(lprec* lp)
{
    // lp_solve's default (dual simplex in phase 1, then primal) stalls for minutes in degenerate
    // GRIA LPs of a fat-tree (100 workers, 32 switches) that primal-primal solves in ~7k
    // iterations; but primal-primal with Devex pricing ends in an "accuracy error" on some of
    // them, which Dantzig or steepest-edge pricing solves. So try a short ladder of settings,
    // each from the slack basis and with a time limit, and keep the first answer that is optimal
    // and passes our own feasibility check.
    struct Setting
    {
        int simplex;
        int pricing;
    };

    const Setting ladder[] = {{SIMPLEX_PRIMAL_PRIMAL, PRICER_DEVEX | PRICE_ADAPTIVE},
                              {SIMPLEX_PRIMAL_PRIMAL, PRICER_DANTZIG | PRICE_ADAPTIVE},
                              {SIMPLEX_PRIMAL_PRIMAL, PRICER_STEEPESTEDGE | PRICE_ADAPTIVE},
                              {SIMPLEX_DUAL_PRIMAL, PRICER_DEVEX | PRICE_ADAPTIVE}};
    const int nCols = static_cast<int>(m_objective.size());
    for (const Setting& setting : ladder)
    {
        default_basis(lp);
        set_simplextype(lp, setting.simplex);
        set_pivoting(lp, setting.pricing);
        set_timeout(lp, kTimeLimitS);
        const int ret = solve(lp);
        m_solverCode = ret;
        if (ret == kLpInfeasible)
        {
            return Status::INFEASIBLE;
        }
        if (ret == kLpUnbounded)
        {
            return Status::UNBOUNDED;
        }
        if (ret != kLpOptimal && ret != kLpPresolved)
        {
            continue;
        }
        m_values.assign(nCols, 0.0);
        if (nCols > 0 && !get_variables(lp, m_values.data()))
        {
            m_values.clear();
            continue;
        }
        if (!Feasible(m_values))
        {
            m_values.clear();
            continue;
        }
        m_objectiveValue = get_objective(lp);
        return Status::OPTIMAL;
    }
    return Status::FAILED;
}

bool
GridLp::Feasible(const std::vector<double>& x) const
{
    // Relative to the row's scale: the planner's rows add rates of up to a few Tb/s in Gb/s.
    constexpr double tol = 1e-7;
    for (std::size_t c = 0; c < x.size(); ++c)
    {
        if (x[c] < -tol || x[c] > m_upper[c] + tol * std::max(1.0, std::abs(m_upper[c])))
        {
            return false;
        }
    }
    for (std::size_t r = 0; r < m_rhs.size(); ++r)
    {
        double lhs = 0;
        double scale = std::max(1.0, std::abs(m_rhs[r]));
        for (uint32_t k = m_rowStart[r]; k < m_rowStart[r + 1]; ++k)
        {
            const double term = m_entryValue[k] * x[m_entryColumn[k] - 1];
            lhs += term;
            scale = std::max(scale, std::abs(term));
        }
        const double slack = tol * scale;
        if ((m_sense[r] != Sense::GREATER_EQUAL && lhs > m_rhs[r] + slack) ||
            (m_sense[r] != Sense::LESS_EQUAL && lhs < m_rhs[r] - slack))
        {
            return false;
        }
    }
    return true;
}

double
GridLp::GetValue(uint32_t column) const
{
    if (column >= m_values.size())
    {
        throw std::out_of_range(
            "GridLp::GetValue: column " + std::to_string(column) +
            " has no value (solved columns: " + std::to_string(m_values.size()) + ")");
    }
    return m_values[column];
}

const char*
GridLp::StatusName(Status status)
{
    switch (status)
    {
    case Status::OPTIMAL:
        return "optimal";
    case Status::INFEASIBLE:
        return "infeasible";
    case Status::UNBOUNDED:
        return "unbounded";
    case Status::FAILED:
        return "failed";
    }
    return "unknown";
}

} // namespace ns3
