/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef WORKER_APP_H
#define WORKER_APP_H

#include "aggregation-agent.h"
#include "compute-model.h"
#include "model-zoo.h"

#include "ns3/application.h"
#include "ns3/callback.h"

#include <map>
#include <memory>
#include <vector>

namespace ns3
{

class TrainingJob;

/**
 * \ingroup ina-training
 * One data-parallel worker. An iteration is a training step: the forward pass layer by layer, then
 * the backward pass from the last layer to the first; as each layer's backward pass ends its
 * gradient is ready and is handed to the job's aggregation agent at once (wait-free
 * back-propagation), possibly fused with the next layers' gradients up to FusionBytes and split
 * into PartitionBytes pieces. The next iteration starts when every gradient has come back
 * aggregated.
 *
 * Layer times come from a ComputeModel, asked as each layer starts.
 */
class WorkerApp : public Application
{
  public:
    typedef Callback<void, uint32_t, uint32_t> IterationCallback; //!< (rank, iteration)

    static TypeId GetTypeId();
    WorkerApp();
    ~WorkerApp() override;

    void Setup(TrainingJob* job,
               uint32_t rank,
               const ModelSpec& model,
               uint32_t iterations,
               Ptr<AggregationAgent> agent,
               Ptr<ComputeModel> compute);
    void SetIterationCallback(IterationCallback cb);

    uint32_t GetRank() const;
    uint32_t GetIterationsDone() const;
    /// Time the agent had at least one tensor outstanding, over the whole run.
    Time GetCommunicationTime() const;
    /// Tensors outstanding at the agent right now (a contention model may look at it).
    uint32_t GetOutstandingTensors() const;
    Ptr<AggregationAgent> GetAgent() const;

    /// The tensor id of piece `piece` of iteration `iteration`: the same at every worker.
    static uint64_t TensorId(uint32_t iteration, uint32_t piece);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    void StartIteration();
    void ForwardLayer(uint32_t layer);
    void BackwardLayer(uint32_t layer);
    void BackwardLayerComputed(uint32_t layer); //!< `layer`'s gradient is ready
    void FlushBucket();
    void OnTensorDone(uint64_t tensorId);
    void MaybeFinishIteration();

    // configured
    uint64_t m_fusionBytes;
    uint64_t m_partitionBytes;

    // set up
    TrainingJob* m_job = nullptr;
    uint32_t m_rank = 0;
    ModelSpec m_model;
    uint32_t m_iterations = 0;
    Ptr<AggregationAgent> m_agent;
    Ptr<ComputeModel> m_compute;
    IterationCallback m_iterationCb;

    // runtime state
    uint32_t m_iteration = 0;
    uint32_t m_piece = 0;
    uint64_t m_bucketBytes = 0;
    bool m_backwardDone = false;
    uint32_t m_outstanding = 0;
    std::map<uint64_t, std::unique_ptr<std::vector<float>>> m_values;
    int64_t m_busySincePs = 0;
    int64_t m_busyPs = 0;
    EventId m_event;
};

} // namespace ns3

#endif /* WORKER_APP_H */
