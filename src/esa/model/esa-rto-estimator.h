/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_RTO_ESTIMATOR_H
#define ESA_RTO_ESTIMATOR_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup esa
 * ESA's reminder timeout, "TCP-style" with a floor RTO_min (ESA paper, Section 6; 1 ms there).
 * The paper cites TCP's timeout without details; this is RFC 6298 (spec B4.2):
 * - the first sample R sets SRTT = R, RTTVAR = R / 2;
 * - later samples: RTTVAR = (3 RTTVAR + |SRTT - R|) / 4, then SRTT = (7 SRTT + R) / 8;
 * - RTO = max(RTO_min, SRTT + 4 RTTVAR), at most RTO_max (a sample above RTO_max counts as
 *   RTO_max: it could not raise the RTO further);
 * - before the first sample RTO is the initial value (at least RTO_min);
 * - every expiry doubles the RTO (at most RTO_max) until the next sample recomputes it (spec B7.13:
 *   back-off against reminder storms).
 * What a sample is belongs to the user: a worker measures from sending a fragment to receiving its
 * result, a parameter server from creating an entry to completing it.
 *
 * Integer time steps (picoseconds in inasim), divisions truncating, so runs are exact and tests
 * can be computed by hand. Pure logic; no ns-3 types.
 */
class EsaRtoEstimator
{
  public:
    /// The largest RTO_max: samples are capped at RTO_max, so 8 RTO_max must fit int64.
    static constexpr int64_t MAX_RTO = INT64_MAX / 8;

    /**
     * Throws std::invalid_argument unless 0 < minRto <= maxRto <= MAX_RTO (initial is raised to
     * minRto and capped at maxRto). \param minRto RTO_min \param initialRto the RTO before the
     * first sample \param maxRto the ceiling of the RTO and of its back-off
     */
    EsaRtoEstimator(int64_t minRto, int64_t initialRto, int64_t maxRto);

    /**
     * Take an RTT sample. Negative samples are refused (std::invalid_argument): a clock that runs
     * backwards is a bug in the caller.
     * \param rtt the sample
     */
    void Sample(int64_t rtt);

    /// A timeout expired: double the RTO (at most RTO_max) until the next sample.
    void Backoff();

    /// \return the current RTO
    int64_t GetRto() const
    {
        return m_rto;
    }

    /// \return SRTT (0 before the first sample)
    int64_t GetSrtt() const
    {
        return m_srtt;
    }

    /// \return RTTVAR (0 before the first sample)
    int64_t GetRttvar() const
    {
        return m_rttvar;
    }

    /// \return samples taken
    uint64_t GetSamples() const
    {
        return m_samples;
    }

  private:
    /// RTO from SRTT and RTTVAR, within [min, max].
    void Recompute();

    int64_t m_min;          //!< RTO_min
    int64_t m_max;          //!< RTO_max
    int64_t m_srtt = 0;     //!< smoothed RTT
    int64_t m_rttvar = 0;   //!< RTT variation
    int64_t m_rto;          //!< current RTO (backed off)
    uint64_t m_samples = 0; //!< samples so far
};

} // namespace ns3

#endif /* ESA_RTO_ESTIMATOR_H */
