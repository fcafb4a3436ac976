/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-topology-size.h"

#include "ina-topology.h"

#include <stdexcept>

namespace ns3
{

uint64_t
InaTopologyNodeLimit()
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    return FUZZ_MAX_NODES;
#else
    return InaTopology::MAX_NODES;
#endif
}

void
InaCheckTopologySize(const std::string& what, uint64_t hosts, uint64_t switches)
{
    if (hosts + switches > InaTopologyNodeLimit())
    {
        throw std::invalid_argument(what + " has " + std::to_string(hosts) + " hosts and " +
                                    std::to_string(switches) +
                                    " switches; a topology has at most " +
                                    std::to_string(InaTopologyNodeLimit()) + " nodes");
    }
    if (switches > InaTopology::MAX_SWITCHES)
    {
        throw std::invalid_argument(what + " has " + std::to_string(switches) +
                                    " switches; a topology has at most " +
                                    std::to_string(InaTopology::MAX_SWITCHES) +
                                    " (its routes take 4 B per pair of switches)");
    }
}

} // namespace ns3
