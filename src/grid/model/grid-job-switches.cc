/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-job-switches.h"

#include "ns3/ina-switch.h"
#include "ns3/job-attribute-error.h"
#include "ns3/pipeline.h"
#include "ns3/pool-header.h"
#include "ns3/string.h"

namespace ns3
{

TypeId
GridJobSwitches::AddAttribute(TypeId tid, Ptr<const AttributeAccessor> accessor)
{
    return tid.AddAttribute(
        "ProgrammableSwitches",
        "Switch names, comma-separated: the only switches the job may aggregate at, each also in "
        "switch.ina_tiers (the GRID paper's scenario (b), a random set of programmable switches: "
        "the scenario's planner.programmable: random sets it at packet level from the seed, the "
        "same set the planner level draws). Empty: every switch of switch.ina_tiers.",
        StringValue(""),
        accessor,
        MakeStringChecker());
}

std::vector<GridProblem::ProgrammableSwitch>
GridJobSwitches::Of(const JobContext& ctx, double switchCapacity, const std::string& only)
{
    const InaTopology& topo = ctx.fabric->GetTopology();
    std::vector<bool> named(topo.GetNNodes(), only.empty());
    for (const std::string& name : JobAttributeList("ProgrammableSwitches", only))
    {
        if (!topo.HasNode(name) || topo.IsHost(topo.FindNode(name)))
        {
            throw JobAttributeError("ProgrammableSwitches",
                                    "'" + name + "' is not a switch of the topology");
        }
        const uint32_t node = topo.FindNode(name);
        if (!ctx.AllowsTier(topo.GetTier(node)))
        {
            throw JobAttributeError("ProgrammableSwitches",
                                    "switch '" + name + "' is of tier '" + topo.GetTier(node) +
                                        "', which switch.ina_tiers does not list");
        }
        named[node] = true;
    }
    std::vector<GridProblem::ProgrammableSwitch> programmable;
    for (uint32_t node = 0; node < topo.GetNNodes(); ++node)
    {
        if (topo.IsHost(node) || !ctx.AllowsTier(topo.GetTier(node)) || !named[node])
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
