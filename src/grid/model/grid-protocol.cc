/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-protocol.h"

#include "grid-agent.h"
#include "grid-controller.h"
#include "grid-job-switches.h"
#include "grid-parameter-server.h"
#include "grid-planner.h"
#include "grid-problem.h"
#include "grid-program.h"
#include "grid-worker-pacing.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ina-switch.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pipeline.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GridProtocol");
NS_OBJECT_ENSURE_REGISTERED(GridProtocol);

static AggregationProtocolRegistry::Registrar g_grid(
    "grid",
    "ns3::GridProtocol",
    "GRID in-network aggregation: a planner (LP + randomized rounding) assigns every worker an "
    "aggregation switch at any tier or the parameter server and pins the routes; switches "
    "aggregate in ATP-style hashed units, collisions drop the gradient and notify the worker, "
    "which halves its window and resends; the PS returns one result per aggregation node");

namespace
{
/// Flow ids inside the job's range [base, base + FLOW_IDS_PER_JOB): ATP uses base + ps for the
/// workers and base + n + ps for results; GRID adds these above them.
constexpr uint32_t NOTICE_FLOW_OFFSET = 4;
constexpr uint32_t AGGREGATE_FLOW_OFFSET = 8;
/// Each worker's gradients take a flow of their own, base + this + rank, pinned along its planned
/// path; far above the aggregate flows (one per switch of the plan).
constexpr uint32_t WORKER_FLOW_OFFSET = JobContext::FLOW_IDS_PER_JOB / 2;
/// A direct worker's results from the PS, base + this + rank, pinned along its path reversed.
constexpr uint32_t RESULT_FLOW_OFFSET = WORKER_FLOW_OFFSET + JobContext::FLOW_IDS_PER_JOB / 4;
/// The PS's results to plan switch j, base + this + j, pinned along j's aggregate path reversed.
constexpr uint32_t SWITCH_RESULT_FLOW_OFFSET = JobContext::FLOW_IDS_PER_JOB / 4;

} // namespace

TypeId
GridProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GridProtocol")
            .SetParent<PoolProtocol>()
            .SetGroupName("InaAggregation")
            .AddConstructor<GridProtocol>()
            .AddAttribute("SwitchCapacity",
                          "C_s, the aggregation capacity of every programmable switch in bit/s "
                          "(spec B.2). 0: the capacity of the switch's pipeline "
                          "(switch.aggregation, Pipeline::AggregationCapacity; a packet rate "
                          "counts GRID's gradient packets on the wire), and without one the sum "
                          "of the switch's port rates (every input at line rate; an "
                          "interpretation, the paper gives no number).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&GridProtocol::m_switchCapacity),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("PsIngress",
                          "B_alpha, the PS's ingress in bit/s. 0: its host link.",
                          DoubleValue(0),
                          MakeDoubleAccessor(&GridProtocol::m_psIngress),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("PlannerTrials",
                          "Randomized roundings of the LP the planner tries (spec B.8: 32).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&GridProtocol::m_trials),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddAttribute("PlannerSeed",
                          "Seed of the planner's rounding generator.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&GridProtocol::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("LinkRows",
                          "Plan with a capacity row per directed link (false: the paper's LP, "
                          "spec B.10.3).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GridProtocol::m_linkRows),
                          MakeBooleanChecker())
            .AddAttribute("ResultRows",
                          "Plan with the results on the links as well as the gradients "
                          "(GridProblem::SetCountResults; an extension, the paper's model "
                          "assumes link bandwidth sufficient, Sec. 4.1): a direct worker's "
                          "results along its path reversed, the PS's to each switch along the "
                          "switch's aggregate path reversed, each switch's multicast to its "
                          "workers on the tree the fabric lays. Needs LinkRows. false: the link "
                          "rows count gradients only.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GridProtocol::m_resultRows),
                          MakeBooleanChecker())
            .AddAttribute("HashFragments",
                          "Aggregator unit of a fragment: CRC32(job id, fragment) mod the hash "
                          "range, the paper's Hash(frag_id) (a job's own fragments can collide). "
                          "false: ATP's slot table (a job never collides with itself).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&GridProtocol::m_hashFragments),
                          MakeBooleanChecker())
            .AddAttribute("Pace",
                          "Each worker's NIC injects at most at the rate the plan gives it (the "
                          "host injection cap, InaHost::SetInjectionRateCap), as the control "
                          "plane's policy sets each worker's sending rate (GRID paper, Sec. 3.3 "
                          "and 4.3). false: the window alone limits a worker, as in ATP.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&GridProtocol::m_pace),
                          MakeBooleanChecker());
    static const TypeId withSet =
        GridJobSwitches::AddAttribute(tid, MakeStringAccessor(&GridProtocol::m_programmable));
    return withSet;
}

