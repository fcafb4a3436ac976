/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atp-quantizer.h"

#include <cmath>

namespace ns3
{

uint32_t
AtpQuantizer::Quantize(const float* in, uint32_t count, double factor, int32_t* out)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < count; ++i)
    {
        const double x = std::nearbyint(static_cast<double>(in[i]) * factor);
        if (std::isnan(x))
        {
            out[i] = 0;
            ++bad;
        }
        else if (x > SATURATION || x < -SATURATION)
        {
            out[i] = x > 0 ? SATURATION : -SATURATION;
            ++bad;
        }
        else
        {
            out[i] = static_cast<int32_t>(x);
        }
    }
    return bad;
}

void
AtpQuantizer::Dequantize(const int32_t* in, uint32_t count, double factor, float* out)
{
    for (uint32_t i = 0; i < count; ++i)
    {
        out[i] = static_cast<float>(static_cast<double>(in[i]) / factor);
    }
}

double
AtpQuantizer::Tolerance(uint32_t contributions, double factor, double maxAbs)
{
    const double n = contributions == 0 ? 1 : contributions;
    const double rounding = n / (2 * factor);
    return rounding + (n * maxAbs + rounding) * std::ldexp(1.0, -24);
}

} // namespace ns3
