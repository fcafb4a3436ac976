/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "esa-protocol.h"

#include "esa-agent.h"
#include "esa-parameter-server.h"
#include "esa-program.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/counter-sum.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/job-attribute-error.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EsaProtocol");
NS_OBJECT_ENSURE_REGISTERED(EsaProtocol);

static AggregationProtocolRegistry::Registrar g_esa(
    "esa",
    "ns3::EsaProtocol",
    "ESA in-network aggregation (Wang et al. INFOCOM'23): ATP's shared hashed aggregator pool with "
    "preemption by priority (layer, remaining time, comm/comp ratio; always or coin-flip "
    "preemption as ablations), results multicast by the switch at completion, reminders and "
    "parameter-server pulls for what the switches could not finish");

// Longer than 80 lines on purpose: one Attribute per parameter of ESA's preemption, its
// priority (time source, scale and inputs) and its workers' resend timers.
TypeId
EsaProtocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EsaProtocol")
            .SetParent<PoolProtocol>()
            .SetGroupName("InaAggregation")
            .AddConstructor<EsaProtocol>()
            .AddAttribute("Preemption",
                          "Collision policy of the ESA program this job installs at a switch (jobs "
                          "sharing it must agree): priority (ESA), always (Straw1) or random "
                          "(Straw2, with PreemptProbability).",
                          EnumValue(static_cast<int>(EsaPreemptionMode::PRIORITY)),
                          MakeEnumAccessor(&EsaProtocol::m_mode),
                          MakeEsaPreemptionModeChecker())
            .AddAttribute("PreemptProbability",
                          "Preemption random: the chance that a collision preempts (Straw2: 0.5).",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&EsaProtocol::m_probability),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("PriorityTimeSource",
                          "What stands for the job's time T_j in the priority: remaining (the "
                          "bytes the worker still has to all-reduce, at its line rate), attained "
                          "(the service so far, the paper's fallback) or fixed (FixedTime).",
                          EnumValue(static_cast<int>(EsaPriority::TimeSource::REMAINING)),
                          MakeEnumAccessor(&EsaProtocol::m_source),
                          MakeEnumChecker(static_cast<int>(EsaPriority::TimeSource::REMAINING),
                                          "remaining",
                                          static_cast<int>(EsaPriority::TimeSource::ATTAINED),
                                          "attained",
                                          static_cast<int>(EsaPriority::TimeSource::FIXED),
                                          "fixed"))
            .AddAttribute("PriorityScale",
                          "S of the 8-bit packing, priority = clamp(round(S P), 1, 255) with P "
                          "in 1/s; every job of a scenario should use the same.",
                          TimeValue(MilliSeconds(64)),
                          MakeTimeAccessor(&EsaProtocol::m_scale),
                          MakeTimeChecker())
            .AddAttribute("FixedTime",
                          "T_j when PriorityTimeSource is fixed.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&EsaProtocol::m_fixedTime),
                          MakeTimeChecker())
            .AddAttribute("Layers",
                          "L_j, the model's layers; overrides the job's model (0: the model's, "
                          "or 1 when the context has no model).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EsaProtocol::m_layers),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TensorLayers",
                          "The layer (1 = the front) of each tensor the worker hands in an "
                          "iteration, in order, comma-separated (with SendOrder backward the "
                          "paper's two layers of two partitions are '2,2,1,1'); tensors beyond "
                          "the list take its last entry; overrides the job's model. Empty: the "
                          "front-most layer of each piece of the model, or 1 without a model.",
                          StringValue(""),
                          MakeStringAccessor(&EsaProtocol::m_tensorLayers),
                          MakeStringChecker())
            .AddAttribute("CommCompRatio",
                          "Comm_j / Comp_j of the priority (the paper's DNN A: 2, DNN B: 0.5); "
                          "overrides the job's model. 0: one iteration's bytes at the workers' "
                          "line rate over its computation, or 1 without a model (or computation).",
                          DoubleValue(0),
                          MakeDoubleAccessor(&EsaProtocol::m_ratio),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("DupAckThreshold",
                          "Results of later fragments a worker (or arrivals a parameter server) "
                          "must see while the expected one is missing before it sends a reminder "
                          "(the paper: 3; 0: never).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&EsaProtocol::m_dupAckThreshold),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RtoMin",
                          "Floor of the workers' and parameter servers' TCP-style reminder "
                          "timeouts (the paper: 1 ms).",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&EsaProtocol::m_rtoMin),
                          MakeTimeChecker())
            .AddAttribute("RtoMax",
                          "Ceiling of the reminder timeouts and of their back-off.",
                          TimeValue(MilliSeconds(64)),
                          MakeTimeAccessor(&EsaProtocol::m_rtoMax),
                          MakeTimeChecker())
            .AddAttribute(
                "IndexHash",
                "The aggregator of a fragment: slot (ATP's hash, which the paper's Section 5.1 "
                "says ESA uses: CRC32 of the job id and the fragment's window slot, salted until "
                "the job's slots are distinct, so a job never collides with itself) or fragment "
                "(CRC32 of job id and sequence number modulo the hash range: fragments of one "
                "job in flight together can collide).",
                EnumValue(EsaProtocol::SLOT),
                MakeEnumAccessor(&EsaProtocol::m_hash),
                MakeEnumChecker(EsaProtocol::FRAGMENT, "fragment", EsaProtocol::SLOT, "slot"));
    return tid;
}

