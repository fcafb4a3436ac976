/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef THREAD_ALLOC_PLAN_H
#define THREAD_ALLOC_PLAN_H

#include "gpu-contention-model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * A tensor-fusion plan with a communication thread count per group: what LIBRA's Algorithm 1
 * returns (X and Y) and what the baselines use. Layers are indexed in backward order (0 = the
 * first gradient ready, i.e. the model's last layer); groups are consecutive, non-empty and
 * cover every layer once.
 */
class ThreadAllocPlan
{
  public:
    /// Layers first..last (backward order, inclusive) fused into one all-reduce with r threads.
    struct Group
    {
        uint32_t firstLayer; //!< first layer of the group, backward order
        uint32_t lastLayer;  //!< last layer of the group, backward order (inclusive)
        uint32_t threads;    //!< communication threads r of the group's all-reduce
    };

    ThreadAllocPlan() = default;

    /**
     * \param groups the groups in backward order
     * \param layerCount the model's layers
     * \throws std::invalid_argument unless the groups are non-empty, consecutive, cover
     *   0..layerCount-1 exactly and have threads > 0
     */
    ThreadAllocPlan(std::vector<Group> groups, size_t layerCount);

    /**
     * \param layerCount the model's layers (> 0)
     * \param threads r
     * \return one group of every layer (SE's plan)
     */
    static ThreadAllocPlan SingleGroup(size_t layerCount, uint32_t threads);

    /// \return the groups in backward order
    const std::vector<Group>& GetGroups() const;

    /// \return the number of groups
    size_t GetGroupCount() const;

    /// \return the same fusion with every group's thread count set to r
    ThreadAllocPlan WithThreads(uint32_t threads) const;

    /**
     * \param layers the model's layers in backward order (as many as the plan covers)
     * \return the groups as the recurrences see them: summed computation and bytes, threads
     * \throws std::invalid_argument if the layer count differs from the plan's
     */
    std::vector<GpuContentionModel::Task> Tasks(
        const std::vector<GpuContentionModel::Layer>& layers) const;

    /// \return the thread counts joined by ';' ("512;2048")
    std::string ThreadsString() const;

    /// \return the layer ranges joined by ';' ("0-2;3-15", backward order)
    std::string LayersString() const;

  private:
    std::vector<Group> m_groups;
    size_t m_layerCount{0};
};

} // namespace ns3

#endif /* THREAD_ALLOC_PLAN_H */
