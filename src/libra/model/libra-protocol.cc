/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-protocol.h"

#include "libra-agent.h"
#include "libra-header.h"
#include "libra-hot-set.h"
#include "libra-resources.h"
#include "libra-sparse-model.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/double.h"
#include "ns3/ina-fabric.h"
#include "ns3/ina-host.h"
#include "ns3/ina-switch.h"
#include "ns3/job-attribute-error.h"
#include "ns3/log.h"
#include "ns3/pipeline.h"
#include "ns3/ps-flow-pair.h"
#include "ns3/sharded-ps-protocol.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LibraProtocol");
NS_OBJECT_ENSURE_REGISTERED(LibraProtocol);

static AggregationProtocolRegistry::Registrar g_libra(
    "libra",
    "ns3::LibraProtocol",
    "Libra: hot sparse parameters aggregated in the PS's ToR switch (heat layout, Algorithm 1, "
    "log-domain float add), cold ones on a sharded sparse PS");

// Longer than 80 lines on purpose: one Attribute per job parameter (the workload, the switch
// layout, the workers' transport, the failover), each with its default and the paper's section.
TypeId
LibraProtocol::GetTypeId()
{
    static TypeId tid = [] {
        TypeId t =
            TypeId("ns3::LibraProtocol")
                .SetParent<AggregationProtocol>()
                .SetGroupName("Libra")
                .AddConstructor<LibraProtocol>()
                .AddAttribute(
                    "Workload",
                    "the sparse model (LibraSparseModel): oa-like (150 M parameters, the top "
                    "30 K take 50 % of the updates), se-like (9 M, 70 %), deeplight, lstm, ncf "
                    "(the paper's public models, sized after their papers) or custom (Rows and "
                    "Exponent)",
                    StringValue("oa-like"),
                    MakeStringAccessor(&LibraProtocol::m_workloadName),
                    MakeStringChecker())
                .AddAttribute("Rows",
                              "rows of the embedding table; 0: the named workload's",
                              UintegerValue(0),
                              MakeUintegerAccessor(&LibraProtocol::m_rows),
                              MakeUintegerChecker<uint32_t>())
                .AddAttribute(
                    "Exponent",
                    "Zipf exponent of the row popularity; negative: the named workload's, "
                    "fitted to its share of updates (paper Sec. 3.1, Fig. 5)",
                    DoubleValue(-1),
                    MakeDoubleAccessor(&LibraProtocol::m_exponent),
                    MakeDoubleChecker<double>())
                .AddAttribute("Dim",
                              "floats per row; each is one parameter (key = row x Dim + j); 0: "
                              "the named model's (1 for custom)",
                              UintegerValue(0),
                              MakeUintegerAccessor(&LibraProtocol::m_dim),
                              MakeUintegerChecker<uint32_t>(0, 4096))
                .AddAttribute("AccessesPerIteration",
                              "row draws per worker and iteration (duplicates removed: the rows a "
                              "worker pushes); 0: the named model's batch (10,000 for custom)",
                              UintegerValue(0),
                              MakeUintegerAccessor(&LibraProtocol::m_accesses),
                              MakeUintegerChecker<uint32_t>())
                .AddAttribute(
                    "WorkloadSeed",
                    "seed of the workload's row draws; 0: the job's seed. Jobs with the "
                    "same workload and WorkloadSeed draw the same rows (a baseline on the "
                    "same pushes)",
                    UintegerValue(0),
                    MakeUintegerAccessor(&LibraProtocol::m_workloadSeed),
                    MakeUintegerChecker<uint64_t>())
                .AddAttribute("HotKeys",
                              "K, parameters aggregated on the switch (0: none, the sparse PS "
                              "baseline); OA and SE: 30,000 (paper Sec. 5.2)",
                              UintegerValue(30000),
                              MakeUintegerAccessor(&LibraProtocol::m_hotKeys),
                              MakeUintegerChecker<uint32_t>())
                .AddAttribute("HotSet",
                              "how the hot set is found: true-ranks (the workload law's K hottest) "
                              "or sampled (counted on a SamplingRate sample, paper Sec. 3.3)",
                              StringValue("true-ranks"),
                              MakeStringAccessor(&LibraProtocol::m_hotSetSource),
                              MakeStringChecker())
                .AddAttribute("SamplingRate",
                              "sampled hot set: the fraction of the training run sampled (paper: "
                              "8 %)",
                              DoubleValue(0.08),
                              MakeDoubleAccessor(&LibraProtocol::m_samplingRate),
                              MakeDoubleChecker<double>(0, 1))
                .AddAttribute("SampleIterations",
                              "sampled hot set: iterations of the run the sample is taken from",
                              UintegerValue(100),
                              MakeUintegerAccessor(&LibraProtocol::m_sampleIterations),
                              MakeUintegerChecker<uint32_t>(1))
                .AddAttribute("Registers",
                              "m, register arrays on the switch (spec A.10: 16)",
                              UintegerValue(16),
                              MakeUintegerAccessor(&LibraProtocol::m_registers),
                              MakeUintegerChecker<uint32_t>(1, 64))
                .AddAttribute("PairsPerPacket",
                              "cap, hot pairs per packet (spec A.10: 16, 182-B packets; at most 17 "
                              "fit the 192-B parser limit)",
                              UintegerValue(16),
                              MakeUintegerAccessor(&LibraProtocol::m_pairsPerPacket),
                              MakeUintegerChecker<uint32_t>(1))
                .AddAttribute("Placement",
                              "register placement of the ranks: heat (paper) or random (Sec. 5.4 "
                              "baseline)",
                              StringValue("heat"),
                              MakeStringAccessor(&LibraProtocol::m_placement),
                              MakeStringChecker())
                .AddAttribute("Packing",
                              "packing of a push: algorithm1 (paper) or sequential",
                              StringValue("algorithm1"),
                              MakeStringAccessor(&LibraProtocol::m_packing),
                              MakeStringChecker())
                .AddAttribute(
                    "MaxRecirculations",
                    "recirculations a push may take (paper Sec. 4: 1); pairs beyond go to "
                    "the PS",
                    UintegerValue(LibraLayout::DEFAULT_MAX_RECIRCULATIONS),
                    MakeUintegerAccessor(&LibraProtocol::m_maxRecirculations),
                    MakeUintegerChecker<uint32_t>(0, 63))
                .AddAttribute(
                    "AddMode",
                    "switch float add: lns-approx (paper Sec. 3.5, table lookups) or exact",
                    StringValue("lns-approx"),
                    MakeStringAccessor(&LibraProtocol::m_addMode),
                    MakeStringChecker())
                .AddAttribute("MemoryShare",
                              "c of Principle 1 for a switch this job installs Libra on: the share "
                              "of 20 MiB for all Libra jobs' hot registers",
                              DoubleValue(0.05),
                              MakeDoubleAccessor(&LibraProtocol::m_memoryShare),
                              MakeDoubleChecker<double>(0, 1))
                .AddAttribute("Window",
                              "hot packets (pushes, pulls) a worker keeps unacknowledged",
                              UintegerValue(64),
                              MakeUintegerAccessor(&LibraProtocol::m_window),
                              MakeUintegerChecker<uint32_t>(1))
                .AddAttribute("Rto",
                              "workers' per-packet retransmission timeout (spec A.9: 200 us)",
                              TimeValue(MicroSeconds(200)),
                              MakeTimeAccessor(&LibraProtocol::m_rto),
                              MakeTimeChecker(PicoSeconds(1)))
                .AddAttribute(
                    "Switch",
                    "the switch that aggregates the hot parameters, by topology node name "
                    "(empty: the ToR of the job's first PS host, paper Sec. 6)",
                    StringValue(""),
                    MakeStringAccessor(&LibraProtocol::m_switchName),
                    MakeStringChecker())
                .AddAttribute(
                    "StandbySwitch",
                    "the standby switches of the failover (paper Sec. 3.6, Figure 11), by "
                    "topology node name, comma-separated in the order they are taken: "
                    "Libra is pre-installed on each and a controller heartbeats the "
                    "aggregating switch (empty: no failover)",
                    StringValue(""),
                    MakeStringAccessor(&LibraProtocol::m_standbyName),
                    MakeStringChecker());
        // The failover controller's parameters, declared once in LibraController.
        LibraController::ForwardAttribute(t,
                                          "HeartbeatPeriod",
                                          MakeTimeAccessor(&LibraProtocol::m_heartbeatPeriod));
        LibraController::ForwardAttribute(t,
                                          "HeartbeatTimeout",
                                          MakeTimeAccessor(&LibraProtocol::m_heartbeatTimeout));
        LibraController::ForwardAttribute(t,
                                          "LossThreshold",
                                          MakeDoubleAccessor(&LibraProtocol::m_lossThreshold));
        LibraController::ForwardAttribute(t,
                                          "ResponseDelayThreshold",
                                          MakeTimeAccessor(&LibraProtocol::m_delayThreshold));
        return t;
    }();
    return tid;
}

