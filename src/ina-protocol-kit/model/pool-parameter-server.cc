/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pool-parameter-server.h"

#include "int32-quantizer.h"
#include "pool-agent.h"

#include "ns3/log.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PoolParameterServer");
NS_OBJECT_ENSURE_REGISTERED(PoolParameterServer);

TypeId
PoolParameterServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PoolParameterServer")
                            .SetParent<Object>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<PoolParameterServer>();
    return tid;
}

void
PoolParameterServer::DoDispose()
{
    if (m_bound && m_config.host)
    {
        m_config.host->Unbind(m_config.endpoint);
    }
    m_bound = false;
    m_config.host = nullptr;
    m_agents.clear();
    Object::DoDispose();
}

uint32_t
PoolParameterServer::CheckGroups(const std::string& name,
                                 const std::vector<Group>& groups,
                                 const std::vector<uint32_t>& rankOfWorker)
{
    if (groups.empty() || groups.size() > PoolHeader::MAX_FAN_IN)
    {
        throw std::invalid_argument(name + ": " + std::to_string(groups.size()) +
                                    " worker groups; expected 1.." +
                                    std::to_string(PoolHeader::MAX_FAN_IN));
    }
    uint32_t workers = 0;
    for (const Group& g : groups)
    {
        if (g.size == 0 || g.size > PoolHeader::MAX_FAN_IN || g.firstWorker != workers)
        {
            throw std::invalid_argument(name + ": a group of " + std::to_string(g.size) +
                                        " workers from worker " + std::to_string(g.firstWorker) +
                                        "; expected 1.." + std::to_string(PoolHeader::MAX_FAN_IN) +
                                        " workers numbered after the previous group");
        }
        workers += g.size;
    }
    if (rankOfWorker.size() != workers)
    {
        throw std::invalid_argument(name + ": the groups hold " + std::to_string(workers) +
                                    " workers but the rank map has " +
                                    std::to_string(rankOfWorker.size()));
    }
    return workers;
}

uint32_t
PoolParameterServer::Regroup(const std::vector<Group>& groups,
                             const std::vector<uint32_t>& rankOfWorker)
{
    if (CheckGroups(m_config.name, groups, rankOfWorker) != m_workers)
    {
        throw std::invalid_argument(m_config.name + ": regrouped to " +
                                    std::to_string(rankOfWorker.size()) + " workers, not the " +
                                    std::to_string(m_workers) + " it serves");
    }
    m_config.groups = groups;
    m_config.rankOfWorker = rankOfWorker;
    uint32_t emptied = 0;
    for (size_t slot = 0; slot < m_seq.size(); ++slot)
    {
        if (m_seq[slot] != 0 && m_count[slot] < m_workers)
        {
            // The sequence number stays, so that older fragments are still told stale.
            EmptySlot(static_cast<uint32_t>(slot));
            ++emptied;
        }
    }
    return emptied;
}

void
PoolParameterServer::Setup(const Config& config)
{
    NS_LOG_FUNCTION(this << config.name);
    const uint32_t workers = CheckGroups(config.name, config.groups, config.rankOfWorker);
    if (!config.host)
    {
        throw std::invalid_argument(config.name + ": no host");
    }
    m_config = config;
    m_workers = workers;
    m_words = (workers + 63) / 64;
    // Two windows either side of the newest fragment, with room to spare.
    uint64_t ring = 64;
    while (ring < 4ULL * std::max<uint32_t>(1, config.window))
    {
        ring *= 2;
    }
    m_ringMask = ring - 1;
    m_seq.assign(ring, 0);
    m_count.assign(ring, 0);
    m_flags.assign(ring, 0);
    m_mask.assign(ring * m_words, 0);
    m_values.assign(config.checkValues ? ring * PoolHeader::VALUES : 0, 0);
    m_scratch.assign(m_words, 0);
    m_agents.assign(workers, nullptr);
    m_counts = Counters{};
    m_config.host->Bind(m_config.endpoint, this);
    m_bound = true;
}

void
PoolParameterServer::SetAgent(uint32_t rank, PoolAgent* agent)
{
    if (rank >= m_agents.size())
    {
        throw std::out_of_range(m_config.name + ": worker rank " + std::to_string(rank) +
                                " but the job has " + std::to_string(m_agents.size()));
    }
    m_agents[rank] = agent;
}

