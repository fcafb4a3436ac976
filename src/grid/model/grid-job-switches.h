/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_JOB_SWITCHES_H
#define GRID_JOB_SWITCHES_H

#include "grid-problem.h"

#include "ns3/aggregation-protocol.h"
#include "ns3/attribute.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
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
     * \param only the protocol's ProgrammableSwitches: switch names, comma-separated, the only
     *        switches that may aggregate (each also in the job's tiers; the scenario's
     *        `planner.programmable: random` sets it at packet level); empty: all of the tiers'
     * \return the switches of the job's tiers (ctx.inaTiers), of `only` if given, with their C_s,
     *         in node order
     * \throws JobAttributeError naming ProgrammableSwitches if an item is empty, names no switch
     *         or a switch outside the job's tiers
     */
    static std::vector<GridProblem::ProgrammableSwitch> Of(const JobContext& ctx,
                                                           double switchCapacity,
                                                           const std::string& only);

    /**
     * The Attribute both GRID's data plane and the paced ATP take for `only` (Of): help text and
     * checker in one place.
     * \param tid the protocol's TypeId
     * \param accessor where the protocol keeps the value
     * \return tid with the Attribute added
     */
    static TypeId AddAttribute(TypeId tid, Ptr<const AttributeAccessor> accessor);

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
