/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TIME_RESOLUTION_H
#define INA_TIME_RESOLUTION_H

#include "ns3/nstime.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The time base of inasim's models: they count ns-3 time steps (Time::GetTimeStep, TimeStep) as
 * picoseconds, because at 100 Gb/s a byte serializes in 80 ps and a 182-byte packet in 14.56 ns,
 * which no coarser unit holds exactly. On any other resolution the models' delays would not be
 * rounded by a few percent but scaled by the ratio of the units (1000 with nanoseconds), so they
 * refuse to run on it rather than warn.
 *
 * Nothing here sets the resolution: a program chooses it, with
 * InaFabricHelper::ConfigureSimulator() (or Time::SetResolution(Time::PS)) at the start of main().
 */
class InaTimeResolution
{
  public:
    /// The unit inasim's models take a time step to be.
    static constexpr Time::Unit UNIT = Time::PS;

    /// True if the simulator's time steps are picoseconds.
    static bool IsPicoseconds();

    /**
     * Throws std::logic_error unless IsPicoseconds(): the message names `who` (the object or call
     * that needs picoseconds), the resolution in use, and what to call to fix it.
     */
    static void Require(const std::string& who);
};

} // namespace ns3

#endif /* INA_TIME_RESOLUTION_H */
