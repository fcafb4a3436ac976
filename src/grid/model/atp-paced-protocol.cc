/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "atp-paced-protocol.h"

#include "grid-baselines.h"
#include "grid-job-switches.h"
#include "grid-problem.h"
#include "grid-worker-pacing.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/boolean.h"
#include "ns3/log.h"
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
    "ATP as GRID's paper evaluates it: ATP's data plane with one level of aggregation and a full "
    "switch passing fragments on to the PS (params Level2: false, PassWhenFull: true), every "
    "worker paced at the rate GRID's fluid model of ATP gives the job");

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
    const std::vector<GridProblem::ProgrammableSwitch> programmable =
        GridJobSwitches::Of(ctx, 0, m_programmable);
    m_allowed.assign(ctx.fabric->GetTopology().GetNNodes(), false);
    for (const GridProblem::ProgrammableSwitch& s : programmable)
    {
        m_allowed[s.node] = true;
    }
    std::unique_ptr<GridProblem> problem;
    try
    {
        problem = std::make_unique<GridProblem>(ctx.fabric->GetTopology(),
                                                ctx.workerHosts,
                                                ctx.psHosts[0],
                                                programmable);
    }
    catch (const std::exception& e)
    {
        Fail(std::string("GRID's model of ATP failed: ") + e.what());
    }
    CheckFirstSwitchIsTheRack(*problem);
    PoolProtocol::DoInstall();
    try
    {
        m_rateBps = GridBaselines::Atp(*problem).lambdaBps;
    }
    catch (const std::exception& e)
    {
        Fail(std::string("GRID's model of ATP failed: ") + e.what());
    }
    if (!(m_rateBps > 0))
    {
        Fail("GRID's model of ATP gives the job no rate (a worker with no route to the PS)");
    }
    const int64_t r =
        GridWorkerPacing::Cap(ctx, std::vector<double>(ctx.workerHosts.size(), m_rateBps));
    if (r >= 0)
    {
        Fail("worker " + std::to_string(r) +
             "'s host has no NIC that can pace (the p2p link model); use protocol atp");
    }
    NS_LOG_INFO("job " << ctx.name << ": every worker paced at " << m_rateBps / 1e9 << " Gb/s");
}

void
AtpPacedProtocol::CheckFirstSwitchIsTheRack(const GridProblem& problem) const
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        const uint32_t rack = topo.RackOf(problem.GetWorker(i));
        for (uint32_t e : problem.GetWorkerPath(i, problem.GetPsTarget()))
        {
            const uint32_t node = problem.GetEdgeTo(e);
            if (node < m_allowed.size() && m_allowed[node])
            {
                if (node != rack)
                {
                    Fail("GRID's model of ATP aggregates worker " + std::to_string(i) +
                         " at the first programmable switch on its route, " +
                         topo.GetNode(node).name + ", beyond its rack's " +
                         topo.GetNode(rack).name + "; ATP's data plane (Level2: false) " +
                         "aggregates only at a worker's rack switch, so the paced rate would "
                         "not be ATP's: make the racks' switches programmable or use protocol "
                         "switchml-ps");
                }
                break;
            }
        }
    }
}

bool
AtpPacedProtocol::AllowedAt(uint32_t node) const
{
    return PoolProtocol::AllowedAt(node) && node < m_allowed.size() && m_allowed[node];
}

std::map<std::string, double>
AtpPacedProtocol::GetCounters() const
{
    std::map<std::string, double> c = AtpProtocol::GetCounters();
    c["plan_rate_bps"] = m_rateBps;
    return c;
}

} // namespace ns3
