/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "atp-paced-protocol.h"

#include "grid-baselines.h"
#include "grid-controller.h"
#include "grid-job-switches.h"
#include "grid-problem.h"
#include "grid-worker-pacing.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pool-agent.h"
#include "ns3/string.h"

#include <memory>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AtpPacedProtocol");
NS_OBJECT_ENSURE_REGISTERED(AtpPacedProtocol);

static AggregationProtocolRegistry::Registrar g_atpPaced(
    "atp-paced",
    "ns3::AtpPacedProtocol",
    "ATP-style baseline of GRID's evaluation: ATP's data plane with one level of aggregation, at "
    "a worker's rack switch where it is programmable (ProgrammableSwitches), every other worker "
    "straight to the PS, a full switch passing fragments on to the PS (params Level2: false, "
    "PassWhenFull: true), every worker paced at the rate GRID's fluid model of ATP gives that "
    "placement");

TypeId
AtpPacedProtocol::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AtpPacedProtocol")
                            .SetParent<AtpProtocol>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<AtpPacedProtocol>();
    static const TypeId withSet =
        GridJobSwitches::AddAttribute(tid, MakeStringAccessor(&AtpPacedProtocol::m_programmable));
    return withSet;
}

AtpPacedProtocol::AtpPacedProtocol()
    : AtpProtocol("atp-paced")
{
}

void
AtpPacedProtocol::DoDispose()
{
    m_control.Leave();
    AtpProtocol::DoDispose();
}

double
AtpPacedProtocol::GetPacedRateBps() const
{
    return m_rateBps;
}

void
AtpPacedProtocol::DoInstall()
{
    const JobContext& ctx = GetContext();
    BooleanValue level2;
    BooleanValue passWhenFull;
    GetAttribute("Level2", level2);
    GetAttribute("PassWhenFull", passWhenFull);
    if (level2.Get() || !passWhenFull.Get())
    {
        // The rate model is of that ATP: paced at its rate, another data plane would be judged
        // by a rate it was not planned for.
        Fail("the workers are paced at the rate of GRID's model of ATP (one level of "
             "aggregation, a full switch passing gradients on to the PS, GRID paper Sec. 3.1), "
             "so the job needs params Level2: false and PassWhenFull: true");
    }
    if (ctx.psHosts.size() != 1)
    {
        Fail("the job has " + std::to_string(ctx.psHosts.size()) +
             " parameter servers; GRID's model of ATP has exactly one (ps_hosts: 1)");
    }
    // The data plane's switches and the rate model's are the same set (AllowedAt).
    m_set = GridJobSwitches::Of(ctx, 0, m_programmable);
    m_allowed.assign(ctx.fabric->GetTopology().GetNNodes(), false);
    for (const GridProblem::ProgrammableSwitch& s : m_set)
    {
        m_allowed[s.node] = true;
    }
    std::unique_ptr<GridProblem> problem;
    try
    {
        problem = std::make_unique<GridProblem>(BuildProblem({}));
    }
    catch (const std::exception& e)
    {
        Fail(std::string("GRID's model of ATP failed: ") + e.what());
    }
    PoolProtocol::DoInstall();
    try
    {
        m_rateBps = GridBaselines::Atp(*problem, true, GridBaselines::AtpReach::RACK).lambdaBps;
        m_paperRateBps = GridBaselines::Atp(*problem).lambdaBps;
    }
    catch (const std::exception& e)
    {
        Fail(std::string("GRID's model of ATP failed: ") + e.what());
    }
    if (!(m_rateBps > 0))
    {
        Fail("GRID's model of ATP gives the job no rate (a worker with no route to the PS)");
    }
    PaceWorkers();
    // Re-planned with the other jobs of GRID's controller when one starts or ends.
    m_control.Join(this, ctx);
    NS_LOG_INFO("job " << ctx.name << ": every worker paced at " << m_rateBps / 1e9 << " Gb/s");
}

