/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_ML_PROGRAM_H
#define SWITCH_ML_PROGRAM_H

#include "switch-ml-header.h"

#include "ns3/pipeline-resources.h"
#include "ns3/pool-sized-program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup switchml
 * The switch side of SwitchML: the loss-tolerant aggregation of Algorithm 3 of the paper, over a
 * pool of slots in pipeline registers, shared by every SwitchML job that aggregates at this switch
 * (each gets a fixed, contiguous share).
 *
 * Registers (per pool slot; a slot has two versions, the paper's two pools):
 * - "seen": the contribution bitmaps, one 64-bit cell per slot and per 32 children, version 0 in
 *   the low half and version 1 in the high half, so one stateful-ALU operation sets the
 *   contributor's bit in its version and clears it in the other (stage 0, with the "jobs" table);
 * - "count": contributions so far per version, modulo the fan-in, both versions in one 64-bit
 *   cell (stage 1);
 * - "exponent" (block-exponent mode only): the largest block exponent per slot version (stage 1);
 * - "value": 32 lanes (one stateful ALU each, ALUs-per-stage lanes per stage from stage 2),
 *   indexed by slot * 2 + version. 32 elements: 32-bit cells, one element per lane. 64 elements:
 *   64-bit cells holding two elements; as on Tofino a register action returns one 32-bit half,
 *   so a packet that must carry an aggregate out (the completing packet, or a reply to a
 *   duplicate) reads the low halves in its first pass and recirculates once to read the high
 *   halves: 64 elements cost one extra pass per result, not per contribution.
 * The fit check (Pipeline::Install) therefore measures exactly what the pool costs in SRAM, ALUs
 * and stages.
 *
 * Per packet addressed to this switch (UPDATE from worker or child `wid`, slot `idx`, version
 * `ver`): a new contribution (bit not yet set) sets the bit and clears it in the other version; the
 * first of a phase (count 0 before; this is also right for a fan-in of 1, where Algorithm 3's
 * `count == 1` test never fires) overwrites the slot, later ones add (int32, wrapping). The n-th
 * completes the phase: at the root the packet becomes the RESULT multicast to the job's workers;
 * below the root it goes up as this switch's partial, as contributor `childId` of the parent. A
 * duplicate (bit already set) of a complete phase is answered from the stored copy: at the root a
 * RESULT unicast to the packet's `origin`, below it the partial re-sent up (the parent answers or
 * absorbs it); a duplicate of an incomplete phase is dropped. The stored copy of a version
 * survives until that version is reused, which Algorithm 4's self-clocking delays until every
 * worker has its result. Packets not addressed to this switch, and RESULTs, are forwarded.
 *
 * A contribution that is new to its version while the contributor's bit is set in the other,
 * incomplete version cannot be legitimate (a worker only moves on after the other version's
 * result): it is a stale packet overtaken by its successor, the reordering hazard of the spec's
 * (a resend reordered behind a newer version). It is counted (reason "stale_contribution") and then
 * treated as Algorithm 3 treats it; it never occurs on inasim's FIFO links with one path per flow,
 * and tests assert that.
 */
class SwitchMlProgram : public PoolSizedProgram
{
  public:
    /// PoolSize's ceiling (and a job's SwitchPoolSize's): slots a program may have.
    static constexpr uint32_t MAX_POOL = 1u << 24;

    /// Events counted per switch (SwitchProgram::GetReasonCount).
    enum Reason : uint32_t
    {
        ABSORBED,            //!< a contribution added, the phase still open
        COMPLETED,           //!< a phase completed at the root: result multicast
        PARTIAL_SENT_UP,     //!< a phase completed below the root: partial sent to the parent
        DUPLICATE_REPLIED,   //!< root: a duplicate of a complete phase answered by unicast
        DUPLICATE_RESENT_UP, //!< below the root: a duplicate of a complete phase, partial re-sent
        DUPLICATE_DROPPED,   //!< a duplicate of an open phase, dropped
        STALE_CONTRIBUTION,  //!< a new contribution whose sender is already in the other, open
                             //!< version (a reordered resend; must stay 0)
        HARVEST_PASSES,      //!< second passes that read the high halves of 64-element results
        UNKNOWN_JOB,         //!< an update for a job this switch does not aggregate: dropped
        BAD_SLOT,            //!< idx beyond the job's share: dropped
        BAD_WORKER,          //!< wid beyond the job's fan-in here: dropped
        BAD_PAYLOAD,         //!< a value buffer shorter than ElementsPerPacket: dropped
        N_REASONS            //!< number of reasons
    };

