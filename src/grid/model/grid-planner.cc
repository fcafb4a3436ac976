/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-planner.h"

#include "grid-lp.h"

#include "ns3/ina-split-mix.h"
#include "ns3/log.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GridPlanner");

namespace
{

/// The LP works in Gb/s: rates in b/s (1e11) next to 0/1 coefficients scale badly.
constexpr double kLpUnit = 1e9;

/// Relative slack on capacity checks, for rates computed as capacity / count.
constexpr double kRelTol = 1e-12;

/// Uniform on [0, 1) from the top 53 bits: the same on every platform, unlike
/// std::uniform_real_distribution.
double
Uniform(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/// How many of the smallest constraint ratios the repair compares (leximin order).
constexpr std::size_t kScoreDepth = 4;
using Score = std::array<double, kScoreDepth>;

/// floor(x) that does not lose a unit to rounding when x is a whole number computed as C/(C/j).
double
FloorTol(double x)
{
    return std::floor(x * (1 + 1e-12));
}

/**
 * The stream counts of one assignment, kept up to date under single-worker moves, for the repair
 * step. GetScore() lists the smallest constraint ratios (entry 0 is Evaluate()'s lambda), so that a
 * move that frees one of several equally tight constraints counts as progress.
 */
class StreamCounter
{
  public:
    StreamCounter(const GridProblem& problem, const std::vector<uint32_t>& assignment, bool links)
        : m_problem(problem)
        , m_links(links)
        , m_psTarget(problem.GetPsTarget())
        , m_assign(assignment)
        , m_fanIn(problem.GetNSwitches(), 0)
        , m_streams(problem.GetNEdges(), 0)
    {
        for (uint32_t i = 0; i < m_assign.size(); ++i)
        {
            Add(i, m_assign[i], +1);
        }
        // Only edges some route can cross can ever bind.
        std::vector<bool> used(problem.GetNEdges(), false);
        if (m_links)
        {
            for (uint32_t i = 0; i < m_assign.size(); ++i)
            {
                for (uint32_t a = 0; a <= m_psTarget; ++a)
                {
                    for (uint32_t e : problem.GetWorkerPath(i, a))
                    {
                        used[e] = true;
                    }
                }
            }
            for (uint32_t j = 0; j < problem.GetNSwitches(); ++j)
            {
                for (uint32_t e : problem.GetSwitchPath(j))
                {
                    used[e] = true;
                }
            }
        }
        for (uint32_t e = 0; e < used.size(); ++e)
        {
            if (used[e])
            {
                m_edges.push_back(e);
            }
        }
    }

    /// \return whether worker i's stream to target a has a route to the PS (failed links)
    bool Routed(uint32_t i, uint32_t a) const
    {
        return m_problem.Reaches(i, a) && (a == m_psTarget || m_problem.SwitchReachesPs(a));
    }

    const std::vector<uint32_t>& GetAssignment() const
    {
        return m_assign;
    }

    void Move(uint32_t i, uint32_t target)
    {
        Add(i, m_assign[i], -1);
        m_assign[i] = target;
        Add(i, target, +1);
    }

    /// The kScoreDepth smallest constraint ratios (capacity / streams), ascending, the NIC limit
    /// included once; entry 0 is Evaluate()'s lambda.
    Score GetScore() const
    {
        Score out;
        out.fill(std::numeric_limits<double>::infinity());
        auto insert = [&out](double r) {
            if (r >= out.back())
            {
                return;
            }
            std::size_t k = out.size() - 1;
            while (k > 0 && out[k - 1] > r)
            {
                out[k] = out[k - 1];
                --k;
            }
            out[k] = r;
        };
        insert(m_problem.GetMinWorkerRateBps());
        ForEachRatio(insert);
        return out;
    }

    /// Workers whose move can relieve a constraint at or below `level`.
    std::vector<uint32_t> Candidates(double level) const
    {
        const double edge = level + std::abs(level) * kRelTol;
        const uint32_t nWorkers = static_cast<uint32_t>(m_assign.size());
        std::vector<bool> pick(nWorkers, false);
        std::vector<bool> hotSwitch(m_fanIn.size(), false);
        std::vector<bool> hotEdge(m_streams.size(), false);
        bool hotPs = PsRatio() <= edge;
        for (uint32_t j = 0; j < m_fanIn.size(); ++j)
        {
            hotSwitch[j] =
                m_fanIn[j] > 0 && NodeRatio(m_problem.GetSwitchCapacityBps(j), m_fanIn[j]) <= edge;
        }
        if (m_links)
        {
            for (uint32_t e : m_edges)
            {
                hotEdge[e] =
                    m_streams[e] > 0 && m_problem.GetEdgeCapacityBps(e) / m_streams[e] <= edge;
            }
        }
        for (uint32_t i = 0; i < nWorkers; ++i)
        {
            const uint32_t a = m_assign[i];
            bool p = false;
            if (a == m_psTarget)
            {
                p = hotPs;
            }
            else
            {
                // Moving a switch's only worker also removes the switch's aggregate stream.
                p = hotSwitch[a] || (hotPs && m_fanIn[a] == 1);
                if (!p && m_links && m_fanIn[a] == 1)
                {
                    for (uint32_t e : m_problem.GetSwitchPath(a))
                    {
                        p = p || hotEdge[e];
                    }
                }
            }
            if (!p && m_links)
            {
                for (uint32_t e : m_problem.GetWorkerPath(i, a))
                {
                    p = p || hotEdge[e];
                }
            }
            pick[i] = p;
        }
        std::vector<uint32_t> out;
        for (uint32_t i = 0; i < nWorkers; ++i)
        {
            if (pick[i])
            {
                out.push_back(i);
            }
        }
        return out;
    }

  private:
    /**
     * An aggregation node's ratio: capacity / count, or, above the fan-in limit, minus the excess
     * (below every rate, and closer to 0 with every contributor moved away, so that the repair
     * sees each step out of an infeasible assignment as progress).
     */
    double NodeRatio(double capacityBps, uint32_t count) const
    {
        if (!m_problem.FanInFits(count))
        {
            return -static_cast<double>(count - m_problem.GetMaxFanIn());
        }
        return capacityBps / count;
    }

    /// The PS's ratio: its ingress over every stream, but the fan-in limit holds its groups
    /// (GridProblem::PsGroups), not its streams.
    double PsRatio() const
    {
        const uint32_t groups = m_problem.PsGroups(m_psDirect, m_psStreams - m_psDirect);
        if (!m_problem.FanInFits(groups))
        {
            return -static_cast<double>(groups - m_problem.GetMaxFanIn());
        }
        return m_problem.GetPsIngressBps() / m_psStreams;
    }

    template<typename F>
    void ForEachRatio(F f) const
    {
        for (uint32_t j = 0; j < m_fanIn.size(); ++j)
        {
            if (m_fanIn[j] > 0)
            {
                f(NodeRatio(m_problem.GetSwitchCapacityBps(j), m_fanIn[j]));
            }
        }
        f(PsRatio());
        for (uint32_t e : m_edges)
        {
            if (m_streams[e] > 0)
            {
                f(m_problem.GetEdgeCapacityBps(e) / m_streams[e]);
            }
        }
    }

    void Add(uint32_t i, uint32_t a, int delta)
    {
        if (m_links)
        {
            for (uint32_t e : m_problem.GetWorkerPath(i, a))
            {
                m_streams[e] += delta;
            }
        }
        if (a == m_psTarget)
        {
            m_psStreams += delta;
            m_psDirect += delta;
            return;
        }
        // A switch's aggregate stream exists while its fan-in is non-zero.
        const bool wasUsed = m_fanIn[a] > 0;
        m_fanIn[a] += delta;
        const bool isUsed = m_fanIn[a] > 0;
        if (wasUsed != isUsed)
        {
            const int d = isUsed ? +1 : -1;
            m_psStreams += d;
            if (m_links)
            {
                for (uint32_t e : m_problem.GetSwitchPath(a))
                {
                    m_streams[e] += d;
                }
            }
        }
    }

    const GridProblem& m_problem;
    bool m_links;
    uint32_t m_psTarget;
    std::vector<uint32_t> m_assign;
    std::vector<uint32_t> m_fanIn;
    std::vector<uint32_t> m_streams;
    uint32_t m_psStreams = 0;
    uint32_t m_psDirect = 0;       //!< of m_psStreams, the direct workers'
    std::vector<uint32_t> m_edges; //!< edges some route crosses (all edges' counts are kept)
};

/// Leximin on the smallest ratios: the first that differs (beyond rounding) decides. The
/// tolerance is relative to |b|, as ratios above the fan-in limit are negative.
bool
Better(const Score& a, const Score& b)
{
    for (std::size_t k = 0; k < a.size(); ++k)
    {
        const double tol = std::isinf(b[k]) ? 0.0 : std::abs(b[k]) * kRelTol;
        if (a[k] > b[k] + tol)
        {
            return true;
        }
        if (a[k] < b[k] - tol)
        {
            return false;
        }
    }
    return false;
}

/// A repair move: (worker, new target) pairs, applied together.
using Move = std::vector<std::pair<uint32_t, uint32_t>>;

/// The best move of one repair step so far, and the score it reaches.
struct BestMove
{
    Move move;
    Score score;
};

/// Applies `move` to `state`, scores it and undoes it; keeps it in `best` if it beats it.
void
TryMove(StreamCounter& state, const Move& move, BestMove* best)
{
    // A move to a target the worker's route (or the switch's route to the PS) no longer reaches
    // is none: failed links give it no path, so stream counting alone would find it free.
    for (const auto& [i, b] : move)
    {
        if (!state.Routed(i, b))
        {
            return;
        }
    }
    std::vector<uint32_t> from;
    from.reserve(move.size());
    for (const auto& [i, b] : move)
    {
        from.push_back(state.GetAssignment()[i]);
        state.Move(i, b);
    }
    const Score s = state.GetScore();
    for (std::size_t k = move.size(); k-- > 0;)
    {
        state.Move(move[k].first, from[k]);
    }
    if (Better(s, best->score))
    {
        best->score = s;
        best->move = move;
    }
}

/// Repair moves of the first kind: one `hot` worker to another target.
void
TrySingleMoves(StreamCounter& state,
               const std::vector<uint32_t>& hot,
               uint32_t nTargets,
               BestMove* best)
{
    const std::vector<uint32_t> now = state.GetAssignment();
    for (uint32_t i : hot)
    {
        for (uint32_t b = 0; b < nTargets; ++b)
        {
            if (b != now[i])
            {
                TryMove(state, {{i, b}}, best);
            }
        }
    }
}

/**
 * Repair moves of the second kind, closing a switch: all its workers (`members` per target) to
 * one other target. This is what removes a stream into the PS, which no single move does while
 * the switch has several workers.
 */
void
TryClosingSwitches(StreamCounter& state,
                   const std::vector<std::vector<uint32_t>>& members,
                   uint32_t psTarget,
                   BestMove* best)
{
    Move trial;
    for (uint32_t a = 0; a < psTarget; ++a)
    {
        if (members[a].size() < 2)
        {
            continue;
        }
        for (uint32_t b = 0; b <= psTarget; ++b)
        {
            if (b == a)
            {
                continue;
            }
            trial.clear();
            for (uint32_t i : members[a])
            {
                trial.push_back({i, b});
            }
            TryMove(state, trial, best);
        }
    }
}

/**
 * Repair moves of the third kind, for when the others are stuck: open an idle switch with a `hot`
 * worker that loads a binding constraint and a direct worker, whose stream into the PS pays for
 * the new aggregate's.
 */
void
TryOpeningSwitch(StreamCounter& state,
                 const std::vector<std::vector<uint32_t>>& members,
                 const std::vector<uint32_t>& hot,
                 uint32_t psTarget,
                 BestMove* best)
{
    for (uint32_t b = 0; b < psTarget; ++b)
    {
        if (!members[b].empty())
        {
            continue;
        }
        for (uint32_t i : hot)
        {
            for (uint32_t j : members[psTarget])
            {
                if (j != i)
                {
                    TryMove(state, {{i, b}, {j, b}}, best);
                }
            }
        }
    }
}

} // namespace

std::vector<uint32_t>
GridPlanner::Repair(const GridProblem& problem,
                    const std::vector<uint32_t>& assignment,
                    bool withLinks)
{
    StreamCounter state(problem, assignment, withLinks);
    const uint32_t nTargets = problem.GetPsTarget() + 1;
    const uint32_t psTarget = problem.GetPsTarget();
    // Each accepted move strictly improves the leximin score, so this ends; the cap only bounds
    // the work on large instances.
    const uint32_t maxMoves = 4 * problem.GetNWorkers() + 16;
    Score score = state.GetScore();
    for (uint32_t step = 0; step < maxMoves; ++step)
    {
        if (score[0] >= problem.GetMinWorkerRateBps() * (1 - kRelTol))
        {
            break; // every worker at its NIC rate: nothing to gain
        }
        BestMove best{{}, score};
        const std::vector<uint32_t> hot = state.Candidates(score[kScoreDepth - 1]);
        std::vector<std::vector<uint32_t>> members(nTargets);
        for (uint32_t i = 0; i < state.GetAssignment().size(); ++i)
        {
            members[state.GetAssignment()[i]].push_back(i);
        }
        TrySingleMoves(state, hot, nTargets, &best);
        TryClosingSwitches(state, members, psTarget, &best);
        if (best.move.empty())
        {
            TryOpeningSwitch(state, members, hot, psTarget, &best);
        }
        if (best.move.empty())
        {
            break;
        }
        for (const auto& [i, b] : best.move)
        {
            state.Move(i, b);
        }
        score = best.score;
    }
    return state.GetAssignment();
}

GridPlanner::GridPlanner()
    : GridPlanner(Options())
{
}

GridPlanner::GridPlanner(const Options& options)
    : m_options(options)
{
    if (options.trials == 0)
    {
        throw std::invalid_argument("GridPlanner: trials is 0: expected at least one rounding");
    }
}

namespace
{

/// The constraint that sets an evaluation's common rate, named once at the end.
struct Binding
{
    enum Kind
    {
        NIC,
        SWITCH,
        PS,
        EDGE,
        FAN_IN //!< a switch (which < S) or the PS (which == S) above the fan-in limit
    };

