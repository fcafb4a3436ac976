/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SPARSE_WORKLOAD_H
#define SPARSE_WORKLOAD_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * A sparse (embedding-table) training workload with hot and cold parameters, as in Libra.
 *
 * The table has R rows of D floats (a row's gradient is 4 D bytes). In every iteration each
 * worker makes K accesses, each drawing a row from a Zipf(s) law over popularity ranks
 * (P(rank k) proportional to 1 / (k + 1)^s, k = 0 .. R-1); the rows it touched, without
 * duplicates, are the rows whose gradients it sends. Ranks are mapped to row ids by a fixed
 * pseudo-random permutation, so the hot rows are spread over the table rather than being rows
 * 0 .. h-1; every worker sees the same permutation (the hot set is a property of the model).
 *
 * Everything is a pure function of (seed, worker, iteration), reproducible across platforms and
 * standard libraries:
 *  - the permutation is a 4-round Feistel network on the smallest even-bit-width domain
 *    covering R, with cycle walking, round keys SplitMix64(seed + 0x5045524d00 + i);
 *  - the accesses of (worker w, iteration i) come from std::mt19937_64 (its output sequence is
 *    fixed by the C++ standard) seeded with SplitMix64(SplitMix64(SplitMix64(seed) ^ w) ^ i),
 *    turned into doubles in [0, 1) as (x >> 11) * 2^-53;
 *  - a Zipf draw is the rejection-inversion method of W. Hörmann and G. Derflinger, "Rejection-
 *    inversion to generate variates from monotone discrete distributions", ACM TOMACS 6(3),
 *    1996: O(1) time and memory for any R, no table (std::*_distribution is not used: its
 *    algorithms differ between standard libraries). It uses std::exp/log/log1p/expm1, so a libm
 *    that rounds differently could in principle flip a draw that falls on an accept/reject edge.
 *
 * SplitMix64(z) is Steele, Lea and Flood's finaliser: z += 0x9e3779b97f4a7c15;
 * z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9; z = (z ^ z >> 27) * 0x94d049bb133111eb; z ^ z >> 31.
 */
class SparseWorkload
{
  public:
    /**
     * \param rows R, the number of rows of the table (>= 1)
     * \param dim D, floats per row (>= 1)
     * \param accessesPerIteration K, row draws per worker and iteration (>= 1)
     * \param exponent s, the Zipf exponent (>= 0; 0 is uniform)
     * \param seed everything random derives from it
     * \throws std::invalid_argument naming the bad parameter
     */
    SparseWorkload(uint32_t rows,
                   uint32_t dim,
                   uint32_t accessesPerIteration,
                   double exponent,
                   uint64_t seed);

    uint32_t GetRows() const;                 //!< \return R
    uint32_t GetDim() const;                  //!< \return D
    uint64_t GetRowBytes() const;             //!< \return 4 D, the gradient bytes of one row
    uint32_t GetAccessesPerIteration() const; //!< \return K
    double GetExponent() const;               //!< \return s
    uint64_t GetSeed() const;                 //!< \return the seed

    /**
     * \param worker worker index
     * \param iteration iteration index
     * \return the rows the worker updates in that iteration: sorted ascending, no duplicates,
     *         at most K of them
     */
    std::vector<uint32_t> RowsForIteration(uint32_t worker, uint32_t iteration) const;

    /**
     * \param worker worker index
     * \param iteration iteration index
     * \return the K row draws in draw order, duplicates kept (RowsForIteration is these, sorted
     *         and deduplicated)
     */
    std::vector<uint32_t> AccessesForIteration(uint32_t worker, uint32_t iteration) const;

    /**
     * \param rank popularity rank, 0 = hottest, < R
     * \return the row id with that rank
     */
    uint32_t RowOfRank(uint32_t rank) const;

    /**
     * \param row a row id < R
     * \return its popularity rank (0 = hottest); inverse of RowOfRank
     */
    uint32_t RankOfRow(uint32_t row) const;

    /**
     * \param h how many (<= R)
     * \return the h hottest rows, hottest first (e.g. Libra's hot set, in heat order)
     */
    std::vector<uint32_t> HotRows(uint32_t h) const;

    /**
     * \param h number of hottest rows
     * \return the exact probability that one access hits one of the h hottest rows,
     *         H(h, s) / H(R, s) with H the generalised harmonic number
     */
    double ExpectedTopShare(uint64_t h) const;

    /**
     * \param h number of hottest rows
     * \param workers workers 0 .. workers-1 are counted
     * \param iterations iterations 0 .. iterations-1 are counted
     * \return the fraction of all accesses (draws, duplicates included) that hit the h hottest
     *         rows; tends to ExpectedTopShare(h)
     */
    double MeasuredTopShare(uint32_t h, uint32_t workers, uint32_t iterations) const;

    /**
     * \param h number of hottest rows
     * \param workers workers 0 .. workers-1 are counted
     * \param iterations iterations 0 .. iterations-1 are counted
     * \return the fraction of all row updates (RowsForIteration entries, i.e. what workers
     *         send, which is how Libra counts "updates") that are for the h hottest rows
     */
    double MeasuredUpdateTopShare(uint32_t h, uint32_t workers, uint32_t iterations) const;

    /**
     * \param n number of terms
     * \param s exponent (>= 0)
     * \return H(n, s) = sum over k = 1 .. n of k^-s (exact summation of the first 10^5 terms,
     *         Euler-Maclaurin with three Bernoulli corrections beyond; relative error below 1e-12)
     */
    static double GeneralizedHarmonic(uint64_t n, double s);

  private:
    /// \return a Zipf-distributed rank in [0, R) from the generator
    template<class Rng>
    uint32_t DrawRank(Rng& rng) const;

    uint64_t FeistelForward(uint64_t x) const;
    uint64_t FeistelBackward(uint64_t x) const;

    double H(double x) const;                //!< x^-s
    double HIntegral(double x) const;        //!< integral of t^-s from 1 to x
    double HIntegralInverse(double x) const; //!< inverse of HIntegral

    uint32_t m_rows;
    uint32_t m_dim;
    uint32_t m_accesses;
    double m_exponent;
    uint64_t m_seed;

    // Feistel permutation
    uint32_t m_halfBits;
    uint64_t m_halfMask;
    uint64_t m_roundKeys[4];

    // rejection-inversion constants
    double m_hIntegralX1;
    double m_hIntegralN;
    double m_squeeze;
};

} // namespace ns3

#endif /* SPARSE_WORKLOAD_H */
