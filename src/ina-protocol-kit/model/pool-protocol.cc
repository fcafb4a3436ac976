/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pool-protocol.h"

#include "int32-quantizer.h"
#include "pool-agent.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/boolean.h"
#include "ns3/counter-sum.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/pipeline.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PoolProtocol");
NS_OBJECT_ENSURE_REGISTERED(PoolProtocol);

// Longer than 80 lines on purpose: one Attribute per parameter of the pool protocols' windows,
// timers, pools and trees, each with its help and default.
TypeId
PoolProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PoolProtocol")
            .SetParent<AggregationProtocol>()
            .SetGroupName("InaAggregation")
            .AddAttribute("PoolSize",
                          "Aggregators of an ATP program this job installs at a switch (jobs that "
                          "join it later must agree). 0: ns3::PoolProgram::PoolSize (20000).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PoolProtocol::m_poolSize),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("SwitchMemory",
                          "Bytes of aggregator values the switch reserves for in-network "
                          "aggregation (the ESA paper's simulation: 5 MB); with PoolSize 0 the "
                          "pool this job installs holds as many aggregators of 62 int32 as fit "
                          "(5 MB: 20,161). 0: PoolSize decides. Scenario key switch.ina_memory.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PoolProtocol::m_switchMemory),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("HashRange",
                          "Aggregator indices the job hashes onto, 0..HashRange-1 (ATP's "
                          "P4ML_HASH_RANGE; shrinking it emulates fewer aggregators). 0: the "
                          "smallest pool on the job's switches.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&PoolProtocol::m_hashRange),
                          MakeUintegerChecker<uint32_t>(0, 65536))
            .AddAttribute("Level2",
                          "Aggregate the racks' aggregates again at the parameter server's rack "
                          "switch (ATP's level 2, ATP paper Sec. 3.3). false: one level, every "
                          "rack of two or more workers (the PS's included) aggregated at its own "
                          "switch and the racks merged by the PS, ATP as GRID's paper describes "
                          "it (Sec. 3.1, Fig. 1(b)).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PoolProtocol::m_level2),
                          MakeBooleanChecker())
            .AddAttribute("PassWhenFull",
                          "On a switch with an aggregation capacity (switch.aggregation), a "
                          "fragment whose contributions no longer all fit below the capacity "
                          "queue's ECN threshold (its capacity if it marks nothing) is not "
                          "aggregated there: each of its gradients goes on to the "
                          "parameter server, which merges them (GRID paper, Sec. 3.1: \"if the "
                          "processing capacity of the programmable switch is exhausted, it will "
                          "directly transfer the gradients to the PS\"). false: such gradients "
                          "wait in the queue (dropped when it is full). Set by the job that "
                          "installs a switch's program.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PoolProtocol::m_passWhenFull),
                          MakeBooleanChecker())
            .AddAttribute("MaxWindow",
                          "Largest window in packets, and the aggregator slots each worker maps "
                          "fragments onto (12 channels x 100 slots in ATP's code).",
                          UintegerValue(1200),
                          MakeUintegerAccessor(&PoolProtocol::m_maxWindow),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("MinWindow",
                          "Smallest window in packets (12 channels x 1 in ATP's code).",
                          UintegerValue(12),
                          MakeUintegerAccessor(&PoolProtocol::m_minWindow),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("InitialWindow",
                          "First window in packets (ESA 5.1: ATP starts at 60 KB at 100 Gb/s, "
                          "196 packets of 306 B).",
                          UintegerValue(196),
                          MakeUintegerAccessor(&PoolProtocol::m_initialWindow),
                          MakeUintegerChecker<uint32_t>(1, 65536))
            .AddAttribute("AdditiveIncrease",
                          "Bytes the window grows by per window without ECN (ATP's code: 1500 B "
                          "per channel, 12 channels).",
                          UintegerValue(18000),
                          MakeUintegerAccessor(&PoolProtocol::m_additiveIncrease),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("LossDecrease",
                          "Halve the window on a timeout, at most once per window, as well as on "
                          "ECN (the paper's AIMD; ATP's code reacts to ECN only). Fast "
                          "retransmits do not count: collisions reorder results without loss.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PoolProtocol::m_lossDecrease),
                          MakeBooleanChecker())
            .AddAttribute("FastRetransmit",
                          "Resend the gap below the first out-of-order parameter at once.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&PoolProtocol::m_fastRetransmit),
                          MakeBooleanChecker())
            .AddAttribute("Rto",
                          "Resend when nothing arrived for this long, once a parameter of the "
                          "burst has arrived (ATP's code: 200 us).",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&PoolProtocol::m_rto),
                          MakeTimeChecker())
            .AddAttribute("FirstRto",
                          "The timeout before the first parameter of a burst (ATP's code: "
                          "50 ms, so workers that start later are not mistaken for loss).",
                          TimeValue(MilliSeconds(50)),
                          MakeTimeAccessor(&PoolProtocol::m_firstRto),
                          MakeTimeChecker())
            .AddAttribute("ScalingFactor",
                          "Float to int32 factor of the workers (ATP's code: 10^6).",
                          DoubleValue(Int32Quantizer::DEFAULT_FACTOR),
                          MakeDoubleAccessor(&PoolProtocol::m_scalingFactor),
                          MakeDoubleChecker<double>())
            .AddAttribute("SupersetReplaces",
                          "Parameter server: a partial aggregate whose workers include every "
                          "worker already recorded for the fragment replaces the recorded sum, "
                          "instead of being discarded whole as ATP's code does (which can leave "
                          "the fragment waiting for another timeout).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&PoolProtocol::m_supersetReplaces),
                          MakeBooleanChecker());
    return tid;
}

PoolProtocol::~PoolProtocol() = default;

PoolProtocol::PoolProtocol(uint16_t switchProtocol, const std::string& label)
    : m_switchProtocol(switchProtocol)
    , m_label(label)
{
}

uint16_t
PoolProtocol::GetSwitchProtocol() const
{
    return m_switchProtocol;
}

const std::string&
PoolProtocol::GetProtocolLabel() const
{
    return m_label;
}

void
PoolProtocol::DoDispose()
{
    for (Tree& t : m_trees)
    {
        if (t.server)
        {
            t.server->Dispose();
        }
        t.server = nullptr;
    }
    m_switches.clear();
    m_agents.clear();
    AggregationProtocol::DoDispose();
}

void
PoolProtocol::Fail(const std::string& what) const
{
    throw std::runtime_error("job " + GetContext().name + " (" + GetProtocolLabel() + "): " + what);
}

bool
PoolProtocol::UsesParameterServers() const
{
    return true;
}

ObjectFactory
PoolProtocol::ProgramFactory(const std::string& typeName) const
{
    ObjectFactory f(typeName);
    if (m_poolSize != 0)
    {
        f.Set("PoolSize", UintegerValue(m_poolSize));
    }
    if (m_passWhenFull)
    {
        f.Set("PassWhenFull", BooleanValue(true));
    }
    return f;
}

void
PoolProtocol::CheckSetup() const
{
    const JobContext& ctx = GetContext();
    const uint32_t n = ctx.workerHosts.size();
    if (n == 0)
    {
        Fail("the job has no workers");
    }
    if (ctx.jobId == 0 || ctx.jobId > POOL_MAX_JOB_ID)
    {
        Fail("job id " + std::to_string(ctx.jobId) + " is outside 1.." +
             std::to_string(POOL_MAX_JOB_ID) + " (ATP endpoints are " +
             std::to_string(POOL_ENDPOINT_BASE) + " + job id)");
    }
    if (ctx.psHosts.empty() || ctx.psHosts.size() > POOL_MAX_PS)
    {
        Fail("the job has " + std::to_string(ctx.psHosts.size()) +
             " parameter servers; ATP needs 1.." + std::to_string(POOL_MAX_PS) +
             " (ps_hosts; its header's PS index has 2 bits)");
    }
    if (!(m_scalingFactor > 0) || !std::isfinite(m_scalingFactor))
    {
        Fail("attribute ScalingFactor is " + std::to_string(m_scalingFactor) +
             "; expected a finite positive number such as 1e6");
    }
    if (!m_rto.IsStrictlyPositive() || !m_firstRto.IsStrictlyPositive())
    {
        Fail("attributes Rto and FirstRto must be positive times (such as 200us and 50ms)");
    }
    if (m_minWindow > m_maxWindow || m_initialWindow < m_minWindow || m_initialWindow > m_maxWindow)
    {
        Fail("windows MinWindow " + std::to_string(m_minWindow) + " <= InitialWindow " +
             std::to_string(m_initialWindow) + " <= MaxWindow " + std::to_string(m_maxWindow) +
             " do not hold");
    }
    const uint32_t hosts = ctx.fabric->GetNHosts();
    std::set<uint32_t> seen;
    auto check = [&](uint32_t host, const std::string& who) {
        if (host >= hosts)
        {
            Fail(who + " is on host " + std::to_string(host) + " but the topology has " +
                 std::to_string(hosts) + " hosts");
        }
        if (!seen.insert(host).second)
        {
            Fail(who + " shares host " + std::to_string(host) +
                 " with another worker or parameter server of the job (ATP binds one endpoint "
                 "per job and host)");
        }
    };
    for (uint32_t r = 0; r < n; ++r)
    {
        check(ctx.workerHosts[r], "worker " + std::to_string(r));
    }
    for (size_t p = 0; p < ctx.psHosts.size(); ++p)
    {
        check(ctx.psHosts[p], "parameter server " + std::to_string(p));
    }
}

void
PoolProtocol::DoInstall()
{
    CheckSetup();
    if (m_switchMemory != 0 && m_poolSize == 0)
    {
        const uint64_t fit = m_switchMemory / (4 * PoolHeader::VALUES);
        if (fit == 0)
        {
            Fail("attribute SwitchMemory is " + std::to_string(m_switchMemory) +
                 " B, less than one aggregator (" + std::to_string(4 * PoolHeader::VALUES) + " B)");
        }
        m_poolSize = static_cast<uint32_t>(std::min<uint64_t>(fit, 65536));
    }
    m_endpoint = static_cast<uint16_t>(POOL_ENDPOINT_BASE + GetContext().jobId);
    BuildTrees();
    InstallPrograms();
    CreateServers();
}

void
PoolProtocol::BuildTrees()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const uint32_t n = ctx.workerHosts.size();
    std::map<uint32_t, std::vector<uint32_t>> byRack;
    for (uint32_t r = 0; r < n; ++r)
    {
        byRack[topo.RackOf(ctx.workerHosts[r])].push_back(r);
    }
    m_trees.clear();
    m_routes.assign(ctx.psHosts.size(), std::vector<WorkerRoute>(n));
    for (size_t p = 0; p < ctx.psHosts.size(); ++p)
    {
        Tree t;
        t.psIndex = static_cast<uint8_t>(p);
        t.psHost = ctx.psHosts[p];
        t.psRack = topo.RackOf(t.psHost);
        t.groups = GroupWorkers(t, byRack);
        if (t.groups.size() > PoolHeader::MAX_FAN_IN && !m_level2)
        {
            // More groups than the PS's 5-bit fanInDegree1 and bitmap1 count: the workers no
            // switch aggregates share groups, MAX_FAN_IN to one, each its own bit of bitmap0
            // (RouteWorkers), as workers under a switch are; only the PS counts groups without
            // Level2. Below the limit, or with Level2 (whose switch would wait for every group's
            // aggregate), each stays a group of its own, as ATP's code has it.
            std::vector<Group> packed;
            for (const Group& g : t.groups)
            {
                if (g.aggregates)
                {
                    packed.push_back(g);
                    continue;
                }
                for (uint32_t r : g.ranks)
                {
                    AddDirectWorker(packed, g.rack, r);
                }
            }
            t.groups = packed;
        }
        CheckTree(t);
        RouteWorkers(t);
        m_trees.push_back(t);
    }
}

