/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TOPOLOGY_SIZE_H
#define INA_TOPOLOGY_SIZE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Whether a topology of `hosts` hosts and `switches` switches is within InaTopology's bounds
 * (MAX_NODES, MAX_SWITCHES). The generators check it before they allocate anything, and the
 * scenario loader before a run is built (so that `inasim-config check` refuses what a run would),
 * with one wording for both.
 *
 * \param what the topology, for the message ("a fat-tree of k=1000")
 * \param hosts its hosts
 * \param switches its switches
 * \throws std::invalid_argument "WHAT has H hosts and S switches; a topology has at most N nodes",
 *         or "WHAT has S switches; a topology has at most M (...)"
 */
void InaCheckTopologySize(const std::string& what, uint64_t hosts, uint64_t switches);

} // namespace ns3

#endif /* INA_TOPOLOGY_SIZE_H */