EsaProtocol::EsaProtocol()
    : PoolProtocol(ESA_PROTOCOL, "esa")
{
}

EsaProtocol::~EsaProtocol() = default;

void
EsaProtocol::DoDispose()
{
    m_esaAgents.clear();
    m_profile.reset();
    PoolProtocol::DoDispose();
}

Ptr<PoolProgram>
EsaProtocol::CreateProgram() const
{
    ObjectFactory f = ProgramFactory("ns3::EsaProgram");
    f.Set("Preemption", EnumValue(m_mode));
    f.Set("PreemptProbability", DoubleValue(m_probability));
    f.Set("CoinSeed", UintegerValue(GetContext().seed));
    return f.Create<EsaProgram>();
}

Ptr<PoolParameterServer>
EsaProtocol::CreateServer() const
{
    return CreateObject<EsaParameterServer>();
}

Ptr<PoolAgent>
EsaProtocol::CreatePoolAgent() const
{
    Ptr<EsaAgent> a = CreateObject<EsaAgent>();
    m_esaAgents.push_back(a);
    return a;
}

void
EsaProtocol::CheckEsa()
{
    auto fail = [this](const std::string& what) {
        Fail(what);
    };
    if (!m_scale.IsStrictlyPositive())
    {
        fail("attribute PriorityScale must be a positive time (such as 64ms)");
    }
    if (GetTimeSource() == EsaPriority::TimeSource::FIXED && !m_fixedTime.IsStrictlyPositive())
    {
        fail("attribute FixedTime must be a positive time when PriorityTimeSource is fixed");
    }
    if (!m_rtoMin.IsStrictlyPositive() || m_rtoMax < m_rtoMin)
    {
        fail("attributes RtoMin and RtoMax must satisfy 0 < RtoMin <= RtoMax");
    }
    if (!std::isfinite(m_ratio))
    {
        fail("attribute CommCompRatio must be a finite number (0: not known)");
    }
    const JobContext& ctx = GetContext();
    m_profile.reset();
    m_profileRatio = 0;
    if (ctx.model && ctx.iterations > 0)
    {
        try
        {
            m_profile = std::make_unique<EsaJobProfile>(EsaJobProfile::FromContext(ctx));
        }
        catch (const std::invalid_argument& e)
        {
            fail(std::string("cannot derive the priority's inputs from the job's workload: ") +
                 e.what());
        }
        const double rate = WorkerApp::PlanRateBps(ctx);
        if (rate > 0 && m_profile->GetIterationComputePs() > 0)
        {
            m_profileRatio = m_profile->CommCompRatio(rate);
        }
    }
    ReadTensorLayers();
}

