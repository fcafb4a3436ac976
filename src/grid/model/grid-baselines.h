/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_BASELINES_H
#define GRID_BASELINES_H

#include "grid-problem.h"
#include "grid-scheme-rates.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * Fluid models of the schemes GRID is compared with in its planner-level simulation (Fang et
 * al., Sec. 6.1 and 6.3; inasim spec B.7), on the same GridProblem as the planner. Each finds
 * the largest common worker rate lambda its constraints allow; `withLinks` false keeps only the
 * printed model's constraints (T_n, C_s, B_alpha), true adds every directed edge.
 *
 * - Geryon: flow scheduling without aggregation. *Interpretation*: "shortest path to the PS
 *   under the resource constraints", rerouted around congestion as in Fig. 1(a), is taken as
 *   the best splittable routing, i.e. the maximum concurrent flow from all workers to the PS
 *   (an LP on edge flows). With the PS link as bottleneck it is min(T, B_alpha / N).
 * - SwitchML (extended as in the paper): each worker's rack switch aggregates the rack if it is
 *   programmable and sends one stream to the PS; other workers send straight to the PS. The
 *   rate is found by stream counting (GridPlanner::Evaluate on that fixed assignment).
 * - ATP (as GRID describes it): on the default route to the PS the first programmable switch
 *   aggregates a share a_s = min(lambda, C_s / |N_s|) of each of its |N_s| workers and emits
 *   one stream of rate a_s; the remainder lambda - a_s per worker goes on unaggregated, and a
 *   later programmable switch on the route aggregates what its spare capacity allows of the
 *   remainders passing through (the Fig. 1(b) reading: S3 absorbs W1-W4's excess). Each
 *   gradient byte is aggregated once at most (GRID's assumption, "similar to ATP").
 *   AtpReach::RACK narrows it to ATP's own data plane with one level (the ATP paper, Sec. 3.3:
 *   aggregation at the workers' rack switch): a worker's rack switch aggregates its share if it
 *   is programmable, and nothing else does; the remainder and every worker of a rack that is not
 *   programmable go straight to the PS.
 */
class GridBaselines
{
  public:
    /// Where ATP's model may aggregate a worker's gradients.
    enum class AtpReach
    {
        FIRST_ON_ROUTE, //!< the first programmable switch on its route, later ones its excess
        RACK,           //!< its rack switch only, if that is programmable
    };

    /**
     * \param problem the job
     * \param withLinks false: the PS ingress only (each worker on its fixed route)
     * \param edgeBps if not null, filled with the load of every directed edge at the result
     * (the concurrent flow's edge flows; without links, lambda on every edge of each route)
     * \throws std::runtime_error if lp_solve fails.
     */
    static GridSchemeRates Geryon(const GridProblem& problem,
                                  bool withLinks = true,
                                  std::vector<double>* edgeBps = nullptr);

    static GridSchemeRates SwitchMl(const GridProblem& problem, bool withLinks = true);

    static GridSchemeRates Atp(const GridProblem& problem,
                               bool withLinks = true,
                               AtpReach reach = AtpReach::FIRST_ON_ROUTE);

    /// SwitchML's assignment: the rack switch if programmable, else the PS.
    static std::vector<uint32_t> SwitchMlAssignment(const GridProblem& problem);

    /**
     * ATP's loads at a given common rate.
     */
    struct AtpLoads
    {
        bool feasible = false;
        double psIngressBps = 0;         //!< load entering the PS
        double switchAggregationBps = 0; //!< rate aggregated in switches
        std::vector<double> edgeBps;     //!< load per directed edge
        std::vector<double> switchBps;   //!< aggregation load per switch (<= C_s by design)
    };

    /// ATP's fluid state at rate lambda (the building block of Atp(), exposed for tests).
    static AtpLoads AtpAt(const GridProblem& problem,
                          double lambdaBps,
                          bool withLinks,
                          AtpReach reach = AtpReach::FIRST_ON_ROUTE);
};

} // namespace ns3

#endif /* GRID_BASELINES_H */
