/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pool-sized-program.h"

#include "pool-sizing.h"

namespace ns3
{

PoolSizedProgram::PoolSizedProgram(uint32_t maxPoolSize)
    : m_maxPoolSize(maxPoolSize)
{
}

void
PoolSizedProgram::DeclareResources(ResourceDemand& demand) const
{
    PoolSizing::Declare(
        [this](uint32_t s, const PipelineLimits& l) {
            return Demand(s, l);
        },
        m_poolSize,
        GetPipelineLimits(),
        demand);
}

uint32_t
PoolSizedProgram::GetMaxPoolSize(const PipelineLimits& limits) const
{
    return PoolSizing::LargestFitting(
        [this](uint32_t s, const PipelineLimits& l) {
            return Demand(s, l);
        },
        limits,
        m_maxPoolSize);
}

} // namespace ns3