    Kind kind = NIC;
    uint32_t which = 0; //!< the worker, switch or edge
    double rateBps = 0;

    /// Takes `rate` of constraint (kind, which) if it is lower than the binding one so far.
    void Consider(Kind k, uint32_t w, double rate)
    {
        if (rate < rateBps)
        {
            rateBps = rate;
            kind = k;
            which = w;
        }
    }
};

/// Counts ev's fan-in per switch and its streams into the PS; throws for a wrong assignment.
void
CountFanIn(const GridProblem& problem,
           const std::vector<uint32_t>& assignment,
           GridPlanner::Evaluation* ev)
{
    const uint32_t nWorkers = problem.GetNWorkers();
    const uint32_t psTarget = problem.GetPsTarget();
    if (assignment.size() != nWorkers)
    {
        throw std::invalid_argument("GridPlanner::Evaluate: assignment has " +
                                    std::to_string(assignment.size()) + " entries: expected " +
                                    std::to_string(nWorkers) + " (one per worker)");
    }
    ev->fanIn.assign(problem.GetNSwitches(), 0);
    uint32_t direct = 0;
    for (uint32_t i = 0; i < nWorkers; ++i)
    {
        const uint32_t a = assignment[i];
        if (a > psTarget)
        {
            throw std::invalid_argument("GridPlanner::Evaluate: worker " + std::to_string(i) +
                                        " has target " + std::to_string(a) + ": expected 0.." +
                                        std::to_string(psTarget) + " (" + std::to_string(psTarget) +
                                        " is the PS)");
        }
        if (a == psTarget)
        {
            ++direct;
        }
        else
        {
            ++ev->fanIn[a];
        }
    }
    ev->psStreams = direct;
    for (uint32_t fanIn : ev->fanIn)
    {
        ev->psStreams += fanIn > 0 ? 1 : 0;
    }
}

/// Counts ev's streams per directed edge: each worker's to its target, each used switch's to the
/// PS, and with GridProblem::CountsResults the results coming back.
void
CountEdgeStreams(const GridProblem& problem,
                 const std::vector<uint32_t>& assignment,
                 GridPlanner::Evaluation* ev)
{
    ev->streams.assign(problem.GetNEdges(), 0);
    const bool results = problem.CountsResults();
    const uint32_t psTarget = problem.GetPsTarget();
    std::vector<std::vector<uint32_t>> members(results ? problem.GetNSwitches() : 0);
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        const uint32_t a = assignment[i];
        for (uint32_t e : problem.GetWorkerPath(i, a))
        {
            ++ev->streams[e];
            if (results && a == psTarget)
            {
                ++ev->streams[e ^ 1]; // its results, along its path reversed
            }
        }
        if (results && a != psTarget)
        {
            members[a].push_back(problem.GetWorker(i));
        }
    }
    for (uint32_t j = 0; j < problem.GetNSwitches(); ++j)
    {
        if (ev->fanIn[j] == 0)
        {
            continue;
        }
        for (uint32_t e : problem.GetSwitchPath(j))
        {
            ++ev->streams[e];
            if (results)
            {
                ++ev->streams[e ^ 1]; // the PS's results to the switch, that path reversed
            }
        }
        if (results)
        {
            for (uint32_t e : problem.MulticastEdges(problem.GetSwitchNode(j), members[j]))
            {
                ++ev->streams[e];
            }
        }
    }
}

/// The groups the PS of `ev` tells apart (GridProblem::PsGroups).
uint32_t
PsGroups(const GridProblem& problem, const GridPlanner::Evaluation& ev)
{
    uint32_t switches = 0;
    for (uint32_t fanIn : ev.fanIn)
    {
        switches += fanIn > 0 ? 1 : 0;
    }
    return problem.PsGroups(ev.psStreams - switches, switches);
}

/// The lowest rate of all constraints the counted `ev` loads: NICs, switches, the PS, and with
/// `withLinks` the edges (the first of equal ones in that order).
Binding
FindBinding(const GridProblem& problem, const GridPlanner::Evaluation& ev, bool withLinks)
{
    Binding bind;
    bind.rateBps = problem.GetWorkerRateBps(0);
    for (uint32_t i = 1; i < problem.GetNWorkers(); ++i)
    {
        bind.Consider(Binding::NIC, i, problem.GetWorkerRateBps(i));
    }
    for (uint32_t j = 0; j < ev.fanIn.size(); ++j)
    {
        if (ev.fanIn[j] > 0)
        {
            bind.Consider(Binding::SWITCH, j, problem.GetSwitchCapacityBps(j) / ev.fanIn[j]);
        }
    }
    bind.Consider(Binding::PS, 0, problem.GetPsIngressBps() / ev.psStreams);
    // A node above the fan-in limit cannot count its contributors: nothing moves.
    for (uint32_t j = 0; j < ev.fanIn.size(); ++j)
    {
        if (!problem.FanInFits(ev.fanIn[j]))
        {
            bind.Consider(Binding::FAN_IN, j, 0);
        }
    }
    if (!problem.FanInFits(PsGroups(problem, ev)))
    {
        bind.Consider(Binding::FAN_IN, problem.GetPsTarget(), 0);
    }
    if (withLinks)
    {
        for (uint32_t e = 0; e < ev.streams.size(); ++e)
        {
            if (ev.streams[e] > 0)
            {
                bind.Consider(Binding::EDGE, e, problem.GetEdgeCapacityBps(e) / ev.streams[e]);
            }
        }
    }
    return bind;
}

/// Names the binding constraint `bind` of `ev` for the plan's bottleneck.
std::string
NameBinding(const GridProblem& problem, const GridPlanner::Evaluation& ev, const Binding& bind)
{
    const InaTopology& topo = problem.GetTopology();
    switch (bind.kind)
    {
    case Binding::NIC:
        return "worker NIC (" + topo.GetNode(problem.GetWorker(bind.which)).name + ")";
    case Binding::SWITCH:
        return "capacity of " + topo.GetNode(problem.GetSwitchNode(bind.which)).name + " / " +
               std::to_string(ev.fanIn[bind.which]) + " workers";
    case Binding::PS:
        return "PS ingress / " + std::to_string(ev.psStreams) + " streams";
    case Binding::EDGE:
        return "link " + problem.EdgeName(bind.which) + " / " +
               std::to_string(ev.streams[bind.which]) + " streams";
    case Binding::FAN_IN:
        if (bind.which == problem.GetPsTarget())
        {
            return "fan-in of the PS: " + std::to_string(PsGroups(problem, ev)) + " groups (" +
                   std::to_string(ev.psStreams) + " streams), limit " +
                   std::to_string(problem.GetMaxFanIn());
        }
        return "fan-in of " + topo.GetNode(problem.GetSwitchNode(bind.which)).name + ": " +
               std::to_string(ev.fanIn[bind.which]) + " workers, limit " +
               std::to_string(problem.GetMaxFanIn());
    }
    return "";
}

} // namespace

