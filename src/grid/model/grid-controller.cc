/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-controller.h"

#include "grid-fair-rates.h"

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
GridController::AddJob(GridControlledJob* job, Time start)
{
    m_jobs.push_back(Entry{job, false, false});
    Simulator::Schedule(start - Simulator::Now(), &GridController::JobStarted, this, job);
}

void
GridController::RemoveJob(GridControlledJob* job)
{
    m_jobs.erase(std::remove_if(m_jobs.begin(),
                                m_jobs.end(),
                                [job](const Entry& e) {
                                    return e.job == job;
                                }),
                 m_jobs.end());
}

GridController::Entry*
GridController::Find(GridControlledJob* job)
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
GridController::OthersRunning(const GridControlledJob* job) const
{
    return std::any_of(m_jobs.begin(), m_jobs.end(), [job](const Entry& e) {
        return e.job != job && e.started && !e.ended;
    });
}

void
GridController::JobStarted(GridControlledJob* job)
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
        ReplanAll("start " + job->GetControlledContext().name);
    }
}

void
GridController::JobEnded(GridControlledJob* job)
{
    Entry* e = Find(job);
    if (e == nullptr || e->ended)
    {
        return;
    }
    e->ended = true;
    if (OthersRunning(job))
    {
        ReplanAll("end " + job->GetControlledContext().name);
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

GridController::Planned
GridController::Share(const Entry& e,
                      const GridControlledJob::Load& load,
                      std::vector<double>& capacity,
                      std::map<uint32_t, uint32_t>& switchResource)
{
    if (capacity.empty())
    {
        // Link directions first, resources 0 .. 2L-1: the topology's rates, 0 for failed links.
        capacity = load.edgeCapacityBps;
    }
    Planned out;
    out.job = e.job;
    out.running = e.started;
    out.aloneBps = load.aloneBps;
    out.load.ceilingBps = load.ceilingBps;
    out.load.uses = load.edges;
    for (const GridControlledJob::Load::Switch& sw : load.switches)
    {
        auto [it, added] = switchResource.emplace(sw.node, capacity.size());
        if (added)
        {
            capacity.push_back(sw.capacityBps);
        }
        capacity[it->second] = std::min(capacity[it->second], sw.capacityBps);
        out.load.uses.emplace_back(it->second, sw.coefficient);
    }
    return out;
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
        if (e.ended)
        {
            continue;
        }
        GridControlledJob::Load load;
        std::string why;
        if (e.job->Prepare(failed, load, why))
        {
            planned.push_back(Share(e, load, capacity, switchResource));
            continue;
        }
        // Cut off from what it runs on: plan it anew (GRID: without its unreachable nodes, at
        // worst every worker to the PS), or end it with the reason.
        const std::string& name = e.job->GetControlledContext().name;
        std::string what;
        std::string whyNot;
        if (e.job->PrepareNew(failed, load, what, whyNot))
        {
            rp.reassigned.push_back(name + " (" + why + "): " + what);
            planned.push_back(Share(e, load, capacity, switchResource));
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
        const double rate = p.running ? rates[k++] : p.aloneBps;
        p.job->Apply(rate);
        if (p.running)
        {
            rp.jobs.push_back(p.job->GetControlledContext().name);
            rp.rateBps.push_back(rate);
        }
    }
    rp.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    NS_LOG_INFO("GRID re-plan at " << rp.at.As(Time::US) << " (" << trigger
                                   << "): " << rp.jobs.size() << " jobs, " << rp.stranded.size()
                                   << " stranded");
    m_replans.push_back(std::move(rp));
}

const std::vector<GridController::Replan>&
GridController::GetReplans() const
{
    return m_replans;
}

} // namespace ns3
