/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef REGISTER_ARRAY_H
#define REGISTER_ARRAY_H

#include "pipeline-resources.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class PipelinePass;

/**
 * \ingroup ina-fabric
 * The storage of one declared register array: `lanes` physical arrays of `entries` cells, each
 * `widthBits` wide. The data path reaches it only through a PipelinePass, which enforces the
 * hardware's access rules; the control-plane methods here have no such rules (a P4Runtime-style
 * register read or write, for initialisation, checks and tests).
 *
 * A cell holds a widthBits-bit pattern. Arithmetic wraps modulo 2^widthBits like the hardware: read
 * as signed, a 32-bit cell is an int32 in two's complement, so INT32_MAX + 1 reads as INT32_MIN.
 */
class RegisterArray
{
  public:
    /**
     * \param decl the validated declaration (PipelineResources::Check accepted it)
     * \param program the owning program's name, for violation messages
     */
    RegisterArray(const RegisterArrayDecl& decl, const std::string& program);
    RegisterArray(const RegisterArray&) = delete;
    RegisterArray& operator=(const RegisterArray&) = delete;

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

    /// \return cells per lane
    uint32_t GetEntries() const
    {
        return m_entries;
    }

    /// \return cell width in bits
    uint32_t GetWidthBits() const
    {
        return m_widthBits;
    }

    /// \return number of lanes (physical arrays)
    uint32_t GetLanes() const
    {
        return m_lanes;
    }

    /// \return whether lanes count against ValuesPerPass
    bool IsPayload() const
    {
        return m_payload;
    }

    /// \return the stage holding `lane`
    uint32_t GetStage(uint32_t lane) const
    {
        return m_firstStage + lane / m_lanesPerStage;
    }

    /**
     * Control plane: read a cell, no access rule.
     * \param index cell index
     * \param lane lane
     * \return the cell's bit pattern, zero-extended
     */
    uint64_t ControlRead(uint32_t index, uint32_t lane = 0) const;

    /**
     * Control plane: write a cell (truncated to the width), no access rule.
     * \param index cell index
     * \param lane lane
     * \param value new bit pattern
     */
    void ControlWrite(uint32_t index, uint32_t lane, uint64_t value);

    /// Control plane: set every cell of every lane to `value` (truncated to the width).
    void ControlFill(uint64_t value);

    /**
     * \param bits a cell's bit pattern
     * \return the pattern read as a two's-complement number of this array's width
     */
    int64_t ToSigned(uint64_t bits) const
    {
        return static_cast<int64_t>(bits << m_signShift) >> m_signShift;
    }

    /// \return `value` truncated to this array's width
    uint64_t Truncate(uint64_t value) const
    {
        return value & m_mask;
    }

  private:
    friend class PipelinePass;

    /// Throws std::out_of_range naming the array when (index, lane) is outside it.
    void CheckControlIndex(uint32_t index, uint32_t lane) const;

    std::string m_name;       //!< declared name
    std::string m_program;    //!< owning program
    uint32_t m_entries;       //!< cells per lane
    uint32_t m_widthBits;     //!< cell width
    uint32_t m_lanes;         //!< lanes
    uint32_t m_firstStage;    //!< stage of lane 0
    uint32_t m_lanesPerStage; //!< lanes per stage
    bool m_payload;           //!< counts against ValuesPerPass
    uint64_t m_mask;          //!< widthBits low bits set
    unsigned m_signShift;     //!< 64 - widthBits

    /// Cells, index-major: the lanes of one index are contiguous, so a vector access is one run.
    std::vector<uint64_t> m_cells;
    /// Per lane, the id of the last pass that accessed it (0: never).
    std::vector<uint64_t> m_lastPass;
};

} // namespace ns3

#endif /* REGISTER_ARRAY_H */
