/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATP_PROGRAM_H
#define ATP_PROGRAM_H

#include "ns3/fcfs-aggregator-pool.h"
#include "ns3/pool-program.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup atp
 * The switch side of ATP (ATP paper, Section 3.2 and 3.3): one pool of aggregators shared by every
 * ATP job that aggregates at this switch (PoolProgram: the pool's size, the job table and the
 * level of each job), first come, first served (FcfsAggregatorPool, which describes the registers
 * and what each packet does to them); a fragment that finds its aggregator held by another
 * fragment is marked `collision` and forwarded, unchanged, to its job's parameter server.
 *
 * One program per switch serves every job (ATP jobs find it with Pipeline::GetProgram before
 * installing a new one). The "value" registers are ATP's P4-16 layout, one pass per packet; the
 * P4-14 code's second pass over a mirror row is not modelled. Pipeline::Install checks the pool
 * against the pipeline's SRAM, stateful ALUs and stages.
 *
 * A gradient packet is aggregated at the level this switch aggregates for its job (PoolProgram::
 * Gate: level 1, edgeSwitchIdentifier 0 and the group's bitmap1; level 2, edgeSwitchIdentifier 1);
 * a complete aggregate goes on to the parameter server and its aggregator stays held until the
 * parameter packet comes back, frees it and goes on to the multicast group. A level-2 switch
 * passes packets with edgeSwitchIdentifier 0 (collided at level 1, or partial flushes) to the PS
 * untouched.
 */
class AtpProgram : public PoolProgram
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AtpProgram();

    /// \name Control-plane reads (tests, reports)
    /// @{
    uint32_t ReadId(uint32_t index) const;
    uint32_t ReadBitmap(uint32_t index) const;
    uint32_t ReadCounter(uint32_t index) const;
    bool ReadEcn(uint32_t index) const;
    int32_t ReadValue(uint32_t index, uint32_t element) const;
    /// @}

  private:
    ResourceDemand Demand(uint32_t poolSize, const PipelineLimits& limits) const override;
    void InitializePool() override;
    void DoResetState() override;
    void DoProcess(InaPacket* p, PipelinePass& pass) override;

    FcfsAggregatorPool m_pool; //!< the aggregators
};

} // namespace ns3

#endif /* ATP_PROGRAM_H */
