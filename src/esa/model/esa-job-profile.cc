/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-job-profile.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

EsaJobProfile::EsaJobProfile(const ModelSpec& model,
                             uint64_t fusionBytes,
                             uint64_t partitionBytes,
                             uint32_t iterations)
    : EsaJobProfile(model,
                    fusionBytes,
                    partitionBytes,
                    iterations,
                    JobContext::SendOrder::BACKWARD,
                    0)
{
}

EsaJobProfile::EsaJobProfile(const ModelSpec& model,
                             uint64_t fusionBytes,
                             uint64_t partitionBytes,
                             uint32_t iterations,
                             JobContext::SendOrder order,
                             double planRateBps)
    : m_layers(static_cast<uint32_t>(model.layers.size()))
    , m_iterations(iterations)
    , m_iterationComputePs(model.ForwardPs() + model.BackwardPs())
{
    if (model.layers.empty())
    {
        throw std::invalid_argument("ESA job profile: model '" + model.name + "' has no layers");
    }
    if (iterations == 0)
    {
        throw std::invalid_argument("ESA job profile: 0 iterations; expected at least 1");
    }
    std::vector<WorkerApp::Piece> plan;
    try
    {
        plan = WorkerApp::PlanIteration(model, fusionBytes, partitionBytes, order, planRateBps);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(std::string("ESA job profile: ") + e.what());
    }
    // When piece p is handed, the backward pass has passed the end of every layer that readied p
    // or a piece before it: what is left is the backward of the layers in front of the lowest.
    uint32_t passed = m_layers;
    for (const WorkerApp::Piece& w : plan)
    {
        passed = std::min(passed, w.readyLayer);
        int64_t computeLeft = 0;
        for (uint32_t f = 0; f < passed; ++f)
        {
            computeLeft += model.layers[f].backwardPs;
        }
        m_pieces.push_back({w.bytes, w.frontLayer + 1, computeLeft, 0});
    }
    uint64_t left = 0;
    for (size_t i = m_pieces.size(); i-- > 0;)
    {
        left += m_pieces[i].bytes;
        m_pieces[i].bytesLeft = left;
    }
    m_iterationBytes = left;
    if (m_iterationBytes == 0)
    {
        throw std::invalid_argument("ESA job profile: model '" + model.name +
                                    "' has no gradient bytes");
    }
}

EsaJobProfile
EsaJobProfile::FromContext(const JobContext& ctx)
{
    if (!ctx.model)
    {
        throw std::invalid_argument("ESA job profile: job '" + ctx.name +
                                    "' has no model in its context");
    }
    return EsaJobProfile(*ctx.model,
                         ctx.fusionBytes,
                         ctx.partitionBytes,
                         ctx.iterations,
                         ctx.sendOrder,
                         WorkerApp::PlanRateBps(ctx));
}

uint32_t
EsaJobProfile::GetLayers() const
{
    return m_layers;
}

uint32_t
EsaJobProfile::GetIterations() const
{
    return m_iterations;
}

const std::vector<EsaJobProfile::Piece>&
EsaJobProfile::GetPieces() const
{
    return m_pieces;
}

uint64_t
EsaJobProfile::GetIterationBytes() const
{
    return m_iterationBytes;
}

int64_t
EsaJobProfile::GetIterationComputePs() const
{
    return m_iterationComputePs;
}

uint32_t
EsaJobProfile::LayerOf(uint32_t piece) const
{
    if (piece >= m_pieces.size())
    {
        throw std::out_of_range("ESA job profile: piece " + std::to_string(piece) + " of " +
                                std::to_string(m_pieces.size()) + " per iteration");
    }
    return m_pieces[piece].layer;
}

double
EsaJobProfile::CommCompRatio(double rateBps) const
{
    if (!(rateBps > 0) || !std::isfinite(rateBps))
    {
        throw std::invalid_argument("ESA job profile: a line rate of " + std::to_string(rateBps) +
                                    " bit/s; expected a positive rate");
    }
    if (m_iterationComputePs <= 0)
    {
        throw std::domain_error("ESA job profile: the model computes nothing, so its "
                                "communication-to-computation ratio is infinite; give the ratio "
                                "explicitly");
    }
    return (m_iterationBytes * 8.0 / rateBps) / (m_iterationComputePs * 1e-12);
}

double
EsaJobProfile::RemainingTime(uint32_t iteration, uint32_t piece, double rateBps) const
{
    if (iteration >= m_iterations)
    {
        throw std::out_of_range("ESA job profile: iteration " + std::to_string(iteration) +
                                " of a job of " + std::to_string(m_iterations));
    }
    if (!(rateBps > 0) || !std::isfinite(rateBps))
    {
        throw std::invalid_argument("ESA job profile: a line rate of " + std::to_string(rateBps) +
                                    " bit/s; expected a positive rate");
    }
    LayerOf(piece); // range check
    const Piece& p = m_pieces[piece];
    const uint64_t later = m_iterations - 1 - iteration;
    const double bytes =
        static_cast<double>(p.bytesLeft) + static_cast<double>(later) * m_iterationBytes;
    const double computePs =
        static_cast<double>(p.computePs) + static_cast<double>(later) * m_iterationComputePs;
    return bytes * 8.0 / rateBps + computePs * 1e-12;
}

} // namespace ns3
