/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-controller.h"

#include "grid-fair-rates.h"
#include "grid-planner.h"
#include "grid-problem.h"
#include "grid-protocol.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GridController");
NS_OBJECT_ENSURE_REGISTERED(GridController);

TypeId
GridController::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GridController")
                            .SetParent<Object>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<GridController>();
    return tid;
}

void
GridController::DoDispose()
{
    m_jobs.clear();
    Object::DoDispose();
}

Ptr<GridController>
GridController::Of(Ptr<InaFabric> fabric)
{
    Ptr<GridController> c = fabric->GetObject<GridController>();
    if (!c)
    {
        c = CreateObject<GridController>();
        fabric->AggregateObject(c);
        // A plain pointer: the controller lives as long as the fabric it is aggregated to, and a
        // counted one in the fabric's own trace would keep the two alive for ever.
        fabric->TraceConnectWithoutContext(
            "RoutesChanged",
            MakeCallback(&GridController::RoutesChanged, PeekPointer(c)));
    }
    return c;
}

void
GridController::AddJob(GridProtocol* job, Time start)
{
    m_jobs.push_back(Entry{job, false, false});
    Simulator::Schedule(start - Simulator::Now(), &GridController::JobStarted, this, job);
}

void
GridController::RemoveJob(GridProtocol* job)
{
    m_jobs.erase(std::remove_if(m_jobs.begin(),
                                m_jobs.end(),
                                [job](const Entry& e) {
                                    return e.job == job;
                                }),
                 m_jobs.end());
}

GridController::Entry*
GridController::Find(GridProtocol* job)
{
    for (Entry& e : m_jobs)
    {
        if (e.job == job)
        {
            return &e;
        }
    }
    return nullptr;
}

bool
GridController::OthersRunning(const GridProtocol* job) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [job](const Entry& e) {
        return e.job != job && e.started && !e.ended;
    });
}

void
GridController::JobStarted(GridProtocol* job)
{
    Entry* e = Find(job);
    if (e == nullptr || e->ended)
    {
        return; // disposed before its start, or over before it (nothing to send)
    }
    e->started = true;
    // Alone, the job's own plan (made at install, on the routes of the time) already holds.
    if (OthersRunning(job))
    {
        ReplanAll("start " + job->GetContext().name);
    }
}

void
GridController::JobEnded(GridProtocol* job)
{
    Entry* e = Find(job);
    if (e == nullptr || e->ended)
    {
        return;
    }
    e->ended = true;
    if (OthersRunning(job))
    {
        ReplanAll("end " + job->GetContext().name);
    }
}

void
GridController::RoutesChanged()
{
    if (std::any_of(m_jobs.begin(), m_jobs.end(), [](const Entry& e) {
            return !e.ended;
        }))
    {
        const std::vector<bool>& failed =
            GetObject<InaFabric>()->GetInstalledRoutes().GetFailedLinks();
        const auto down = std::count(failed.begin(), failed.end(), true);
        ReplanAll("routes: " + std::to_string(down) + " links down");
    }
}

bool
GridController::PlanStreams(const Entry& e,
                            const std::vector<bool>& failed,
                            const std::vector<uint32_t>& assignment,
                            std::vector<double>& capacity,
                            std::map<uint32_t, uint32_t>& switchResource,
                            Planned& out,
                            std::string& why) const
{
    const GridProblem problem = e.job->BuildProblem(failed);
    if (capacity.empty())
    {
        // Link directions first, resources 0 .. 2L-1: the topology's rates, 0 for failed links.
        for (uint32_t edge = 0; edge < problem.GetNEdges(); ++edge)
        {
            capacity.push_back(problem.GetEdgeCapacityBps(edge));
        }
    }
    const bool links = e.job->GetPlan().linkRows;
    const GridPlanner::Evaluation ev = GridPlanner::Evaluate(problem, assignment, links);
    if (!(ev.lambdaBps > 0))
    {
        why = ev.bottleneck;
        return false;
    }
    out.job = e.job;
    out.running = e.started;
    out.plan = GridPlanner::MakePlan(problem, assignment, links);
    out.load.ceilingBps =
        std::min(problem.GetMinWorkerRateBps(), problem.GetPsIngressBps() / ev.psStreams);
    out.load.uses.clear();
    for (uint32_t edge = 0; edge < ev.streams.size(); ++edge)
    {
        if (ev.streams[edge] > 0)
        {
            out.load.uses.emplace_back(edge, ev.streams[edge]);
        }
    }
    // Switches by node; C_s the smallest any job plans with, should their SwitchCapacity differ.
    for (uint32_t j = 0; j < problem.GetNSwitches(); ++j)
    {
        if (ev.fanIn[j] == 0)
        {
            continue;
        }
        const double c = problem.GetSwitchCapacityBps(j);
        auto [it, added] = switchResource.emplace(problem.GetSwitchNode(j), capacity.size());
        if (added)
        {
            capacity.push_back(c);
        }
        capacity[it->second] = std::min(capacity[it->second], c);
        out.load.uses.emplace_back(it->second, ev.fanIn[j]);
    }
    return true;
}

