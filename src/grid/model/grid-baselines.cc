/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-baselines.h"

#include "grid-lp.h"
#include "grid-planner.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

constexpr double kLpUnit = 1e9; //!< Gb/s inside the LP, as in GridPlanner
constexpr double kRelTol = 1e-12;

} // namespace

namespace
{

/// Geryon on the printed model: every worker at min(T, B_alpha / N), on its default route.
double
GeryonPrinted(const GridProblem& problem, std::vector<double>* edgeBps)
{
    const uint32_t nWorkers = problem.GetNWorkers();
    const double lambdaBps =
        std::min(problem.GetMinWorkerRateBps(), problem.GetPsIngressBps() / nWorkers);
    if (edgeBps != nullptr)
    {
        edgeBps->assign(problem.GetNEdges(), 0.0);
        for (uint32_t i = 0; i < nWorkers; ++i)
        {
            for (uint32_t e : problem.GetWorkerPath(i, problem.GetPsTarget()))
            {
                (*edgeBps)[e] += lambdaBps;
            }
        }
    }
    return lambdaBps;
}

/**
 * Geryon with links: the maximum concurrent flow to one sink, by LP. Edge flows, conservation
 * everywhere but the PS, every worker a source of lambda, the PS's ingress at most B_alpha.
 */
double
GeryonConcurrentFlow(const GridProblem& problem, std::vector<double>* edgeBps)
{
    const uint32_t nWorkers = problem.GetNWorkers();
    const InaTopology& topo = problem.GetTopology();
    const uint32_t ps = problem.GetPs();
    GridLp lp;
    const uint32_t lambdaCol = lp.AddColumn(1.0, problem.GetMinWorkerRateBps() / kLpUnit);
    const uint32_t nEdges = problem.GetNEdges();
    std::vector<uint32_t> flowCol(nEdges);
    for (uint32_t e = 0; e < nEdges; ++e)
    {
        const bool leavesPs = problem.GetEdgeFrom(e) == ps;
        flowCol[e] = lp.AddColumn(0.0, leavesPs ? 0.0 : problem.GetEdgeCapacityBps(e) / kLpUnit);
    }
    std::vector<int32_t> workerOf(topo.GetNNodes(), -1);
    for (uint32_t i = 0; i < nWorkers; ++i)
    {
        workerOf[problem.GetWorker(i)] = static_cast<int32_t>(i);
    }
    std::vector<std::vector<GridLp::Term>> balance(topo.GetNNodes());
    for (uint32_t e = 0; e < nEdges; ++e)
    {
        balance[problem.GetEdgeFrom(e)].push_back({flowCol[e], 1.0});
        balance[problem.GetEdgeTo(e)].push_back({flowCol[e], -1.0});
    }
    for (uint32_t v = 0; v < topo.GetNNodes(); ++v)
    {
        if (v == ps)
        {
            continue;
        }
        if (workerOf[v] >= 0)
        {
            balance[v].push_back({lambdaCol, -1.0});
        }
        lp.AddRow(balance[v], GridLp::Sense::EQUAL, 0.0);
    }
    std::vector<GridLp::Term> into;
    for (uint32_t e = 0; e < nEdges; ++e)
    {
        if (problem.GetEdgeTo(e) == ps)
        {
            into.push_back({flowCol[e], 1.0});
        }
    }
    lp.AddRow(into, GridLp::Sense::LESS_EQUAL, problem.GetPsIngressBps() / kLpUnit);
    const GridLp::Status status = lp.Maximize();
    if (status != GridLp::Status::OPTIMAL)
    {
        throw std::runtime_error(std::string("GridBaselines::Geryon: lp_solve did not solve "
                                             "the concurrent-flow LP (") +
                                 GridLp::StatusName(status) + ")");
    }
    if (edgeBps != nullptr)
    {
        edgeBps->assign(nEdges, 0.0);
        for (uint32_t e = 0; e < nEdges; ++e)
        {
            (*edgeBps)[e] = lp.GetValue(flowCol[e]) * kLpUnit;
        }
    }
    return lp.GetValue(lambdaCol) * kLpUnit;
}

} // namespace

GridSchemeRates
GridBaselines::Geryon(const GridProblem& problem, bool withLinks, std::vector<double>* edgeBps)
{
    GridSchemeRates out;
    out.lambdaBps =
        withLinks ? GeryonConcurrentFlow(problem, edgeBps) : GeryonPrinted(problem, edgeBps);
    out.meanSendingBps = out.lambdaBps;
    out.switchAggregationBps = 0;
    out.psAggregationBps = out.lambdaBps * problem.GetNWorkers();
    return out;
}

