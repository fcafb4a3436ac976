/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_RANK_TABLE_H
#define LIBRA_RANK_TABLE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * The mapping a Libra worker keeps between a hot parameter's key (its index in the model) and its
 * heat rank (0 = hottest), the index packets carry (paper Sec. 3.4, spec A.4). Only hot keys are in
 * it: RankOf answers NO_RANK for a cold key, which is how a worker splits a push into its hot and
 * cold parts.
 *
 * RankOf runs once per pushed pair, so it is an open-addressing lookup (multiplicative hash,
 * linear probing, at most half full) in one flat array built once: no allocation, no std::map.
 */
class LibraRankTable
{
  public:
    /// What RankOf returns for a key that is not hot.
    static constexpr uint32_t NO_RANK = 0xffffffffU;

    /// An empty table: every key is cold.
    LibraRankTable() = default;

    /**
     * \param hotKeysByRank the hot keys, hottest first: entry r is the key of rank r
     * \throws std::invalid_argument naming a key that appears twice
     */
    explicit LibraRankTable(std::vector<uint32_t> hotKeysByRank);

    /// \return the number of hot keys
    uint32_t GetSize() const
    {
        return static_cast<uint32_t>(m_keys.size());
    }

    /**
     * \param key a parameter key
     * \return its rank, or NO_RANK when it is not hot
     */
    uint32_t RankOf(uint32_t key) const
    {
        if (m_keys.empty())
        {
            return NO_RANK;
        }
        for (uint64_t i = Home(key);; i = (i + 1) & m_mask)
        {
            const uint64_t slot = m_slots[i];
            if (slot == EMPTY)
            {
                return NO_RANK;
            }
            if (static_cast<uint32_t>(slot >> 32) == key)
            {
                return static_cast<uint32_t>(slot);
            }
        }
    }

    /**
     * \param rank a rank below GetSize()
     * \return the key with that rank (how a worker turns an aggregated rank back into a key)
     * \throws std::out_of_range when rank is not below GetSize()
     */
    uint32_t KeyOf(uint32_t rank) const;

    /// \return the hot keys, hottest first
    const std::vector<uint32_t>& GetKeys() const
    {
        return m_keys;
    }

  private:
    /// An unused slot: key 0xffffffff with rank 0xffffffff cannot occur (ranks are < 2^32 - 1).
    static constexpr uint64_t EMPTY = ~uint64_t{0};

    /// \return the first slot to probe for `key`
    uint64_t Home(uint32_t key) const
    {
        return (key * 0x9e3779b97f4a7c15ULL) >> m_shift;
    }

    std::vector<uint32_t> m_keys;  //!< rank -> key
    std::vector<uint64_t> m_slots; //!< key << 32 | rank, or EMPTY
    uint64_t m_mask = 0;           //!< slots - 1 (slots is a power of two)
    unsigned m_shift = 63;         //!< 64 - log2(slots)
};

} // namespace ns3

#endif /* LIBRA_RANK_TABLE_H */
