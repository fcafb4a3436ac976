/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_ML_QUANTIZER_H
#define SWITCH_ML_QUANTIZER_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup switchml
 * SwitchML's float <-> int32 conversion on the workers (the switch adds integers only), in the
 * two forms the simulator supports, and the error bounds the value check uses. Pure functions.
 *
 * Global factor (the 2019 paper, Appendix C). Every worker sends q = rho(f g) for each gradient
 * element g, the switch returns A = sum of q over the n workers, the worker reads A / f. With
 * rho = round to nearest, |q - f g| <= 1/2, hence
 *     |A / f - sum g| <= n / (2 f)                                            (Theorem 1)
 * (the paper's n / f is for any rounding direction). No sum overflows int32 when every
 * |g| <= B and f <= (2^31 - 1 - n) / (n B): then |q| <= f B + 1/2 and
 * |A| <= n f B + n / 2 <= 2^31 - 1 - n / 2                                    (Theorem 2)
 * GlobalFactor() returns that largest f, and the error bound becomes n^2 B / (2 (2^31 - 1 - n)).
 *
 * Block exponent (NSDI'21 code). Per block (one packet's chunk) each worker announces
 * e = the binary exponent of its largest |g| (max|g| = m 2^e, 1/2 <= m < 1, so max|g| < 2^e);
 * the switch keeps the maximum emax; every worker then scales the block by
 *     F = (2^31 - 1 - n) / (n 2^emax),
 * so |F g| < (2^31 - 1 - n) / n and the sum cannot overflow, as above. The error is n / (2F) per
 * element, and since 2^emax <= 2 B for values bounded by B, at most n^2 B / (2^31 - 1 - n).
 *
 * Both forms then store A / F as a float, which rounds by at most 2^-24 of |A / F|, and the
 * scaling itself is done in double (relative error 2^-53). Tolerance() adds those terms.
 */
class SwitchMlQuantizer
{
  public:
    /// BlockExponent() of an all-zero block: below the exponent of every non-zero float (>= -148),
    /// so it never raises the maximum, and F stays finite.
    static constexpr int16_t EXP_ZERO = -149;

    /**
     * The paper's scaling factor for `workers` contributions bounded by `maxAbs` (Theorem 2,
     * for rounding to nearest). Throws std::invalid_argument unless workers >= 1 and maxAbs is
     * finite and positive.
     * \param workers n
     * \param maxAbs B
     * \return f = (2^31 - 1 - n) / (n B)
     */
    static double GlobalFactor(uint32_t workers, double maxAbs);

    /**
     * \param values a block
     * \param count its length (0 allowed)
     * \return the exponent e with max|v| = m 2^e, 1/2 <= m < 1; EXP_ZERO when every value is 0.
     *         A NaN or infinite value gives 128 (beyond every finite float).
     */
    static int16_t BlockExponent(const float* values, uint32_t count);

    /**
     * \param workers n
     * \param maxExponent the block's agreed exponent (the maximum over the workers)
     * \return F = (2^31 - 1 - n) / (n 2^maxExponent)
     */
    static double BlockFactor(uint32_t workers, int16_t maxExponent);

    /**
     * out[i] = rho(factor * in[i]) as int32. A product outside the int32 range wraps modulo 2^32
     * like the switch's adders (no silent saturation) and is counted; NaN becomes 0 and counts.
     * \param in floats
     * \param count how many
     * \param factor f or F
     * \param out count int32
     * \return the number of elements that did not fit int32
     */
    static uint32_t Quantize(const float* in, uint32_t count, double factor, int32_t* out);

    /**
     * out[i] = in[i] / factor, rounded to float.
     * \param in int32 sums
     * \param count how many
     * \param factor f or F
     * \param out count floats
     */
    static void Dequantize(const int32_t* in, uint32_t count, double factor, float* out);

    /**
     * The float16 value nearest to x (IEEE 754 binary16, ties to even), as a float: what a worker
     * puts on the wire with float16 (paper, Section 3.7), and what the switch's conversion of an
     * aggregate back to float16 returns. Beyond the largest half (65504) it is +-infinity; NaN
     * stays NaN; below 2^-14 the step is 2^-24 (subnormals).
     */
    static float ToHalf(float x);

    /**
     * What float16 on the wire adds to GlobalTolerance: each of n contributions rounded to half
     * (at most B 2^-11 each) and the aggregate rounded to half on its way back (at most
     * n B 2^-11), plus a subnormal step for each.
     * \param workers n
     * \param maxAbs B, the bound on every contribution
     */
    static double HalfTolerance(uint32_t workers, double maxAbs);

    /**
     * The largest |returned sum - true sum| of one element with the global factor.
     * \param workers n
     * \param factor f
     * \param maxAbs B, the bound on every contribution
     * \return n / (2f) plus the float rounding of the result
     */
    static double GlobalTolerance(uint32_t workers, double factor, double maxAbs);

    /**
     * The largest |returned sum - true sum| of one element with block exponents.
     * \param workers n
     * \param maxAbs B, the bound on every contribution
     * \return n^2 B / (2^31 - 1 - n) plus the float rounding of the result
     */
    static double BlockTolerance(uint32_t workers, double maxAbs);
};

} // namespace ns3

#endif /* SWITCH_ML_QUANTIZER_H */
