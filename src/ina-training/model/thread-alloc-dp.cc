/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "thread-alloc-dp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Where T(i, l, z) came from.
struct Back
{
    uint32_t prevLayers; //!< l'
    uint32_t prevChunk;  //!< z'
    uint32_t choice;     //!< index into R
};

/**
 * One step of the joint DP: T(i, l, z) from T(i - 1, l', z') for every z in [zmin, Z] and z' in
 * [zmin, z], the group of layers l'+1..l communicating in the window z'..z (`table`: its best
 * time h and thread choice per window length; the last group's windows end at Z). `prev` and
 * `cur` are the rows T(i - 1, l', .) and T(i, l, .); `back` the row of T(i, l, .)'s origins.
 */
template<typename Table>
void
RelaxGroup(const Table& table,
           const double* prev,
           double* cur,
           Back* back,
           uint32_t lp,
           uint32_t zmin,
           uint32_t nz)
{
    for (uint32_t z = zmin; z <= nz; ++z)
    {
        const std::vector<double>& h = z == nz ? table.final : table.open;
        double best = cur[z];
        int64_t bestZp = -1;
        for (uint32_t zp = zmin; zp <= z; ++zp)
        {
            const double v = prev[zp] + h[z - zp];
            if (v < best)
            {
                best = v;
                bestZp = zp;
            }
        }
        if (bestZp >= 0)
        {
            cur[z] = best;
            const uint32_t d = z - static_cast<uint32_t>(bestZp);
            back[z] = {lp,
                       static_cast<uint32_t>(bestZp),
                       z == nz ? table.finalChoice[d] : table.openChoice[d]};
        }
    }
}

} // namespace

ThreadAllocDp::ThreadAllocDp(const GpuContentionModel& model, Config config)
    : m_model(model)
    , m_config(std::move(config))
{
    if (m_config.maxGroups == 0)
    {
        throw std::invalid_argument("ThreadAllocDp: the maximum group count K must be >= 1");
    }
    if (m_config.chunks == 0)
    {
        throw std::invalid_argument("ThreadAllocDp: the chunk count Z must be >= 1");
    }
    if (m_config.threads.empty())
    {
        throw std::invalid_argument("ThreadAllocDp: the thread set R is empty");
    }
    for (uint32_t r : m_config.threads)
    {
        m_model.CheckThreads(r);
    }
}

const ThreadAllocDp::Config&
ThreadAllocDp::GetConfig() const
{
    return m_config;
}

uint32_t
ThreadAllocDp::MinChunk(double computedS, double totalS) const
{
    const uint32_t z = m_config.chunks;
    if (!(totalS > 0))
    {
        return 1;
    }
    // the tolerance absorbs the rounding of the prefix sums, so that the chunk edge that holds
    // the whole computation (z = Z) is never missed
    double x = std::ceil(computedS / totalS * z - 1e-9);
    return static_cast<uint32_t>(std::min<double>(z, std::max(1.0, x)));
}

void
ThreadAllocDp::FillWindows(double bytes,
                           double chunkS,
                           uint32_t maxWindow,
                           WindowTable* table) const
{
    const size_t j = m_config.threads.size();
    const bool noComm = m_model.WireBytes(bytes) == 0;
    std::vector<double> commOverlapped(j);
    std::vector<double> commAlone(j);
    for (size_t k = 0; k < j; ++k)
    {
        const uint32_t r = m_config.threads[k];
        commOverlapped[k] = m_model.OverlappedTransmitS(bytes, r) + m_model.GetStartupS();
        commAlone[k] = m_model.AloneTransmitS(bytes, r) + m_model.GetStartupS();
    }
    table->open.assign(maxWindow + 1, kInf);
    table->openChoice.assign(maxWindow + 1, 0);
    table->final.assign(maxWindow + 1, kInf);
    table->finalChoice.assign(maxWindow + 1, 0);
    for (uint32_t d = 0; d <= maxWindow; ++d)
    {
        const double window = d * chunkS;
        for (size_t k = 0; k < j; ++k)
        {
            GpuContentionModel::OverlapTimes ov = GpuContentionModel::CombineOverlap(
                window,
                m_model.SlowedComputeS(window, m_config.threads[k]),
                commOverlapped[k],
                commAlone[k],
                noComm);
            const double h = ov.overlapS + ov.residualComputeS + ov.residualCommS;
            if (h < table->final[d])
            {
                table->final[d] = h;
                table->finalChoice[d] = k;
            }
            if (ov.residualCommS <= 0 && h < table->open[d])
            {
                table->open[d] = h;
                table->openChoice[d] = k;
            }
        }
    }
}