bool
PoolProtocol::AddDirectWorker(std::vector<Group>& groups, uint32_t rack, uint32_t rank)
{
    const bool open = groups.empty() || groups.back().aggregates ||
                      groups.back().ranks.size() == PoolHeader::MAX_FAN_IN;
    if (open)
    {
        groups.push_back(Group{rack, false, 0, {}});
    }
    groups.back().ranks.push_back(rank);
    return open;
}

bool
PoolProtocol::AllowedAt(uint32_t node) const
{
    const JobContext& ctx = GetContext();
    return ctx.AllowsTier(ctx.fabric->GetTopology().GetTier(node));
}

bool
PoolProtocol::MayAggregateNowhere() const
{
    return false;
}

std::vector<PoolProtocol::Group>
PoolProtocol::GroupWorkers(const Tree& t,
                           const std::map<uint32_t, std::vector<uint32_t>>& byRack) const
{
    const uint32_t n = GetContext().workerHosts.size();
    std::vector<Group> groups;
    if (byRack.size() == 1 && byRack.begin()->first == t.psRack)
    {
        Group g;
        g.rack = t.psRack;
        g.aggregates = n > 1 && AllowedAt(t.psRack);
        g.ranks = byRack.begin()->second;
        if (g.aggregates || n == 1)
        {
            groups.push_back(g);
        }
        else
        {
            for (uint32_t r : g.ranks)
            {
                groups.push_back(Group{g.rack, false, 0, {r}});
            }
        }
        return groups;
    }
    for (const auto& [rack, ranks] : byRack)
    {
        if ((rack != t.psRack || !m_level2) && ranks.size() > 1 && AllowedAt(rack))
        {
            groups.push_back(Group{rack, true, 0, ranks});
        }
        else
        {
            for (uint32_t r : ranks)
            {
                groups.push_back(Group{rack, false, 0, {r}});
            }
        }
    }
    return groups;
}

