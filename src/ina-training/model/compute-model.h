/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COMPUTE_MODEL_H
#define COMPUTE_MODEL_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class WorkerApp;

/**
 * \ingroup ina-training
 * A worker's GPU: how one layer's forward or backward pass runs. The worker runs one layer at a
 * time through StartLayer and tells the model when it hands a piece of its gradients to its agent
 * and when the agent returns it, so a model may slow a layer down while communication runs beside
 * it: the seam where LIBRA's contention model plugs in (GpuContentionComputeModel).
 *
 * A model with fixed layer times only implements ForwardTime and BackwardTime: the default
 * StartLayer asks for the layer's time the moment it starts and schedules its end (one event per
 * layer), and the communication notifications do nothing.
 */
class ComputeModel : public Object
{
  public:
    /// Which pass a layer runs.
    enum Pass
    {
        FORWARD,
        BACKWARD
    };

    /// What a model measured, for the job's summary (TrainingJob::GetComputeReport).
    struct Report
    {
        /// A line for the console summary; empty: nothing to say.
        std::string line;
        /// Descriptions, the same at every worker (the job reports its first worker's).
        std::vector<std::pair<std::string, std::string>> text;
        /// Numbers, averaged over the job's workers.
        std::vector<std::pair<std::string, double>> values;
        /// One number per iteration, averaged over the job's workers iteration by iteration.
        std::vector<std::pair<std::string, std::vector<double>>> perIteration;
    };

    static TypeId GetTypeId();

    /// Called once when the worker is set up, after it has planned its pieces (GetPlan()).
    virtual void Attach(Ptr<WorkerApp> worker);
    /// Stand-alone time of `layer`'s forward pass (nothing else on the GPU).
    virtual Time ForwardTime(uint32_t layer, uint32_t iteration) = 0;
    /// Stand-alone time of `layer`'s backward pass.
    virtual Time BackwardTime(uint32_t layer, uint32_t iteration) = 0;

    /**
     * Run one layer; `done` is called when it is computed. The worker starts a layer only when
     * the previous one is done. Default: `done` after ForwardTime / BackwardTime, asked now.
     * \param pass FORWARD or BACKWARD
     * \param layer the layer (0 = the model's first)
     * \param iteration the iteration it belongs to
     * \param done called once, when the layer is computed
     */
    virtual void StartLayer(Pass pass, uint32_t layer, uint32_t iteration, Callback<void> done);

    /// Drop the layer in progress, if any, without calling its `done` (the worker stops).
    virtual void CancelLayer();

    /**
     * The worker hands piece `piece` of `iteration` (WorkerApp::GetPlan()'s index) to its agent;
     * called just before AggregationAgent::AllReduce, so what the model changes applies to the
     * piece's first packet. Default: nothing.
     */
    virtual void CommunicationStarted(uint32_t iteration, uint32_t piece);

    /// The agent returned piece `piece` of `iteration` aggregated. Default: nothing.
    virtual void CommunicationEnded(uint32_t iteration, uint32_t piece);

    /// \return what the model measured (default: nothing)
    virtual Report GetReport() const;

  protected:
    void DoDispose() override;

  private:
    void DefaultLayerDone();

    EventId m_event;       //!< the default StartLayer's layer end
    Callback<void> m_done; //!< the default StartLayer's layer in progress
};

} // namespace ns3

#endif /* COMPUTE_MODEL_H */
