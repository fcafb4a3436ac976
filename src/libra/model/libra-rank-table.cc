/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-rank-table.h"

#include <stdexcept>
#include <string>

namespace ns3
{

LibraRankTable::LibraRankTable(std::vector<uint32_t> hotKeysByRank)
    : m_keys(std::move(hotKeysByRank))
{
    if (m_keys.empty())
    {
        return;
    }
    if (m_keys.size() >= NO_RANK)
    {
        throw std::invalid_argument("Libra rank table: " + std::to_string(m_keys.size()) +
                                    " hot keys; ranks must stay below 4294967295");
    }
    unsigned bits = 1;
    while ((uint64_t{1} << bits) < 2 * static_cast<uint64_t>(m_keys.size()))
    {
        ++bits;
    }
    m_slots.assign(uint64_t{1} << bits, EMPTY);
    m_mask = (uint64_t{1} << bits) - 1;
    m_shift = 64 - bits;
    for (uint32_t rank = 0; rank < m_keys.size(); ++rank)
    {
        const uint32_t key = m_keys[rank];
        uint64_t i = Home(key);
        while (m_slots[i] != EMPTY)
        {
            if (static_cast<uint32_t>(m_slots[i] >> 32) == key)
            {
                throw std::invalid_argument(
                    "Libra rank table: key " + std::to_string(key) + " has rank " +
                    std::to_string(static_cast<uint32_t>(m_slots[i])) + " and rank " +
                    std::to_string(rank) + "; a key must appear once");
            }
            i = (i + 1) & m_mask;
        }
        m_slots[i] = (static_cast<uint64_t>(key) << 32) | rank;
    }
}

uint32_t
LibraRankTable::KeyOf(uint32_t rank) const
{
    if (rank >= m_keys.size())
    {
        throw std::out_of_range("Libra rank table: rank " + std::to_string(rank) +
                                " is not below the hot-key count " + std::to_string(m_keys.size()));
    }
    return m_keys[rank];
}

} // namespace ns3