void
PoolProtocol::CheckTree(Tree& t) const
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    if (t.groups.size() > PoolHeader::MAX_FAN_IN)
    {
        Fail("towards parameter server " + std::to_string(t.psIndex) + " (host " +
             std::to_string(t.psHost) + ") its workers form " + std::to_string(t.groups.size()) +
             " level-1 groups (one per rack of two or more workers, the others 31 to a group); "
             "ATP's 5-bit fanInDegree1 allows " +
             std::to_string(PoolHeader::MAX_FAN_IN) + "; pack the workers into fewer racks");
    }
    uint32_t first = 0;
    for (Group& g : t.groups)
    {
        if (g.ranks.size() > PoolHeader::MAX_FAN_IN)
        {
            Fail(std::to_string(g.ranks.size()) + " of its workers are under switch " +
                 topo.GetNode(g.rack).name + "; ATP's 5-bit fanInDegree0 and bitmap allow " +
                 std::to_string(PoolHeader::MAX_FAN_IN) + " per switch");
        }
        g.firstWorker = first;
        first += g.ranks.size();
    }
    t.level2 = m_level2 && t.groups.size() > 1 && AllowedAt(t.psRack);
    const bool anyLevel1 = std::any_of(t.groups.begin(), t.groups.end(), [](const Group& g) {
        return g.aggregates;
    });
    if (ctx.workerHosts.size() > 1 && !t.level2 && !anyLevel1 && !MayAggregateNowhere())
    {
        std::string asked;
        for (const std::string& s : ctx.inaTiers)
        {
            asked += (asked.empty() ? "" : ", ") + s;
        }
        Fail("no switch would aggregate its gradients: ATP aggregates at rack switches (the "
             "workers' and the parameter server's, tier '" +
             topo.GetTier(t.psRack) + "') but switch.ina_tiers allows [" + asked +
             "]; add the rack tier");
    }
}

