/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_PACKET_POOL_H
#define INA_PACKET_POOL_H

#include "ina-packet.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Free lists of InaPacket and InaValueBuffer, in the manner of htsim's PacketDB: after warm-up the
 * fast path allocates nothing. One pool per fabric (no process-wide state), so two simulations
 * built in one process do not share packets.
 */
class InaPacketPool
{
  public:
    InaPacketPool() = default;
    InaPacketPool(const InaPacketPool&) = delete;
    InaPacketPool& operator=(const InaPacketPool&) = delete;

    /// A packet with every field zeroed but `uid`, which is fresh.
    InaPacket* Alloc();
    /// A copy of `p`, its values (if any) copied into a buffer of its own, with a fresh uid.
    InaPacket* Clone(const InaPacket* p);
    /// Returns `p` and its value buffer to the pool.
    void Free(InaPacket* p);

    /// A value buffer of exactly `n` words, zeroed.
    InaValueBuffer* AllocValues(uint32_t n);
    void FreeValues(InaValueBuffer* v);

    uint64_t GetInUse() const
    {
        return m_inUse;
    }

    uint64_t GetPeakInUse() const
    {
        return m_peakInUse;
    }

    uint64_t GetAllocated() const
    {
        return m_allocated;
    }

  private:
    void Grow();

    static constexpr uint32_t BLOCK = 1024;
    std::vector<std::unique_ptr<InaPacket[]>> m_blocks;
    std::vector<std::unique_ptr<InaValueBuffer>> m_valueBuffers;
    InaPacket* m_free = nullptr;
    InaValueBuffer* m_freeValues = nullptr;
    uint64_t m_nextUid = 1;
    uint64_t m_inUse = 0;
    uint64_t m_peakInUse = 0;
    uint64_t m_allocated = 0;
};

} // namespace ns3

#endif /* INA_PACKET_POOL_H */