LibraProtocol::LibraProtocol() = default;
LibraProtocol::~LibraProtocol() = default;

void
LibraProtocol::DoDispose()
{
    m_program = nullptr;
    m_standbys.clear();
    m_migratingTo = nullptr;
    if (m_controller)
    {
        m_controller->Dispose();
        m_controller = nullptr;
    }
    m_servers.clear();
    m_coldPush.clear();
    m_coldPull.clear();
    m_dense = nullptr;
    m_agents.clear();
    AggregationProtocol::DoDispose();
}

bool
LibraProtocol::UsesParameterServers() const
{
    return true;
}

void
LibraProtocol::Fail(const std::string& what) const
{
    throw std::runtime_error("job " + GetContext().name + " (libra): " + what);
}

uint16_t
LibraProtocol::GetEndpoint() const
{
    return static_cast<uint16_t>(LIBRA_ENDPOINT_BASE + GetContext().jobId);
}

uint32_t
LibraProtocol::GetBlocks() const
{
    return m_layout ? (m_layout->GetHotKeys() + m_registers - 1) / m_registers : 0;
}

uint32_t
LibraProtocol::GetNShards() const
{
    return static_cast<uint32_t>(m_servers.size());
}

uint32_t
LibraProtocol::ShardOf(uint32_t key) const
{
    return static_cast<uint32_t>(uint64_t{key} * m_servers.size() / m_totalKeys);
}

