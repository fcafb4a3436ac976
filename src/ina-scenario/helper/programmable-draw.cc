/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "programmable-draw.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

std::mt19937_64
ProgrammableDraw::Generator(uint64_t seed)
{
    return std::mt19937_64(seed * 1000003ULL + 0x6772696470ULL);
}

double
ProgrammableDraw::Uniform(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

bool
ProgrammableDraw::InTiers(const std::string& tier, const std::vector<std::string>& tiers)
{
    for (const std::string& t : tiers)
    {
        if (t == tier || (t == "tor" && tier == "leaf") || (t == "leaf" && tier == "tor"))
        {
            return true;
        }
    }
    return false;
}

std::vector<uint32_t>
ProgrammableDraw::Choose(const Scenario& sc, const InaTopology& topo, std::mt19937_64& rng)
{
    const ScenarioPlanner& pl = sc.planner;
    std::vector<uint32_t> chosen;
    if (pl.programmable == "tiers")
    {
        for (uint32_t n = topo.GetNHosts(); n < topo.GetNNodes(); ++n)
        {
            if (InTiers(topo.GetNode(n).tier, sc.switchConfig.inaTiers))
            {
                chosen.push_back(n);
            }
        }
        return chosen;
    }
    std::vector<uint32_t> pool;
    for (uint32_t n = topo.GetNHosts(); n < topo.GetNNodes(); ++n)
    {
        pool.push_back(n);
    }
    const auto k = std::max<size_t>(
        1,
        static_cast<size_t>(std::llround(pl.fraction * static_cast<double>(pool.size()))));
    for (size_t i = 0; i < k; ++i)
    {
        const size_t j = i + static_cast<size_t>(Uniform(rng) * (pool.size() - i));
        std::swap(pool[i], pool[j]);
    }
    chosen.assign(pool.begin(), pool.begin() + k);
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

bool
ProgrammableDraw::DrawsCapacities(const Scenario& sc)
{
    const ScenarioPlanner& pl = sc.planner;
    if (pl.capacityMinBps == 0 && pl.capacityMaxBps == 0)
    {
        return false;
    }
    if (pl.capacityMinBps == 0 || pl.capacityMaxBps < pl.capacityMinBps)
    {
        throw sc.Error("planner.capacity_max",
                       "capacities are drawn in [capacity_min, capacity_max]: expected 0 < "
                       "capacity_min <= capacity_max, got " +
                           std::to_string(pl.capacityMinBps) + " and " +
                           std::to_string(pl.capacityMaxBps) + " b/s");
    }
    return true;
}

double
ProgrammableDraw::DrawCapacity(const Scenario& sc, std::mt19937_64& rng)
{
    const ScenarioPlanner& pl = sc.planner;
    return static_cast<double>(pl.capacityMinBps) +
           Uniform(rng) * static_cast<double>(pl.capacityMaxBps - pl.capacityMinBps);
}

} // namespace ns3
