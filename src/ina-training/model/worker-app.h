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
#include "ns3/nstime.h"

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
 * gradient is ready (wait-free back-propagation), fused with the next layers' gradients up to
 * FusionBytes and split into pieces of at most PartitionBytes. The pieces of an iteration are the
 * same at every worker and every iteration (PlanIteration), and are handed to the job's
 * aggregation agent in a fixed order (SendOrder):
 *  - backward: as they become ready;
 *  - bytescheduler: the order a ByteScheduler-style sender (Peng et al., SOSP'19) would take with
 *    the model's profiled backward times and the job's line rate: whenever the sender is free it
 *    takes the ready piece of the front-most layer (ties: the one ready first), and it sends one
 *    piece at a time. For the ESA paper's two layers of two partitions that is layer 2's first
 *    partition (ready first, the sender idle), layer 1's two, then layer 2's second.
 * A piece is handed once it is ready and every piece before it in that order has been handed, and
 * after its sender jitter (SendJitter, JitterScope): a piece waits U(0, SendJitter) after both
 * (scope partition: one draw per worker and piece; scope iteration: one draw per worker and
 * iteration, before its first piece only). Draws are a pure function of the job's seed, the rank,
 * the iteration and the piece (JitterDraw), so runs repeat exactly.
 *
 * The next iteration's forward pass of layer l starts when layer l - 1's forward pass is done and
 * every piece holding layer l's gradient has come back aggregated (OverlapForward, the ESA
 * paper's model: the front layers compute while the back layers still communicate); without
 * OverlapForward it starts when every piece is back. Compute never overlaps compute: the forward
 * pass of the next iteration starts after this iteration's backward pass. An iteration ends when
 * all its pieces are back.
 *
 * Layers run on a ComputeModel (ComputeModel::StartLayer, one at a time), which the worker also
 * tells when it hands a piece to its agent and when the agent returns it, so a model can slow
 * computation while communication runs beside it (GpuContentionComputeModel).
 */
class WorkerApp : public Application
{
  public:
    typedef Callback<void, uint32_t, uint32_t> IterationCallback; //!< (rank, iteration)

    /// Which sender jitter draws a worker takes.
    enum JitterScope
    {
        PARTITION, //!< one per piece, before it is handed
        ITERATION  //!< one per iteration, before its first piece
    };

    /**
     * Pieces one iteration may be cut into. Each is planned ahead (PlanIteration) and tracked by
     * the agents while it is out, so the count is memory: `PartitionBytes: 4` on a 1 TB tensor
     * asked for 2.5e11 pieces and died of std::bad_alloc after 40 s. 4,194,304 pieces is 4 KB
     * partitions of a 16 GB model.
     */
    static constexpr uint64_t MAX_PIECES = uint64_t{1} << 22;

    /// One piece of an iteration's gradients.
    struct Piece
    {
        uint64_t bytes;      //!< gradient bytes
        uint32_t frontLayer; //!< the front-most layer it holds bytes of (0 = the model's first)
        uint32_t backLayer;  //!< the back-most layer it holds bytes of
        uint32_t readyLayer; //!< it is ready when this layer's backward pass ends
        uint32_t readyIndex; //!< its place in the order the backward pass makes pieces ready
    };

    static TypeId GetTypeId();

    /// Aborts if the model has no layers or the send order cannot be planned.
    void Setup(TrainingJob* job,
               uint32_t rank,
               const ModelSpec& model,
               uint32_t iterations,
               Ptr<AggregationAgent> agent,
               Ptr<ComputeModel> compute);
    void SetIterationCallback(IterationCallback cb);

    uint32_t GetRank() const;
    /// The job this worker belongs to (set by Setup).
    TrainingJob* GetJob() const;
    /// The GPU model its layers run on.
    Ptr<ComputeModel> GetComputeModel() const;
    uint32_t GetIterationsDone() const;
    /// Steps of work finished so far: compute layers (forward and backward) and tensors back
    /// aggregated. It only grows and is bounded by the work of the run, so a runner can tell a
    /// worker that still moves from one that is stuck.
    uint64_t GetProgressSteps() const;
    /// Time the agent had at least one tensor outstanding, over the whole run.
    Time GetCommunicationTime() const;
    /// Tensors outstanding at the agent right now (a contention model may look at it).
    uint32_t GetOutstandingTensors() const;
    Ptr<AggregationAgent> GetAgent() const;
    /// The pieces of every iteration in hand-off order (piece p has tensor id TensorId(i, p)).
    const std::vector<Piece>& GetPlan() const;

    uint64_t GetFusionBytes() const;
    uint64_t GetPartitionBytes() const;
    JobContext::SendOrder GetSendOrder() const;

    /// The tensor id of piece `piece` of iteration `iteration`: the same at every worker.
    static uint64_t TensorId(uint32_t iteration, uint32_t piece);

    /**
     * The pieces of one iteration in hand-off order: the layers from the back, fused up to
     * `fusionBytes` (0: each layer alone; the first layer always flushes), cut into pieces of at
     * most `partitionBytes` (0: never cut), ordered by `order`. Pure; the worker and any protocol
     * that needs to know the workload (EsaJobProfile) use it, so they agree.
     * \param model the job's model
     * \param fusionBytes FusionBytes
     * \param partitionBytes PartitionBytes
     * \param order SendOrder
     * \param rateBps the sender's line rate for BYTESCHEDULER (unused for BACKWARD)
     * \return the pieces
     * \throws std::invalid_argument if the model has no layers, or BYTESCHEDULER has no positive
     *         rate
     * \throws JobAttributeError (PartitionBytes) if the iteration would have more than
     *         MAX_PIECES pieces
     */
    static std::vector<Piece> PlanIteration(const ModelSpec& model,
                                            uint64_t fusionBytes,
                                            uint64_t partitionBytes,
                                            JobContext::SendOrder order,
                                            double rateBps);

    /**
     * PlanIteration for a job: the context's model, FusionBytes, PartitionBytes and SendOrder at
     * PlanRateBps(ctx).
     * \param ctx a context TrainingJob filled
     * \return the pieces
     * \throws std::invalid_argument as PlanIteration, or if the context has no model
     */
    static std::vector<Piece> PlanIteration(const JobContext& ctx);

    /**
     * The line rate the send order is planned with: the slowest link of the job's worker hosts,
     * so every worker plans the same order.
     * \param ctx the job
     * \return bit/s; 0 if the context has no fabric or no workers
     */
    static double PlanRateBps(const JobContext& ctx);

    /**
     * One sender jitter draw, uniform on [0, maxSteps] time steps: splitmix64 of (seed, rank,
     * iteration, piece), scaled by a 128-bit multiply (the high 64 bits of x (maxSteps + 1)).
     * \param seed the job's seed
     * \param rank the worker
     * \param iteration the iteration
     * \param piece the piece (ITERATION_DRAW for the iteration scope's draw)
     * \param maxSteps SendJitter in time steps
     * \return the delay in time steps
     */
    static int64_t JitterDraw(uint64_t seed,
                              uint32_t rank,
                              uint32_t iteration,
                              uint32_t piece,
                              int64_t maxSteps);

    static constexpr uint32_t ITERATION_DRAW = 0xffffffffu; //!< JitterDraw's piece, scope iteration

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    void BeginForward(uint32_t iteration);
    void TryForward();
    void ForwardLayerDone();
    void BackwardLayer(uint32_t layer);
    void BackwardLayerDone();                   //!< m_bwdLayer is computed
    void BackwardLayerComputed(uint32_t layer); //!< `layer`'s gradient is ready
    void Pump();                                //!< hand what is ready, in order
    void HandDelayed();                         //!< the jitter of the next piece is over
    void Hand(uint32_t piece);
    void OnTensorDone(uint64_t tensorId);
    void MaybeFinishIteration();

    // configured
    uint64_t m_fusionBytes;
    uint64_t m_partitionBytes;
    int m_sendOrder;
    Time m_jitter;
    int m_jitterScope;
    bool m_overlap;

    // set up
    TrainingJob* m_job = nullptr;
    uint32_t m_rank = 0;
    ModelSpec m_model;
    uint32_t m_iterations = 0;
    Ptr<AggregationAgent> m_agent;
    Ptr<ComputeModel> m_compute;
    IterationCallback m_iterationCb;
    Callback<void> m_forwardCb;                   //!< ForwardLayerDone, made once
    Callback<void> m_backwardCb;                  //!< BackwardLayerDone, made once
    std::vector<Piece> m_plan;                    //!< hand-off order
    std::vector<std::vector<uint32_t>> m_readyAt; //!< per layer: pieces its backward readies
    std::vector<uint32_t> m_layerPieces;          //!< per layer: pieces holding it
    std::vector<uint32_t> m_layerPending;         //!< per layer: of those, not back yet
    uint64_t m_seed = 0;                          //!< the job's seed
    bool m_checkValues = false;                   //!< the job checks values

    // runtime state
    uint32_t m_iteration = 0;      //!< the iteration whose gradients are produced or outstanding
    uint32_t m_iterationsDone = 0; //!< iterations with every piece back
    uint32_t m_fwdIteration = 0;   //!< the iteration whose forward pass runs or waits
    uint32_t m_fwdLayer = 0;       //!< the next layer of that forward pass
    uint32_t m_bwdLayer = 0;       //!< the layer whose backward pass runs
    bool m_fwdActive = false;      //!< a forward pass is under way
    bool m_computing = false;      //!< a layer is computing on m_compute
    bool m_backwardDone = false;   //!< this iteration's backward pass has ended
    std::vector<bool> m_ready;     //!< per piece of this iteration: ready
    uint32_t m_nextHand = 0;       //!< the next piece to hand
    bool m_stageBusy = false;      //!< the next piece waits out its jitter (m_handEvent)
    uint32_t m_piecesBack = 0;     //!< pieces of this iteration back
    uint32_t m_outstanding = 0;
    uint64_t m_progressSteps = 0; //!< layers computed + tensors back (GetProgressSteps)
    std::map<uint64_t, std::unique_ptr<std::vector<float>>> m_values;
    int64_t m_busySincePs = 0;
    int64_t m_busyPs = 0;
    EventId m_handEvent;
};

} // namespace ns3

#endif /* WORKER_APP_H */
