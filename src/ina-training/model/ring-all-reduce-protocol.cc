/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-all-reduce-protocol.h"

#include "aggregation-protocol-registry.h"
#include "ring-all-reduce-agent.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduceProtocol");
NS_OBJECT_ENSURE_REGISTERED(RingAllReduceProtocol);

static AggregationProtocolRegistry::Registrar g_ringProtocol(
    "ring",
    "ns3::RingAllReduceProtocol",
    "NCCL-style ring all-reduce (reduce-scatter + all-gather, chunked and pipelined) over the "
    "reliable transport; no in-network aggregation");

TypeId
RingAllReduceProtocol::GetTypeId()
{
    static TypeId tid = HostTransportSettings::AddAttributes(
        TypeId("ns3::RingAllReduceProtocol")
            .SetParent<AggregationProtocol>()
            .SetGroupName("InaTraining")
            .AddConstructor<RingAllReduceProtocol>()
            .AddAttribute("ChunkBytes",
                          "Largest chunk, in bytes (a multiple of 4): the unit a rank reduces and "
                          "passes on as soon as it has arrived, and one transport message.",
                          UintegerValue(256 * 1024),
                          MakeUintegerAccessor(&RingAllReduceProtocol::m_chunkBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MinChunksPerSegment",
                          "A segment (1/n of a tensor) smaller than this many ChunkBytes is cut "
                          "into this many chunks instead, so small tensors still pipeline.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&RingAllReduceProtocol::m_minChunksPerSegment),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MinChunkBytes",
                          "Chunks are never cut below this (a multiple of 4, at most ChunkBytes), "
                          "as each costs a message and a partly filled last packet.",
                          UintegerValue(16 * 1024),
                          MakeUintegerAccessor(&RingAllReduceProtocol::m_minChunkBytes),
                          MakeUintegerChecker<uint64_t>()),
        &RingAllReduceProtocol::m_host,
        "the ring's flows");
    return tid;
}

void
RingAllReduceProtocol::DoDispose()
{
    // Null entries remain when Install failed half-way.
    for (auto& tx : m_senders)
    {
        if (tx)
        {
            tx->Dispose();
        }
    }
    for (auto& rx : m_receivers)
    {
        if (rx)
        {
            rx->Dispose();
        }
    }
    m_senders.clear();
    m_receivers.clear();
    AggregationProtocol::DoDispose();
}

void
RingAllReduceProtocol::DoInstall()
{
    const JobContext& ctx = GetContext();
    auto fail = [&ctx](const std::string& what) {
        throw std::runtime_error("job '" + ctx.name + "' (protocol ring): " + what);
    };
    if (!ctx.fabric)
    {
        fail("the job context has no fabric");
    }
    const uint32_t n = ctx.workerHosts.size();
    if (n == 0)
    {
        fail("a ring needs at least one worker, got none");
    }
    const uint32_t hosts = ctx.fabric->GetNHosts();
    for (uint32_t r = 0; r < n; ++r)
    {
        if (ctx.workerHosts[r] >= hosts)
        {
            fail("worker " + std::to_string(r) + " is on host " +
                 std::to_string(ctx.workerHosts[r]) + ", but the fabric has hosts 0.." +
                 std::to_string(hosts - 1));
        }
    }
    if (m_chunkBytes == 0 || m_chunkBytes % 4 != 0)
    {
        fail("ChunkBytes must be a positive multiple of 4 (whole 32-bit values), got " +
             std::to_string(m_chunkBytes));
    }
    if (m_minChunkBytes == 0 || m_minChunkBytes % 4 != 0 || m_minChunkBytes > m_chunkBytes)
    {
        fail("MinChunkBytes must be a positive multiple of 4 no larger than ChunkBytes (" +
             std::to_string(m_chunkBytes) + "), got " + std::to_string(m_minChunkBytes));
    }
    if (n > JobContext::FLOW_IDS_PER_JOB)
    {
        fail(std::to_string(n) + " workers need more flow ids than a job has (" +
             std::to_string(JobContext::FLOW_IDS_PER_JOB) + ")");
    }
    m_agentCreated.assign(n, false);
    if (n == 1)
    {
        return; // nothing to exchange
    }

    ObjectFactory senderFactory;
    ObjectFactory receiverFactory;
    m_host.MakeFactories(GetMaxTimeouts(), senderFactory, receiverFactory);

    m_receivers.resize(n);
    m_senders.resize(n);
    for (uint32_t r = 0; r < n; ++r)
    {
        Ptr<InaHost> host = ctx.fabric->GetHost(ctx.workerHosts[r]);
        m_receivers[r] = receiverFactory.Create<InaTransportReceiver>();
        m_receivers[r]->Listen(host, host->AllocateEndpoint(), ctx.flowIdBase + (r + n - 1) % n);
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        const uint32_t next = (r + 1) % n;
        Ptr<InaHost> host = ctx.fabric->GetHost(ctx.workerHosts[r]);
        Ptr<InaHost> peer = ctx.fabric->GetHost(ctx.workerHosts[next]);
        m_senders[r] = senderFactory.Create<InaTransportSender>();
        try
        {
            m_senders[r]->Connect(host,
                                  host->AllocateEndpoint(),
                                  peer->GetAddress(),
                                  m_receivers[next]->GetLocalPort(),
                                  ctx.flowIdBase + r,
                                  ctx.jobId);
        }
        catch (const std::invalid_argument& e)
        {
            fail(e.what());
        }
    }
}

Ptr<AggregationAgent>
RingAllReduceProtocol::DoCreateAgent(uint32_t rank)
{
    NS_ABORT_MSG_IF(m_agentCreated.at(rank),
                    "RingAllReduceProtocol (job " << GetContext().name << "): agent of rank "
                                                  << rank << " created twice");
    m_agentCreated[rank] = true;
    Ptr<RingAllReduceAgent> agent = CreateObject<RingAllReduceAgent>();
    agent->Configure(GetSender(rank),
                     GetReceiver(rank),
                     m_chunkBytes,
                     m_minChunkBytes,
                     m_minChunksPerSegment);
    return agent;
}

Ptr<InaTransportSender>
RingAllReduceProtocol::GetSender(uint32_t rank) const
{
    return rank < m_senders.size() ? m_senders[rank] : nullptr;
}

Ptr<InaTransportReceiver>
RingAllReduceProtocol::GetReceiver(uint32_t rank) const
{
    return rank < m_receivers.size() ? m_receivers[rank] : nullptr;
}

} // namespace ns3
