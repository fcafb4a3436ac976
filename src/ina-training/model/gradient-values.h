/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRADIENT_VALUES_H
#define GRADIENT_VALUES_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * The gradient values of check_values mode, as a pure function of (seed, tensor, worker, index):
 * any worker can make its own, and the checker can recompute every worker's value to build the true
 * sum, in double precision, without anyone storing all of them.
 *
 * Values are uniform in [-Range, Range] on a grid of 2^-12 (so the quantized protocols' integer
 * conversions are exercised with fractional values, not only integers).
 */
class GradientValues
{
  public:
    static constexpr double RANGE = 1.0;

    static float Value(uint64_t seed, uint64_t tensorId, uint32_t worker, uint64_t index);
    /// Fill `out` with `count` values of this worker's tensor.
    static void Fill(uint64_t seed,
                     uint64_t tensorId,
                     uint32_t worker,
                     uint64_t count,
                     std::vector<float>& out);
    /// The exact sum over workers 0..workers-1 of element `index` (double precision).
    static double TrueSum(uint64_t seed, uint64_t tensorId, uint32_t workers, uint64_t index);
};

} // namespace ns3

#endif /* GRADIENT_VALUES_H */