GridPlanner::Evaluation
GridPlanner::Evaluate(const GridProblem& problem,
                      const std::vector<uint32_t>& assignment,
                      bool withLinks)
{
    Evaluation ev;
    CountFanIn(problem, assignment, &ev);
    if (withLinks)
    {
        CountEdgeStreams(problem, assignment, &ev);
    }
    const Binding bind = FindBinding(problem, ev, withLinks);
    const uint32_t psTarget = problem.GetPsTarget();
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        const uint32_t a = assignment[i];
        if (!problem.Reaches(i, a) || (a != psTarget && !problem.SwitchReachesPs(a)))
        {
            // Failed links cut the worker's stream: nothing moves.
            const InaTopology& topo = problem.GetTopology();
            ev.lambdaBps = 0;
            ev.bottleneck = "no route from " + topo.GetNode(problem.GetWorker(i)).name +
                            " through " + topo.GetNode(problem.GetTargetNode(a)).name +
                            " to the PS";
            return ev;
        }
    }
    ev.lambdaBps = bind.rateBps;
    ev.bottleneck = NameBinding(problem, ev, bind);
    return ev;
}

GridPlan
GridPlanner::MakePlan(const GridProblem& problem,
                      const std::vector<uint32_t>& assignment,
                      bool withLinks)
{
    const Evaluation ev = Evaluate(problem, assignment, withLinks);
    GridPlan plan;
    plan.linkRows = withLinks;
    plan.psNode = problem.GetPs();
    plan.achievedBps = ev.lambdaBps;
    plan.bottleneck = ev.bottleneck;
    plan.psFanIn = ev.psStreams;
    const uint32_t psTarget = problem.GetPsTarget();
    std::vector<std::vector<uint32_t>> members(problem.GetNSwitches());
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        GridPlan::WorkerRoute w;
        w.host = problem.GetWorker(i);
        w.target = assignment[i];
        w.node = problem.GetTargetNode(w.target);
        w.rateBps = ev.lambdaBps;
        w.path = problem.RouteNodes(w.host, w.node);
        plan.workers.push_back(std::move(w));
        if (assignment[i] == psTarget)
        {
            ++plan.directWorkers;
        }
        else
        {
            members[assignment[i]].push_back(i);
        }
    }
    for (uint32_t j = 0; j < problem.GetNSwitches(); ++j)
    {
        if (members[j].empty())
        {
            continue;
        }
        GridPlan::SwitchRoute s;
        s.target = j;
        s.node = problem.GetSwitchNode(j);
        s.fanIn = static_cast<uint32_t>(members[j].size());
        s.workers = members[j];
        s.rateBps = ev.lambdaBps;
        s.pathToPs = problem.RouteNodes(s.node, problem.GetPs());
        plan.switches.push_back(std::move(s));
    }
    return plan;
}

