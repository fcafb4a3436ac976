/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pool-sizing.h"

namespace ns3
{

void
PoolSizing::Declare(const DemandFn& demand,
                    uint32_t size,
                    const PipelineLimits& limits,
                    ResourceDemand& into)
{
    ResourceDemand d = demand(size, limits);
    into.registerArrays = std::move(d.registerArrays);
    into.tables = std::move(d.tables);
}

uint32_t
PoolSizing::LargestFitting(const DemandFn& demand, const PipelineLimits& limits, uint32_t ceiling)
{
    auto fits = [&](uint32_t s) {
        return PipelineResources::Check({demand(s, limits)}, limits).fits;
    };
    if (!fits(1))
    {
        return 0;
    }
    uint32_t lo = 1; // fits
    uint32_t hi = ceiling;
    if (fits(hi))
    {
        return hi;
    }
    while (hi - lo > 1)
    {
        const uint32_t mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

} // namespace ns3
