/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_HOT_SET_H
#define LIBRA_HOT_SET_H

#include "libra-rank-table.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class SparseWorkload;

/**
 * \ingroup libra
 * Libra's hot-parameter identification (paper Sec. 3.3 and Sec. 5.3, spec A.3): the parameters
 * ranked by how many updates they received, the choice of how many of them are hot (k), and the
 * precision of a hot set found on a sample of the training data against the one found on all of it.
 *
 * An *update* of a key is one push of one worker that carries a non-zero gradient for it, as the
 * paper counts them at the PS; from a SparseWorkload trace that is one entry of
 * RowsForIteration(worker, iteration) (a row drawn twice in one push is one update).
 *
 * Ranking: descending update count; equal counts are ordered by ascending key, so the ranking is
 * a pure function of the counts (no dependence on input order or on a sort's stability). Keys
 * with no update are not ranked: they can never be hot.
 *
 * Choosing k:
 * - Principle 1 (Sec. 3.3): the smallest k with T_k / T_n >= p, and it must satisfy
 *   4 B * k <= c * 20 MB (T_k: updates of the top k keys, T_n: all updates);
 * - the knee rule the paper uses to build H_g and H_s (Sec. 5.3): add keys in rank order in blocks
 * of 1,000 until a block raises the cumulative update share by less than 1 %. *Interpretation*: the
 * "increase" is the block's share of all updates (T_end - T_begin) / T_n, in absolute terms, and
 * the block that falls below the threshold is the last one added ("add ... till the increase falls
 * below"), so a hot set is never empty and is a whole number of blocks unless the ranking runs out.
 *
 * Sampled mode (A.3 steps 1-2): the paper trains on a random sample (4-8 %) of the data set. A
 * SparseWorkload's pushes are independent and identically distributed over (worker, iteration),
 * so the sample is the first ceil(f * iterations) iterations of every worker: a uniform random
 * sample of the pushes, deterministic, and nested (the 4 % sample is part of the 8 % one, which
 * is part of the full trace, as a sample of the training set is part of the training set).
 */
class LibraHotSet
{
  public:
    /// The switch SRAM Principle 1 assumes: 20 MB (MB = 2^20 B, as 656.5 KB = 3.21 % shows).
    static constexpr uint64_t SWITCH_SRAM_BYTES = 20ULL * 1048576;
    /// Bytes one hot parameter takes on the switch (Principle 1).
    static constexpr uint32_t BYTES_PER_HOT_KEY = 4;
    /// The knee rule's block (Sec. 5.3).
    static constexpr uint32_t KNEE_BLOCK_KEYS = 1000;
    /// The knee rule's threshold (Sec. 5.3): 1 % of all updates.
    static constexpr double KNEE_MIN_GAIN = 0.01;

    /// A key and its update count.
    struct KeyCount
    {
        uint32_t key = 0;   //!< parameter key
        uint64_t count = 0; //!< updates
    };

    /**
     * Rank keys by their counts.
     * \param counts one entry per key, any order; entries with count 0 are ignored
     * \throws std::invalid_argument naming a key listed twice
     */
    explicit LibraHotSet(std::vector<KeyCount> counts);

    /**
     * \param countsByKey entry i is the update count of key i
     * \return the ranking
     */
    static LibraHotSet FromDenseCounts(const std::vector<uint64_t>& countsByKey);

    /**
     * Count the updates of a trace: every row of RowsForIteration(w, i) for w < workers,
     * i < iterations.
     * \param workload the trace
     * \param workers workers counted (>= 1)
     * \param iterations iterations counted (>= 1)
     * \return the ranking
     * \throws std::invalid_argument when workers or iterations is 0
     */
    static LibraHotSet FromTrace(const SparseWorkload& workload,
                                 uint32_t workers,
                                 uint32_t iterations);

    /**
     * The sampled mode: FromTrace over SampledIterations(iterations, fraction) iterations.
     * \param workload the trace
     * \param workers workers (all of them are sampled)
     * \param iterations iterations of the full trace
     * \param fraction sampling rate f, in (0, 1]
     * \return the ranking the sample gives
     * \throws std::invalid_argument for f outside (0, 1] or a count of 0
     */
    static LibraHotSet FromSampledTrace(const SparseWorkload& workload,
                                        uint32_t workers,
                                        uint32_t iterations,
                                        double fraction);

    /**
     * \param iterations iterations of the full trace (>= 1)
     * \param fraction f in (0, 1]
     * \return ceil(f * iterations), the iterations of the sample (at least 1)
     * \throws std::invalid_argument for f outside (0, 1] or iterations 0
     */
    static uint32_t SampledIterations(uint32_t iterations, double fraction);