void
PoolProtocol::RouteWorkers(const Tree& t)
{
    for (uint32_t g = 0; g < t.groups.size(); ++g)
    {
        const Group& grp = t.groups[g];
        for (uint32_t i = 0; i < grp.ranks.size(); ++i)
        {
            WorkerRoute& w = m_routes[t.psIndex][grp.ranks[i]];
            w.ps = t.psHost;
            w.bitmap0 = 1u << i;
            w.bitmap1 = 1u << g;
            w.fanIn0 = static_cast<uint8_t>(grp.ranks.size());
            w.fanIn1 = static_cast<uint8_t>(t.groups.size());
            // A group of several unaggregated workers (BuildTrees' packing) is read bit by bit.
            w.edge = !grp.aggregates && grp.ranks.size() == 1;
        }
    }
}

void
PoolProtocol::InstallPrograms()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const std::vector<Point> points = AggregationPoints();
    // A later call (a protocol that re-plans its trees, GRID) keeps the switches the job used:
    // their counters stay the job's; the job's entries there were removed beforehand.
    const std::size_t known = m_switches.size();
    JoinSwitches(points);
    // Everything that can be refused is checked before any switch changes.
    if (known == 0)
    {
        BuildIndexTable();
    }
    else
    {
        CheckPoolsHoldRange(known);
    }
    InstallMissingPrograms();
    for (const Point& pt : points)
    {
        PoolProgram::JobConfig cfg;
        cfg.jobId = ctx.jobId;
        cfg.psIndex = pt.psIndex;
        cfg.name = ctx.name;
        cfg.role = pt.role;
        cfg.groupBit = pt.groupBit;
        for (const SwitchEntry& e : m_switches)
        {
            if (e.node != pt.node)
            {
                continue;
            }
            try
            {
                e.program->AddJob(cfg);
            }
            catch (const std::runtime_error& err)
            {
                Fail("switch " + topo.GetNode(pt.node).name + ": " + err.what());
            }
        }
    }
}

