/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-agent.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationAgent");
NS_OBJECT_ENSURE_REGISTERED(AggregationAgent);

TypeId
AggregationAgent::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AggregationAgent").SetParent<Object>().SetGroupName("InaTraining");
    return tid;
}

AggregationAgent::AggregationAgent() = default;
AggregationAgent::~AggregationAgent() = default;

void
AggregationAgent::DoDispose()
{
    m_protocol = nullptr;
    m_host = nullptr;
    m_ctx.fabric = nullptr;
    m_done = DoneCallback();
    Object::DoDispose();
}

void
AggregationAgent::Setup(const JobContext& ctx, uint32_t rank, Ptr<AggregationProtocol> protocol)
{
    m_ctx = ctx;
    m_rank = rank;
    m_protocol = protocol;
    m_host = ctx.fabric->GetHost(ctx.workerHosts.at(rank));
    DoSetup();
}

void
AggregationAgent::SetDoneCallback(DoneCallback cb)
{
    m_done = cb;
}

void
AggregationAgent::AllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values)
{
    ++m_stats.tensors;
    m_stats.payloadBytes += bytes;
    DoAllReduce(tensorId, bytes, values);
}

void
AggregationAgent::NotifyDone(uint64_t tensorId)
{
    if (!m_done.IsNull())
    {
        m_done(tensorId);
    }
}

const AggregationAgent::Stats&
AggregationAgent::GetStats() const
{
    return m_stats;
}

uint32_t
AggregationAgent::GetRank() const
{
    return m_rank;
}

const JobContext&
AggregationAgent::GetContext() const
{
    return m_ctx;
}

Ptr<InaHost>
AggregationAgent::GetHost() const
{
    return m_host;
}

} // namespace ns3
