/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-ml-protocol.h"

#include "switch-ml-agent.h"
#include "switch-ml-quantizer.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/boolean.h"
#include "ns3/counter-sum.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pipeline.h"
#include "ns3/tree-link-load.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMlProtocol");
NS_OBJECT_ENSURE_REGISTERED(SwitchMlProtocol);

static AggregationProtocolRegistry::Registrar g_switchml(
    "switchml",
    "ns3::SwitchMlProtocol",
    "SwitchML in-network aggregation (Sapio et al. 2019): int32 slots in the switch pipeline, "
    "self-clocked slot window, shadow-copy loss recovery; 64 elements and block exponents of "
    "NSDI'21 as Attributes");

// Longer than 80 lines on purpose: one Attribute per parameter of SwitchML's packet format, pool,
// quantizer and timers, each with its help and default.
TypeId
SwitchMlProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SwitchMlProtocol")
            .SetParent<AggregationProtocol>()
            .SetGroupName("InaAggregation")
            .AddConstructor<SwitchMlProtocol>()
            .AddAttribute("ElementsPerPacket",
                          "int32 elements per packet: 32 (2019 paper, 180-B frames) or 64 "
                          "(NSDI'21, 308-B frames, one recirculation per result).",
                          UintegerValue(32),
                          MakeUintegerAccessor(&SwitchMlProtocol::m_elements),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Quantizer",
                          "Float to int32 conversion: global (one scaling factor, 2019 paper) "
                          "or block-exponent (a per-packet exponent agreed one phase ahead, "
                          "NSDI'21).",
                          EnumValue(SwitchMlProtocol::GLOBAL),
                          MakeEnumAccessor(&SwitchMlProtocol::m_quantizer),
                          MakeEnumChecker(SwitchMlProtocol::GLOBAL,
                                          "global",
                                          SwitchMlProtocol::BLOCK_EXPONENT,
                                          "block-exponent"))
            .AddAttribute("WireFormat",
                          "Elements on the wire: int32 (4 B, converted on the workers) or "
                          "float16 (2 B: workers send half floats, the switch converts them to "
                          "int32 with the global factor by lookup tables and the aggregate back; "
                          "paper, Section 3.7, its \"SwitchML (16)\"). float16 needs the global "
                          "quantizer.",
                          EnumValue(SwitchMlProtocol::INT32),
                          MakeEnumAccessor(&SwitchMlProtocol::m_wireFormat),
                          MakeEnumChecker(SwitchMlProtocol::INT32,
                                          "int32",
                                          SwitchMlProtocol::FLOAT16,
                                          "float16"))
            .AddAttribute("ScalingFactor",
                          "Global quantizer: the factor f. 0 picks the largest f that cannot "
                          "overflow, (2^31 - 1 - n) / (n MaxAbsGradient) (paper, Theorem 2).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&SwitchMlProtocol::m_scalingFactor),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("MaxAbsGradient",
                          "Global quantizer: the bound B on |gradient| that the automatic "
                          "factor assumes (check_values draws gradients in [-1, 1]).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&SwitchMlProtocol::m_maxAbsGradient),
                          MakeDoubleChecker<double>())
            .AddAttribute("PoolSize",
                          "Slots this job asks for at every aggregating switch, which is also "
                          "each worker's window. 0: automatic, the next power of two of the "
                          "bandwidth-delay product over the packet size (paper, Section 3.6), "
                          "capped at an equal share of what explicit requests leave.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SwitchMlProtocol::m_poolSize),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("SwitchPoolSize",
                          "The pool of a SwitchML program this job installs at a switch (jobs "
                          "that join it later must agree). 0: ns3::SwitchMlProgram::PoolSize.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SwitchMlProtocol::m_switchPoolSize),
                          MakeUintegerChecker<uint32_t>(0, SwitchMlProgram::MAX_POOL))
            .AddAttribute("SwitchMemory",
                          "Bytes of slot values the switch reserves for in-network aggregation "
                          "(the ESA paper's simulation: 5 MB); with SwitchPoolSize 0 the pool "
                          "this job installs holds as many slots of two versions of "
                          "ElementsPerPacket int32 as fit (5 MB of 32-element slots: 19,531), "
                          "which the jobs at the switch split equally (the ESA paper, Section "
                          "7.2.1: \"for SwitchML, each job shares the memory equally\"). 0: "
                          "SwitchPoolSize decides. Scenario key switch.ina_memory.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SwitchMlProtocol::m_switchMemory),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Rto",
                          "Retransmission timeout per slot, from its last send; no backoff "
                          "(paper, Section 5.5: 1 ms).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&SwitchMlProtocol::m_rto),
                          MakeTimeChecker());
    return tid;
}

