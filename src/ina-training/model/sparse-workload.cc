/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sparse-workload.h"

#include "ns3/ina-split-mix.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// \return a double in [0, 1) from the top 53 bits, the same on every platform
double
UniformDouble(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// log1p(x) / x, accurate near 0
double
Helper1(double x)
{
    if (std::abs(x) > 1e-8)
    {
        return std::log1p(x) / x;
    }
    return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

/// expm1(x) / x, accurate near 0
double
Helper2(double x)
{
    if (std::abs(x) > 1e-8)
    {
        return std::expm1(x) / x;
    }
    return 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

/**
 * The share of the rows that rows(worker, iteration) lists, over the first `workers` workers and
 * `iterations` iterations, whose rank is below h (0 when it lists none).
 */
template<typename Rows>
double
ShareBelowRank(const SparseWorkload& w,
               uint32_t h,
               uint32_t workers,
               uint32_t iterations,
               Rows rows)
{
    uint64_t hits = 0;
    uint64_t total = 0;
    for (uint32_t k = 0; k < workers; ++k)
    {
        for (uint32_t i = 0; i < iterations; ++i)
        {
            for (uint32_t row : rows(k, i))
            {
                hits += w.RankOfRow(row) < h ? 1 : 0;
                ++total;
            }
        }
    }
    return total == 0 ? 0.0 : static_cast<double>(hits) / static_cast<double>(total);
}

} // namespace

SparseWorkload::SparseWorkload(uint32_t rows,
                               uint32_t dim,
                               uint32_t accessesPerIteration,
                               double exponent,
                               uint64_t seed)
    : m_rows(rows)
    , m_dim(dim)
    , m_accesses(accessesPerIteration)
    , m_exponent(exponent)
    , m_seed(seed)
{
    if (rows == 0)
    {
        throw std::invalid_argument("sparse workload: rows must be at least 1");
    }
    if (dim == 0)
    {
        throw std::invalid_argument("sparse workload: dim (floats per row) must be at least 1");
    }
    if (accessesPerIteration == 0)
    {
        throw std::invalid_argument("sparse workload: accesses per iteration must be at least 1");
    }
    if (!std::isfinite(exponent) || exponent < 0)
    {
        throw std::invalid_argument("sparse workload: Zipf exponent must be a finite number >= 0, "
                                    "got " +
                                    std::to_string(exponent));
    }

    uint32_t bits = 0;
    while (bits < 32 && (uint64_t{1} << bits) < rows)
    {
        ++bits;
    }
    m_halfBits = std::max<uint32_t>(1, (bits + 1) / 2);
    m_halfMask = (uint64_t{1} << m_halfBits) - 1;
    for (uint64_t i = 0; i < 4; ++i)
    {
        m_roundKeys[i] = InaSplitMix64(seed + 0x5045524d00ULL + i);
    }

    m_hIntegralX1 = HIntegral(1.5) - 1.0;
    m_hIntegralN = HIntegral(static_cast<double>(rows) + 0.5);
    m_squeeze = 2.0 - HIntegralInverse(HIntegral(2.5) - H(2.0));
}

uint32_t
SparseWorkload::GetRows() const
{
    return m_rows;
}

uint32_t
SparseWorkload::GetDim() const
{
    return m_dim;
}

uint64_t
SparseWorkload::GetRowBytes() const
{
    return 4 * uint64_t{m_dim};
}

uint32_t
SparseWorkload::GetAccessesPerIteration() const
{
    return m_accesses;
}

double
SparseWorkload::GetExponent() const
{
    return m_exponent;
}

uint64_t
SparseWorkload::GetSeed() const
{
    return m_seed;
}

double
SparseWorkload::H(double x) const
{
    return std::exp(-m_exponent * std::log(x));
}

double
SparseWorkload::HIntegral(double x) const
{
    double logX = std::log(x);
    return Helper2((1.0 - m_exponent) * logX) * logX;
}

double
SparseWorkload::HIntegralInverse(double x) const
{
    double t = x * (1.0 - m_exponent);
    if (t < -1.0)
    {
        // only reachable through rounding; keeps log1p finite
        t = -1.0;
    }
    return std::exp(Helper1(t) * x);
}

template<class Rng>
uint32_t
SparseWorkload::DrawRank(Rng& rng) const
{
    // Rejection-inversion (Hörmann & Derflinger 1996): invert the integral of the continuous
    // hat x^-s at a uniform point, round to the nearest integer k, and accept unless the point
    // falls in the part of k's hat cell above the true probability mass k^-s.
    while (true)
    {
        double u = m_hIntegralN + UniformDouble(rng) * (m_hIntegralX1 - m_hIntegralN);
        double x = HIntegralInverse(u);
        double kd = std::floor(x + 0.5);
        uint64_t k = kd < 1.0 ? 1 : (kd > m_rows ? m_rows : static_cast<uint64_t>(kd));
        double kk = static_cast<double>(k);
        if (kk - x <= m_squeeze || u >= HIntegral(kk + 0.5) - H(kk))
        {
            return static_cast<uint32_t>(k - 1);
        }
    }
}

uint64_t
SparseWorkload::FeistelForward(uint64_t x) const
{
    uint64_t left = x >> m_halfBits;
    uint64_t right = x & m_halfMask;
    for (int i = 0; i < 4; ++i)
    {
        uint64_t next = left ^ (InaSplitMix64(right ^ m_roundKeys[i]) & m_halfMask);
        left = right;
        right = next;
    }
    return (left << m_halfBits) | right;
}

uint64_t
SparseWorkload::FeistelBackward(uint64_t x) const
{
    uint64_t left = x >> m_halfBits;
    uint64_t right = x & m_halfMask;
    for (int i = 3; i >= 0; --i)
    {
        uint64_t prev = right ^ (InaSplitMix64(left ^ m_roundKeys[i]) & m_halfMask);
        right = left;
        left = prev;
    }
    return (left << m_halfBits) | right;
}

uint32_t
SparseWorkload::RowOfRank(uint32_t rank) const
{
    if (rank >= m_rows)
    {
        throw std::out_of_range("sparse workload: rank " + std::to_string(rank) +
                                " is not below the row count " + std::to_string(m_rows));
    }
    // Cycle walking: the Feistel network permutes [0, 2^(2 halfBits)); stepping on until the
    // value is back below R restricts it to a permutation of [0, R).
    uint64_t y = FeistelForward(rank);
    while (y >= m_rows)
    {
        y = FeistelForward(y);
    }
    return static_cast<uint32_t>(y);
}

uint32_t
SparseWorkload::RankOfRow(uint32_t row) const
{
    if (row >= m_rows)
    {
        throw std::out_of_range("sparse workload: row " + std::to_string(row) +
                                " is not below the row count " + std::to_string(m_rows));
    }
    uint64_t y = FeistelBackward(row);
    while (y >= m_rows)
    {
        y = FeistelBackward(y);
    }
    return static_cast<uint32_t>(y);
}

std::vector<uint32_t>
SparseWorkload::HotRows(uint32_t h) const
{
    if (h > m_rows)
    {
        throw std::out_of_range("sparse workload: asked for " + std::to_string(h) +
                                " hot rows of a table of " + std::to_string(m_rows));
    }
    std::vector<uint32_t> rows(h);
    for (uint32_t r = 0; r < h; ++r)
    {
        rows[r] = RowOfRank(r);
    }
    return rows;
}

std::vector<uint32_t>
SparseWorkload::AccessesForIteration(uint32_t worker, uint32_t iteration) const
{
    std::mt19937_64 rng(InaSplitMix64(InaSplitMix64(InaSplitMix64(m_seed) ^ worker) ^ iteration));
    std::vector<uint32_t> rows(m_accesses);
    for (auto& r : rows)
    {
        r = RowOfRank(DrawRank(rng));
    }
    return rows;
}

std::vector<uint32_t>
SparseWorkload::RowsForIteration(uint32_t worker, uint32_t iteration) const
{
    std::vector<uint32_t> rows = AccessesForIteration(worker, iteration);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

double
SparseWorkload::ExpectedTopShare(uint64_t h) const
{
    if (h >= m_rows)
    {
        return 1.0;
    }
    return GeneralizedHarmonic(h, m_exponent) / GeneralizedHarmonic(m_rows, m_exponent);
}

double
SparseWorkload::MeasuredTopShare(uint32_t h, uint32_t workers, uint32_t iterations) const
{
    return ShareBelowRank(*this, h, workers, iterations, [this](uint32_t w, uint32_t i) {
        return AccessesForIteration(w, i);
    });
}

double
SparseWorkload::MeasuredUpdateTopShare(uint32_t h, uint32_t workers, uint32_t iterations) const
{
    return ShareBelowRank(*this, h, workers, iterations, [this](uint32_t w, uint32_t i) {
        return RowsForIteration(w, i);
    });
}

double
SparseWorkload::GeneralizedHarmonic(uint64_t n, double s)
{
    const uint64_t exactTerms = 100000;
    auto f = [s](double k) {
        return std::exp(-s * std::log(k));
    };
    uint64_t head = std::min(n, exactTerms - 1);
    double sum = 0;
    // smallest terms first, to lose as little as possible to rounding
    for (uint64_t k = head; k >= 1; --k)
    {
        sum += f(static_cast<double>(k));
    }
    if (n <= head)
    {
        return sum;
    }
    // Euler-Maclaurin for the terms m .. n
    double m = static_cast<double>(exactTerms);
    double nn = static_cast<double>(n);
    double logRatio = std::log(nn / m);
    double integral = std::exp((1.0 - s) * std::log(m)) * logRatio * Helper2((1.0 - s) * logRatio);
    auto d1 = [s](double x) {
        return -s * std::exp((-s - 1) * std::log(x));
    };
    auto d3 = [s](double x) {
        return -s * (s + 1) * (s + 2) * std::exp((-s - 3) * std::log(x));
    };
    auto d5 = [s](double x) {
        return -s * (s + 1) * (s + 2) * (s + 3) * (s + 4) * std::exp((-s - 5) * std::log(x));
    };
    double tail = integral + (f(m) + f(nn)) / 2 + (d1(nn) - d1(m)) / 12 - (d3(nn) - d3(m)) / 720 +
                  (d5(nn) - d5(m)) / 30240;
    return sum + tail;
}

} // namespace ns3
