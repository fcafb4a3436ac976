/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROGRAMMABLE_DRAW_H
#define PROGRAMMABLE_DRAW_H

#include "ns3/ina-topology.h"
#include "ns3/scenario.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * Which switches of a scenario can aggregate under `planner.programmable`, drawn the same way at
 * both levels: the planner level (PlannerLevelRunner) and the packet level (ScenarioRunner, which
 * hands the set to the protocols that take a set of switches, `ProgrammableSwitches`), so that one
 * seed gives one set, as the GRID paper's scenario (b) needs at either level.
 */
class ProgrammableDraw
{
  public:
    /**
     * The generator of the planner's draws (the random set first, then the capacities) for a
     * scenario seed. std::mt19937_64's sequence is fixed by the standard; the constant keeps it
     * apart from the other streams drawn from the same seed.
     * \param seed the scenario's seed
     * \return the generator
     */
    static std::mt19937_64 Generator(uint64_t seed);

    /**
     * \param rng a generator
     * \return uniform on [0, 1) from the top 53 bits: the same sequence on every platform
     */
    static double Uniform(std::mt19937_64& rng);

    /**
     * \param tier a switch's tier
     * \param tiers switch.ina_tiers
     * \return whether the tier is listed (`tor` and `leaf` name the same tier)
     */
    static bool InTiers(const std::string& tier, const std::vector<std::string>& tiers);

    /**
     * \param sc the scenario
     * \param topo its topology
     * \param rng the generator (Generator(sc.seed), nothing drawn from it before)
     * \return the programmable switches in node order: those of switch.ina_tiers
     *         (planner.programmable: tiers), or a random planner.fraction of all switches, at
     *         least one (random)
     */
    static std::vector<uint32_t> Choose(const Scenario& sc,
                                        const InaTopology& topo,
                                        std::mt19937_64& rng);

    /**
     * \param sc the scenario
     * \return whether planner.capacity_min/capacity_max draw every programmable switch's C_s
     *         (the GRID paper's Sec. 6.3: uniform in [100 Gb/s, 3.2 Tb/s]); a range that is not
     *         0 < capacity_min <= capacity_max throws the scenario's error naming
     *         planner.capacity_max
     */
    static bool DrawsCapacities(const Scenario& sc);

    /**
     * \param sc the scenario (DrawsCapacities true)
     * \param rng the generator, after Choose and the capacities of the switches before this one
     *        in Choose's order
     * \return the next switch's C_s in b/s, uniform in [capacity_min, capacity_max]
     */
    static double DrawCapacity(const Scenario& sc, std::mt19937_64& rng);
};

} // namespace ns3

#endif /* PROGRAMMABLE_DRAW_H */
