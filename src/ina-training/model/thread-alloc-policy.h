/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef THREAD_ALLOC_POLICY_H
#define THREAD_ALLOC_POLICY_H

#include "gpu-contention-model.h"
#include "thread-alloc-dp.h"
#include "thread-alloc-plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * The fusion and thread policies that LIBRA's evaluation compares (Liu et al., Sec. V, Fig. 6,
 * 7 and 9), on the analytic contention model:
 *
 * | name      | paper   | fusion                                    | threads          |
 * |-----------|---------|-------------------------------------------|------------------|
 * | se        | SE      | one group after the whole backward pass   | fixed r          |
 * | fixed     | H-N     | Horovod's cycle fusion (see below)        | fixed r          |
 * | mg-n      | MG-N    | MG-WFBP (see below)                       | fixed r          |
 * | libra-m   | LIBRA-M | MG-WFBP                                   | DP (Eq. 17)      |
 * | dp        | LIBRA   | joint DP, at most K groups (Eq. 23)       | DP               |
 * | mg-cf     | MG-CF   | MG-WFBP                                   | fixed r, without contention |
 *
 * "Fixed r" stands in for NCCL's thread choice, whose heuristics the paper does not give: one
 * configurable count for every collective. Neither H-N nor MG-N is claimed faithful beyond that.
 *
 * Horovod's cycle fusion (H-N's fusion, Horovod 0.20 as in the paper: cycle 5 ms, fusion
 * threshold 64 MiB by default) is simulated on the contention model: a background loop wakes
 * at most once per cycle (and not before the previous cycle's all-reduces are done), takes every
 * gradient ready at that moment and all-reduces it in fused buffers of at most the threshold
 * (a larger tensor alone), one after another; computation progresses meanwhile at the speed the
 * model gives. The paper's H-N negotiates readiness across workers; here every worker is
 * identical, so readiness is local.
 *
 * MG-WFBP (Shi, Chu, Li, IEEE TPDS 32(8), 2021; LIBRA's reference [10]) is not restated in
 * LIBRA's paper. It is implemented after the published algorithm: with layer ready times from
 * the stand-alone backward times and an all-reduce time a + q(c, r) (the profile a contention-
 * unaware planner measures), walk the layers in backward order and merge a layer into the next
 * one whenever the next gradient is ready before the layer's all-reduce would end and either
 * the all-reduce would not yet have started or it would have waited less than a for the next
 * gradient; re-derive the start times after each merge.
 */
class ThreadAllocPolicy
{
  public:
    /// A policy of the table above.
    enum Kind
    {
        SE,
        FIXED,
        MG_N,
        LIBRA_M,
        LIBRA,
        MG_CF
    };

    /// The policies' knobs.
    struct Options
    {
        uint32_t fixedThreads{1024};               //!< r of se, fixed, mg-n, mg-cf
        double horovodCycleS{5e-3};                //!< fixed: Horovod cycle time
        double horovodFusionBytes{64.0 * 1048576}; //!< fixed: Horovod fusion threshold
        ThreadAllocDp::Config dp;                  //!< libra-m and dp: K, Z, R
    };

    /// A policy's plan and the backward time it gives.
    struct Outcome
    {
        Kind kind;            //!< the policy
        ThreadAllocPlan plan; //!< groups and threads
        double backwardS;     //!< backward time on the model (chunk restriction dropped)
        double chunkedS;      //!< the DP's objective T (libra-m, dp); NaN for the others
    };

    /**
     * \param name a policy name of the table
     * \return the policy
     * \throws std::invalid_argument listing the names if there is no such policy
     */
    static Kind FromName(const std::string& name);

    /// \return the policy's name in the table (se, fixed, ...)
    static const char* Name(Kind kind);

    /// \return a one-line description (the paper's name, fusion and threads)
    static std::string Describe(Kind kind);

    /// \return every policy, in the table's order
    static std::vector<Kind> All();

    /**
     * \param kind the policy
     * \param model the contention model
     * \param layers the model's layers in backward order
     * \param options knobs
     * \return its plan and backward time
     * \throws std::invalid_argument if a thread count is unusable with the model's parameters
     */
    static Outcome Run(Kind kind,
                       const GpuContentionModel& model,
                       const std::vector<GpuContentionModel::Layer>& layers,
                       const Options& options);

    /**
     * MG-WFBP's fusion plan (see the class description).
     * \param model gives a and q
     * \param layers backward order
     * \param threads r of every group (also the r its all-reduce profile is taken at)
     * \return the plan
     */
    static ThreadAllocPlan MgWfbpFusion(const GpuContentionModel& model,
                                        const std::vector<GpuContentionModel::Layer>& layers,
                                        uint32_t threads);

    /**
     * Horovod's cycle fusion simulated on the model (see the class description).
     * \param model the contention model
     * \param layers backward order
     * \param threads r of every all-reduce
     * \param cycleS cycle time (0: the loop runs as soon as it can)
     * \param fusionBytes fusion threshold in gradient bytes (0: no fusion)
     * \param backwardS out: the backward time of the simulation, cycle waits included
     * \return the groups formed
     */
    static ThreadAllocPlan HorovodCycleFusion(const GpuContentionModel& model,
                                              const std::vector<GpuContentionModel::Layer>& layers,
                                              uint32_t threads,
                                              double cycleS,
                                              double fusionBytes,
                                              double* backwardS);
};

} // namespace ns3

#endif /* THREAD_ALLOC_POLICY_H */