GridProblem
AtpPacedProtocol::BuildProblem(const std::vector<bool>& failedLinks) const
{
    const JobContext& ctx = GetContext();
    return GridProblem(ctx.fabric->GetTopology(),
                       ctx.workerHosts,
                       ctx.psHosts[0],
                       m_set,
                       0,
                       0,
                       failedLinks);
}

void
AtpPacedProtocol::PaceWorkers()
{
    const JobContext& ctx = GetContext();
    const int64_t r =
        GridWorkerPacing::Cap(ctx, std::vector<double>(ctx.workerHosts.size(), m_rateBps));
    if (r >= 0)
    {
        Fail("worker " + std::to_string(r) +
             "'s host has no NIC that can pace (the p2p link model); use protocol atp");
    }
}

void
AtpPacedProtocol::NotifyJobEnded()
{
    m_control.JobEnded();
}

const JobContext&
AtpPacedProtocol::GetControlledContext() const
{
    return GetContext();
}

bool
AtpPacedProtocol::Prepare(const std::vector<bool>& failedLinks, Load& load, std::string& why)
{
    std::unique_ptr<GridProblem> problem;
    const GridBaselines::AtpReach rack = GridBaselines::AtpReach::RACK;
    double alone = 0;
    try
    {
        problem = std::make_unique<GridProblem>(BuildProblem(failedLinks));
        alone = GridBaselines::Atp(*problem, true, rack).lambdaBps;
    }
    catch (const std::exception& e)
    {
        why = std::string("GRID's model of ATP failed: ") + e.what();
        return false;
    }
    if (!(alone > 0))
    {
        why = "a worker has no route to the PS";
        return false;
    }
    // Taken as linear in the rate, from its rate alone: below it a rack switch aggregates a
    // larger part of every worker's stream, so the link loads per bit/s can only fall and a shared
    // rate planned on them is one the links carry. A switch's aggregation work per bit/s can rise
    // instead (up to its C_s, the part of C_s the job used alone staying its share), since a
    // full switch passes what it cannot take on to the PS, a load the link rows already count.
    const GridBaselines::AtpLoads at = GridBaselines::AtpAt(*problem, alone, true, rack);
    load.aloneBps = alone;
    load.ceilingBps = alone;
    load.edgeCapacityBps.clear();
    load.edges.clear();
    for (uint32_t e = 0; e < problem->GetNEdges(); ++e)
    {
        load.edgeCapacityBps.push_back(problem->GetEdgeCapacityBps(e));
        if (at.edgeBps[e] > 0)
        {
            load.edges.emplace_back(e, at.edgeBps[e] / alone);
        }
    }
    load.switches.clear();
    for (uint32_t j = 0; j < problem->GetNSwitches(); ++j)
    {
        if (at.switchBps[j] > 0)
        {
            load.switches.push_back({problem->GetSwitchNode(j),
                                     problem->GetSwitchCapacityBps(j),
                                     at.switchBps[j] / alone});
        }
    }
    return true;
}

bool
AtpPacedProtocol::PrepareNew(const std::vector<bool>& /* failedLinks */,
                             Load& /* load */,
                             std::string& /* what */,
                             std::string& whyNot)
{
    whyNot = "ATP aggregates at the workers' racks on the fabric's routes; it has no other plan";
    return false;
}

void
AtpPacedProtocol::Apply(double rateBps)
{
    m_rateBps = rateBps;
    PaceWorkers();
}

void
AtpPacedProtocol::Abandon(const std::string& why)
{
    AbandonAgents(why);
}

bool
AtpPacedProtocol::AllowedAt(uint32_t node) const
{
    return PoolProtocol::AllowedAt(node) && node < m_allowed.size() && m_allowed[node];
}

bool
AtpPacedProtocol::MayAggregateNowhere() const
{
    return !m_programmable.empty();
}

std::map<std::string, double>
AtpPacedProtocol::GetCounters() const
{
    std::map<std::string, double> c = AtpProtocol::GetCounters();
    c["plan_rate_bps"] = m_rateBps;
    c["paper_model_rate_bps"] = m_paperRateBps;
    return c;
}

} // namespace ns3
