/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "myp-program.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(MypProgram);

TypeId
MypProgram::GetTypeId()
{
    static TypeId tid = TypeId("ns3::MypProgram")
                            .SetParent<PoolProgram>()
                            .SetGroupName("Myp")
                            .AddConstructor<MypProgram>();
    return tid;
}

MypProgram::MypProgram()
    : PoolProgram(MYP_PROTOCOL, "myp", "ack", {})
{
    UseFcfsPool(&m_pool);
}

ResourceDemand
MypProgram::Demand(uint32_t poolSize, const PipelineLimits& limits) const
{
    return PoolDemand(poolSize, limits, 32, true);
}

void
MypProgram::InitializePool()
{
    m_pool.Bind(ResolvePoolRegisters(true));
}

void
MypProgram::DoProcess(InaPacket* p, PipelinePass& pass)
{
    const JobConfig* job = nullptr;
    FcfsAggregatorPool::Result collision{COLLISION};
    if (ProcessFcfs(p, pass, m_pool, &job, &collision))
    {
        // The one change from AtpProgram: a colliding fragment goes nowhere.
        CountReason(COLLISION);
        Consume(p);
    }
}

} // namespace ns3