GridProtocol::GridProtocol()
    : GridProtocol("grid", true, true)
{
}

GridProtocol::~GridProtocol() = default;

GridProtocol::GridProtocol(const std::string& label,
                           bool needsProgrammableSwitches,
                           bool followsFabricRoutes)
    : PoolProtocol(GRID_PROTOCOL, label)
    , m_needsProgrammableSwitches(needsProgrammableSwitches)
    , m_followsFabricRoutes(followsFabricRoutes)
{
}

void
GridProtocol::DoDispose()
{
    m_control.Leave();
    m_gridAgents.clear();
    PoolProtocol::DoDispose();
}

Ptr<PoolProgram>
GridProtocol::CreateProgram() const
{
    return ProgramFactory("ns3::GridProgram").Create<GridProgram>();
}

Ptr<PoolParameterServer>
GridProtocol::CreateServer() const
{
    return CreateObject<GridParameterServer>();
}

Ptr<PoolAgent>
GridProtocol::CreatePoolAgent() const
{
    Ptr<GridAgent> a = CreateObject<GridAgent>();
    m_gridAgents.push_back(a);
    return a;
}

void
GridProtocol::DoInstall()
{
    const JobContext& ctx = GetContext();
    if (ctx.psHosts.size() != 1)
    {
        Fail("the job has " + std::to_string(ctx.psHosts.size()) +
             " parameter servers; GRID plans for exactly one (ps_hosts: 1)");
    }
    if (ctx.inaTiers.empty() && NeedsProgrammableSwitches())
    {
        Fail("switch.ina_tiers is empty; GRID needs the tiers whose switches may aggregate");
    }
    if (m_resultRows && !m_linkRows)
    {
        Fail("ResultRows counts the results on the links, which needs LinkRows: true");
    }
    PoolProtocol::DoInstall();
    ConfigureGrid();
    if (FollowsFabricRoutes())
    {
        m_control.Join(this, ctx);
    }
}

GridPlan
GridProtocol::PlanJob(const GridProblem& problem, const GridPlanner::Options& options) const
{
    return GridPlanner(options).Plan(problem);
}

bool
GridProtocol::NeedsProgrammableSwitches() const
{
    return m_needsProgrammableSwitches;
}

bool
GridProtocol::FollowsFabricRoutes() const
{
    return m_followsFabricRoutes;
}

GridProblem
GridProtocol::BuildProblem(const std::vector<bool>& failedLinks) const
{
    const JobContext& ctx = GetContext();
    GridProblem problem(ctx.fabric->GetTopology(),
                        ctx.workerHosts,
                        ctx.psHosts[0],
                        Programmable(),
                        m_psIngress,
                        0,
                        failedLinks);
    // The pool header counts a node's contributors in 5 bits (fanInDegree0 at a switch,
    // fanInDegree1 at the PS): plan within that, or the trees could not be laid.
    problem.SetMaxFanIn(PoolHeader::MAX_FAN_IN);
    // The data plane sends the results where this counts them: PinRoutes pins the PS's results
    // to each switch along its aggregate path reversed, and the switch's multicast tree is the
    // fabric's (CreateMulticastGroup, the fabric's ECMP seed).
    problem.SetCountResults(m_resultRows, ctx.fabric->GetEcmpSeed());
    return problem;
}

