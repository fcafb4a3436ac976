/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "profiled-compute-model.h"

#include "ns3/double.h"

#include <cmath>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ProfiledComputeModel);

TypeId
ProfiledComputeModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ProfiledComputeModel")
            .SetParent<ComputeModel>()
            .SetGroupName("InaTraining")
            .AddConstructor<ProfiledComputeModel>()
            .AddAttribute("Scale",
                          "Multiply every profiled time (e.g. 0.5 for a GPU twice as fast).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&ProfiledComputeModel::m_scale),
                          MakeDoubleChecker<double>(0.0));
    return tid;
}

ProfiledComputeModel::ProfiledComputeModel() = default;

void
ProfiledComputeModel::SetModel(const ModelSpec& model)
{
    m_model = model;
}

const ModelSpec&
ProfiledComputeModel::GetModel() const
{
    return m_model;
}

Time
ProfiledComputeModel::ForwardTime(uint32_t layer, uint32_t iteration)
{
    return TimeStep(std::llround(m_model.layers.at(layer).forwardPs * m_scale));
}

Time
ProfiledComputeModel::BackwardTime(uint32_t layer, uint32_t iteration)
{
    return TimeStep(std::llround(m_model.layers.at(layer).backwardPs * m_scale));
}

} // namespace ns3
