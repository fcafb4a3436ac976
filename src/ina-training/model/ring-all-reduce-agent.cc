/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ring-all-reduce-agent.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingAllReduceAgent");
NS_OBJECT_ENSURE_REGISTERED(RingAllReduceAgent);

RingAllReduceAgent::Layout
RingAllReduceAgent::Layout::Make(uint64_t bytes,
                                 uint32_t ranks,
                                 uint64_t maxChunkBytes,
                                 uint64_t minChunkBytes,
                                 uint32_t minChunksPerSegment)
{
    Layout l;
    l.bytes = bytes;
    l.ranks = std::max<uint32_t>(ranks, 1);
    const uint64_t largest = std::max(l.SegmentBytes(0), l.SegmentBytes(l.ranks - 1));
    const uint64_t pieces = std::max<uint32_t>(minChunksPerSegment, 1);
    uint64_t chunk = maxChunkBytes;
    if (largest / pieces < maxChunkBytes)
    {
        // NCCL likewise shrinks its chunks for small collectives, so the pipeline still fills.
        chunk = ((largest + pieces - 1) / pieces + 3) / 4 * 4;
        chunk = std::min(std::max(chunk, minChunkBytes), maxChunkBytes);
    }
    l.chunkBytes = std::max<uint64_t>(chunk, 4);
    return l;
}

uint64_t
RingAllReduceAgent::Layout::SegmentOffset(uint32_t segment) const
{
    const uint64_t words = bytes / 4;
    const uint64_t base = words / ranks;
    const uint64_t extra = words % ranks;
    return 4 * (segment * base + std::min<uint64_t>(segment, extra));
}

uint64_t
RingAllReduceAgent::Layout::SegmentBytes(uint32_t segment) const
{
    const uint64_t words = bytes / 4;
    const uint64_t base = words / ranks;
    const uint64_t extra = words % ranks;
    return 4 * (base + (segment < extra ? 1 : 0)) + (segment == ranks - 1 ? bytes % 4 : 0);
}

uint64_t
RingAllReduceAgent::Layout::Chunks(uint32_t segment) const
{
    return (SegmentBytes(segment) + chunkBytes - 1) / chunkBytes;
}

uint64_t
RingAllReduceAgent::Layout::ChunkOffset(uint32_t segment, uint64_t chunk) const
{
    return SegmentOffset(segment) + chunk * chunkBytes;
}

uint64_t
RingAllReduceAgent::Layout::ChunkBytes(uint32_t segment, uint64_t chunk) const
{
    return std::min(chunkBytes, SegmentBytes(segment) - chunk * chunkBytes);
}

uint64_t
RingAllReduceAgent::Layout::BytesSentBy(uint32_t rank) const
{
    if (ranks == 1)
    {
        return 0;
    }
    return 2 * bytes - SegmentBytes((rank + 1) % ranks) - SegmentBytes((rank + 2) % ranks);
}

TypeId
RingAllReduceAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingAllReduceAgent")
                            .SetParent<AggregationAgent>()
                            .SetGroupName("InaTraining")
                            .AddConstructor<RingAllReduceAgent>();
    return tid;
}

void
RingAllReduceAgent::DoDispose()
{
    // The transports belong to the protocol and may outlive this agent: no callback into it.
    if (m_sender)
    {
        m_sender->SetMessageAckedCallback(MakeNullCallback<void, uint32_t>());
        m_sender->SetMessageSource(InaTransportSender::MessageSourceCallback());
    }
    if (m_receiver)
    {
        m_receiver->SetMessageReceivedCallback(
            MakeNullCallback<void, uint32_t, uint64_t, std::vector<uint32_t>&>());
    }
    m_sender = nullptr;
    m_receiver = nullptr;
    m_queue.clear();
    m_inbox.clear();
    m_outbox.clear();
    AggregationAgent::DoDispose();
}

void
RingAllReduceAgent::Configure(Ptr<InaTransportSender> toNext,
                              Ptr<InaTransportReceiver> fromPrevious,
                              uint64_t maxChunkBytes,
                              uint64_t minChunkBytes,
                              uint32_t minChunksPerSegment)
{
    m_sender = toNext;
    m_receiver = fromPrevious;
    m_maxChunkBytes = maxChunkBytes;
    m_minChunkBytes = minChunkBytes;
    m_minChunksPerSegment = minChunksPerSegment;
}

