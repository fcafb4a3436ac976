/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_WORKLOAD_FIT_H
#define LIBRA_WORKLOAD_FIT_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * The Zipf exponent of a SparseWorkload whose *updates* have the paper's skew.
 *
 * The paper's skew (Sec. 3.1, Fig. 5: the top 30,000 parameters take over half of OA's updates
 * and about 70 % of SE's) is counted at the PS: one update is one push of one worker carrying a
 * parameter, however often the worker's batch touched it. A SparseWorkload draws K rows per push
 * from Zipf(s) and sends each drawn row once, so a hot row drawn many times in one push is still
 * one update, and the top rows' share of updates is well below their share of draws (OA's draw
 * fit s = 0.975 gives 50 % of the draws but 31 % of the updates at K = 10,000). The fit here
 * solves for the s whose expected share of *updates* is the paper's.
 *
 * With p_k = k^-s / H(R, s) a draw's probability of rank k (1-based), a push of K draws updates
 * row k with probability u_k = 1 - (1 - p_k)^K, so the top h rows' expected share of updates is
 * sum_{k <= h} u_k / sum_{k <= R} u_k (a ratio of expectations: over many pushes the measured
 * share tends to it). The first max(h, 100,000) terms are summed exactly, the rest by Simpson's
 * rule over log k (u is smooth there); the share grows with s, so s is found by bisection.
 */
class LibraWorkloadFit
{
  public:
    /**
     * \param rows R, rows of the table (>= 1)
     * \param exponent s >= 0
     * \param accesses K, draws per push (>= 1)
     * \param top h, the hottest rows counted (1 .. R)
     * \return the expected share of updates (rows sent, one per push) that are for the h
     *         hottest rows
     */
    static double ExpectedUpdateShare(uint32_t rows,
                                      double exponent,
                                      uint32_t accesses,
                                      uint32_t top);

    /**
     * \param rows R
     * \param accesses K, draws per push
     * \param top h, the hottest rows
     * \param share the wanted share of updates for them, in (h / R, 1)
     * \return s with ExpectedUpdateShare(R, s, K, h) = share (to 1e-9 in s)
     * \throws std::invalid_argument naming the values when no s in [0, 8] reaches it
     */
    static double SolveExponent(uint32_t rows, uint32_t accesses, uint32_t top, double share);

    /**
     * The share of updates of the hottest rows when each sample looks up one row of every field
     * (an embedding table per categorical feature), uniformly within the field: a row of a field
     * of S rows is updated by a push of n samples with probability 1 - (1 - 1/S)^n, and the
     * hottest rows are those of the smallest fields. It is the least skewed law a model's field
     * sizes allow, for sources that give the sizes and not the popularity within a field.
     * \param fieldRows S_f, the rows of each field (each >= 1)
     * \param samples n, the samples of one push (>= 1)
     * \param top h, the hottest rows counted (1 .. sum of S_f)
     * \return the expected share of updates for the h hottest rows
     * \throws std::invalid_argument naming the bad value
     */
    static double FieldUniformUpdateShare(const std::vector<uint32_t>& fieldRows,
                                          uint32_t samples,
                                          uint32_t top);
};

} // namespace ns3

#endif /* LIBRA_WORKLOAD_FIT_H */
