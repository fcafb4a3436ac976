/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "myp-protocol.h"

#include "myp-program.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/pool-agent.h"
#include "ns3/pool-parameter-server.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MypProtocol);

static AggregationProtocolRegistry::Registrar g_myp(
    "myp",
    "ns3::MypProtocol",
    "docs/architecture.md's walk-through: ATP whose switch drops a colliding fragment silently");

TypeId
MypProtocol::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MypProtocol")
                            .SetParent<PoolProtocol>()
                            .SetGroupName("Myp")
                            .AddConstructor<MypProtocol>();
    return tid;
}

MypProtocol::MypProtocol()
    : PoolProtocol(MYP_PROTOCOL, "myp")
{
}

Ptr<PoolProgram>
MypProtocol::CreateProgram() const
{
    return ProgramFactory("ns3::MypProgram").Create<PoolProgram>();
}

// myp's hosts behave as the kit's: its own classes would be a TypeId and nothing else.
Ptr<PoolParameterServer>
MypProtocol::CreateServer() const
{
    return CreateObject<PoolParameterServer>();
}

Ptr<PoolAgent>
MypProtocol::CreatePoolAgent() const
{
    return CreateObject<PoolAgent>();
}

} // namespace ns3
