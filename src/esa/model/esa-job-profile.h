/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_JOB_PROFILE_H
#define ESA_JOB_PROFILE_H

#include "ns3/aggregation-protocol.h"
#include "ns3/model-zoo.h"
#include "ns3/worker-app.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup esa
 * What ESA's priority needs to know about a job (ESA paper 5.1: "the layer of the tensor, the
 * job's remaining time ... and the ratio of computation to communication"), derived from its model
 * and the worker's tensor fusion and partitioning: pure logic.
 *
 * The pieces: WorkerApp hands each iteration's gradients to the agent as pieces: the layers from
 * the back, fused up to FusionBytes (0: every layer alone), split into pieces of at most
 * PartitionBytes (0: never split), in its SendOrder (backward, or ByteScheduler-style front layers
 * first). This class takes them from WorkerApp::PlanIteration, the worker's own plan, so piece p
 * of every iteration (the low 32 bits of the tensor id, WorkerApp::TensorId) has a known size and
 * layers. A piece's layer for equation 1 is the front-most layer it holds, counted from 1 at the
 * front (a fused piece is as urgent as its most urgent part; interpretation).
 *
 * The time (spec B7.8, the simulation's "remaining communication plus the computation time"): at
 * the push of piece p of iteration i, the bytes of pieces p and later in iteration i and of every
 * later iteration, sent at the line rate, plus the computation still to run: the backward passes
 * of iteration i still ahead when p is handed (those of the layers in front of every layer whose
 * end readied p or a piece handed before it) and the forward and backward passes of every later
 * iteration. The ratio: one iteration's gradient bytes at the line rate over
 * its forward and backward time (the paper's "theoretical communication time : computation time";
 * 2 for DNN A, 0.5 for DNN B).
 */
class EsaJobProfile
{
  public:
    /// One piece of an iteration, in hand-off order.
    struct Piece
    {
        uint64_t bytes;     //!< gradient bytes
        uint32_t layer;     //!< its front-most layer, 1 = the model's first
        int64_t computePs;  //!< backward time still to run when it is handed
        uint64_t bytesLeft; //!< bytes of this piece and the later pieces of the iteration
    };

    /**
     * The worker's backward send order. Throws std::invalid_argument when the model has no layers
     * or no gradient bytes, or the iterations are 0.
     * \param model the job's model
     * \param fusionBytes WorkerApp's FusionBytes
     * \param partitionBytes WorkerApp's PartitionBytes
     * \param iterations the job's iterations
     */
    EsaJobProfile(const ModelSpec& model,
                  uint64_t fusionBytes,
                  uint64_t partitionBytes,
                  uint32_t iterations);

    /**
     * Any send order. Throws std::invalid_argument as above, or when BYTESCHEDULER has no positive
     * rate.
     * \param model the job's model
     * \param fusionBytes WorkerApp's FusionBytes
     * \param partitionBytes WorkerApp's PartitionBytes
     * \param iterations the job's iterations
     * \param order WorkerApp's SendOrder
     * \param planRateBps the rate the worker plans its order with (WorkerApp::PlanRateBps)
     */
    EsaJobProfile(const ModelSpec& model,
                  uint64_t fusionBytes,
                  uint64_t partitionBytes,
                  uint32_t iterations,
                  JobContext::SendOrder order,
                  double planRateBps);

    /**
     * The profile of the job a TrainingJob described in `ctx` (model, iterations, FusionBytes,
     * PartitionBytes, SendOrder, and the line rate of its workers). Throws std::invalid_argument
     * when the context has no model or no iterations, or as the constructors.
     * \param ctx the job's context
     * \return the profile
     */
    static EsaJobProfile FromContext(const JobContext& ctx);

    /// \return L_j, the model's layers
    uint32_t GetLayers() const;
    /// \return the job's iterations
    uint32_t GetIterations() const;
    /// \return the pieces of one iteration, in hand-off order
    const std::vector<Piece>& GetPieces() const;
    /// \return gradient bytes of one iteration
    uint64_t GetIterationBytes() const;
    /// \return forward + backward time of one iteration, ps
    int64_t GetIterationComputePs() const;

    /**
     * \param piece a piece index (the tensor id's low 32 bits)
     * \return its front-most layer, 1-based; throws std::out_of_range beyond the pieces
     */
    uint32_t LayerOf(uint32_t piece) const;

    /**
     * Comm / Comp of one iteration; throws std::invalid_argument when the rate is not positive, or
     * std::domain_error when the model has no computation (the ratio is then infinite: give one
     * explicitly).
     * \param rateBps the worker's line rate
     * \return the ratio
     */
    double CommCompRatio(double rateBps) const;

    /**
     * T_j at the push of piece `piece` of iteration `iteration` (0-based); throws
     * std::out_of_range for a piece or iteration beyond the job.
     * \param iteration the iteration
     * \param piece the piece
     * \param rateBps the worker's line rate
     * \return seconds
     */
    double RemainingTime(uint32_t iteration, uint32_t piece, double rateBps) const;

  private:
    uint32_t m_layers;             //!< L_j
    uint32_t m_iterations;         //!< iterations
    std::vector<Piece> m_pieces;   //!< one iteration's pieces
    uint64_t m_iterationBytes = 0; //!< bytes per iteration
    int64_t m_iterationComputePs;  //!< forward + backward per iteration
};

} // namespace ns3

#endif /* ESA_JOB_PROFILE_H */
