/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_HEADER_H
#define POOL_HEADER_H

#include "ina-protocol-numbers.h"

#include "ns3/ecn-codepoints.h"
#include "ns3/ina-packet.h"

#include <cstdint>

namespace ns3
{

/// Largest job id of the pool protocols: the endpoint range (POOL_ENDPOINT_BASE + j) and 16 bits
/// of the job/seq key.
constexpr uint32_t POOL_MAX_JOB_ID = 0x0fff;

/// Largest number of parameter servers per job: the 2-bit PS index of ATP's code.
constexpr uint32_t POOL_MAX_PS = 4;

/**
 * \ingroup ina-protocol-kit
 * The header of the shared-pool protocols (ATP, and ESA and GRID, which keep ATP's frame), kept in
 * InaPacket::hdr: the 16-byte header of the ATP paper (Lao et al., "ATP: In-network Aggregation
 * for Multi-tenant Learning", NSDI'21, Section 3.1 and Figure 4): two bitmaps, two 5-bit fan-in
 * degrees, six flag bits, a 16-bit aggregator index and the 32-bit job id + sequence number
 * (16 + 16 bits, as ATP's code splits it).
 *
 * Two fields are the simulator's view of things the paper's 16 bytes do not spell out:
 * - `psIndex`: which of the job's parameter servers the fragment belongs to (ATP's code carries it
 *   in two flag bits; with one PS per job, the paper's case, it is always 0);
 * - `priority`: ESA's 8-bit priority (ESA paper, Section 5.1), 0 in ATP and GRID. ESA keeps the
 *   306-B frame, so neither changes the wire size.
 * The full 64-bit fragment number rides in InaPacket::seq: hosts recover it from the 16-bit wire
 * sequence and their window, which the simulator does not need to model.
 *
 * Wire size: Ethernet 14 + IPv4 20 + UDP 8 + header 16 + 62 x int32 = 306 B, the same for gradient
 * and parameter packets.
 */
struct PoolHeader
{
    static constexpr uint8_t FLAG_OVERFLOW = 0x80;  //!< float payload: never aggregated
    static constexpr uint8_t FLAG_RESEND = 0x40;    //!< a worker retransmission
    static constexpr uint8_t FLAG_COLLISION = 0x20; //!< the aggregator was held by another key
    static constexpr uint8_t FLAG_ECN = 0x10;       //!< congestion seen (ORed into aggregates)
    static constexpr uint8_t FLAG_EDGE = 0x08;      //!< edgeSwitchIdentifier: level-1 done
    static constexpr uint8_t FLAG_ACK = 0x04;       //!< a parameter (result) packet
    /// Bits 0x03 are unused by ATP: free for ESA's packet kinds and GRID's collision notice.
    static constexpr uint8_t FLAG_SPARE = 0x03;

    static constexpr uint32_t VALUES = 62;         //!< int32 values per packet
    static constexpr uint32_t HEADER_BYTES = 16;   //!< the header on the wire
    static constexpr uint32_t L2_L3_L4_BYTES = 42; //!< Ethernet + IPv4 + UDP
    static constexpr uint32_t WIRE_BYTES = L2_L3_L4_BYTES + HEADER_BYTES + 4 * VALUES; //!< 306
    static constexpr uint32_t MAX_FAN_IN = 31; //!< 5-bit fan-in degrees

    uint32_t bitmap0;         //!< one-hot: the worker's position under its level-1 switch
    uint32_t bitmap1;         //!< one-hot: its level-1 group's position under the level-2 switch
    uint8_t fanInDegree0;     //!< contributions that complete level 1 (workers of the group)
    uint8_t fanInDegree1;     //!< contributions that complete level 2 (groups of the job)
    uint8_t flags;            //!< FLAG_*
    uint8_t priority;         //!< ESA's priority; 0 in ATP
    uint16_t aggregatorIndex; //!< the aggregator at every switch on the way
    uint8_t psIndex;          //!< which of the job's parameter servers (see above)
    /// Zero in ATP; ESA's control message kind; GRID's plan epoch (the controller's version of
    /// the job's aggregation tree that the sender used: WorkerRoute::epoch).
    uint8_t reserved;
    uint32_t jobIdAndSeq; //!< Key(): the aggregator's owner; 0 would mean "free"

    /**
     * \param jobId 1..0xffff
     * \param seq the fragment number (its low 16 bits go on the wire)
     * \return the 32-bit job id + sequence number, never 0 for a valid job id
     */
    static constexpr uint32_t Key(uint32_t jobId, uint64_t seq)
    {
        return (jobId << 16) | static_cast<uint32_t>(seq & 0xffff);
    }

    /// \return the job id a Key() holds: whose aggregator it is
    static constexpr uint32_t JobOfKey(uint32_t key)
    {
        return key >> 16;
    }

    /// \return whether the packet saw congestion: its IP codepoint or the header's ECN flag
    bool CongestionSeen(const InaPacket* p) const
    {
        return p->ecn == INA_ECN_CE || (flags & FLAG_ECN) != 0;
    }
};

static_assert(sizeof(PoolHeader) <= InaPacket::HDR_BYTES, "PoolHeader must fit InaPacket");
static_assert(PoolHeader::JobOfKey(PoolHeader::Key(0xffff, 0x12345)) == 0xffff,
              "a key's job survives any fragment number");
static_assert(PoolHeader::WIRE_BYTES == 306, "ATP's frame is 306 B (ESA paper, Section 7.1.1)");

} // namespace ns3

#endif /* POOL_HEADER_H */
