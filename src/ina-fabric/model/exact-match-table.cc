/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "exact-match-table.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{
constexpr uint32_t DIRECT_KEY_BITS = 16;

uint64_t
LowMask(uint32_t bits)
{
    return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}
} // namespace

ExactMatchTable::ExactMatchTable(const TableDecl& decl, const std::string& program)
    : m_name(decl.name)
    , m_program(program)
    , m_capacity(decl.entries)
    , m_keyBits(decl.keyBits)
    , m_valueBits(decl.valueBits)
    , m_stage(decl.stage)
    , m_keyMask(LowMask(decl.keyBits))
    , m_valueMask(LowMask(decl.valueBits))
    , m_direct(decl.keyBits <= DIRECT_KEY_BITS)
{
    if (decl.entries == 0 || decl.keyBits == 0 || decl.keyBits > 64 || decl.valueBits > 64)
    {
        throw std::invalid_argument("table \"" + decl.name + "\" of \"" + program +
                                    "\": expected at least 1 entry, 1-64 bit keys and 0-64 bit "
                                    "values");
    }
    if (m_direct)
    {
        m_directValues.assign(size_t{1} << m_keyBits, 0);
        m_directUsed.assign(size_t{1} << m_keyBits, 0);
    }
    else
    {
        size_t slots = 8;
        while (slots < 2 * static_cast<size_t>(m_capacity))
        {
            slots *= 2;
        }
        m_slots.assign(slots, Slot{0, 0, false});
        m_slotMask = slots - 1;
    }
}

size_t
ExactMatchTable::Home(uint64_t key) const
{
    // splitmix64's finaliser: sequential keys spread over the slots.
    key ^= key >> 30;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 27;
    key *= 0x94d049bb133111ebULL;
    key ^= key >> 31;
    return static_cast<size_t>(key) & m_slotMask;
}

void
ExactMatchTable::Insert(uint64_t key, uint64_t value)
{
    // The table's name for an error, built only when there is one: a switch program fills its
    // tables entry by entry at install.
    auto what = [this]() {
        return "table \"" + m_name + "\" of \"" + m_program + "\"";
    };
    if ((key & ~m_keyMask) != 0)
    {
        throw std::invalid_argument(what() + ": key " + std::to_string(key) + " does not fit in " +
                                    std::to_string(m_keyBits) + " bit");
    }
    if ((value & ~m_valueMask) != 0)
    {
        throw std::invalid_argument(what() + ": value " + std::to_string(value) +
                                    " does not fit in " + std::to_string(m_valueBits) + " bit");
    }
    if (m_direct)
    {
        // One look at the key's flag: Libra's switch fills its LNS tables (209,152 entries) this
        // way at every install, and under the fuzzer's instrumentation each test here is traced.
        if (m_directUsed[key] == 0)
        {
            if (m_size >= m_capacity)
            {
                throw std::length_error(what() + " is full: it was declared with " +
                                        std::to_string(m_capacity) + " entries");
            }
            ++m_size;
            m_directUsed[key] = 1;
        }
        m_directValues[key] = value;
        return;
    }
    if (Find(key, nullptr))
    {
        for (size_t i = Home(key);; i = (i + 1) & m_slotMask)
        {
            if (m_slots[i].key == key)
            {
                m_slots[i].value = value;
                return;
            }
        }
    }
    if (m_size >= m_capacity)
    {
        throw std::length_error(what() + " is full: it was declared with " +
                                std::to_string(m_capacity) + " entries");
    }
    ++m_size;
    size_t i = Home(key);
    while (m_slots[i].used)
    {
        i = (i + 1) & m_slotMask;
    }
    m_slots[i] = Slot{key, value, true};
}

bool
ExactMatchTable::Remove(uint64_t key)
{
    if ((key & ~m_keyMask) != 0 || !Find(key, nullptr))
    {
        return false;
    }
    --m_size;
    if (m_direct)
    {
        m_directUsed[key] = 0;
        m_directValues[key] = 0;
        return true;
    }
    size_t i = Home(key);
    while (m_slots[i].key != key || !m_slots[i].used)
    {
        i = (i + 1) & m_slotMask;
    }
    // Backward-shift deletion keeps every probe chain unbroken without tombstones.
    size_t hole = i;
    for (size_t j = (hole + 1) & m_slotMask; m_slots[j].used; j = (j + 1) & m_slotMask)
    {
        size_t home = Home(m_slots[j].key);
        // Move j into the hole unless its home lies cyclically in (hole, j].
        bool homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!homeBetween)
        {
            m_slots[hole] = m_slots[j];
            hole = j;
        }
    }
    m_slots[hole] = Slot{0, 0, false};
    return true;
}

void
ExactMatchTable::Clear()
{
    std::fill(m_directUsed.begin(), m_directUsed.end(), 0);
    std::fill(m_directValues.begin(), m_directValues.end(), 0);
    std::fill(m_slots.begin(), m_slots.end(), Slot{0, 0, false});
    m_size = 0;
}

} // namespace ns3