double
LibraProtocol::HotRelativeTolerance(uint32_t n) const
{
    const double steps = n <= 1 ? 0.0 : static_cast<double>(n - 1);
    if (m_addMode == "exact")
    {
        return 2.0 * steps * std::numeric_limits<float>::epsilon();
    }
    return std::pow(1.0 + LibraLnsAdder::PerAddErrorBound(), steps) - 1.0;
}

void
LibraProtocol::NoteChecks(uint64_t hotChecked,
                          uint64_t hotErrors,
                          double worstHotRelative,
                          uint64_t coldChecked,
                          uint64_t coldErrors)
{
    m_hotChecked += hotChecked;
    m_hotErrors += hotErrors;
    m_worstHotRelative = std::max(m_worstHotRelative, worstHotRelative);
    m_coldChecked += coldChecked;
    m_coldErrors += coldErrors;
}

bool
LibraProtocol::AggregatesInNetwork() const
{
    return true;
}

void
LibraProtocol::DoInstall()
{
    const JobContext& ctx = GetContext();
    if (!AggregatesInNetwork())
    {
        m_hotKeys = 0;
    }
    if (ctx.psHosts.empty())
    {
        Fail("Libra aggregates the cold parameters on parameter servers: set ps_hosts >= 1");
    }
    try
    {
        LibraLnsAdder::ParseMode(m_addMode);
    }
    catch (const std::invalid_argument& e)
    {
        Fail(std::string("AddMode: ") + e.what());
    }
    BuildWorkload();
    InstallServers();
    if (m_hotKeys > 0)
    {
        InstallSwitch();
    }
    else if (!m_standbyName.empty() || !m_switchName.empty())
    {
        Fail(std::string(m_standbyName.empty() ? "Switch" : "StandbySwitch") +
             " is set but the job aggregates nothing in the network (HotKeys 0 or libra-ps)");
    }
    m_book = LibraValueBook(static_cast<uint32_t>(ctx.workerHosts.size()));
}

void
LibraProtocol::ResolveShape()
{
    if (m_workloadName == "custom")
    {
        // Custom keeps the defaults these attributes had before the named models had their own.
        m_dim = m_dim == 0 ? 1 : m_dim;
        m_accesses = m_accesses == 0 ? 10000 : m_accesses;
        return;
    }
    try
    {
        const LibraSparseModel model = LibraSparseModel::Lookup(m_workloadName);
        m_dim = m_dim == 0 ? model.dim : m_dim;
        m_accesses = m_accesses == 0 ? model.accesses : m_accesses;
    }
    catch (const std::invalid_argument& e)
    {
        Fail(std::string("Workload: ") + e.what());
    }
}

std::pair<uint32_t, double>
LibraProtocol::ResolveLaw() const
{
    uint32_t rows = m_rows;
    double exponent = m_exponent;
    if (m_workloadName == "custom")
    {
        if (rows == 0 || exponent < 0)
        {
            Fail("Workload custom needs Rows >= 1 and Exponent >= 0");
        }
        return {rows, exponent};
    }
    LibraSparseModel model = LibraSparseModel::Lookup(m_workloadName); // known: ResolveShape
    if (rows != 0 && rows != model.rows)
    {
        // Another size, the same skew: the hot parameters' share is the model's, or the given law.
        if (!model.fieldRows.empty())
        {
            Fail("Workload " + m_workloadName +
                 ": Rows cannot resize a model given by its fields' sizes; use custom");
        }
        model.rows = rows;
    }
    if (exponent < 0)
    {
        // The paper counts updates at the PS (one per push of a parameter), so the law is the
        // one whose *updates* give the top parameters the model's share at this push size
        // (LibraSparseModel::SolveExponent).
        try
        {
            exponent = model.SolveExponent(m_dim, m_accesses);
        }
        catch (const std::invalid_argument& e)
        {
            Fail("Workload " + m_workloadName + ": " + e.what() +
                 "; set Exponent, or change AccessesPerIteration or Dim");
        }
    }
    return {model.rows, exponent};
}

void
LibraProtocol::BuildWorkload()
{
    const JobContext& ctx = GetContext();
    ResolveShape();
    const auto [rows, exponent] = ResolveLaw();
    m_exponentUsed = exponent;
    m_totalKeys = uint64_t{rows} * m_dim;
    if (m_totalKeys > std::numeric_limits<uint32_t>::max())
    {
        Fail("Rows x Dim = " + std::to_string(m_totalKeys) + " parameters; keys are 32-bit");
    }
    // One law per job; the job's seed (or WorkloadSeed) draws every worker's rows.
    const uint64_t seed = m_workloadSeed != 0 ? m_workloadSeed : ctx.seed ^ 0x4c42ULL;
    m_workload = std::make_unique<SparseWorkload>(rows, m_dim, m_accesses, exponent, seed);
    if (m_hotKeys == 0)
    {
        return;
    }
    std::vector<uint32_t> keys = HotKeysInRankOrder();
    try
    {
        m_layout = std::make_unique<LibraLayout>(LayoutConfig(static_cast<uint32_t>(keys.size())));
    }
    catch (const std::invalid_argument& e)
    {
        Fail(e.what());
    }
    m_rankTable = LibraRankTable(std::move(keys));
}

