/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GPU_CONTENTION_COMPUTE_MODEL_H
#define GPU_CONTENTION_COMPUTE_MODEL_H

#include "gpu-contention-model.h"
#include "gpu-contention-params.h"
#include "profiled-compute-model.h"
#include "thread-alloc-plan.h"
#include "worker-app.h"

#include "ns3/event-id.h"
#include "ns3/ina-host.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * LIBRA's GPU contention in packet mode (the inasim spec's GpuContentionHostModel, C.6): a
 * worker's layers slowed by the communication kernels resident beside them, and the host's NIC
 * paced at what those kernels can feed it. A fluid model driven by events:
 *
 *  - Resident kernel: a piece is resident from the moment the worker hands it to its agent until
 *    the agent returns it, for however long the network takes (a real NCCL kernel holds its
 *    streaming multiprocessors until the collective finishes, waiting included). When several
 *    pieces are outstanding, one kernel counts: the oldest outstanding piece's (hand-off order),
 *    with its group's threads r. Threads of two kernels are never added (the paper runs
 *    collectives one after another; the ring agent also completes them in order, so the oldest
 *    is the one on the wire).
 *  - Computation: a layer's stand-alone time (the model zoo's, ProfiledComputeModel) is work done
 *    at speed 1 with no kernel resident and alpha1 - alpha2 r with one. At every event (a piece
 *    handed or returned, a layer started or computed) the work done so far is taken off and the
 *    layer's end is rescheduled at remaining work / speed. The forward pass is slowed the same
 *    way when it overlaps communication (OverlapForward).
 *  - Injection cap: while a kernel is resident the host's NIC injects at most
 *    X_o(r) = gamma1_p - gamma2_p exp(-gamma3_p r^gamma4_p) bytes/s while a layer computes, and
 *    X_n(r) (the q curve) while the GPU has nothing to compute (InaHost::SetInjectionRateCap, on
 *    wire bytes); no cap with no kernel resident. The network may deliver less.
 *
 * Thread policies (GpuThreadPolicy), per tensor group; a group is one fusion bucket of the
 * worker (WorkerApp's FusionBytes): the pieces its backward pass makes ready at the same layer,
 * PartitionBytes pieces of it included:
 *  - fixed: every group GpuThreads (a stand-in for NCCL's heuristic, as in the analytic mode);
 *  - dp: ThreadAllocDp's fixed-fusion DP (the paper's Eq. 17, K unbounded, Z = 150,
 *    R = {128, ..., 4096}) on the worker's own groups, with the job's N and collective;
 *  - se: SE (SynEASGD), one all-reduce after the whole backward pass with GpuThreads: only a
 *    plan of one group is accepted, i.e. FusionBytes at least the model's gradient bytes.
 * The parameters are GpuParams' file (GpuContentionParams::Load) or the ILLUSTRATIVE set.
 *
 * Events are only kernel start and end and layer start and end; nothing runs per packet.
 */
class GpuContentionComputeModel : public ProfiledComputeModel
{
  public:
    /// GpuThreadPolicy.
    enum ThreadPolicy
    {
        FIXED, //!< GpuThreads for every group
        DP,    //!< ThreadAllocDp on the worker's groups
        SE     //!< one group after the backward pass, GpuThreads
    };

    static TypeId GetTypeId();
    GpuContentionComputeModel();
    ~GpuContentionComputeModel() override;

    /**
     * The worker's pieces as LIBRA's tensor groups: one group per fusion bucket (the pieces
     * readied at the same layer), in backward order. Layers after the last bucket's (all without
     * gradient bytes) form a final group of 0 bytes that no piece belongs to.
     * \param model the job's model
     * \param plan the worker's pieces (WorkerApp::GetPlan())
     * \param threads r of every group
     * \param pieceGroup if not null, receives each piece's group
     * \return the groups, layers indexed in backward order
     */
    static ThreadAllocPlan FusionGroups(const ModelSpec& model,
                                        const std::vector<WorkerApp::Piece>& plan,
                                        uint32_t threads,
                                        std::vector<uint32_t>* pieceGroup);

    /**
     * The thread count of every group under a policy.
     * \param policy fixed, dp or se
     * \param fixedThreads GpuThreads (fixed, se)
     * \param model the analytic contention model (N, collective, curves)
     * \param layers the model's layers in backward order, stand-alone seconds and bytes
     * \param groups the fusion (FusionGroups)
     * \return the groups with their threads
     * \throws std::runtime_error naming GpuThreads or GpuThreadPolicy if the policy cannot apply
     */
    static ThreadAllocPlan ChooseThreads(ThreadPolicy policy,
                                         uint32_t fixedThreads,
                                         const GpuContentionModel& model,
                                         const std::vector<GpuContentionModel::Layer>& layers,
                                         const ThreadAllocPlan& groups);

    /// \return the policy's name (fixed, dp, se)
    static const char* PolicyName(ThreadPolicy policy);

    /**
     * Set the model up without a worker (tests; Attach does the same from the worker's job).
     * \param params the curves
     * \param pieceThreads r of each piece of an iteration, in hand-off order (all > 0, usable)
     * \param host the host whose NIC is paced (nullptr: none)
     * \throws std::runtime_error if a thread count leaves no speed or rate
     */
    void Configure(const GpuContentionParams& params,
                   const std::vector<uint32_t>& pieceThreads,
                   Ptr<InaHost> host);

    /// Reads the job (N, protocol), loads GpuParams, chooses the threads and finds the host's NIC.
    /// \throws std::runtime_error naming the param at fault
    void Attach(Ptr<WorkerApp> worker) override;
    void StartLayer(Pass pass, uint32_t layer, uint32_t iteration, Callback<void> done) override;
    void CancelLayer() override;
    void CommunicationStarted(uint32_t iteration, uint32_t piece) override;
    void CommunicationEnded(uint32_t iteration, uint32_t piece) override;
    Report GetReport() const override;

    /// \return r of the resident kernel now (0: none)
    uint32_t GetResidentThreads() const;
    /// \return seconds of stand-alone work done per second now
    double GetComputeSpeed() const;
    /// \return the injection cap set now, bit/s (0: none)
    uint64_t GetInjectionCapBps() const;
    /// \return the groups and their threads (after Attach)
    const ThreadAllocPlan& GetThreadPlan() const;
    /// \return the parameters in use
    const GpuContentionParams& GetParams() const;

  protected:
    void DoDispose() override;

  private:
    /// The parameters of GpuParams (illustrative if none); a bad file is the job's error.
    GpuContentionParams LoadParams() const;
    /// Chooses the threads of each of the worker's pieces (GpuThreadPolicy over the fusion
    /// groups of its plan) with `params`: sets the plan, the collective and the predicted
    /// backward time.
    std::vector<uint32_t> PlanThreads(Ptr<WorkerApp> worker, const GpuContentionParams& params);
    void Advance();        //!< take the elapsed time off the layer's work and the counters
    void Reschedule();     //!< the running layer's end at remaining work / speed
    void UpdateResident(); //!< r from the oldest outstanding piece; speed, layer end and cap
    void UpdateCap();
    void LayerDone();
    void MaybeBackwardEnd(); //!< the iteration's backward time, once computation and pieces end
    template<typename T>
    static T& At(std::vector<T>& v, uint32_t i); //!< grows v to hold i

    // configured
    uint32_t m_threads;     //!< GpuThreads
    int m_policy;           //!< GpuThreadPolicy
    std::string m_fileName; //!< GpuParams ("": illustrative)

    // set up
    GpuContentionParams m_params;
    ThreadAllocPlan m_plan;               //!< groups and threads
    std::vector<uint32_t> m_pieceThreads; //!< r of each piece, hand-off order
    Ptr<InaHost> m_host;
    uint32_t m_layers = 0;
    std::string m_collective;
    double m_predictedS = 0; //!< the analytic model's backward time of the plan

    // fluid state
    bool m_running = false;   //!< a layer runs (m_event pending)
    bool m_computing = false; //!< what the cap sees: a layer runs or starts at once
    uint64_t m_layerSeq = 0;  //!< layers started, to see whether `done` started another
    Pass m_pass = FORWARD;
    uint32_t m_layer = 0;
    uint32_t m_layerIteration = 0;
    double m_workPs = 0; //!< stand-alone work left in the running layer
    int64_t m_standalonePs = 0;
    int64_t m_layerStartPs = 0;
    int64_t m_lastPs = 0; //!< when the state was last advanced
    double m_speed = 1;
    uint32_t m_resident = 0; //!< r now
    uint64_t m_capBps = 0;
    Callback<void> m_done;
    EventId m_event;

    // outstanding pieces (all of one iteration: the next backward pass waits for them)
    uint32_t m_commIteration = 0;
    std::vector<bool> m_outstanding;
    uint32_t m_outstandingCount = 0;
    uint32_t m_oldest = 0;

    // measured
    uint32_t m_statIteration = 0; //!< the iteration whose backward pass is measured
    int64_t m_backwardStartPs = -1;
    bool m_backwardComputed = false;
    uint32_t m_piecesEnded = 0;
    std::vector<double> m_backwardS;        //!< per iteration
    std::vector<double> m_backwardComputeS; //!< per iteration
    std::vector<double> m_slowdownS;        //!< per iteration
    std::vector<double> m_residentS;        //!< per iteration
    int64_t m_residentPs = 0;
    double m_capBitPs = 0; //!< integral of the cap over resident time, bit/s x ps
};

} // namespace ns3

#endif /* GPU_CONTENTION_COMPUTE_MODEL_H */