std::vector<GridProblem::ProgrammableSwitch>
GridProtocol::Programmable() const
{
    const JobContext& ctx = GetContext();
    std::vector<GridProblem::ProgrammableSwitch> programmable =
        GridJobSwitches::Of(ctx, m_switchCapacity, m_programmable);
    if (programmable.empty() && NeedsProgrammableSwitches())
    {
        std::string asked;
        for (const std::string& s : ctx.inaTiers)
        {
            asked += (asked.empty() ? "" : ", ") + s;
        }
        Fail("no switch of the topology is in switch.ina_tiers [" + asked +
             "]; GRID needs at least one programmable switch");
    }
    return programmable;
}

GridPlanner::Options
GridProtocol::PlannerOptions() const
{
    GridPlanner::Options options;
    options.trials = m_trials;
    options.seed = m_seed;
    options.linkRows = m_linkRows;
    return options;
}

void
GridProtocol::BuildTrees()
{
    // Outside the try: a fabric without programmable switches fails with its own message.
    Programmable();
    try
    {
        m_plan = PlanJob(BuildProblem({}), PlannerOptions());
    }
    catch (const std::exception& e)
    {
        Fail("the " + GetProtocolLabel() + " planner failed: " + e.what());
    }
    const std::string why = CheckTrees(m_plan);
    if (!why.empty())
    {
        Fail(why);
    }
    LayTrees();
}

std::string
GridProtocol::CheckTrees(const GridPlan& plan) const
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
    uint32_t switches = 0;
    for (const GridPlan::SwitchRoute& s : plan.switches)
    {
        if (s.fanIn > PoolHeader::MAX_FAN_IN)
        {
            return "the plan gives switch " + topo.GetNode(s.node).name + " " +
                   std::to_string(s.fanIn) + " workers; the 5-bit fan-in and bitmap allow " +
                   std::to_string(PoolHeader::MAX_FAN_IN);
        }
        switches += s.fanIn > 0 ? 1 : 0;
    }
    // The direct workers MAX_FAN_IN to a group, as LayTrees groups them.
    const uint32_t groups =
        GridProblem::PsGroups(plan.directWorkers, switches, PoolHeader::MAX_FAN_IN);
    if (groups > PoolHeader::MAX_FAN_IN)
    {
        return "the plan has " + std::to_string(groups) + " groups at the PS (" +
               std::to_string(switches) + " aggregating switches, " +
               std::to_string(plan.directWorkers) + " direct workers " +
               std::to_string(PoolHeader::MAX_FAN_IN) +
               " to a group); the 5-bit fanInDegree1 and bitmap allow " +
               std::to_string(PoolHeader::MAX_FAN_IN) + ": use fewer workers (jobs.N.workers)";
    }
    return "";
}

void
GridProtocol::LayTrees()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const uint32_t n = ctx.workerHosts.size();
    const uint32_t ps = ctx.psHosts[0];

    // A re-assignment keeps the tree's server and result group (CreateServers made them).
    Tree t = m_trees.empty() ? Tree{} : m_trees[0];
    t.psIndex = 0;
    t.psHost = ps;
    t.psRack = topo.RackOf(ps);
    t.level2 = false;
    t.groups.clear();
    m_groupSwitch.clear();
    m_aggNode.assign(n, ps);
    for (uint32_t j = 0; j < m_plan.switches.size(); ++j)
    {
        const GridPlan::SwitchRoute& s = m_plan.switches[j];
        if (s.fanIn == 0)
        {
            continue;
        }
        t.groups.push_back(Group{s.node, true, 0, s.workers});
        m_groupSwitch.push_back(static_cast<int32_t>(j));
        for (uint32_t r : s.workers)
        {
            m_aggNode.at(r) = s.node;
        }
    }
    // The direct workers, MAX_FAN_IN to a group (AddDirectWorker), so the PS tells more than 31
    // of them apart (Geryon's every worker, a fabric with few programmable switches).
    for (uint32_t r = 0; r < n; ++r)
    {
        if (m_plan.workers.at(r).node != ps)
        {
            continue;
        }
        if (AddDirectWorker(t.groups, topo.RackOf(ctx.workerHosts[r]), r))
        {
            m_groupSwitch.push_back(-1);
        }
    }
    uint32_t first = 0;
    for (Group& g : t.groups)
    {
        g.firstWorker = first;
        first += g.ranks.size();
    }
    if (first != n)
    {
        Fail("the plan assigns " + std::to_string(first) + " of the " + std::to_string(n) +
             " workers");
    }
    m_routes.assign(1, std::vector<WorkerRoute>(n));
    for (uint32_t g = 0; g < t.groups.size(); ++g)
    {
        const Group& grp = t.groups[g];
        for (uint32_t i = 0; i < grp.ranks.size(); ++i)
        {
            WorkerRoute& w = m_routes[0][grp.ranks[i]];
            // GRID's workers address their aggregation node (spec B.5), not the PS.
            w.ps = grp.aggregates ? grp.rack : ps;
            w.bitmap0 = 1u << i;
            w.bitmap1 = 1u << g;
            w.fanIn0 = static_cast<uint8_t>(grp.ranks.size());
            w.fanIn1 = static_cast<uint8_t>(t.groups.size());
            // A direct worker's packet is not an aggregate: the PS reads its bit in bitmap0. No
            // switch takes it (each GRID program aggregates only what is addressed to it).
            w.edge = false;
            w.flowId = GetWorkerFlowId(grp.ranks[i]);
            w.epoch = m_epoch;
        }
    }
    m_trees.assign(1, t);
}

