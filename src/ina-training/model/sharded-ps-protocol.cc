/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sharded-ps-protocol.h"

#include "aggregation-protocol-registry.h"
#include "job-attribute-error.h"
#include "ps-flow-pair.h"
#include "sharded-ps-agent.h"
#include "worker-app.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/ina-split-mix.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ShardedPsProtocol");
NS_OBJECT_ENSURE_REGISTERED(ShardedPsProtocol);

static AggregationProtocolRegistry::Registrar g_psProtocol(
    "ps",
    "ns3::ShardedPsProtocol",
    "sharded parameter servers (push shards, servers sum, pull results) over the reliable "
    "transport; no in-network aggregation");

TypeId
ShardedPsProtocol::GetTypeId()
{
    static TypeId tid = HostTransportSettings::AddAttributes(
        TypeId("ns3::ShardedPsProtocol")
            .SetParent<AggregationProtocol>()
            .SetGroupName("InaTraining")
            .AddConstructor<ShardedPsProtocol>()
            .AddAttribute("ShardBytes",
                          "Tensors are cut into shards of this many bytes (a multiple of 4; the "
                          "last shard shorter), each summed by the server its key maps to.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&ShardedPsProtocol::m_shardBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Placement",
                          "Which server owns a shard: hash (of tensor id and shard index) or "
                          "round-robin (consecutive shards on consecutive servers).",
                          EnumValue(HASH),
                          MakeEnumAccessor(&ShardedPsProtocol::m_placement),
                          MakeEnumChecker(HASH, "hash", ROUND_ROBIN, "round-robin")),
        &ShardedPsProtocol::m_host,
        "the push and pull flows");
    return tid;
}

void
ShardedPsProtocol::DoDispose()
{
    for (auto& flows : m_workerPush)
    {
        for (auto& tx : flows)
        {
            if (tx) // null when Install failed half-way
            {
                tx->Dispose();
            }
        }
    }
    for (auto& flows : m_workerPull)
    {
        for (auto& rx : flows)
        {
            if (rx)
            {
                rx->Dispose();
            }
        }
    }
    m_workerPush.clear();
    m_workerPull.clear();
    m_servers.clear(); // disposed with their nodes
    AggregationProtocol::DoDispose();
}

uint32_t
ShardedPsProtocol::ServerOf(uint64_t tensorId,
                            uint32_t shard,
                            uint32_t servers,
                            Placement placement)
{
    if (placement == ROUND_ROBIN)
    {
        return static_cast<uint32_t>((InaSplitMix64(tensorId) + shard) % servers);
    }
    return static_cast<uint32_t>(InaSplitMix64(InaSplitMix64(tensorId) + shard) % servers);
}

namespace
{

/// Throws the set-up error `what` of job `ctx`.
[[noreturn]] void
Fail(const JobContext& ctx, const std::string& what)
{
    throw std::runtime_error("job '" + ctx.name + "' (protocol ps): " + what);
}

/// Checks that `ctx` names a fabric, its workers and servers on its hosts, and flow ids enough for
/// a push and a pull flow per worker and server; and that shardBytes holds whole values.
void
CheckJob(const JobContext& ctx, uint64_t shardBytes)
{
    if (!ctx.fabric)
    {
        Fail(ctx, "the job context has no fabric");
    }
    const uint32_t n = ctx.workerHosts.size();
    const uint32_t s = ctx.psHosts.size();
    if (n == 0)
    {
        Fail(ctx, "needs at least one worker, got none");
    }
    if (s == 0)
    {
        Fail(ctx, "needs at least one parameter server (ps_hosts), got none");
    }
    const uint32_t hosts = ctx.fabric->GetNHosts();
    auto checkHost = [&](const char* what, uint32_t i, uint32_t h) {
        if (h >= hosts)
        {
            Fail(ctx,
                 std::string(what) + " " + std::to_string(i) + " is on host " + std::to_string(h) +
                     ", but the fabric has hosts 0.." + std::to_string(hosts - 1));
        }
    };
    for (uint32_t w = 0; w < n; ++w)
    {
        checkHost("worker", w, ctx.workerHosts[w]);
    }
    for (uint32_t p = 0; p < s; ++p)
    {
        checkHost("parameter server", p, ctx.psHosts[p]);
    }
    if (shardBytes == 0 || shardBytes % 4 != 0)
    {
        Fail(ctx,
             "ShardBytes must be a positive multiple of 4 (whole 32-bit values), got " +
                 std::to_string(shardBytes));
    }
    if (2ULL * n * s > JobContext::FLOW_IDS_PER_JOB)
    {
        Fail(ctx,
             std::to_string(n) + " workers x " + std::to_string(s) + " servers need " +
                 std::to_string(2ULL * n * s) + " flow ids, more than a job has (" +
                 std::to_string(JobContext::FLOW_IDS_PER_JOB) + ")");
    }
}

/// Checks that no piece a worker will hand over makes more shards than the agent numbers (32
/// bits), so that a ShardBytes too small for the workload is refused at install, naming the key,
/// rather than when the piece is handed over mid-run.
void
CheckShardCount(const JobContext& ctx, uint64_t shardBytes)
{
    if (!ctx.model)
    {
        return;
    }
    uint64_t largest = 0;
    for (const WorkerApp::Piece& piece : WorkerApp::PlanIteration(ctx))
    {
        largest = std::max(largest, piece.bytes);
    }
    const uint64_t shards = largest / shardBytes + (largest % shardBytes != 0);
    if (shards > std::numeric_limits<uint32_t>::max())
    {
        throw JobAttributeError("ShardBytes",
                                std::to_string(shardBytes) + " B shards cut the largest piece of " +
                                    std::to_string(largest) + " B into " + std::to_string(shards) +
                                    " shards; a tensor has at most 2^32 - 1 shards; use larger "
                                    "shards");
    }
}

} // namespace

