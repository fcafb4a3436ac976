/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-resources.h"

#include "libra-lns-adder.h"

#include <algorithm>

namespace ns3
{

LibraMemoryAccount
LibraResources::Account(uint32_t hotKeys, bool floatTables)
{
    LibraMemoryAccount a;
    a.hotKeys = hotKeys;
    a.registerBytes = uint64_t{hotKeys} * BYTES_PER_HOT_KEY;
    a.floatTableBytes = floatTables ? LibraLnsAdder::GetTableMemoryBytes() : 0;
    a.controlLogicBytes = CONTROL_LOGIC_BYTES;
    a.switchSramBytes = SWITCH_SRAM_BYTES;
    return a;
}

uint32_t
LibraResources::GetRegisterFirstStage(bool floatTables)
{
    if (!floatTables)
    {
        return 0;
    }
    uint32_t depth = 0;
    for (const auto& t : LibraLnsAdder::GetTableSpecs())
    {
        depth = std::max(depth, t.depth);
    }
    return depth + 1;
}

ResourceDemand
LibraResources::DemandFor(uint32_t hotKeys,
                          uint32_t registers,
                          bool floatTables,
                          const PipelineLimits& limits)
{
    ResourceDemand d;
    d.program = PROGRAM_NAME;
    if (floatTables)
    {
        for (const auto& t : LibraLnsAdder::GetTableSpecs())
        {
            d.AddTable(t.name, t.entries, t.keyBits, 8 * t.valueBytes, t.depth);
        }
    }
    const uint32_t slots =
        static_cast<uint32_t>((uint64_t{hotKeys} + registers - 1) / std::max(1U, registers));
    d.AddRegisterArray(HOT_ARRAY_NAME,
                       slots,
                       8 * BYTES_PER_HOT_KEY,
                       GetRegisterFirstStage(floatTables),
                       registers,
                       std::max(1U, limits.statefulAlusPerStage));
    return d;
}

ResourceDemand
LibraResources::Demand(const LibraLayout& layout, bool floatTables, const PipelineLimits& limits)
{
    return DemandFor(layout.GetHotKeys(), layout.GetRegisters(), floatTables, limits);
}

FitResult
LibraResources::Check(const LibraLayout& layout, bool floatTables, const PipelineLimits& limits)
{
    return PipelineResources::Check({Demand(layout, floatTables, limits)}, limits);
}

uint32_t
LibraResources::MaxRegisters(uint32_t hotKeys, bool floatTables, const PipelineLimits& limits)
{
    if (hotKeys == 0)
    {
        return 0;
    }
    // No m beyond the stateful ALUs of the stages left for the registers can fit (one ALU per
    // lane), so a scan up to that bound finds the largest m that fits under every rule.
    const uint32_t first = GetRegisterFirstStage(floatTables);
    const uint64_t bound =
        first >= limits.stages
            ? 0
            : std::min<uint64_t>(hotKeys,
                                 uint64_t{limits.stages - first} * limits.statefulAlusPerStage);
    uint32_t best = 0;
    for (uint32_t m = 1; m <= bound; ++m)
    {
        if (PipelineResources::Check({DemandFor(hotKeys, m, floatTables, limits)}, limits).fits)
        {
            best = m;
        }
    }
    return best;
}

uint64_t
LibraResources::GetPipelineTableBytes(const PipelineLimits& limits)
{
    uint64_t bytes = 0;
    for (const auto& t : LibraLnsAdder::GetTableSpecs())
    {
        TableDecl d;
        d.name = t.name;
        d.entries = t.entries;
        d.keyBits = t.keyBits;
        d.valueBits = 8 * t.valueBytes;
        bytes += PipelineResources::TableSramBytes(d, limits);
    }
    return bytes;
}

} // namespace ns3
