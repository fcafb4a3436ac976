/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_PROGRAM_H
#define POOL_PROGRAM_H

#include "fcfs-aggregator-pool.h"
#include "pool-header.h"
#include "pool-reasons.h"
#include "pool-sized-program.h"

#include "ns3/pipeline-resources.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * What every switch program of a shared aggregator pool has (ATP, ESA, GRID): one program per
 * switch serves every job of the protocol, a pool of PoolSize aggregators and a job table that
 * the control plane fills with AddJob, per (job, parameter server): which level this switch
 * aggregates (level 1 at a workers' rack, level 2 at the parameter server's rack). The pool
 * itself, and what the program does with a packet, are the concrete program's (DoProcess): ATP
 * and GRID own an FcfsAggregatorPool, ESA its preemptive cells.
 *
 * The concrete program gives its ResourceDemand for a pool size (Demand, usually PoolDemand: the
 * "jobs" table and its registers) and resolves its registers in InitializePool; its base
 * declares and sizes from it (PoolSizedProgram), this class checks every packet's job and level
 * (LookupJob, Gate) and, for a program that owns an FcfsAggregatorPool, runs a packet through it
 * (ProcessFcfs).
 */
class PoolProgram : public PoolSizedProgram, public PoolReasons
{
  public:
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
        uint8_t psIndex = 0;      //!< PoolHeader::psIndex, 0..3
        std::string name;         //!< for messages
        Role role = Role::LEVEL1; //!< what it aggregates here
        uint32_t groupBit = 0;    //!< LEVEL1: the bitmap1 of the group it aggregates (one bit)
    };

    static constexpr uint32_t DEFAULT_POOL_SIZE = 20000; //!< ATP's MAX_AGTR_COUNT
    static constexpr uint32_t MAX_POOL = 0x10000;        //!< aggregatorIndex is 16 bits
    static constexpr uint32_t MAX_JOB_ID = 0xffff;       //!< 16 bits of the job table's key

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// The registers of the value lanes: 31 lanes of two int32 each.
    static constexpr uint32_t VALUE_LANES = FcfsAggregatorPool::VALUE_LANES;

    // SwitchProgram
    /// \return the protocol number the concrete program gave PoolProgram's constructor
    uint16_t GetProtocolNumber() const final;
    /// \return the name the concrete program gave PoolProgram's constructor
    std::string GetName() const final;
    /// Every pool program touches VALUE_LANES value lanes in one pass.
    void CheckConfig() override;
    uint64_t GetAggregatorsInUse() const override;
    uint64_t GetPeakAggregatorsInUse() const override;

    /**
     * Tell the switch about a (job, parameter server). Throws std::runtime_error when the program
     * is not installed, the job id or PS index is out of range, the pair is already known, the job
     * table is full (MaxJobs), or a level-1 group bit is not a single bit.
     * \param job the job
     */
    void AddJob(const JobConfig& job);

    /**
     * Take a (job, parameter server) off this switch, as a control plane that moves the job's
     * aggregation elsewhere: its job-table entry goes, and every aggregator the job's fragments
     * hold is freed (FcfsAggregatorPool::FreeJob). Throws std::runtime_error for a program with
     * no FcfsAggregatorPool (ESA's cells keep no job id to free by).
     * \param jobId the job
     * \param psIndex its parameter server
     * \return whether the pair was installed here
     */
    bool RemoveJob(uint32_t jobId, uint8_t psIndex);

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

    /// A gradient this switch aggregates for its job at its level (Gate without registers): not
    /// a result, a float overflow, another group's gradient passing through, or a level-2
    /// packet before level 1. What an aggregation capacity charges (Pipeline). With PassWhenFull,
    /// not a gradient of a fragment that passes this switch (FcfsAggregatorPool::Pass): one that
    /// already passes, or the first of a fragment whose contributions (its fan-in) no longer all
    /// fit below the pass point (PassPoint) beside the work queued and the room the fragments
    /// admitted before it still hold for their later gradients. The decision is the fragment's:
    /// its later gradients join it, although its aggregator is claimed only when its first
    /// gradient leaves the queue.
    bool IsAggregationWork(const InaPacket* p) const override;

    /// A gradient IsAggregationWork just declared passing: it keeps its place behind the work
    /// queued before it, so a passing fragment does not overtake the job's earlier fragments
    /// (ATP's workers take the first out-of-order result for a loss).
    bool FollowsAggregationQueue(const InaPacket* p) const override;

  protected:
    /// The switch lost its state (SwitchProgram::ResetState): the PassWhenFull admissions go
    /// with its queue. A pool program that overrides it calls it.
    void DoResetState() override;

    /**
     * A pool program is told what it is once, here, rather than by an override of
     * GetProtocolNumber and GetName in every program.
     * \param protocolNumber the InaPacket::protocol the program serves (ina-protocol-numbers.h)
     * \param name the program's name in reports and messages
     * \param resultWord how the counters call a parameter packet (PoolReasons::Names)
     * \param extraReasons the program's own reasons, N_REASONS on
     */
    PoolProgram(uint16_t protocolNumber,
                const std::string& name,
                const std::string& resultWord,
                const std::vector<std::string>& extraReasons);

    /// Resolve the pool's registers (the program is being installed; the job table is empty).
    virtual void InitializePool() = 0;

    /// \return the program's aggregators held now and their peak: by default its
    /// FcfsAggregatorPool's (UseFcfsPool); a program with its own aggregators overrides it
    virtual const AggregatorOccupancy& GetOccupancy() const;

    /**
     * Name the concrete program's FcfsAggregatorPool (its member, so it lives as long as this
     * object), from its constructor. A program that never calls it keeps its own aggregators
     * (ESA's cells) and refuses PassWhenFull and RemoveJob.
     * \param pool the pool
     */
    void UseFcfsPool(FcfsAggregatorPool* pool)
    {
        m_fcfsPool = pool;
    }

    /// \return the program's FcfsAggregatorPool (UseFcfsPool), or nullptr
    const FcfsAggregatorPool* GetFcfsPool() const
    {
        return m_fcfsPool;
    }

    /// \return the same pool, for the control plane's writes (RemoveJob)
    FcfsAggregatorPool* GetFcfsPool()
    {
        return m_fcfsPool;
    }

    /**
     * The demand of a pool program: the "jobs" table, (job id, PS index) -> job entry, in stage
     * 0, and the pool's registers (FcfsAggregatorPool::DeclareRegisters).
     * \param poolSize aggregators
     * \param limits the pipeline
     * \param idWidthBits width of "agtr_id"
     * \param counter declare "counter"
     * \return the demand
     */
    ResourceDemand PoolDemand(uint32_t poolSize,
                              const PipelineLimits& limits,
                              uint32_t idWidthBits,
                              bool counter) const;

    /// \return the installed registers of an FcfsAggregatorPool (with or without "counter")
    FcfsAggregatorPool::Registers ResolvePoolRegisters(bool counter) const;

    /**
     * One packet through an FcfsAggregatorPool: the job lookup, the pool's bounds, a parameter
     * packet's release, the level gate, a gradient's aggregation or a resend's flush, each counted
     * and forwarded (or consumed) as ATP does; but a collision, which the program decides.
     * \param p the packet
     * \param pass its pass
     * \param pool the program's pool
     * \param[out] job COLLISION: the packet's job entry
     * \param[out] collision COLLISION: what the pool said (holder, reason COLLISION)
     * \return whether the packet collided and is still the program's to dispose of
     */
    bool ProcessFcfs(InaPacket* p,
                     PipelinePass& pass,
                     FcfsAggregatorPool& pool,
                     const JobConfig** job,
                     FcfsAggregatorPool::Result* collision);

    /**
     * The job entry of a packet: one lookup of (job id, PS index) in the "jobs" table.
     * \param p the packet
     * \param pass its pass
     * \param h its header
     * \param[out] entry the entry (GetJobEntry)
     * \return whether this switch aggregates for the packet's (job, PS), and the header's key
     *         names that job
     */
    bool LookupJob(const InaPacket* p, PipelinePass& pass, const PoolHeader* h, uint64_t* entry);

    /**
     * The control plane's lookup of a (job, PS) in the "jobs" table.
     * \param jobId the job
     * \param psIndex its parameter server
     * \param[out] entry the entry (GetJobEntry)
     * \return whether it is installed here (false before Install)
     */
    bool ControlLookupJob(uint32_t jobId, uint8_t psIndex, uint64_t* entry) const;

    /// \return the job entry a "jobs" lookup returned
    const JobConfig& GetJobEntry(uint64_t entry) const
    {
        return m_jobs[entry];
    }

    /**
     * Whether a gradient packet of a job this switch aggregates is at this switch's level: a
     * level-1 switch takes its own group before level-1 aggregation, a level-2 switch what level 1
     * aggregated (ATP paper, Section 3.3); the fan-in and payload must be sane.
     * \param p the packet
     * \param h its header
     * \param job its job entry
     * \return N_REASONS: aggregate it here; else the reason to forward it untouched
     *         (OVERFLOW_PASSED, NOT_AGGREGATED, BYPASSED, BAD_PACKET)
     */
    static uint32_t Gate(const InaPacket* p, const PoolHeader* h, const JobConfig& job);

    /// Count what an FcfsAggregatorPool did with a packet and forward it, or consume it where
    /// the pool absorbed it.
    void Settle(InaPacket* p, const FcfsAggregatorPool::Result& r);

    /**
     * \param index an aggregator
     * \return the index, after checking the program is installed and the index in the pool
     *         (control-plane reads)
     */
    uint32_t ControlIndex(uint32_t index) const;

  private:
    void InitializeState() final;

    /// \return the entry of (job, PS), or throws std::out_of_range
    const JobConfig& Find(uint32_t jobId, uint8_t psIndex) const;

    /// \return the key of the "jobs" table
    static uint64_t JobTableKey(uint32_t jobId, uint8_t psIndex)
    {
        return (static_cast<uint64_t>(jobId) << 2) | psIndex;
    }

    const uint16_t m_protocolNumber; //!< GetProtocolNumber()
    const std::string m_name;        //!< GetName()

    // Attributes
    uint32_t m_maxJobs;  //!< entries of the job table
    bool m_passWhenFull; //!< pass fragments the aggregation capacity cannot take

    /// PassWhenFull's decision for the last fragment judged at an aggregator index, kept until
    /// its gradients have all arrived (the aggregator is claimed only when its first gradient
    /// reaches the pipeline, after the queue).
    struct Admission
    {
        uint32_t key = 0;     //!< PoolHeader::jobIdAndSeq
        uint32_t waiting = 0; //!< admitted: its gradients still to come
        bool passes = false;  //!< passing, and its first gradient has not reached the pipeline
    };

    /// Forget the admission at an aggregator index.
    void EndAdmission(uint32_t index) const;

    /// \return the bytes of work the aggregation queue may hold before a fragment passes: its
    /// ECN threshold (AggregationEcnThreshold), or its capacity when it marks nothing
    uint64_t PassPoint() const;

    /// The gradient IsAggregationWork just declared passing (FollowsAggregationQueue).
    mutable const InaPacket* m_passing = nullptr;
    mutable uint64_t m_passPoint = 0;            //!< PassPoint (0: not read yet)
    mutable std::vector<Admission> m_admissions; //!< PassWhenFull: per aggregator index

    FcfsAggregatorPool* m_fcfsPool = nullptr; //!< the concrete program's pool (UseFcfsPool)

    // Installed state
    ExactMatchTable* m_table = nullptr; //!< "jobs"
    std::vector<JobConfig> m_jobs;      //!< by the job table's value
};

} // namespace ns3

#endif /* POOL_PROGRAM_H */