namespace
{

/**
 * The GRIA LP of one problem (spec B.4 step 2): columns lambda, r(i, a) per worker and target,
 * y_j per switch; rows as the paper's Sec. 4.2 (each worker's rates sum to lambda, r(i, j) <= y_j,
 * switch capacities, PS ingress) plus, with link rows, one row per directed edge some route uses.
 * Rates in Gb/s (kLpUnit).
 */
class GriaLp
{
  public:
    explicit GriaLp(const GridProblem& problem)
        : m_problem(problem)
        , m_nWorkers(problem.GetNWorkers())
        , m_nSwitches(problem.GetNSwitches())
        , m_nTargets(m_nSwitches + 1)
    {
        m_lambdaCol = m_lp.AddColumn(1.0, problem.GetMinWorkerRateBps() / kLpUnit);
        m_rCol.resize(static_cast<std::size_t>(m_nWorkers) * m_nTargets);
        for (uint32_t i = 0; i < m_nWorkers; ++i)
        {
            for (uint32_t a = 0; a < m_nTargets; ++a)
            {
                // Failed links: a target the worker's route (or the switch's route to the PS)
                // does not reach gets nothing.
                const bool routed =
                    problem.Reaches(i, a) && (a == m_nSwitches || problem.SwitchReachesPs(a));
                m_rCol[static_cast<std::size_t>(i) * m_nTargets + a] =
                    routed ? m_lp.AddColumn(0.0) : m_lp.AddColumn(0.0, 0.0);
            }
        }
        m_yCol.resize(m_nSwitches);
        for (uint32_t& c : m_yCol)
        {
            c = m_lp.AddColumn(0.0);
        }
        AddModelRows();
    }