std::vector<PoolProtocol::Point>
PoolProtocol::AggregationPoints() const
{
    std::vector<Point> points;
    for (const Tree& t : m_trees)
    {
        for (uint32_t g = 0; g < t.groups.size(); ++g)
        {
            if (t.groups[g].aggregates)
            {
                points.push_back(
                    Point{t.groups[g].rack, t.psIndex, PoolProgram::Role::LEVEL1, 1u << g});
            }
        }
        if (t.level2)
        {
            points.push_back(Point{t.psRack, t.psIndex, PoolProgram::Role::LEVEL2, 0});
        }
    }
    return points;
}

void
PoolProtocol::JoinSwitches(const std::vector<Point>& points)
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    for (const Point& pt : points)
    {
        if (std::any_of(m_switches.begin(), m_switches.end(), [&pt](const SwitchEntry& e) {
                return e.node == pt.node;
            }))
        {
            continue;
        }
        const std::string where = "switch " + topo.GetNode(pt.node).name;
        Ptr<Pipeline> pipeline = ctx.fabric->GetSwitch(pt.node)->GetPipeline();
        Ptr<SwitchProgram> existing = pipeline->GetProgram(GetSwitchProtocol());
        Ptr<PoolProgram> program;
        if (existing)
        {
            program = DynamicCast<PoolProgram>(existing);
            if (!program)
            {
                Fail(where + " already runs program \"" + existing->GetName() +
                     "\" for protocol number " + std::to_string(GetSwitchProtocol()) +
                     ", which ATP needs");
            }
            if (m_poolSize != 0 && program->GetPoolSize() != m_poolSize)
            {
                Fail(where + " already runs ATP with PoolSize " +
                     std::to_string(program->GetPoolSize()) +
                     " (installed by another job) but this job asks for " +
                     std::to_string(m_poolSize) +
                     "; ATP jobs share one pool per switch and must agree on its size");
            }
        }
        m_switches.push_back(SwitchEntry{pt.node, program});
    }
}

