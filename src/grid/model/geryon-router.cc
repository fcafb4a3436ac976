/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "geryon-router.h"

#include "grid-planner.h"

#include <algorithm>
#include <limits>

namespace ns3
{

namespace
{

constexpr double kRelTol = 1e-12;

/// One candidate path: its nodes and its directed edges.
struct Candidate
{
    std::vector<uint32_t> nodes;
    std::vector<uint32_t> edges;
};

/// The directed edge from `u` to its neighbour `v` (2 * link for a -> b, 2 * link + 1 for b -> a).
uint32_t
EdgeOf(const InaTopology& topo, uint32_t u, uint32_t v)
{
    for (const auto& [nb, link] : topo.Neighbors(u))
    {
        if (nb == v)
        {
            return 2 * link + (topo.GetLink(link).a == u ? 0 : 1);
        }
    }
    return std::numeric_limits<uint32_t>::max(); // not reached: paths follow links
}

Candidate
MakeCandidate(const InaTopology& topo, const std::vector<uint32_t>& nodes)
{
    Candidate c;
    c.nodes = nodes;
    for (std::size_t k = 0; k + 1 < nodes.size(); ++k)
    {
        c.edges.push_back(EdgeOf(topo, nodes[k], nodes[k + 1]));
    }
    return c;
}

/// Simple paths from path.back() on to the PS within `bound` hops in all, depth first.
void
Extend(const GridProblem& problem,
       uint32_t bound,
       std::vector<uint32_t>& path,
       std::vector<Candidate>& out)
{
    const InaTopology& topo = problem.GetTopology();
    const uint32_t ps = problem.GetPs();
    const uint32_t u = path.back();
    if (u == ps)
    {
        const Candidate c = MakeCandidate(topo, path);
        if (c.nodes != out.front().nodes)
        {
            out.push_back(c);
        }
        return;
    }
    for (const auto& [nb, link] : topo.Neighbors(u))
    {
        if (out.size() >= GeryonRouter::MAX_CANDIDATES)
        {
            return;
        }
        if ((topo.IsHost(nb) && nb != ps) ||
            std::find(path.begin(), path.end(), nb) != path.end() ||
            path.size() + problem.GetRouting().Distance(nb, ps) > bound)
        {
            continue;
        }
        path.push_back(nb);
        Extend(problem, bound, path, out);
        path.pop_back();
    }
}

/// The common rate of the edge loads and how many edges sit exactly at it.
struct Score
{
    double lambda = 0;
    uint32_t tight = 0;
    std::string bottleneck;

    bool Beats(const Score& o) const
    {
        return lambda > o.lambda * (1 + kRelTol) ||
               (lambda >= o.lambda * (1 - kRelTol) && tight < o.tight);
    }
};

Score
Evaluate(const GridProblem& problem, const std::vector<uint32_t>& load, bool names)
{
    Score s;
    s.lambda = problem.GetMinWorkerRateBps();
    if (names)
    {
        s.bottleneck = "T_n (the workers' links)";
    }
    const double psShare = problem.GetPsIngressBps() / problem.GetNWorkers();
    if (psShare < s.lambda)
    {
        s.lambda = psShare;
        if (names)
        {
            s.bottleneck = "B_alpha (the PS ingress)";
        }
    }
    for (uint32_t e = 0; e < load.size(); ++e)
    {
        if (load[e] != 0 && problem.GetEdgeCapacityBps(e) / load[e] < s.lambda)
        {
            s.lambda = problem.GetEdgeCapacityBps(e) / load[e];
            if (names)
            {
                s.bottleneck = "link " + problem.EdgeName(e);
            }
        }
    }
    for (uint32_t e = 0; e < load.size(); ++e)
    {
        if (load[e] != 0 && problem.GetEdgeCapacityBps(e) / load[e] <= s.lambda * (1 + kRelTol))
        {
            ++s.tight;
        }
    }
    return s;
}

/**
 * Every worker's candidate paths to the PS (its default route first, then simple paths at most
 * one hop longer), the one each uses, and the streams per directed edge those choices make.
 */
struct PathChoice
{
    explicit PathChoice(const GridProblem& problem)
        : candidates(problem.GetNWorkers())
        , choice(problem.GetNWorkers(), 0)
        , load(problem.GetNEdges(), 0)
    {
        const uint32_t ps = problem.GetPs();
        for (uint32_t i = 0; i < candidates.size(); ++i)
        {
            const uint32_t host = problem.GetWorker(i);
            candidates[i].push_back(
                MakeCandidate(problem.GetTopology(), problem.RouteNodes(host, ps)));
            std::vector<uint32_t> path{host};
            Extend(problem, problem.GetRouting().Distance(host, ps) + 1, path, candidates[i]);
        }
        for (uint32_t i = 0; i < candidates.size(); ++i)
        {
            for (uint32_t e : candidates[i][0].edges)
            {
                ++load[e];
            }
        }
    }