    /// Add the per-edge rows; \return how many
    uint32_t AddLinkRows()
    {
        std::vector<std::vector<GridLp::Term>> byEdge(m_problem.GetNEdges());
        for (uint32_t i = 0; i < m_nWorkers; ++i)
        {
            for (uint32_t a = 0; a < m_nTargets; ++a)
            {
                for (uint32_t e : m_problem.GetWorkerPath(i, a))
                {
                    byEdge[e].push_back({R(i, a), 1.0});
                    if (m_problem.CountsResults() && a == m_nSwitches)
                    {
                        byEdge[e ^ 1].push_back({R(i, a), 1.0}); // its results, path reversed
                    }
                }
            }
        }
        for (uint32_t j = 0; j < m_nSwitches; ++j)
        {
            for (uint32_t e : m_problem.GetSwitchPath(j))
            {
                byEdge[e].push_back({m_yCol[j], 1.0});
                if (m_problem.CountsResults())
                {
                    byEdge[e ^ 1].push_back({m_yCol[j], 1.0}); // the PS's results to the switch
                }
            }
        }
        uint32_t linkRows = 0;
        for (uint32_t e = 0; e < byEdge.size(); ++e)
        {
            if (!byEdge[e].empty())
            {
                m_lp.AddRow(byEdge[e],
                            GridLp::Sense::LESS_EQUAL,
                            m_problem.GetEdgeCapacityBps(e) / kLpUnit);
                ++linkRows;
            }
        }
        return linkRows;
    }

