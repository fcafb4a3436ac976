/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-program.h"

#include "ns3/log.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GridProgram");
NS_OBJECT_ENSURE_REGISTERED(GridProgram);

TypeId
GridProgram::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GridProgram")
                            .SetParent<PoolProgram>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<GridProgram>();
    return tid;
}

GridProgram::GridProgram()
    : PoolProgram(GRID_PROTOCOL,
                  "grid",
                  "ack",
                  {"notice_sent", "readdressed", "result_multicast", "stale_epoch"})
{
    NS_LOG_FUNCTION(this);
    UseFcfsPool(&m_pool);
}

ResourceDemand
GridProgram::Demand(uint32_t poolSize, const PipelineLimits& limits) const
{
    return PoolDemand(poolSize, limits, 32, true);
}

void
GridProgram::DoResetState()
{
    PoolProgram::DoResetState();
    m_pool.ForgetHeld();
}

void
GridProgram::InitializePool()
{
    m_pool.Bind(ResolvePoolRegisters(true));
}

void
GridProgram::SetGridJob(const GridJob& job)
{
    if (job.jobId == 0 || job.jobId > POOL_MAX_JOB_ID)
    {
        throw std::runtime_error("GridProgram: job id " + std::to_string(job.jobId) +
                                 " is outside 1.." + std::to_string(POOL_MAX_JOB_ID));
    }
    if (m_byJob.size() <= job.jobId)
    {
        m_byJob.resize(job.jobId + 1, -1);
    }
    if (m_byJob[job.jobId] >= 0)
    {
        throw std::runtime_error("GridProgram: job " + std::to_string(job.jobId) +
                                 " is already set at this switch");
    }
    m_byJob[job.jobId] = static_cast<int32_t>(m_grid.size());
    m_grid.push_back(job);
}

bool
GridProgram::RemoveGridJob(uint32_t jobId)
{
    if (jobId < m_byJob.size() && m_byJob[jobId] >= 0)
    {
        const auto at = static_cast<std::size_t>(m_byJob[jobId]);
        m_grid.erase(m_grid.begin() + static_cast<std::ptrdiff_t>(at));
        m_byJob[jobId] = -1;
        for (int32_t& i : m_byJob)
        {
            i -= i > static_cast<int32_t>(at) ? 1 : 0;
        }
    }
    return RemoveJob(jobId, 0);
}

const GridProgram::GridJob&
GridProgram::GetGridJob(uint32_t jobId) const
{
    if (jobId >= m_byJob.size() || m_byJob[jobId] < 0)
    {
        throw std::out_of_range("GridProgram: job " + std::to_string(jobId) +
                                " has no GRID entry at this switch");
    }
    return m_grid[m_byJob[jobId]];
}

void
GridProgram::DoProcess(InaPacket* p, PipelinePass& pass)
{
    if (p->jobId < m_byJob.size() && m_byJob[p->jobId] >= 0)
    {
        const GridJob& g = m_grid[m_byJob[p->jobId]];
        PoolHeader* h = p->Header<PoolHeader>();
        const bool result = (h->flags & PoolHeader::FLAG_ACK) != 0;
        if (p->dst != g.self)
        {
            // Another node's gradient, aggregate or result passing by: a result for another
            // aggregation node of the same fragment must not free this switch's unit.
            CountReason(result ? ACK_PASSED : NOT_AGGREGATED);
            Forward(p);
            return;
        }
        if (result)
        {
            p->dst = g.resultGroup;
            CountReason(RESULT_MULTICAST);
        }
        else if (h->reserved != g.epoch)
        {
            // Sent to a tree the controller has replaced (GridController's re-assignment): its
            // bitmaps number the old groups. The worker sent the fragment again on the new tree.
            CountReason(STALE_EPOCH);
            Consume(p);
            return;
        }
        else
        {
            // Whatever leaves with it (aggregate, flush, pass) must take the planned path to the
            // PS, not the workers' pinned path toward this switch.
            p->dst = g.ps;
            p->flowId = g.aggregateFlowId;
            CountReason(READDRESSED);
        }
    }
    else if (p->dst == GetSwitchAddress())
    {
        // Addressed to this switch by a job it no longer aggregates for (the controller moved
        // the job's aggregation elsewhere): sent under an older plan, and going nowhere.
        CountReason(STALE_EPOCH);
        Consume(p);
        return;
    }
    const JobConfig* job = nullptr;
    FcfsAggregatorPool::Result collision{COLLISION};
    if (ProcessFcfs(p, pass, m_pool, &job, &collision))
    {
        OnCollision(p, p->Header<PoolHeader>(), *job);
    }
}

void
GridProgram::OnCollision(InaPacket* p, PoolHeader* h, const JobConfig& job)
{
    CountReason(COLLISION);
    if (job.jobId >= m_byJob.size() || m_byJob[job.jobId] < 0)
    {
        // A job AddJob'ed without GRID's addresses cannot be told: ATP's fallback keeps it exact.
        h->flags |= PoolHeader::FLAG_COLLISION;
        Forward(p);
        return;
    }
    const GridJob& g = m_grid[m_byJob[job.jobId]];
    // Spec B.5: the contribution is dropped; the notice names the fragment (p->seq, the key) so
    // the worker can resend exactly it.
    h->flags = static_cast<uint8_t>(FLAG_NOTICE | PoolHeader::FLAG_COLLISION);
    p->dst = p->src;
    p->src = g.self;
    p->flowId = g.noticeFlowId;
    p->wireBytes = PoolHeader::L2_L3_L4_BYTES + PoolHeader::HEADER_BYTES;
    CountReason(NOTICE_SENT);
    Forward(p);
}

} // namespace ns3