SwitchMlProtocol::SwitchMlProtocol() = default;
SwitchMlProtocol::~SwitchMlProtocol() = default;

void
SwitchMlProtocol::DoDispose()
{
    m_tree.clear();
    m_agents.clear();
    AggregationProtocol::DoDispose();
}

void
SwitchMlProtocol::Fail(const std::string& what) const
{
    throw std::runtime_error("job " + GetContext().name + " (switchml): " + what);
}

void
SwitchMlProtocol::DoInstall()
{
    const JobContext& ctx = GetContext();
    const uint32_t n = ctx.workerHosts.size();
    if (n == 0)
    {
        Fail("the job has no workers");
    }
    if (ctx.jobId == 0 || ctx.jobId > SWITCHML_ENDPOINT_LAST - SWITCHML_ENDPOINT_BASE)
    {
        Fail("job id " + std::to_string(ctx.jobId) + " is outside 1.." +
             std::to_string(SWITCHML_ENDPOINT_LAST - SWITCHML_ENDPOINT_BASE) +
             " (SwitchML's host endpoint is " + std::to_string(SWITCHML_ENDPOINT_BASE) +
             " + job id)");
    }
    CheckAttributes(n);
    CheckWorkerHosts();
    m_endpoint = static_cast<uint16_t>(SWITCHML_ENDPOINT_BASE + ctx.jobId);
    BuildTree();
    ComputeAutoPoolSize();
    InstallPrograms();
}

void
SwitchMlProtocol::CheckAttributes(uint32_t workers)
{
    if (m_elements != 32 && m_elements != 64)
    {
        Fail("attribute ElementsPerPacket is " + std::to_string(m_elements) +
             "; expected 32 (2019 paper) or 64 (NSDI'21)");
    }
    if (m_switchMemory != 0 && m_switchPoolSize == 0)
    {
        // Two versions (the shadow copy) of ElementsPerPacket int32 per slot.
        const uint64_t slotBytes = 2ULL * m_elements * 4;
        if (m_switchMemory < slotBytes)
        {
            Fail("attribute SwitchMemory is " + std::to_string(m_switchMemory) +
                 " B, less than one slot (" + std::to_string(slotBytes) + " B)");
        }
        m_switchPoolSize = static_cast<uint32_t>(
            std::min<uint64_t>(m_switchMemory / slotBytes, SwitchMlProgram::MAX_POOL));
    }
    if (m_wireFormat == FLOAT16 && m_quantizer != GLOBAL)
    {
        Fail("attribute WireFormat float16 needs Quantizer global: the switch converts half "
             "floats with the model's one scaling factor (paper, Section 3.7)");
    }
    if (!m_rto.IsStrictlyPositive())
    {
        Fail("attribute Rto is " + std::to_string(m_rto.GetSeconds()) +
             " s; expected a positive time such as 1ms");
    }
    if (!std::isfinite(m_scalingFactor))
    {
        Fail("attribute ScalingFactor is not a finite number");
    }
    if (m_quantizer == GLOBAL)
    {
        try
        {
            m_factor = m_scalingFactor > 0
                           ? m_scalingFactor
                           : SwitchMlQuantizer::GlobalFactor(workers, m_maxAbsGradient);
        }
        catch (const std::invalid_argument& e)
        {
            Fail(e.what());
        }
    }
}

