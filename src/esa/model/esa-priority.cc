/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-priority.h"

#include "ns3/ina-number-text.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{
/// Nine significant digits, not six: two inputs that differ past the sixth must read apart.
std::string
Num(double v)
{
    return InaNumberText(v, 9);
}
} // namespace

double
EsaPriority::Raw(double timeS, uint32_t layers, uint32_t layer, double commOverComp)
{
    if (layers == 0)
    {
        throw std::invalid_argument("ESA priority: the job has 0 layers; expected L_j >= 1");
    }
    if (layer == 0 || layer > layers)
    {
        throw std::invalid_argument("ESA priority: layer " + std::to_string(layer) +
                                    " of a model with " + std::to_string(layers) +
                                    " layers; expected 1 (the front layer) to " +
                                    std::to_string(layers));
    }
    if (!(timeS >= 0))
    {
        throw std::invalid_argument("ESA priority: the job's time T_j is " + Num(timeS) +
                                    " s; expected a time >= 0");
    }
    if (!(commOverComp > 0) || !std::isfinite(commOverComp))
    {
        throw std::invalid_argument("ESA priority: the communication-to-computation ratio is " +
                                    Num(commOverComp) + "; expected a positive finite number");
    }
    if (timeS == 0)
    {
        return std::numeric_limits<double>::infinity();
    }
    return (1.0 / timeS) * (static_cast<double>(layers) / layer) * commOverComp;
}

uint8_t
EsaPriority::Pack(double raw, double scaleS, Clamp* clamp)
{
    if (!(raw >= 0))
    {
        throw std::invalid_argument("ESA priority: P is " + Num(raw) + "; expected P >= 0");
    }
    if (!(scaleS > 0) || !std::isfinite(scaleS))
    {
        throw std::invalid_argument("ESA priority: the scale is " + Num(scaleS) +
                                    " s; expected a positive finite time");
    }
    const double q = std::round(raw * scaleS);
    Clamp side = Clamp::NONE;
    uint8_t out;
    if (q < MIN)
    {
        side = Clamp::LOW;
        out = MIN;
    }
    else if (q > MAX)
    {
        side = Clamp::HIGH;
        out = MAX;
    }
    else
    {
        out = static_cast<uint8_t>(q);
    }
    if (clamp != nullptr)
    {
        *clamp = side;
    }
    return out;
}

uint8_t
EsaPriority::Compute(double timeS,
                     uint32_t layers,
                     uint32_t layer,
                     double commOverComp,
                     double scaleS,
                     Clamp* clamp)
{
    return Pack(Raw(timeS, layers, layer, commOverComp), scaleS, clamp);
}

double
EsaPriority::RemainingTime(double bytesLeft, double rateBps, double computeLeftS)
{
    if (!(rateBps > 0) || !std::isfinite(rateBps))
    {
        throw std::invalid_argument("ESA remaining time: the link rate is " + Num(rateBps) +
                                    " bit/s; expected a positive rate");
    }
    if (!(bytesLeft >= 0))
    {
        throw std::invalid_argument("ESA remaining time: " + Num(bytesLeft) +
                                    " bytes left; expected >= 0");
    }
    if (!(computeLeftS >= 0))
    {
        throw std::invalid_argument("ESA remaining time: " + Num(computeLeftS) +
                                    " s of computation left; expected >= 0");
    }
    return bytesLeft * 8.0 / rateBps + computeLeftS;
}

} // namespace ns3