std::vector<uint32_t>
LibraProtocol::HotKeysInRankOrder()
{
    if (m_hotKeys % m_dim != 0)
    {
        Fail("HotKeys " + std::to_string(m_hotKeys) + " is not a whole number of rows of Dim " +
             std::to_string(m_dim) + " parameters");
    }
    if (m_hotKeys > m_totalKeys)
    {
        Fail("HotKeys " + std::to_string(m_hotKeys) + " exceeds the model's " +
             std::to_string(m_totalKeys) + " parameters");
    }
    std::vector<uint32_t> hotRows;
    if (m_hotSetSource == "true-ranks")
    {
        hotRows = m_workload->HotRows(m_hotKeys / m_dim);
    }
    else if (m_hotSetSource == "sampled")
    {
        const LibraHotSet set = LibraHotSet::FromSampledTrace(*m_workload,
                                                              GetContext().workerHosts.size(),
                                                              m_sampleIterations,
                                                              m_samplingRate);
        hotRows = set.GetTopKeys(m_hotKeys / m_dim);
        // Figure 15's precision, |H_g n H_s| / |H_g|: H_g the same number of hottest rows counted
        // on the whole run the sample was taken from (the paper's "whole datasets", Sec. 5.3).
        const LibraHotSet whole = LibraHotSet::FromSampledTrace(*m_workload,
                                                                GetContext().workerHosts.size(),
                                                                m_sampleIterations,
                                                                1.0);
        m_hotSetPrecision = LibraHotSet::Precision(whole.GetTopKeys(m_hotKeys / m_dim), hotRows);
    }
    else
    {
        Fail("HotSet '" + m_hotSetSource + "': expected true-ranks or sampled");
    }
    std::vector<uint32_t> keys;
    keys.reserve(hotRows.size() * m_dim);
    for (uint32_t row : hotRows)
    {
        for (uint32_t j = 0; j < m_dim; ++j)
        {
            keys.push_back(row * m_dim + j);
        }
    }
    return keys;
}

LibraLayout::Config
LibraProtocol::LayoutConfig(uint32_t hotKeys) const
{
    LibraLayout::Config c;
    c.hotKeys = hotKeys;
    c.registers = m_registers;
    c.pairsPerPacket = m_pairsPerPacket;
    c.seed = GetContext().seed;
    if (m_placement == "heat")
    {
        c.placement = LibraLayout::Placement::HEAT;
    }
    else if (m_placement == "random")
    {
        c.placement = LibraLayout::Placement::RANDOM;
    }
    else
    {
        Fail("Placement '" + m_placement + "': expected heat or random");
    }
    if (m_packing == "algorithm1")
    {
        c.packing = LibraLayout::Packing::ALGORITHM1;
    }
    else if (m_packing == "sequential")
    {
        c.packing = LibraLayout::Packing::SEQUENTIAL;
    }
    else
    {
        Fail("Packing '" + m_packing + "': expected algorithm1 or sequential");
    }
    return c;
}

void
LibraProtocol::InstallServers()
{
    const JobContext& ctx = GetContext();
    const uint32_t n = static_cast<uint32_t>(ctx.workerHosts.size());
    const uint32_t s = static_cast<uint32_t>(ctx.psHosts.size());
    m_coldPush.assign(n, std::vector<Ptr<InaTransportSender>>(s));
    m_coldPull.assign(n, std::vector<Ptr<InaTransportReceiver>>(s));
    // The job's MaxTimeouts is its cold flows' too, so they give up with its agents.
    ObjectFactory senders("ns3::InaTransportSender");
    senders.Set("MaxTimeouts", UintegerValue(GetMaxTimeouts()));
    const ObjectFactory receivers("ns3::InaTransportReceiver");
    for (uint32_t p = 0; p < s; ++p)
    {
        Ptr<InaHost> server = ctx.fabric->GetHost(ctx.psHosts[p]);
        std::vector<Ptr<InaTransportReceiver>> pushRx(n);
        std::vector<Ptr<InaTransportSender>> pullTx(n);
        for (uint32_t w = 0; w < n; ++w)
        {
            const PsFlowPair f = PsFlowPair::Open(ctx.fabric->GetHost(ctx.workerHosts[w]),
                                                  server,
                                                  ctx.flowIdBase + 2 * (w * s + p),
                                                  ctx.jobId,
                                                  senders,
                                                  receivers);
            pushRx[w] = f.pushRx;
            m_coldPull[w][p] = f.pullRx;
            m_coldPush[w][p] = f.push;
            pullTx[w] = f.pull;
        }
        Ptr<LibraColdServer> cold = CreateObject<LibraColdServer>();
        cold->Setup("job '" + ctx.name + "' cold shard " + std::to_string(p),
                    ctx.checkValues,
                    std::move(pushRx),
                    std::move(pullTx));
        m_servers.push_back(cold);
    }
    // The dense part (DenseNet) on the same PS hosts, on flow ids of the job's upper half.
    JobContext dense = ctx;
    dense.flowIdBase = ctx.flowIdBase + JobContext::FLOW_IDS_PER_JOB / 2;
    m_dense = CreateObject<ShardedPsProtocol>();
    m_dense->SetAttribute("MaxTimeouts", UintegerValue(GetMaxTimeouts()));
    m_dense->Install(dense);
}

