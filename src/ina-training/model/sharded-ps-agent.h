/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SHARDED_PS_AGENT_H
#define SHARDED_PS_AGENT_H

#include "aggregation-agent.h"
#include "parameter-server-app.h"

#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * A worker of ShardedPsProtocol: cuts each tensor into shards of ShardBytes, pushes every shard to
 * the parameter server that owns its key at once (one reliable flow per server), and completes the
 * tensor when every shard's sum has come back (one flow per server the other way). Tensors are not
 * serialized: all outstanding tensors' shards share the flows, in the order they were handed.
 * "At once" as far as the flows see it: each push flow takes its next shard when it has sent
 * the ones before (InaTransportSender::SetMessageSource), so a tensor of 10^9 shards costs one
 * entry per server here, not a queued message and a key per shard.
 */
class ShardedPsAgent : public AggregationAgent
{
  public:
    /// Which server owns shard `shard` of tensor `tensorId`.
    typedef std::function<uint32_t(uint64_t tensorId, uint32_t shard)> Placement;

    static TypeId GetTypeId();

    /**
     * Called by ShardedPsProtocol before Setup, with one entry per server: the push flow to it,
     * the pull flow from it and that server's key queues for this worker.
     */
    void Configure(std::vector<Ptr<InaTransportSender>> push,
                   std::vector<Ptr<InaTransportReceiver>> pull,
                   std::vector<ParameterServerApp::KeyQueue*> pushKeys,
                   std::vector<ParameterServerApp::KeyQueue*> pullKeys,
                   uint64_t shardBytes,
                   Placement placement);

    Ptr<InaTransportSender> GetPushSender(uint32_t server) const;
    Ptr<InaTransportReceiver> GetPullReceiver(uint32_t server) const;
    /// Tensors handed and not yet completed.
    uint32_t GetOutstandingTensors() const;

  protected:
    void DoDispose() override;

  private:
    bool FlowFailed() const override;

    struct Pending
    {
        std::vector<float>* values;
        uint64_t bytes;
        uint32_t shardsLeft;
    };

    /// The shards of one tensor that one push flow has not taken yet: those of [next, limit)
    /// that the placement gives its server (limit reaches shards once DoAllReduce returns).
    struct Unsent
    {
        uint64_t tensorId;
        std::vector<float>* values;
        uint64_t bytes;
        uint64_t next;
        uint64_t limit;
        uint64_t shards;
        int64_t queuedPs; //!< when the tensor was handed
    };

    void DoSetup() override;
    /// Push flow `server`'s message source: its next shard, its key queued for the server.
    bool NextShard(uint32_t server, uint64_t& bytes, std::vector<uint32_t>& words, Time& queued);
    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override;
    void OnPull(uint32_t server, uint64_t bytes, std::vector<uint32_t>& words);
    void Finished(uint64_t tensorId);
    void RefreshStats();
    // Static, so MakeBoundCallback can bind (agent[, server]): ns-3 <= 3.35 Callbacks cannot
    // wrap lambdas nor bind extra arguments to a member function.
    static void PushAckedThunk(ShardedPsAgent* self, uint32_t message);
    static bool NextShardThunk(ShardedPsAgent* self,
                               uint32_t server,
                               uint64_t& bytes,
                               std::vector<uint32_t>& words,
                               Time& queued);
    static void PullThunk(ShardedPsAgent* self,
                          uint32_t server,
                          uint32_t message,
                          uint64_t bytes,
                          std::vector<uint32_t>& words);

    std::vector<Ptr<InaTransportSender>> m_push;
    std::vector<Ptr<InaTransportReceiver>> m_pull;
    std::vector<ParameterServerApp::KeyQueue*> m_pushKeys;
    std::vector<ParameterServerApp::KeyQueue*> m_pullKeys;
    uint64_t m_shardBytes = 4;
    Placement m_placement;
    std::unordered_map<uint64_t, Pending> m_pending;
    std::vector<std::deque<Unsent>> m_unsent; //!< per server, in the order tensors were handed
    std::vector<uint64_t> m_taken;            //!< per server, shards its push flow has taken
};

} // namespace ns3

#endif /* SHARDED_PS_AGENT_H */
