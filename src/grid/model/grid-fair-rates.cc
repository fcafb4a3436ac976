/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-fair-rates.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// Levels within this relative distance of the lowest fill together (rounding of C / k sums).
constexpr double kRelTol = 1e-12;

void
Check(const std::vector<double>& capacityBps, const std::vector<GridFairRates::Job>& jobs)
{
    for (std::size_t r = 0; r < capacityBps.size(); ++r)
    {
        if (!(capacityBps[r] >= 0) || !std::isfinite(capacityBps[r]))
        {
            throw std::invalid_argument("GridFairRates: resource " + std::to_string(r) +
                                        " has capacity " + std::to_string(capacityBps[r]) +
                                        ": expected a finite value >= 0");
        }
    }
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        if (!(jobs[j].ceilingBps >= 0) || !std::isfinite(jobs[j].ceilingBps))
        {
            throw std::invalid_argument("GridFairRates: job " + std::to_string(j) +
                                        " has ceiling " + std::to_string(jobs[j].ceilingBps) +
                                        ": expected a finite value >= 0");
        }
        for (const auto& [r, c] : jobs[j].uses)
        {
            if (r >= capacityBps.size() || !(c > 0) || !std::isfinite(c))
            {
                throw std::invalid_argument(
                    "GridFairRates: job " + std::to_string(j) + " uses resource " +
                    std::to_string(r) + " with coefficient " + std::to_string(c) +
                    ": expected one of " + std::to_string(capacityBps.size()) +
                    " resources and a finite coefficient > 0");
            }
        }
    }
}

} // namespace

std::vector<double>
GridFairRates::Solve(const std::vector<double>& capacityBps, const std::vector<Job>& jobs)
{
    Check(capacityBps, jobs);
    const std::size_t n = jobs.size();
    std::vector<double> rate(n, 0.0);
    std::vector<bool> fixed(n, false);
    std::vector<double> used(capacityBps.size(), 0.0); // by fixed jobs
    std::size_t left = n;
    while (left > 0)
    {
        // Coefficient sums of the jobs still rising, and the level where each resource fills.
        std::vector<double> rising(capacityBps.size(), 0.0);
        double level = std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < n; ++j)
        {
            if (!fixed[j])
            {
                level = std::min(level, jobs[j].ceilingBps);
                for (const auto& [r, c] : jobs[j].uses)
                {
                    rising[r] += c;
                }
            }
        }
        std::vector<double> fill(capacityBps.size(), std::numeric_limits<double>::infinity());
        for (std::size_t r = 0; r < capacityBps.size(); ++r)
        {
            if (rising[r] > 0)
            {
                fill[r] = std::max(0.0, capacityBps[r] - used[r]) / rising[r];
                level = std::min(level, fill[r]);
            }
        }
        // Fix every rising job that meets its ceiling or uses a resource full at this level.
        for (std::size_t j = 0; j < n; ++j)
        {
            if (fixed[j])
            {
                continue;
            }
            bool stops = jobs[j].ceilingBps <= level * (1 + kRelTol);
            for (const auto& [r, c] : jobs[j].uses)
            {
                stops = stops || fill[r] <= level * (1 + kRelTol);
            }
            if (stops)
            {
                fixed[j] = true;
                rate[j] = level;
                --left;
                for (const auto& [r, c] : jobs[j].uses)
                {
                    used[r] += c * level;
                }
            }
        }
    }
    return rate;
}

} // namespace ns3