void
LibraProtocol::InstallSwitch()
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    if (ctx.jobId > LIBRA_ENDPOINT_LAST - LIBRA_ENDPOINT_BASE)
    {
        Fail("job id " + std::to_string(ctx.jobId) + " is beyond the " +
             std::to_string(LIBRA_ENDPOINT_LAST - LIBRA_ENDPOINT_BASE) +
             " Libra jobs a fabric "
             "can hold (host endpoints " +
             std::to_string(LIBRA_ENDPOINT_BASE) + ".." + std::to_string(LIBRA_ENDPOINT_LAST) +
             ")");
    }
    // Paper Sec. 6: the ToR of the PS runs Libra, unless the job names its switch.
    const uint32_t node = m_switchName.empty() ? topo.RackOf(ctx.psHosts.front())
                                               : SwitchNode("Switch", m_switchName);
    m_program =
        InstallProgramOn(node,
                         m_switchName.empty() ? "the ToR of the job's first PS host" : "its Switch",
                         &m_group);
    m_switchAddress = ctx.fabric->GetSwitch(node)->GetAddress();
    m_currentName = topo.GetNode(node).name;
    if (m_standbyName.empty())
    {
        return;
    }
    std::vector<uint32_t> nodes{node};
    const std::vector<std::string> names = JobAttributeList("StandbySwitch", m_standbyName);
    for (const std::string& name : names)
    {
        const uint32_t standby = SwitchNode("StandbySwitch", name);
        if (standby == node)
        {
            Fail("StandbySwitch " + name + " is the aggregating switch itself");
        }
        if (std::find(nodes.begin(), nodes.end(), standby) != nodes.end())
        {
            Fail("StandbySwitch lists " + name + " twice");
        }
        nodes.push_back(standby);
        // The layout is fixed in advance, so a standby runs Libra from the start (Sec. 3.6):
        // its memory is checked now, not at the failure.
        Standby st;
        st.name = name;
        st.program = InstallProgramOn(standby, "its StandbySwitch " + name, &st.group);
        st.address = ctx.fabric->GetSwitch(standby)->GetAddress();
        m_standbys.push_back(std::move(st));
    }
    if (m_standbys.empty())
    {
        Fail("StandbySwitch '" + m_standbyName + "' names no switch");
    }
    InstallController();
}

std::vector<Ptr<LibraProgram>>
LibraProtocol::GetStandbyPrograms() const
{
    std::vector<Ptr<LibraProgram>> v;
    for (const Standby& st : m_standbys)
    {
        v.push_back(st.program);
    }
    return v;
}

uint32_t
LibraProtocol::SwitchNode(const std::string& key, const std::string& name) const
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
    uint32_t node = 0;
    try
    {
        node = topo.FindNode(name);
    }
    catch (const std::invalid_argument&)
    {
        Fail(key + " " + name + ": the topology has no node of that name");
    }
    if (node < topo.GetNHosts())
    {
        Fail(key + " " + name + ": a host, not a switch");
    }
    return node;
}

Ptr<LibraProgram>
LibraProtocol::InstallProgramOn(uint32_t node, const std::string& role, InaAddress* group)
{
    const JobContext& ctx = GetContext();
    const InaTopology& topo = ctx.fabric->GetTopology();
    const std::string tier = topo.GetTier(node);
    if (!ctx.AllowsTier(tier))
    {
        Fail("Libra aggregates in " + role + " (" + topo.GetNode(node).name + ", tier " + tier +
             "), but switch.ina_tiers does not allow tier " + tier);
    }
    Ptr<InaSwitch> sw = ctx.fabric->GetSwitch(node);
    Ptr<Pipeline> pipeline = sw->GetPipeline();
    Ptr<SwitchProgram> existing = pipeline->GetProgram(LIBRA_PROTOCOL);
    const std::string where = "switch " + topo.GetNode(node).name;
    Ptr<LibraProgram> program;
    if (existing)
    {
        program = DynamicCast<LibraProgram>(existing);
        if (!program)
        {
            Fail(where + " already runs program \"" + existing->GetName() +
                 "\" for Libra's protocol number");
        }
        if (program->GetRegisters() != m_registers ||
            LibraLnsAdder::ModeName(program->GetAddMode()) != m_addMode)
        {
            Fail(where + " already runs Libra with Registers " +
                 std::to_string(program->GetRegisters()) + " and AddMode " +
                 LibraLnsAdder::ModeName(program->GetAddMode()) +
                 " (installed by another job) but this job asks for Registers " +
                 std::to_string(m_registers) + " and AddMode " + m_addMode +
                 "; Libra jobs that share a switch must agree on them");
        }
    }
    else
    {
        program = CreateObject<LibraProgram>();
        program->SetAttribute("Registers", UintegerValue(m_registers));
        program->SetAttribute("MemoryShare", DoubleValue(m_memoryShare));
        program->SetAttribute("AddMode", StringValue(m_addMode));
        program->SetPipelineLimits(pipeline->GetLimits());
        pipeline->Install(program);
        std::vector<const InaPort*> ports;
        for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
        {
            ports.push_back(sw->GetPort(i));
        }
        program->SetStatisticsPorts(std::move(ports));
    }
    *group = ctx.fabric->CreateMulticastGroup(node, ctx.workerHosts);
    LibraProgram::JobConfig cfg;
    cfg.jobId = ctx.jobId;
    cfg.name = ctx.name;
    cfg.hotKeys = m_layout->GetHotKeys();
    cfg.workers = static_cast<uint32_t>(ctx.workerHosts.size());
    cfg.group = *group;
    for (uint32_t h : ctx.workerHosts)
    {
        cfg.workerAddresses.push_back(ctx.fabric->GetHost(h)->GetAddress());
    }
    cfg.endpoint = GetEndpoint();
    program->AddJob(cfg);
    return program;
}

