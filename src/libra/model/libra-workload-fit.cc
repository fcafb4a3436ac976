/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-workload-fit.h"

#include "ns3/sparse-workload.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace ns3
{

namespace
{

/// Beyond this many exact terms (or h, if larger) the sum is an integral.
constexpr uint64_t EXACT_TERMS = 100000;
/// Simpson intervals over log k for the tail (even).
constexpr int TAIL_INTERVALS = 2048;
/// The bisection's bracket for s.
constexpr double MAX_EXPONENT = 8.0;

} // namespace

double
LibraWorkloadFit::ExpectedUpdateShare(uint32_t rows,
                                      double exponent,
                                      uint32_t accesses,
                                      uint32_t top)
{
    if (rows == 0 || accesses == 0 || top == 0 || top > rows || !(exponent >= 0))
    {
        std::ostringstream os;
        os << "ExpectedUpdateShare(rows " << rows << ", exponent " << exponent << ", accesses "
           << accesses << ", top " << top << "): expected rows, accesses >= 1, 1 <= top <= rows "
           << "and exponent >= 0";
        throw std::invalid_argument(os.str());
    }
    const double s = exponent;
    const double k = accesses;
    const double harmonic = SparseWorkload::GeneralizedHarmonic(rows, s);
    // Probability that a push of k draws updates a row whose draw probability is x^-s / H.
    auto updated = [s, k, harmonic](double x) {
        const double p = std::exp(-s * std::log(x)) / harmonic;
        return p >= 1.0 ? 1.0 : -std::expm1(k * std::log1p(-p));
    };
    const uint64_t exact = std::min<uint64_t>(rows, std::max<uint64_t>(top, EXACT_TERMS));
    double hot = 0;
    double all = 0;
    for (uint64_t r = exact; r >= 1; --r) // smallest terms first
    {
        const double u = updated(static_cast<double>(r));
        all += u;
        hot += r <= top ? u : 0.0;
    }
    if (exact < rows)
    {
        // sum_{r = exact+1}^{rows} u(r) ~ integral of u(x) over [exact + 1/2, rows + 1/2]; with
        // x = e^t it is the integral of u(e^t) e^t dt, smooth, by Simpson's rule.
        const double a = std::log(static_cast<double>(exact) + 0.5);
        const double b = std::log(static_cast<double>(rows) + 0.5);
        const double step = (b - a) / TAIL_INTERVALS;
        double tail = 0;
        for (int i = 0; i <= TAIL_INTERVALS; ++i)
        {
            const double x = std::exp(a + i * step);
            const double w = (i == 0 || i == TAIL_INTERVALS) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
            tail += w * updated(x) * x;
        }
        all += tail * step / 3.0;
    }
    return all > 0 ? hot / all : 0.0;
}

double
LibraWorkloadFit::SolveExponent(uint32_t rows, uint32_t accesses, uint32_t top, double share)
{
    // Scenarios with several jobs (and benches) solve the same fit again: keep the answers.
    static std::mutex lock;
    static std::map<std::tuple<uint32_t, uint32_t, uint32_t, double>, double> solved;
    const auto key = std::make_tuple(rows, accesses, top, share);
    {
        std::lock_guard<std::mutex> guard(lock);
        auto it = solved.find(key);
        if (it != solved.end())
        {
            return it->second;
        }
    }
    const double low = ExpectedUpdateShare(rows, 0.0, accesses, top);
    const double high = ExpectedUpdateShare(rows, MAX_EXPONENT, accesses, top);
    if (!(share > low && share < high))
    {
        std::ostringstream os;
        os << "no Zipf exponent in [0, " << MAX_EXPONENT << "] gives the top " << top << " of "
           << rows << " rows " << share << " of the updates with " << accesses
           << " draws per push (reachable: " << low << " .. " << high << ")";
        throw std::invalid_argument(os.str());
    }
    double a = 0.0;
    double b = MAX_EXPONENT;
    while (b - a > 1e-9)
    {
        const double mid = 0.5 * (a + b);
        (ExpectedUpdateShare(rows, mid, accesses, top) < share ? a : b) = mid;
    }
    const double s = 0.5 * (a + b);
    std::lock_guard<std::mutex> guard(lock);
    solved[key] = s;
    return s;
}

double
LibraWorkloadFit::FieldUniformUpdateShare(const std::vector<uint32_t>& fieldRows,
                                          uint32_t samples,
                                          uint32_t top)
{
    uint64_t rows = 0;
    for (uint32_t s : fieldRows)
    {
        if (s == 0)
        {
            throw std::invalid_argument("FieldUniformUpdateShare: a field of 0 rows");
        }
        rows += s;
    }
    if (fieldRows.empty() || samples == 0 || top == 0 || top > rows)
    {
        std::ostringstream os;
        os << "FieldUniformUpdateShare(" << fieldRows.size() << " fields of " << rows
           << " rows, samples " << samples << ", top " << top
           << "): expected fields, samples >= 1 and 1 <= top <= rows";
        throw std::invalid_argument(os.str());
    }
    // The hottest rows are the smallest fields' (a row of a field of S is drawn with 1/S).
    std::vector<uint32_t> sizes = fieldRows;
    std::sort(sizes.begin(), sizes.end());
    double hot = 0;
    double all = 0;
    uint64_t left = top;
    for (uint32_t s : sizes)
    {
        const double u = s == 1 ? 1.0 : -std::expm1(samples * std::log1p(-1.0 / s));
        const uint64_t taken = std::min<uint64_t>(left, s);
        hot += static_cast<double>(taken) * u;
        left -= taken;
        all += static_cast<double>(s) * u;
    }
    return hot / all;
}

} // namespace ns3
