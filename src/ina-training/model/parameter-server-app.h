/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PARAMETER_SERVER_APP_H
#define PARAMETER_SERVER_APP_H

#include "ns3/application.h"
#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * One parameter server of ShardedPsProtocol, an Application on its host. Every worker pushes the
 * shards this server owns over its own reliable flow; the server sums them (real floats when the
 * job carries values) and, once all n workers' contributions to a shard are in, sends the sum back
 * to every worker over one flow per worker (the pull).
 *
 * A shard is named by its key (tensor id, shard index), which a real parameter server reads from
 * the message header. Here the key travels beside the message: the sender appends it to the
 * flow's key queue when it queues the message, and the receiver takes the front key when the
 * message is delivered. The transport delivers a flow's messages once each and in order, so the
 * two always match; the key's bytes are part of the transport's per-packet HeaderBytes.
 */
class ParameterServerApp : public Application
{
  public:
    /// The key of a shard: tensor id (unique within the job) and shard index within the tensor.
    struct ShardKey
    {
        uint64_t tensorId;
        uint32_t shard;
    };

    /// Keys of the messages queued on one flow, oldest first.
    typedef std::deque<ShardKey> KeyQueue;

    /// Counters, computed when asked.
    struct Stats
    {
        uint64_t shardsReduced = 0;  //!< shards summed over every worker and sent back
        uint64_t pushesReceived = 0; //!< worker contributions received
        uint64_t bytesReceived = 0;  //!< payload bytes of those
        uint64_t wireBytesSent = 0;  //!< data wire bytes of the pull flows
        uint64_t packetsSent = 0;    //!< data packets of the pull flows
        uint64_t retransmissions = 0;
    };

    static TypeId GetTypeId();

    /**
     * Wire the server: `pushFlows[w]` is listening for worker w's pushes, `pullFlows[w]` is
     * connected to worker w's pull receiver. `name` names the server in error messages.
     */
    void Setup(const std::string& name,
               bool checkValues,
               std::vector<Ptr<InaTransportReceiver>> pushFlows,
               std::vector<Ptr<InaTransportSender>> pullFlows);

    /// Keys of worker w's push messages to this server (the worker appends, the server takes).
    KeyQueue* GetPushKeys(uint32_t worker);
    /// Keys of this server's pull messages to worker w (the server appends, the worker takes).
    KeyQueue* GetPullKeys(uint32_t worker);

    Stats GetStats() const;
    /// Shards with some but not all contributions in.
    uint32_t GetPendingShards() const;
    uint32_t GetNWorkers() const;

  protected:
    void DoDispose() override;

  private:
    struct Accumulator
    {
        uint64_t bytes = 0;
        uint32_t contributions = 0;
        std::vector<bool> from;      //!< workers already counted
        std::vector<uint32_t> words; //!< the running sum, as float bits (checkValues)
    };

    struct KeyHash
    {
        std::size_t operator()(const ShardKey& k) const;
    };

    struct KeyEqual
    {
        bool operator()(const ShardKey& a, const ShardKey& b) const;
    };

    void StartApplication() override;
    void StopApplication() override;
    void OnPush(uint32_t worker, uint64_t bytes, std::vector<uint32_t>& words);
    // Static, so MakeBoundCallback can bind (server, worker): ns-3 <= 3.35 Callbacks cannot
    // wrap lambdas nor bind extra arguments to a member function.
    static void PushThunk(ParameterServerApp* self,
                          uint32_t worker,
                          uint32_t message,
                          uint64_t bytes,
                          std::vector<uint32_t>& words);

    std::string m_name;
    bool m_checkValues = false;
    std::vector<Ptr<InaTransportReceiver>> m_push;
    std::vector<Ptr<InaTransportSender>> m_pull;
    std::vector<KeyQueue> m_pushKeys;
    std::vector<KeyQueue> m_pullKeys;
    std::unordered_map<ShardKey, Accumulator, KeyHash, KeyEqual> m_pending;
    uint64_t m_shardsReduced = 0;
    uint64_t m_pushesReceived = 0;
    uint64_t m_bytesReceived = 0;
};

} // namespace ns3

#endif /* PARAMETER_SERVER_APP_H */
