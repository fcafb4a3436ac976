/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sharded-ps-agent.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ShardedPsAgent");
NS_OBJECT_ENSURE_REGISTERED(ShardedPsAgent);

TypeId
ShardedPsAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ShardedPsAgent")
                            .SetParent<AggregationAgent>()
                            .SetGroupName("InaTraining")
                            .AddConstructor<ShardedPsAgent>();
    return tid;
}

void
ShardedPsAgent::DoDispose()
{
    // The flows belong to the protocol and may outlive this agent: no callback into it.
    for (auto& tx : m_push)
    {
        tx->SetMessageAckedCallback(MakeNullCallback<void, uint32_t>());
        tx->SetMessageSource(InaTransportSender::MessageSourceCallback());
    }
    for (auto& rx : m_pull)
    {
        rx->SetMessageReceivedCallback(
            MakeNullCallback<void, uint32_t, uint64_t, std::vector<uint32_t>&>());
    }
    m_push.clear();
    m_pull.clear();
    m_pushKeys.clear();
    m_pullKeys.clear();
    m_pending.clear();
    m_unsent.clear();
    m_placement = nullptr;
    AggregationAgent::DoDispose();
}

void
ShardedPsAgent::Configure(std::vector<Ptr<InaTransportSender>> push,
                          std::vector<Ptr<InaTransportReceiver>> pull,
                          std::vector<ParameterServerApp::KeyQueue*> pushKeys,
                          std::vector<ParameterServerApp::KeyQueue*> pullKeys,
                          uint64_t shardBytes,
                          Placement placement)
{
    m_push = std::move(push);
    m_pull = std::move(pull);
    m_pushKeys = std::move(pushKeys);
    m_pullKeys = std::move(pullKeys);
    m_shardBytes = shardBytes;
    m_placement = std::move(placement);
}

void
ShardedPsAgent::DoSetup()
{
    NS_ABORT_MSG_IF(m_push.empty() || m_push.size() != m_pull.size() ||
                        m_pushKeys.size() != m_push.size() || m_pullKeys.size() != m_push.size(),
                    "ShardedPsAgent (job " << GetContext().name << ", rank " << GetRank()
                                           << "): not configured with one push flow, one pull "
                                              "flow and their key queues per server");
    for (uint32_t p = 0; p < m_push.size(); ++p)
    {
        m_push[p]->SetMessageAckedCallback(
            MakeBoundCallback(&ShardedPsAgent::PushAckedThunk, this));
        m_push[p]->SetMessageSource(MakeBoundCallback(&ShardedPsAgent::NextShardThunk, this, p));
        m_pull[p]->SetMessageReceivedCallback(
            MakeBoundCallback(&ShardedPsAgent::PullThunk, this, p));
    }
    m_unsent.assign(m_push.size(), std::deque<Unsent>());
    m_taken.assign(m_push.size(), 0);
}

void
ShardedPsAgent::PushAckedThunk(ShardedPsAgent* self, uint32_t /* message */)
{
    self->RefreshStats();
}

bool
ShardedPsAgent::NextShardThunk(ShardedPsAgent* self,
                               uint32_t server,
                               uint64_t& bytes,
                               std::vector<uint32_t>& words,
                               Time& queued)
{
    return self->NextShard(server, bytes, words, queued);
}

bool
ShardedPsAgent::NextShard(uint32_t server,
                          uint64_t& bytes,
                          std::vector<uint32_t>& words,
                          Time& queued)
{
    std::deque<Unsent>& unsent = m_unsent[server];
    while (!unsent.empty())
    {
        Unsent& u = unsent.front();
        while (u.next < u.limit && m_placement(u.tensorId, u.next) != server)
        {
            ++u.next;
        }
        if (u.next == u.shards)
        {
            unsent.pop_front();
            continue;
        }
        if (u.next == u.limit)
        {
            return false; // DoAllReduce has not come to this server's next shard yet
        }
        ++m_taken[server];
        const uint64_t k = u.next++;
        const uint64_t offset = k * m_shardBytes;
        bytes = std::min(m_shardBytes, u.bytes - offset);
        if (u.values)
        {
            // Read now: a shard's values change only when its own sum comes back.
            words.resize(bytes / 4);
            std::memcpy(words.data(), u.values->data() + offset / 4, bytes);
        }
        queued = TimeStep(u.queuedPs);
        m_pushKeys[server]->push_back(
            ParameterServerApp::ShardKey{u.tensorId, static_cast<uint32_t>(k)});
        return true;
    }
    return false;
}

void
ShardedPsAgent::PullThunk(ShardedPsAgent* self,
                          uint32_t server,
                          uint32_t /* message */,
                          uint64_t bytes,
                          std::vector<uint32_t>& words)
{
    self->OnPull(server, bytes, words);
}

