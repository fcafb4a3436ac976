/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MYP_PROGRAM_H
#define MYP_PROGRAM_H

#include "ns3/fcfs-aggregator-pool.h"
#include "ns3/pool-program.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// The protocol number of "myp" (step 2). A protocol of the repository adds its number to
/// ina-protocol-numbers.h; this test keeps even that line in its own folder.
constexpr uint16_t MYP_PROTOCOL = 0x4d59;

/**
 * Step 3 of docs/architecture.md "How to add a protocol": a shared-pool switch program whose
 * switch drops a colliding fragment silently (ATP sends it on to the parameter server), so the
 * fragment is aggregated only when the worker resends it after its timeout.
 */
class MypProgram : public PoolProgram
{
  public:
    static TypeId GetTypeId();
    MypProgram();

  private:
    ResourceDemand Demand(uint32_t poolSize, const PipelineLimits& limits) const override;
    void InitializePool() override;
    void DoProcess(InaPacket* p, PipelinePass& pass) override;

    FcfsAggregatorPool m_pool;
};

} // namespace ns3

#endif /* MYP_PROGRAM_H */
