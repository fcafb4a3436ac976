/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-job-switches.h"

#include "ns3/ina-switch.h"
#include "ns3/pipeline.h"
#include "ns3/pool-header.h"

namespace ns3
{

std::vector<GridProblem::ProgrammableSwitch>
GridJobSwitches::Of(const JobContext& ctx, double switchCapacity)
{
    const InaTopology& topo = ctx.fabric->GetTopology();
    std::vector<GridProblem::ProgrammableSwitch> programmable;
    for (uint32_t node = 0; node < topo.GetNNodes(); ++node)
    {
        if (topo.IsHost(node) || !ctx.AllowsTier(topo.GetTier(node)))
        {
            continue;
        }
        programmable.push_back(
            GridProblem::ProgrammableSwitch{node, Capacity(ctx, node, switchCapacity)});
    }
    return programmable;
}

double
GridJobSwitches::Capacity(const JobContext& ctx, uint32_t node, double switchCapacity)
{
    const InaTopology& topo = ctx.fabric->GetTopology();
    double capacity = switchCapacity;
    if (capacity == 0)
    {
        // Plan with the capacity the switch really has, so that the plan's rates hold in
        // the data plane.
        Ptr<Pipeline> pipeline = ctx.fabric->GetSwitch(node)->GetPipeline();
        if (pipeline)
        {
            capacity = static_cast<double>(pipeline->GetAggregationCapacityBps()) +
                       static_cast<double>(pipeline->GetAggregationCapacityPps()) *
                           PoolHeader::WIRE_BYTES * 8.0;
        }
    }
    if (capacity == 0)
    {
        for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
        {
            const InaTopology::Link& link = topo.GetLink(l);
            if (link.a == node || link.b == node)
            {
                capacity += static_cast<double>(link.rateBps);
            }
        }
    }
    return capacity;
}

} // namespace ns3