void
ShardedPsAgent::DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values)
{
    const std::string& job = GetContext().name;
    NS_ABORT_MSG_IF(values && values->size() * 4 != bytes,
                    "ShardedPsAgent (job " << job << ", rank " << GetRank() << "): tensor "
                                           << tensorId << " has " << bytes << " bytes but "
                                           << values->size() << " values (expected bytes / 4)");
    NS_ABORT_MSG_IF(m_pending.count(tensorId) != 0,
                    "ShardedPsAgent (job " << job << ", rank " << GetRank() << "): tensor "
                                           << tensorId
                                           << " handed again before it completed (tensor ids "
                                              "must be unique in a job)");
    if (bytes == 0)
    {
        Simulator::ScheduleNow(&ShardedPsAgent::Finished, Ptr<ShardedPsAgent>(this), tensorId);
        return;
    }
    const uint64_t shards = (bytes + m_shardBytes - 1) / m_shardBytes;
    NS_ABORT_MSG_IF(shards > std::numeric_limits<uint32_t>::max(),
                    "ShardedPsAgent (job " << job << "): tensor " << tensorId << " of " << bytes
                                           << " bytes makes more than 2^32 shards");
    m_pending.emplace(tensorId, Pending{values, bytes, static_cast<uint32_t>(shards)});
    const int64_t now = NowPs();
    const uint32_t servers = m_push.size();
    for (uint32_t server = 0; server < servers; ++server)
    {
        m_unsent[server].push_back(Unsent{tensorId, values, bytes, 0, 0, shards, now});
    }
    // Shards leave in the order they would if each were handed to its flow in turn: shard k's
    // flow may send when it comes to k, so packets of different flows reach the NIC interleaved
    // as before. A flow that could not take its shard stays blocked for the rest of this call
    // (no time passes), and once every flow is blocked the rest is released without a loop
    // over every shard.
    std::vector<bool> blocked(servers, false);
    uint32_t nBlocked = 0;
    for (uint64_t k = 0; k < shards && nBlocked < servers; ++k)
    {
        const uint32_t server = m_placement(tensorId, k);
        m_unsent[server].back().limit = k + 1;
        if (blocked[server])
        {
            continue;
        }
        const uint64_t taken = m_taken[server];
        m_push[server]->Wake();
        if (m_taken[server] == taken)
        {
            blocked[server] = true;
            ++nBlocked;
        }
    }
    for (uint32_t server = 0; server < servers; ++server)
    {
        if (!m_unsent[server].empty() && m_unsent[server].back().tensorId == tensorId)
        {
            m_unsent[server].back().limit = shards;
        }
    }
    RefreshStats();
}

void
ShardedPsAgent::OnPull(uint32_t server, uint64_t bytes, std::vector<uint32_t>& words)
{
    ParameterServerApp::KeyQueue& keys = *m_pullKeys[server];
    NS_ABORT_MSG_IF(keys.empty(),
                    "ShardedPsAgent (job " << GetContext().name << ", rank " << GetRank()
                                           << "): a result from server " << server
                                           << " arrived with no key queued for it");
    const ParameterServerApp::ShardKey key = keys.front();
    keys.pop_front();
    auto it = m_pending.find(key.tensorId);
    NS_ABORT_MSG_IF(it == m_pending.end(),
                    "ShardedPsAgent (job " << GetContext().name << ", rank " << GetRank()
                                           << "): server " << server << " returned tensor "
                                           << key.tensorId << ", which this worker never handed");
    Pending& t = it->second;
    const uint64_t offset = key.shard * m_shardBytes;
    const uint64_t expected = std::min(m_shardBytes, t.bytes - offset);
    NS_ABORT_MSG_IF(bytes != expected || (t.values && words.size() * 4 != bytes),
                    "ShardedPsAgent (job " << GetContext().name << ", rank " << GetRank()
                                           << "): tensor " << key.tensorId << " shard " << key.shard
                                           << " came back as " << bytes << " bytes with "
                                           << words.size() << " values, expected " << expected
                                           << " bytes");
    if (t.values)
    {
        std::memcpy(t.values->data() + offset / 4, words.data(), bytes);
    }
    if (--t.shardsLeft > 0)
    {
        return;
    }
    const uint64_t id = key.tensorId;
    m_pending.erase(it);
    RefreshStats();
    NotifyDone(id);
}

void
ShardedPsAgent::Finished(uint64_t tensorId)
{
    NotifyDone(tensorId);
}

void
ShardedPsAgent::RefreshStats()
{
    // Data packets of the push flows only (see baselines.rst): ACKs this host returns on the
    // pull flows are counted by their receivers.
    uint64_t wire = 0;
    uint64_t packets = 0;
    uint64_t retx = 0;
    for (const auto& tx : m_push)
    {
        const InaTransportSender::Stats& s = tx->GetStats();
        wire += s.wireBytesSent;
        packets += s.dataPacketsSent;
        retx += s.retransmissions;
    }
    m_stats.wireBytesSent = wire;
    m_stats.packetsSent = packets;
    m_stats.retransmissions = retx;
}

Ptr<InaTransportSender>
ShardedPsAgent::GetPushSender(uint32_t server) const
{
    return m_push.at(server);
}

Ptr<InaTransportReceiver>
ShardedPsAgent::GetPullReceiver(uint32_t server) const
{
    return m_pull.at(server);
}

uint32_t
ShardedPsAgent::GetOutstandingTensors() const
{
    return m_pending.size();
}

bool
ShardedPsAgent::FlowFailed() const
{
    for (const auto& tx : m_push)
    {
        if (tx && tx->IsFailed())
        {
            return true;
        }
    }
    return false;
}

} // namespace ns3
