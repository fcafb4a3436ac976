/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "thread-alloc-plan.h"

#include <stdexcept>

namespace ns3
{

ThreadAllocPlan::ThreadAllocPlan(std::vector<Group> groups, size_t layerCount)
    : m_groups(std::move(groups))
    , m_layerCount(layerCount)
{
    size_t next = 0;
    for (size_t g = 0; g < m_groups.size(); ++g)
    {
        const Group& group = m_groups[g];
        if (group.firstLayer != next || group.lastLayer < group.firstLayer ||
            group.lastLayer >= layerCount)
        {
            throw std::invalid_argument(
                "ThreadAllocPlan: group " + std::to_string(g) + " covers layers " +
                std::to_string(group.firstLayer) + "-" + std::to_string(group.lastLayer) +
                "; expected a non-empty range starting at layer " + std::to_string(next) +
                " and ending before layer " + std::to_string(layerCount));
        }
        if (group.threads == 0)
        {
            throw std::invalid_argument("ThreadAllocPlan: group " + std::to_string(g) +
                                        " has 0 threads");
        }
        next = group.lastLayer + 1;
    }
    if (next != layerCount)
    {
        throw std::invalid_argument("ThreadAllocPlan: the groups cover " + std::to_string(next) +
                                    " of " + std::to_string(layerCount) + " layers");
    }
}

ThreadAllocPlan
ThreadAllocPlan::SingleGroup(size_t layerCount, uint32_t threads)
{
    if (layerCount == 0)
    {
        throw std::invalid_argument("ThreadAllocPlan: a model needs at least one layer");
    }
    return ThreadAllocPlan({{0, static_cast<uint32_t>(layerCount - 1), threads}}, layerCount);
}

const std::vector<ThreadAllocPlan::Group>&
ThreadAllocPlan::GetGroups() const
{
    return m_groups;
}

size_t
ThreadAllocPlan::GetGroupCount() const
{
    return m_groups.size();
}

ThreadAllocPlan
ThreadAllocPlan::WithThreads(uint32_t threads) const
{
    std::vector<Group> groups = m_groups;
    for (auto& g : groups)
    {
        g.threads = threads;
    }
    return ThreadAllocPlan(std::move(groups), m_layerCount);
}

std::vector<GpuContentionModel::Task>
ThreadAllocPlan::Tasks(const std::vector<GpuContentionModel::Layer>& layers) const
{
    if (layers.size() != m_layerCount)
    {
        throw std::invalid_argument("ThreadAllocPlan: the plan covers " +
                                    std::to_string(m_layerCount) + " layers, the model has " +
                                    std::to_string(layers.size()));
    }
    std::vector<GpuContentionModel::Task> tasks;
    tasks.reserve(m_groups.size());
    for (const auto& g : m_groups)
    {
        GpuContentionModel::Task t{0, 0, g.threads};
        for (uint32_t l = g.firstLayer; l <= g.lastLayer; ++l)
        {
            t.computeS += layers[l].computeS;
            t.bytes += layers[l].bytes;
        }
        tasks.push_back(t);
    }
    return tasks;
}

std::string
ThreadAllocPlan::ThreadsString() const
{
    std::string out;
    for (const auto& g : m_groups)
    {
        out += (out.empty() ? "" : ";") + std::to_string(g.threads);
    }
    return out;
}

std::string
ThreadAllocPlan::LayersString() const
{
    std::string out;
    for (const auto& g : m_groups)
    {
        out += (out.empty() ? "" : ";") + std::to_string(g.firstLayer) + "-" +
               std::to_string(g.lastLayer);
    }
    return out;
}

} // namespace ns3