void
GridProtocol::ConfigureGrid()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const Tree& t = m_trees.at(0);
    std::vector<InaAddress> targets;
    std::vector<uint32_t> targetFlows;
    m_resultGroups.assign(m_plan.switches.size(), INA_NO_ADDRESS);
    for (uint32_t g = 0; g < t.groups.size(); ++g)
    {
        const Group& grp = t.groups[g];
        if (!grp.aggregates)
        {
            // Each direct worker's result goes back the way its gradients came (Geryon's detour
            // too).
            for (uint32_t r : grp.ranks)
            {
                targets.push_back(ctx.workerHosts[r]);
                targetFlows.push_back(GetResultFlowId(r));
            }
            continue;
        }
        const uint32_t j = static_cast<uint32_t>(m_groupSwitch.at(g));
        const GridPlan::SwitchRoute& s = m_plan.switches.at(j);
        targets.push_back(s.node);
        // With ResultRows the planner counted the PS's results to the switch on its aggregate
        // path reversed: pinned there (PinRoutes); else they take the fabric's routes.
        targetFlows.push_back(m_resultRows ? GetSwitchResultFlowId(j) : 0);
        Ptr<GridProgram> program;
        for (const SwitchEntry& e : GetSwitches())
        {
            if (e.node == s.node)
            {
                program = DynamicCast<GridProgram>(e.program);
            }
        }
        if (!program)
        {
            Fail("switch " + topo.GetNode(s.node).name + " runs no GRID program");
        }
        GridProgram::GridJob job;
        job.jobId = ctx.jobId;
        job.self = s.node;
        job.ps = t.psHost;
        job.resultGroup = ctx.fabric->CreateMulticastGroup(s.node, Members(j));
        job.aggregateFlowId = GetAggregateFlowId(j);
        job.noticeFlowId = GetNoticeFlowId();
        job.epoch = m_epoch;
        m_resultGroups[j] = job.resultGroup;
        try
        {
            program->SetGridJob(job);
        }
        catch (const std::runtime_error& e)
        {
            Fail("switch " + topo.GetNode(s.node).name + ": " + e.what());
        }
    }
    PinRoutes();
    PaceWorkers();
    Ptr<GridParameterServer> server = DynamicCast<GridParameterServer>(t.server);
    if (!server)
    {
        Fail("the parameter server is not GRID's");
    }
    server->SetResultTargets(targets, targetFlows);
    NS_LOG_INFO("job " << ctx.name << ": " << t.groups.size() << " aggregation nodes for "
                       << ctx.workerHosts.size() << " workers");
}

std::vector<uint32_t>
GridProtocol::Members(uint32_t j) const
{
    std::vector<uint32_t> members;
    for (uint32_t r : m_plan.switches.at(j).workers)
    {
        members.push_back(GetContext().workerHosts[r]);
    }
    return members;
}

