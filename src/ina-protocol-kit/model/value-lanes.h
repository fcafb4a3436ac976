/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef VALUE_LANES_H
#define VALUE_LANES_H

#include "int32-quantizer.h"

#include "ns3/pipeline-pass.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * An aggregator's values as ATP's P4-16 code keeps them: lanes of 64-bit register cells, each
 * holding two int32 values (the low half the even element), summed with saturation. Every
 * operation is one ReadModifyWriteLanes access of `lanes` lanes at one aggregator, so the pass is
 * charged exactly as the switch would be; `v` is the packet's 2 x lanes int32 values. Inline: they
 * run once per aggregated packet.
 */
class ValueLanes
{
  public:
    /// \return a cell holding `lo` (even element) and `hi` (odd element)
    static uint64_t Pack(int32_t lo, int32_t hi)
    {
        return (static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32) | static_cast<uint32_t>(lo);
    }

    /// \return the even element of a cell
    static int32_t Lo(uint64_t cell)
    {
        return static_cast<int32_t>(static_cast<uint32_t>(cell));
    }

    /// \return the odd element of a cell
    static int32_t Hi(uint64_t cell)
    {
        return static_cast<int32_t>(static_cast<uint32_t>(cell >> 32));
    }

    /// The aggregator takes the packet's values (a first contribution: values are not cleared
    /// when an aggregator is freed).
    static void Overwrite(PipelinePass& pass,
                          RegisterArray& reg,
                          uint32_t index,
                          uint32_t lanes,
                          const int32_t* v);

    /// The aggregator adds the packet's values; with `copyOut` the packet takes the sums too.
    static void Accumulate(PipelinePass& pass,
                           RegisterArray& reg,
                           uint32_t index,
                           uint32_t lanes,
                           int32_t* v,
                           bool copyOut);

    /// The packet takes the aggregator's values plus its own; the aggregator is left as it was.
    static void AddInto(PipelinePass& pass,
                        RegisterArray& reg,
                        uint32_t index,
                        uint32_t lanes,
                        int32_t* v);

    /// The packet takes the aggregator's values.
    static void ReadOut(PipelinePass& pass,
                        RegisterArray& reg,
                        uint32_t index,
                        uint32_t lanes,
                        int32_t* v);

    /// The aggregator and the packet exchange their values (ESA's "packet swapping").
    static void Swap(PipelinePass& pass,
                     RegisterArray& reg,
                     uint32_t index,
                     uint32_t lanes,
                     int32_t* v);
};

inline void
ValueLanes::Overwrite(PipelinePass& pass,
                      RegisterArray& reg,
                      uint32_t index,
                      uint32_t lanes,
                      const int32_t* v)
{
    pass.ReadModifyWriteLanes(reg, index, 0, lanes, [v](uint32_t l, uint64_t& cell) {
        cell = Pack(v[2 * l], v[2 * l + 1]);
    });
}

inline void
ValueLanes::Accumulate(PipelinePass& pass,
                       RegisterArray& reg,
                       uint32_t index,
                       uint32_t lanes,
                       int32_t* v,
                       bool copyOut)
{
    pass.ReadModifyWriteLanes(reg, index, 0, lanes, [v, copyOut](uint32_t l, uint64_t& cell) {
        const int32_t lo = Int32Quantizer::SaturatingAdd(Lo(cell), v[2 * l]);
        const int32_t hi = Int32Quantizer::SaturatingAdd(Hi(cell), v[2 * l + 1]);
        cell = Pack(lo, hi);
        if (copyOut)
        {
            v[2 * l] = lo;
            v[2 * l + 1] = hi;
        }
    });
}

inline void
ValueLanes::AddInto(PipelinePass& pass,
                    RegisterArray& reg,
                    uint32_t index,
                    uint32_t lanes,
                    int32_t* v)
{
    pass.ReadModifyWriteLanes(reg, index, 0, lanes, [v](uint32_t l, uint64_t& cell) {
        v[2 * l] = Int32Quantizer::SaturatingAdd(Lo(cell), v[2 * l]);
        v[2 * l + 1] = Int32Quantizer::SaturatingAdd(Hi(cell), v[2 * l + 1]);
    });
}

inline void
ValueLanes::ReadOut(PipelinePass& pass,
                    RegisterArray& reg,
                    uint32_t index,
                    uint32_t lanes,
                    int32_t* v)
{
    pass.ReadModifyWriteLanes(reg, index, 0, lanes, [v](uint32_t l, uint64_t& cell) {
        v[2 * l] = Lo(cell);
        v[2 * l + 1] = Hi(cell);
    });
}

inline void
ValueLanes::Swap(PipelinePass& pass, RegisterArray& reg, uint32_t index, uint32_t lanes, int32_t* v)
{
    pass.ReadModifyWriteLanes(reg, index, 0, lanes, [v](uint32_t l, uint64_t& cell) {
        const uint64_t old = cell;
        cell = Pack(v[2 * l], v[2 * l + 1]);
        v[2 * l] = Lo(old);
        v[2 * l + 1] = Hi(old);
    });
}

} // namespace ns3

#endif /* VALUE_LANES_H */
