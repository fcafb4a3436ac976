/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "parameter-server-app.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParameterServerApp");
NS_OBJECT_ENSURE_REGISTERED(ParameterServerApp);

std::size_t
ParameterServerApp::KeyHash::operator()(const ShardKey& k) const
{
    uint64_t x = k.tensorId * 0x9e3779b97f4a7c15ULL + k.shard;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    return static_cast<std::size_t>(x ^ (x >> 31));
}

bool
ParameterServerApp::KeyEqual::operator()(const ShardKey& a, const ShardKey& b) const
{
    return a.tensorId == b.tensorId && a.shard == b.shard;
}

TypeId
ParameterServerApp::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ParameterServerApp")
                            .SetParent<Application>()
                            .SetGroupName("InaTraining")
                            .AddConstructor<ParameterServerApp>();
    return tid;
}

void
ParameterServerApp::DoDispose()
{
    for (auto& rx : m_push)
    {
        rx->Dispose();
    }
    for (auto& tx : m_pull)
    {
        tx->Dispose();
    }
    m_push.clear();
    m_pull.clear();
    m_pending.clear();
    Application::DoDispose();
}

void
ParameterServerApp::Setup(const std::string& name,
                          bool checkValues,
                          std::vector<Ptr<InaTransportReceiver>> pushFlows,
                          std::vector<Ptr<InaTransportSender>> pullFlows)
{
    NS_ABORT_MSG_IF(pushFlows.size() != pullFlows.size(),
                    "ParameterServerApp " << name << ": " << pushFlows.size() << " push flows but "
                                          << pullFlows.size() << " pull flows");
    m_name = name;
    m_checkValues = checkValues;
    m_push = std::move(pushFlows);
    m_pull = std::move(pullFlows);
    m_pushKeys.assign(m_push.size(), KeyQueue());
    m_pullKeys.assign(m_push.size(), KeyQueue());
    for (uint32_t w = 0; w < m_push.size(); ++w)
    {
        m_push[w]->SetMessageReceivedCallback(
            MakeBoundCallback(&ParameterServerApp::PushThunk, this, w));
    }
}

void
ParameterServerApp::PushThunk(ParameterServerApp* self,
                              uint32_t worker,
                              uint32_t /* message */,
                              uint64_t bytes,
                              std::vector<uint32_t>& words)
{
    self->OnPush(worker, bytes, words);
}

void
ParameterServerApp::StartApplication()
{
    // Nothing to start: the flows listen from Setup, so a push that arrives before the
    // application's start time is still served, as a server process that is already up.
}

void
ParameterServerApp::StopApplication()
{
}

ParameterServerApp::KeyQueue*
ParameterServerApp::GetPushKeys(uint32_t worker)
{
    return &m_pushKeys.at(worker);
}

ParameterServerApp::KeyQueue*
ParameterServerApp::GetPullKeys(uint32_t worker)
{
    return &m_pullKeys.at(worker);
}

void
ParameterServerApp::OnPush(uint32_t worker, uint64_t bytes, std::vector<uint32_t>& words)
{
    KeyQueue& keys = m_pushKeys[worker];
    NS_ABORT_MSG_IF(keys.empty(),
                    "ParameterServerApp " << m_name << ": a push from worker " << worker
                                          << " arrived with no key queued for it");
    const ShardKey key = keys.front();
    keys.pop_front();
    ++m_pushesReceived;
    m_bytesReceived += bytes;
    NS_ABORT_MSG_IF(m_checkValues && words.size() * 4 != bytes,
                    "ParameterServerApp " << m_name << ": tensor " << key.tensorId << " shard "
                                          << key.shard << " from worker " << worker << " has "
                                          << bytes << " bytes but " << words.size() << " values");
    const uint32_t n = m_push.size();
    auto it = m_pending.find(key);
    if (it == m_pending.end())
    {
        Accumulator a;
        a.bytes = bytes;
        a.from.assign(n, false);
        if (m_checkValues)
        {
            a.words = std::move(words); // the first contribution is the sum so far
        }
        it = m_pending.emplace(key, std::move(a)).first;
    }
    else
    {
        Accumulator& a = it->second;
        NS_ABORT_MSG_IF(a.bytes != bytes,
                        "ParameterServerApp " << m_name << ": tensor " << key.tensorId << " shard "
                                              << key.shard << " is " << a.bytes
                                              << " bytes from one worker but " << bytes
                                              << " from worker " << worker);
        NS_ABORT_MSG_IF(a.from[worker],
                        "ParameterServerApp " << m_name << ": worker " << worker
                                              << " pushed tensor " << key.tensorId << " shard "
                                              << key.shard
                                              << " twice (tensor ids must be unique in a job)");
        if (m_checkValues)
        {
            uint32_t* sum = a.words.data();
            const uint32_t* in = words.data();
            for (std::size_t i = 0; i < words.size(); ++i)
            {
                float s;
                float x;
                std::memcpy(&s, sum + i, 4);
                std::memcpy(&x, in + i, 4);
                s += x;
                std::memcpy(sum + i, &s, 4);
            }
        }
    }
    Accumulator& a = it->second;
    a.from[worker] = true;
    if (++a.contributions < n)
    {
        return;
    }
    for (uint32_t w = 0; w < n; ++w)
    {
        m_pullKeys[w].push_back(key);
        if (w + 1 == n)
        {
            m_pull[w]->SendMessage(a.bytes, std::move(a.words));
        }
        else
        {
            m_pull[w]->SendMessage(a.bytes, a.words);
        }
    }
    m_pending.erase(it);
    ++m_shardsReduced;
}

ParameterServerApp::Stats
ParameterServerApp::GetStats() const
{
    Stats s;
    s.shardsReduced = m_shardsReduced;
    s.pushesReceived = m_pushesReceived;
    s.bytesReceived = m_bytesReceived;
    for (const auto& tx : m_pull)
    {
        const InaTransportSender::Stats& t = tx->GetStats();
        s.wireBytesSent += t.wireBytesSent;
        s.packetsSent += t.dataPacketsSent;
        s.retransmissions += t.retransmissions;
    }
    return s;
}

uint32_t
ParameterServerApp::GetPendingShards() const
{
    return m_pending.size();
}

uint32_t
ParameterServerApp::GetNWorkers() const
{
    return m_push.size();
}

} // namespace ns3