void
GridProtocol::PinRoutes()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    auto pin = [&](const std::vector<uint32_t>& path, uint32_t flow, bool reverse) {
        // Every switch of the path (hosts have a single uplink) sends the flow to the next node.
        for (std::size_t i = 1; i + 1 < path.size(); ++i)
        {
            const uint32_t next = reverse ? path[i - 1] : path[i + 1];
            ctx.fabric->GetSwitch(path[i])->SetFlowRoute(flow, topo.PortTo(path[i], next));
        }
    };
    for (uint32_t r = 0; r < ctx.workerHosts.size(); ++r)
    {
        // Each worker's planned path to its aggregation node, on the worker's own flow: two
        // workers crossing one switch toward one node may take different hops.
        const std::vector<uint32_t>& path = m_plan.workers.at(r).path;
        pin(path, GetWorkerFlowId(r), false);
        if (m_aggNode.at(r) == ctx.psHosts[0])
        {
            // A direct worker's results come back along its path reversed: the reverse
            // direction of every link of the path carries as many streams.
            pin(path, GetResultFlowId(r), true);
        }
    }
    for (uint32_t j = 0; j < m_plan.switches.size(); ++j)
    {
        // The aggregate's planned path to the PS, on a flow of its own; the path starts at the
        // switch itself.
        const std::vector<uint32_t>& path = m_plan.switches[j].pathToPs;
        for (std::size_t i = 0; i + 1 < path.size(); ++i)
        {
            ctx.fabric->GetSwitch(path[i])->SetFlowRoute(GetAggregateFlowId(j),
                                                         topo.PortTo(path[i], path[i + 1]));
        }
        if (m_resultRows)
        {
            // The PS's results to the switch come back the same way, as a direct worker's do,
            // where the planner counted them.
            pin(path, GetSwitchResultFlowId(j), true);
        }
    }
}

void
GridProtocol::PaceWorkers()
{
    if (!m_pace)
    {
        return;
    }
    std::vector<double> rates;
    for (const GridPlan::WorkerRoute& w : m_plan.workers)
    {
        rates.push_back(w.rateBps);
    }
    const int64_t r = GridWorkerPacing::Cap(GetContext(), rates);
    if (r >= 0)
    {
        Fail("Pace: worker " + std::to_string(r) +
             "'s host has no NIC that can pace (the p2p link model); set the job's Pace to false");
    }
}

void
GridProtocol::SetPlanRate(double rateBps)
{
    m_plan.achievedBps = rateBps;
    for (GridPlan::WorkerRoute& w : m_plan.workers)
    {
        w.rateBps = rateBps;
    }
    for (GridPlan::SwitchRoute& sw : m_plan.switches)
    {
        sw.rateBps = rateBps;
    }
}

void
GridProtocol::ApplyReplan(const GridPlan& plan, double rateBps)
{
    if (plan.Assignment() != m_plan.Assignment() || !(rateBps > 0))
    {
        throw std::logic_error("GridProtocol::ApplyReplan: a re-plan keeps the job's aggregation "
                               "nodes and gives it a rate > 0");
    }
    m_plan.workers = plan.workers;
    m_plan.switches = plan.switches;
    m_plan.bottleneck = plan.bottleneck;
    SetPlanRate(rateBps);
    PinRoutes();
    const JobContext& ctx = GetContext();
    for (uint32_t j = 0; j < m_plan.switches.size(); ++j)
    {
        ctx.fabric->RelayMulticastGroup(m_resultGroups.at(j), m_plan.switches[j].node, Members(j));
    }
    PaceWorkers();
}

