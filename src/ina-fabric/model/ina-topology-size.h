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

/**
 * \ingroup ina-fabric
 * The most nodes a topology may have: InaTopology::MAX_NODES, the bound the topology file reader
 * and the generators enforce.
 *
 * Under the fuzzers only (test/fuzz/ defines FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, libFuzzer's
 * convention for this) it is FUZZ_MAX_NODES. A fabric of a million nodes runs the same reader code
 * as one of a few thousand, only more times: inputs that name huge fabrics took the topology
 * target to 20-90 executions a second (85 per CPU second, 2026-11-26, a third of the time in the
 * name map's hashing), so a million executions would take a day. The refusal beyond the bound is
 * still exercised, at the lower number.
 */
uint64_t InaTopologyNodeLimit();

/// The node bound under the fuzzers: a k=24 fat-tree (4,176 nodes) still fits.
constexpr uint64_t FUZZ_MAX_NODES = 8192;

} // namespace ns3

#endif /* INA_TOPOLOGY_SIZE_H */
