/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gradient-values.h"

#include "ns3/ina-split-mix.h"

namespace ns3
{

float
GradientValues::Value(uint64_t seed, uint64_t tensorId, uint32_t worker, uint64_t index)
{
    uint64_t h = InaSplitMix64(InaSplitMix64(InaSplitMix64(seed) ^ tensorId) ^
                               (static_cast<uint64_t>(worker) << 40 ^ index));
    // 13 bits: an integer in [-4096, 4096], scaled by 2^-12 into [-1, 1]; exact in a float.
    int64_t k = static_cast<int64_t>(h % 8193) - 4096;
    return static_cast<float>(k) * static_cast<float>(RANGE / 4096.0);
}

void
GradientValues::Fill(uint64_t seed,
                     uint64_t tensorId,
                     uint32_t worker,
                     uint64_t count,
                     std::vector<float>& out)
{
    out.resize(count);
    for (uint64_t i = 0; i < count; ++i)
    {
        out[i] = Value(seed, tensorId, worker, i);
    }
}

double
GradientValues::TrueSum(uint64_t seed, uint64_t tensorId, uint32_t workers, uint64_t index)
{
    double s = 0;
    for (uint32_t w = 0; w < workers; ++w)
    {
        s += Value(seed, tensorId, w, index);
    }
    return s;
}

} // namespace ns3
