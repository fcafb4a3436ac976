/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-cold-server.h"

#include "ns3/abort.h"
#include "ns3/callback.h"
#include "ns3/log.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LibraColdServer");
NS_OBJECT_ENSURE_REGISTERED(LibraColdServer);

TypeId
LibraColdServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LibraColdServer")
                            .SetParent<Object>()
                            .SetGroupName("Libra")
                            .AddConstructor<LibraColdServer>();
    return tid;
}

void
LibraColdServer::DoDispose()
{
    m_pushRx.clear();
    m_pullTx.clear();
    m_rounds.clear();
    Object::DoDispose();
}

void
LibraColdServer::Setup(const std::string& name,
                       bool checkValues,
                       std::vector<Ptr<InaTransportReceiver>> pushRx,
                       std::vector<Ptr<InaTransportSender>> pullTx)
{
    NS_ABORT_MSG_UNLESS(pushRx.size() == pullTx.size() && !pushRx.empty(),
                        "LibraColdServer " << name << ": one push and one pull flow per worker");
    m_name = name;
    m_checkValues = checkValues;
    m_pushRx = std::move(pushRx);
    m_pullTx = std::move(pullTx);
    for (uint32_t w = 0; w < m_pushRx.size(); ++w)
    {
        m_pushRx[w]->SetMessageReceivedCallback(
            MakeBoundCallback(&LibraColdServer::PushThunk, this, w));
    }
}

void
LibraColdServer::PushThunk(LibraColdServer* self,
                           uint32_t worker,
                           uint32_t msgIndex,
                           uint64_t bytes,
                           std::vector<uint32_t>& words)
{
    self->OnPush(worker, msgIndex, bytes, words);
}

void
LibraColdServer::OnPush(uint32_t worker,
                        uint32_t msgIndex,
                        uint64_t bytes,
                        std::vector<uint32_t>& words)
{
    const uint32_t n = static_cast<uint32_t>(m_pushRx.size());
    Round& r = m_rounds[msgIndex];
    if (r.pairs.empty())
    {
        r.pairs.assign(n, 0);
        r.keys.assign(n, {});
    }
    const uint64_t pairs = bytes / PAIR_BYTES;
    r.pairs[worker] = pairs;
    m_pairsReceived += pairs;
    if (m_checkValues)
    {
        NS_ABORT_MSG_UNLESS(words.size() == pairs * PAIR_WORDS,
                            "LibraColdServer " << m_name << ": push of " << pairs << " pairs with "
                                               << words.size() << " words");
        std::vector<uint32_t>& keys = r.keys[worker];
        keys.reserve(pairs);
        for (uint64_t i = 0; i < pairs; ++i)
        {
            const uint32_t key = words[PAIR_WORDS * i];
            float v;
            std::memcpy(&v, &words[PAIR_WORDS * i + 1], 4);
            auto [it, fresh] = r.sums.emplace(key, v);
            if (!fresh)
            {
                it->second += v;
            }
            keys.push_back(key);
        }
    }
    if (++r.pushes < n)
    {
        return;
    }
    // Every worker's push of the round is in: answer each worker's pull of its keys.
    for (uint32_t w = 0; w < n; ++w)
    {
        std::vector<uint32_t> reply;
        if (m_checkValues)
        {
            reply.reserve(r.keys[w].size() * PAIR_WORDS);
            for (uint32_t key : r.keys[w])
            {
                uint32_t bits;
                std::memcpy(&bits, &r.sums[key], 4);
                reply.push_back(key);
                reply.push_back(bits);
                reply.push_back(0);
            }
        }
        m_pullTx[w]->SendMessage(r.pairs[w] * PAIR_BYTES, std::move(reply));
    }
    ++m_roundsServed;
    m_rounds.erase(msgIndex);
}

} // namespace ns3