bool
GridProtocol::PlanAgain(const std::vector<bool>& failedLinks,
                        GridPlan& plan,
                        std::string& why) const
{
    // The epoch rides in 8 bits (PoolHeader::reserved, the one spare field of ATP's header): a
    // 256th tree would take epoch 0 again, and a gradient of the first tree still queued
    // somewhere would be summed in the new tree's numbering. The job ends instead.
    if (m_epoch == MAX_EPOCH)
    {
        why = "the job has been moved to a new tree " + std::to_string(MAX_EPOCH) +
              " times; its plan epoch (8 bits in every gradient) would wrap to an earlier tree's";
        return false;
    }
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const GridProblem problem = BuildProblem(failedLinks);
    for (uint32_t i = 0; i < problem.GetNWorkers(); ++i)
    {
        bool reaches = problem.Reaches(i, problem.GetPsTarget());
        for (uint32_t j = 0; j < problem.GetNSwitches() && !reaches; ++j)
        {
            reaches = problem.Reaches(i, j) && problem.SwitchReachesPs(j);
        }
        if (!reaches)
        {
            why = "worker " + std::to_string(i) + " (" + topo.GetNode(problem.GetWorker(i)).name +
                  ") reaches neither the PS nor a programmable switch that reaches it";
            return false;
        }
    }
    try
    {
        plan = PlanJob(problem, PlannerOptions());
    }
    catch (const std::exception& e)
    {
        why = "the " + GetProtocolLabel() + " planner failed: " + e.what();
        return false;
    }
    if (!(plan.achievedBps > 0))
    {
        why = "the new plan moves nothing (" + plan.bottleneck + ")";
        return false;
    }
    why = CheckTrees(plan);
    return why.empty();
}

void
GridProtocol::Reassign(const GridPlan& plan, double rateBps)
{
    if (!CheckTrees(plan).empty() || !(rateBps > 0) || m_epoch == MAX_EPOCH)
    {
        throw std::logic_error(
            "GridProtocol::Reassign: a plan the data plane can run (CheckTrees), "
            "a rate > 0 and an epoch left (PlanAgain)");
    }
    const JobContext& ctx = GetContext();
    // The new tree's epoch: what was sent to the old one is told apart and dropped.
    ++m_epoch;
    for (const SwitchEntry& e : GetSwitches())
    {
        Ptr<GridProgram> program = DynamicCast<GridProgram>(e.program);
        if (program)
        {
            program->RemoveGridJob(ctx.jobId);
        }
    }
    m_plan = plan;
    SetPlanRate(rateBps);
    LayTrees();
    InstallPrograms();
    ConfigureGrid();
    const Tree& t = m_trees.at(0);
    std::vector<PoolParameterServer::Group> groups;
    std::vector<uint32_t> ranks;
    for (const Group& g : t.groups)
    {
        groups.push_back(
            PoolParameterServer::Group{g.firstWorker, static_cast<uint32_t>(g.ranks.size())});
        ranks.insert(ranks.end(), g.ranks.begin(), g.ranks.end());
    }
    Ptr<GridParameterServer> server = DynamicCast<GridParameterServer>(t.server);
    server->Regroup(groups, ranks);
    server->SetEpoch(m_epoch);
    for (const Ptr<PoolAgent>& agent : GetPoolAgents())
    {
        if (agent)
        {
            agent->Reroute();
        }
    }
    ++m_reassignments;
}

void
GridProtocol::Abandon(const std::string& why)
{
    AbandonAgents(why);
}

uint8_t
GridProtocol::GetEpoch() const
{
    return m_epoch;
}

const JobContext&
GridProtocol::GetControlledContext() const
{
    return GetContext();
}

bool
GridProtocol::PrepareAssignment(const std::vector<bool>& failedLinks,
                                const std::vector<uint32_t>& assignment,
                                Load& load,
                                std::string& why)
{
    const GridProblem problem = BuildProblem(failedLinks);
    const GridPlanner::Evaluation ev = GridPlanner::Evaluate(problem, assignment, m_plan.linkRows);
    if (!(ev.lambdaBps > 0))
    {
        why = ev.bottleneck;
        return false;
    }
    m_prepared = GridPlanner::MakePlan(problem, assignment, m_plan.linkRows);
    load.aloneBps = m_prepared.achievedBps;
    load.ceilingBps =
        std::min(problem.GetMinWorkerRateBps(), problem.GetPsIngressBps() / ev.psStreams);
    load.edgeCapacityBps.clear();
    load.edges.clear();
    for (uint32_t edge = 0; edge < problem.GetNEdges(); ++edge)
    {
        load.edgeCapacityBps.push_back(problem.GetEdgeCapacityBps(edge));
    }
    // Without LinkRows the evaluation counts no streams (ev.streams empty): no link is shared.
    for (uint32_t edge = 0; edge < ev.streams.size(); ++edge)
    {
        if (ev.streams[edge] > 0)
        {
            load.edges.emplace_back(edge, ev.streams[edge]);
        }
    }
    load.switches.clear();
    for (uint32_t j = 0; j < problem.GetNSwitches(); ++j)
    {
        if (ev.fanIn[j] > 0)
        {
            load.switches.push_back(
                {problem.GetSwitchNode(j), problem.GetSwitchCapacityBps(j), 1.0 * ev.fanIn[j]});
        }
    }
    return true;
}

