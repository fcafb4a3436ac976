/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-flow-app.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ina-split-mix.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaFlowApp");
NS_OBJECT_ENSURE_REGISTERED(InaFlowApp);

namespace
{
constexpr uint32_t FIRST_HOST = std::numeric_limits<uint32_t>::max();

/// Uniform in [0, n): rejection keeps it unbiased, and unlike std::uniform_int_distribution the
/// result is the same with every standard library.
uint64_t
Below(std::mt19937_64& rng, uint64_t n)
{
    const uint64_t limit =
        std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
    uint64_t x = rng();
    while (x >= limit)
    {
        x = rng();
    }
    return x % n;
}

std::string
FormatSeconds(int64_t ps)
{
    std::ostringstream os;
    os << ps / 1000000000000LL << '.' << std::setw(12) << std::setfill('0') << ps % 1000000000000LL;
    return os.str();
}

/// The hosts the traffic runs between: `listed` (each once and on the fabric), or every host of
/// the fabric if none is listed.
std::vector<uint32_t>
CheckedHosts(const std::vector<uint32_t>& listed, uint32_t nHosts)
{
    std::vector<uint32_t> hosts = listed;
    if (hosts.empty())
    {
        for (uint32_t h = 0; h < nHosts; ++h)
        {
            hosts.push_back(h);
        }
    }
    std::vector<bool> seen(nHosts, false);
    for (uint32_t h : hosts)
    {
        if (h >= nHosts)
        {
            throw std::invalid_argument("InaFlowApp: hosts lists host " + std::to_string(h) +
                                        ", but the fabric has hosts 0.." +
                                        std::to_string(nHosts - 1));
        }
        if (seen[h])
        {
            throw std::invalid_argument("InaFlowApp: hosts lists host " + std::to_string(h) +
                                        " twice");
        }
        seen[h] = true;
    }
    return hosts;
}

/// The sum over `flows` of what `of` reads from each (the app's totals of per-flow counts).
template<typename Flows, typename Of>
uint64_t
SumOverFlows(const Flows& flows, Of of)
{
    uint64_t n = 0;
    for (const auto& f : flows)
    {
        n += of(f);
    }
    return n;
}
} // namespace

TypeId
InaFlowApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaFlowApp")
            .SetParent<Object>()
            .SetGroupName("InaFabric")
            .AddConstructor<InaFlowApp>()
            .AddAttribute("Pattern",
                          "Who sends to whom: permutation (a random derangement), incast (all to "
                          "IncastDestination) or all-to-all (every ordered pair).",
                          EnumValue(PERMUTATION),
                          MakeEnumAccessor(&InaFlowApp::m_pattern),
                          MakeEnumChecker(PERMUTATION,
                                          "permutation",
                                          INCAST,
                                          "incast",
                                          ALL_TO_ALL,
                                          "all-to-all"))
            .AddAttribute("FlowBytes",
                          "Size of every flow in bytes.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&InaFlowApp::m_flowBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Start",
                          "When every flow starts.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&InaFlowApp::m_start),
                          MakeTimeChecker())
            .AddAttribute("Seed",
                          "Seed of the permutation's derangement and of the carried values.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaFlowApp::m_seed),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("IncastDestination",
                          "Host index every incast flow goes to; 4294967295 (the default) means "
                          "the first chosen host.",
                          UintegerValue(FIRST_HOST),
                          MakeUintegerAccessor(&InaFlowApp::m_incastDst),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FirstFlowId",
                          "Flow id of the first flow; the others follow consecutively. Keep the "
                          "ranges of different applications and jobs apart.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&InaFlowApp::m_firstFlowId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("JobId",
                          "InaPacket::jobId of the flows' packets (0: plain traffic).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&InaFlowApp::m_jobId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("CheckValues",
                          "Carry real 32-bit words in every flow and compare what arrives with "
                          "what was sent (FlowBytes must be a multiple of 4).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&InaFlowApp::m_checkValues),
                          MakeBooleanChecker());
    return tid;
}

InaFlowApp::InaFlowApp()
{
    m_senderFactory.SetTypeId(InaTransportSender::GetTypeId());
    m_receiverFactory.SetTypeId(InaTransportReceiver::GetTypeId());
}

InaFlowApp::~InaFlowApp() = default;