void
SwitchMlProtocol::CheckWorkerHosts() const
{
    const JobContext& ctx = GetContext();
    const uint32_t hosts = ctx.fabric->GetNHosts();
    std::vector<std::pair<uint32_t, uint32_t>> byHost;
    for (uint32_t r = 0; r < ctx.workerHosts.size(); ++r)
    {
        if (ctx.workerHosts[r] >= hosts)
        {
            Fail("worker " + std::to_string(r) + " is on host " +
                 std::to_string(ctx.workerHosts[r]) + " but the topology has " +
                 std::to_string(hosts) + " hosts");
        }
        byHost.emplace_back(ctx.workerHosts[r], r);
    }
    std::sort(byHost.begin(), byHost.end());
    for (size_t i = 1; i < byHost.size(); ++i)
    {
        if (byHost[i].first == byHost[i - 1].first)
        {
            Fail("workers " + std::to_string(byHost[i - 1].second) + " and " +
                 std::to_string(byHost[i].second) + " are both on host " +
                 std::to_string(byHost[i].first) +
                 "; SwitchML needs one worker per host (one endpoint per job)");
        }
    }
}

void
SwitchMlProtocol::BuildTree()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const uint32_t n = ctx.workerHosts.size();
    if (ctx.inaTiers.empty())
    {
        Fail("switch.ina_tiers is empty, but SwitchML aggregates in switches; allow at least "
             "the workers' rack tier (this topology's switch tiers: " +
             SwitchTierNames() + ")");
    }

    std::vector<uint32_t> rackOf(n);
    std::set<uint32_t> racks;
    uint32_t rackLevel = 0;
    for (uint32_t r = 0; r < n; ++r)
    {
        rackOf[r] = topo.RackOf(ctx.workerHosts[r]);
        racks.insert(rackOf[r]);
        rackLevel = std::max(rackLevel, topo.GetLevel(rackOf[r]));
    }
    m_tree.clear();
    m_routes.assign(n, WorkerRoute{});

    const uint32_t firstRack = *racks.begin();
    TreeSwitch root;
    root.isRoot = true;
    root.node = racks.size() == 1 && IsAggregationTier(firstRack) ? firstRack
                                                                  : ChooseRoot(racks, rackLevel);
    m_tree.push_back(root);

    // Bottom-up (the paper's Section 6, "Scaling beyond a rack"): the racks that may aggregate
    // take their workers, then every allowed tier between the racks and the root groups what
    // still goes up, and the root takes the rest.
    std::vector<Contributor> up;
    for (uint32_t r = 0; r < n; ++r)
    {
        up.push_back({ctx.workerHosts[r], false, r});
    }
    if (root.node != firstRack)
    {
        up = AggregateRacks(up, rackOf, racks);
        const uint32_t rootLevel = topo.GetLevel(root.node);
        for (uint32_t level = rackLevel + 1; level < rootLevel; ++level)
        {
            const std::string& tier = topo.GetTiers()[level];
            if (ctx.AllowsTier(tier))
            {
                up = AggregateAt(tier, up);
            }
        }
    }
    Attach(0, up);
    for (size_t i = 1; i < m_tree.size(); ++i)
    {
        m_tree[i].upFlowId = ctx.flowIdBase + n + i - 1;
    }
    m_levels = 0;
    for (const WorkerRoute& route : m_routes)
    {
        m_levels = std::max<uint32_t>(m_levels, PathToRoot(route.aggregator).size());
    }
}

std::string
SwitchMlProtocol::SwitchTierNames() const
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
    std::string tiers;
    for (size_t i = 1; i < topo.GetTiers().size(); ++i)
    {
        tiers += (tiers.empty() ? "" : ", ") + topo.GetTiers()[i];
    }
    return tiers;
}

