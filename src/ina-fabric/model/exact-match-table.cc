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

std::string
ExactMatchTable::Describe() const
{
    return "table \"" + m_name + "\" of \"" + m_program + "\"";
}

void
ExactMatchTable::Insert(uint64_t key, uint64_t value)
{
    if ((key & ~m_keyMask) != 0)
    {
        throw std::invalid_argument(Describe() + ": key " + std::to_string(key) +
                                    " does not fit in " + std::to_string(m_keyBits) + " bit");
    }
    if ((value & ~m_valueMask) != 0)
    {
        throw std::invalid_argument(Describe() + ": value " + std::to_string(value) +
                                    " does not fit in " + std::to_string(m_valueBits) + " bit");
    }
    if (Find(key, nullptr))
    {
        if (m_direct)
        {
            m_directValues[key] = value;
            return;
        }
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
        throw std::length_error(Describe() + " is full: it was declared with " +
                                std::to_string(m_capacity) + " entries");
    }
    ++m_size;
    if (m_direct)
    {
        m_directUsed[key] = 1;
        m_directValues[key] = value;
        return;
    }
    size_t i = Home(key);
    while (m_slots[i].used)
    {
        i = (i + 1) & m_slotMask;
    }
    m_slots[i] = Slot{key, value, true};
}

void
ExactMatchTable::InsertDense(const std::vector<uint16_t>& values)
{
    if (values.empty())
    {
        return;
    }
    const uint64_t n = values.size();
    if (((n - 1) & ~m_keyMask) != 0)
    {
        throw std::invalid_argument(Describe() + ": key " + std::to_string(n - 1) +
                                    " does not fit in " + std::to_string(m_keyBits) + " bit");
    }
    if (m_valueBits < 16)
    {
        const uint16_t largest = *std::max_element(values.begin(), values.end());
        if ((largest & ~m_valueMask) != 0)
        {
            throw std::invalid_argument(Describe() + ": value " + std::to_string(largest) +
                                        " does not fit in " + std::to_string(m_valueBits) + " bit");
        }
    }
    uint64_t present = 0;
    if (m_direct)
    {
        present = std::count(m_directUsed.begin(), m_directUsed.begin() + n, uint8_t{1});
    }
    else
    {
        for (uint64_t key = 0; key < n; ++key)
        {
            present += Find(key, nullptr) ? 1 : 0;
        }
    }
    if (m_size + (n - present) > m_capacity)
    {
        throw std::length_error(Describe() + " is full: it was declared with " +
                                std::to_string(m_capacity) + " entries");
    }
    if (!m_direct)
    {
        for (uint64_t key = 0; key < n; ++key)
        {
            Insert(key, values[key]); // checked above: cannot throw
        }
        return;
    }
    m_size += static_cast<uint32_t>(n - present);
    std::copy(values.begin(), values.end(), m_directValues.begin());
    std::fill(m_directUsed.begin(), m_directUsed.begin() + n, uint8_t{1});
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
