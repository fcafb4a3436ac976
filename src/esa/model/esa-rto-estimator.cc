/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-rto-estimator.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

EsaRtoEstimator::EsaRtoEstimator(int64_t minRto, int64_t initialRto, int64_t maxRto)
    : m_min(minRto)
    , m_max(maxRto)
{
    if (minRto <= 0 || maxRto < minRto || maxRto > MAX_RTO)
    {
        throw std::invalid_argument(
            "ESA reminder timeout: RTO_min " + std::to_string(minRto) + " and RTO_max " +
            std::to_string(maxRto) +
            " time steps; expected 0 < RTO_min <= RTO_max <= " + std::to_string(MAX_RTO));
    }
    m_rto = std::clamp(initialRto, m_min, m_max);
}

void
EsaRtoEstimator::Sample(int64_t rtt)
{
    if (rtt < 0)
    {
        throw std::invalid_argument("ESA reminder timeout: a negative RTT sample (" +
                                    std::to_string(rtt) + " time steps)");
    }
    // A sample beyond the ceiling cannot change the RTO; capping it keeps the sums in range.
    rtt = std::min(rtt, m_max);
    if (m_samples++ == 0)
    {
        m_srtt = rtt;
        m_rttvar = rtt / 2;
    }
    else
    {
        const int64_t err = m_srtt > rtt ? m_srtt - rtt : rtt - m_srtt;
        m_rttvar = (3 * m_rttvar + err) / 4;
        m_srtt = (7 * m_srtt + rtt) / 8;
    }
    Recompute();
}

void
EsaRtoEstimator::Backoff()
{
    m_rto = m_rto > m_max / 2 ? m_max : 2 * m_rto;
}

void
EsaRtoEstimator::Recompute()
{
    m_rto = std::clamp(m_srtt + 4 * m_rttvar, m_min, m_max);
}

} // namespace ns3
