/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-ml-ps-protocol.h"

#include "grid-baselines.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMlPsProtocol");
NS_OBJECT_ENSURE_REGISTERED(SwitchMlPsProtocol);

static AggregationProtocolRegistry::Registrar g_switchMlPs(
    "switchml-ps",
    "ns3::SwitchMlPsProtocol",
    "SwitchML as GRID's paper evaluates it: each rack's programmable switch aggregates its "
    "workers and sends the aggregate to a parameter server for global aggregation (workers "
    "without a programmable rack switch go straight to the PS), on GRID's data plane, paced at "
    "the common rate that assignment sustains");

TypeId
SwitchMlPsProtocol::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchMlPsProtocol")
                            .SetParent<GridProtocol>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<SwitchMlPsProtocol>();
    return tid;
}

SwitchMlPsProtocol::SwitchMlPsProtocol()
    : GridProtocol("switchml-ps", true, true)
{
}

GridPlan
SwitchMlPsProtocol::PlanJob(const GridProblem& problem, const GridPlanner::Options& options) const
{
    return GridPlanner::MakePlan(problem,
                                 GridBaselines::SwitchMlAssignment(problem),
                                 options.linkRows);
}

} // namespace ns3
