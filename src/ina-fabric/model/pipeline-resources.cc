/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pipeline-resources.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

namespace ns3
{

namespace
{

/// Sums that cannot wrap: a declaration of 2^32 lanes must be refused, not look small.
uint64_t
SatAdd(uint64_t a, uint64_t b)
{
    return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                        : a + b;
}

uint64_t
SatMul(uint64_t a, uint64_t b)
{
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    {
        return std::numeric_limits<uint64_t>::max();
    }
    return a * b;
}

uint64_t
RoundToBlocks(uint64_t bytes, uint64_t block)
{
    if (block <= 1)
    {
        return bytes;
    }
    return SatMul((bytes + block - 1) / block, block);
}

std::string
Quote(const std::string& s)
{
    return "\"" + s + "\"";
}

/// One register array's lanes, or one table, sitting in a stage: for the "stage N holds" lists.
struct Holder
{
    size_t program;
    bool isTable;
    size_t index;
    uint32_t laneBegin; //!< first lane in this stage
    uint32_t laneCount; //!< lanes in this stage
};

} // namespace

RegisterArrayDecl&
ResourceDemand::AddRegisterArray(const std::string& name,
                                 uint32_t entries,
                                 uint32_t widthBits,
                                 uint32_t firstStage,
                                 uint32_t lanes,
                                 uint32_t lanesPerStage)
{
    RegisterArrayDecl d;
    d.name = name;
    d.entries = entries;
    d.widthBits = widthBits;
    d.firstStage = firstStage;
    d.lanes = lanes;
    d.lanesPerStage = lanesPerStage;
    registerArrays.push_back(d);
    return registerArrays.back();
}

TableDecl&
ResourceDemand::AddTable(const std::string& name,
                         uint32_t entries,
                         uint32_t keyBits,
                         uint32_t valueBits,
                         uint32_t stage)
{
    TableDecl d;
    d.name = name;
    d.entries = entries;
    d.keyBits = keyBits;
    d.valueBits = valueBits;
    d.stage = stage;
    tables.push_back(d);
    return tables.back();
}

uint64_t
PipelineResources::LaneSramBytes(const RegisterArrayDecl& d, const PipelineLimits& limits)
{
    uint64_t bits = static_cast<uint64_t>(d.entries) * d.widthBits;
    return RoundToBlocks((bits + 7) / 8, limits.sramBlockBytes);
}

uint64_t
PipelineResources::TableSramBytes(const TableDecl& d, const PipelineLimits& limits)
{
    uint64_t bits = static_cast<uint64_t>(d.entries) * (d.keyBits + d.valueBits);
    return RoundToBlocks((bits + 7) / 8, limits.sramBlockBytes);
}

std::string
PipelineResources::FormatBytes(uint64_t bytes)
{
    char buf[64];
    if (bytes >= (1ULL << 20))
    {
        std::snprintf(buf,
                      sizeof(buf),
                      "%llu B (%.2f MiB)",
                      static_cast<unsigned long long>(bytes),
                      static_cast<double>(bytes) / (1 << 20));
    }
    else if (bytes >= 1024)
    {
        std::snprintf(buf,
                      sizeof(buf),
                      "%llu B (%.2f KiB)",
                      static_cast<unsigned long long>(bytes),
                      static_cast<double>(bytes) / 1024);
    }
    else
    {
        std::snprintf(buf, sizeof(buf), "%llu B", static_cast<unsigned long long>(bytes));
    }
    return buf;
}

FitResult
PipelineResources::Check(const std::vector<ResourceDemand>& demands, const PipelineLimits& limits)
{
    FitResult result;
    PipelineUsage& usage = result.usage;
    usage.limits = limits;
    usage.stages.assign(limits.stages, StageUsage{});
    std::vector<std::vector<Holder>> holders(limits.stages);
    // Wide accumulators: a bad declaration must not wrap a sum into something that fits.
    std::vector<uint64_t> alus(limits.stages, 0);
    std::vector<uint64_t> tables(limits.stages, 0);
    std::vector<std::string> errors;
    const std::string lastStage = std::to_string(limits.stages) + " stages (0.." +
                                  std::to_string(limits.stages == 0 ? 0 : limits.stages - 1) + ")";
    const size_t candidate = demands.empty() ? 0 : demands.size() - 1;

    auto owner = [&](size_t program) {
        return program == candidate ? std::string() : " of " + Quote(demands[program].program);
    };

    for (size_t pi = 0; pi < demands.size(); ++pi)
    {
        const ResourceDemand& demand = demands[pi];
        ProgramUsage pu;
        pu.name = demand.program;
        std::set<std::string> names;
        auto checkName = [&](const std::string& kind, const std::string& name) {
            if (name.empty())
            {
                errors.push_back("a " + kind + owner(pi) + " has an empty name");
                return false;
            }
            if (!names.insert(name).second)
            {
                errors.push_back("two resources" + owner(pi) + " are named " + Quote(name) +
                                 "; names must be unique within a program");
                return false;
            }
            return true;
        };

        for (size_t ai = 0; ai < demand.registerArrays.size(); ++ai)
        {
            const RegisterArrayDecl& a = demand.registerArrays[ai];
            if (!checkName("register array", a.name))
            {
                continue;
            }
            const std::string what = "register array " + Quote(a.name) + owner(pi);
            bool ok = true;
            if (a.entries == 0)
            {
                errors.push_back(what + " has 0 entries; expected at least 1");
                ok = false;
            }
            if (a.widthBits == 0)
            {
                errors.push_back(what + " is 0 bit wide; expected 1 to " +
                                 std::to_string(limits.maxRegisterWidthBits) + " bit");
                ok = false;
            }
            else if (a.widthBits > limits.maxRegisterWidthBits)
            {
                errors.push_back(what + " is " + std::to_string(a.widthBits) +
                                 " bit wide but the pipeline's registers are at most " +
                                 std::to_string(limits.maxRegisterWidthBits) +
                                 " bit wide (MaxRegisterWidth)");
                ok = false;
            }
            if (a.lanes == 0)
            {
                errors.push_back(what + " has 0 lanes; expected at least 1");
                ok = false;
            }
            if (a.lanesPerStage == 0)
            {
                errors.push_back(what + " has lanesPerStage 0; expected at least 1");
                ok = false;
            }
            if (!ok)
            {
                continue;
            }
            uint64_t last = a.firstStage + static_cast<uint64_t>(a.lanes - 1) / a.lanesPerStage;
            if (last >= limits.stages)
            {
                if (a.lanes == 1 || a.firstStage >= limits.stages)
                {
                    errors.push_back(what + " is placed at stage " + std::to_string(a.firstStage) +
                                     " but the pipeline has " + lastStage);
                }
                else
                {
                    errors.push_back(what + " (" + std::to_string(a.lanes) + " lanes, " +
                                     std::to_string(a.lanesPerStage) + " per stage from stage " +
                                     std::to_string(a.firstStage) + ") needs stages " +
                                     std::to_string(a.firstStage) + ".." + std::to_string(last) +
                                     " but the pipeline has " + lastStage);
                }
                continue;
            }
            const uint64_t laneBytes = LaneSramBytes(a, limits);
            RegisterArrayUsage au;
            au.name = a.name;
            au.entries = a.entries;
            au.widthBits = a.widthBits;
            au.lanes = a.lanes;
            au.firstStage = a.firstStage;
            au.lastStage = static_cast<uint32_t>(last);
            au.sramBytes = SatMul(laneBytes, a.lanes);
            au.payload = a.payload;
            for (uint32_t s = a.firstStage; s <= last; ++s)
            {
                uint64_t begin = static_cast<uint64_t>(s - a.firstStage) * a.lanesPerStage;
                uint32_t n = static_cast<uint32_t>(
                    std::min<uint64_t>(a.lanesPerStage, static_cast<uint64_t>(a.lanes) - begin));
                StageUsage& st = usage.stages[s];
                st.sramBytes = SatAdd(st.sramBytes, SatMul(laneBytes, n));
                alus[s] += n;
                holders[s].push_back(Holder{pi, false, ai, static_cast<uint32_t>(begin), n});
            }
            pu.sramBytes = SatAdd(pu.sramBytes, au.sramBytes);
            pu.statefulAlus += a.lanes;
            pu.registerArrays.push_back(au);
        }

        for (size_t ti = 0; ti < demand.tables.size(); ++ti)
        {
            const TableDecl& t = demand.tables[ti];
            if (!checkName("table", t.name))
            {
                continue;
            }
            const std::string what = "table " + Quote(t.name) + owner(pi);
            bool ok = true;
            if (t.entries == 0)
            {
                errors.push_back(what + " has 0 entries; expected at least 1");
                ok = false;
            }
            if (t.keyBits == 0 || t.keyBits > 64)
            {
                errors.push_back(what + " has " + std::to_string(t.keyBits) +
                                 "-bit keys; expected 1 to 64 bit");
                ok = false;
            }
            if (t.valueBits > 64)
            {
                errors.push_back(what + " has " + std::to_string(t.valueBits) +
                                 "-bit values; expected 0 to 64 bit");
                ok = false;
            }
            if (t.stage >= limits.stages)
            {
                errors.push_back(what + " is placed at stage " + std::to_string(t.stage) +
                                 " but the pipeline has " + lastStage);
                ok = false;
            }
            if (!ok)
            {
                continue;
            }
            TableUsage tu;
            tu.name = t.name;
            tu.entries = t.entries;
            tu.keyBits = t.keyBits;
            tu.valueBits = t.valueBits;
            tu.stage = t.stage;
            tu.sramBytes = TableSramBytes(t, limits);
            StageUsage& st = usage.stages[t.stage];
            st.sramBytes = SatAdd(st.sramBytes, tu.sramBytes);
            tables[t.stage] += 1;
            holders[t.stage].push_back(Holder{pi, true, ti, 0, 0});
            pu.sramBytes = SatAdd(pu.sramBytes, tu.sramBytes);
            pu.tables.push_back(tu);
        }
        usage.programs.push_back(pu);
    }

    auto arrayLanes = [&](const Holder& h) {
        const RegisterArrayDecl& a = demands[h.program].registerArrays[h.index];
        std::string s =
            "register array " + Quote(a.name) + " of " + Quote(demands[h.program].program);
        if (a.lanes > 1)
        {
            s += h.laneCount == 1 ? " lane " + std::to_string(h.laneBegin)
                                  : " lanes " + std::to_string(h.laneBegin) + "-" +
                                        std::to_string(h.laneBegin + h.laneCount - 1);
        }
        return s;
    };

    for (uint32_t s = 0; s < limits.stages; ++s)
    {
        StageUsage& st = usage.stages[s];
        st.statefulAlus = static_cast<uint32_t>(std::min<uint64_t>(alus[s], UINT32_MAX));
        st.registerArrays = st.statefulAlus;
        st.tables = static_cast<uint32_t>(std::min<uint64_t>(tables[s], UINT32_MAX));
        const std::string stage = "stage " + std::to_string(s);

        if (st.sramBytes > limits.sramPerStageBytes)
        {
            std::string e = stage + " needs " + FormatBytes(st.sramBytes) +
                            " of SRAM but a stage has " + FormatBytes(limits.sramPerStageBytes) +
                            " (SramPerStage): ";
            for (size_t i = 0; i < holders[s].size(); ++i)
            {
                const Holder& h = holders[s][i];
                e += i == 0 ? "" : ", ";
                uint64_t raw;
                uint64_t rounded;
                if (h.isTable)
                {
                    const TableDecl& t = demands[h.program].tables[h.index];
                    raw = (static_cast<uint64_t>(t.entries) * (t.keyBits + t.valueBits) + 7) / 8;
                    rounded = TableSramBytes(t, limits);
                    e += "table " + Quote(t.name) + " of " + Quote(demands[h.program].program) +
                         " uses " + std::to_string(t.entries) + " x (" + std::to_string(t.keyBits) +
                         " + " + std::to_string(t.valueBits) + ") bit = " + std::to_string(raw) +
                         " B";
                }
                else
                {
                    const RegisterArrayDecl& a = demands[h.program].registerArrays[h.index];
                    raw = SatMul((static_cast<uint64_t>(a.entries) * a.widthBits + 7) / 8,
                                 h.laneCount);
                    rounded = SatMul(LaneSramBytes(a, limits), h.laneCount);
                    e += arrayLanes(h) + " uses " + std::to_string(h.laneCount) + " x " +
                         std::to_string(a.entries) + " x " + std::to_string(a.widthBits) +
                         " bit = " + std::to_string(raw) + " B";
                }
                if (rounded != raw)
                {
                    e += " (" + std::to_string(rounded) + " B in SRAM blocks)";
                }
            }
            errors.push_back(e);
        }
        if (alus[s] > limits.statefulAlusPerStage)
        {
            std::string e =
                stage + " needs " + std::to_string(alus[s]) + " stateful ALUs but a stage has " +
                std::to_string(limits.statefulAlusPerStage) + " (StatefulAlusPerStage): ";
            bool first = true;
            for (const Holder& h : holders[s])
            {
                if (h.isTable)
                {
                    continue;
                }
                e += first ? "" : ", ";
                first = false;
                e += arrayLanes(h) + " uses " + std::to_string(h.laneCount);
            }
            errors.push_back(e);
        }
        if (tables[s] > limits.tablesPerStage)
        {
            std::string e = stage + " needs " + std::to_string(tables[s]) +
                            " tables but a stage has " + std::to_string(limits.tablesPerStage) +
                            " (TablesPerStage): ";
            bool first = true;
            for (const Holder& h : holders[s])
            {
                if (!h.isTable)
                {
                    continue;
                }
                e += first ? "" : ", ";
                first = false;
                e += "table " + Quote(demands[h.program].tables[h.index].name) + " of " +
                     Quote(demands[h.program].program);
            }
            errors.push_back(e);
        }

        if (!holders[s].empty())
        {
            ++usage.stagesUsed;
        }
        usage.sramBytes = SatAdd(usage.sramBytes, st.sramBytes);
        usage.statefulAlus += st.statefulAlus;
        usage.tables += st.tables;
    }

    result.fits = errors.empty();
    if (!result.fits)
    {
        std::string head =
            "program " + Quote(demands.empty() ? "" : demands.back().program) + " does not fit";
        if (demands.size() > 1)
        {
            head += " beside ";
            for (size_t i = 0; i + 1 < demands.size(); ++i)
            {
                head += (i == 0 ? "" : ", ") + Quote(demands[i].program);
            }
        }
        if (errors.size() == 1)
        {
            result.error = head + ": " + errors.front();
        }
        else
        {
            result.error = head + ":";
            for (const std::string& e : errors)
            {
                result.error += "\n  " + e;
            }
        }
    }
    return result;
}

nlohmann::json
PipelineUsage::ToJson() const
{
    using nlohmann::json;
    auto usedOf = [](uint64_t used, uint64_t available) {
        return json{{"used", used}, {"available", available}};
    };
    json j;
    j["stages"] = usedOf(stagesUsed, limits.stages);
    j["sram_bytes"] = usedOf(sramBytes, SatMul(limits.sramPerStageBytes, limits.stages));
    j["stateful_alus"] =
        usedOf(statefulAlus, static_cast<uint64_t>(limits.statefulAlusPerStage) * limits.stages);
    j["tables"] = usedOf(tables, static_cast<uint64_t>(limits.tablesPerStage) * limits.stages);
    json perStage = json::array();
    for (size_t s = 0; s < stages.size(); ++s)
    {
        perStage.push_back({{"stage", s},
                            {"sram_bytes", stages[s].sramBytes},
                            {"stateful_alus", stages[s].statefulAlus},
                            {"register_arrays", stages[s].registerArrays},
                            {"tables", stages[s].tables}});
    }
    j["per_stage"] = perStage;
    json programsJson = json::array();
    for (const ProgramUsage& p : programs)
    {
        json arrays = json::array();
        for (const RegisterArrayUsage& a : p.registerArrays)
        {
            arrays.push_back({{"name", a.name},
                              {"entries", a.entries},
                              {"width_bits", a.widthBits},
                              {"lanes", a.lanes},
                              {"first_stage", a.firstStage},
                              {"last_stage", a.lastStage},
                              {"sram_bytes", a.sramBytes},
                              {"payload", a.payload}});
        }
        json tablesJson = json::array();
        for (const TableUsage& t : p.tables)
        {
            tablesJson.push_back({{"name", t.name},
                                  {"entries", t.entries},
                                  {"key_bits", t.keyBits},
                                  {"value_bits", t.valueBits},
                                  {"stage", t.stage},
                                  {"sram_bytes", t.sramBytes}});
        }
        json counters = json::object();
        for (size_t i = 0; i < p.counterNames.size() && i < p.counterValues.size(); ++i)
        {
            counters[p.counterNames[i]] = p.counterValues[i];
        }
        programsJson.push_back({{"name", p.name},
                                {"protocol", p.protocol},
                                {"sram_bytes", p.sramBytes},
                                {"stateful_alus", p.statefulAlus},
                                {"register_arrays", arrays},
                                {"tables", tablesJson},
                                {"counters", counters}});
    }
    j["programs"] = programsJson;
    j["counters"] = {{"packets", packets},
                     {"passes", passes},
                     {"recirculations", recirculations},
                     {"recirculated_packets", recirculatedPackets},
                     {"recirculation_drops", recirculationDrops},
                     {"unhandled_packets", unhandledPackets},
                     {"peak_recirculation_queue_bytes", peakRecirculationQueueBytes}};
    j["config"] = {{"sram_per_stage_bytes", limits.sramPerStageBytes},
                   {"sram_block_bytes", limits.sramBlockBytes},
                   {"stateful_alus_per_stage", limits.statefulAlusPerStage},
                   {"tables_per_stage", limits.tablesPerStage},
                   {"max_register_width_bits", limits.maxRegisterWidthBits},
                   {"values_per_pass", limits.valuesPerPass},
                   {"latency_ps", latencyPs},
                   {"recirculation_latency_ps", recirculationLatencyPs},
                   {"recirculation_rate_bps", recirculationRateBps},
                   {"recirculation_queue_bytes", recirculationQueueBytes}};
    if (aggregationLimited)
    {
        // Only when set, so that the reports of switches at line rate keep their bytes.
        j["aggregation"] = {{"capacity_bps", aggregationCapacityBps},
                            {"capacity_pps", aggregationCapacityPps},
                            {"queue_capacity_bytes", aggregationQueueCapacityBytes},
                            {"packets", aggregationPackets},
                            {"bytes", aggregationBytes},
                            {"queued_packets", aggregationQueuedPackets},
                            {"drops", aggregationDrops},
                            {"peak_queue_bytes", peakAggregationQueueBytes},
                            {"peak_queue_packets", peakAggregationQueuePackets},
                            {"mean_wait_s",
                             aggregationPackets == 0
                                 ? 0.0
                                 : static_cast<double>(aggregationWaitPs) * 1e-12 /
                                       static_cast<double>(aggregationPackets)},
                            {"span_s", static_cast<double>(aggregationSpanPs) * 1e-12},
                            {"measured_bps", MeasuredAggregationBps()},
                            {"measured_pps", MeasuredAggregationPps()}};
    }
    return j;
}

double
PipelineUsage::MeasuredAggregationBps() const
{
    return aggregationSpanPs <= 0 ? 0.0
                                  : static_cast<double>(aggregationBytes) * 8e12 /
                                        static_cast<double>(aggregationSpanPs);
}

double
PipelineUsage::MeasuredAggregationPps() const
{
    return aggregationSpanPs <= 0 ? 0.0
                                  : static_cast<double>(aggregationPackets) * 1e12 /
                                        static_cast<double>(aggregationSpanPs);
}

} // namespace ns3
