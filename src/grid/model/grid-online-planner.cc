/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-online-planner.h"

#include "grid-baselines.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

namespace ns3
{

namespace
{

/// Loads below this fraction of a capacity are solver noise, not use.
constexpr double kRelTol = 1e-9;

/// Each scheme and the protocol name a scenario gives it: ParseScheme and SchemeName.
const std::pair<GridOnlinePlanner::Scheme, const char*> SCHEME_NAMES[] = {
    {GridOnlinePlanner::Scheme::GRID, "grid"},
    {GridOnlinePlanner::Scheme::ATP, "atp"},
    {GridOnlinePlanner::Scheme::SWITCHML, "switchml"},
    {GridOnlinePlanner::Scheme::GERYON, "geryon"}};

/// Loads of one assignment at a common rate: lambda on every worker's route to its node and on
/// every used switch's route to the PS; lambda per worker at its switch.
void
AssignmentLoads(const GridProblem& problem,
                const std::vector<uint32_t>& assignment,
                double lambda,
                GridOnlinePlanner::Allocation& a)
{
    a.edgeBps.assign(problem.GetNEdges(), 0.0);
    a.switchBps.assign(problem.GetNSwitches(), 0.0);
    std::vector<bool> used(problem.GetNSwitches(), false);
    for (uint32_t i = 0; i < assignment.size(); ++i)
    {
        for (uint32_t e : problem.GetWorkerPath(i, assignment[i]))
        {
            a.edgeBps[e] += lambda;
        }
        if (assignment[i] != problem.GetPsTarget())
        {
            a.switchBps[assignment[i]] += lambda;
            used[assignment[i]] = true;
        }
    }
    for (uint32_t j = 0; j < problem.GetNSwitches(); ++j)
    {
        if (used[j])
        {
            for (uint32_t e : problem.GetSwitchPath(j))
            {
                a.edgeBps[e] += lambda;
            }
        }
    }
}

} // namespace

GridOnlinePlanner::Scheme
GridOnlinePlanner::ParseScheme(const std::string& name)
{
    std::string expected;
    const size_t n = std::size(SCHEME_NAMES);
    for (size_t i = 0; i < n; ++i)
    {
        if (name == SCHEME_NAMES[i].second)
        {
            return SCHEME_NAMES[i].first;
        }
        expected +=
            (i == 0 ? "" : (i + 1 == n ? " or " : ", ")) + std::string(SCHEME_NAMES[i].second);
    }
    throw std::invalid_argument("no planner-level model of protocol '" + name + "': expected " +
                                expected);
}

std::string
GridOnlinePlanner::SchemeName(Scheme scheme)
{
    for (const auto& [s, name] : SCHEME_NAMES)
    {
        if (s == scheme)
        {
            return name;
        }
    }
    return "?";
}

GridOnlinePlanner::GridOnlinePlanner(
    const InaTopology& topology,
    const std::vector<GridProblem::ProgrammableSwitch>& programmable,
    const GridPlanner::Options& options,
    uint64_t pathSeed)
    : m_topology(topology)
    , m_programmable(programmable)
    , m_options(options)
    , m_pathSeed(pathSeed)
{
}

uint32_t
GridOnlinePlanner::AddJob(const Job& job)
{
    if (!(job.bitsPerWorker > 0) || !std::isfinite(job.bitsPerWorker))
    {
        throw std::invalid_argument("job " + job.name + ": each worker must send > 0 bits, got " +
                                    std::to_string(job.bitsPerWorker));
    }
    if (!(job.startS >= 0) || !std::isfinite(job.startS))
    {
        throw std::invalid_argument("job " + job.name + ": start " + std::to_string(job.startS) +
                                    " s: expected a time >= 0");
    }
    std::set<uint32_t> taken;
    for (const Job& other : m_jobs)
    {
        taken.insert(other.workers.begin(), other.workers.end());
        taken.insert(other.ps);
    }
    std::vector<uint32_t> mine = job.workers;
    mine.push_back(job.ps);
    for (uint32_t h : mine)
    {
        if (taken.count(h) > 0)
        {
            throw std::invalid_argument("job " + job.name + ": host " + std::to_string(h) +
                                        " already belongs to another job: expected one job per "
                                        "host");
        }
    }
    m_jobs.push_back(job);
    return static_cast<uint32_t>(m_jobs.size() - 1);
}

GridOnlinePlanner::Allocation
GridOnlinePlanner::Allocate(const GridProblem& problem,
                            Scheme scheme,
                            const GridPlanner::Options& options)
{
    Allocation a;
    switch (scheme)
    {
    case Scheme::GRID: {
        const GridPlan plan = GridPlanner(options).Plan(problem);
        a.rates = plan.Rates();
        a.lpBoundBps = plan.lpBoundBps;
        AssignmentLoads(problem, plan.Assignment(), plan.achievedBps, a);
        break;
    }
    case Scheme::SWITCHML: {
        const std::vector<uint32_t> assignment = GridBaselines::SwitchMlAssignment(problem);
        const GridPlan plan = GridPlanner::MakePlan(problem, assignment, options.linkRows);
        a.rates = plan.Rates();
        AssignmentLoads(problem, assignment, plan.achievedBps, a);
        break;
    }
    case Scheme::ATP: {
        a.rates = GridBaselines::Atp(problem, options.linkRows);
        const GridBaselines::AtpLoads loads =
            GridBaselines::AtpAt(problem, a.rates.lambdaBps, options.linkRows);
        a.edgeBps = loads.edgeBps;
        a.switchBps = loads.switchBps;
        break;
    }
    case Scheme::GERYON: {
        a.rates = GridBaselines::Geryon(problem, options.linkRows, &a.edgeBps);
        a.switchBps.assign(problem.GetNSwitches(), 0.0);
        break;
    }
    }
    return a;
}

void
GridOnlinePlanner::ReplanAll(double now, const std::string& trigger)
{
    const auto wallStart = std::chrono::steady_clock::now();
    Replan r;
    r.timeS = now;
    r.trigger = trigger;
    std::vector<uint32_t> order;
    for (uint32_t j = 0; j < m_jobs.size(); ++j)
    {
        if (m_running[j])
        {
            order.push_back(j);
        }
    }
    std::stable_sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
        return m_jobs[a].startS < m_jobs[b].startS;
    });

    // What is left: per switch node, per directed edge.
    std::vector<double> switchLeft(m_programmable.size());
    for (size_t k = 0; k < m_programmable.size(); ++k)
    {
        switchLeft[k] = m_programmable[k].capacityBps;
    }
    std::vector<double> edgeLeft(2 * static_cast<size_t>(m_topology.GetNLinks()));
    for (uint32_t l = 0; l < m_topology.GetNLinks(); ++l)
    {
        edgeLeft[2 * l] = edgeLeft[2 * l + 1] = static_cast<double>(m_topology.GetLink(l).rateBps);
    }

    for (uint32_t j : order)
    {
        const Job& job = m_jobs[j];
        std::vector<GridProblem::ProgrammableSwitch> left;
        std::vector<size_t> fromK;
        for (size_t k = 0; k < m_programmable.size(); ++k)
        {
            if (switchLeft[k] > kRelTol * m_programmable[k].capacityBps)
            {
                left.push_back({m_programmable[k].node, switchLeft[k]});
                fromK.push_back(k);
            }
        }
        GridProblem problem(m_topology, job.workers, job.ps, left, job.psIngressBps, m_pathSeed);
        for (uint32_t e = 0; e < edgeLeft.size(); ++e)
        {
            problem.SetEdgeCapacityBps(e, edgeLeft[e]);
        }
        const Allocation a = Allocate(problem, job.scheme, m_options);
        for (uint32_t e = 0; e < edgeLeft.size(); ++e)
        {
            edgeLeft[e] = std::max(0.0, edgeLeft[e] - a.edgeBps[e]);
        }
        for (size_t s = 0; s < fromK.size(); ++s)
        {
            switchLeft[fromK[s]] = std::max(0.0, switchLeft[fromK[s]] - a.switchBps[s]);
        }
        const double rate = a.rates.lambdaBps;
        JobResult& res = m_results[j];
        if (res.plans == 0)
        {
            res.firstRates = a.rates;
            res.lpBoundBps = a.lpBoundBps;
            res.minRateBps = rate;
            res.maxRateBps = rate;
        }
        res.minRateBps = std::min(res.minRateBps, rate);
        res.maxRateBps = std::max(res.maxRateBps, rate);
        ++res.plans;
        m_rateBps[j] = rate;
        r.jobs.push_back(j);
        r.rateBps.push_back(rate);
    }
    r.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    m_replans.push_back(std::move(r));
}

