/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATP_QUANTIZER_H
#define ATP_QUANTIZER_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup atp
 * ATP's float <-> int32 conversion (atp.md 1.3): workers multiply every gradient by a fixed factor
 * (10^6 in ATP's code) and round to int32; switches and the parameter server add integers, the
 * switch lanes saturating at +-(2^31 - 1); workers divide the returned sum by the same factor. The
 * result is the sum, not the mean. ESA reuses it unchanged. Pure functions.
 *
 * Error bound: rounding to nearest moves each of the n contributions by at most 1 / (2f), so the
 * returned sum is within n / (2f) of the true sum, as long as nothing saturated; storing it as a
 * float adds at most 2^-24 of its magnitude, at most (n B + n / (2f)) 2^-24 for contributions
 * bounded by B.
 */
class AtpQuantizer
{
  public:
    static constexpr double DEFAULT_FACTOR = 1e6;     //!< ATP's code
    static constexpr int32_t SATURATION = 2147483647; //!< lanes saturate at +-this

    /**
     * out[i] = round(factor in[i]) as int32, saturated at +-SATURATION; NaN becomes 0.
     * \param in floats
     * \param count how many
     * \param factor f
     * \param out count int32
     * \return elements that were saturated or NaN (the overflow path ATP's code compiles out)
     */
    static uint32_t Quantize(const float* in, uint32_t count, double factor, int32_t* out);

    /**
     * out[i] = in[i] / factor, rounded to float.
     * \param in int32 sums
     * \param count how many
     * \param factor f
     * \param out count floats
     */
    static void Dequantize(const int32_t* in, uint32_t count, double factor, float* out);

    /**
     * The switch's lane addition: a + b saturated at +-SATURATION.
     * \param a one addend
     * \param b the other
     * \return the saturated sum
     */
    static int32_t SaturatingAdd(int32_t a, int32_t b)
    {
        const int64_t s = static_cast<int64_t>(a) + b;
        return s > SATURATION ? SATURATION
                              : (s < -SATURATION ? -SATURATION : static_cast<int32_t>(s));
    }

    /**
     * The largest |returned sum - true sum| of one element.
     * \param contributions n
     * \param factor f
     * \param maxAbs B, a bound on every contribution
     * \return n / (2f) + (n B + n / (2f)) 2^-24
     */
    static double Tolerance(uint32_t contributions, double factor, double maxAbs);
};

} // namespace ns3

#endif /* ATP_QUANTIZER_H */
