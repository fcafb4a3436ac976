/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PIPELINE_RESOURCES_H
#define PIPELINE_RESOURCES_H

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * A switch program's request for one register array.
 *
 * A "vector" array of `lanes` lanes is `lanes` physical register arrays of `entries` cells each,
 * every one with its own stateful ALU, placed `lanesPerStage` per stage from `firstStage` on: lane
 * l sits in stage firstStage + l / lanesPerStage. SwitchML's 32 int32 values per packet are one
 * array of 32 lanes, 4 per stage over 8 stages on a Tofino-like pipeline.
 */
struct RegisterArrayDecl
{
    std::string name;           //!< unique within the program
    uint32_t entries = 0;       //!< cells per lane (the index range)
    uint32_t widthBits = 32;    //!< cell width, 1..MaxRegisterWidth
    uint32_t lanes = 1;         //!< physical arrays (one stateful ALU each)
    uint32_t firstStage = 0;    //!< stage of lane 0
    uint32_t lanesPerStage = 1; //!< lanes placed in each stage
    /**
     * Lanes hold packet payload values and count against the pipeline's ValuesPerPass (the PHV
     * limit). Metadata arrays (counters, bitmaps, keys) set it to false.
     */
    bool payload = true;
};

/**
 * \ingroup ina-fabric
 * A switch program's request for one exact-match lookup table (key -> value). It lives in the SRAM
 * of one stage and uses no stateful ALU. Libra keeps its floating-point log/exp tables in such
 * tables.
 */
struct TableDecl
{
    std::string name;       //!< unique within the program, shared namespace with register arrays
    uint32_t entries = 0;   //!< capacity in entries
    uint32_t keyBits = 0;   //!< key width, 1..64
    uint32_t valueBits = 0; //!< value width, 0..64 (0: a match-only table)
    uint32_t stage = 0;     //!< stage holding the table
};

/**
 * \ingroup ina-fabric
 * Everything one switch program asks of the pipeline, filled by SwitchProgram::DeclareResources.
 */
struct ResourceDemand
{
    std::string program;                           //!< the program's name, for messages and reports
    std::vector<RegisterArrayDecl> registerArrays; //!< in declaration order
    std::vector<TableDecl> tables;                 //!< in declaration order

    /**
     * Declare a register array.
     * \param name unique within the program
     * \param entries cells per lane
     * \param widthBits cell width
     * \param firstStage stage of lane 0
     * \param lanes physical arrays
     * \param lanesPerStage lanes placed in each stage
     * \return the declaration, to set further fields (payload); valid until the next Add
     */
    RegisterArrayDecl& AddRegisterArray(const std::string& name,
                                        uint32_t entries,
                                        uint32_t widthBits,
                                        uint32_t firstStage,
                                        uint32_t lanes = 1,
                                        uint32_t lanesPerStage = 1);

    /**
     * Declare an exact-match table.
     * \param name unique within the program
     * \param entries capacity
     * \param keyBits key width
     * \param valueBits value width
     * \param stage stage holding it
     * \return the declaration; valid until the next Add
     */
    TableDecl& AddTable(const std::string& name,
                        uint32_t entries,
                        uint32_t keyBits,
                        uint32_t valueBits,
                        uint32_t stage);
};

/**
 * \ingroup ina-fabric
 * The hardware a pipeline offers; Pipeline fills it from its Attributes.
 */
struct PipelineLimits
{
    uint32_t stages = 12;                 //!< match-action stages
    uint64_t sramPerStageBytes = 1310720; //!< 80 blocks of 16 KiB (Tofino-1)
    uint64_t sramBlockBytes = 16384;      //!< allocation unit: 1024 words of 128 bit
    uint32_t statefulAlusPerStage = 4;    //!< one per physical register array
    uint32_t tablesPerStage = 16;         //!< logical exact-match tables per stage
    uint32_t maxRegisterWidthBits = 64;   //!< widest register cell
    uint32_t valuesPerPass = 32;          //!< payload lanes one pass may touch (PHV limit)
};

/**
 * \ingroup ina-fabric
 * What one stage holds (summed over all installed programs).
 */
struct StageUsage
{
    uint64_t sramBytes = 0;      //!< after rounding every allocation up to whole SRAM blocks
    uint32_t statefulAlus = 0;   //!< = physical register arrays in the stage
    uint32_t registerArrays = 0; //!< physical register arrays (lanes)
    uint32_t tables = 0;         //!< exact-match tables
};

/**
 * \ingroup ina-fabric
 * Where one declared register array landed and what it costs.
 */
struct RegisterArrayUsage
{
    std::string name;        //!< declared name
    uint32_t entries = 0;    //!< cells per lane
    uint32_t widthBits = 0;  //!< cell width
    uint32_t lanes = 0;      //!< physical arrays
    uint32_t firstStage = 0; //!< stage of lane 0
    uint32_t lastStage = 0;  //!< stage of the last lane
    uint64_t sramBytes = 0;  //!< all lanes, block-rounded
    bool payload = true;     //!< counts against ValuesPerPass
};

/**
 * \ingroup ina-fabric
 * Where one declared table landed and what it costs.
 */
struct TableUsage
{
    std::string name;       //!< declared name
    uint32_t entries = 0;   //!< capacity
    uint32_t keyBits = 0;   //!< key width
    uint32_t valueBits = 0; //!< value width
    uint32_t stage = 0;     //!< stage holding it
    uint64_t sramBytes = 0; //!< block-rounded
};

/**
 * \ingroup ina-fabric
 * One program's share of the pipeline, plus its counters when reported by Pipeline::GetUsage.
 */
