/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BENCH_PERMUTATION_TRAFFIC_H
#define BENCH_PERMUTATION_TRAFFIC_H

// The traffic of the fabric benchmarks (fabric-bench, scale-bench): every host sends to its
// partner of a permutation at line rate, into a sink that only frees the packets, so the measured
// cost is the fabric's.

#include "bench-paced-sender.h"

#include "ns3/ina-fabric.h"

#include <memory>
#include <vector>

namespace ns3
{

/// Host i sends `packetsPerHost` packets of PACKET_BYTES to host perm[i], one per packet time at
/// 100 Gb/s; the hosts start 1 ns apart (modulo a packet time), so starts do not all coincide.
class BenchPermutationTraffic
{
  public:
    static constexpr uint16_t PORT = 9;
    static constexpr uint32_t PACKET_BYTES = 1500;

    BenchPermutationTraffic(InaFabric& fabric,
                            const std::vector<uint32_t>& perm,
                            uint64_t packetsPerHost)
        : m_discard(&fabric.GetPool())
    {
        const int64_t gap = PACKET_BYTES * 80; // line rate at 100 Gb/s
        m_senders.reserve(perm.size());
        for (uint32_t i = 0; i < perm.size(); ++i)
        {
            Ptr<InaHost> host = fabric.GetHost(i);
            host->Bind(PORT, &m_discard);
            m_senders.push_back(std::make_unique<BenchPacedSender>(PeekPointer(host),
                                                                   perm[i],
                                                                   PORT,
                                                                   PACKET_BYTES,
                                                                   packetsPerHost,
                                                                   gap));
            m_senders.back()->Start((i * 1000) % gap);
        }
    }

  private:
    /// Frees what arrives.
    class Discard : public InaPacketSink
    {
      public:
        explicit Discard(InaPacketPool* pool)
            : m_pool(pool)
        {
        }

        void Receive(InaPacket* p, uint32_t port) override
        {
            m_pool->Free(p);
        }

      private:
        InaPacketPool* m_pool;
    };

    Discard m_discard;
    std::vector<std::unique_ptr<BenchPacedSender>> m_senders;
};

} // namespace ns3

#endif // BENCH_PERMUTATION_TRAFFIC_H
