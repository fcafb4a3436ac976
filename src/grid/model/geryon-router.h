/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GERYON_ROUTER_H
#define GERYON_ROUTER_H

#include "grid-plan.h"
#include "grid-problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * The baseline without in-network aggregation that GRID compares with, Geryon-like flow
 * scheduling, as a plan the packet-level data plane can run (GRID paper, Sec. 3.1 and Fig. 1(a):
 * "Geryon schedules the gradient of W4 through the path W4 -> S1 -> S2 -> S3 -> PS to avoid
 * congestion in link L1"; Sec. 6.1: "Geryon selects the shortest path to the PS for each gradient
 * under the resource constraints"). Every worker sends its whole gradient to the PS, on one path
 * of its own, and every worker at one common rate (the PS waits for the slowest).
 *
 * *Interpretation*: the candidates of a worker are its simple paths to the PS at most one hop
 * longer than the shortest (through switches only; the fixed shortest route of GridProblem
 * first, then in ascending node order), at most MAX_CANDIDATES of them. The common rate of a
 * choice is lambda = min(T_n, B_alpha / N, min over directed edges e of B_e / workers on e). From
 * every worker on its fixed shortest route, a local search moves one worker that crosses a
 * bottleneck edge to the candidate that raises lambda most, or keeps it and leaves fewer edges at
 * lambda, until no move does (the first such move on ties, so the result depends only on the
 * problem). The planner level's Geryon (GridBaselines::Geryon) splits flows over paths; this one
 * cannot split a worker, so its rate can be lower.
 */
class GeryonRouter
{
  public:
    /// Candidates kept per worker.
    static constexpr uint32_t MAX_CANDIDATES = 16;

    /// The routing found.
    struct Result
    {
        double lambdaBps = 0;                     //!< the common worker rate
        std::string bottleneck;                   //!< what sets it
        std::vector<std::vector<uint32_t>> paths; //!< per worker: nodes from its host to the PS
    };

    /**
     * \param problem the job (its programmable switches are not used)
     * \return every worker's path and the common rate
     */
    static Result Route(const GridProblem& problem);

    /**
     * The routing as a plan: every worker aimed at the PS (no switch aggregates) on its path at
     * the common rate.
     * \param problem the job
     * \return the plan
     */
    static GridPlan Plan(const GridProblem& problem);
};

} // namespace ns3

#endif /* GERYON_ROUTER_H */