bool
SwitchMlProtocol::IsAggregationTier(uint32_t node) const
{
    const JobContext& ctx = GetContext();
    return ctx.AllowsTier(ctx.fabric->GetTopology().GetTier(node));
}

bool
SwitchMlProtocol::IsUpwardPath(uint32_t from, uint32_t to) const
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
    const uint32_t a = topo.GetLevel(from);
    const uint32_t b = topo.GetLevel(to);
    return b > a && GetContext().fabric->GetRoutes().Distance(from, to) == b - a;
}

uint32_t
SwitchMlProtocol::ChooseRoot(const std::set<uint32_t>& racks, uint32_t rackLevel) const
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    // The lowest allowed tier above the racks with a switch every rack reaches going up only.
    std::vector<uint32_t> candidates;
    for (const std::string& tier : topo.GetTiers())
    {
        if (tier == "host" || !ctx.AllowsTier(tier))
        {
            continue;
        }
        for (uint32_t c : topo.NodesInTier(tier))
        {
            if (topo.GetLevel(c) > rackLevel &&
                std::all_of(racks.begin(), racks.end(), [&](uint32_t rack) {
                    return IsUpwardPath(rack, c);
                }))
            {
                candidates.push_back(c);
            }
        }
        if (!candidates.empty())
        {
            break;
        }
    }
    if (candidates.empty())
    {
        std::string rackNames;
        for (uint32_t rack : racks)
        {
            rackNames += (rackNames.empty() ? "" : ", ") + topo.GetNode(rack).name;
        }
        std::string asked;
        for (const std::string& t : ctx.inaTiers)
        {
            asked += (asked.empty() ? "" : ", ") + t;
        }
        Fail("its workers are under " + rackNames +
             " and no switch of the tiers allowed to "
             "aggregate (ina_tiers: " +
             asked +
             ") above them is a common ancestor reached by an "
             "upward path; allow a higher tier (this topology's switch tiers: " +
             SwitchTierNames() + ") or place the job's workers in one rack");
    }
    return candidates[ctx.jobId % candidates.size()];
}

std::vector<SwitchMlProtocol::Contributor>
SwitchMlProtocol::AggregateRacks(const std::vector<Contributor>& workers,
                                 const std::vector<uint32_t>& rackOf,
                                 const std::set<uint32_t>& racks)
{
    std::vector<Contributor> up;
    for (uint32_t rack : racks)
    {
        if (!IsAggregationTier(rack))
        {
            continue;
        }
        std::vector<Contributor> mine;
        for (const Contributor& w : workers)
        {
            if (rackOf[w.index] == rack)
            {
                mine.push_back(w);
            }
        }
        TreeSwitch ts;
        ts.node = rack;
        m_tree.push_back(ts);
        Attach(m_tree.size() - 1, mine);
        up.push_back({rack, true, static_cast<uint32_t>(m_tree.size() - 1)});
    }
    for (const Contributor& w : workers)
    {
        if (!IsAggregationTier(rackOf[w.index]))
        {
            up.push_back(w);
        }
    }
    return up;
}

