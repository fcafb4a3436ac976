/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-ml-quantizer.h"

#include "ns3/int32-quantizer.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{
constexpr double INT32_RANGE = 2147483647.0; // 2^31 - 1

/// (2^31 - 1 - n) / n: the largest |scaled value| each of n workers may send.
double
PerWorkerLimit(uint32_t workers)
{
    return (INT32_RANGE - workers) / workers;
}

/**
 * What the arithmetic adds to the quantization error `quant` (= n / (2F)) for a result of
 * magnitude at most n B + quant: the final rounding to float (half an ulp, <= 2^-24 relative), the
 * division in double (2^-53 relative), and the scaling F g in double, whose 2^-53 relative error
 * (< 2^-22 absolute, as |F g| < 2^31) may move a value across a rounding boundary: n 2^-22 / F per
 * element, which is quant 2^-21.
 */
double
RoundingSlack(uint32_t workers, double maxAbs, double quant)
{
    const double magnitude = workers * maxAbs + quant;
    return std::ldexp(magnitude, -24) + std::ldexp(magnitude, -52) + std::ldexp(quant, -20);
}
} // namespace

double
SwitchMlQuantizer::GlobalFactor(uint32_t workers, double maxAbs)
{
    if (workers == 0)
    {
        throw std::invalid_argument("SwitchML scaling factor: a job needs at least 1 worker");
    }
    if (!(maxAbs > 0) || !std::isfinite(maxAbs))
    {
        throw std::invalid_argument("SwitchML scaling factor: the gradient bound MaxAbsGradient "
                                    "must be a positive finite number, got " +
                                    std::to_string(maxAbs));
    }
    return PerWorkerLimit(workers) / maxAbs;
}

int16_t
SwitchMlQuantizer::BlockExponent(const float* values, uint32_t count)
{
    float m = 0;
    for (uint32_t i = 0; i < count; ++i)
    {
        const float a = std::fabs(values[i]);
        if (!(a <= m)) // NaN compares false: it wins, and frexp below is not asked about it
        {
            if (!std::isfinite(a))
            {
                return 128;
            }
            m = a;
        }
    }
    if (m == 0)
    {
        return EXP_ZERO;
    }
    int e = 0;
    std::frexp(m, &e);
    return static_cast<int16_t>(e);
}

double
SwitchMlQuantizer::BlockFactor(uint32_t workers, int16_t maxExponent)
{
    return std::ldexp(PerWorkerLimit(workers), -maxExponent);
}

uint32_t
SwitchMlQuantizer::Quantize(const float* in, uint32_t count, double factor, int32_t* out)
{
    uint32_t overflows = 0;
    for (uint32_t i = 0; i < count; ++i)
    {
        const double x = static_cast<double>(in[i]) * factor;
        if (x >= -2147483648.5 && x < 2147483647.5)
        {
            out[i] = static_cast<int32_t>(std::lrint(x));
            continue;
        }
        ++overflows;
        if (std::isnan(x))
        {
            out[i] = 0;
            continue;
        }
        // Keep lrint in its defined range, then wrap to 32 bits as the switch's adder would.
        const double clamped =
            std::fmax(-4611686018427387904.0, std::fmin(x, 4611686018427387904.0));
        const auto wide = static_cast<uint64_t>(static_cast<int64_t>(std::lrint(clamped)));
        out[i] = static_cast<int32_t>(static_cast<uint32_t>(wide));
    }
    return overflows;
}

void
SwitchMlQuantizer::Dequantize(const int32_t* in, uint32_t count, double factor, float* out)
{
    // The same division as the pool family's: one home for it in the kit.
    Int32Quantizer::Dequantize(in, count, factor, out);
}

double
SwitchMlQuantizer::GlobalTolerance(uint32_t workers, double factor, double maxAbs)
{
    const double quant = workers * 0.5 / factor;
    return quant + RoundingSlack(workers, maxAbs, quant);
}

double
SwitchMlQuantizer::BlockTolerance(uint32_t workers, double maxAbs)
{
    // F >= PerWorkerLimit / (2 maxAbs), so n / (2F) <= n maxAbs / PerWorkerLimit.
    const double quant = workers * maxAbs / PerWorkerLimit(workers);
    return quant + RoundingSlack(workers, maxAbs, quant);
}

float
SwitchMlQuantizer::ToHalf(float x)
{
    if (std::isnan(x))
    {
        return x;
    }
    const double ax = std::fabs(static_cast<double>(x));
    // 65504 is the largest half; from the midpoint to the next binade (65520) on it rounds up.
    if (ax >= 65520.0)
    {
        return std::copysign(std::numeric_limits<float>::infinity(), x);
    }
    // 11 significant bits in the normal range (from 2^-14), a fixed 2^-24 step below it.
    double step = std::ldexp(1.0, -24);
    if (ax >= std::ldexp(1.0, -14))
    {
        int e = 0;
        std::frexp(ax, &e); // ax = m 2^e, m in [0.5, 1)
        step = std::ldexp(1.0, e - 11);
    }
    // nearbyint rounds ties to even in the default rounding mode, as the conversion does.
    return static_cast<float>(std::copysign(std::nearbyint(ax / step) * step, x));
}

double
SwitchMlQuantizer::HalfTolerance(uint32_t workers, double maxAbs)
{
    const double halfUlp = std::ldexp(1.0, -11);
    const double subnormal = std::ldexp(1.0, -25);
    return workers * (maxAbs * halfUlp + subnormal) +
           (workers * maxAbs * (1 + halfUlp) * halfUlp + subnormal);
}

} // namespace ns3