std::vector<uint32_t>
GridBaselines::SwitchMlAssignment(const GridProblem& problem)
{
    const InaTopology& topo = problem.GetTopology();
    std::vector<uint32_t> assignment(problem.GetNWorkers(), problem.GetPsTarget());
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        const int32_t j = problem.GetSwitchIndex(topo.RackOf(problem.GetWorker(i)));
        if (j >= 0)
        {
            assignment[i] = static_cast<uint32_t>(j);
        }
    }
    return assignment;
}

GridSchemeRates
GridBaselines::SwitchMl(const GridProblem& problem, bool withLinks)
{
    return GridPlanner::MakePlan(problem, SwitchMlAssignment(problem), withLinks).Rates();
}

namespace
{

/// The programmable switches on the workers' default routes to the PS, for ATP's fluid model.
struct AtpRoutes
{
    /// A programmable switch on a route, with the position of the edge entering it.
    struct OnPath
    {
        uint32_t edgePos;
        uint32_t sw;
    };

    std::vector<std::vector<OnPath>> on;           //!< per worker, in route order
    std::vector<std::vector<uint32_t>> firstLevel; //!< per switch: workers it is the first for
    /// Per switch: (worker, position in on[worker]) of the workers it is a later switch for.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> passing;
};

AtpRoutes
MapAtpRoutes(const GridProblem& problem, GridBaselines::AtpReach reach)
{
    const InaTopology& topo = problem.GetTopology();
    const uint32_t nWorkers = problem.GetNWorkers();
    AtpRoutes r;
    r.on.resize(nWorkers);
    r.firstLevel.resize(problem.GetNSwitches());
    r.passing.resize(problem.GetNSwitches());
    for (uint32_t i = 0; i < nWorkers; ++i)
    {
        const std::vector<uint32_t>& path = problem.GetWorkerPath(i, problem.GetPsTarget());
        for (uint32_t k = 0; k < path.size(); ++k)
        {
            const int32_t j = problem.GetSwitchIndex(problem.GetEdgeTo(path[k]));
            if (j >= 0)
            {
                r.on[i].push_back({k, static_cast<uint32_t>(j)});
            }
        }
        if (reach == GridBaselines::AtpReach::RACK)
        {
            // A route leaves the worker through its rack switch: that one, if programmable, is
            // the first on the route; any other one stays out.
            const uint32_t rack = topo.RackOf(problem.GetWorker(i));
            if (!r.on[i].empty() && problem.GetSwitchNode(r.on[i][0].sw) != rack)
            {
                r.on[i].clear();
            }
            r.on[i].resize(std::min<std::size_t>(r.on[i].size(), 1));
        }
        for (uint32_t idx = 0; idx < r.on[i].size(); ++idx)
        {
            if (idx == 0)
            {
                r.firstLevel[r.on[i][0].sw].push_back(i);
            }
            else
            {
                r.passing[r.on[i][idx].sw].push_back({i, idx});
            }
        }
    }
    return r;
}

/**
 * The switches by falling distance to the PS. Routes to the PS are shortest paths, so a switch
 * farther from the PS comes earlier on every route through both: processing in this order
 * settles upstream switches first.
 */
std::vector<uint32_t>
SwitchesByFallingDistance(const GridProblem& problem)
{
    const uint32_t nSwitches = problem.GetNSwitches();
    std::vector<uint32_t> order(nSwitches);
    std::iota(order.begin(), order.end(), 0);
    std::vector<uint32_t> dist(nSwitches);
    for (uint32_t j = 0; j < nSwitches; ++j)
    {
        dist[j] = problem.GetRouting().Distance(problem.GetSwitchNode(j), problem.GetPs());
    }
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return dist[a] > dist[b];
    });
    return order;
}

/**
 * Each switch, upstream first, aggregates what it can of lambda: an equal share for the workers
 * it is first for, then a common fraction of what passes it unaggregated. Fills `uAfter` (per
 * worker and switch on its route: the rate left unaggregated after it), out->switchBps and
 * out->switchAggregationBps; returns each switch's aggregate stream towards the PS.
 */