void
PoolProtocol::CheckPoolsHoldRange(std::size_t known) const
{
    // The job's fragments keep their aggregator indices: a new switch must hold them all.
    const InaTopology& topo = GetContext().fabric->GetTopology();
    const uint32_t created = m_poolSize != 0 ? m_poolSize : PoolProgram::DEFAULT_POOL_SIZE;
    for (std::size_t i = known; i < m_switches.size(); ++i)
    {
        const SwitchEntry& e = m_switches[i];
        const uint32_t size = e.program ? e.program->GetPoolSize() : created;
        if (size < m_range)
        {
            Fail("switch " + topo.GetNode(e.node).name + " has a pool of " + std::to_string(size) +
                 " aggregators, fewer than the job's hash range " + std::to_string(m_range) +
                 " in use");
        }
    }
}

void
PoolProtocol::InstallMissingPrograms()
{
    const JobContext& ctx = GetContext();
    for (SwitchEntry& e : m_switches)
    {
        if (e.program)
        {
            continue;
        }
        Ptr<Pipeline> pipeline = ctx.fabric->GetSwitch(e.node)->GetPipeline();
        e.program = CreateProgram();
        e.program->SetPipelineLimits(pipeline->GetLimits());
        try
        {
            pipeline->Install(e.program);
        }
        catch (const PipelineFitError& err)
        {
            Fail("cannot install ATP at switch " + ctx.fabric->GetTopology().GetNode(e.node).name +
                 ": " + err.what());
        }
    }
}

uint32_t
PoolProtocol::Crc32(const uint8_t* data, size_t n)
{
    static const std::vector<uint32_t> table = []() {
        std::vector<uint32_t> t(256);
        for (uint32_t i = 0; i < 256; ++i)
        {
            uint32_t c = i;
            for (int k = 0; k < 8; ++k)
            {
                c = (c & 1) != 0 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            }
            t[i] = c;
        }
        return t;
    }();
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; ++i)
    {
        c = table[(c ^ data[i]) & 0xff] ^ (c >> 8);
    }
    return c ^ 0xffffffffu;
}

std::vector<uint16_t>
PoolProtocol::SlotIndices(uint32_t jobId, uint32_t slots, uint32_t range)
{
    if (range == 0 || range > 65536 || slots > range)
    {
        throw std::invalid_argument("SlotIndices: " + std::to_string(slots) +
                                    " slots cannot get distinct indices in a hash range of " +
                                    std::to_string(range) + " (1..65536)");
    }
    std::vector<bool> used(range, false);
    std::vector<uint16_t> out(slots);
    for (uint32_t s = 0; s < slots; ++s)
    {
        for (uint32_t salt = 0;; ++salt)
        {
            const uint32_t words[3] = {jobId, s, salt};
            uint8_t bytes[12];
            for (int w = 0; w < 3; ++w)
            {
                for (int b = 0; b < 4; ++b)
                {
                    bytes[4 * w + b] = static_cast<uint8_t>(words[w] >> (8 * b));
                }
            }
            const uint32_t idx = Crc32(bytes, sizeof(bytes)) % range;
            if (!used[idx])
            {
                used[idx] = true;
                out[s] = static_cast<uint16_t>(idx);
                break;
            }
        }
    }
    return out;
}

void
PoolProtocol::BuildIndexTable()
{
    uint32_t smallest = m_poolSize != 0 ? m_poolSize : PoolProgram::DEFAULT_POOL_SIZE;
    if (!m_switches.empty())
    {
        smallest = UINT32_MAX;
        const uint32_t created = m_poolSize != 0 ? m_poolSize : PoolProgram::DEFAULT_POOL_SIZE;
        for (const SwitchEntry& e : m_switches)
        {
            smallest = std::min(smallest, e.program ? e.program->GetPoolSize() : created);
        }
    }
    if (m_hashRange > smallest)
    {
        Fail("attribute HashRange is " + std::to_string(m_hashRange) +
             " but the smallest ATP pool on the job's switches has " + std::to_string(smallest) +
             " aggregators");
    }
    m_range = m_hashRange != 0 ? m_hashRange : smallest;
    if (m_maxWindow > m_range)
    {
        Fail("attribute MaxWindow is " + std::to_string(m_maxWindow) +
             " slots but the hash range has " + std::to_string(m_range) +
             " aggregators; each slot of a job needs an aggregator of its own");
    }
    m_indexTable = SlotIndices(GetContext().jobId, m_maxWindow, m_range);
}

