/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atp-parameter-server.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(AtpParameterServer);

TypeId
AtpParameterServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtpParameterServer")
                            .SetParent<PoolParameterServer>()
                            .SetGroupName("Atp")
                            .AddConstructor<AtpParameterServer>();
    return tid;
}

} // namespace ns3