    /// Solve; throws std::runtime_error naming lp_solve's status unless optimal.
    void Solve()
    {
        const GridLp::Status status = m_lp.Maximize();
        if (status != GridLp::Status::OPTIMAL)
        {
            throw std::runtime_error(
                std::string("GridPlanner: lp_solve did not solve the GRIA LP (") +
                GridLp::StatusName(status) + ", lp_solve code " +
                std::to_string(m_lp.GetSolverCode()) + ", " + std::to_string(m_lp.GetNColumns()) +
                " columns, " + std::to_string(m_lp.GetNRows()) + " rows)");
        }
    }

    /// \return lambda~ in Gb/s
    double GetLambda() const
    {
        return m_lp.GetValue(m_lambdaCol);
    }

    /// \return r(i, a) in Gb/s, solver noise (below 1e-9 of max(lambda~, 1)) set to 0
    std::vector<std::vector<double>> GetRates() const
    {
        // Solver noise (negative zeros, 1e-15 leftovers) must not become rounding probabilities.
        const double noise = std::max(GetLambda(), 1.0) * 1e-9;
        std::vector<std::vector<double>> rates(m_nWorkers, std::vector<double>(m_nTargets, 0.0));
        for (uint32_t i = 0; i < m_nWorkers; ++i)
        {
            for (uint32_t a = 0; a < m_nTargets; ++a)
            {
                const double v = m_lp.GetValue(R(i, a));
                rates[i][a] = v > noise ? v : 0.0;
            }
        }
        return rates;
    }

    const GridLp& GetLp() const
    {
        return m_lp;
    }

  private:
    uint32_t R(uint32_t i, uint32_t a) const
    {
        return m_rCol[static_cast<std::size_t>(i) * m_nTargets + a];
    }

    /// The printed model's rows: demand, r <= y, switch capacities, PS ingress; then the fan-in
    /// rows if the problem has a limit.
    void AddModelRows()
    {
        std::vector<GridLp::Term> terms;
        for (uint32_t i = 0; i < m_nWorkers; ++i)
        {
            terms.clear();
            for (uint32_t a = 0; a < m_nTargets; ++a)
            {
                terms.push_back({R(i, a), 1.0});
            }
            terms.push_back({m_lambdaCol, -1.0});
            m_lp.AddRow(terms, GridLp::Sense::EQUAL, 0.0);
        }
        for (uint32_t i = 0; i < m_nWorkers; ++i)
        {
            for (uint32_t j = 0; j < m_nSwitches; ++j)
            {
                m_lp.AddRow({{R(i, j), 1.0}, {m_yCol[j], -1.0}}, GridLp::Sense::LESS_EQUAL, 0.0);
            }
        }
        for (uint32_t j = 0; j < m_nSwitches; ++j)
        {
            terms.clear();
            for (uint32_t i = 0; i < m_nWorkers; ++i)
            {
                terms.push_back({R(i, j), 1.0});
            }
            m_lp.AddRow(terms,
                        GridLp::Sense::LESS_EQUAL,
                        m_problem.GetSwitchCapacityBps(j) / kLpUnit);
        }
        terms.clear();
        for (uint32_t i = 0; i < m_nWorkers; ++i)
        {
            terms.push_back({R(i, m_nSwitches), 1.0});
        }
        for (uint32_t j = 0; j < m_nSwitches; ++j)
        {
            terms.push_back({m_yCol[j], 1.0});
        }
        m_lp.AddRow(terms, GridLp::Sense::LESS_EQUAL, m_problem.GetPsIngressBps() / kLpUnit);
        AddFanInRows();
    }

