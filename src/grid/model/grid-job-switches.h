/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_JOB_SWITCHES_H
#define GRID_JOB_SWITCHES_H

#include "grid-problem.h"

#include "ns3/aggregation-protocol.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * The programmable switches a job of the packet fabric is planned with, and their C_s: what
 * GRID's data plane (GridProtocol) and the baselines paced by GRID's rate models (AtpPacedProtocol)
 * put into the job's GridProblem, so that both plan with the capacities the switches have.
 */
class GridJobSwitches
{
  public:
    /**
     * \param ctx the job
     * \param switchCapacity C_s for every switch in bit/s, 0: each switch's own
     * \return the switches of the job's tiers (ctx.inaTiers) with their C_s, in node order
     */
    static std::vector<GridProblem::ProgrammableSwitch> Of(const JobContext& ctx,
                                                           double switchCapacity);

    /**
     * \param ctx the job
     * \param node a switch
     * \param switchCapacity C_s in bit/s, 0: the switch's own
     * \return `switchCapacity` if set; else the aggregation capacity of the switch's pipeline
     *         (switch.aggregation, a topology file's capacity=; a packet rate counted in the pool
     *         protocols' gradient packets); else the sum of its port rates (every input at line
     *         rate; an interpretation, the paper gives no number)
     */
    static double Capacity(const JobContext& ctx, uint32_t node, double switchCapacity);
};

} // namespace ns3

#endif /* GRID_JOB_SWITCHES_H */
