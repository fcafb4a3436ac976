/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_LP_H
#define GRID_LP_H

#include <cstdint>
#include <limits>
#include <vector>

// lp_solve's model (lprec in lp_lib.h), declared here so that its API stays out of this header.
struct _lprec;

namespace ns3
{

/**
 * \ingroup grid
 * A linear program max c'x subject to row constraints and 0 <= x <= upper, solved by lp_solve 5.5
 * (LGPL-2.1). The planner builds its LP here and never sees lp_solve's API, so the solver can be
 * swapped without touching the model.
 *
 * Columns are numbered from 0 in the order they are added. The problem is stored as plain data;
 * Maximize() hands it to lp_solve, so a GridLp can be solved, extended and solved again.
 */
class GridLp
{
  public:
    enum class Sense
    {
        LESS_EQUAL,
        EQUAL,
        GREATER_EQUAL
    };

    enum class Status
    {
        OPTIMAL,
        INFEASIBLE,
        UNBOUNDED,
        FAILED //!< numerical failure, out of memory, or anything else lp_solve reports
    };

    /// One non-zero coefficient of a row.
    struct Term
    {
        uint32_t column;
        double coefficient;
    };

    static constexpr double kInfinity = std::numeric_limits<double>::infinity();

    /**
     * Adds a column with bounds [0, upper] and objective coefficient `objective`.
     * \return its index.
     * \throws std::invalid_argument if upper < 0 or a value is NaN.
     */
    uint32_t AddColumn(double objective, double upper = kInfinity);

    /**
     * Adds the row sum(terms) SENSE rhs. Terms naming the same column add up.
     * \throws std::invalid_argument for an unknown column or a non-finite value.
     */
    void AddRow(const std::vector<Term>& terms, Sense sense, double rhs);

    uint32_t GetNColumns() const
    {
        return static_cast<uint32_t>(m_objective.size());
    }

    uint32_t GetNRows() const
    {
        return static_cast<uint32_t>(m_rhs.size());
    }

    /**
     * Solves the LP (maximising). Values and objective are valid only after OPTIMAL. lp_solve
     * runs with up to four settings in turn (primal simplex with Devex, Dantzig and
     * steepest-edge pricing, then its default dual-primal), at most a minute each; an answer
     * counts only if lp_solve calls it optimal and every row and bound holds.
     */
    Status Maximize();

    /// \return the optimum of the last OPTIMAL solve.
    double GetObjective() const
    {
        return m_objectiveValue;
    }

    /// \return column `column` of the last OPTIMAL solution. \throws std::out_of_range
    double GetValue(uint32_t column) const;

    static const char* StatusName(Status status);

    /// lp_solve's return code of the last solve (for messages: 5 = numerical failure, ...).
    int GetSolverCode() const
    {
        return m_solverCode;
    }

  private:
    /// Seconds lp_solve may spend on one attempt before the next setting is tried.
    static constexpr long kTimeLimitS = 60;

    /// Puts the objective, the rows and the bounds into lp_solve's (empty) model; false if it
    /// refused one.
    bool Load(_lprec* lp);
    /// Solves the loaded model with a ladder of simplex settings; keeps the first optimum that
    /// passes Feasible() in m_values and m_objectiveValue.
    Status Solve(_lprec* lp);

    /// Whether x satisfies every row and bound (up to a relative 1e-7).
    bool Feasible(const std::vector<double>& x) const;

    std::vector<double> m_objective;
    std::vector<double> m_upper;
    std::vector<uint32_t> m_rowStart; //!< CSR: row r holds entries m_rowStart[r] .. [r + 1] - 1
    std::vector<int> m_entryColumn;   //!< 1-based, as lp_solve wants it
    std::vector<double> m_entryValue;
    std::vector<Sense> m_sense;
    std::vector<double> m_rhs;
    std::vector<double> m_values;
    double m_objectiveValue = 0;
    int m_solverCode = 0;
};

} // namespace ns3

#endif /* GRID_LP_H */