    /**
     * With a fan-in limit F (GridProblem::SetMaxFanIn): x(i, a) = r(i, a) / lambda is worker i's
     * share of target a, so sum_i x(i, j) <= F per switch reads sum_i r(i, j) - F lambda <= 0,
     * and the PS's groups (GridProblem::PsGroups: the direct workers F to a group, so at least
     * their count / F, and y_j / lambda per switch: 1 when it aggregates)
     * sum_i r(i, S) / F + sum_j y_j - F lambda <= 0. Every integral plan within the limit
     * satisfies both, so the LP stays a relaxation; without them it would steer the rounding to
     * switches the data plane cannot serve.
     */
    void AddFanInRows()
    {
        const double limit = m_problem.GetMaxFanIn();
        // A job of at most F workers cannot exceed any fan-in (each switch and each group at
        // the PS holds at least one of them): its rows could bind no integral plan, but they
        // would still cut off some of the LP's equally good vertices and so change the plan
        // the rounding starts from (the fat-tree of scenario (a), 20 workers at packet level:
        // 28.6 -> 20.0 Gb/s once the rows came in). Without them it is the paper's LP.
        if (limit == 0 || m_nWorkers <= limit)
        {
            return;
        }
        std::vector<GridLp::Term> terms;
        for (uint32_t j = 0; j < m_nSwitches; ++j)
        {
            terms.clear();
            for (uint32_t i = 0; i < m_nWorkers; ++i)
            {
                terms.push_back({R(i, j), 1.0});
            }
            terms.push_back({m_lambdaCol, -limit});
            m_lp.AddRow(terms, GridLp::Sense::LESS_EQUAL, 0.0);
        }
        terms.clear();
        for (uint32_t i = 0; i < m_nWorkers; ++i)
        {
            terms.push_back({R(i, m_nSwitches), 1.0 / limit});
        }
        for (uint32_t j = 0; j < m_nSwitches; ++j)
        {
            terms.push_back({m_yCol[j], 1.0});
        }
        terms.push_back({m_lambdaCol, -limit});
        m_lp.AddRow(terms, GridLp::Sense::LESS_EQUAL, 0.0);
    }

    const GridProblem& m_problem;
    uint32_t m_nWorkers;
    uint32_t m_nSwitches;
    uint32_t m_nTargets;
    GridLp m_lp;
    uint32_t m_lambdaCol = 0;
    std::vector<uint32_t> m_rCol;
    std::vector<uint32_t> m_yCol;
};

/// Each worker's LP rates summed (its r_i), in Gb/s.
std::vector<double>
WorkerTotals(const std::vector<std::vector<double>>& rates)
{
    std::vector<double> total(rates.size(), 0.0);
    for (std::size_t i = 0; i < rates.size(); ++i)
    {
        for (double v : rates[i])
        {
            total[i] += v;
        }
    }
    return total;
}

/**
 * One randomized rounding (spec B.4 step 3): worker i takes target a with probability
 * r(i, a) / r_i. Draws one number per worker whatever its rates, so that seeds stay aligned.
 */
void
RoundOnce(const std::vector<std::vector<double>>& rates,
          const std::vector<double>& workerTotal,
          uint32_t psTarget,
          std::mt19937_64& rng,
          std::vector<uint32_t>& assignment)
{
    for (uint32_t i = 0; i < rates.size(); ++i)
    {
        // A worker the LP gives nothing (only possible at lambda~ = 0) goes to the PS.
        assignment[i] = psTarget;
        if (workerTotal[i] <= 0)
        {
            Uniform(rng); // keep one draw per worker so seeds stay aligned across instances
            continue;
        }
        const double u = Uniform(rng) * workerTotal[i];
        double acc = 0;
        for (uint32_t a = 0; a < rates[i].size(); ++a)
        {
            if (rates[i][a] <= 0)
            {
                continue;
            }
            // The last positive target also takes u ~ total lost to rounding in acc.
            assignment[i] = a;
            acc += rates[i][a];
            if (u < acc)
            {
                break;
            }
        }
    }
}

/**
 * The literal rounding's figures (the paper's y^_s = max over the switch's workers, spec B.3):
 * each worker at its LP total, for the plan's report.
 */
void
FillLiteral(const GridProblem& problem,
            const std::vector<std::vector<double>>& rates,
            const std::vector<double>& workerTotal,
            const std::vector<uint32_t>& best,
            GridPlan& plan)
{
    const uint32_t nWorkers = problem.GetNWorkers();
    const uint32_t nSwitches = problem.GetNSwitches();
    const uint32_t psTarget = problem.GetPsTarget();
    plan.lpRatesBps.assign(nWorkers, std::vector<double>(nSwitches + 1, 0.0));
    double literal = -1;
    for (uint32_t i = 0; i < nWorkers; ++i)
    {
        for (uint32_t a = 0; a <= nSwitches; ++a)
        {
            plan.lpRatesBps[i][a] = rates[i][a] * kLpUnit;
        }
        const double ri = workerTotal[i] * kLpUnit;
        literal = literal < 0 ? ri : std::min(literal, ri);
    }
    plan.literalRateBps = literal;
    std::vector<double> yHat(nSwitches, 0.0);
    std::vector<double> load(nSwitches, 0.0);
    double psLoad = 0;
    for (uint32_t i = 0; i < nWorkers; ++i)
    {
        const double ri = workerTotal[i] * kLpUnit;
        if (best[i] == psTarget)
        {
            psLoad += ri;
        }
        else
        {
            yHat[best[i]] = std::max(yHat[best[i]], ri);
            load[best[i]] += ri;
        }
    }
    double maxLoad = 0;
    for (uint32_t j = 0; j < nSwitches; ++j)
    {
        psLoad += yHat[j];
        maxLoad = std::max(maxLoad, load[j] / problem.GetSwitchCapacityBps(j));
    }
    plan.literalPsIngressBps = psLoad;
    plan.literalMaxSwitchLoad = maxLoad;
}

} // namespace

