/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_SPLIT_MIX_H
#define INA_SPLIT_MIX_H

// SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators", OOPSLA
// 2014; the constants of Vigna's splitmix64.c): the one hash every model that draws from a seed
// uses (flow ids, placements, shard servers, jitter, gradient values, sparse keys, planners). A
// fixed function of its input, identical on every platform and standard library, unlike
// std::hash or the <random> distributions, so runs stay byte-identical everywhere.

#include <cstdint>

namespace ns3
{

/// SplitMix64's output function of the state `x` (one step of the golden-ratio increment first).
inline uint64_t
InaSplitMix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/// The next number of the SplitMix64 stream whose state is `state`, which it advances.
inline uint64_t
InaSplitMix64Next(uint64_t& state)
{
    const uint64_t z = InaSplitMix64(state);
    state += 0x9e3779b97f4a7c15ULL;
    return z;
}

} // namespace ns3

#endif /* INA_SPLIT_MIX_H */