void
PoolProtocol::CreateServers()
{
    const JobContext& ctx = GetContext();
    const uint32_t n = ctx.workerHosts.size();
    for (Tree& t : m_trees)
    {
        t.resultGroup = ctx.fabric->CreateMulticastGroup(t.psHost, ctx.workerHosts);
        PoolParameterServer::Config c;
        c.name = "job " + ctx.name + " parameter server " + std::to_string(t.psIndex);
        c.jobId = ctx.jobId;
        c.protocol = GetSwitchProtocol();
        c.psIndex = t.psIndex;
        c.host = ctx.fabric->GetHost(t.psHost);
        c.endpoint = m_endpoint;
        c.resultGroup = t.resultGroup;
        c.resultFlowId = ctx.flowIdBase + n + t.psIndex;
        c.checkValues = ctx.checkValues;
        c.window = m_maxWindow;
        c.supersetReplaces = m_supersetReplaces;
        for (const Group& g : t.groups)
        {
            c.groups.push_back(
                PoolParameterServer::Group{g.firstWorker, static_cast<uint32_t>(g.ranks.size())});
            c.rankOfWorker.insert(c.rankOfWorker.end(), g.ranks.begin(), g.ranks.end());
        }
        t.server = CreateServer();
        try
        {
            t.server->Setup(c);
        }
        catch (const std::invalid_argument& e)
        {
            Fail(e.what());
        }
    }
}

Ptr<AggregationAgent>
PoolProtocol::DoCreateAgent(uint32_t rank)
{
    if (rank < m_agents.size() && m_agents[rank])
    {
        Fail("an agent for worker " + std::to_string(rank) +
             " exists already; every rank gets one agent (one endpoint on its host)");
    }
    Ptr<PoolAgent> agent = CreatePoolAgent();
    agent->SetProtocol(this);
    for (Tree& t : m_trees)
    {
        t.server->SetAgent(rank, PeekPointer(agent));
    }
    if (m_agents.size() <= rank)
    {
        m_agents.resize(rank + 1);
    }
    m_agents[rank] = agent;
    return agent;
}

double
PoolProtocol::ValueTolerance(uint32_t contributions, double maxAbsValue) const
{
    return Int32Quantizer::Tolerance(contributions, m_scalingFactor, maxAbsValue);
}

std::map<std::string, double>
PoolProtocol::GetCounters() const
{
    std::map<std::string, double> c;
    AddServerCounters(&c);
    AddAgentCounters(&c);
    c["hash_range"] = m_range;
    c["aggregating_switches"] = m_switches.size();
    uint32_t levels = 0;
    for (const Tree& t : m_trees)
    {
        const bool l1 = std::any_of(t.groups.begin(), t.groups.end(), [](const Group& g) {
            return g.aggregates;
        });
        levels = std::max<uint32_t>(levels, (l1 ? 1 : 0) + (t.level2 ? 1 : 0));
    }
    c["aggregation_levels"] = levels;
    return c;
}

void
PoolProtocol::AddServerCounters(std::map<std::string, double>* c) const
{
    using S = PoolParameterServer::Counters;
    static const std::vector<CounterField<S>> FIELDS = {
        {"ps_packets", &S::packets},
        {"ps_full_aggregates", &S::fullAggregates},
        {"ps_partial_packets", &S::partials},
        {"ps_collision_packets", &S::collisions},
        {"ps_resend_packets", &S::resends},
        {"ps_overlap_discarded", &S::overlapDiscarded},
        {"ps_superset_replaced", &S::supersetReplaced},
        {"ps_fragments", &S::fragments},
        {"ps_results_sent", &S::results},
        {"ps_stale_packets", &S::stale},
        {"ps_malformed_packets", &S::malformed},
        {"ps_evicted_incomplete", &S::evictedIncomplete},
    };
    SumCounters(*c, FIELDS, m_trees, [](const Tree& t) {
        return t.server ? &t.server->GetCounters() : nullptr;
    });
}