void
GridController::ReplanAll(const std::string& trigger)
{
    const auto wallStart = std::chrono::steady_clock::now();
    const std::vector<bool>& failed = GetObject<InaFabric>()->GetInstalledRoutes().GetFailedLinks();
    Replan rp;
    rp.at = Simulator::Now();
    rp.trigger = trigger;
    std::vector<Planned> planned;
    std::vector<double> capacity;
    std::map<uint32_t, uint32_t> switchResource;
    for (Entry& e : m_jobs)
    {
        Planned p;
        std::string why;
        if (e.ended)
        {
            continue;
        }
        if (PlanStreams(e, failed, e.job->GetPlan().Assignment(), capacity, switchResource, p, why))
        {
            planned.push_back(std::move(p));
            continue;
        }
        // Its aggregation nodes are out of reach: plan it anew without them (at worst every
        // worker to the PS), or end it with the reason.
        const std::string& name = e.job->GetContext().name;
        GridPlan fresh;
        std::string whyNot;
        if (e.job->PlanAgain(failed, fresh, whyNot) &&
            PlanStreams(e, failed, fresh.Assignment(), capacity, switchResource, p, whyNot))
        {
            rp.reassigned.push_back(name + " (" + why + "): " + DescribeAssignment(*e.job, fresh));
            p.reassign = true;
            p.plan = fresh;
            planned.push_back(std::move(p));
            continue;
        }
        rp.stranded.push_back(name + " (" + why + "; no new plan: " + whyNot + ")");
        e.ended = true;
        e.job->Abandon("GRID's controller found no plan after the routes changed (" + whyNot + ")");
    }
    // Jobs not started yet take nothing: their routes are renewed, their rates wait for their
    // start.
    std::vector<GridFairRates::Job> loads;
    for (const Planned& p : planned)
    {
        if (p.running)
        {
            loads.push_back(p.load);
        }
    }
    const std::vector<double> rates = GridFairRates::Solve(capacity, loads);
    std::size_t k = 0;
    for (const Planned& p : planned)
    {
        const double rate = p.running ? rates[k++] : p.plan.achievedBps;
        if (p.reassign)
        {
            p.job->Reassign(p.plan, rate);
        }
        else
        {
            p.job->ApplyReplan(p.plan, rate);
        }
        if (p.running)
        {
            rp.jobs.push_back(p.job->GetContext().name);
            rp.rateBps.push_back(rate);
        }
    }
    rp.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    NS_LOG_INFO("GRID re-plan at " << rp.at.As(Time::US) << " (" << trigger
                                   << "): " << rp.jobs.size() << " jobs, " << rp.stranded.size()
                                   << " stranded");
    m_replans.push_back(std::move(rp));
}

std::string
GridController::DescribeAssignment(const GridProtocol& job, const GridPlan& plan)
{
    const InaTopology& topo = job.GetContext().fabric->GetTopology();
    std::string text;
    for (const GridPlan::SwitchRoute& s : plan.switches)
    {
        if (s.fanIn > 0)
        {
            text += (text.empty() ? "" : ", ") + topo.GetNode(s.node).name + " " +
                    std::to_string(s.fanIn) + " workers";
        }
    }
    if (plan.directWorkers > 0)
    {
        text += (text.empty() ? "" : ", ") + std::string("PS ") +
                std::to_string(plan.directWorkers) + " direct";
    }
    return text;
}

const std::vector<GridController::Replan>&
GridController::GetReplans() const
{
    return m_replans;
}

} // namespace ns3
