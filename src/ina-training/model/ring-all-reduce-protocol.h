/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RING_ALL_REDUCE_PROTOCOL_H
#define RING_ALL_REDUCE_PROTOCOL_H

#include "aggregation-protocol.h"
#include "host-transport-settings.h"

#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * The host-only baseline every in-network aggregation paper compares against: NCCL-style ring
 * all-reduce (reduce-scatter, then all-gather, chunked and pipelined; see RingAllReduceAgent) over
 * inasim's reliable transport (InaTransportSender / InaTransportReceiver: window, SACK, loss
 * recovery, DCTCP reaction to ECN). Scenario name `ring`.
 *
 * The workers form a ring in rank order; Install makes one flow per rank, rank r to rank
 * (r + 1) mod n, with flow id ctx.flowIdBase + r, on endpoints it allocates on the worker hosts,
 * and binds every receiver at once, so no packet can arrive before its endpoint exists. Each rank
 * moves 2 (n - 1) / n of the tensor, which on a non-blocking fabric makes the all-reduce take the
 * bus-bandwidth bound 2 (n - 1) / n B / rate (times the header overhead).
 *
 * Transport knobs (Mtu, InitialWindow, MaxWindow, MinRto) are attributes of the protocol; 0 keeps
 * InaTransportSender's own default.
 */
class RingAllReduceProtocol : public AggregationProtocol
{
  public:
    static TypeId GetTypeId();

    /// The flow rank `rank` sends on (null for a ring of one, or before Install).
    Ptr<InaTransportSender> GetSender(uint32_t rank) const;
    /// The flow rank `rank` receives on.
    Ptr<InaTransportReceiver> GetReceiver(uint32_t rank) const;

  protected:
    void DoDispose() override;

  private:
    void DoInstall() override;
    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override;

    // attributes
    uint64_t m_chunkBytes;
    uint64_t m_minChunkBytes;
    uint32_t m_minChunksPerSegment;
    HostTransportSettings m_host; //!< the flows' transport

    std::vector<Ptr<InaTransportSender>> m_senders;     //!< by rank: to rank + 1
    std::vector<Ptr<InaTransportReceiver>> m_receivers; //!< by rank: from rank - 1
    std::vector<bool> m_agentCreated;
};

} // namespace ns3

#endif /* RING_ALL_REDUCE_PROTOCOL_H */