std::vector<SwitchMlProtocol::Contributor>
SwitchMlProtocol::AggregateAt(const std::string& tier, const std::vector<Contributor>& up)
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const uint32_t root = m_tree.front().node;
    // Who each switch of the tier could aggregate: the contributors below it on an upward path,
    // if it is itself below the root on one (so partials climb, never turn).
    std::vector<std::pair<uint32_t, std::vector<size_t>>> reach;
    for (uint32_t c : topo.NodesInTier(tier))
    {
        if (!IsUpwardPath(c, root))
        {
            continue;
        }
        std::vector<size_t> below;
        for (size_t i = 0; i < up.size(); ++i)
        {
            if (IsUpwardPath(up[i].node, c))
            {
                below.push_back(i);
            }
        }
        reach.emplace_back(c, below);
    }
    // Greedily, the switch that gathers the most contributors still going up; switches that
    // would gather the same ones are spread over jobs by job id, as the root is. A switch with
    // one contributor would only copy its partial (and hold slots for it): it stays a forwarder.
    std::vector<bool> taken(up.size(), false);
    std::vector<Contributor> next;
    while (true)
    {
        auto open = [&](const std::vector<size_t>& below) {
            std::vector<size_t> o;
            std::copy_if(below.begin(), below.end(), std::back_inserter(o), [&](size_t i) {
                return !taken[i];
            });
            return o;
        };
        std::vector<size_t> group;
        for (const auto& [c, below] : reach)
        {
            std::vector<size_t> o = open(below);
            if (o.size() > group.size())
            {
                group = o;
            }
        }
        if (group.size() < 2)
        {
            break;
        }
        std::vector<uint32_t> same;
        for (const auto& [c, below] : reach)
        {
            if (open(below) == group)
            {
                same.push_back(c);
            }
        }
        TreeSwitch ts;
        ts.node = same[ctx.jobId % same.size()];
        m_tree.push_back(ts);
        std::vector<Contributor> members;
        for (size_t i : group)
        {
            members.push_back(up[i]);
            taken[i] = true;
        }
        Attach(m_tree.size() - 1, members);
        next.push_back({ts.node, true, static_cast<uint32_t>(m_tree.size() - 1)});
    }
    for (size_t i = 0; i < up.size(); ++i)
    {
        if (!taken[i])
        {
            next.push_back(up[i]);
        }
    }
    return next;
}

void
SwitchMlProtocol::Attach(size_t parent, std::vector<Contributor> children)
{
    // Child switches first (in the order they were made), then workers by rank: the ids a
    // two-level tree has always given.
    std::stable_sort(children.begin(),
                     children.end(),
                     [](const Contributor& a, const Contributor& b) {
                         return std::make_pair(!a.isSwitch, a.index) <
                                std::make_pair(!b.isSwitch, b.index);
                     });
    const uint32_t node = m_tree[parent].node;
    uint16_t id = 0;
    for (const Contributor& c : children)
    {
        if (c.isSwitch)
        {
            m_tree[c.index].parent = node;
            m_tree[c.index].childId = id++;
        }
        else
        {
            m_routes[c.index] = {node, id++};
        }
    }
    m_tree[parent].fanIn = id;
}

std::vector<size_t>
SwitchMlProtocol::PathToRoot(uint32_t first) const
{
    std::vector<size_t> path;
    uint32_t node = first;
    while (true)
    {
        const auto it = std::find_if(m_tree.begin(), m_tree.end(), [node](const TreeSwitch& ts) {
            return ts.node == node;
        });
        NS_ASSERT_MSG(it != m_tree.end() && path.size() < m_tree.size(), "not a tree");
        path.push_back(it - m_tree.begin());
        if (it->isRoot)
        {
            return path;
        }
        node = it->parent;
    }
}

namespace
{

/// One way along shortest paths from `from` to `to`, in ps: propagation, serialisation of one
/// packet of `bytes`, pipeline latency (an estimate, so in floating point).
double
OneWayPs(const InaFabric& fabric, uint32_t from, uint32_t to, uint32_t bytes)
{
    const InaTopology& topo = fabric.GetTopology();
    const InaRoutingTable& routes = fabric.GetRoutes();
    double ps = 0;
    for (uint32_t cur = from; cur != to;)
    {
        const uint16_t port = routes.NextHops(cur, to).front();
        const auto& [next, link] = topo.Neighbors(cur)[port];
        const InaTopology::Link& l = topo.GetLink(link);
        ps += l.delayPs + bytes * 8e12 / l.rateBps;
        if (!topo.IsHost(next))
        {
            ps += fabric.GetSwitch(next)->GetPipeline()->GetLatency().GetPicoSeconds();
        }
        cur = next;
    }
    return ps;
}

} // namespace

