/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gpu-contention-model.h"

#include "model-zoo.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

GpuContentionModel::GpuContentionModel(const GpuContentionParams& params,
                                       uint32_t nodes,
                                       Collective collective)
    : m_params(params)
    , m_nodes(nodes)
    , m_collective(collective)
    , m_startupS(0)
    , m_wireFactor(0)
{
    m_params.Validate();
    if (nodes == 0)
    {
        throw std::invalid_argument("GpuContentionModel: nodes must be >= 1");
    }
    if (nodes > 1)
    {
        if (collective == RING)
        {
            m_startupS = 2.0 * (nodes - 1) * params.alphaHopS;
            m_wireFactor = 2.0 * (nodes - 1) / nodes;
        }
        else
        {
            m_startupS = params.inaStartupS;
            m_wireFactor = 1.0;
        }
    }
}

const GpuContentionParams&
GpuContentionModel::GetParams() const
{
    return m_params;
}

uint32_t
GpuContentionModel::GetNodes() const
{
    return m_nodes;
}

GpuContentionModel::Collective
GpuContentionModel::GetCollective() const
{
    return m_collective;
}

const char*
GpuContentionModel::CollectiveName(Collective collective)
{
    return collective == RING ? "ring" : "ina";
}

double
GpuContentionModel::GetStartupS() const
{
    return m_startupS;
}

double
GpuContentionModel::WireBytes(double bytes) const
{
    return m_wireFactor * bytes;
}

void
GpuContentionModel::CheckThreads(uint32_t threads) const
{
    if (threads == 0)
    {
        throw std::invalid_argument("communication threads must be > 0 (r = 0 moves no bytes)");
    }
    double speed = m_params.ComputeSpeed(threads);
    if (!(speed > 0))
    {
        throw std::invalid_argument(
            "r = " + std::to_string(threads) +
            " threads leave no compute speed: alpha1 - alpha2 r = " + std::to_string(speed) +
            " (parameters from " + m_params.source + ")");
    }
    if (!(m_params.overlapped.Rate(threads) > 0))
    {
        throw std::invalid_argument("r = " + std::to_string(threads) +
                                    " threads give no overlapped transmission rate: p's "
                                    "gamma1 - gamma2 exp(-gamma3 r^gamma4) <= 0 (parameters "
                                    "from " +
                                    m_params.source + ")");
    }
    if (!(m_params.alone.Rate(threads) > 0))
    {
        throw std::invalid_argument("r = " + std::to_string(threads) +
                                    " threads give no transmission rate alone: q's "
                                    "gamma1 - gamma2 exp(-gamma3 r^gamma4) <= 0 (parameters "
                                    "from " +
                                    m_params.source + ")");
    }
}

double
GpuContentionModel::SlowedComputeS(double computeS, uint32_t threads) const
{
    return computeS / m_params.ComputeSpeed(threads);
}

double
GpuContentionModel::OverlappedTransmitS(double bytes, uint32_t threads) const
{
    return TransmitS(bytes, threads, m_params.overlapped);
}

double
GpuContentionModel::AloneTransmitS(double bytes, uint32_t threads) const
{
    return TransmitS(bytes, threads, m_params.alone);
}

double
GpuContentionModel::TransmitS(double bytes,
                              uint32_t threads,
                              const GpuContentionParams::RateCurve& x) const
{
    double wire = WireBytes(bytes);
    if (wire == 0)
    {
        return 0;
    }
    CheckThreads(threads);
    return wire / x.Rate(threads);
}

GpuContentionModel::OverlapTimes
GpuContentionModel::CombineOverlap(double computeS,
                                   double slowedComputeS,
                                   double overlappedCommS,
                                   double aloneCommS,
                                   bool noComm)
{
    OverlapTimes t{0, 0, 0};
    if (!noComm && computeS > 0)
    {
        t.overlapS = std::min(overlappedCommS, slowedComputeS);
    }
    // Eq. 9-10: min() returns one operand unchanged, so the finishing task's fraction is 0 exactly
    double deltaB = computeS > 0 ? 1.0 - t.overlapS / slowedComputeS : 0.0;
    double deltaC = noComm ? 0.0 : 1.0 - t.overlapS / overlappedCommS;
    t.residualComputeS = computeS * deltaB;
    t.residualCommS = aloneCommS * deltaC;
    return t;
}

GpuContentionModel::OverlapTimes
GpuContentionModel::Overlap(double bytes, double computeS, uint32_t threads) const
{
    if (!(bytes >= 0) || !(computeS >= 0))
    {
        throw std::invalid_argument("Overlap: bytes and computation must be >= 0");
    }
    bool noComm = WireBytes(bytes) == 0;
    if (noComm)
    {
        return CombineOverlap(computeS, computeS, 0, 0, true);
    }
    return CombineOverlap(computeS,
                          SlowedComputeS(computeS, threads),
                          OverlappedTransmitS(bytes, threads) + m_startupS,
                          AloneTransmitS(bytes, threads) + m_startupS,
                          false);
}

double
GpuContentionModel::BackwardS(const std::vector<Task>& tasks, std::vector<Stage>* stages) const
{
    const size_t k = tasks.size();
    // suffix[i] = sum of b_j for j >= i (tasks 1-based), so suffix[i + 2] is what is left when
    // group i + 1's gradients are ready
    std::vector<double> suffix(k + 3, 0.0);
    for (size_t i = k; i >= 1; --i)
    {
        if (!(tasks[i - 1].computeS >= 0) || !(tasks[i - 1].bytes >= 0))
        {
            throw std::invalid_argument("BackwardS: group " + std::to_string(i) +
                                        " has a negative size");
        }
        suffix[i] = suffix[i + 1] + tasks[i - 1].computeS;
    }
    if (stages != nullptr)
    {
        stages->clear();
    }
    double sb = suffix[1];
    double total = 0;
    for (size_t i = 0; i <= k; ++i)
    {
        // stage 0 has no communication (c_0 = 0): its computation runs until group 1 is ready
        OverlapTimes ov =
            i == 0 ? OverlapTimes{0, sb, 0} : Overlap(tasks[i - 1].bytes, sb, tasks[i - 1].threads);
        double tb = std::max(0.0, ov.residualComputeS - suffix[i + 2]);
        if (stages != nullptr)
        {
            stages->push_back({sb, ov.overlapS, tb, ov.residualCommS});
        }
        total += ov.overlapS + tb + ov.residualCommS;
        sb = ov.residualComputeS - tb;
    }
    return total;
}

std::vector<GpuContentionModel::Layer>
GpuContentionModel::BackwardLayers(const ModelSpec& model)
{
    std::vector<Layer> layers;
    layers.reserve(model.layers.size());
    for (auto it = model.layers.rbegin(); it != model.layers.rend(); ++it)
    {
        layers.push_back({it->backwardPs * 1e-12, static_cast<double>(it->gradientBytes)});
    }
    return layers;
}

} // namespace ns3
