/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "thread-alloc-policy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{

struct PolicyName
{
    ThreadAllocPolicy::Kind kind;
    const char* name;
    const char* description;
};

const PolicyName kPolicies[] = {
    {ThreadAllocPolicy::SE, "se", "SE: one all-reduce after the backward pass, fixed threads"},
    {ThreadAllocPolicy::FIXED,
     "fixed",
     "H-N stand-in: Horovod cycle fusion, fixed threads (not NCCL's heuristic)"},
    {ThreadAllocPolicy::MG_N, "mg-n", "MG-N: MG-WFBP fusion, fixed threads"},
    {ThreadAllocPolicy::LIBRA_M, "libra-m", "LIBRA-M: MG-WFBP fusion, DP threads (Eq. 17)"},
    {ThreadAllocPolicy::LIBRA, "dp", "LIBRA: joint fusion and threads by the DP (Eq. 23)"},
    {ThreadAllocPolicy::MG_CF, "mg-cf", "MG-CF: MG-N without contention (an unreachable ideal)"},
};

} // namespace

ThreadAllocPolicy::Kind
ThreadAllocPolicy::FromName(const std::string& name)
{
    std::string names;
    for (const auto& p : kPolicies)
    {
        if (name == p.name)
        {
            return p.kind;
        }
        names += (names.empty() ? "" : ", ") + std::string(p.name);
    }
    throw std::invalid_argument("unknown policy '" + name + "' (expected one of: " + names + ")");
}

const char*
ThreadAllocPolicy::Name(Kind kind)
{
    for (const auto& p : kPolicies)
    {
        if (p.kind == kind)
        {
            return p.name;
        }
    }
    throw std::invalid_argument("ThreadAllocPolicy: unknown kind");
}

std::string
ThreadAllocPolicy::Describe(Kind kind)
{
    for (const auto& p : kPolicies)
    {
        if (p.kind == kind)
        {
            return p.description;
        }
    }
    throw std::invalid_argument("ThreadAllocPolicy: unknown kind");
}

std::vector<ThreadAllocPolicy::Kind>
ThreadAllocPolicy::All()
{
    std::vector<Kind> all;
    for (const auto& p : kPolicies)
    {
        all.push_back(p.kind);
    }
    return all;
}

ThreadAllocPlan
ThreadAllocPolicy::MgWfbpFusion(const GpuContentionModel& model,
                                const std::vector<GpuContentionModel::Layer>& layers,
                                uint32_t threads)
{
    const size_t n = layers.size();
    if (n == 0)
    {
        throw std::invalid_argument("MgWfbpFusion: a model needs at least one layer");
    }
    model.CheckThreads(threads);
    const double a = model.GetStartupS();
    std::vector<double> ready(n);
    std::vector<double> bytes(n);
    std::vector<double> comm(n);
    double clock = 0;
    for (size_t k = 0; k < n; ++k)
    {
        clock += layers[k].computeS;
        ready[k] = clock;
        bytes[k] = layers[k].bytes;
        comm[k] = a + model.AloneTransmitS(bytes[k], threads);
    }
    std::vector<double> start(n);
    auto computeStarts = [&]() {
        start[0] = ready[0];
        for (size_t k = 1; k < n; ++k)
        {
            start[k] = std::max(start[k - 1] + comm[k - 1], ready[k]);
        }
    };
    computeStarts();
    std::vector<ThreadAllocPlan::Group> groups;
    uint32_t groupStart = 0;
    for (size_t k = 0; k + 1 < n; ++k)
    {
        const double nextReady = ready[k + 1];
        bool merge = false;
        if (nextReady < start[k] + comm[k])
        {
            // not started yet when the next gradient arrives, or the wait is cheaper than a
            // second start-up
            merge = start[k] > nextReady || nextReady - start[k] < a;
        }
        if (merge)
        {
            bytes[k + 1] += bytes[k];
            bytes[k] = 0;
            comm[k] = 0;
            comm[k + 1] = a + model.AloneTransmitS(bytes[k + 1], threads);
            computeStarts();
        }
        else
        {
            groups.push_back({groupStart, static_cast<uint32_t>(k), threads});
            groupStart = k + 1;
        }
    }
    groups.push_back({groupStart, static_cast<uint32_t>(n - 1), threads});
    return ThreadAllocPlan(std::move(groups), n);
}

