/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PIPELINE_PASS_H
#define PIPELINE_PASS_H

#include "exact-match-table.h"
#include "ina-packet.h"
#include "register-array.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * A switch program broke a rule of the hardware (a second access to a register array in one pass,
 * a backward stage, too many values, an index out of range, a packet not ended). It is a program
 * bug, so it is thrown, names program, resource, stage and rule, and the scenario runner reports
 * it.
 */
class PipelineViolation : public std::logic_error
{
  public:
    using std::logic_error::logic_error;
};

/**
 * \ingroup ina-fabric
 * One pass of one packet through the pipeline, and the only door to register arrays and tables
 * from the data path. It enforces what a Tofino-like pipeline allows a packet in one pass:
 * - at most one access (read, write or read-modify-write) per register array lane;
 * - accesses in non-decreasing stage order (going back needs another pass);
 * - at most ValuesPerPass payload lanes in total (the PHV limit);
 * - at most one lookup per table.
 * A program that needs more calls Recirculate() and continues in the next pass.
 *
 * Each check is an integer compare against a per-lane "last pass id", so the success path builds no
 * string and looks nothing up. The int32 operations act on the low 32 bits of wider cells and see
 * narrower cells sign-extended from their width.
 *
 * Pipeline makes one per pass on the stack; a program must not keep it past DoProcess.
 */
class PipelinePass
{
  public:
    /**
     * \param passId unique among all passes that touch the same register arrays (never 0)
     * \param packet the packet; its `passes` already counts this pass
     * \param inPort the port it entered the switch by
     * \param valuesPerPass payload lanes this pass may touch
     */
    PipelinePass(uint64_t passId, InaPacket* packet, uint32_t inPort, uint32_t valuesPerPass)
        : m_id(passId)
        , m_packet(packet)
        , m_uid(packet != nullptr ? packet->uid : 0)
        , m_passIndex(packet != nullptr && packet->passes > 0 ? packet->passes - 1 : 0)
        , m_inPort(inPort)
        , m_valuesPerPass(valuesPerPass)
    {
    }

    PipelinePass(const PipelinePass&) = delete;
    PipelinePass& operator=(const PipelinePass&) = delete;

    /// \return the packet in this pass
    InaPacket* GetPacket() const
    {
        return m_packet;
    }

    /// \return the switch port the packet came in by
    uint32_t GetInPort() const
    {
        return m_inPort;
    }

    /// \return 0 for a packet's first pass at this switch, 1 after one recirculation, ...
    uint32_t GetPassIndex() const
    {
        return m_passIndex;
    }

    /// \return this pass's unique id
    uint64_t GetId() const
    {
        return m_id;
    }

    /// \return the highest stage accessed so far (0 before any access)
    uint32_t GetStage() const
    {
        return m_stage;
    }

    /// \return payload lanes touched so far
    uint32_t GetValuesTouched() const
    {
        return m_values;
    }

    /**
     * Read one cell.
     * \param a the array
     * \param index cell index
     * \param lane lane
     * \return the cell's bit pattern, zero-extended (RegisterArray::ToSigned reads it signed)
     */
    uint64_t Read(RegisterArray& a, uint32_t index, uint32_t lane = 0)
    {
        Claim(a, index, lane, 1);
        return a.m_cells[Cell(a, index, lane)];
    }

    /**
     * Write one cell (truncated to the array's width).
     * \param a the array
     * \param index cell index
     * \param lane lane
     * \param value new bit pattern
     */
    void Write(RegisterArray& a, uint32_t index, uint32_t lane, uint64_t value)
    {
        Claim(a, index, lane, 1);
        a.m_cells[Cell(a, index, lane)] = value & a.m_mask;
    }

    /**
     * One read-modify-write of one cell, as a stateful ALU does it: `fn(uint64_t& cell)` sees the
     * zero-extended bit pattern, may change it (the result is truncated to the width, i.e. wraps)
     * and may return a uint64_t output, which is returned here (0 when `fn` returns void).
     * \param a the array
     * \param index cell index
     * \param lane lane
     * \param fn the action
     * \return fn's output
     */
    template<typename F>
    uint64_t ReadModifyWrite(RegisterArray& a, uint32_t index, uint32_t lane, F&& fn)
    {
        Claim(a, index, lane, 1);
        uint64_t& cell = a.m_cells[Cell(a, index, lane)];
        uint64_t v = cell;
        uint64_t out = 0;
        if constexpr (std::is_void_v<decltype(fn(v))>)
        {
            fn(v);
        }
        else
        {
            out = static_cast<uint64_t>(fn(v));
        }
        cell = v & a.m_mask;
        return out;
    }