    /// Worker i takes its candidate `to`.
    void Move(uint32_t i, uint32_t to)
    {
        for (uint32_t e : candidates[i][choice[i]].edges)
        {
            --load[e];
        }
        choice[i] = to;
        for (uint32_t e : candidates[i][to].edges)
        {
            ++load[e];
        }
    }

    std::vector<std::vector<Candidate>> candidates; //!< per worker
    std::vector<uint32_t> choice;                   //!< per worker: the candidate in use
    std::vector<uint32_t> load;                     //!< streams per directed edge
};

/**
 * The one move, of a worker whose path crosses an edge at the common rate of `now` to another of
 * its candidates, that beats `now` most, as (worker, candidate); (workers, 0) if none does.
 */
std::pair<uint32_t, uint32_t>
BestMove(const GridProblem& problem, PathChoice& paths, const Score& now)
{
    const uint32_t n = problem.GetNWorkers();
    Score best = now;
    uint32_t bestWorker = n;
    uint32_t bestTo = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const std::vector<uint32_t>& mine = paths.candidates[i][paths.choice[i]].edges;
        const bool onBottleneck = std::any_of(mine.begin(), mine.end(), [&](uint32_t e) {
            return problem.GetEdgeCapacityBps(e) / paths.load[e] <= now.lambda * (1 + kRelTol);
        });
        if (!onBottleneck)
        {
            continue;
        }
        const uint32_t from = paths.choice[i];
        for (uint32_t c = 0; c < paths.candidates[i].size(); ++c)
        {
            if (c == from)
            {
                continue;
            }
            paths.Move(i, c);
            const Score s = Evaluate(problem, paths.load, false);
            paths.Move(i, from);
            if (s.Beats(best))
            {
                best = s;
                bestWorker = i;
                bestTo = c;
            }
        }
    }
    return {bestWorker, bestTo};
}

} // namespace

GeryonRouter::Result
GeryonRouter::Route(const GridProblem& problem)
{
    const uint32_t n = problem.GetNWorkers();
    PathChoice paths(problem);
    // Each accepted move raises lambda or lowers the tight edges at the same lambda, so the
    // search ends; the bound only guards against rounding noise.
    for (uint32_t step = 0; step < 4 * n * MAX_CANDIDATES; ++step)
    {
        const auto [worker, to] = BestMove(problem, paths, Evaluate(problem, paths.load, false));
        if (worker == n)
        {
            break;
        }
        paths.Move(worker, to);
    }
    Result r;
    const Score final = Evaluate(problem, paths.load, true);
    r.lambdaBps = final.lambda;
    r.bottleneck = final.bottleneck;
    for (uint32_t i = 0; i < n; ++i)
    {
        r.paths.push_back(paths.candidates[i][paths.choice[i]].nodes);
    }
    return r;
}

GridPlan
GeryonRouter::Plan(const GridProblem& problem)
{
    const Result r = Route(problem);
    GridPlan plan =
        GridPlanner::MakePlan(problem,
                              std::vector<uint32_t>(problem.GetNWorkers(), problem.GetPsTarget()),
                              true);
    plan.achievedBps = r.lambdaBps;
    plan.bottleneck = r.bottleneck;
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        plan.workers[i].path = r.paths[i];
        plan.workers[i].rateBps = r.lambdaBps;
    }
    return plan;
}

} // namespace ns3
