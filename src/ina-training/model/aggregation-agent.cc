/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-agent.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

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

void
AggregationAgent::DoDispose()
{
    if (m_bound)
    {
        m_host->Unbind(m_endpoint);
        m_bound = false;
    }
    m_protocol = nullptr;
    m_host = nullptr;
    m_ctx.fabric = nullptr;
    m_done = DoneCallback();
    Object::DoDispose();
}

void
AggregationAgent::BindEndpoint(uint16_t endpoint, InaPacketSink* sink)
{
    m_host->Bind(endpoint, sink);
    m_endpoint = endpoint;
    m_bound = true;
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

bool
AggregationAgent::NoteTimeout()
{
    if (m_timeoutGracePs > 0 && NowPs() - m_lastHeardPs < m_timeoutGracePs)
    {
        return false; // within the grace: not counted (SetTimeoutGrace)
    }
    if (m_gaveUp)
    {
        return true;
    }
    ++m_timeoutsInARow;
    const uint32_t max = m_protocol->GetMaxTimeouts();
    if (max > 0 && m_timeoutsInARow >= max)
    {
        GiveUp(std::to_string(m_timeoutsInARow) +
               " retransmission timeouts in a row with nothing received (MaxTimeouts " +
               std::to_string(max) + ")");
        return true;
    }
    return false;
}

bool
AggregationAgent::NoteTimeoutAtMostEvery(int64_t gapPs)
{
    const int64_t now = NowPs();
    if (m_lastCountedTimeoutPs >= 0 && now - m_lastCountedTimeoutPs < gapPs)
    {
        return false;
    }
    m_lastCountedTimeoutPs = now;
    return NoteTimeout();
}

uint64_t
AggregationAgent::GetResultBytes() const
{
    return m_resultBytes;
}

void
AggregationAgent::NoteReceived()
{
    m_timeoutsInARow = 0;
    m_lastHeardPs = NowPs();
}

void
AggregationAgent::SetTimeoutGrace(Time grace)
{
    m_timeoutGracePs = grace.GetTimeStep();
}

void
AggregationAgent::NoteBurstStart()
{
    m_lastHeardPs = NowPs();
}

void
AggregationAgent::GiveUp(const std::string& why)
{
    if (m_gaveUp)
    {
        return;
    }
    m_gaveUp = true;
    m_giveUpReason = "worker " + std::to_string(m_rank) + " (host " +
                     std::to_string(m_ctx.workerHosts.at(m_rank)) + ") gave up: " + why;
    NS_LOG_INFO("job " << m_ctx.name << ": " << m_giveUpReason);
}

bool
AggregationAgent::FlowFailed() const
{
    return false;
}

bool
AggregationAgent::HasGivenUp() const
{
    return m_gaveUp || FlowFailed();
}

std::string
AggregationAgent::GetGiveUpReason() const
{
    if (m_gaveUp || !FlowFailed())
    {
        return m_giveUpReason;
    }
    return "worker " + std::to_string(m_rank) + " (host " +
           std::to_string(m_ctx.workerHosts.at(m_rank)) +
           ") gave up: a transport flow failed after MaxTimeouts retransmission timeouts in a row";
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

int64_t
AggregationAgent::NowPs() const
{
    return m_host ? m_host->NowPs() : Simulator::Now().GetTimeStep();
}

} // namespace ns3