    /// What the control plane tells the switch about one job (the protocol fills it at set-up).
    struct JobConfig
    {
        uint32_t jobId = 0;          //!< InaPacket::jobId, 1..65535
        std::string name;            //!< for messages
        uint32_t fanIn = 0;          //!< contributors here: workers, or child switches
        uint32_t requestedSlots = 0; //!< slots wanted; 0: an equal share of what explicit requests
                                     //!< leave, at most autoCap
        uint32_t autoCap = 1;        //!< with requestedSlots 0: the most slots the job can use
        bool isRoot = true;          //!< completes the aggregate (else sends partials up)
        InaAddress parent = INA_NO_ADDRESS; //!< below the root: the parent switch
        uint16_t childId = 0;               //!< below the root: this switch's wid at the parent
        uint32_t upFlowId = 0;              //!< below the root: flow id of the partials
        InaAddress resultGroup = INA_NO_ADDRESS; //!< root: the workers' multicast group
        uint16_t endpoint = 0;                   //!< host endpoint of the job's agents
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchMlProgram();

    // SwitchProgram (PoolSizedProgram declares the resources)
    uint16_t GetProtocolNumber() const override;
    std::string GetName() const override;
    void CheckConfig() override;
    /// \return slot versions with an open phase (a partial aggregate) now
    uint64_t GetAggregatorsInUse() const override;
    /// \return the most ever open at once
    uint64_t GetPeakAggregatorsInUse() const override;
    /// An update addressed to this switch (a worker's or a child switch's contribution); results
    /// on their way down and updates for another tier pass through without aggregation work.
    bool IsAggregationWork(const InaPacket* p) const override;

    /**
     * Lay the registers out for this pipeline (value lanes per stage = its stateful ALUs per
     * stage). Call before Install; the default is a Tofino-1 pipeline (PipelineLimits{}).
     * \param limits the pipeline's limits
     */

    /**
     * Add a job and re-partition the pool: explicit requests are granted in full, the rest is
     * divided equally among the jobs that asked for an automatic share (each capped at its
     * autoCap). Throws std::runtime_error when the program is not installed, the job id is taken
     * or out of range, the fan-in exceeds MaxFanIn, MaxJobs jobs are installed, explicit requests
     * exceed the pool, a share would be 0 slots, or the share of a job that has started would
     * change.
     * \param job the job
     */
    void AddJob(const JobConfig& job);

    /// \return whether job `jobId` aggregates here
    bool HasJob(uint32_t jobId) const;
    /// \return its share of the pool in slots (throws std::out_of_range for an unknown job)
    uint32_t GetShare(uint32_t jobId) const;
    /// \return the first pool slot of its share
    uint32_t GetBase(uint32_t jobId) const;
    /// \return its configuration
    const JobConfig& GetJobConfig(uint32_t jobId) const;
    /// Fix the job's share: later AddJob calls that would move it throw (the job has started).
    void FreezeJob(uint32_t jobId);
    /// \return the number of jobs
    uint32_t GetNJobs() const;

    /// \return the pool size in slots
    uint32_t GetPoolSize() const;
    /// \return 32 or 64
    uint32_t GetElementsPerPacket() const;
    /// \return whether the exponent register exists
    bool IsBlockExponent() const;
    /// \return the largest fan-in a job may have here
    uint32_t GetMaxFanIn() const;
    /// \return slot versions with an open phase now
    uint64_t GetSlotsInUse() const;
    /// \return the largest GetSlotsInUse() seen
    uint64_t GetPeakSlotsInUse() const;

    /// \name Control-plane reads (tests, reports); idx is relative to the job's share
    /// @{
    int32_t ReadValue(uint32_t jobId, uint16_t idx, uint8_t ver, uint32_t element) const;
    uint32_t ReadCount(uint32_t jobId, uint16_t idx, uint8_t ver) const;
    bool ReadSeen(uint32_t jobId, uint16_t idx, uint8_t ver, uint16_t wid) const;
    int16_t ReadExponent(uint32_t jobId, uint16_t idx, uint8_t ver) const;
    /// @}

