/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-worker-pacing.h"

#include "ns3/ina-host.h"

#include <stdexcept>

namespace ns3
{

int64_t
GridWorkerPacing::Cap(const JobContext& ctx, const std::vector<double>& rateBps)
{
    if (rateBps.size() != ctx.workerHosts.size())
    {
        throw std::invalid_argument("GridWorkerPacing::Cap: " + std::to_string(rateBps.size()) +
                                    " rates for " + std::to_string(ctx.workerHosts.size()) +
                                    " workers");
    }
    for (uint32_t r = 0; r < ctx.workerHosts.size(); ++r)
    {
        if (!ctx.fabric->GetHost(ctx.workerHosts[r])
                 ->SetInjectionRateCap(static_cast<uint64_t>(rateBps[r])))
        {
            return r;
        }
    }
    return -1;
}

} // namespace ns3