ThreadAllocDp::Result
ThreadAllocDp::SolveJoint(const std::vector<GpuContentionModel::Layer>& layers) const
{
    const uint32_t nl = layers.size();
    if (nl == 0)
    {
        throw std::invalid_argument("ThreadAllocDp: a model needs at least one layer");
    }
    const uint32_t nk = std::min<uint32_t>(m_config.maxGroups, nl);
    const uint32_t nz = m_config.chunks;
    std::vector<double> prefixB(nl + 1, 0.0);
    std::vector<double> prefixC(nl + 1, 0.0);
    for (uint32_t l = 1; l <= nl; ++l)
    {
        prefixB[l] = prefixB[l - 1] + layers[l - 1].computeS;
        prefixC[l] = prefixC[l - 1] + layers[l - 1].bytes;
    }
    const double total = prefixB[nl];
    const double w = total / nz;

    auto idx = [nl, nz](uint32_t i, uint32_t l, uint32_t z) {
        return (static_cast<size_t>(i) * (nl + 1) + l) * (nz + 1) + z;
    };
    std::vector<double> t(idx(nk + 1, 0, 0), kInf);
    std::vector<Back> back(t.size(), Back{0, 0, 0});
    for (uint32_t z = 0; z <= nz; ++z)
    {
        t[idx(0, 0, z)] = z * w;
    }

    WindowTable table;
    for (uint32_t l = 1; l <= nl; ++l)
    {
        const uint32_t zmin = MinChunk(prefixB[l], total);
        for (uint32_t lp = 0; lp < l; ++lp)
        {
            FillWindows(prefixC[l] - prefixC[lp], w, nz - zmin, &table);
            // T(i-1, l', .) is finite only for i-1 <= l' groups, and T(0, l', .) only for l' = 0
            const uint32_t iLo = lp == 0 ? 1 : 2;
            const uint32_t iHi = lp == 0 ? 1 : std::min(nk, lp + 1);
            for (uint32_t i = iLo; i <= iHi; ++i)
            {
                RelaxGroup(table,
                           &t[idx(i - 1, lp, 0)],
                           &t[idx(i, l, 0)],
                           &back[idx(i, l, 0)],
                           lp,
                           zmin,
                           nz);
            }
        }
    }

    uint32_t bestI = 0;
    double best = kInf;
    for (uint32_t i = 1; i <= nk; ++i)
    {
        if (t[idx(i, nl, nz)] < best)
        {
            best = t[idx(i, nl, nz)];
            bestI = i;
        }
    }
    if (bestI == 0)
    {
        throw std::logic_error("ThreadAllocDp: no finite plan (a single final group always is)");
    }
    std::vector<ThreadAllocPlan::Group> groups;
    uint32_t l = nl;
    uint32_t z = nz;
    for (uint32_t i = bestI; i > 0; --i)
    {
        const Back& b = back[idx(i, l, z)];
        groups.push_back({b.prevLayers, l - 1, m_config.threads[b.choice]});
        l = b.prevLayers;
        z = b.prevChunk;
    }
    std::reverse(groups.begin(), groups.end());
    return {ThreadAllocPlan(std::move(groups), nl), best};
}

ThreadAllocDp::Result
ThreadAllocDp::SolveFixedFusion(const std::vector<GpuContentionModel::Layer>& layers,
                                const ThreadAllocPlan& fusion) const
{
    const std::vector<GpuContentionModel::Task> tasks = fusion.Tasks(layers);
    const uint32_t ng = tasks.size();
    const uint32_t nz = m_config.chunks;
    std::vector<double> prefixB(ng + 1, 0.0);
    for (uint32_t g = 1; g <= ng; ++g)
    {
        prefixB[g] = prefixB[g - 1] + tasks[g - 1].computeS;
    }
    const double total = prefixB[ng];
    const double w = total / nz;
    auto idx = [nz](uint32_t g, uint32_t z) {
        return static_cast<size_t>(g) * (nz + 1) + z;
    };
    std::vector<double> t(idx(ng + 1, 0), kInf);
    std::vector<Back> back(t.size(), Back{0, 0, 0});
    for (uint32_t z = 0; z <= nz; ++z)
    {
        t[idx(0, z)] = z * w;
    }
    WindowTable table;
    for (uint32_t g = 1; g <= ng; ++g)
    {
        const uint32_t zmin = MinChunk(prefixB[g], total);
        FillWindows(tasks[g - 1].bytes, w, nz - zmin, &table);
        for (uint32_t z = zmin; z <= nz; ++z)
        {
            const std::vector<double>& h = z == nz ? table.final : table.open;
            double best = kInf;
            int64_t bestZp = -1;
            for (uint32_t zp = zmin; zp <= z; ++zp)
            {
                const double v = t[idx(g - 1, zp)] + h[z - zp];
                if (v < best)
                {
                    best = v;
                    bestZp = zp;
                }
            }
            if (bestZp >= 0)
            {
                t[idx(g, z)] = best;
                const uint32_t d = z - static_cast<uint32_t>(bestZp);
                back[idx(g, z)] = {g - 1,
                                   static_cast<uint32_t>(bestZp),
                                   z == nz ? table.finalChoice[d] : table.openChoice[d]};
            }
        }
    }
    const double best = t[idx(ng, nz)];
    if (!(best < kInf))
    {
        throw std::logic_error("ThreadAllocDp: no finite plan (the last group always has one)");
    }
    std::vector<ThreadAllocPlan::Group> groups = fusion.GetGroups();
    uint32_t z = nz;
    for (uint32_t g = ng; g > 0; --g)
    {
        const Back& b = back[idx(g, z)];
        groups[g - 1].threads = m_config.threads[b.choice];
        z = b.prevChunk;
    }
    return {ThreadAllocPlan(std::move(groups), layers.size()), best};
}

} // namespace ns3