void
SwitchMlProtocol::ComputeAutoPoolSize()
{
    const JobContext& ctx = GetContext();
    const uint32_t bytes = GetWireBytes(true);
    auto oneWay = [&](uint32_t from, uint32_t to) {
        return OneWayPs(*ctx.fabric, from, to, bytes);
    };
    // A 64-element result takes one recirculation at every aggregating switch it leaves.
    auto harvestPs = [&](size_t treeIndex) {
        if (m_elements <= 32)
        {
            return 0.0;
        }
        const PipelineUsage u =
            ctx.fabric->GetSwitch(m_tree[treeIndex].node)->GetPipeline()->GetUsage();
        return u.recirculationLatencyPs +
               (u.recirculationRateBps > 0 ? bytes * 8e12 / u.recirculationRateBps : 0);
    };
    // Every stream of the tree advances one packet per slot phase, so the slots in flight are
    // bounded by the rate of the most shared link a worker's packets and the partials above it
    // cross: the window is that share's bandwidth-delay product (Section 3.6, whose "BDP of each
    // server" assumes, as Section 6's hierarchy does, that no upstream link carries more than a
    // worker's link; where partials converge on one link before their parent, they share it).
    const uint32_t n = ctx.workerHosts.size();
    TreeLinkLoad load(ctx.fabric);
    for (const TreeSwitch& ts : m_tree)
    {
        if (!ts.isRoot)
        {
            load.AddStream(ts.node, ts.parent, ts.upFlowId);
        }
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        load.AddStream(ctx.workerHosts[r], m_routes[r].aggregator, ctx.flowIdBase + r);
    }
    double window = 1;
    for (uint32_t r = 0; r < n; ++r)
    {
        const uint32_t host = ctx.workerHosts[r];
        const uint32_t first = m_routes[r].aggregator;
        double oneWayPs = oneWay(host, first);
        double harvest = 0;
        double share = load.ShareBps(host, first, ctx.flowIdBase + r);
        for (size_t i : PathToRoot(first))
        {
            const TreeSwitch& ts = m_tree[i];
            harvest += harvestPs(i);
            if (!ts.isRoot)
            {
                oneWayPs += oneWay(ts.node, ts.parent);
                share = std::min(share, load.ShareBps(ts.node, ts.parent, ts.upFlowId));
            }
        }
        const double rtt = 2 * oneWayPs + harvest;
        window = std::max(window, std::ceil(share * rtt / 8e12 / bytes));
    }
    m_maxStreams = load.GetMaxStreams();
    uint32_t pow2 = 1;
    while (pow2 < window && pow2 < 65536)
    {
        pow2 *= 2;
    }
    m_autoPool = pow2;
}

void
SwitchMlProtocol::InstallPrograms()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const uint32_t rootNode = m_tree.front().node;
    m_group = ctx.fabric->CreateMulticastGroup(rootNode, ctx.workerHosts);

    TypeId::AttributeInformation fanInInfo;
    SwitchMlProgram::GetTypeId().LookupAttributeByName("MaxFanIn", &fanInInfo);
    const auto defaultFanIn =
        static_cast<uint32_t>(DynamicCast<const UintegerValue>(fanInInfo.initialValue)->Get());

    for (TreeSwitch& ts : m_tree)
    {
        Ptr<SwitchMlProgram> program = ProgramAt(ts, defaultFanIn);
        SwitchMlProgram::JobConfig cfg;
        cfg.jobId = ctx.jobId;
        cfg.name = ctx.name;
        cfg.fanIn = ts.fanIn;
        cfg.requestedSlots = m_poolSize;
        cfg.autoCap = m_autoPool;
        cfg.isRoot = ts.isRoot;
        cfg.parent = ts.parent;
        cfg.childId = ts.childId;
        cfg.upFlowId = ts.upFlowId;
        cfg.resultGroup = m_group;
        cfg.endpoint = m_endpoint;
        try
        {
            program->AddJob(cfg);
        }
        catch (const std::runtime_error& e)
        {
            Fail("switch " + topo.GetNode(ts.node).name + ": " + e.what());
        }
        ts.program = program;
    }
}

