/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "register-array.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

RegisterArray::RegisterArray(const RegisterArrayDecl& decl, const std::string& program)
    : m_name(decl.name)
    , m_program(program)
    , m_entries(decl.entries)
    , m_widthBits(decl.widthBits)
    , m_lanes(decl.lanes)
    , m_firstStage(decl.firstStage)
    , m_lanesPerStage(decl.lanesPerStage)
    , m_payload(decl.payload)
    , m_mask(decl.widthBits >= 64 ? ~0ULL : (1ULL << decl.widthBits) - 1)
    , m_signShift(64 - decl.widthBits)
{
    if (decl.entries == 0 || decl.lanes == 0 || decl.lanesPerStage == 0 || decl.widthBits == 0 ||
        decl.widthBits > 64)
    {
        throw std::invalid_argument("register array \"" + decl.name + "\" of \"" + program +
                                    "\": entries, lanes and lanesPerStage must be at least 1 and "
                                    "the width 1 to 64 bit");
    }
    m_cells.assign(static_cast<size_t>(m_entries) * m_lanes, 0);
    m_lastPass.assign(m_lanes, 0);
}

void
RegisterArray::CheckControlIndex(uint32_t index, uint32_t lane) const
{
    if (index >= m_entries || lane >= m_lanes)
    {
        throw std::out_of_range("register array \"" + m_name + "\" of \"" + m_program +
                                "\": control-plane access to index " + std::to_string(index) +
                                " lane " + std::to_string(lane) + " but it has " +
                                std::to_string(m_entries) + " entries and " +
                                std::to_string(m_lanes) + " lanes");
    }
}

uint64_t
RegisterArray::ControlRead(uint32_t index, uint32_t lane) const
{
    CheckControlIndex(index, lane);
    return m_cells[static_cast<size_t>(index) * m_lanes + lane];
}

void
RegisterArray::ControlWrite(uint32_t index, uint32_t lane, uint64_t value)
{
    CheckControlIndex(index, lane);
    m_cells[static_cast<size_t>(index) * m_lanes + lane] = value & m_mask;
}

void
RegisterArray::ControlFill(uint64_t value)
{
    std::fill(m_cells.begin(), m_cells.end(), value & m_mask);
}

} // namespace ns3
