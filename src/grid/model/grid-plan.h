/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_PLAN_H
#define GRID_PLAN_H

#include "grid-scheme-rates.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * GRID's gradient routing policy for one job, as the controller publishes it once per training
 * task (Fang et al., Sec. 3.4): for every worker its aggregation node, rate and route; for every
 * switch that aggregates its fan-in, its workers and the route of its aggregate to the PS; how
 * many streams the PS receives. Plus what the planner learnt on the way (LP bound, the literal
 * Algorithm 1 numbers, the bottleneck), for reports and tests.
 *
 * Every stream runs at the same rate (achievedBps) once the plan is evaluated: a switch's output
 * is as fast as its inputs, and the common rate is the largest that no capacity forbids.
 */
struct GridPlan
{
    struct WorkerRoute
    {
        uint32_t host = 0;          //!< the worker's node
        uint32_t target = 0;        //!< aggregation target (switch index, or S for the PS)
        uint32_t node = 0;          //!< aggregation node (a switch, or the PS)
        double rateBps = 0;         //!< sending rate (the plan's common rate)
        std::vector<uint32_t> path; //!< nodes from host to node
    };

    struct SwitchRoute
    {
        uint32_t target = 0;            //!< switch index in the problem
        uint32_t node = 0;              //!< the switch's node
        uint32_t fanIn = 0;             //!< workers it aggregates (its aggregation count)
        std::vector<uint32_t> workers;  //!< their worker indices, ascending
        double rateBps = 0;             //!< rate of its aggregate toward the PS
        std::vector<uint32_t> pathToPs; //!< nodes from the switch to the PS
    };

    bool linkRows = true;      //!< planned with the link rows (false: the printed model)
    uint32_t psNode = 0;       //!< the PS's node
    double lpBoundBps = 0;     //!< lambda~: the LP optimum, an upper bound
    double achievedBps = 0;    //!< lambda^: the common rate the kept rounding sustains
    std::string bottleneck;    //!< the constraint that sets achievedBps
    uint32_t trials = 0;       //!< roundings tried
    uint32_t bestTrial = 0;    //!< the first trial that reached achievedBps
    double literalRateBps = 0; //!< Alg. 1 line 12, min_n sum_a r~_n^a (Theorem 7: = lambda~)
    /// PS ingress load at Alg. 1's literal rates for the kept rounding (switch outputs at the
    /// max of their own workers' rates, inasim spec B.3 [E]); above B_alpha when the LP is loose
    double literalPsIngressBps = 0;
    /// max over switches of (sum of their workers' literal rates) / C_s; > 1 means violated
    double literalMaxSwitchLoad = 0;
    std::vector<std::vector<double>> lpRatesBps; //!< r~[worker][target] of the LP
    std::vector<WorkerRoute> workers;            //!< one per worker, in worker order
    std::vector<SwitchRoute> switches;           //!< the switches that aggregate, by index
    uint32_t directWorkers = 0;                  //!< workers aggregated at the PS
    uint32_t psFanIn = 0; //!< streams entering the PS: direct workers + aggregating switches

    /// The aggregation target of every worker, in worker order.
    std::vector<uint32_t> Assignment() const;
    /// The planner-level metrics (Sec. 6.1) of this plan.
    GridSchemeRates Rates() const;
};

} // namespace ns3

#endif /* GRID_PLAN_H */