Ptr<SwitchMlProgram>
SwitchMlProtocol::ProgramAt(const TreeSwitch& ts, uint32_t defaultFanIn)
{
    const JobContext& ctx = GetContext();
    const std::string where = "switch " + ctx.fabric->GetTopology().GetNode(ts.node).name;
    Ptr<Pipeline> pipeline = ctx.fabric->GetSwitch(ts.node)->GetPipeline();
    Ptr<SwitchProgram> existing = pipeline->GetProgram(SWITCHML_PROTOCOL);
    if (existing)
    {
        Ptr<SwitchMlProgram> program = DynamicCast<SwitchMlProgram>(existing);
        if (!program)
        {
            Fail(where + " already runs program \"" + existing->GetName() +
                 "\" for protocol number " + std::to_string(SWITCHML_PROTOCOL) +
                 ", which SwitchML needs");
        }
        CheckShared(program, where);
        return program;
    }
    ObjectFactory f("ns3::SwitchMlProgram");
    f.Set("ElementsPerPacket", UintegerValue(m_elements));
    f.Set("BlockExponent", BooleanValue(m_quantizer == BLOCK_EXPONENT));
    if (m_switchPoolSize != 0)
    {
        f.Set("PoolSize", UintegerValue(m_switchPoolSize));
    }
    // Room for this job's fan-in, in whole 32-bit bitmap words.
    const uint32_t fanIn = std::max(defaultFanIn, (ts.fanIn + 31) / 32 * 32);
    f.Set("MaxFanIn", UintegerValue(fanIn));
    Ptr<SwitchMlProgram> program = f.Create<SwitchMlProgram>();
    program->SetPipelineLimits(pipeline->GetLimits());
    try
    {
        pipeline->Install(program);
    }
    catch (const PipelineFitError& e)
    {
        Fail("cannot install SwitchML at " + where + ": " + e.what());
    }
    return program;
}

void
SwitchMlProtocol::CheckShared(Ptr<SwitchMlProgram> program, const std::string& where) const
{
    auto mismatch =
        [&](const std::string& what, const std::string& theirs, const std::string& ours) {
            Fail(where + " already runs SwitchML with " + what + " " + theirs +
                 " (installed by another job) but this job asks for " + ours +
                 "; SwitchML jobs that share a switch must agree on it");
        };
    if (program->GetElementsPerPacket() != m_elements)
    {
        mismatch("ElementsPerPacket",
                 std::to_string(program->GetElementsPerPacket()),
                 std::to_string(m_elements));
    }
    if (program->IsBlockExponent() != (m_quantizer == BLOCK_EXPONENT))
    {
        mismatch("Quantizer",
                 program->IsBlockExponent() ? "block-exponent" : "global",
                 m_quantizer == BLOCK_EXPONENT ? "block-exponent" : "global");
    }
    if (m_switchPoolSize != 0 && program->GetPoolSize() != m_switchPoolSize)
    {
        mismatch("SwitchPoolSize",
                 std::to_string(program->GetPoolSize()),
                 std::to_string(m_switchPoolSize));
    }
}

Ptr<AggregationAgent>
SwitchMlProtocol::DoCreateAgent(uint32_t rank)
{
    if (m_agentCreated.size() <= rank)
    {
        m_agentCreated.resize(GetContext().workerHosts.size(), false);
    }
    if (m_agentCreated[rank])
    {
        Fail("an agent for worker " + std::to_string(rank) +
             " exists already; every rank gets one agent (one endpoint on its host)");
    }
    m_agentCreated[rank] = true;
    Ptr<SwitchMlAgent> agent = CreateObject<SwitchMlAgent>();
    agent->SetProtocol(this);
    m_agents.push_back(agent);
    return agent;
}

