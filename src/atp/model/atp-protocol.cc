/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atp-protocol.h"

#include "atp-agent.h"
#include "atp-parameter-server.h"
#include "atp-program.h"

#include "ns3/aggregation-protocol-registry.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AtpProtocol);

static AggregationProtocolRegistry::Registrar g_atp(
    "atp",
    "ns3::AtpProtocol",
    "ATP in-network aggregation (Lao et al. NSDI'21): one aggregator pool per switch shared by "
    "every job, hash(job, seq) first come first served, collisions fall back to the job's "
    "parameter server; two levels (worker rack, PS rack); windowed workers with ECN/loss AIMD");

TypeId
AtpProtocol::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtpProtocol")
                            .SetParent<PoolProtocol>()
                            .SetGroupName("Atp")
                            .AddConstructor<AtpProtocol>();
    return tid;
}

AtpProtocol::AtpProtocol()
    : AtpProtocol("atp")
{
}

AtpProtocol::AtpProtocol(const std::string& label)
    : PoolProtocol(ATP_PROTOCOL, label)
{
}

Ptr<PoolProgram>
AtpProtocol::CreateProgram() const
{
    return ProgramFactory("ns3::AtpProgram").Create<PoolProgram>();
}

Ptr<PoolParameterServer>
AtpProtocol::CreateServer() const
{
    return CreateObject<AtpParameterServer>();
}

Ptr<PoolAgent>
AtpProtocol::CreatePoolAgent() const
{
    return CreateObject<AtpAgent>();
}

} // namespace ns3
