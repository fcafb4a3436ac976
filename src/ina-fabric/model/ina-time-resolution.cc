/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-time-resolution.h"

#include <stdexcept>

namespace ns3
{

namespace
{
std::string
UnitName(Time::Unit unit)
{
    switch (unit)
    {
    case Time::Y:
        return "Y";
    case Time::D:
        return "D";
    case Time::H:
        return "H";
    case Time::MIN:
        return "MIN";
    case Time::S:
        return "S";
    case Time::MS:
        return "MS";
    case Time::US:
        return "US";
    case Time::NS:
        return "NS";
    case Time::PS:
        return "PS";
    case Time::FS:
        return "FS";
    default:
        return "unit " + std::to_string(static_cast<int>(unit));
    }
}
} // namespace

bool
InaTimeResolution::IsPicoseconds()
{
    return Time::GetResolution() == UNIT;
}

void
InaTimeResolution::Require(const std::string& who)
{
    if (IsPicoseconds())
    {
        return;
    }
    throw std::logic_error(
        who + ": the simulator's time resolution is Time::" + UnitName(Time::GetResolution()) +
        ", but inasim's models count time steps as picoseconds (a 182-byte packet at 100 Gb/s "
        "takes 14.56 ns). Call InaFabricHelper::ConfigureSimulator() (or "
        "Time::SetResolution(Time::PS)) at the start of main(), instead of another "
        "Time::SetResolution() and before the first Simulator::Run()");
}

} // namespace ns3