void
PoolProtocol::AddAgentCounters(std::map<std::string, double>* c) const
{
    using A = PoolAgent::Counters;
    static const std::vector<CounterField<A>> FIELDS = {
        {"timeouts", &A::timeouts},
        {"fast_retransmits", &A::fastRetransmits},
        {"duplicate_results", &A::duplicateResults},
        {"stale_results", &A::staleResults},
        {"ecn_decreases", &A::ecnDecreases},
        {"loss_decreases", &A::lossDecreases},
        {"window_increases", &A::increases},
        {"collided_fragment_results", &A::collidedResults},
        {"quantization_overflows", &A::quantizationOverflows},
    };
    SumCounters(*c, FIELDS, m_agents, [](const Ptr<PoolAgent>& agent) {
        return agent ? &agent->GetCounters() : nullptr;
    });
    uint64_t sent = 0;
    uint64_t fallback = 0;
    double window = 0;
    uint32_t agents = 0;
    for (const Ptr<PoolAgent>& agent : m_agents)
    {
        if (!agent)
        {
            continue;
        }
        ++agents;
        sent += agent->GetStats().packetsSent;
        fallback += agent->GetStats().psFallbackPackets;
        window += agent->GetWindow();
    }
    (*c)["window_mean_packets"] = agents == 0 ? 0 : window / agents;
    (*c)["ps_fallback_fraction"] = sent == 0 ? 0 : static_cast<double>(fallback) / sent;
}

const std::vector<PoolProtocol::Tree>&
PoolProtocol::GetTrees() const
{
    return m_trees;
}

const std::vector<Ptr<PoolAgent>>&
PoolProtocol::GetPoolAgents() const
{
    return m_agents;
}

void
PoolProtocol::AbandonAgents(const std::string& why)
{
    for (const Ptr<PoolAgent>& agent : m_agents)
    {
        if (agent)
        {
            agent->Abandon(why);
        }
    }
}

const std::vector<PoolProtocol::SwitchEntry>&
PoolProtocol::GetSwitches() const
{
    return m_switches;
}

const PoolProtocol::WorkerRoute&
PoolProtocol::GetWorkerRoute(uint8_t psIndex, uint32_t rank) const
{
    return m_routes.at(psIndex).at(rank);
}

const std::vector<uint16_t>&
PoolProtocol::GetIndexTable() const
{
    return m_indexTable;
}

uint32_t
PoolProtocol::GetHashRange() const
{
    return m_range;
}

uint16_t
PoolProtocol::GetEndpoint() const
{
    return m_endpoint;
}

uint32_t
PoolProtocol::GetNServers() const
{
    return m_trees.size();
}

uint32_t
PoolProtocol::GetMaxWindow() const
{
    return m_maxWindow;
}

uint32_t
PoolProtocol::GetMinWindow() const
{
    return m_minWindow;
}

uint32_t
PoolProtocol::GetInitialWindow() const
{
    return m_initialWindow;
}

uint32_t
PoolProtocol::GetAdditiveIncrease() const
{
    return m_additiveIncrease;
}

bool
PoolProtocol::GetLossDecrease() const
{
    return m_lossDecrease;
}

bool
PoolProtocol::GetFastRetransmit() const
{
    return m_fastRetransmit;
}

Time
PoolProtocol::GetRto() const
{
    return m_rto;
}

Time
PoolProtocol::GetFirstRto() const
{
    return m_firstRto;
}

double
PoolProtocol::GetScalingFactor() const
{
    return m_scalingFactor;
}

} // namespace ns3
