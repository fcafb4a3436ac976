/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_PROGRAM_H
#define GRID_PROGRAM_H

#include "ns3/fcfs-aggregator-pool.h"
#include "ns3/pool-program.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * The switch side of GRID's data plane: a shared pool program (PoolProgram) owning ATP's first
 * come, first served aggregator pool (FcfsAggregatorPool: hashed units, contributor bitmap and
 * counter, fan-in from the control plane, the aggregate forwarded to the parameter server on
 * completion, the unit held until the result frees it), with GRID's differences:
 * - workers address their gradients to their aggregation switch (the planner chose it, it need
 *   not be on the default route to the parameter server); the switch readdresses them to the
 *   parameter server on a flow id of its own, pinned along the planner's switch-to-PS path;
 * - a collision (the unit held by another fragment) drops the contribution and sends the worker
 *   a collision notice (FLAG_NOTICE) naming the fragment, instead of ATP's fallback to the PS;
 * - the parameter server sends one result per aggregation switch, addressed to the switch, which
 *   frees the unit and multicasts the result to the workers it aggregated.
 */
class GridProgram : public PoolProgram
{
  public:
    /// A collision notice: a gradient dropped at a held unit, sent back to its worker.
    static constexpr uint8_t FLAG_NOTICE = 0x01;

    /// Events counted per switch besides PoolReasons::Reason.
    enum GridReason : uint32_t
    {
        NOTICE_SENT = PoolReasons::N_REASONS, //!< a collision notice sent to a worker
        READDRESSED,                          //!< a gradient for this switch sent on to the PS
        RESULT_MULTICAST,                     //!< a result for this switch sent to its workers
        STALE_EPOCH,   //!< a gradient for this switch sent under an older plan: dropped
        N_GRID_REASONS //!< number of reasons
    };

    /// Where GRID's packets of one job go from this switch.
    struct GridJob
    {
        uint32_t jobId = 0;                      //!< InaPacket::jobId
        InaAddress self = INA_NO_ADDRESS;        //!< this switch's node (workers address it)
        InaAddress ps = INA_NO_ADDRESS;          //!< the job's parameter server host
        InaAddress resultGroup = INA_NO_ADDRESS; //!< multicast group to its aggregated workers
        uint32_t aggregateFlowId = 0;            //!< flow id of its aggregates toward the PS
        uint32_t noticeFlowId = 0;               //!< flow id of its collision notices
        /// The job's plan epoch (PoolHeader::reserved): a gradient addressed to this switch
        /// under another one was sent to a tree the controller has since replaced
        uint8_t epoch = 0;
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    GridProgram();

    /**
     * Tell the switch where a job's packets go (after AddJob for the same job). Throws
     * std::runtime_error for a job id of 0 or above 0xffff, or one already set.
     * \param job the job's addresses and flow ids
     */
    void SetGridJob(const GridJob& job);

    /**
     * Take a job off this switch (GRID's controller moves its aggregation): its GRID entry and
     * its job-table entry go, and the aggregators its fragments hold are freed
     * (PoolProgram::RemoveJob).
     * \param jobId the job
     * \return whether it was here
     */
    bool RemoveGridJob(uint32_t jobId);

    /// \return the job's entry (throws std::out_of_range if SetGridJob was not called for it)
    const GridJob& GetGridJob(uint32_t jobId) const;

  private:
    ResourceDemand Demand(uint32_t poolSize, const PipelineLimits& limits) const override;
    void InitializePool() override;
    void DoResetState() override;
    void DoProcess(InaPacket* p, PipelinePass& pass) override;
    /// A gradient met a unit held by another fragment: GRID drops it and notices its worker.
    void OnCollision(InaPacket* p, PoolHeader* h, const JobConfig& job);

    FcfsAggregatorPool m_pool;    //!< the aggregators
    std::vector<GridJob> m_grid;  //!< jobs set with SetGridJob
    std::vector<int32_t> m_byJob; //!< job id -> index in m_grid (-1: none)
};

} // namespace ns3

#endif /* GRID_PROGRAM_H */