void
EsaProtocol::ReadTensorLayers()
{
    m_pieceLayers.clear();
    const std::vector<std::string> items = JobAttributeList("TensorLayers", m_tensorLayers);
    for (const std::string& item : items)
    {
        if (item.find_first_not_of("0123456789") != std::string::npos || item.size() > 9)
        {
            Fail("attribute TensorLayers is '" + m_tensorLayers +
                 "'; expected layer numbers separated by commas, such as '2,2,1,1'");
        }
        const auto l = static_cast<uint32_t>(std::stoul(item));
        if (l == 0 || l > GetLayers())
        {
            Fail("attribute TensorLayers names layer " + std::to_string(l) + " but Layers is " +
                 std::to_string(GetLayers()) +
                 (m_layers == 0 ? (m_profile ? " (the model's)" : " (no model known)") : "") +
                 "; every entry must be 1.." + std::to_string(GetLayers()) +
                 " (set Layers to the model's layers)");
        }
        m_pieceLayers.push_back(l);
    }
    if (m_pieceLayers.empty() && m_profile && m_layers != 0)
    {
        for (const EsaJobProfile::Piece& p : m_profile->GetPieces())
        {
            if (p.layer > m_layers)
            {
                Fail("attribute Layers is " + std::to_string(m_layers) + " but the model '" +
                     GetContext().model->name + "' hands a piece of layer " +
                     std::to_string(p.layer) + "; give Layers at least " +
                     std::to_string(m_profile->GetLayers()) + " or TensorLayers too");
            }
        }
    }
}

void
EsaProtocol::DoInstall()
{
    CheckEsa();
    PoolProtocol::DoInstall();
    m_range = GetHashRange();
    ConfigureEsa();
}

Ptr<EsaProgram>
EsaProtocol::ProgramAt(uint32_t node) const
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
    for (const SwitchEntry& e : GetSwitches())
    {
        if (e.node == node)
        {
            Ptr<EsaProgram> p = DynamicCast<EsaProgram>(e.program);
            if (!p)
            {
                Fail("switch " + topo.GetNode(node).name + " runs a program that is not ESA's");
            }
            return p;
        }
    }
    Fail("switch " + topo.GetNode(node).name + " aggregates for the job but runs no program");
}

void
EsaProtocol::ConfigureEsa()
{
    const InaTopology& topo = GetContext().fabric->GetTopology();
    for (const SwitchEntry& e : GetSwitches())
    {
        Ptr<EsaProgram> p = ProgramAt(e.node);
        if (p->GetPreemptionMode() != GetPreemptionMode() ||
            (GetPreemptionMode() == EsaPreemptionMode::RANDOM &&
             p->GetPreemptProbability() != m_probability))
        {
            Fail("switch " + topo.GetNode(e.node).name +
                 " already runs ESA with another Preemption policy (installed by another job); "
                 "ESA jobs that share a switch must agree on Preemption and PreemptProbability");
        }
    }
    for (const Tree& t : GetTrees())
    {
        ConfigureTree(t);
    }
}

void
EsaProtocol::ConfigureTree(const Tree& t)
{
    const JobContext& ctx = GetContext();
    const uint32_t n = ctx.workerHosts.size();
    EsaProgram::JobRoute route;
    route.ps = t.psHost;
    route.resultGroup = t.resultGroup;
    route.endpoint = GetEndpoint();
    route.psFlowId = ctx.flowIdBase + t.psIndex;
    route.resultFlowId = ctx.flowIdBase + n + t.psIndex;
    EsaParameterServer::EsaConfig c;
    for (const Group& g : t.groups)
    {
        if (!g.aggregates)
        {
            continue;
        }
        route.top = !t.level2;
        ProgramAt(g.rack)->SetJobRoute(ctx.jobId, t.psIndex, route);
        c.switches.push_back(g.rack);
    }
    if (t.level2)
    {
        route.top = true;
        ProgramAt(t.psRack)->SetJobRoute(ctx.jobId, t.psIndex, route);
        c.switches.push_back(t.psRack);
    }
    Ptr<EsaParameterServer> server = DynamicCast<EsaParameterServer>(t.server);
    if (!server)
    {
        Fail("its parameter server is not ESA's");
    }
    c.workers.assign(ctx.workerHosts.begin(), ctx.workerHosts.end());
    c.indexOf = MakeCallback(&EsaProtocol::IndexOf, this);
    c.controlFlowId = ctx.flowIdBase + n + t.psIndex;
    c.rtoMinPs = m_rtoMin.GetTimeStep();
    c.rtoMaxPs = m_rtoMax.GetTimeStep();
    c.dupAckThreshold = m_dupAckThreshold;
    if (c.switches.empty())
    {
        // One worker and nothing to aggregate: the server never needs to remind.
        c.switches.push_back(t.psRack);
    }
    try
    {
        server->SetEsaConfig(c);
    }
    catch (const std::invalid_argument& e)
    {
        Fail(e.what());
    }
}

