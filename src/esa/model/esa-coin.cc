/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-coin.h"

#include <cmath>

namespace ns3
{

EsaCoin::EsaCoin(uint64_t seed, double probability)
    : m_state(seed)
{
    // NaN counts as 0: a coin that never preempts is the safe reading of a broken value.
    m_probability = probability >= 1 ? 1.0 : (probability > 0 ? probability : 0.0);
    m_always = m_probability >= 1;
    // p 2^64 rounded down; 2^64 itself does not fit, hence m_always.
    m_threshold = m_always ? 0 : static_cast<uint64_t>(std::ldexp(m_probability, 64));
}

uint64_t
EsaCoin::Next()
{
    uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

bool
EsaCoin::Flip()
{
    const uint64_t r = Next();
    return m_always || r < m_threshold;
}

} // namespace ns3