void
RingAllReduceAgent::DoSetup()
{
    m_ranks = GetContext().workerHosts.size();
    m_steps = 2 * (m_ranks - 1);
    NS_ABORT_MSG_IF((m_ranks > 1) != (m_sender && m_receiver),
                    "RingAllReduceAgent (job " << GetContext().name << ", rank " << GetRank()
                                               << "): a ring of " << m_ranks
                                               << " needs both flows configured");
    if (m_sender)
    {
        m_sender->SetMessageAckedCallback(MakeCallback(&RingAllReduceAgent::OnAcked, this));
        m_sender->SetMessageSource(MakeCallback(&RingAllReduceAgent::NextMessage, this));
        m_receiver->SetMessageReceivedCallback(MakeCallback(&RingAllReduceAgent::OnReceived, this));
    }
}

RingAllReduceAgent::Layout
RingAllReduceAgent::MakeLayout(uint64_t bytes) const
{
    return Layout::Make(bytes, m_ranks, m_maxChunkBytes, m_minChunkBytes, m_minChunksPerSegment);
}

void
RingAllReduceAgent::DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values)
{
    NS_ABORT_MSG_IF(values && values->size() * 4 != bytes,
                    "RingAllReduceAgent (job " << GetContext().name << ", rank " << GetRank()
                                               << "): tensor " << tensorId << " has " << bytes
                                               << " bytes but " << values->size()
                                               << " values (expected bytes / 4)");
    m_queue.push_back(Tensor{tensorId, bytes, values});
    Pump(true);
}

void
RingAllReduceAgent::OnReceived(uint32_t msgIndex, uint64_t bytes, std::vector<uint32_t>& words)
{
    m_inbox.push_back(Inbound{bytes, std::move(words)});
    Pump(false);
}

void
RingAllReduceAgent::OnAcked(uint32_t msgIndex)
{
    RefreshStats();
}

void
RingAllReduceAgent::Pump(bool fromAllReduce)
{
    if (m_pumping)
    {
        return; // the outer call's loop picks up what was just queued
    }
    m_pumping = true;
    while (true)
    {
        if (!m_active)
        {
            if (m_queue.empty())
            {
                break;
            }
            Begin();
        }
        if (SettleCursor())
        {
            m_finished.push_back(m_queue.front().id);
            m_queue.pop_front();
            m_active = false;
            continue;
        }
        if (m_inbox.empty())
        {
            break;
        }
        Consume(m_inbox.front());
        m_inbox.pop_front();
    }
    RefreshStats();
    m_pumping = false;
    if (m_finished.empty())
    {
        return;
    }
    std::vector<uint64_t> done;
    done.swap(m_finished);
    for (uint64_t id : done)
    {
        if (fromAllReduce)
        {
            Simulator::ScheduleNow(&RingAllReduceAgent::Finished,
                                   Ptr<RingAllReduceAgent>(this),
                                   id);
        }
        else
        {
            NotifyDone(id);
        }
    }
}

void
RingAllReduceAgent::Begin()
{
    const Tensor& t = m_queue.front();
    m_layout = MakeLayout(t.bytes);
    m_rxStep = 0;
    m_rxChunk = 0;
    m_active = true;
    if (m_steps == 0)
    {
        return;
    }
    const uint32_t own = GetRank();
    if (m_layout.Chunks(own) == 0)
    {
        return;
    }
    Outbound out;
    out.queuedPs = NowPs();
    out.ownChunks = true;
    out.layout = m_layout;
    out.segment = own;
    out.end = m_layout.Chunks(own);
    out.values = m_queue.front().values;
    Post(std::move(out));
}

uint32_t
RingAllReduceAgent::SegmentOfStep(uint32_t step) const
{
    // Received at `step`: segment (rank - step - 1) mod n; step < 2 n - 2 keeps this positive.
    return (GetRank() + 2 * m_ranks - step - 1) % m_ranks;
}

bool
RingAllReduceAgent::SettleCursor()
{
    while (m_rxStep < m_steps && m_rxChunk >= m_layout.Chunks(SegmentOfStep(m_rxStep)))
    {
        ++m_rxStep;
        m_rxChunk = 0;
    }
    return m_rxStep >= m_steps;
}

void
RingAllReduceAgent::Post(Outbound out)
{
    m_outbox.push_back(std::move(out));
    m_sender->Wake();
}

