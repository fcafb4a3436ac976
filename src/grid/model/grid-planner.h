/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_PLANNER_H
#define GRID_PLANNER_H

#include "grid-plan.h"
#include "grid-problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * GRID's control plane (Fang et al., Sec. 4; inasim spec B.2-B.4): R-GRIA, randomised rounding
 * of the GRIA linear program, with the evaluation step that makes the result honest.
 *
 * 1. LP: maximise lambda over rates r_n^a (worker n to aggregation target a, a switch or the
 *    PS) and y_s (switch s to the PS) subject to the printed constraints: r_n^s <= y_s,
 *    sum_n r_n^s <= C_s, sum_n r_n^alpha + sum_s y_s <= B_alpha, sum_a r_n^a = lambda <= T_n
 *    (the 0/1 variables x dropped, spec B.2 [D]); with Options::linkRows (the default) also one
 *    row per directed edge e: the rates of all routes that cross e <= B_e (spec B.4 step 2;
 *    transit switches spend no C_s). Without link rows it is the paper's LP ("PaperLp").
 * 2. Rounding (Alg. 1): each worker independently picks target a with probability
 *    r~_n^a / sum_a r~_n^a, Options::trials times, from a seeded generator.
 * 3. Evaluation (spec B.4 step 4): every stream then runs at one common rate, the largest that
 *    fits: lambda^ = min(min_n T_n, min_{s used} C_s / fanIn_s, B_alpha / psStreams,
 *    [link rows] min_e B_e / streams_e). The best rounding is kept (the first on ties).
 * 4. Fan-in (GridProblem::SetMaxFanIn, not in the paper: a data plane counts contributors in a
 *    few bits): an assignment with more workers on a switch, or more groups at the PS
 *    (GridProblem::PsGroups: a group per aggregating switch, the direct workers F to a group),
 *    than the limit sustains 0; the LP gets the matching rows (sum_i r(i, j) <= F lambda, and
 *    sum_i r(i, PS) / F + sum_j y_j <= F lambda) and the repair moves workers off a node above
 *    it.
 *
 * *Interpretation*: the LP pins sum_a r_n^a = lambda rather than >= (same optimum: a feasible
 * point with more can be scaled down per worker) so that the rounding probabilities do not
 * depend on slack the solver left in.
 */
class GridPlanner
{
  public:
    struct Options
    {
        bool linkRows = true; //!< add the per-edge rows; false: the paper's LP (B.10.3)
        bool repair = true;   //!< improve each rounding by single-worker moves (not in the paper)
        uint32_t trials = 32; //!< R: roundings tried (spec B.8)
        uint64_t seed = 1;    //!< seed of the rounding generator
    };

    /// Stream counting for one assignment (spec B.4 step 4).
    struct Evaluation
    {
        double lambdaBps = 0;          //!< the common rate that fits
        std::string bottleneck;        //!< which constraint sets it
        std::vector<uint32_t> fanIn;   //!< workers per switch (index as in the problem)
        uint32_t psStreams = 0;        //!< direct workers + switches with a non-zero fan-in
        std::vector<uint32_t> streams; //!< per directed edge (empty when links are ignored)
    };

    GridPlanner();
    /// \throws std::invalid_argument if options.trials is 0.
    explicit GridPlanner(const Options& options);

    const Options& GetOptions() const
    {
        return m_options;
    }

    /**
     * Solves the LP, rounds it Options::trials times and keeps the best rounding.
     * \throws std::runtime_error if lp_solve does not reach an optimum.
     */
    GridPlan Plan(const GridProblem& problem) const;

    /**
     * The common rate an assignment sustains, by counting streams.
     * \param assignment the target of each worker (0..S-1 a switch, S the PS)
     * \param withLinks count every directed edge; false: only T_n, C_s and B_alpha (the printed
     * model)
     * \throws std::invalid_argument for a wrong size or an unknown target.
     */
    static Evaluation Evaluate(const GridProblem& problem,
                               const std::vector<uint32_t>& assignment,
                               bool withLinks);

    /**
     * The repair step: from a rounding, move one worker at a time to another target it reaches
     * (failed links) while that
     * raises the common rate, or keeps it and leaves fewer constraints at it (steepest move
     * first, only workers that load a constraint at the current rate). A local optimum for
     * single moves; lambda never drops.
     */
    static std::vector<uint32_t> Repair(const GridProblem& problem,
                                        const std::vector<uint32_t>& assignment,
                                        bool withLinks);

    /**
     * The plan of a given assignment, evaluated as Evaluate(); the LP fields stay 0. Used for
     * fixed policies (SwitchML's rack aggregation) and to re-evaluate a plan on the fabric.
     */
    static GridPlan MakePlan(const GridProblem& problem,
                             const std::vector<uint32_t>& assignment,
                             bool withLinks);

    /**
     * The exact optimum of the printed model (no link rows) with one common rate (spec B.4 step
     * 5): lambda is feasible iff lambda <= min T_n and, with cap_s = floor(C_s / lambda) sorted
     * descending, min_k [k + max(0, N - sum_{i<=k} cap_(i))] <= floor(B_alpha / lambda); the
     * optimum is the largest feasible breakpoint of {T} u {C_s / j} u {B_alpha / j}.
     */
    static double PaperOptimum(const GridProblem& problem);

  private:
    /**
     * The rounding step: Options::trials roundings of the LP's rates, each repaired (if
     * Options::repair) and evaluated; the first best one wins.
     * \param problem the job
     * \param rates r(i, a) of the LP (Gb/s)
     * \param workerTotal each worker's r_i
     * \param bestTrial the winning trial
     * \return its assignment
     */
    std::vector<uint32_t> BestRounding(const GridProblem& problem,
                                       const std::vector<std::vector<double>>& rates,
                                       const std::vector<double>& workerTotal,
                                       uint32_t* bestTrial) const;

    Options m_options;
};

} // namespace ns3

#endif /* GRID_PLANNER_H */