const PoolParameterServer::Counters&
PoolParameterServer::GetCounters() const
{
    return m_counts;
}

const PoolParameterServer::Config&
PoolParameterServer::GetConfig() const
{
    return m_config;
}

uint32_t
PoolParameterServer::GetNWorkers() const
{
    return m_workers;
}

uint32_t
PoolParameterServer::GetOpenFragments() const
{
    uint32_t open = 0;
    for (size_t s = 0; s < m_seq.size(); ++s)
    {
        open += m_seq[s] != 0 && m_count[s] < m_workers ? 1 : 0;
    }
    return open;
}

uint32_t
PoolParameterServer::Decode(const PoolHeader* h)
{
    std::fill(m_scratch.begin(), m_scratch.end(), 0);
    const std::vector<Group>& groups = m_config.groups;
    uint32_t n = 0;
    auto set = [this, &n](uint32_t w) {
        m_scratch[w >> 6] |= 1ULL << (w & 63);
        ++n;
    };
    if ((h->flags & PoolHeader::FLAG_EDGE) != 0)
    {
        for (uint32_t bits = h->bitmap1; bits != 0; bits &= bits - 1)
        {
            const auto g = static_cast<uint32_t>(__builtin_ctz(bits));
            if (g >= groups.size())
            {
                return 0;
            }
            for (uint32_t i = 0; i < groups[g].size; ++i)
            {
                set(groups[g].firstWorker + i);
            }
        }
        return n;
    }
    const uint32_t b1 = h->bitmap1;
    if (b1 == 0 || (b1 & (b1 - 1)) != 0)
    {
        return 0;
    }
    const auto g = static_cast<uint32_t>(__builtin_ctz(b1));
    if (g >= groups.size())
    {
        return 0;
    }
    for (uint32_t bits = h->bitmap0; bits != 0; bits &= bits - 1)
    {
        const auto pos = static_cast<uint32_t>(__builtin_ctz(bits));
        if (pos >= groups[g].size)
        {
            return 0;
        }
        set(groups[g].firstWorker + pos);
    }
    return n;
}

void
PoolParameterServer::Receive(InaPacket* p, uint32_t port)
{
    PoolHeader* h = p->Header<PoolHeader>();
    InaPacketPool& pool = m_config.host->GetPool();
    if (p->protocol != m_config.protocol || p->jobId != m_config.jobId ||
        (h->flags & PoolHeader::FLAG_ACK) != 0 || h->psIndex != m_config.psIndex || p->seq == 0)
    {
        ++m_counts.malformed;
        pool.Free(p);
        return;
    }
    const uint32_t k = Decode(h);
    if (k == 0)
    {
        ++m_counts.malformed;
        pool.Free(p);
        return;
    }
    const uint64_t seq = p->seq;
    const auto slot = static_cast<uint32_t>(seq & m_ringMask);
    if (!ClaimSlot(slot, seq))
    {
        ++m_counts.stale;
        pool.Free(p);
        return;
    }
    ++m_counts.packets;
    if ((h->flags & PoolHeader::FLAG_RESEND) != 0)
    {
        ++m_counts.resends;
    }
    if ((h->flags & PoolHeader::FLAG_COLLISION) != 0)
    {
        ++m_counts.collisions;
        m_flags[slot] |= COLLIDED;
    }
    const bool hasValues = m_config.checkValues && p->values != nullptr &&
                           p->values->words.size() >= PoolHeader::VALUES;
    const bool wasComplete = m_count[slot] == m_workers;
    if (k == m_workers)
    {
        ++m_counts.fullAggregates;
        if (hasValues)
        {
            std::memcpy(SlotValues(slot), p->values->AsInt32(), PoolHeader::VALUES * 4);
            m_flags[slot] |= FILLED;
        }
        std::copy(m_scratch.begin(),
                  m_scratch.end(),
                  m_mask.begin() + static_cast<size_t>(slot) * m_words);
        m_count[slot] = m_workers;
    }
    else
    {
        TakePartial(p, slot, k, hasValues);
    }
    if (m_count[slot] < m_workers)
    {
        pool.Free(p);
        return;
    }
    if (!wasComplete)
    {
        ++m_counts.fragments;
    }
    SendResult(p, slot);
}