GridPlan
GridPlanner::Plan(const GridProblem& problem) const
{
    GriaLp lp(problem);
    const uint32_t linkRows = m_options.linkRows ? lp.AddLinkRows() : 0;
    NS_LOG_INFO("GRID LP: " << lp.GetLp().GetNColumns() << " columns, " << lp.GetLp().GetNRows()
                            << " rows (" << linkRows << " link rows)");
    lp.Solve();
    const double lpLambda = lp.GetLambda();
    const std::vector<std::vector<double>> rates = lp.GetRates();
    const std::vector<double> workerTotal = WorkerTotals(rates);

    uint32_t bestTrial = 0;
    const std::vector<uint32_t> best = BestRounding(problem, rates, workerTotal, &bestTrial);

    GridPlan plan = MakePlan(problem, best, m_options.linkRows);
    plan.lpBoundBps = lpLambda * kLpUnit;
    plan.trials = m_options.trials;
    plan.bestTrial = bestTrial;
    FillLiteral(problem, rates, workerTotal, best, plan);
    NS_LOG_INFO("GRID plan: lambda~ " << plan.lpBoundBps << " lambda^ " << plan.achievedBps
                                      << " (trial " << bestTrial << ", " << plan.bottleneck << ")");
    return plan;
}

std::vector<uint32_t>
GridPlanner::BestRounding(const GridProblem& problem,
                          const std::vector<std::vector<double>>& rates,
                          const std::vector<double>& workerTotal,
                          uint32_t* bestTrial) const
{
    std::mt19937_64 rng(InaSplitMix64(m_options.seed));
    std::vector<uint32_t> assignment(problem.GetNWorkers());
    std::vector<uint32_t> best;
    double bestLambda = -1;
    for (uint32_t t = 0; t < m_options.trials; ++t)
    {
        RoundOnce(rates, workerTotal, problem.GetPsTarget(), rng, assignment);
        const std::vector<uint32_t> kept =
            m_options.repair ? Repair(problem, assignment, m_options.linkRows) : assignment;
        const double lambda = Evaluate(problem, kept, m_options.linkRows).lambdaBps;
        if (lambda > bestLambda * (1 + kRelTol))
        {
            bestLambda = lambda;
            best = kept;
            *bestTrial = t;
        }
    }
    return best;
}

double
GridPlanner::PaperOptimum(const GridProblem& problem)
{
    const double n = problem.GetNWorkers();
    const uint32_t nSwitches = problem.GetNSwitches();
    const double t = problem.GetMinWorkerRateBps();
    const double b = problem.GetPsIngressBps();
    std::vector<double> candidates{t};
    for (uint32_t j = 0; j < nSwitches; ++j)
    {
        for (uint32_t k = 1; k <= problem.GetNWorkers(); ++k)
        {
            candidates.push_back(problem.GetSwitchCapacityBps(j) / k);
        }
    }
    for (uint32_t k = 1; k <= problem.GetNWorkers() + nSwitches; ++k)
    {
        candidates.push_back(b / k);
    }
    std::sort(candidates.begin(), candidates.end(), std::greater<double>());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::vector<double> caps(nSwitches);
    for (double lambda : candidates)
    {
        if (lambda > t || lambda <= 0)
        {
            continue;
        }
        for (uint32_t j = 0; j < nSwitches; ++j)
        {
            caps[j] = FloorTol(problem.GetSwitchCapacityBps(j) / lambda);
        }
        std::sort(caps.begin(), caps.end(), std::greater<double>());
        const double streams = FloorTol(b / lambda);
        double covered = 0;
        double bestCost = n; // k = 0: every worker straight to the PS
        for (uint32_t k = 1; k <= nSwitches; ++k)
        {
            covered += caps[k - 1];
            bestCost = std::min(bestCost, k + std::max(0.0, n - covered));
        }
        if (bestCost <= streams)
        {
            return lambda;
        }
    }
    // Unreachable: lambda = min(T, B/N) (every worker direct) is a candidate and feasible.
    return std::min(t, b / n);
}

} // namespace ns3