void
LibraProtocol::InstallController()
{
    const JobContext& ctx = GetContext();
    const uint64_t maxTimeouts = GetMaxTimeouts();
    const Time outage = m_heartbeatTimeout + m_heartbeatPeriod;
    if (maxTimeouts != 0 &&
        static_cast<double>(maxTimeouts) * m_rto.GetSeconds() <= outage.GetSeconds())
    {
        Fail("MaxTimeouts " + std::to_string(maxTimeouts) + " x Rto " +
             std::to_string(m_rto.GetMicroSeconds()) +
             " us gives up before the failover can take over (HeartbeatTimeout " +
             std::to_string(m_heartbeatTimeout.GetMicroSeconds()) + " us + HeartbeatPeriod " +
             std::to_string(m_heartbeatPeriod.GetMicroSeconds()) +
             " us): raise MaxTimeouts to at least " +
             std::to_string(static_cast<uint64_t>(outage.GetSeconds() / m_rto.GetSeconds()) + 1) +
             " or set it to 0");
    }
    m_controller = CreateObject<LibraController>();
    m_controller->SetAttribute("HeartbeatPeriod", TimeValue(m_heartbeatPeriod));
    m_controller->SetAttribute("HeartbeatTimeout", TimeValue(m_heartbeatTimeout));
    m_controller->SetAttribute("LossThreshold", DoubleValue(m_lossThreshold));
    m_controller->SetAttribute("ResponseDelayThreshold", TimeValue(m_delayThreshold));
    m_controller->SetAttribute("StateRto", TimeValue(m_rto));
    m_controller->SetAttribute("Window", UintegerValue(m_window));
    try
    {
        m_controller->Setup(ctx.fabric->GetHost(ctx.psHosts.front()),
                            m_switchAddress,
                            ctx.jobId,
                            ctx.flowIdBase + JobContext::FLOW_IDS_PER_JOB - 1,
                            MakeCallback(&LibraProtocol::AnyRoundOut, this),
                            MakeCallback(&LibraProtocol::OnFailure, this),
                            MakeCallback(&LibraProtocol::OnDegraded, this));
    }
    catch (const std::invalid_argument& e)
    {
        Fail(e.what());
    }
}

void
LibraProtocol::NoteRoundStarted()
{
    if (m_controller)
    {
        m_controller->Wake();
    }
}

bool
LibraProtocol::AnyRoundOut() const
{
    if (m_ended)
    {
        return false;
    }
    for (const auto& a : m_agents)
    {
        uint32_t round = 0;
        if (a->GetHotState(&round) != LibraAgent::HotState::IDLE)
        {
            return true;
        }
    }
    return false;
}

LibraProtocol::Standby*
LibraProtocol::NextStandby()
{
    for (Standby& st : m_standbys)
    {
        if (!st.used)
        {
            return &st;
        }
    }
    return nullptr;
}

void
LibraProtocol::OnDegraded()
{
    // Figure 11: the switch still answers, but its statistics say it is about to fail. The
    // controller pulls its state (the job freezes there at the first chunk asked) and installs
    // it on a standby, then the job is re-routed there; nothing is pushed again.
    if (m_ended || m_controller->IsMigrating())
    {
        return;
    }
    Standby* next = NextStandby();
    if (next == nullptr)
    {
        NS_LOG_WARN("job " << GetContext().name << ": switch " << m_currentName
                           << " is about to fail and no standby is left; staying on it");
        return;
    }
    next->used = true;
    m_migratingTo = next;
    m_suspectAt = Simulator::Now();
    m_controller->Migrate(m_program,
                          m_switchAddress,
                          next->program,
                          next->address,
                          MakeCallback(&LibraProtocol::OnMigrated, this));
}