uint16_t
EsaProtocol::IndexOf(uint64_t seq) const
{
    if (m_hash == SLOT)
    {
        const std::vector<uint16_t>& table = GetIndexTable();
        return table[(seq - 1) % table.size()];
    }
    uint8_t bytes[12];
    const uint32_t job = GetContext().jobId;
    for (int b = 0; b < 4; ++b)
    {
        bytes[b] = static_cast<uint8_t>(job >> (8 * b));
    }
    for (int b = 0; b < 8; ++b)
    {
        bytes[4 + b] = static_cast<uint8_t>(seq >> (8 * b));
    }
    return static_cast<uint16_t>(Crc32(bytes, sizeof(bytes)) % m_range);
}

uint32_t
EsaProtocol::LayerOf(uint32_t piece) const
{
    if (!m_pieceLayers.empty())
    {
        return m_pieceLayers[std::min<size_t>(piece, m_pieceLayers.size() - 1)];
    }
    if (m_profile)
    {
        const std::vector<EsaJobProfile::Piece>& pieces = m_profile->GetPieces();
        return pieces[std::min<size_t>(piece, pieces.size() - 1)].layer;
    }
    return 1;
}

uint32_t
EsaProtocol::GetLayers() const
{
    if (m_layers != 0)
    {
        return m_layers;
    }
    return m_profile ? m_profile->GetLayers() : 1;
}

double
EsaProtocol::GetCommCompRatio() const
{
    if (m_ratio > 0)
    {
        return m_ratio;
    }
    return m_profileRatio > 0 ? m_profileRatio : 1.0;
}

const EsaJobProfile*
EsaProtocol::GetProfile() const
{
    return m_profile.get();
}

EsaPriority::TimeSource
EsaProtocol::GetTimeSource() const
{
    return static_cast<EsaPriority::TimeSource>(m_source);
}

double
EsaProtocol::GetPriorityScale() const
{
    return m_scale.GetSeconds();
}

double
EsaProtocol::GetFixedTime() const
{
    return m_fixedTime.GetSeconds();
}

uint32_t
EsaProtocol::GetDupAckThreshold() const
{
    return m_dupAckThreshold;
}

Time
EsaProtocol::GetRtoMin() const
{
    return m_rtoMin;
}

Time
EsaProtocol::GetRtoMax() const
{
    return m_rtoMax;
}

EsaPreemptionMode
EsaProtocol::GetPreemptionMode() const
{
    return static_cast<EsaPreemptionMode>(m_mode);
}

std::map<std::string, double>
EsaProtocol::GetCounters() const
{
    std::map<std::string, double> c = PoolProtocol::GetCounters();
    using S = EsaParameterServer::EsaCounters;
    static const std::vector<CounterField<S>> SERVER = {
        {"ps_reminders", &S::reminders},
        {"ps_timeout_reminder_rounds", &S::timeoutReminders},
        {"ps_dupack_reminder_rounds", &S::dupAckReminders},
        {"ps_flush_answers", &S::flushAnswers},
        {"ps_flush_misses", &S::flushMisses},
        {"ps_worker_reminders", &S::workerReminders},
        {"ps_pulls", &S::pulls},
        {"ps_contributions", &S::contributions},
        {"ps_cached_results", &S::cachedResults},
        {"ps_results_resent", &S::resultsResent},
        {"ps_late_after_complete", &S::lateAfterComplete},
    };
    SumCounters(c, SERVER, GetTrees(), [](const Tree& t) -> const S* {
        Ptr<EsaParameterServer> s = DynamicCast<EsaParameterServer>(t.server);
        return s ? &s->GetEsaCounters() : nullptr;
    });
    using A = EsaAgent::EsaCounters;
    static const std::vector<CounterField<A>> AGENT = {
        {"worker_timeout_reminders", &A::timeoutReminders},
        {"worker_dupack_reminders", &A::dupAckReminders},
        {"worker_pulls_ignored", &A::pullsIgnored},
        {"worker_stall_reminders", &A::stallReminders},
        {"worker_ahead_reminders", &A::aheadReminders},
        {"worker_sends_skipped", &A::sendsSkipped},
        {"priority_clamped_low", &A::clampedLow},
        {"priority_clamped_high", &A::clampedHigh},
    };
    SumCounters(c, AGENT, m_esaAgents, [](const Ptr<EsaAgent>& a) {
        return &a->GetEsaCounters();
    });
    return c;
}

} // namespace ns3