void
GridOnlinePlanner::Run()
{
    if (m_ran)
    {
        throw std::logic_error("GridOnlinePlanner::Run called twice");
    }
    m_ran = true;
    const size_t n = m_jobs.size();
    m_results.assign(n, JobResult{});
    m_running.assign(n, false);
    m_rateBps.assign(n, 0.0);
    m_remainingBits.assign(n, 0.0);
    std::vector<bool> started(n, false);
    double now = 0;
    size_t done = 0;
    std::vector<double> finish(n, 0.0);
    while (done < n)
    {
        // The next event: a start, or the first running job to finish at its rate.
        double next = std::numeric_limits<double>::infinity();
        for (size_t j = 0; j < n; ++j)
        {
            finish[j] = std::numeric_limits<double>::infinity();
            if (!started[j])
            {
                next = std::min(next, std::max(now, m_jobs[j].startS));
            }
            else if (m_running[j] && m_rateBps[j] > 0)
            {
                finish[j] = now + m_remainingBits[j] / m_rateBps[j];
                next = std::min(next, finish[j]);
            }
        }
        if (std::isinf(next))
        {
            break; // running jobs that cannot move and nothing left to start: they never end
        }
        const double dt = next - now;
        std::string trigger;
        for (size_t j = 0; j < n; ++j)
        {
            if (!m_running[j])
            {
                continue;
            }
            if (finish[j] == next)
            {
                // Its own finish is this event: it ends exactly here, no rounding residue.
                m_remainingBits[j] = 0;
                m_running[j] = false;
                ++done;
                m_results[j].endS = next;
                trigger += (trigger.empty() ? "" : ", ") + std::string("end ") + m_jobs[j].name;
            }
            else
            {
                m_remainingBits[j] -= m_rateBps[j] * dt;
            }
        }
        for (size_t j = 0; j < n; ++j)
        {
            if (!started[j] && m_jobs[j].startS <= next)
            {
                started[j] = true;
                m_running[j] = true;
                m_remainingBits[j] = m_jobs[j].bitsPerWorker;
                m_results[j].startS = m_jobs[j].startS;
                trigger += (trigger.empty() ? "" : ", ") + std::string("start ") + m_jobs[j].name;
            }
        }
        now = next;
        if (std::any_of(m_running.begin(), m_running.end(), [](bool b) {
                return b;
            }))
        {
            ReplanAll(now, trigger);
        }
    }
}

} // namespace ns3
