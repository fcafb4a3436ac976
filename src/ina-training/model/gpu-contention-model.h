/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GPU_CONTENTION_MODEL_H
#define GPU_CONTENTION_MODEL_H

#include "gpu-contention-params.h"

#include <cstdint>
#include <vector>

namespace ns3
{

struct ModelSpec;

/**
 * \ingroup ina-training
 * LIBRA's analytic model of one GPU that runs the backward pass and the gradient all-reduce
 * kernels at the same time (Liu et al., Sec. III): the curves g, p, q, the overlap of one
 * communication task with one computation task (Eq. 8-11) and the backward time of K tensor
 * groups (Eq. 12-15). Times are seconds, sizes bytes; pure arithmetic, no simulator state.
 *
 * Collectives:
 *  - RING (the paper): start-up a = 2(N-1) alphaHop, wire bytes c^ = 2(N-1)/N c (Eq. 4);
 *  - IN_NETWORK: a = the per-collective constant inaStartup and c^ = c (each worker sends its
 *    gradient once to the switch). The paper covers only ring all-reduce; this is an
 *    extrapolation and outputs must say so.
 * With N = 1 there is nothing to exchange: a = 0 and c^ = 0 for both.
 */
class GpuContentionModel
{
  public:
    /// How gradients are aggregated (sets a and c^).
    enum Collective
    {
        RING,      //!< ring all-reduce, as in the paper
        IN_NETWORK //!< in-network aggregation (extrapolation)
    };

    /// One layer's backward work, in backward order (the first gradient ready comes first).
    struct Layer
    {
        double computeS; //!< stand-alone backward time, seconds
        double bytes;    //!< gradient bytes c
    };

    /// One tensor group as the recurrences see it: its computation, gradient and thread count.
    struct Task
    {
        double computeS;  //!< b_i: stand-alone computation of the group's layers, seconds
        double bytes;     //!< c_i: gradient bytes of the group
        uint32_t threads; //!< r_i: communication threads of the group's all-reduce
    };

    /// f_o, f_b and f_c of one communication task overlapping one computation task.
    struct OverlapTimes
    {
        double overlapS;         //!< f_o: both running
        double residualComputeS; //!< f_b: computation left after the communication, full speed
        double residualCommS;    //!< f_c: communication left after the computation, no contention
    };

    /// One stage of the recurrences (stage 0 holds group 1's computation only).
    struct Stage
    {
        double remainingComputeS; //!< s_b^i: stand-alone computation left when the stage starts
        double overlapS;          //!< t_o^i
        double residualComputeS;  //!< t_b^i
        double residualCommS;     //!< t_c^i
    };

    /**
     * \param params fitted (or illustrative) constants; validated here
     * \param nodes workers N >= 1
     * \param collective RING or IN_NETWORK
     * \throws std::invalid_argument on bad parameters or N = 0
     */
    GpuContentionModel(const GpuContentionParams& params,
                       uint32_t nodes,
                       Collective collective = RING);

    const GpuContentionParams& GetParams() const;
    uint32_t GetNodes() const;
    Collective GetCollective() const;

    /// \return the collective's name ("ring" or "ina")
    static const char* CollectiveName(Collective collective);

    /// \return a: start-up time of one collective, seconds
    double GetStartupS() const;

    /// \return c^: bytes each worker puts on the wire for a gradient of `bytes`
    double WireBytes(double bytes) const;

    /**
     * Check that r is usable: positive compute speed, positive p and q rates.
     * \throws std::invalid_argument naming r and the failing quantity
     */
    void CheckThreads(uint32_t threads) const;

    /// \return g(b, r) = b / (alpha1 - alpha2 r); b when r = 0 (no kernel resident)
    double SlowedComputeS(double computeS, uint32_t threads) const;

    /**
     * \return p(c, r) = c^ / x_p(r), transmission time while overlapped, start-up excluded
     * \throws std::invalid_argument if c^ > 0 and r = 0 (no kernel moves the bytes)
     */
    double OverlappedTransmitS(double bytes, uint32_t threads) const;

    /// \return q(c, r) = c^ / x_q(r), transmission time alone, start-up excluded
    double AloneTransmitS(double bytes, uint32_t threads) const;

    /// \return f_o, f_b, f_c for gradient bytes c, stand-alone computation b, r threads (Eq. 8-11)
    OverlapTimes Overlap(double bytes, double computeS, uint32_t threads) const;

    /**
     * The arithmetic of Eq. 8-11 on precomputed curve values, shared with ThreadAllocDp so that
     * the optimiser and the evaluator cannot disagree.
     * \param computeS b
     * \param slowedComputeS g(b, r)
     * \param overlappedCommS p(c, r) + a
     * \param aloneCommS q(c, r) + a
     * \param noComm whether the group sends nothing (c^ = 0)
     * \return f_o, f_b, f_c
     */
    static OverlapTimes CombineOverlap(double computeS,
                                       double slowedComputeS,
                                       double overlappedCommS,
                                       double aloneCommS,
                                       bool noComm);

    /**
     * The backward time of K tensor groups by Eq. 12-15: communications run one after another,
     * each starting when its gradients exist and the previous one is done; the computation
     * never idles.
     * \param tasks the groups in backward order
     * \param stages if not null, receives the K + 1 stages
     * \return sum over the stages of t_o + t_b + t_c, seconds
     * \throws std::invalid_argument on negative sizes or unusable thread counts
     */
    double BackwardS(const std::vector<Task>& tasks, std::vector<Stage>* stages = nullptr) const;

    /**
     * \param model a zoo model (layers in forward order)
     * \return its layers in backward order, seconds and bytes
     */
    static std::vector<Layer> BackwardLayers(const ModelSpec& model);

  private:
    /// \return c^ / x(r) on the given rate curve: OverlappedTransmitS (p), AloneTransmitS (q)
    double TransmitS(double bytes, uint32_t threads, const GpuContentionParams::RateCurve& x) const;

    GpuContentionParams m_params;
    uint32_t m_nodes;
    Collective m_collective;
    double m_startupS;   //!< a
    double m_wireFactor; //!< c^ / c
};

} // namespace ns3

#endif /* GPU_CONTENTION_MODEL_H */
