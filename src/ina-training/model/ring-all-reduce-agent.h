/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_ALL_REDUCE_AGENT_H
#define RING_ALL_REDUCE_AGENT_H

#include "aggregation-agent.h"

#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * One rank of a ring all-reduce (see RingAllReduceProtocol): a reduce-scatter of n - 1 steps, then
 * an all-gather of n - 1 steps, over one reliable transport flow to the next rank and one from the
 * previous rank.
 *
 * The tensor is cut into n segments and every segment into chunks (Layout). At step k rank r sends
 * segment (r - k) mod n and receives segment (r - k - 1) mod n, which it sends on at step k + 1.
 * Chunks are pipelined the way NCCL does it: a chunk is reduced (reduce-scatter) or stored
 * (all-gather) and handed to the outgoing flow as soon as it has arrived, not when its whole step
 * has. The outgoing flow therefore carries the messages of a tensor in (step, chunk) order, and the
 * receiver knows which chunk a message is by counting.
 *
 * Tensors are all-reduced one at a time, in the order AllReduce was called (NCCL on one stream):
 * every rank must hand the same tensors in the same order, as NCCL requires. A rank may receive
 * chunks of a tensor before its own AllReduce for it (its predecessor started earlier); they wait
 * in an inbox until then.
 */
class RingAllReduceAgent : public AggregationAgent
{
  public:
    /**
     * How a tensor of `bytes` bytes is cut for `ranks` ranks. Segments are as equal as whole 4-byte
     * values allow (the first bytes/4 mod n segments hold one value more; the last segment also
     * takes the bytes % 4 odd bytes of a virtual payload). Every segment is cut into chunks of
     * `chunkBytes` (the last chunk shorter); an empty segment has no chunk.
     */
    struct Layout
    {
        uint64_t bytes = 0;
        uint32_t ranks = 1;
        uint64_t chunkBytes = 4;

        /**
         * The layout every rank computes for the same tensor. The chunk is maxChunkBytes, unless
         * segments are smaller than minChunksPerSegment of those: then it is the segment split
         * minChunksPerSegment ways (rounded up to whole values), but at least minChunkBytes, so
         * small tensors still pipeline. maxChunkBytes and minChunkBytes are multiples of 4.
         */
        static Layout Make(uint64_t bytes,
                           uint32_t ranks,
                           uint64_t maxChunkBytes,
                           uint64_t minChunkBytes,
                           uint32_t minChunksPerSegment);

        uint64_t SegmentOffset(uint32_t segment) const;
        uint64_t SegmentBytes(uint32_t segment) const;
        uint64_t Chunks(uint32_t segment) const;
        /// Offset of chunk `chunk` of `segment` in the tensor.
        uint64_t ChunkOffset(uint32_t segment, uint64_t chunk) const;
        uint64_t ChunkBytes(uint32_t segment, uint64_t chunk) const;
        /// Payload bytes rank `rank` sends for the whole all-reduce: every segment but
        /// rank + 1 (reduce-scatter) and every segment but rank + 2 (all-gather).
        uint64_t BytesSentBy(uint32_t rank) const;
    };

    static TypeId GetTypeId();

    /**
     * Called by RingAllReduceProtocol before Setup: the connected flow to the next rank and the
     * listening flow from the previous one (both null for a ring of one), and the chunking
     * parameters of Layout::Make.
     */
    void Configure(Ptr<InaTransportSender> toNext,
                   Ptr<InaTransportReceiver> fromPrevious,
                   uint64_t maxChunkBytes,
                   uint64_t minChunkBytes,
                   uint32_t minChunksPerSegment);

    /// The layout this agent uses for a tensor of `bytes` bytes.
    Layout MakeLayout(uint64_t bytes) const;
    Ptr<InaTransportSender> GetSender() const;
    Ptr<InaTransportReceiver> GetReceiver() const;
    /// Tensors handed and not yet completed (the one in progress included).
    uint32_t GetQueuedTensors() const;
    /// Chunks received ahead of this rank's own AllReduce, waiting in the inbox now.
    uint32_t GetInboxMessages() const;

  protected:
    void DoDispose() override;

  private:
    bool FlowFailed() const override;

    struct Tensor
    {
        uint64_t id;
        uint64_t bytes;
        std::vector<float>* values;
    };

    struct Inbound
    {
        uint64_t bytes;
        std::vector<uint32_t> words;
    };

    /**
     * What waits for the flow to the next rank, in the order it must leave: a chunk passed on
     * (`bytes`, `words`), or the chunks [next, end) of this rank's own segment of a tensor, cut by
     * `layout` and read from `values` (if any) only when the flow takes them, so that a tensor's
     * millions of chunks cost one entry and not one queued message each.
     */
    struct Outbound
    {
        uint64_t bytes = 0;
        std::vector<uint32_t> words;
        int64_t queuedPs = 0; //!< when it was ready to go (the transport's MessageOverhead)
        bool ownChunks = false;
        Layout layout;
        uint32_t segment = 0;
        uint64_t next = 0;
        uint64_t end = 0;
        const std::vector<float>* values = nullptr;
    };

    void DoSetup() override;
    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override;

    void OnReceived(uint32_t msgIndex, uint64_t bytes, std::vector<uint32_t>& words);
    void OnAcked(uint32_t msgIndex);
    /// Start queued tensors and consume the inbox as far as possible; report finished tensors
    /// (scheduled, not called, when `fromAllReduce`, so AllReduce never calls back into its
    /// caller).
    void Pump(bool fromAllReduce);
    void Begin();
    void Consume(Inbound& in);
    /// Skip steps whose segment has no chunk; true when every step is done.
    bool SettleCursor();
    uint32_t SegmentOfStep(uint32_t step) const;
    /// Queues `out` for the next rank and lets the flow take what its window allows.
    void Post(Outbound out);
    /// The flow's message source: the front of m_outbox, one chunk at a time.
    bool NextMessage(uint64_t& bytes, std::vector<uint32_t>& words, Time& queued);
    void Finished(uint64_t tensorId);
    void RefreshStats();

    // configured
    Ptr<InaTransportSender> m_sender;
    Ptr<InaTransportReceiver> m_receiver;
    uint64_t m_maxChunkBytes = 4;
    uint64_t m_minChunkBytes = 4;
    uint32_t m_minChunksPerSegment = 1;
    uint32_t m_ranks = 1;
    uint32_t m_steps = 0; //!< 2 (n - 1)

    // state
    std::deque<Tensor> m_queue; //!< front is in progress when m_active
    bool m_active = false;
    Layout m_layout;
    uint32_t m_rxStep = 0;  //!< step of the next chunk expected from the previous rank
    uint64_t m_rxChunk = 0; //!< its chunk within that step's segment
    std::deque<Inbound> m_inbox;
    std::deque<Outbound> m_outbox; //!< what the flow to the next rank has not taken yet
    bool m_pumping = false;
    std::vector<uint64_t> m_finished; //!< completed while pumping, reported after
};

} // namespace ns3

#endif /* RING_ALL_REDUCE_AGENT_H */