std::vector<double>
AggregateAtSwitches(const GridProblem& problem,
                    const AtpRoutes& routes,
                    double lambdaBps,
                    std::vector<std::vector<double>>* uAfter,
                    GridBaselines::AtpLoads* out)
{
    const uint32_t nSwitches = problem.GetNSwitches();
    out->switchBps.assign(nSwitches, 0.0);
    std::vector<double> y(nSwitches, 0.0);
    uAfter->assign(problem.GetNWorkers(), {});
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        (*uAfter)[i].assign(routes.on[i].size(), lambdaBps);
    }
    for (uint32_t j : SwitchesByFallingDistance(problem))
    {
        const double cap = problem.GetSwitchCapacityBps(j);
        double load = 0;
        double share = 0;
        if (!routes.firstLevel[j].empty())
        {
            share = std::min(lambdaBps, cap / routes.firstLevel[j].size());
            for (uint32_t i : routes.firstLevel[j])
            {
                (*uAfter)[i][0] = lambdaBps - share;
            }
            load = share * routes.firstLevel[j].size();
        }
        double remainder = 0;
        double largest = 0;
        for (const auto& [i, idx] : routes.passing[j])
        {
            remainder += (*uAfter)[i][idx - 1];
            largest = std::max(largest, (*uAfter)[i][idx - 1]);
        }
        const double spare = std::max(0.0, cap - load);
        const double taken = remainder > 0 ? std::min(1.0, spare / remainder) : 0.0;
        for (const auto& [i, idx] : routes.passing[j])
        {
            (*uAfter)[i][idx] = (1 - taken) * (*uAfter)[i][idx - 1];
        }
        load += taken * remainder;
        out->switchBps[j] = load;
        out->switchAggregationBps += load;
        y[j] = std::max(share, taken * largest);
    }
    return y;
}

/// Fills out->edgeBps: each worker's stream, thinned after each switch on its route (`uAfter`),
/// and each switch's aggregate stream `y` on its path to the PS.
void
AddEdgeLoads(const GridProblem& problem,
             const AtpRoutes& routes,
             double lambdaBps,
             const std::vector<std::vector<double>>& uAfter,
             const std::vector<double>& y,
             GridBaselines::AtpLoads* out)
{
    out->edgeBps.assign(problem.GetNEdges(), 0.0);
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        const std::vector<uint32_t>& path = problem.GetWorkerPath(i, problem.GetPsTarget());
        double rate = lambdaBps;
        uint32_t idx = 0;
        for (uint32_t k = 0; k < path.size(); ++k)
        {
            out->edgeBps[path[k]] += rate;
            if (idx < routes.on[i].size() && routes.on[i][idx].edgePos == k)
            {
                rate = uAfter[i][idx];
                ++idx;
            }
        }
    }
    for (uint32_t j = 0; j < problem.GetNSwitches(); ++j)
    {
        if (y[j] > 0)
        {
            for (uint32_t e : problem.GetSwitchPath(j))
            {
                out->edgeBps[e] += y[j];
            }
        }
    }
}

} // namespace

GridBaselines::AtpLoads
GridBaselines::AtpAt(const GridProblem& problem, double lambdaBps, bool withLinks, AtpReach reach)
{
    const AtpRoutes routes = MapAtpRoutes(problem, reach);
    AtpLoads out;
    std::vector<std::vector<double>> uAfter;
    const std::vector<double> y = AggregateAtSwitches(problem, routes, lambdaBps, &uAfter, &out);
    AddEdgeLoads(problem, routes, lambdaBps, uAfter, y, &out);
    out.psIngressBps = out.edgeBps[problem.GetPsEdge()];

    out.feasible = lambdaBps <= problem.GetMinWorkerRateBps() * (1 + kRelTol) &&
                   out.psIngressBps <= problem.GetPsIngressBps() * (1 + kRelTol);
    if (withLinks)
    {
        for (uint32_t e = 0; e < out.edgeBps.size() && out.feasible; ++e)
        {
            out.feasible = out.edgeBps[e] <= problem.GetEdgeCapacityBps(e) * (1 + kRelTol);
        }
    }
    return out;
}

GridSchemeRates
GridBaselines::Atp(const GridProblem& problem, bool withLinks, AtpReach reach)
{
    // Link and PS loads grow with lambda (a higher rate only leaves less spare capacity to absorb
    // the excess), so the feasible rates form an interval [0, lambda*]: bisect it. lo stays
    // feasible throughout.
    double lo = 0;
    double hi = problem.GetMinWorkerRateBps();
    if (AtpAt(problem, hi, withLinks, reach).feasible)
    {
        lo = hi;
    }
    else
    {
        for (int it = 0; it < 200 && hi - lo > hi * 1e-14; ++it)
        {
            const double mid = 0.5 * (lo + hi);
            (AtpAt(problem, mid, withLinks, reach).feasible ? lo : hi) = mid;
        }
    }
    const AtpLoads at = AtpAt(problem, lo, withLinks, reach);
    GridSchemeRates out;
    out.lambdaBps = lo;
    out.meanSendingBps = lo;
    out.switchAggregationBps = at.switchAggregationBps;
    out.psAggregationBps = at.psIngressBps;
    return out;
}

} // namespace ns3
