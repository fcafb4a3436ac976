/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROFILED_COMPUTE_MODEL_H
#define PROFILED_COMPUTE_MODEL_H

#include "compute-model.h"
#include "model-zoo.h"

namespace ns3
{

/**
 * \ingroup ina-training
 * The model zoo's per-layer times, unaffected by communication (a GPU whose compute never competes
 * with its NCCL or agent threads), optionally scaled.
 */
class ProfiledComputeModel : public ComputeModel
{
  public:
    static TypeId GetTypeId();
    ProfiledComputeModel();

    void SetModel(const ModelSpec& model);
    const ModelSpec& GetModel() const;
    Time ForwardTime(uint32_t layer, uint32_t iteration) override;
    Time BackwardTime(uint32_t layer, uint32_t iteration) override;

  private:
    ModelSpec m_model;
    double m_scale;
};

} // namespace ns3

#endif /* PROFILED_COMPUTE_MODEL_H */