ThreadAllocPlan
ThreadAllocPolicy::HorovodCycleFusion(const GpuContentionModel& model,
                                      const std::vector<GpuContentionModel::Layer>& layers,
                                      uint32_t threads,
                                      double cycleS,
                                      double fusionBytes,
                                      double* backwardS)
{
    const size_t n = layers.size();
    if (n == 0)
    {
        throw std::invalid_argument("HorovodCycleFusion: a model needs at least one layer");
    }
    if (!(cycleS >= 0) || !(fusionBytes >= 0))
    {
        throw std::invalid_argument("HorovodCycleFusion: cycle and threshold must be >= 0");
    }
    model.CheckThreads(threads);
    // readyAt[k]: stand-alone computation done when layer k's gradient exists
    std::vector<double> readyAt(n);
    double total = 0;
    for (size_t k = 0; k < n; ++k)
    {
        total += layers[k].computeS;
        readyAt[k] = total;
    }
    // absorbs the rounding of the progress sums so a gradient due exactly now counts as ready
    const double eps = 1e-9 * std::max(total, 1e-12);
    std::vector<ThreadAllocPlan::Group> groups;
    double now = 0;
    double done = 0;
    double tick = 0;
    size_t next = 0;
    while (next < n)
    {
        if (tick > now)
        {
            done = std::min(total, done + (tick - now));
            now = tick;
        }
        size_t end = next;
        while (end < n && readyAt[end] <= done + eps)
        {
            ++end;
        }
        if (end == next)
        {
            const double readyTime = now + (readyAt[next] - done);
            if (cycleS > 0)
            {
                tick += cycleS * std::max(1.0, std::ceil((readyTime - tick) / cycleS - 1e-9));
            }
            else
            {
                tick = readyTime;
            }
            continue;
        }
        const double cycleStart = now;
        size_t k = next;
        while (k < end)
        {
            const size_t first = k;
            double bytes = layers[k].bytes;
            ++k;
            while (k < end && bytes + layers[k].bytes <= fusionBytes)
            {
                bytes += layers[k].bytes;
                ++k;
            }
            GpuContentionModel::OverlapTimes ov = model.Overlap(bytes, total - done, threads);
            now += ov.overlapS + ov.residualCommS;
            done = total - ov.residualComputeS;
            groups.push_back({static_cast<uint32_t>(first), static_cast<uint32_t>(k - 1), threads});
        }
        next = end;
        tick = std::max(cycleStart + cycleS, now);
    }
    *backwardS = now;
    return ThreadAllocPlan(std::move(groups), n);
}

ThreadAllocPolicy::Outcome
ThreadAllocPolicy::Run(Kind kind,
                       const GpuContentionModel& model,
                       const std::vector<GpuContentionModel::Layer>& layers,
                       const Options& options)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const uint32_t r = options.fixedThreads;
    switch (kind)
    {
    case SE: {
        model.CheckThreads(r);
        ThreadAllocPlan plan = ThreadAllocPlan::SingleGroup(layers.size(), r);
        double t = model.BackwardS(plan.Tasks(layers));
        return {kind, plan, t, nan};
    }
    case FIXED: {
        double t = 0;
        ThreadAllocPlan plan = HorovodCycleFusion(model,
                                                  layers,
                                                  r,
                                                  options.horovodCycleS,
                                                  options.horovodFusionBytes,
                                                  &t);
        return {kind, plan, t, nan};
    }
    case MG_N: {
        ThreadAllocPlan plan = MgWfbpFusion(model, layers, r);
        double t = model.BackwardS(plan.Tasks(layers));
        return {kind, plan, t, nan};
    }
    case LIBRA_M: {
        ThreadAllocDp dp(model, options.dp);
        ThreadAllocDp::Result res = dp.SolveFixedFusion(layers, MgWfbpFusion(model, layers, r));
        double t = model.BackwardS(res.plan.Tasks(layers));
        return {kind, res.plan, t, res.chunkedS};
    }
    case LIBRA: {
        ThreadAllocDp dp(model, options.dp);
        ThreadAllocDp::Result res = dp.SolveJoint(layers);
        double t = model.BackwardS(res.plan.Tasks(layers));
        return {kind, res.plan, t, res.chunkedS};
    }
    case MG_CF: {
        GpuContentionModel ideal(model.GetParams().WithoutContention(),
                                 model.GetNodes(),
                                 model.GetCollective());
        ThreadAllocPlan plan = MgWfbpFusion(ideal, layers, r);
        double t = ideal.BackwardS(plan.Tasks(layers));
        return {kind, plan, t, nan};
    }
    }
    throw std::invalid_argument("ThreadAllocPolicy: unknown kind");
}

} // namespace ns3
