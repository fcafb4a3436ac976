/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_SIZED_PROGRAM_H
#define POOL_SIZED_PROGRAM_H

#include "ns3/switch-program.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * A switch program whose registers are a pool of PoolSize aggregators (SwitchML's slots, the
 * shared pools of ATP, ESA and GRID): the concrete program writes one function, its
 * ResourceDemand for a pool size on a pipeline (Demand), and this class declares its resources
 * from it and finds the largest pool a pipeline holds (PoolSizing), once for every such program.
 *
 * Not an ns-3 type of its own (no TypeId, no Attributes): each concrete program's TypeId names
 * SwitchProgram or its own base as parent and binds its PoolSize Attribute to m_poolSize.
 */
class PoolSizedProgram : public SwitchProgram
{
  public:
    /// The registers and tables of Demand(PoolSize, the pipeline this program is laid out for).
    void DeclareResources(ResourceDemand& demand) const final;

    /**
     * \param limits a pipeline
     * \return the largest PoolSize whose registers fit that pipeline when nothing else is
     *         installed (0 if not even one aggregator fits)
     */
    uint32_t GetMaxPoolSize(const PipelineLimits& limits) const;

  protected:
    /// \param maxPoolSize the largest pool the program accepts (its PoolSize Attribute's ceiling)
    explicit PoolSizedProgram(uint32_t maxPoolSize);

    /**
     * \param poolSize aggregators
     * \param limits the pipeline
     * \return the program's registers and tables for a pool of that size
     */
    virtual ResourceDemand Demand(uint32_t poolSize, const PipelineLimits& limits) const = 0;

    uint32_t m_poolSize = 0; //!< aggregators: the concrete program's PoolSize Attribute

  private:
    const uint32_t m_maxPoolSize; //!< GetMaxPoolSize's ceiling
};

} // namespace ns3

#endif /* POOL_SIZED_PROGRAM_H */