void
LibraProtocol::OnMigrated(LibraController::MigrationResult result)
{
    Standby* to = m_migratingTo;
    m_migratingTo = nullptr;
    switch (result)
    {
    case LibraController::MigrationResult::INSTALLED:
        ++m_migrations;
        m_failoverTime = Simulator::Now() - m_suspectAt;
        m_migrationTime = m_failoverTime;
        MoveTo(*to);
        for (const auto& a : m_agents)
        {
            a->Failover(to->address, LibraAgent::FailoverAction::READDRESS);
        }
        return;
    case LibraController::MigrationResult::SOURCE_FAILED:
        // It failed before all of its state was pulled: what it held is lost with it. The
        // standby chosen is still unused.
        to->used = false;
        m_failoverTime = Simulator::Now() - m_suspectAt;
        HardFailover();
        return;
    case LibraController::MigrationResult::TARGET_FAILED: {
        // The state is with the controller (the old switch has it no more): try the next one.
        Standby* next = NextStandby();
        if (next == nullptr)
        {
            m_controller->AbortMigration();
            EndJob("the state of switch " + m_currentName + " was pulled, but standby " + to->name +
                   " failed while it was installed and no standby is left");
            return;
        }
        next->used = true;
        m_migratingTo = next;
        m_controller->Migrate(nullptr,
                              INA_NO_ADDRESS,
                              next->program,
                              next->address,
                              MakeCallback(&LibraProtocol::OnMigrated, this));
        return;
    }
    }
}

void
LibraProtocol::OnFailure()
{
    if (m_ended)
    {
        return;
    }
    if (m_controller->IsMigrating())
    {
        if (m_controller->HoldsState())
        {
            return; // its state is pulled already: the installation goes on
        }
        // It failed while its state was being pulled: the pull can never finish.
        m_migratingTo->used = false;
        m_migratingTo = nullptr;
        m_controller->AbortMigration();
    }
    m_failoverTime = m_controller->GetDetectedAt() - m_controller->GetLastAnsweredBeforeFailure();
    HardFailover();
}

void
LibraProtocol::HardFailover()
{
    // The failed switch's registers went with its power (InaFaultInjector resets the program), so
    // nothing can be pulled: the round the registers held is rebuilt on the standby from the
    // workers, which keep a round's pairs until it completes. Completed rounds lose nothing:
    // their sums are with the workers, and the registers are clean between rounds.
    //
    // Which round: if some worker still waits for a pull of round R (the lowest round out), no
    // worker can be past R (the next round's pushes wait for every worker's pulls), so every
    // worker out in R pushes and pulls it again. If every worker out in R has its sums and only
    // waits for the READY of phase 1, that READY is what the failure took: they are released,
    // and workers already in R + 1 (they had that READY) push R + 1 again.
    Standby* next = NextStandby();
    if (next == nullptr)
    {
        EndJob("its aggregating switch " + m_currentName +
               " failed and no standby switch is left (StandbySwitch)");
        return;
    }
    next->used = true;
    MoveTo(*next);
    uint32_t lowest = UINT32_MAX;
    std::vector<std::pair<LibraAgent::HotState, uint32_t>> states;
    for (const auto& a : m_agents)
    {
        uint32_t round = 0;
        const LibraAgent::HotState s = a->GetHotState(&round);
        states.emplace_back(s, round);
        if (s != LibraAgent::HotState::IDLE)
        {
            lowest = std::min(lowest, round);
        }
    }
    bool pullsOut = false;
    for (const auto& [s, round] : states)
    {
        pullsOut = pullsOut || (s == LibraAgent::HotState::PENDING && round == lowest);
    }
    for (size_t i = 0; i < m_agents.size(); ++i)
    {
        const auto [s, round] = states[i];
        LibraAgent::FailoverAction action = LibraAgent::FailoverAction::READDRESS;
        if (s != LibraAgent::HotState::IDLE)
        {
            action = (round == lowest && !pullsOut) ? LibraAgent::FailoverAction::RELEASE
                                                    : LibraAgent::FailoverAction::REPLAY;
        }
        if (action == LibraAgent::FailoverAction::REPLAY)
        {
            m_replayed = true;
            m_replayedRound = round;
        }
        m_agents[i]->Failover(next->address, action);
    }
}

void
LibraProtocol::MoveTo(Standby& to)
{
    NS_LOG_INFO("job " << GetContext().name << " moves from " << m_currentName << " to "
                       << to.name);
    ++m_failovers;
    m_failoverAt = Simulator::Now();
    m_program = to.program;
    m_switchAddress = to.address;
    m_group = to.group;
    m_currentName = to.name;
    m_controller->Watch(to.address);
}

void
LibraProtocol::EndJob(const std::string& why)
{
    NS_LOG_WARN("job " << GetContext().name << ": " << why);
    m_ended = true;
    for (const auto& a : m_agents)
    {
        a->Abandon(why);
    }
}

Ptr<AggregationAgent>
LibraProtocol::DoCreateAgent(uint32_t rank)
{
    Ptr<LibraAgent> agent = CreateObject<LibraAgent>();
    agent->SetProtocol(this);
    agent->SetPsFlows(m_coldPush.at(rank), m_coldPull.at(rank), m_dense->CreateAgent(rank));
    m_agents.push_back(agent);
    return agent;
}