void
InaFlowApp::DoDispose()
{
    m_startEvent.Cancel();
    for (Flow& f : m_flows)
    {
        f.sender->Dispose();
        f.receiver->Dispose();
    }
    m_flows.clear();
    m_fabric = nullptr;
    Object::DoDispose();
}

void
InaFlowApp::SetHosts(const std::vector<uint32_t>& hosts)
{
    m_hosts = hosts;
}

void
InaFlowApp::SetSenderAttribute(const std::string& name, const AttributeValue& value)
{
    m_senderFactory.Set(name, value);
}

void
InaFlowApp::SetReceiverAttribute(const std::string& name, const AttributeValue& value)
{
    m_receiverFactory.Set(name, value);
}

std::string
InaFlowApp::PatternName(Pattern pattern)
{
    switch (pattern)
    {
    case PERMUTATION:
        return "permutation";
    case INCAST:
        return "incast";
    case ALL_TO_ALL:
        return "all-to-all";
    }
    return "unknown";
}

std::vector<uint32_t>
InaFlowApp::Derangement(uint32_t n, uint64_t seed)
{
    if (n < 2)
    {
        throw std::invalid_argument("InaFlowApp: a permutation needs at least 2 hosts (none may "
                                    "send to itself), got " +
                                    std::to_string(n));
    }
    std::mt19937_64 rng(seed);
    std::vector<uint32_t> d(n);
    while (true)
    {
        for (uint32_t i = 0; i < n; ++i)
        {
            d[i] = i;
        }
        for (uint32_t i = n - 1; i > 0; --i)
        {
            std::swap(d[i], d[Below(rng, i + 1)]);
        }
        bool fixedPoint = false;
        for (uint32_t i = 0; i < n && !fixedPoint; ++i)
        {
            fixedPoint = d[i] == i;
        }
        if (!fixedPoint)
        {
            return d; // about 1/e of shuffles qualify, and rejecting keeps derangements uniform
        }
    }
}

std::vector<std::pair<uint32_t, uint32_t>>
InaFlowApp::MakeFlowPairs(Pattern pattern,
                          const std::vector<uint32_t>& hosts,
                          uint64_t seed,
                          uint32_t incastDst)
{
    const uint32_t n = hosts.size();
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    switch (pattern)
    {
    case PERMUTATION: {
        std::vector<uint32_t> d = Derangement(n, seed);
        for (uint32_t i = 0; i < n; ++i)
        {
            pairs.emplace_back(hosts[i], hosts[d[i]]);
        }
        break;
    }
    case INCAST:
        for (uint32_t h : hosts)
        {
            if (h != incastDst)
            {
                pairs.emplace_back(h, incastDst);
            }
        }
        if (pairs.empty())
        {
            throw std::invalid_argument("InaFlowApp: incast into host " +
                                        std::to_string(incastDst) +
                                        " has no sender (Hosts must list another host)");
        }
        break;
    case ALL_TO_ALL:
        if (n < 2)
        {
            throw std::invalid_argument("InaFlowApp: all-to-all needs at least 2 hosts, got " +
                                        std::to_string(n));
        }
        for (uint32_t s : hosts)
        {
            for (uint32_t t : hosts)
            {
                if (s != t)
                {
                    pairs.emplace_back(s, t);
                }
            }
        }
        break;
    }
    return pairs;
}

int64_t
InaFlowApp::NearestRankPercentile(std::vector<int64_t> values, uint32_t p)
{
    if (values.empty())
    {
        throw std::invalid_argument("InaFlowApp: percentile of no values");
    }
    if (p == 0 || p > 100)
    {
        throw std::invalid_argument("InaFlowApp: percentile must be in 1..100, got " +
                                    std::to_string(p));
    }
    std::sort(values.begin(), values.end());
    const uint64_t rank = (static_cast<uint64_t>(p) * values.size() + 99) / 100;
    return values[rank - 1];
}

