/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atp-agent.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AtpAgent);

TypeId
AtpAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtpAgent")
                            .SetParent<PoolAgent>()
                            .SetGroupName("Atp")
                            .AddConstructor<AtpAgent>();
    return tid;
}

} // namespace ns3
