/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_COIN_H
#define ESA_COIN_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup esa
 * The switch's coin for the RANDOM (Straw2) policy: a deterministic splitmix64 stream from a
 * seed, so a run is reproducible (a Tofino has a random-number extern; its stream is not
 * specified). Probability p is compared in 64-bit fixed point: exactly 0 never and exactly 1
 * always preempts.
 */
class EsaCoin
{
  public:
    /**
     * \param seed the stream's seed
     * \param probability the chance of true per flip, in [0, 1] (clamped)
     */
    EsaCoin(uint64_t seed, double probability);

    /// \return true with the configured probability
    bool Flip();

    /// \return the raw 64-bit output of the next step (tests)
    uint64_t Next();

    /// \return the probability as configured (after clamping)
    double GetProbability() const
    {
        return m_probability;
    }

  private:
    uint64_t m_state;     //!< splitmix64 state
    double m_probability; //!< chance of true
    uint64_t m_threshold; //!< Next() < threshold is true (with m_always for p = 1)
    bool m_always;        //!< p = 1
};

} // namespace ns3

#endif /* ESA_COIN_H */