    /**
     * One read-modify-write on each of `laneCount` lanes of one index: fn(lane, cell) per lane,
     * results truncated to the width.
     * \param a the array
     * \param index cell index
     * \param laneBegin first lane
     * \param laneCount lanes
     * \param fn void(uint32_t lane, uint64_t& cell)
     */
    template<typename F>
    void ReadModifyWriteLanes(RegisterArray& a,
                              uint32_t index,
                              uint32_t laneBegin,
                              uint32_t laneCount,
                              F&& fn)
    {
        Claim(a, index, laneBegin, laneCount);
        uint64_t* cell = a.m_cells.data() + Cell(a, index, laneBegin);
        for (uint32_t i = 0; i < laneCount; ++i)
        {
            uint64_t v = cell[i];
            fn(laneBegin + i, v);
            cell[i] = v & a.m_mask;
        }
    }

    /**
     * Add `in` into `laneCount` lanes of cell `index` (wrapping at the width) and optionally return
     * the new values: the aggregation step of SwitchML, ATP and ESA.
     * \param a the array
     * \param index cell index
     * \param laneBegin first lane
     * \param laneCount lanes
     * \param in laneCount addends
     * \param out laneCount results after the add, or nullptr
     */
    void RmwAdd(RegisterArray& a,
                uint32_t index,
                uint32_t laneBegin,
                uint32_t laneCount,
                const int32_t* in,
                int32_t* out)
    {
        Claim(a, index, laneBegin, laneCount);
        uint64_t* cell = a.m_cells.data() + Cell(a, index, laneBegin);
        const uint64_t mask = a.m_mask;
        for (uint32_t i = 0; i < laneCount; ++i)
        {
            cell[i] = (cell[i] + static_cast<uint64_t>(static_cast<int64_t>(in[i]))) & mask;
        }
        if (out != nullptr)
        {
            SignedLanes(cell, a.m_signShift, laneCount, out);
        }
    }

    /**
     * Read `laneCount` lanes of cell `index` as int32.
     * \param a the array
     * \param index cell index
     * \param laneBegin first lane
     * \param laneCount lanes
     * \param out laneCount values
     */
    void ReadLanes(RegisterArray& a,
                   uint32_t index,
                   uint32_t laneBegin,
                   uint32_t laneCount,
                   int32_t* out)
    {
        Claim(a, index, laneBegin, laneCount);
        SignedLanes(a.m_cells.data() + Cell(a, index, laneBegin), a.m_signShift, laneCount, out);
    }

    /**
     * Overwrite `laneCount` lanes of cell `index` with `in`, optionally returning the old values in
     * the same access (ESA's swap; SwitchML's first contribution of a phase).
     * \param a the array
     * \param index cell index
     * \param laneBegin first lane
     * \param laneCount lanes
     * \param in laneCount new values
     * \param oldOut laneCount old values, or nullptr
     */
    void WriteLanes(RegisterArray& a,
                    uint32_t index,
                    uint32_t laneBegin,
                    uint32_t laneCount,
                    const int32_t* in,
                    int32_t* oldOut = nullptr)
    {
        Claim(a, index, laneBegin, laneCount);
        uint64_t* cell = a.m_cells.data() + Cell(a, index, laneBegin);
        const uint64_t mask = a.m_mask;
        if (oldOut != nullptr)
        {
            SignedLanes(cell, a.m_signShift, laneCount, oldOut);
        }
        for (uint32_t i = 0; i < laneCount; ++i)
        {
            cell[i] = static_cast<uint64_t>(static_cast<int64_t>(in[i])) & mask;
        }
    }

    /**
     * Look a key up (one lookup per table per pass, in stage order).
     * \param t the table
     * \param key the key (truncated to the table's key width, like a header field)
     * \param value set to the entry's value on a hit (may be nullptr)
     * \return whether the key is present
     */
    bool Lookup(ExactMatchTable& t, uint64_t key, uint64_t* value)
    {
        if (t.m_stage < m_stage)
        {
            FailTableBackward(t);
        }
        if (t.m_lastPass == m_id)
        {
            FailTableSecond(t);
        }
        t.m_lastPass = m_id;
        m_stage = t.m_stage;
        return t.Find(key, value);
    }

