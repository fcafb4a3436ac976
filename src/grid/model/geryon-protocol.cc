/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "geryon-protocol.h"

#include "geryon-router.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GeryonProtocol");
NS_OBJECT_ENSURE_REGISTERED(GeryonProtocol);

static AggregationProtocolRegistry::Registrar g_geryon(
    "geryon",
    "ns3::GeryonProtocol",
    "GRID's baseline without in-network aggregation (Geryon-like flow scheduling): every worker "
    "sends its gradients to the parameter server on a path of its own chosen to spare the "
    "bottleneck links, all at one common rate (paced); the PS aggregates everything");

TypeId
GeryonProtocol::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GeryonProtocol")
                            .SetParent<GridProtocol>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<GeryonProtocol>();
    return tid;
}

GeryonProtocol::GeryonProtocol()
    : GridProtocol("geryon", false, false)
{
}

GridPlan
GeryonProtocol::PlanJob(const GridProblem& problem, const GridPlanner::Options& /*options*/) const
{
    return GeryonRouter::Plan(problem);
}

} // namespace ns3
