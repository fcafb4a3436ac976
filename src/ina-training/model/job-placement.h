/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef JOB_PLACEMENT_H
#define JOB_PLACEMENT_H

#include "ns3/ina-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * Where a job's workers (and parameter servers) go. Several jobs share a fabric, so placement
 * takes the hosts earlier jobs hold and never reuses one. Pure logic.
 *
 * - packed: the lowest free host ids, in order (fills a rack before the next);
 * - spread: one host per rack in turn (lowest free host of each rack, racks in order), so a job
 *   spans as many racks as it can;
 * - random: a uniformly random set of free hosts, drawn from the seed with a fixed generator
 *   (splitmix64 + Fisher-Yates), then sorted;
 * - explicit: exactly the given ids.
 */
class JobPlacement
{
  public:
    enum class Kind
    {
        PACKED,
        SPREAD,
        RANDOM,
        EXPLICIT
    };

    /// Throws std::runtime_error saying why (not enough free hosts, an id taken or out of range).
    static std::vector<uint32_t> Place(Kind kind,
                                       uint32_t count,
                                       const std::vector<uint32_t>& explicitHosts,
                                       const InaTopology& topology,
                                       std::vector<bool>& used,
                                       uint64_t seed);
};

} // namespace ns3

#endif /* JOB_PLACEMENT_H */
