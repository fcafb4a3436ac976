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

/// One run of PipelineResources::Check: places every program's arrays and tables on their stages,
/// then checks each stage against the limits, collecting every error rather than the first.
class FitCheck
{
  public:
    FitCheck(const std::vector<ResourceDemand>& demands, const PipelineLimits& limits)
        : m_demands(demands)
        , m_limits(limits)
        , m_holders(limits.stages)
        , m_alus(limits.stages, 0)
        , m_tables(limits.stages, 0)
        , m_lastStage(std::to_string(limits.stages) + " stages (0.." +
                      std::to_string(limits.stages == 0 ? 0 : limits.stages - 1) + ")")
        , m_candidate(demands.empty() ? 0 : demands.size() - 1)
    {
        m_result.usage.limits = limits;
        m_result.usage.stages.assign(limits.stages, StageUsage{});
    }

    FitResult Run()
    {
        for (size_t program = 0; program < m_demands.size(); ++program)
        {
            const ResourceDemand& demand = m_demands[program];
            ProgramUsage pu;
            pu.name = demand.program;
            std::set<std::string> names;
            for (size_t i = 0; i < demand.registerArrays.size(); ++i)
            {
                if (CheckName(program, names, "register array", demand.registerArrays[i].name))
                {
                    PlaceArray(program, i, pu);
                }
            }
            for (size_t i = 0; i < demand.tables.size(); ++i)
            {
                if (CheckName(program, names, "table", demand.tables[i].name))
                {
                    PlaceTable(program, i, pu);
                }
            }
            m_result.usage.programs.push_back(pu);
        }
        for (uint32_t s = 0; s < m_limits.stages; ++s)
        {
            CheckStage(s);
        }
        m_result.fits = m_errors.empty();
        if (!m_result.fits)
        {
            WriteError();
        }
        return m_result;
    }

  private:
    /// How an error names a resource's program: the candidate (the last demand) goes unnamed.
    std::string Owner(size_t program) const
    {
        return program == m_candidate ? std::string() : " of " + Quote(m_demands[program].program);
    }

    bool CheckName(size_t program,
                   std::set<std::string>& names,
                   const std::string& kind,
                   const std::string& name)
    {
        if (name.empty())
        {
            m_errors.push_back("a " + kind + Owner(program) + " has an empty name");
            return false;
        }
        if (!names.insert(name).second)
        {
            m_errors.push_back("two resources" + Owner(program) + " are named " + Quote(name) +
                               "; names must be unique within a program");
            return false;
        }
        return true;
    }

