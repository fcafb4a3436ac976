/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef EXACT_MATCH_TABLE_H
#define EXACT_MATCH_TABLE_H

#include "pipeline-resources.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class PipelinePass;

/**
 * \ingroup ina-fabric
 * An exact-match table (key -> value) in one stage's SRAM. The control plane fills it (Insert,
 * Remove); the data path looks keys up through PipelinePass::Lookup, once per table per pass.
 *
 * Keys of at most 16 bits index a flat array (Libra's log/exp tables); wider keys go to an
 * open-addressing hash table with linear probing, sized at twice the capacity, so a lookup is a few
 * integer operations and no allocation either way.
 */
class ExactMatchTable
{
  public:
    /**
     * \param decl the validated declaration
     * \param program the owning program's name, for messages
     */
    ExactMatchTable(const TableDecl& decl, const std::string& program);
    ExactMatchTable(const ExactMatchTable&) = delete;
    ExactMatchTable& operator=(const ExactMatchTable&) = delete;

    /**
     * Control plane: add or replace an entry.
     * Throws std::invalid_argument when the key or value does not fit its width, std::length_error
     * when the table already holds its declared number of entries.
     * \param key the key
     * \param value the value
     */
    void Insert(uint64_t key, uint64_t value);

    /**
     * Control plane: remove an entry.
     * \param key the key
     * \return whether it was present
     */
    bool Remove(uint64_t key);

    /// Control plane: remove every entry.
    void Clear();

    /**
     * Control plane: look a key up with no access rule.
     * \param key the key
     * \param value set to the entry's value on a hit (may be nullptr)
     * \return whether the key is present
     */
    bool ControlLookup(uint64_t key, uint64_t* value) const
    {
        return Find(key, value);
    }

    /// \return the declared name
    const std::string& GetName() const
    {
        return m_name;
    }

    /// \return the owning program's name
    const std::string& GetProgramName() const
    {
        return m_program;
    }

    /// \return the stage holding the table
    uint32_t GetStage() const
    {
        return m_stage;
    }

    /// \return the declared capacity
    uint32_t GetCapacity() const
    {
        return m_capacity;
    }

    /// \return entries present
    uint32_t GetSize() const
    {
        return m_size;
    }

  private:
    friend class PipelinePass;

    /// One slot of the hash table.
    struct Slot
    {
        uint64_t key;   //!< key
        uint64_t value; //!< value
        bool used;      //!< occupied
    };

    /// \return home slot of `key` in the hash table
    size_t Home(uint64_t key) const;

    /// The lookup shared by data and control plane.
    bool Find(uint64_t key, uint64_t* value) const
    {
        key &= m_keyMask;
        if (m_direct)
        {
            if (!m_directUsed[key])
            {
                return false;
            }
            if (value != nullptr)
            {
                *value = m_directValues[key];
            }
            return true;
        }
        for (size_t i = Home(key);; i = (i + 1) & m_slotMask)
        {
            const Slot& s = m_slots[i];
            if (!s.used)
            {
                return false;
            }
            if (s.key == key)
            {
                if (value != nullptr)
                {
                    *value = s.value;
                }
                return true;
            }
        }
    }

    std::string m_name;    //!< declared name
    std::string m_program; //!< owning program
    uint32_t m_capacity;   //!< declared entries
    uint32_t m_keyBits;    //!< key width
    uint32_t m_valueBits;  //!< value width
    uint32_t m_stage;      //!< stage
    uint64_t m_keyMask;    //!< keyBits low bits set
    uint64_t m_valueMask;  //!< valueBits low bits set
    uint32_t m_size = 0;   //!< entries present
    bool m_direct;         //!< flat array instead of hash table

    std::vector<uint64_t> m_directValues; //!< flat: value per key
    std::vector<uint8_t> m_directUsed;    //!< flat: key present
    std::vector<Slot> m_slots;            //!< hash: open addressing
    size_t m_slotMask = 0;                //!< hash: slots - 1 (a power of two)

    uint64_t m_lastPass = 0; //!< id of the last pass that looked it up
};

} // namespace ns3

#endif /* EXACT_MATCH_TABLE_H */
