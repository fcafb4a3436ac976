/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_FAIR_RATES_H
#define GRID_FAIR_RATES_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * Max-min fair common rates of several jobs that share capacities, each job's streams fixed (its
 * aggregation nodes and routes): job j sends at one rate lambda_j on every stream (GRID's plan
 * gives all its workers one rate, Sec. 4.2's lambda), and puts coef(j, r) * lambda_j on shared
 * resource r (a switch's C_s: its fan-in there; a directed link: the streams crossing it). Each
 * job also has a ceiling of its own (its slowest NIC, its PS's ingress over its streams there).
 *
 * Progressive filling: every job not yet fixed rises at the same rate until a resource it uses
 * is full or it meets its ceiling; those jobs keep that rate, the others go on. The result is
 * max-min fair, and for one job it is GridPlanner::Evaluate's stream-counting rate exactly (the
 * same divisions).
 */
class GridFairRates
{
  public:
    /// What one job puts on the shared resources, per unit of its rate.
    struct Job
    {
        double ceilingBps = 0; //!< its own limit, >= 0
        /// (resource, coefficient > 0); a resource listed once
        std::vector<std::pair<uint32_t, double>> uses;
    };

    /**
     * \param capacityBps per shared resource, >= 0
     * \param jobs the jobs
     * \return each job's rate, in job order
     * \throws std::invalid_argument for an unknown resource, a coefficient <= 0 or a negative or
     * non-finite capacity or ceiling
     */
    static std::vector<double> Solve(const std::vector<double>& capacityBps,
                                     const std::vector<Job>& jobs);
};

} // namespace ns3

#endif /* GRID_FAIR_RATES_H */
