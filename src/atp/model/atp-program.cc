/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "atp-program.h"

#include "ns3/log.h"
#include "ns3/value-lanes.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AtpProgram");
NS_OBJECT_ENSURE_REGISTERED(AtpProgram);

TypeId
AtpProgram::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtpProgram")
                            .SetParent<PoolProgram>()
                            .SetGroupName("Atp")
                            .AddConstructor<AtpProgram>();
    return tid;
}

AtpProgram::AtpProgram()
    : PoolProgram(ATP_PROTOCOL, "atp", "ack", {})
{
    NS_LOG_FUNCTION(this);
    UseFcfsPool(&m_pool);
}

ResourceDemand
AtpProgram::Demand(uint32_t poolSize, const PipelineLimits& limits) const
{
    return PoolDemand(poolSize, limits, 32, true);
}

void
AtpProgram::DoResetState()
{
    PoolProgram::DoResetState();
    m_pool.ForgetHeld();
}

void
AtpProgram::InitializePool()
{
    m_pool.Bind(ResolvePoolRegisters(true));
}

uint32_t
AtpProgram::ReadId(uint32_t index) const
{
    return static_cast<uint32_t>(m_pool.GetRegisters().id->ControlRead(ControlIndex(index)));
}

uint32_t
AtpProgram::ReadBitmap(uint32_t index) const
{
    return static_cast<uint32_t>(m_pool.GetRegisters().bitmap->ControlRead(ControlIndex(index)));
}

uint32_t
AtpProgram::ReadCounter(uint32_t index) const
{
    return static_cast<uint32_t>(m_pool.GetRegisters().counter->ControlRead(ControlIndex(index)));
}

bool
AtpProgram::ReadEcn(uint32_t index) const
{
    return m_pool.GetRegisters().ecn->ControlRead(ControlIndex(index)) != 0;
}

int32_t
AtpProgram::ReadValue(uint32_t index, uint32_t element) const
{
    if (element >= PoolHeader::VALUES)
    {
        throw std::out_of_range("element " + std::to_string(element) + " of a " +
                                std::to_string(PoolHeader::VALUES) + "-value aggregator");
    }
    const uint64_t cell =
        m_pool.GetRegisters().value->ControlRead(ControlIndex(index), element / 2);
    return (element & 1) != 0 ? ValueLanes::Hi(cell) : ValueLanes::Lo(cell);
}

void
AtpProgram::DoProcess(InaPacket* p, PipelinePass& pass)
{
    const JobConfig* job = nullptr;
    FcfsAggregatorPool::Result collision{COLLISION};
    if (ProcessFcfs(p, pass, m_pool, &job, &collision))
    {
        // ATP's fallback: unchanged, marked, on to the job's parameter server.
        p->Header<PoolHeader>()->flags |= PoolHeader::FLAG_COLLISION;
        Settle(p, collision);
    }
}

} // namespace ns3
