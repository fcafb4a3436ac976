/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef THREAD_ALLOC_DP_H
#define THREAD_ALLOC_DP_H

#include "gpu-contention-model.h"
#include "thread-alloc-plan.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * LIBRA's dynamic programme (Liu et al., Sec. IV, Algorithm 1): communication thread counts per
 * tensor group, for a given fusion plan (Eq. 17, "LIBRA-M" with MG-WFBP's plan) or jointly with
 * the fusion plan itself with at most K groups (Eq. 23, "LIBRA").
 *
 * The backward computation is cut into Z equal chunks of w = sum(b) / Z; in the DP a
 * communication may start only at a chunk edge. T(i, l, z) is the least time at which stage i
 * ends with the first l layers in i groups and z chunks computed:
 *
 *   T(0, 0, z) = z w,
 *   T(i, l, z) = min over l' < l, z' in [zmin(l), z], r in R of
 *                T(i-1, l', z') + h(c(l'+1..l), (z - z') w, r, z == Z),
 *
 * zmin(l) the least chunk index >= 1 with zmin w >= b(1..l), and h = t_o + t_b + t_c on the
 * window, infinite if z < Z and t_c > 0 (a communication that outlasts its window while
 * computation remains would delay the next group). The answer is min over i <= K of
 * T(i, L, Z) (the paper writes T(K, L, Z); K is a maximum), backtracked to the plan. Against
 * the printed Algorithm 1, l' stops at l - 1 (l' = l would be an empty group) and the
 * infinite-stage test is on t_c (printed "t_2").
 *
 * At run time the chunk restriction is dropped (ThreadAllocPolicy evaluates the plan with
 * GpuContentionModel::BackwardS); by Theorems 1 and 2 that time is at most
 * (1 + (G - 1) / Z) times the best over all plans with at most K groups and threads in R, G the
 * largest group count allowed.
 *
 * Cost: O(K L^2 Z^2) for the joint DP (the min over R is folded into a per-window table computed
 * once per candidate group), O(G Z^2 J) for a fixed plan of G groups.
 */
class ThreadAllocDp
{
  public:
    /// The DP's knobs; defaults are the paper's (Sec. V-A).
    struct Config
    {
        uint32_t maxGroups{10};                                         //!< K
        uint32_t chunks{150};                                           //!< Z
        std::vector<uint32_t> threads{128, 256, 512, 1024, 2048, 4096}; //!< R
    };

    /// What the DP found.
    struct Result
    {
        ThreadAllocPlan plan; //!< groups and threads
        double chunkedS;      //!< the DP's objective T(.., Z): starts restricted to chunk edges
    };

    /**
     * \param model the contention model (copied)
     * \param config K >= 1, Z >= 1, R non-empty; every r in R must be usable by the model
     * \throws std::invalid_argument naming the bad knob or thread count
     */
    ThreadAllocDp(const GpuContentionModel& model, Config config);

    const Config& GetConfig() const;

    /**
     * Joint fusion and thread allocation with at most K groups (Eq. 23).
     * \param layers the model's layers in backward order (at least one)
     * \return the plan and T
     */
    Result SolveJoint(const std::vector<GpuContentionModel::Layer>& layers) const;

    /**
     * Threads for a given fusion (Eq. 17); the fusion's own thread counts are ignored and its
     * group count may exceed K.
     * \param layers the model's layers in backward order
     * \param fusion the groups
     * \return the same groups with the DP's threads, and T
     */
    Result SolveFixedFusion(const std::vector<GpuContentionModel::Layer>& layers,
                            const ThreadAllocPlan& fusion) const;

  private:
    /// The least stage time over R for every window of d chunks, final and not.
    struct WindowTable
    {
        std::vector<double> open;          //!< h for z < Z (infinite if t_c > 0)
        std::vector<uint32_t> openChoice;  //!< index into R of open's minimum
        std::vector<double> final;         //!< h for z == Z
        std::vector<uint32_t> finalChoice; //!< index into R of final's minimum
    };

    /**
     * Fill the table for a group of `bytes` and windows of 0..maxWindow chunks.
     * \param bytes the group's gradient bytes
     * \param chunkS w
     * \param maxWindow the largest window needed, chunks
     * \param table out
     */
    void FillWindows(double bytes, double chunkS, uint32_t maxWindow, WindowTable* table) const;

    /// \return zmin: the least chunk index >= 1 whose edge is at or after `computedS`
    uint32_t MinChunk(double computedS, double totalS) const;

    GpuContentionModel m_model;
    Config m_config;
};

} // namespace ns3

#endif /* THREAD_ALLOC_DP_H */
