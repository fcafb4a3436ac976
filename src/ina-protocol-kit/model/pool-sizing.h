/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_SIZING_H
#define POOL_SIZING_H

#include "ns3/pipeline-resources.h"

#include <cstdint>
#include <functional>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * Resource declaration helpers for a program whose registers are a pool of `size` aggregators
 * (SwitchML's slots, the shared pools of ATP, ESA and GRID): the program writes one function,
 * its ResourceDemand for a pool size on a pipeline, and gets its declaration and its largest
 * pool from it.
 */
class PoolSizing
{
  public:
    /// A program's demand for a pool of the given size on the given pipeline.
    using DemandFn = std::function<ResourceDemand(uint32_t size, const PipelineLimits& limits)>;

    /**
     * SwitchProgram::DeclareResources of such a program: the register arrays and tables of
     * demand(size, limits), moved into `into`.
     * \param demand the program's demand
     * \param size its pool size
     * \param limits its pipeline
     * \param into what the pipeline will check
     */
    static void Declare(const DemandFn& demand,
                        uint32_t size,
                        const PipelineLimits& limits,
                        ResourceDemand& into);

    /**
     * The largest pool whose registers fit a pipeline with nothing else installed, by bisection
     * (the demand grows with the size).
     * \param demand the program's demand
     * \param limits the pipeline
     * \param ceiling the largest size the program accepts
     * \return that size, `ceiling` if it fits, 0 if not even one aggregator fits
     */
    static uint32_t LargestFitting(const DemandFn& demand,
                                   const PipelineLimits& limits,
                                   uint32_t ceiling);
};

} // namespace ns3

#endif /* POOL_SIZING_H */
