/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-sparse-ps-protocol.h"

#include "ns3/aggregation-protocol-registry.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(LibraSparsePsProtocol);

static AggregationProtocolRegistry::Registrar g_libraPs(
    "libra-ps",
    "ns3::LibraSparsePsProtocol",
    "Libra's sparse PS baseline (PS-lite): every key-value pair on the sharded sparse PS, no "
    "in-network aggregation, same workload and host stack as libra");

TypeId
LibraSparsePsProtocol::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LibraSparsePsProtocol")
                            .SetParent<LibraProtocol>()
                            .SetGroupName("Libra")
                            .AddConstructor<LibraSparsePsProtocol>();
    return tid;
}

bool
LibraSparsePsProtocol::AggregatesInNetwork() const
{
    return false;
}

} // namespace ns3
