/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "myp-agent.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MypAgent);

TypeId
MypAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MypAgent")
                            .SetParent<PoolAgent>()
                            .SetGroupName("Myp")
                            .AddConstructor<MypAgent>();
    return tid;
}

} // namespace ns3