    /// Place one register array on its stages (its lanes, SRAM and stateful ALUs).
    void PlaceArray(size_t program, size_t index, ProgramUsage& pu)
    {
        const RegisterArrayDecl& a = m_demands[program].registerArrays[index];
        const std::string what = "register array " + Quote(a.name) + Owner(program);
        bool ok = true;
        if (a.entries == 0)
        {
            m_errors.push_back(what + " has 0 entries; expected at least 1");
            ok = false;
        }
        if (a.widthBits == 0)
        {
            m_errors.push_back(what + " is 0 bit wide; expected 1 to " +
                               std::to_string(m_limits.maxRegisterWidthBits) + " bit");
            ok = false;
        }
        else if (a.widthBits > m_limits.maxRegisterWidthBits)
        {
            m_errors.push_back(what + " is " + std::to_string(a.widthBits) +
                               " bit wide but the pipeline's registers are at most " +
                               std::to_string(m_limits.maxRegisterWidthBits) +
                               " bit wide (MaxRegisterWidth)");
            ok = false;
        }
        if (a.lanes == 0)
        {
            m_errors.push_back(what + " has 0 lanes; expected at least 1");
            ok = false;
        }
        if (a.lanesPerStage == 0)
        {
            m_errors.push_back(what + " has lanesPerStage 0; expected at least 1");
            ok = false;
        }
        if (!ok)
        {
            return;
        }
        uint64_t last = a.firstStage + static_cast<uint64_t>(a.lanes - 1) / a.lanesPerStage;
        if (last >= m_limits.stages)
        {
            if (a.lanes == 1 || a.firstStage >= m_limits.stages)
            {
                m_errors.push_back(what + " is placed at stage " + std::to_string(a.firstStage) +
                                   " but the pipeline has " + m_lastStage);
            }
            else
            {
                m_errors.push_back(what + " (" + std::to_string(a.lanes) + " lanes, " +
                                   std::to_string(a.lanesPerStage) + " per stage from stage " +
                                   std::to_string(a.firstStage) + ") needs stages " +
                                   std::to_string(a.firstStage) + ".." + std::to_string(last) +
                                   " but the pipeline has " + m_lastStage);
            }
            return;
        }
        const uint64_t laneBytes = PipelineResources::LaneSramBytes(a, m_limits);
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
            StageUsage& st = m_result.usage.stages[s];
            st.sramBytes = SatAdd(st.sramBytes, SatMul(laneBytes, n));
            m_alus[s] += n;
            m_holders[s].push_back(Holder{program, false, index, static_cast<uint32_t>(begin), n});
        }
        pu.sramBytes = SatAdd(pu.sramBytes, au.sramBytes);
        pu.statefulAlus += a.lanes;
        pu.registerArrays.push_back(au);
    }

    /// Place one table on its stage.
    void PlaceTable(size_t program, size_t index, ProgramUsage& pu)
    {
        const TableDecl& t = m_demands[program].tables[index];
        const std::string what = "table " + Quote(t.name) + Owner(program);
        bool ok = true;
        if (t.entries == 0)
        {
            m_errors.push_back(what + " has 0 entries; expected at least 1");
            ok = false;
        }
        if (t.keyBits == 0 || t.keyBits > 64)
        {
            m_errors.push_back(what + " has " + std::to_string(t.keyBits) +
                               "-bit keys; expected 1 to 64 bit");
            ok = false;
        }
        if (t.valueBits > 64)
        {
            m_errors.push_back(what + " has " + std::to_string(t.valueBits) +
                               "-bit values; expected 0 to 64 bit");
            ok = false;
        }
        if (t.stage >= m_limits.stages)
        {
            m_errors.push_back(what + " is placed at stage " + std::to_string(t.stage) +
                               " but the pipeline has " + m_lastStage);
            ok = false;
        }
        if (!ok)
        {
            return;
        }
        TableUsage tu;
        tu.name = t.name;
        tu.entries = t.entries;
        tu.keyBits = t.keyBits;
        tu.valueBits = t.valueBits;
        tu.stage = t.stage;
        tu.sramBytes = PipelineResources::TableSramBytes(t, m_limits);
        StageUsage& st = m_result.usage.stages[t.stage];
        st.sramBytes = SatAdd(st.sramBytes, tu.sramBytes);
        m_tables[t.stage] += 1;
        m_holders[t.stage].push_back(Holder{program, true, index, 0, 0});
        pu.sramBytes = SatAdd(pu.sramBytes, tu.sramBytes);
        pu.tables.push_back(tu);
    }

    /// A register array's lanes held at one stage, as errors name them.
    std::string ArrayLanes(const Holder& h) const
    {
        const RegisterArrayDecl& a = m_demands[h.program].registerArrays[h.index];
        std::string s =
            "register array " + Quote(a.name) + " of " + Quote(m_demands[h.program].program);
        if (a.lanes > 1)
        {
            s += h.laneCount == 1 ? " lane " + std::to_string(h.laneBegin)
                                  : " lanes " + std::to_string(h.laneBegin) + "-" +
                                        std::to_string(h.laneBegin + h.laneCount - 1);
        }
        return s;
    }

    /// Sum stage `s`'s use, name every holder of a resource it has too little of.
    void CheckStage(uint32_t s)
    {
        StageUsage& st = m_result.usage.stages[s];
        st.statefulAlus = static_cast<uint32_t>(std::min<uint64_t>(m_alus[s], UINT32_MAX));
        st.registerArrays = st.statefulAlus;
        st.tables = static_cast<uint32_t>(std::min<uint64_t>(m_tables[s], UINT32_MAX));
        const std::string stage = "stage " + std::to_string(s);

        if (st.sramBytes > m_limits.sramPerStageBytes)
        {
            m_errors.push_back(SramError(s, stage));
        }
        if (m_alus[s] > m_limits.statefulAlusPerStage)
        {
            m_errors.push_back(AluError(s, stage));
        }
        if (m_tables[s] > m_limits.tablesPerStage)
        {
            m_errors.push_back(TableError(s, stage));
        }
        if (!m_holders[s].empty())
        {
            ++m_result.usage.stagesUsed;
        }
        m_result.usage.sramBytes = SatAdd(m_result.usage.sramBytes, st.sramBytes);
        m_result.usage.statefulAlus += st.statefulAlus;
        m_result.usage.tables += st.tables;
    }

    /// Stage `s` (named `stage`) has too little SRAM: who uses how much, raw and in blocks.
    std::string SramError(uint32_t s, const std::string& stage) const
    {
        const StageUsage& st = m_result.usage.stages[s];
        std::string e = stage + " needs " + PipelineResources::FormatBytes(st.sramBytes) +
                        " of SRAM but a stage has " +
                        PipelineResources::FormatBytes(m_limits.sramPerStageBytes) +
                        " (SramPerStage): ";
        for (size_t i = 0; i < m_holders[s].size(); ++i)
        {
            const Holder& h = m_holders[s][i];
            e += i == 0 ? "" : ", ";
            uint64_t raw;
            uint64_t rounded;
            if (h.isTable)
            {
                const TableDecl& t = m_demands[h.program].tables[h.index];
                raw = (static_cast<uint64_t>(t.entries) * (t.keyBits + t.valueBits) + 7) / 8;
                rounded = PipelineResources::TableSramBytes(t, m_limits);
                e += "table " + Quote(t.name) + " of " + Quote(m_demands[h.program].program) +
                     " uses " + std::to_string(t.entries) + " x (" + std::to_string(t.keyBits) +
                     " + " + std::to_string(t.valueBits) + ") bit = " + std::to_string(raw) + " B";
            }
            else
            {
                const RegisterArrayDecl& a = m_demands[h.program].registerArrays[h.index];
                raw = SatMul((static_cast<uint64_t>(a.entries) * a.widthBits + 7) / 8, h.laneCount);
                rounded = SatMul(PipelineResources::LaneSramBytes(a, m_limits), h.laneCount);
                e += ArrayLanes(h) + " uses " + std::to_string(h.laneCount) + " x " +
                     std::to_string(a.entries) + " x " + std::to_string(a.widthBits) +
                     " bit = " + std::to_string(raw) + " B";
            }
            if (rounded != raw)
            {
                e += " (" + std::to_string(rounded) + " B in SRAM blocks)";
            }
        }
        return e;
    }

    /// Stage `s` (named `stage`) has too few stateful ALUs: which register lanes take them.
    std::string AluError(uint32_t s, const std::string& stage) const
    {
        std::string e = stage + " needs " + std::to_string(m_alus[s]) +
                        " stateful ALUs but a stage has " +
                        std::to_string(m_limits.statefulAlusPerStage) + " (StatefulAlusPerStage): ";
        bool first = true;
        for (const Holder& h : m_holders[s])
        {
            if (h.isTable)
            {
                continue; // tables take no stateful ALU
            }
            e += first ? "" : ", ";
            first = false;
            e += ArrayLanes(h) + " uses " + std::to_string(h.laneCount);
        }
        return e;
    }

    /// Stage `s` (named `stage`) has too few tables: which tables are there.
    std::string TableError(uint32_t s, const std::string& stage) const
    {
        std::string e = stage + " needs " + std::to_string(m_tables[s]) +
                        " tables but a stage has " + std::to_string(m_limits.tablesPerStage) +
                        " (TablesPerStage): ";
        bool first = true;
        for (const Holder& h : m_holders[s])
        {
            if (!h.isTable)
            {
                continue;
            }
            e += first ? "" : ", ";
            first = false;
            e += "table " + Quote(m_demands[h.program].tables[h.index].name) + " of " +
                 Quote(m_demands[h.program].program);
        }
        return e;
    }

    /// The error: which program does not fit beside which, then every reason.
    void WriteError()
    {
        std::string head =
            "program " + Quote(m_demands.empty() ? "" : m_demands.back().program) + " does not fit";
        if (m_demands.size() > 1)
        {
            head += " beside ";
            for (size_t i = 0; i + 1 < m_demands.size(); ++i)
            {
                head += (i == 0 ? "" : ", ") + Quote(m_demands[i].program);
            }
        }
        if (m_errors.size() == 1)
        {
            m_result.error = head + ": " + m_errors.front();
        }
        else
        {
            m_result.error = head + ":";
            for (const std::string& e : m_errors)
            {
                m_result.error += "\n  " + e;
            }
        }
    }

    const std::vector<ResourceDemand>& m_demands;
    const PipelineLimits& m_limits;
    FitResult m_result;
    std::vector<std::vector<Holder>> m_holders; //!< by stage: who holds resources there
    // Wide accumulators: a bad declaration must not wrap a sum into something that fits.
    std::vector<uint64_t> m_alus;   //!< stateful ALUs by stage
    std::vector<uint64_t> m_tables; //!< tables by stage
    std::vector<std::string> m_errors;
    const std::string m_lastStage; //!< "N stages (0..N-1)", for placement errors
    const size_t m_candidate;      //!< the program being added (the last demand)
};

/// One program's part of the usage report: its totals, register arrays, tables and counters.
nlohmann::json
ProgramJson(const ProgramUsage& p)
{
    using nlohmann::json;
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
    return {{"name", p.name},
            {"protocol", p.protocol},
            {"sram_bytes", p.sramBytes},
            {"stateful_alus", p.statefulAlus},
            {"register_arrays", arrays},
            {"tables", tablesJson},
            {"counters", counters}};
}

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
    return FitCheck(demands, limits).Run();
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
        programsJson.push_back(ProgramJson(p));
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
                            {"ecn_marks", aggregationEcnMarks},
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