struct ProgramUsage
{
    std::string name;                               //!< program name
    uint16_t protocol = 0;                          //!< InaPacket::protocol it handles
    std::vector<RegisterArrayUsage> registerArrays; //!< its register arrays
    std::vector<TableUsage> tables;                 //!< its tables
    uint64_t sramBytes = 0;                         //!< sum over its arrays and tables
    uint32_t statefulAlus = 0;                      //!< sum over its arrays
    std::vector<std::string> counterNames;          //!< SwitchProgram counters, then its reasons
    std::vector<uint64_t> counterValues;            //!< same order as counterNames
};

/**
 * \ingroup ina-fabric
 * A pipeline's resource use and traffic counters: the "pipeline" object of a switch in
 * summary.json (see ToJson for the field names).
 */
struct PipelineUsage
{
    PipelineLimits limits;              //!< what the pipeline offers
    std::vector<StageUsage> stages;     //!< one per stage, limits.stages long
    uint32_t stagesUsed = 0;            //!< stages holding at least one array or table
    uint64_t sramBytes = 0;             //!< total over stages
    uint32_t statefulAlus = 0;          //!< total over stages
    uint32_t tables = 0;                //!< total over stages
    std::vector<ProgramUsage> programs; //!< in install order

    uint64_t packets = 0;             //!< packets handed to a program (first passes)
    uint64_t passes = 0;              //!< all passes
    uint64_t recirculations = 0;      //!< passes requested beyond the first and accepted
    uint64_t recirculatedPackets = 0; //!< packets recirculated at least once
    uint64_t recirculationDrops = 0;  //!< tail drops at the full recirculation queue
    uint64_t unhandledPackets = 0;    //!< forwarded unchanged: no program for their protocol
    uint64_t peakRecirculationQueueBytes = 0; //!< highest recirculation queue occupancy
    int64_t latencyPs = 0;                    //!< pipeline latency applied by the switch
    int64_t recirculationLatencyPs = 0;       //!< recirculation path latency
    uint64_t recirculationRateBps = 0;        //!< recirculation port rate
    uint64_t recirculationQueueBytes = 0;     //!< recirculation queue capacity

    // Aggregation capacity (Pipeline's class comment); reported only when set.
    bool aggregationLimited = false;            //!< a capacity is set
    uint64_t aggregationCapacityBps = 0;        //!< in bit/s, or 0
    uint64_t aggregationCapacityPps = 0;        //!< in packets/s, or 0
    uint64_t aggregationQueueCapacityBytes = 0; //!< the queue in front of the pipeline
    uint64_t aggregationPackets = 0;            //!< work packets served
    uint64_t aggregationBytes = 0;              //!< their wire bytes
    uint64_t aggregationQueuedPackets = 0;      //!< of those, packets that waited
    uint64_t aggregationDrops = 0;              //!< work dropped at the full queue
    uint64_t aggregationEcnMarks = 0;           //!< work marked CE in the queue
    uint64_t peakAggregationQueueBytes = 0;     //!< peak bytes waiting
    uint64_t peakAggregationQueuePackets = 0;   //!< peak packets waiting
    int64_t aggregationWaitPs = 0;              //!< waiting time summed over packets
    int64_t aggregationSpanPs = 0;              //!< first service start to last service end

    /// \return measured aggregation rate in bit/s: served bytes over the span (0 without work)
    double MeasuredAggregationBps() const;
    /// \return measured aggregation rate in packets/s over the same span
    double MeasuredAggregationPps() const;

    /**
     * \return the report as JSON: {"stages": {"used", "available"}, "sram_bytes": {"used",
     * "available"}, "stateful_alus": {"used", "available"}, "tables": {"used", "available"},
     * "per_stage": [...], "programs": [...], "counters": {...}, "config": {...}}
     */
    nlohmann::json ToJson() const;
};

/**
 * \ingroup ina-fabric
 * The outcome of a fit check: the usage it computed, and when the demand does not fit, the reason.
 */
struct FitResult
{
    bool fits = false;   //!< every demand fits together
    std::string error;   //!< empty when fits; else names the resource and the numbers
    PipelineUsage usage; //!< per-stage and per-program use (resource part only)
};

/**
 * \ingroup ina-fabric
 * Installing a program that does not fit (or conflicts with the installed ones) throws this, so a
 * test can check the reason and the scenario runner can print it.
 */
class PipelineFitError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/**
 * \ingroup ina-fabric
 * The pipeline fit check: pure logic over declarations, testable without a simulator.
 */
class PipelineResources
{
  public:
    /**
     * Check whether `demands`, all installed together, fit `limits`.
     *
     * Declarations are validated first (names, widths, stage ranges), then the per-stage sums of
     * SRAM (every allocation rounded up to whole SRAM blocks), stateful ALUs and tables. The last
     * demand is the candidate being installed; messages are worded from its point of view.
     * \param demands the installed programs' demands, then the candidate's
     * \param limits the pipeline
     * \return usage, and the reasons when it does not fit
     */
    static FitResult Check(const std::vector<ResourceDemand>& demands,
                           const PipelineLimits& limits);

    /// \return bytes of SRAM one lane of `d` occupies, rounded up to whole blocks
    static uint64_t LaneSramBytes(const RegisterArrayDecl& d, const PipelineLimits& limits);
    /// \return bytes of SRAM table `d` occupies, rounded up to whole blocks
    static uint64_t TableSramBytes(const TableDecl& d, const PipelineLimits& limits);
    /// \return "1572864 B (1.50 MiB)"
    static std::string FormatBytes(uint64_t bytes);
};

} // namespace ns3

#endif /* PIPELINE_RESOURCES_H */