  private:
    /// A job as installed.
    struct Job
    {
        JobConfig cfg;       //!< what the control plane said
        uint32_t base = 0;   //!< first slot
        uint32_t share = 0;  //!< slots
        bool frozen = false; //!< started: its share must not move
    };

    /// One update's place in its slot, as the seen and count registers (stages 0-1) decided.
    struct Contribution
    {
        uint32_t slot = 0;      //!< pool slot
        uint32_t ver = 0;       //!< shadow version, 0 or 1
        bool duplicate = false; //!< this worker's bit was already set: a retransmission
        bool first = false;     //!< the first contribution of the phase
        bool complete = false;  //!< the phase is complete (with this one, or before it)
    };

    /// The steps of an update's pass, in pipeline order: AcceptUpdate, CountContribution,
    /// MaxExponent, Aggregate32/64, then Absorb or SendOn.
    void DoProcess(InaPacket* p, PipelinePass& pass) override;
    /// The update's job, or nullptr once a bad update was counted and consumed.
    const Job* AcceptUpdate(InaPacket* p, PipelinePass& pass, const SwitchMlHeader& h);
    /// Stages 0-1: mark the worker seen, count it, read whether the phase is complete.
    Contribution CountContribution(PipelinePass& pass, const Job& job, const SwitchMlHeader& h);
    /// Stage 1: the slot's block exponent, the running maximum with `mineExp`.
    int16_t MaxExponent(PipelinePass& pass, const Contribution& c, int16_t mineExp);
    /// Stages 2..: add 32 values (one per lane), or read the result back.
    void Aggregate32(PipelinePass& pass, const Contribution& c, int32_t* vals);
    /// Stages 2..: add 64 values (two per lane), or read the result's low halves back.
    void Aggregate64(PipelinePass& pass, const Contribution& c, int32_t* vals);
    /// An update that does not complete its phase: counted and consumed.
    void Absorb(InaPacket* p, const Contribution& c);
    /// A complete phase: the result to the workers (root) or the partial aggregate up.
    void SendOn(InaPacket* p,
                PipelinePass& pass,
                const Job& job,
                const Contribution& c,
                bool hasData);
    void InitializeState() override;
    void DoResetState() override;

    /// The second pass of a 64-element result: the high halves.
    void Harvest(InaPacket* p, PipelinePass& pass, SwitchMlHeader* h);
    /// Assign bases and shares; throws std::runtime_error naming the offending job.
    void Partition(std::vector<Job>& jobs) const;
    /// \return the job, or throws std::out_of_range
    const Job& Find(uint32_t jobId) const;
    /// \return pool slot of (job, idx), range-checked for control-plane reads
    uint32_t ControlSlot(uint32_t jobId, uint16_t idx, uint8_t ver) const;
    /// \return the demand for `poolSize` slots laid out for `limits`
    ResourceDemand Demand(uint32_t poolSize, const PipelineLimits& limits) const override;

    // Attributes (PoolSize: m_poolSize, slots)
    uint32_t m_elements;  //!< elements per packet: 32 or 64
    bool m_blockExponent; //!< keep the per-slot exponent maximum
    uint32_t m_maxFanIn;  //!< contributors per job
    uint32_t m_maxJobs;   //!< entries of the job table

    // Installed state
    ExactMatchTable* m_jobTable = nullptr; //!< job id -> index in m_jobs
    RegisterArray* m_seen = nullptr;       //!< bitmaps
    RegisterArray* m_count = nullptr;      //!< counters
    RegisterArray* m_exponent = nullptr;   //!< block exponents (or nullptr)
    RegisterArray* m_value = nullptr;      //!< aggregates
    std::vector<Job> m_jobs;               //!< by index (the job table's value)
    InaAddress m_address = INA_NO_ADDRESS; //!< the switch's address, cached on first use
    uint64_t m_slotsInUse = 0;             //!< open phases
    uint64_t m_peakSlotsInUse = 0;         //!< their peak
};

} // namespace ns3

#endif /* SWITCH_ML_PROGRAM_H */