void
ShardedPsProtocol::DoInstall()
{
    const JobContext& ctx = GetContext();
    CheckJob(ctx, m_shardBytes);
    CheckShardCount(ctx, m_shardBytes);
    const uint32_t n = ctx.workerHosts.size();
    const uint32_t s = ctx.psHosts.size();
    ObjectFactory senderFactory;
    ObjectFactory receiverFactory;
    m_host.MakeFactories(GetMaxTimeouts(), senderFactory, receiverFactory);
    m_workerPush.assign(n, std::vector<Ptr<InaTransportSender>>(s));
    m_workerPull.assign(n, std::vector<Ptr<InaTransportReceiver>>(s));
    for (uint32_t p = 0; p < s; ++p)
    {
        Ptr<InaHost> server = ctx.fabric->GetHost(ctx.psHosts[p]);
        std::vector<Ptr<InaTransportReceiver>> pushRx(n);
        std::vector<Ptr<InaTransportSender>> pullTx(n);
        for (uint32_t w = 0; w < n; ++w)
        {
            Ptr<InaHost> worker = ctx.fabric->GetHost(ctx.workerHosts[w]);
            PsFlowPair f;
            try
            {
                f = PsFlowPair::Open(worker,
                                     server,
                                     ctx.flowIdBase + 2 * (w * s + p),
                                     ctx.jobId,
                                     senderFactory,
                                     receiverFactory);
            }
            catch (const std::invalid_argument& e)
            {
                Fail(ctx, e.what());
            }
            pushRx[w] = f.pushRx;
            m_workerPull[w][p] = f.pullRx;
            m_workerPush[w][p] = f.push;
            pullTx[w] = f.pull;
        }
        Ptr<ParameterServerApp> app = CreateObject<ParameterServerApp>();
        app->Setup("job '" + ctx.name + "' server " + std::to_string(p) + " (host " +
                       std::to_string(ctx.psHosts[p]) + ")",
                   ctx.checkValues,
                   std::move(pushRx),
                   std::move(pullTx));
        ctx.fabric->GetNodes().Get(ctx.psHosts[p])->AddApplication(app);
        m_servers.push_back(app);
    }
    m_agentCreated.assign(n, false);
}

Ptr<AggregationAgent>
ShardedPsProtocol::DoCreateAgent(uint32_t rank)
{
    NS_ABORT_MSG_IF(m_agentCreated.at(rank),
                    "ShardedPsProtocol (job " << GetContext().name << "): agent of rank " << rank
                                              << " created twice");
    m_agentCreated[rank] = true;
    const uint32_t s = m_servers.size();
    std::vector<ParameterServerApp::KeyQueue*> pushKeys(s);
    std::vector<ParameterServerApp::KeyQueue*> pullKeys(s);
    for (uint32_t p = 0; p < s; ++p)
    {
        pushKeys[p] = m_servers[p]->GetPushKeys(rank);
        pullKeys[p] = m_servers[p]->GetPullKeys(rank);
    }
    const Placement placement = m_placement;
    Ptr<ShardedPsAgent> agent = CreateObject<ShardedPsAgent>();
    agent->Configure(m_workerPush[rank],
                     m_workerPull[rank],
                     std::move(pushKeys),
                     std::move(pullKeys),
                     m_shardBytes,
                     [s, placement](uint64_t tensorId, uint32_t shard) {
                         return ServerOf(tensorId, shard, s, placement);
                     });
    return agent;
}

bool
ShardedPsProtocol::UsesParameterServers() const
{
    return true;
}

uint32_t
ShardedPsProtocol::GetNServers() const
{
    return m_servers.size();
}

Ptr<ParameterServerApp>
ShardedPsProtocol::GetServer(uint32_t index) const
{
    return m_servers.at(index);
}

std::map<std::string, double>
ShardedPsProtocol::GetCounters() const
{
    ParameterServerApp::Stats total;
    for (const auto& app : m_servers)
    {
        const ParameterServerApp::Stats st = app->GetStats();
        total.shardsReduced += st.shardsReduced;
        total.wireBytesSent += st.wireBytesSent;
        total.packetsSent += st.packetsSent;
        total.retransmissions += st.retransmissions;
    }
    return {{"ps_servers", static_cast<double>(m_servers.size())},
            {"ps_shards_reduced", static_cast<double>(total.shardsReduced)},
            {"ps_wire_bytes_sent", static_cast<double>(total.wireBytesSent)},
            {"ps_packets_sent", static_cast<double>(total.packetsSent)},
            {"ps_retransmissions", static_cast<double>(total.retransmissions)}};
}

} // namespace ns3
