/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "myp-parameter-server.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MypParameterServer);

TypeId
MypParameterServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MypParameterServer")
                            .SetParent<PoolParameterServer>()
                            .SetGroupName("Myp")
                            .AddConstructor<MypParameterServer>();
    return tid;
}

} // namespace ns3