void
InaFlowApp::Install(Ptr<InaFabric> fabric)
{
    if (m_installed)
    {
        throw std::invalid_argument("InaFlowApp: Install called twice");
    }
    if (!fabric)
    {
        throw std::invalid_argument("InaFlowApp: Install needs a fabric, got null");
    }
    const uint32_t nHosts = fabric->GetNHosts();
    const std::vector<uint32_t> hosts = CheckedHosts(m_hosts, nHosts);
    if (m_checkValues && m_flowBytes % 4 != 0)
    {
        throw std::invalid_argument("InaFlowApp: CheckValues carries 32-bit words, so FlowBytes "
                                    "must be a multiple of 4, got " +
                                    std::to_string(m_flowBytes));
    }
    if (m_start < Simulator::Now())
    {
        throw std::invalid_argument("InaFlowApp: Start (" + std::to_string(m_start.GetSeconds()) +
                                    " s) is before the current time (" +
                                    std::to_string(Simulator::Now().GetSeconds()) + " s)");
    }
    const uint32_t incastDst = m_incastDst == FIRST_HOST ? hosts.at(0) : m_incastDst;
    if (m_pattern == INCAST && incastDst >= nHosts)
    {
        throw std::invalid_argument("InaFlowApp: IncastDestination is host " +
                                    std::to_string(incastDst) + ", but the fabric has hosts 0.." +
                                    std::to_string(nHosts - 1));
    }
    const auto pairs = MakeFlowPairs(m_pattern, hosts, m_seed, incastDst);
    if (static_cast<uint64_t>(m_firstFlowId) + pairs.size() - 1 >
        std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument("InaFlowApp: " + std::to_string(pairs.size()) +
                                    " flows from FirstFlowId " + std::to_string(m_firstFlowId) +
                                    " overflow 32-bit flow ids");
    }

    m_installed = true;
    m_fabric = fabric;
    m_flows.reserve(pairs.size());
    for (uint32_t k = 0; k < pairs.size(); ++k)
    {
        Flow f;
        f.flowId = m_firstFlowId + k;
        f.src = pairs[k].first;
        f.dst = pairs[k].second;
        Ptr<InaHost> srcHost = fabric->GetHost(f.src);
        Ptr<InaHost> dstHost = fabric->GetHost(f.dst);
        f.receiver = m_receiverFactory.Create<InaTransportReceiver>();
        const uint16_t rxPort = dstHost->AllocateEndpoint();
        f.receiver->Listen(dstHost, rxPort, f.flowId);
        f.sender = m_senderFactory.Create<InaTransportSender>();
        f.sender->Connect(srcHost,
                          srcHost->AllocateEndpoint(),
                          dstHost->GetAddress(),
                          rxPort,
                          f.flowId,
                          m_jobId);
        f.sender->SetMessageAckedCallback(MakeBoundCallback(&InaFlowApp::AckedThunk, this, k));
        f.receiver->SetMessageReceivedCallback(
            MakeBoundCallback(&InaFlowApp::ReceivedThunk, this, k));
        m_flows.push_back(f);
    }
    m_startEvent = Simulator::Schedule(m_start - Simulator::Now(), &InaFlowApp::StartFlows, this);
}

void
InaFlowApp::AckedThunk(InaFlowApp* self, uint32_t flow, uint32_t /* message */)
{
    self->OnAcked(flow);
}

void
InaFlowApp::ReceivedThunk(InaFlowApp* self,
                          uint32_t flow,
                          uint32_t /* message */,
                          uint64_t /* bytes */,
                          std::vector<uint32_t>& values)
{
    self->OnReceived(flow, values);
}

uint32_t
InaFlowApp::ValueWord(uint32_t flowId, uint64_t index) const
{
    return static_cast<uint32_t>(InaSplitMix64(InaSplitMix64(m_seed ^ flowId) + index));
}

void
InaFlowApp::StartFlows()
{
    const int64_t now = Simulator::Now().GetTimeStep();
    for (Flow& f : m_flows)
    {
        f.startPs = now;
        std::vector<uint32_t> values;
        if (m_checkValues)
        {
            values.resize(m_flowBytes / 4);
            for (uint64_t i = 0; i < values.size(); ++i)
            {
                values[i] = ValueWord(f.flowId, i);
            }
        }
        f.sender->SendMessage(m_flowBytes, std::move(values));
    }
}

void
InaFlowApp::OnAcked(uint32_t flow)
{
    m_flows[flow].finishPs = Simulator::Now().GetTimeStep();
}

void
InaFlowApp::OnReceived(uint32_t flow, std::vector<uint32_t>& values)
{
    Flow& f = m_flows[flow];
    f.receiverFinishPs = Simulator::Now().GetTimeStep();
    if (!m_checkValues)
    {
        return;
    }
    const uint64_t expected = m_flowBytes / 4;
    const uint64_t n = std::min<uint64_t>(expected, values.size());
    for (uint64_t i = 0; i < n; ++i)
    {
        f.valueErrors += values[i] != ValueWord(f.flowId, i);
    }
    f.valuesChecked += n;
    f.valueErrors += (expected > values.size() ? expected - values.size() : 0);
}

