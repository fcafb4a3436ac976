/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATP_PROGRAM_H
#define ATP_PROGRAM_H

#include "atp-header.h"

#include "ns3/pipeline-resources.h"
#include "ns3/switch-program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup atp
 * The switch side of ATP (atp.md section 2): one pool of aggregators shared by every ATP job that
 * aggregates at this switch, indexed by the aggregatorIndex the workers put in the packet
 * (hash(job, seq)); first come, first served; a fragment that finds its aggregator held by another
 * fragment is marked `collision` and forwarded, unchanged, to its job's parameter server.
 *
 * One program per switch serves every job (ATP jobs find it with Pipeline::GetProgram before
 * installing a new one); the control plane tells it, per (job, parameter server), which level it
 * aggregates (AddJob): level 1 at a workers' rack, level 2 at the parameter server's rack.
 *
 * Registers, one cell per aggregator (pipeline stages from 0):
 * - "agtr_id" (32 bit, stage 0): the job id + sequence number holding it, 0 when free;
 * - "bitmap" (32 bit, stage 1): the contributions so far (bitmap0 positions at level 1, bitmap1
 *   positions at level 2);
 * - "counter" (8 bit, stage 2): contributions that brought new bits;
 * - "ecn" (1 bit, stage 2): congestion seen by any contribution;
 * - "value" (stage 3 on): 31 lanes of 64-bit cells, each holding two of the 62 int32 values, as in
 *   ATP's P4-16 code (one pass per packet; the P4-14 code's second pass over a mirror row is not
 *   modelled, atp.md 2.7).
 * plus the "jobs" table, (job id, PS index) -> job entry, in stage 0. Pipeline::Install checks
 * the pool against the pipeline's SRAM, stateful ALUs and stages.
 *
 * Gradient packet (atp.md 2.3), at the level this switch aggregates for the job (level 1:
 * edgeSwitchIdentifier 0 and the group's bitmap1; level 2: edgeSwitchIdentifier 1):
 * claim the aggregator if free or already ours, else collision -> PS; merge the packet's bitmap,
 * ECN and values (the first contribution overwrites, later ones add with saturation); when the
 * counter reaches the packet's fan-in, write the aggregate and the union bitmap into the packet,
 * set edgeSwitchIdentifier (the group is done) and forward it to the PS; the aggregator stays held
 * until the parameter packet comes back. Incomplete: the packet is absorbed. A contribution with no
 * new bit re-emits a complete aggregate, and is dropped otherwise.
 *
 * Resend (atp.md 2.6): an aggregator held by the same key is read and freed, the packet leaves
 * with the union of bitmaps and the sum (its own values added if they brought new bits), even if
 * partial; edgeSwitchIdentifier is set only when the union is the whole group, so a level-2 switch
 * never merges a partial rack. A resend never allocates and is never tagged collision.
 *
 * Parameter packet (atp.md 2.4): frees the aggregator if it holds the packet's key, then goes on
 * to the multicast group. A level-2 switch passes packets with edgeSwitchIdentifier 0 (collided
 * at level 1, or partial flushes) to the PS untouched (atp.md 2.5 assumption (a), (b)).
 *
 * ESA reuses this program: Demand(), InitializeState(), OnCollision() and OnComplete() are the
 * seams (its priority register, preemption, and release at completion).
 */
class AtpProgram : public SwitchProgram
{
  public:
    /// Events counted per switch (SwitchProgram::GetReasonCount).
    enum Reason : uint32_t
    {
        ALLOCATED,           //!< a free aggregator taken
        ABSORBED,            //!< a contribution merged, the aggregate incomplete: dropped
        COMPLETED,           //!< an aggregate completed: forwarded to the PS
        COLLISION,           //!< aggregator held by another key: marked, forwarded to the PS
        DUPLICATE_REEMITTED, //!< no new bit, aggregate complete: re-sent to the PS
        DUPLICATE_DROPPED,   //!< no new bit, aggregate incomplete: dropped
        RESEND_FLUSHED,      //!< a resend found its aggregator: flushed to the PS and freed
        RESEND_PASSED,       //!< a resend found no aggregator of its key: forwarded untouched
        BYPASSED,            //!< level 2: edgeSwitchIdentifier 0 passed to the PS untouched
        ACK_FREED,           //!< a parameter packet freed its aggregator
        ACK_PASSED,          //!< a parameter packet whose key held no aggregator here
        NOT_AGGREGATED,      //!< a job (or a group) this switch does not aggregate: forwarded
        OVERFLOW_PASSED,     //!< a float payload (overflow flag): forwarded untouched
        BAD_PACKET,          //!< index beyond the pool, fan-in 0 or > 31, short payload: forwarded
        N_REASONS            //!< number of reasons
    };

    /// Which level of a job's aggregation this switch is.
    enum class Role : uint8_t
    {
        LEVEL1, //!< a workers' rack: aggregates bitmap0 / fanInDegree0 of one group
        LEVEL2  //!< the parameter server's rack: aggregates bitmap1 / fanInDegree1 (groups)
    };

    /// What the control plane tells the switch about one (job, parameter server).
    struct JobConfig
    {
        uint32_t jobId = 0;       //!< InaPacket::jobId, 1..0xffff
        uint8_t psIndex = 0;      //!< AtpHeader::psIndex, 0..3
        std::string name;         //!< for messages
        Role role = Role::LEVEL1; //!< what it aggregates here
        uint32_t groupBit = 0;    //!< LEVEL1: the bitmap1 of the group it aggregates (one bit)
    };

    /// The registers of the value lanes: 31 lanes of two int32 each.
    static constexpr uint32_t VALUE_LANES = AtpHeader::VALUES / 2;
    static constexpr uint32_t DEFAULT_POOL_SIZE = 20000; //!< ATP's MAX_AGTR_COUNT

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AtpProgram();
    ~AtpProgram() override;

    // SwitchProgram
    void DeclareResources(ResourceDemand& demand) const override;
    uint16_t GetProtocolNumber() const override;
    std::string GetName() const override;
    void CheckConfig() override;
    uint64_t GetAggregatorsInUse() const override;
    uint64_t GetPeakAggregatorsInUse() const override;

    /**
     * Lay the value lanes out for this pipeline (lanes per stage = its stateful ALUs per stage).
     * Call before Install; the default is a Tofino-1 pipeline (PipelineLimits{}).
     * \param limits the pipeline's limits
     */

    /**
     * \param limits a pipeline
     * \return the largest PoolSize whose registers fit that pipeline when nothing else is
     *         installed (0 if not even one aggregator fits)
     */
    uint32_t GetMaxPoolSize(const PipelineLimits& limits) const;

    /**
     * Tell the switch about a (job, parameter server). Throws std::runtime_error when the program
     * is not installed, the job id or PS index is out of range, the pair is already known, the job
     * table is full (MaxJobs), or a level-1 group bit is not a single bit.
     * \param job the job
     */
    void AddJob(const JobConfig& job);

    /**
     * \param jobId a job
     * \param psIndex one of its parameter servers
     * \return whether this switch aggregates for it
     */
    bool HasJob(uint32_t jobId, uint8_t psIndex) const;
    /// \return its configuration (throws std::out_of_range for an unknown pair)
    const JobConfig& GetJobConfig(uint32_t jobId, uint8_t psIndex) const;
    /// \return number of (job, PS) entries
    uint32_t GetNJobs() const;
    /// \return aggregators in the pool
    uint32_t GetPoolSize() const;

    /// \name Control-plane reads (tests, reports)
    /// @{
    uint32_t ReadId(uint32_t index) const;
    uint32_t ReadBitmap(uint32_t index) const;
    uint32_t ReadCounter(uint32_t index) const;
    bool ReadEcn(uint32_t index) const;
    int32_t ReadValue(uint32_t index, uint32_t element) const;
    /// @}

  protected:
    /// Registers resolved by InitializeState.
    struct Registers
    {
        ExactMatchTable* jobs = nullptr;  //!< (job, PS) -> index in m_jobs
        RegisterArray* id = nullptr;      //!< key holding each aggregator
        RegisterArray* bitmap = nullptr;  //!< contributions
        RegisterArray* counter = nullptr; //!< contributions with new bits
        RegisterArray* ecn = nullptr;     //!< congestion bit
        RegisterArray* value = nullptr;   //!< 31 lanes of value pairs
    };

    /**
     * The register arrays and table for a pool of `poolSize` aggregators laid out for `limits`.
     * ESA adds its priority register here.
     * \param poolSize aggregators
     * \param limits the pipeline
     * \return the demand
     */
    virtual ResourceDemand Demand(uint32_t poolSize, const PipelineLimits& limits) const;

    void InitializeState() override;

    /**
     * A gradient packet met an aggregator held by another key (`holder`): ATP marks it collision
     * and forwards it, unchanged, to its parameter server. ESA's preemption replaces this.
     * \param p the packet
     * \param pass the pass (stage 0, "agtr_id", already accessed)
     * \param h its header
     * \param job its job entry
     * \param holder the key holding the aggregator
     */
    virtual void OnCollision(InaPacket* p,
                             PipelinePass& pass,
                             AtpHeader* h,
                             const JobConfig& job,
                             uint32_t holder);

    /**
     * The packet leaves with a complete aggregate (or re-emits one): ATP forwards it to the
     * parameter server and keeps the aggregator until the parameter packet frees it. ESA's
     * release at completion and multicast replace this.
     * \param p the packet, already carrying the aggregate and the union bitmap
     * \param pass the pass
     * \param h its header
     * \param job its job entry
     * \param duplicate re-emitted by a contribution with no new bit
     */
    virtual void OnComplete(InaPacket* p,
                            PipelinePass& pass,
                            AtpHeader* h,
                            const JobConfig& job,
                            bool duplicate);

    /// A gradient packet this switch aggregates (not a resend).
    void Aggregate(InaPacket* p, PipelinePass& pass, AtpHeader* h, const JobConfig& job);
    /// A resend this switch aggregates: flush and free an aggregator of the same key.
    void Flush(InaPacket* p, PipelinePass& pass, AtpHeader* h, const JobConfig& job);
    /// A parameter packet: free the aggregator of its key, forward to the multicast group.
    void Release(InaPacket* p, PipelinePass& pass, AtpHeader* h);

    /// Count an aggregator taken (peak tracking).
    void NoteAllocated();
    /// Count an aggregator freed.
    void NoteFreed();

    /// \return the registers (valid once installed)
    const Registers& GetRegisters() const
    {
        return m_regs;
    }

    /**
     * \param jobId a job
     * \param psIndex one of its parameter servers
     * \return the key of the "jobs" table
     */
    static uint64_t JobTableKey(uint32_t jobId, uint8_t psIndex)
    {
        return (static_cast<uint64_t>(jobId) << 2) | psIndex;
    }

    /**
     * \param entry a value of the "jobs" table
     * \return the job entry it names
     */
    const JobConfig& GetJobEntry(uint64_t entry) const
    {
        return m_jobs[entry];
    }

    /// One pass: the job entry, then Aggregate, Flush or Release (ESA extends it).
    void DoProcess(InaPacket* p, PipelinePass& pass) override;

  private:
    /// \return the entry of (job, PS), or throws std::out_of_range
    const JobConfig& Find(uint32_t jobId, uint8_t psIndex) const;
    /// \return the index of a control-plane read, range-checked
    uint32_t ControlIndex(uint32_t index) const;

    // Attributes
    uint32_t m_poolSize; //!< aggregators
    uint32_t m_maxJobs;  //!< entries of the job table

    // Installed state
    Registers m_regs;              //!< resolved registers
    std::vector<JobConfig> m_jobs; //!< by the job table's value
    uint64_t m_inUse = 0;          //!< aggregators held now
    uint64_t m_peakInUse = 0;      //!< their peak
};

} // namespace ns3

#endif /* ATP_PROGRAM_H */
