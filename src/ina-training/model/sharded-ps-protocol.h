/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SHARDED_PS_PROTOCOL_H
#define SHARDED_PS_PROTOCOL_H

#include "aggregation-protocol.h"
#include "host-transport-settings.h"
#include "parameter-server-app.h"

#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * The parameter-server baseline (BytePS / MXNet KVStore style), scenario name `ps`: tensors are cut
 * into shards of ShardBytes, every shard has a key (tensor id, shard index), and the key decides
 * which of the job's parameter servers (ctx.psHosts, one ParameterServerApp each) sums it. Workers
 * push their shards (ShardedPsAgent); a server that has all n contributions to a shard sends the
 * sum back to every worker (pull). No in-network aggregation, so psFallbackPackets stays 0.
 *
 * Placement of shard k of tensor t on S servers:
 *  - hash: SplitMix64(SplitMix64(t) + k) mod S, BytePS's default (hash of the key); balanced
 *    over many shards, not within one tensor;
 *  - round-robin: (SplitMix64(t) + k) mod S, MXNet's even split of a big array over the servers
 *    (the tensor's first shard still goes to a hashed server).
 *
 * Flows: for worker w and server p, a push flow w -> p with id ctx.flowIdBase + 2 (w S + p) and a
 * pull flow p -> w with the next id, on endpoints allocated at Install. The transport knobs (Mtu,
 * InitialWindow, MaxWindow, MinRto) apply to both directions; 0 keeps InaTransportSender's default.
 */
class ShardedPsProtocol : public AggregationProtocol
{
  public:
    enum Placement
    {
        HASH,
        ROUND_ROBIN
    };

    static TypeId GetTypeId();

    /// The server (0 .. servers - 1) that owns shard `shard` of tensor `tensorId`.
    static uint32_t ServerOf(uint64_t tensorId,
                             uint32_t shard,
                             uint32_t servers,
                             Placement placement);

    uint32_t GetNServers() const;
    /// Server `index` (in ctx.psHosts order); valid after Install.
    Ptr<ParameterServerApp> GetServer(uint32_t index) const;

    /// True: the job places ps_hosts parameter servers for this protocol.
    bool UsesParameterServers() const override;

    /// ps_servers, ps_shards_reduced and the servers' pull traffic (ps_wire_bytes_sent,
    /// ps_packets_sent, ps_retransmissions), summed over servers.
    std::map<std::string, double> GetCounters() const override;

  protected:
    void DoDispose() override;

  private:
    void DoInstall() override;
    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override;

    // attributes
    uint64_t m_shardBytes;
    Placement m_placement;
    HostTransportSettings m_host; //!< the flows' transport

    std::vector<Ptr<ParameterServerApp>> m_servers;
    std::vector<std::vector<Ptr<InaTransportSender>>> m_workerPush;   //!< [worker][server]
    std::vector<std::vector<Ptr<InaTransportReceiver>>> m_workerPull; //!< [worker][server]
    std::vector<bool> m_agentCreated;
};

} // namespace ns3

#endif /* SHARDED_PS_PROTOCOL_H */
