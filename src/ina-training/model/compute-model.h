/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COMPUTE_MODEL_H
#define COMPUTE_MODEL_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

class WorkerApp;

/**
 * \ingroup ina-training
 * How long a worker's GPU takes for one layer's forward or backward pass. The worker asks at the
 * moment the layer starts, so a model may look at what runs beside it: this is the seam where the
 * contention-aware GPU model of the second Libra paper plugs in (a layer slows down while the
 * host's communication kernels hold GPU threads).
 */
class ComputeModel : public Object
{
  public:
    static TypeId GetTypeId();

    /// Called once when the worker is set up.
    virtual void Attach(Ptr<WorkerApp> worker);
    virtual Time ForwardTime(uint32_t layer, uint32_t iteration) = 0;
    virtual Time BackwardTime(uint32_t layer, uint32_t iteration) = 0;
};

} // namespace ns3

#endif /* COMPUTE_MODEL_H */
