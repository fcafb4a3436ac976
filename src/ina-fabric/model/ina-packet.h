/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_PACKET_H
#define INA_PACKET_H

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Node addresses: hosts are 0..H-1, switches follow. A destination with INA_MULTICAST_BIT set names
 * a multicast group instead of a node.
 */
using InaAddress = uint32_t;
constexpr InaAddress INA_MULTICAST_BIT = 0x80000000u;
constexpr InaAddress INA_NO_ADDRESS = 0xffffffffu;

/// Protocol number 0 is plain forwarding: switches never hand such packets to a program.
constexpr uint16_t INA_PROTO_NONE = 0;

/**
 * \ingroup ina-fabric
 * Real gradient values riding beside a packet (check_values mode). Reused through the pool, so the
 * vector keeps its capacity and the fast path does not allocate.
 */
struct InaValueBuffer
{
    std::vector<uint32_t> words; //!< raw 32-bit words: int32 or float, as the protocol says
    InaValueBuffer* nextFree = nullptr;

    int32_t* AsInt32()
    {
        return reinterpret_cast<int32_t*>(words.data());
    }

    float* AsFloat()
    {
        return reinterpret_cast<float*>(words.data());
    }
};

/**
 * \ingroup ina-fabric
 * The packet on inasim's fast path: a plain struct from InaPacketPool, never an ns-3 Packet (those
 * are made only at an ns-3 NetDevice boundary and for pcap; see performance.md Part D for why).
 *
 * Only `wireBytes` occupies links: it counts every header and the payload as they would be on the
 * wire. The fields below are the simulator's view of those headers. A protocol keeps its own header
 * (a POD struct of at most HDR_BYTES) in `hdr` and reads it with Header<T>().
 */
struct InaPacket
{
    static constexpr uint32_t HDR_BYTES = 64;

    InaAddress src;     //!< sending node
    InaAddress dst;     //!< destination node, or multicast group | INA_MULTICAST_BIT
    uint32_t flowId;    //!< ECMP hash input and per-flow route key
    uint32_t jobId;     //!< training job (0 for plain traffic)
    uint16_t srcPort;   //!< endpoint at the source host
    uint16_t dstPort;   //!< endpoint at the destination host
    uint16_t protocol;  //!< switch program that handles it; INA_PROTO_NONE: forwarding only
    uint8_t priority;   //!< strict-priority class on links (0 is served first)
    uint8_t ecn;        //!< ECN codepoint (ecn-codepoints.h)
    uint32_t wireBytes; //!< bytes this packet occupies on a link
    uint32_t passes;    //!< pipeline passes taken at the current switch (recirculation count + 1)
    uint64_t seq;       //!< transport or protocol sequence number
    uint64_t uid;       //!< unique per allocation, for pcap and debugging
    int64_t sentPs;     //!< simulated time (ps) the sender first sent this data, for FCT/RTT
    InaValueBuffer* values; //!< real values, or nullptr when the payload is virtual
    InaPacket* nextFree;    //!< pool linkage

    alignas(8) uint8_t hdr[HDR_BYTES]; //!< protocol header area

    template<typename T>
    T* Header()
    {
        static_assert(sizeof(T) <= HDR_BYTES, "protocol header does not fit InaPacket::hdr");
        static_assert(std::is_trivially_copyable<T>::value, "protocol headers must be POD");
        return reinterpret_cast<T*>(hdr);
    }

    template<typename T>
    const T* Header() const
    {
        static_assert(sizeof(T) <= HDR_BYTES, "protocol header does not fit InaPacket::hdr");
        return reinterpret_cast<const T*>(hdr);
    }

    bool IsMulticast() const
    {
        return (dst & INA_MULTICAST_BIT) != 0;
    }
};

} // namespace ns3

#endif /* INA_PACKET_H */
