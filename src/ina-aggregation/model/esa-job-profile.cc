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

    // Replay WorkerApp: layers from the back, a bucket flushed at the first layer or once it
    // holds FusionBytes, cut into PartitionBytes pieces. A segment is one layer's bytes in the
    // bucket, in the order they were added (back to front).
    struct Segment
    {
        uint32_t layer; //!< 0-based
        uint64_t bytes; //!< its bytes
    };

    std::vector<Segment> bucket;
    uint64_t bucketBytes = 0;
    for (uint32_t layer = m_layers; layer-- > 0;)
    {
        bucket.push_back({layer, model.layers[layer].gradientBytes});
        bucketBytes += model.layers[layer].gradientBytes;
        if (layer != 0 && bucketBytes < fusionBytes)
        {
            continue;
        }
        // Handed when the backward pass of `layer` ends: the layers in front of it remain.
        int64_t computeLeft = 0;
        for (uint32_t f = 0; f < layer; ++f)
        {
            computeLeft += model.layers[f].backwardPs;
        }
        uint64_t offset = 0;
        size_t seg = 0;
        uint64_t segEnd = bucket.empty() ? 0 : bucket[0].bytes;
        while (offset < bucketBytes)
        {
            const uint64_t left = bucketBytes - offset;
            const uint64_t len = partitionBytes == 0 ? left : std::min(left, partitionBytes);
            // The front-most layer is the last segment that overlaps [offset, offset + len).
            while (segEnd <= offset)
            {
                segEnd += bucket[++seg].bytes;
            }
            size_t last = seg;
            uint64_t lastEnd = segEnd;
            while (lastEnd < offset + len)
            {
                lastEnd += bucket[++last].bytes;
            }
            m_pieces.push_back({len, bucket[last].layer + 1, computeLeft, 0});
            offset += len;
        }
        bucket.clear();
        bucketBytes = 0;
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
