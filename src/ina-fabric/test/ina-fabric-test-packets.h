/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_FABRIC_TEST_PACKETS_H
#define INA_FABRIC_TEST_PACKETS_H

// What the fabric's TestSuites send through a built fabric: plain 1000-byte packets to a test
// endpoint, over 100 Gb/s links of 1 us.

#include "ns3/ina-fabric.h"
#include "ns3/ina-topology.h"

namespace ns3
{
namespace ina_fabric_test
{

/// The endpoint the suites' sinks bind to.
constexpr uint16_t TEST_PORT = 7;

/// 100 Gb/s, 1 us of wire.
inline InaTopology::LinkSpec
Gbps100()
{
    return {100000000000ULL, 1000000};
}

/// One 1000-byte packet of flow `flowId` from host `from` to `to`, numbered `seq`.
inline void
SendOne(Ptr<InaFabric> fabric, uint32_t from, InaAddress to, uint32_t flowId, uint64_t seq)
{
    InaPacket* p = fabric->GetPool().Alloc();
    p->dst = to;
    p->flowId = flowId;
    p->seq = seq;
    p->dstPort = TEST_PORT;
    p->wireBytes = 1000;
    fabric->GetHost(from)->Send(p);
}

} // namespace ina_fabric_test
} // namespace ns3

#endif /* INA_FABRIC_TEST_PACKETS_H */
