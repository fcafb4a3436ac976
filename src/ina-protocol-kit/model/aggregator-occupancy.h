/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATOR_OCCUPANCY_H
#define AGGREGATOR_OCCUPANCY_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * Aggregators held now and their peak, as SwitchProgram::GetAggregatorsInUse and
 * GetPeakAggregatorsInUse report them (summary.json's peak_aggregators_in_use, the time series'
 * aggregators_in_use).
 */
class AggregatorOccupancy
{
  public:
    /// An aggregator was taken.
    void Taken()
    {
        if (++m_inUse > m_peak)
        {
            m_peak = m_inUse;
        }
    }

    /// An aggregator was freed.
    void Freed()
    {
        --m_inUse;
    }

    /// Nothing held any more, peak kept (the switch lost its registers: SwitchProgram::ResetState).
    void AllFreed()
    {
        m_inUse = 0;
    }

    /// Nothing held, peak 0 (a program being installed).
    void Reset()
    {
        m_inUse = 0;
        m_peak = 0;
    }

    /// \return aggregators held now
    uint64_t InUse() const
    {
        return m_inUse;
    }

    /// \return their peak
    uint64_t Peak() const
    {
        return m_peak;
    }

  private:
    uint64_t m_inUse = 0; //!< held now
    uint64_t m_peak = 0;  //!< their peak
};

} // namespace ns3

#endif /* AGGREGATOR_OCCUPANCY_H */