void
LibraProtocol::AddFailoverCounters(std::map<std::string, double>& m) const
{
    uint64_t replayed = 0;
    for (const auto& a : m_agents)
    {
        replayed += a->GetCounters().replayedPackets;
    }
    m["heartbeats_sent"] = static_cast<double>(m_controller->GetHeartbeatsSent());
    m["heartbeats_answered"] = static_cast<double>(m_controller->GetHeartbeatsAnswered());
    m["failovers"] = m_failovers;
    m["failover_migrations"] = m_migrations;
    m["failover_no_standby_left"] = m_ended ? 1 : 0;
    if (m_failovers > 0)
    {
        // The last move: when, and its outage as the controller saw it: from the failed
        // switch's last answered heartbeat (a failure) or from finding it about to fail (a
        // migration) to the standby taking over.
        m["failover_at_s"] = m_failoverAt.GetSeconds();
        m["failover_time_s"] = m_failoverTime.GetSeconds();
        m["failover_replayed_round"] = m_replayed ? static_cast<double>(m_replayedRound) : -1.0;
        m["failover_replayed_packets"] = static_cast<double>(replayed);
    }
    if (m_migrations > 0)
    {
        m["failover_migration_time_s"] = m_migrationTime.GetSeconds();
        m["failover_state_bytes"] = static_cast<double>(m_controller->GetStateBytesMoved());
        m["failover_state_live_cells"] = static_cast<double>(m_controller->GetLastStateLiveCells());
        m["failover_state_resends"] = static_cast<double>(m_controller->GetStateResends());
        m["failover_suspect_loss"] = m_controller->GetDegradedLossRate();
    }
}

std::map<std::string, double>
LibraProtocol::GetCounters() const
{
    LibraAgent::Counters sum;
    double throughput = 0;
    double pairsPerS = 0;
    for (const auto& a : m_agents)
    {
        const LibraAgent::Counters& c = a->GetCounters();
        sum.rounds += c.rounds;
        sum.hotPairs += c.hotPairs;
        sum.coldPairs += c.coldPairs;
        sum.fallbackPairs += c.fallbackPairs;
        sum.hotPackets += c.hotPackets;
        sum.collisions += c.collisions;
        sum.recirculations += c.recirculations;
        sum.pulls += c.pulls;
        sum.resends += c.resends;
        sum.resultsReceived += c.resultsReceived;
        if (c.sparseBusyPs > 0)
        {
            // The gradient bytes of the pairs (4 B each) over the time the rounds were out.
            const double pairs = static_cast<double>(c.hotPairs + c.coldPairs);
            const double seconds = c.sparseBusyPs * 1e-12;
            throughput += pairs * 32.0 / seconds / 1e9;
            pairsPerS += pairs / seconds;
        }
    }
    const double workers = m_agents.empty() ? 1.0 : static_cast<double>(m_agents.size());
    const double packets = sum.hotPackets == 0 ? 1.0 : static_cast<double>(sum.hotPackets);
    const double pairs = static_cast<double>(sum.hotPairs + sum.coldPairs);
    std::map<std::string, double> m;
    m["hot_keys"] = m_layout ? m_layout->GetHotKeys() : 0;
    m["registers"] = m_registers;
    m["register_blocks"] = GetBlocks();
    m["ps_shards"] = m_servers.size();
    m["workload_exponent"] = m_exponentUsed;
    if (m_hotSetPrecision >= 0)
    {
        m["hot_set_precision"] = m_hotSetPrecision;
    }
    m["sparse_rounds"] = static_cast<double>(sum.rounds);
    m["hot_pairs"] = static_cast<double>(sum.hotPairs);
    m["cold_pairs"] = static_cast<double>(sum.coldPairs);
    m["fallback_pairs"] = static_cast<double>(sum.fallbackPairs);
    m["hot_share"] = pairs > 0 ? sum.hotPairs / pairs : 0;
    m["hot_packets"] = static_cast<double>(sum.hotPackets);
    m["pull_packets"] = static_cast<double>(sum.pulls);
    m["collisions_per_packet"] = sum.collisions / packets;
    m["recirculations_per_packet"] = sum.recirculations / packets;
    m["hot_resends"] = static_cast<double>(sum.resends);
    m["results_received"] = static_cast<double>(sum.resultsReceived);
    m["sparse_agg_throughput_gbps"] = throughput / workers;
    m["sparse_pairs_per_s"] = pairsPerS;
    m["paper_memory_bytes"] =
        m_layout ? static_cast<double>(
                       LibraResources::Account(m_layout->GetHotKeys(), m_addMode != "exact")
                           .GetTotalBytes())
                 : 0;
    m["hot_values_checked"] = static_cast<double>(m_hotChecked);
    m["hot_value_errors"] = static_cast<double>(m_hotErrors);
    m["hot_worst_relative_error"] = m_worstHotRelative;
    m["hot_relative_tolerance_n"] = HotRelativeTolerance(static_cast<uint32_t>(workers));
    m["cold_values_checked"] = static_cast<double>(m_coldChecked);
    m["cold_value_errors"] = static_cast<double>(m_coldErrors);
    if (m_controller)
    {
        AddFailoverCounters(m);
    }
    for (const auto& [name, value] : m_dense->GetCounters())
    {
        m["dense_" + name] = value;
    }
    return m;
}

} // namespace ns3