    /// \return the number of ranked keys (keys with at least one update)
    uint32_t GetNRanked() const
    {
        return static_cast<uint32_t>(m_keys.size());
    }

    /// \return T_n, all updates
    uint64_t GetTotalUpdates() const
    {
        return m_prefix.back();
    }

    /**
     * \param rank a rank below GetNRanked()
     * \return the key with that rank (throws std::out_of_range otherwise)
     */
    uint32_t GetKey(uint32_t rank) const;

    /**
     * \param rank a rank below GetNRanked()
     * \return its update count uf_(rank+1) (throws std::out_of_range otherwise)
     */
    uint64_t GetCount(uint32_t rank) const;

    /**
     * Set-up time lookup (binary search); workers use MakeRankTable's O(1) table instead.
     * \param key a key
     * \return its rank, or LibraRankTable::NO_RANK when it has no update
     */
    uint32_t GetRank(uint32_t key) const;

    /**
     * \param k keys (clamped to GetNRanked())
     * \return T_k, the updates of the k hottest keys
     */
    uint64_t GetTopUpdates(uint32_t k) const;

    /**
     * \param k keys (clamped to GetNRanked())
     * \return T_k / T_n (0 when there is no update)
     */
    double GetTopShare(uint32_t k) const;

    /**
     * \param k keys (clamped to GetNRanked())
     * \return the k hottest keys, hottest first
     */
    std::vector<uint32_t> GetTopKeys(uint32_t k) const;

    /**
     * \param k hot keys (at most GetNRanked())
     * \return the workers' key <-> rank table for the k hottest keys
     * \throws std::invalid_argument when k exceeds GetNRanked()
     */
    LibraRankTable MakeRankTable(uint32_t k) const;

    /**
     * Principle 1's memory condition.
     * \param c share of the switch SRAM for Libra's registers, in (0, 1)
     * \param sramBytes the switch SRAM
     * \param bytesPerKey bytes per hot key
     * \return the largest k with bytesPerKey * k <= c * sramBytes
     * \throws std::invalid_argument for c outside (0, 1), or sramBytes or bytesPerKey 0
     */
    static uint32_t MaxHotKeys(double c,
                               uint64_t sramBytes = SWITCH_SRAM_BYTES,
                               uint32_t bytesPerKey = BYTES_PER_HOT_KEY);

    /**
     * Principle 1: the smallest k whose top-k share reaches p, checked against the memory cap.
     * \param p traffic share the switch should absorb, in (0, 1)
     * \param c share of the switch SRAM, in (0, 1)
     * \param sramBytes the switch SRAM
     * \param bytesPerKey bytes per hot key
     * \return k
     * \throws std::invalid_argument for p or c outside (0, 1), no updates at all, or when the k
     *         that p needs exceeds MaxHotKeys(c) (the message names p, c, both k and the bytes)
     */
    uint32_t ChooseByPrinciple1(double p,
                                double c,
                                uint64_t sramBytes = SWITCH_SRAM_BYTES,
                                uint32_t bytesPerKey = BYTES_PER_HOT_KEY) const;

    /**
     * The knee rule (see the class description).
     * \param blockKeys keys per block (>= 1)
     * \param minGain threshold on a block's share of all updates, in (0, 1)
     * \return k, a multiple of blockKeys unless the ranking ran out first
     * \throws std::invalid_argument for blockKeys 0, minGain outside (0, 1), or no updates
     */
    uint32_t ChooseByKnee(uint32_t blockKeys = KNEE_BLOCK_KEYS,
                          double minGain = KNEE_MIN_GAIN) const;

    /**
     * The paper's identification precision |H_g intersect H_s| / |H_g| (Sec. 5.3).
     * \param global H_g, the hot keys from the full data
     * \param sampled H_s, the hot keys from the sample
     * \return the precision in [0, 1]
     * \throws std::invalid_argument when H_g is empty or a set lists a key twice
     */
    static double Precision(const std::vector<uint32_t>& global,
                            const std::vector<uint32_t>& sampled);

  private:
    std::vector<uint32_t> m_keys;   //!< rank -> key
    std::vector<uint64_t> m_counts; //!< rank -> updates
    std::vector<uint64_t> m_prefix; //!< m_prefix[k] = T_k, size ranked + 1
    std::vector<uint64_t> m_byKey;  //!< key << 32 | rank, sorted, for GetRank
};

} // namespace ns3

#endif /* LIBRA_HOT_SET_H */