bool
PoolParameterServer::ClaimSlot(uint32_t slot, uint64_t seq)
{
    if (m_seq[slot] == seq)
    {
        return true;
    }
    if (m_seq[slot] > seq)
    {
        return false;
    }
    if (m_seq[slot] != 0 && m_count[slot] < m_workers)
    {
        ++m_counts.evictedIncomplete;
    }
    m_seq[slot] = seq;
    EmptySlot(slot);
    return true;
}

void
PoolParameterServer::EmptySlot(uint32_t slot)
{
    m_count[slot] = 0;
    m_flags[slot] = 0;
    uint64_t* mask = m_mask.data() + static_cast<size_t>(slot) * m_words;
    std::fill(mask, mask + m_words, 0);
}

void
PoolParameterServer::TakePartial(const InaPacket* p, uint32_t slot, uint32_t k, bool hasValues)
{
    uint64_t* mask = m_mask.data() + static_cast<size_t>(slot) * m_words;
    ++m_counts.partials;
    uint32_t lowest = 0;
    while (m_scratch[lowest >> 6] == 0)
    {
        lowest += 64;
    }
    lowest += static_cast<uint32_t>(__builtin_ctzll(m_scratch[lowest >> 6]));
    PoolAgent* agent = m_agents[m_config.rankOfWorker[lowest]];
    if (agent != nullptr)
    {
        agent->NotePsFallback();
    }
    bool overlap = false;
    bool superset = true;
    for (uint32_t w = 0; w < m_words; ++w)
    {
        overlap = overlap || (mask[w] & m_scratch[w]) != 0;
        superset = superset && (mask[w] & ~m_scratch[w]) == 0;
    }
    if (overlap && superset && m_config.supersetReplaces)
    {
        // Everything recorded is inside this packet's sum: take it instead.
        ++m_counts.supersetReplaced;
        if (hasValues)
        {
            std::memcpy(SlotValues(slot), p->values->AsInt32(), PoolHeader::VALUES * 4);
            m_flags[slot] |= FILLED;
        }
        std::copy(m_scratch.begin(), m_scratch.end(), mask);
        m_count[slot] = k;
    }
    else if (overlap)
    {
        ++m_counts.overlapDiscarded;
    }
    else
    {
        if (hasValues)
        {
            int32_t* sum = SlotValues(slot);
            const int32_t* v = p->values->AsInt32();
            if ((m_flags[slot] & FILLED) == 0)
            {
                std::memcpy(sum, v, PoolHeader::VALUES * 4);
                m_flags[slot] |= FILLED;
            }
            else
            {
                for (uint32_t i = 0; i < PoolHeader::VALUES; ++i)
                {
                    sum[i] = Int32Quantizer::SaturatingAdd(sum[i], v[i]);
                }
            }
        }
        for (uint32_t w = 0; w < m_words; ++w)
        {
            mask[w] |= m_scratch[w];
        }
        m_count[slot] += k;
    }
}

void
PoolParameterServer::SendResult(InaPacket* p, uint32_t slot)
{
    PoolHeader* h = p->Header<PoolHeader>();
    const bool ecn = h->CongestionSeen(p);
    h->flags =
        static_cast<uint8_t>((h->flags & (PoolHeader::FLAG_RESEND | PoolHeader::FLAG_SPARE)) |
                             PoolHeader::FLAG_ACK | (ecn ? PoolHeader::FLAG_ECN : 0) |
                             ((m_flags[slot] & COLLIDED) != 0 ? PoolHeader::FLAG_COLLISION : 0));
    p->dst = m_config.resultGroup;
    p->flowId = m_config.resultFlowId;
    p->srcPort = m_config.endpoint;
    p->dstPort = m_config.endpoint;
    p->ecn = INA_ECN_ECT;
    p->priority = 0;
    p->wireBytes = PoolHeader::WIRE_BYTES;
    if (m_config.checkValues && (m_flags[slot] & FILLED) != 0)
    {
        if (p->values == nullptr)
        {
            p->values = m_config.host->GetPool().AllocValues(PoolHeader::VALUES);
        }
        std::memcpy(p->values->AsInt32(), SlotValues(slot), PoolHeader::VALUES * 4);
    }
    ++m_counts.results;
    m_config.host->Send(p);
}

} // namespace ns3