uint32_t
InaFlowApp::GetNFlows() const
{
    return m_flows.size();
}

uint32_t
InaFlowApp::GetNCompleted() const
{
    uint32_t n = 0;
    for (const Flow& f : m_flows)
    {
        n += f.finishPs >= 0;
    }
    return n;
}

std::vector<InaFlowApp::FlowRecord>
InaFlowApp::GetFlowRecords() const
{
    std::vector<FlowRecord> records;
    records.reserve(m_flows.size());
    for (const Flow& f : m_flows)
    {
        FlowRecord r;
        r.flowId = f.flowId;
        r.src = f.src;
        r.dst = f.dst;
        r.bytes = m_flowBytes;
        r.start = TimeStep(std::max<int64_t>(f.startPs, 0));
        r.completed = f.finishPs >= 0;
        r.finish = TimeStep(r.completed ? f.finishPs : 0);
        r.fct = TimeStep(r.completed ? f.finishPs - f.startPs : 0);
        r.received = f.receiverFinishPs >= 0;
        r.receiverFinish = TimeStep(r.received ? f.receiverFinishPs : 0);
        const InaTransportSender::Stats& s = f.sender->GetStats();
        r.retransmissions = s.retransmissions;
        r.timeouts = s.timeouts;
        r.ecnReductions = s.ecnReductions;
        r.valueErrors = f.valueErrors;
        r.failed = f.sender->IsFailed();
        records.push_back(r);
    }
    return records;
}

std::vector<int64_t>
InaFlowApp::CompletedFcts() const
{
    std::vector<int64_t> fcts;
    for (const Flow& f : m_flows)
    {
        if (f.finishPs >= 0)
        {
            fcts.push_back(f.finishPs - f.startPs);
        }
    }
    return fcts;
}

Time
InaFlowApp::GetMeanFct() const
{
    std::vector<int64_t> fcts = CompletedFcts();
    if (fcts.empty())
    {
        return TimeStep(0);
    }
    int64_t sum = 0;
    for (int64_t v : fcts)
    {
        sum += v;
    }
    return TimeStep(sum / static_cast<int64_t>(fcts.size()));
}

Time
InaFlowApp::GetP99Fct() const
{
    std::vector<int64_t> fcts = CompletedFcts();
    return TimeStep(fcts.empty() ? 0 : NearestRankPercentile(std::move(fcts), 99));
}

uint64_t
InaFlowApp::GetRetransmissions() const
{
    return SumOverFlows(m_flows, [](const Flow& f) {
        return f.sender->GetStats().retransmissions;
    });
}

uint64_t
InaFlowApp::GetValuesChecked() const
{
    return SumOverFlows(m_flows, [](const Flow& f) {
        return f.valuesChecked;
    });
}

uint64_t
InaFlowApp::GetValueErrors() const
{
    return SumOverFlows(m_flows, [](const Flow& f) {
        return f.valueErrors;
    });
}

Ptr<InaTransportSender>
InaFlowApp::GetSender(uint32_t flow) const
{
    return m_flows.at(flow).sender;
}

Ptr<InaTransportReceiver>
InaFlowApp::GetReceiver(uint32_t flow) const
{
    return m_flows.at(flow).receiver;
}

void
InaFlowApp::WriteFlowsCsv(std::ostream& os) const
{
    os << "flow_id,src,dst,bytes,start_s,finish_s,fct_s,completed,receiver_finish_s,"
          "retransmissions,timeouts,ecn_reductions,value_errors,failed\n";
    for (const FlowRecord& r : GetFlowRecords())
    {
        os << r.flowId << ',' << r.src << ',' << r.dst << ',' << r.bytes << ','
           << FormatSeconds(r.start.GetTimeStep()) << ','
           << (r.completed ? FormatSeconds(r.finish.GetTimeStep()) : "") << ','
           << (r.completed ? FormatSeconds(r.fct.GetTimeStep()) : "") << ','
           << (r.completed ? "true" : "false") << ','
           << (r.received ? FormatSeconds(r.receiverFinish.GetTimeStep()) : "") << ','
           << r.retransmissions << ',' << r.timeouts << ',' << r.ecnReductions << ','
           << r.valueErrors << ',' << (r.failed ? "true" : "false") << '\n';
    }
}

} // namespace ns3
