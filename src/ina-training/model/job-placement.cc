/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "job-placement.h"

#include "ns3/ina-split-mix.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{

/// The listed hosts, each existing and free, `count` of them.
std::vector<uint32_t>
PlaceExplicit(uint32_t count,
              const std::vector<uint32_t>& explicitHosts,
              uint32_t n,
              const std::vector<bool>& used)
{
    std::vector<uint32_t> chosen;
    for (uint32_t h : explicitHosts)
    {
        if (h >= n)
        {
            throw std::runtime_error("host " + std::to_string(h) +
                                     " does not exist (the "
                                     "topology has hosts 0.." +
                                     std::to_string(n - 1) + ")");
        }
        if (used[h] || std::count(chosen.begin(), chosen.end(), h) > 0)
        {
            throw std::runtime_error("host " + std::to_string(h) +
                                     " is already taken (by this or an earlier job)");
        }
        chosen.push_back(h);
    }
    if (chosen.size() != count)
    {
        throw std::runtime_error("the explicit placement lists " + std::to_string(chosen.size()) +
                                 " hosts for " + std::to_string(count));
    }
    return chosen;
}

/// `count` of the `free` hosts, one rack after another in turn, in host order.
std::vector<uint32_t>
PlaceSpread(uint32_t count, const std::vector<uint32_t>& free, const InaTopology& topology)
{
    std::map<uint32_t, std::vector<uint32_t>> byRack;
    for (uint32_t h : free)
    {
        byRack[topology.RackOf(h)].push_back(h);
    }
    std::vector<uint32_t> chosen;
    std::vector<std::size_t> next(byRack.size(), 0);
    while (chosen.size() < count)
    {
        std::size_t r = 0;
        for (auto& [rack, hosts] : byRack)
        {
            if (chosen.size() < count && next[r] < hosts.size())
            {
                chosen.push_back(hosts[next[r]++]);
            }
            ++r;
        }
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

/// `count` of the `free` hosts drawn by a seeded shuffle, in host order.
std::vector<uint32_t>
PlaceRandom(uint32_t count, std::vector<uint32_t> free, uint64_t seed)
{
    uint64_t state = seed ^ 0x5eedULL;
    for (std::size_t i = free.size() - 1; i > 0; --i)
    {
        std::size_t j = InaSplitMix64Next(state) % (i + 1);
        std::swap(free[i], free[j]);
    }
    std::vector<uint32_t> chosen(free.begin(), free.begin() + count);
    std::sort(chosen.begin(), chosen.end());
    return chosen;
}

} // namespace

std::vector<uint32_t>
JobPlacement::Place(Kind kind,
                    uint32_t count,
                    const std::vector<uint32_t>& explicitHosts,
                    const InaTopology& topology,
                    std::vector<bool>& used,
                    uint64_t seed)
{
    const uint32_t n = topology.GetNHosts();
    used.resize(n, false);
    std::vector<uint32_t> free;
    for (uint32_t h = 0; h < n; ++h)
    {
        if (!used[h])
        {
            free.push_back(h);
        }
    }
    std::vector<uint32_t> chosen;
    if (kind == Kind::EXPLICIT)
    {
        chosen = PlaceExplicit(count, explicitHosts, n, used);
    }
    else
    {
        if (free.size() < count)
        {
            throw std::runtime_error("needs " + std::to_string(count) + " hosts but only " +
                                     std::to_string(free.size()) + " of " + std::to_string(n) +
                                     " are free");
        }
        if (kind == Kind::PACKED)
        {
            chosen.assign(free.begin(), free.begin() + count);
        }
        else if (kind == Kind::SPREAD)
        {
            chosen = PlaceSpread(count, free, topology);
        }
        else
        {
            chosen = PlaceRandom(count, free, seed);
        }
    }
    for (uint32_t h : chosen)
    {
        used[h] = true;
    }
    return chosen;
}

} // namespace ns3