double
SwitchMlProtocol::ValueTolerance(uint32_t contributions, double maxAbsValue) const
{
    const uint32_t n = std::max<uint32_t>(1, contributions);
    if (m_quantizer == BLOCK_EXPONENT)
    {
        return SwitchMlQuantizer::BlockTolerance(n, maxAbsValue);
    }
    const double f = m_factor > 0          ? m_factor
                     : m_scalingFactor > 0 ? m_scalingFactor
                                           : SwitchMlQuantizer::GlobalFactor(n, m_maxAbsGradient);
    const double halves =
        m_wireFormat == FLOAT16 ? SwitchMlQuantizer::HalfTolerance(n, maxAbsValue) : 0;
    return SwitchMlQuantizer::GlobalTolerance(n, f, maxAbsValue) + halves;
}

std::map<std::string, double>
SwitchMlProtocol::GetCounters() const
{
    std::map<std::string, double> c;
    c["window"] = m_window;
    c["aggregating_switches"] = m_tree.size();
    c["tree_levels"] = m_levels;
    using A = SwitchMlAgent::Counters;
    static const std::vector<CounterField<A>> AGENT = {
        {"timeouts", &A::timeouts},
        {"stale_results", &A::staleResults},
        {"quantization_overflows", &A::quantizationOverflows},
        {"exponent_phases", &A::exponentPhases},
    };
    SumCounters(c, AGENT, m_agents, [](const Ptr<SwitchMlAgent>& a) {
        return &a->GetCounters();
    });
    return c;
}

const std::vector<SwitchMlProtocol::TreeSwitch>&
SwitchMlProtocol::GetTree() const
{
    return m_tree;
}

uint32_t
SwitchMlProtocol::GetRootNode() const
{
    if (m_tree.empty())
    {
        throw std::logic_error("SwitchMlProtocol::GetRootNode before Install");
    }
    return m_tree.front().node;
}

const SwitchMlProtocol::WorkerRoute&
SwitchMlProtocol::GetWorkerRoute(uint32_t rank) const
{
    return m_routes.at(rank);
}

uint32_t
SwitchMlProtocol::FixWindow()
{
    if (m_window == 0)
    {
        if (m_tree.empty())
        {
            throw std::logic_error("SwitchMlProtocol::FixWindow before Install");
        }
        const uint32_t jobId = GetContext().jobId;
        uint32_t w = UINT32_MAX;
        for (const TreeSwitch& ts : m_tree)
        {
            w = std::min(w, ts.program->GetShare(jobId));
        }
        for (const TreeSwitch& ts : m_tree)
        {
            ts.program->FreezeJob(jobId);
        }
        m_window = w;
    }
    return m_window;
}

uint32_t
SwitchMlProtocol::GetWindow() const
{
    if (m_window == 0)
    {
        throw std::logic_error("SwitchMlProtocol::GetWindow before FixWindow (the first agent's "
                               "start)");
    }
    return m_window;
}

uint32_t
SwitchMlProtocol::GetAutoPoolSize() const
{
    return m_autoPool;
}

uint32_t
SwitchMlProtocol::GetMaxLinkStreams() const
{
    return m_maxStreams;
}

uint32_t
SwitchMlProtocol::GetElementsPerPacket() const
{
    return m_elements;
}

SwitchMlProtocol::Quantizer
SwitchMlProtocol::GetQuantizer() const
{
    return m_quantizer;
}

double
SwitchMlProtocol::GetScalingFactor() const
{
    return m_factor;
}

Time
SwitchMlProtocol::GetRto() const
{
    return m_rto;
}

uint16_t
SwitchMlProtocol::GetEndpoint() const
{
    return m_endpoint;
}

uint32_t
SwitchMlProtocol::GetWireBytes(bool hasData) const
{
    return SwitchMlHeader::WireBytes(m_elements,
                                     m_quantizer == BLOCK_EXPONENT,
                                     hasData,
                                     m_wireFormat == FLOAT16 ? 2 : 4);
}

SwitchMlProtocol::WireFormat
SwitchMlProtocol::GetWireFormat() const
{
    return m_wireFormat;
}

} // namespace ns3