bool
GridProtocol::Prepare(const std::vector<bool>& failedLinks, Load& load, std::string& why)
{
    m_preparedNew = false;
    return PrepareAssignment(failedLinks, m_plan.Assignment(), load, why);
}

bool
GridProtocol::PrepareNew(const std::vector<bool>& failedLinks,
                         Load& load,
                         std::string& what,
                         std::string& whyNot)
{
    GridPlan fresh;
    if (!PlanAgain(failedLinks, fresh, whyNot) ||
        !PrepareAssignment(failedLinks, fresh.Assignment(), load, whyNot))
    {
        return false;
    }
    m_prepared = fresh;
    m_preparedNew = true;
    what = DescribeAssignment(fresh);
    return true;
}

void
GridProtocol::Apply(double rateBps)
{
    if (m_preparedNew)
    {
        Reassign(m_prepared, rateBps);
    }
    else
    {
        ApplyReplan(m_prepared, rateBps);
    }
}

std::string
GridProtocol::DescribeAssignment(const GridPlan& plan) const
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
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

void
GridProtocol::NotifyJobEnded()
{
    m_control.JobEnded();
}

const GridPlan&
GridProtocol::GetPlan() const
{
    return m_plan;
}

uint32_t
GridProtocol::GetAggregationNode(uint32_t rank) const
{
    return m_aggNode.at(rank);
}

uint32_t
GridProtocol::GetAggregateFlowId(uint32_t j) const
{
    const JobContext& ctx = GetContext();
    return ctx.flowIdBase + ctx.workerHosts.size() + AGGREGATE_FLOW_OFFSET + j;
}

uint32_t
GridProtocol::GetWorkerFlowId(uint32_t rank) const
{
    return GetContext().flowIdBase + WORKER_FLOW_OFFSET + rank;
}

uint32_t
GridProtocol::GetSwitchResultFlowId(uint32_t j) const
{
    return GetContext().flowIdBase + SWITCH_RESULT_FLOW_OFFSET + j;
}

uint32_t
GridProtocol::GetResultFlowId(uint32_t rank) const
{
    return GetContext().flowIdBase + RESULT_FLOW_OFFSET + rank;
}

uint32_t
GridProtocol::GetNoticeFlowId() const
{
    const JobContext& ctx = GetContext();
    return ctx.flowIdBase + ctx.workerHosts.size() + NOTICE_FLOW_OFFSET;
}

bool
GridProtocol::GetHashFragments() const
{
    return m_hashFragments;
}

std::map<std::string, double>
GridProtocol::GetCounters() const
{
    std::map<std::string, double> c = PoolProtocol::GetCounters();
    GridAgent::GridCounters a;
    for (const Ptr<GridAgent>& agent : m_gridAgents)
    {
        const GridAgent::GridCounters& g = agent->GetGridCounters();
        a.notices += g.notices;
        a.noticeResends += g.noticeResends;
        a.staleNotices += g.staleNotices;
    }
    c["collision_notices"] = a.notices;
    c["notice_resends"] = a.noticeResends;
    c["stale_notices"] = a.staleNotices;
    c["plan_rate_bps"] = m_plan.achievedBps;
    c["plan_lp_bound_bps"] = m_plan.lpBoundBps;
    c["plan_direct_workers"] = m_plan.directWorkers;
    c["plan_ps_fan_in"] = m_plan.psFanIn;
    c["reassignments"] = m_reassignments;
    Ptr<GridParameterServer> server =
        m_trees.empty() ? nullptr : DynamicCast<GridParameterServer>(m_trees[0].server);
    c["stale_epoch_ps"] = server ? static_cast<double>(server->GetStaleEpochDrops()) : 0.0;
    return c;
}

} // namespace ns3