bool
RingAllReduceAgent::NextMessage(uint64_t& bytes, std::vector<uint32_t>& words, Time& queued)
{
    if (m_outbox.empty())
    {
        return false;
    }
    Outbound& out = m_outbox.front();
    queued = TimeStep(out.queuedPs);
    if (!out.ownChunks)
    {
        bytes = out.bytes;
        words = std::move(out.words);
        m_outbox.pop_front();
        return true;
    }
    // Read now, not when the tensor began: nothing changes a chunk of the own segment before it
    // has left, since its sum comes back only after every rank has added to it.
    bytes = out.layout.ChunkBytes(out.segment, out.next);
    if (out.values)
    {
        words.resize(bytes / 4);
        std::memcpy(words.data(),
                    out.values->data() + out.layout.ChunkOffset(out.segment, out.next) / 4,
                    bytes);
    }
    if (++out.next == out.end)
    {
        m_outbox.pop_front();
    }
    return true;
}

void
RingAllReduceAgent::Consume(Inbound& in)
{
    const Tensor& t = m_queue.front();
    const uint32_t segment = SegmentOfStep(m_rxStep);
    const uint64_t expected = m_layout.ChunkBytes(segment, m_rxChunk);
    NS_ABORT_MSG_IF(in.bytes != expected,
                    "RingAllReduceAgent (job "
                        << GetContext().name << ", rank " << GetRank() << "): tensor " << t.id
                        << " step " << m_rxStep << " chunk " << m_rxChunk << " should be "
                        << expected << " bytes, but the previous rank sent " << in.bytes
                        << "; every worker must hand the same tensors in the same order");
    if (t.values)
    {
        NS_ABORT_MSG_IF(in.words.size() * 4 != in.bytes,
                        "RingAllReduceAgent (job " << GetContext().name << ", rank " << GetRank()
                                                   << "): tensor " << t.id
                                                   << " carries values but a chunk of " << in.bytes
                                                   << " bytes arrived with " << in.words.size());
        float* local = t.values->data() + m_layout.ChunkOffset(segment, m_rxChunk) / 4;
        const std::size_t n = in.words.size();
        if (m_rxStep + 1 < m_ranks)
        {
            // Reduce-scatter: the partial sum of the ranks before us plus our own gradient; it
            // goes on as it is, and stays here as the start of this segment's sum.
            uint32_t* w = in.words.data();
            for (std::size_t i = 0; i < n; ++i)
            {
                float partial;
                std::memcpy(&partial, w + i, 4);
                const float sum = partial + local[i];
                local[i] = sum;
                std::memcpy(w + i, &sum, 4);
            }
        }
        else
        {
            std::memcpy(local, in.words.data(), n * 4); // all-gather: the final sum
        }
    }
    else
    {
        NS_ABORT_MSG_IF(!in.words.empty(),
                        "RingAllReduceAgent (job " << GetContext().name << ", rank " << GetRank()
                                                   << "): tensor " << t.id
                                                   << " has no values, but the previous rank "
                                                      "sent some");
    }
    // Percent done moves with the bytes: a worker takes in 2 (n - 1) segments of about 1/n of the
    // tensor each, so each chunk counts for n / (2 (n - 1)) of its size, and a whole tensor for
    // its size (a few bytes less, rounded down), as a SwitchML worker's results do.
    NoteResultBytes(in.bytes * m_ranks / (2ULL * (m_ranks - 1)));
    if (m_rxStep + 1 < m_steps)
    {
        Outbound out;
        out.bytes = in.bytes;
        out.words = std::move(in.words);
        out.queuedPs = NowPs();
        Post(std::move(out));
    }
    ++m_rxChunk;
}

void
RingAllReduceAgent::Finished(uint64_t tensorId)
{
    NotifyDone(tensorId);
}

void
RingAllReduceAgent::RefreshStats()
{
    if (!m_sender)
    {
        return;
    }
    // Data packets only: the ACKs this host returns to its predecessor are counted by that
    // flow's receiver, not here (see baselines.rst).
    const InaTransportSender::Stats& s = m_sender->GetStats();
    m_stats.wireBytesSent = s.wireBytesSent;
    m_stats.packetsSent = s.dataPacketsSent;
    m_stats.retransmissions = s.retransmissions;
}

Ptr<InaTransportSender>
RingAllReduceAgent::GetSender() const
{
    return m_sender;
}

Ptr<InaTransportReceiver>
RingAllReduceAgent::GetReceiver() const
{
    return m_receiver;
}

uint32_t
RingAllReduceAgent::GetQueuedTensors() const
{
    return m_queue.size();
}

uint32_t
RingAllReduceAgent::GetInboxMessages() const
{
    return m_inbox.size();
}

bool
RingAllReduceAgent::FlowFailed() const
{
    return m_sender && m_sender->IsFailed();
}

} // namespace ns3