    /**
     * Ask for another pass: when DoProcess returns, the packet goes through the recirculation port
     * and comes back for pass GetPassIndex() + 1. The packet must then not be handed to an action
     * in this pass.
     */
    void Recirculate()
    {
        if (m_recirculate)
        {
            FailRecirculateTwice();
        }
        m_recirculate = true;
    }

    /// \return whether Recirculate() was called
    bool IsRecirculating() const
    {
        return m_recirculate;
    }

    /// \return how often the pass's own packet was handed to an action (SwitchProgram counts)
    uint32_t GetPacketEndings() const
    {
        return m_endings;
    }

  private:
    friend class SwitchProgram;

    static size_t Cell(const RegisterArray& a, uint32_t index, uint32_t lane)
    {
        return static_cast<size_t>(index) * a.m_lanes + lane;
    }

    /// `laneCount` lanes of a cell as int32, sign-extended from the array's width (`shift` is
    /// its m_signShift): what RmwAdd, ReadLanes and WriteLanes hand back.
    static void SignedLanes(const uint64_t* cell, unsigned shift, uint32_t laneCount, int32_t* out)
    {
        for (uint32_t i = 0; i < laneCount; ++i)
        {
            out[i] = static_cast<int32_t>(static_cast<int64_t>(cell[i] << shift) >> shift);
        }
    }

    /// Enforce the access rules for lanes [laneBegin, laneBegin + laneCount) of `a`.
    void Claim(RegisterArray& a, uint32_t index, uint32_t laneBegin, uint32_t laneCount)
    {
        if (index >= a.m_entries || laneCount == 0 || laneBegin >= a.m_lanes ||
            laneCount > a.m_lanes - laneBegin)
        {
            FailRange(a, index, laneBegin, laneCount);
        }
        const uint32_t firstStage = a.GetStage(laneBegin);
        if (firstStage < m_stage)
        {
            FailBackward(a, laneBegin, firstStage);
        }
        if (a.m_payload)
        {
            if (laneCount > m_valuesPerPass - m_values)
            {
                FailValues(a, laneBegin, laneCount);
            }
            m_values += laneCount;
        }
        uint64_t* last = a.m_lastPass.data() + laneBegin;
        for (uint32_t i = 0; i < laneCount; ++i)
        {
            if (last[i] == m_id)
            {
                FailSecond(a, laneBegin + i);
            }
            last[i] = m_id;
        }
        m_stage = a.GetStage(laneBegin + laneCount - 1);
    }

    /// \return "pass 0 of packet uid 17"
    std::string Where() const;
    [[noreturn]] void FailRange(const RegisterArray& a,
                                uint32_t index,
                                uint32_t laneBegin,
                                uint32_t laneCount) const;
    [[noreturn]] void FailBackward(const RegisterArray& a, uint32_t lane, uint32_t stage) const;
    [[noreturn]] void FailValues(const RegisterArray& a,
                                 uint32_t laneBegin,
                                 uint32_t laneCount) const;
    [[noreturn]] void FailSecond(const RegisterArray& a, uint32_t lane) const;
    [[noreturn]] void FailTableBackward(const ExactMatchTable& t) const;
    [[noreturn]] void FailTableSecond(const ExactMatchTable& t) const;
    [[noreturn]] void FailRecirculateTwice() const;

    uint64_t m_id;              //!< unique pass id
    InaPacket* m_packet;        //!< the packet
    uint64_t m_uid;             //!< its uid (for messages once the packet has been handed on)
    uint32_t m_passIndex;       //!< passes before this one
    uint32_t m_inPort;          //!< ingress port
    uint32_t m_valuesPerPass;   //!< payload lane budget
    uint32_t m_stage = 0;       //!< highest stage accessed
    uint32_t m_values = 0;      //!< payload lanes touched
    uint32_t m_endings = 0;     //!< actions the pass's own packet was handed to
    bool m_recirculate = false; //!< Recirculate() called
    const std::string* m_program = nullptr; //!< running program's name (set by SwitchProgram)
};

} // namespace ns3

#endif /* PIPELINE_PASS_H */
