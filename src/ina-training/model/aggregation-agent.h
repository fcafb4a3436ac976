/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_AGENT_H
#define AGGREGATION_AGENT_H

#include "aggregation-protocol.h"

#include "ns3/callback.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * The host side of a protocol, one per worker: the one interface a WorkerApp talks to. Give it a
 * tensor, get a callback when the tensor is back aggregated over every worker of the job.
 *
 * A worker may hand several tensors before the first comes back (wait-free back-propagation hands
 * each layer's gradient as its backward pass ends); the agent decides how they share the network
 * (in order, interleaved, prioritised), and reports each on completion, in any order.
 *
 * Values: with the job's checkValues, `values` holds bytes/4 floats, this worker's gradient, and
 * on completion must hold the aggregated sum. Without it `values` is nullptr and payloads are
 * virtual: the agent moves only sizes.
 */
class AggregationAgent : public Object
{
  public:
    typedef Callback<void, uint64_t> DoneCallback; //!< argument: the tensor id

    /// Counters every agent keeps, for summary.json.
    struct Stats
    {
        uint64_t tensors = 0;           //!< tensors all-reduced
        uint64_t payloadBytes = 0;      //!< tensor bytes handed to AllReduce
        uint64_t wireBytesSent = 0;     //!< bytes this host put on the wire for the job
        uint64_t packetsSent = 0;       //!< packets this host sent for the job
        uint64_t retransmissions = 0;   //!< packets sent again
        uint64_t psFallbackPackets = 0; //!< packets that went to a parameter server instead of
                                        //!< being aggregated in the network
    };

    static TypeId GetTypeId();
    AggregationAgent();
    ~AggregationAgent() override;

    /// Called by the protocol before the first AllReduce.
    void Setup(const JobContext& ctx, uint32_t rank, Ptr<AggregationProtocol> protocol);
    void SetDoneCallback(DoneCallback cb);

    /**
     * Aggregate tensor `tensorId` (unique within the job; the same id at every worker names the
     * same tensor) of `bytes` bytes. Ownership of `values` stays with the caller, who keeps it
     * alive until the callback.
     */
    void AllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values);

    const Stats& GetStats() const;
    uint32_t GetRank() const;
    const JobContext& GetContext() const;
    Ptr<InaHost> GetHost() const;

  protected:
    void DoDispose() override;
    /// Subclasses report a finished tensor here (values, if any, already hold the sum).
    void NotifyDone(uint64_t tensorId);
    Stats m_stats;

  private:
    virtual void DoSetup() = 0;
    virtual void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) = 0;

    JobContext m_ctx;
    uint32_t m_rank = 0;
    Ptr<AggregationProtocol> m_protocol;
    Ptr<InaHost> m_host;
    DoneCallback m_done;
};

} // namespace ns3

#endif /* AGGREGATION_AGENT_H */
