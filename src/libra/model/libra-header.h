/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_HEADER_H
#define LIBRA_HEADER_H

#include "ns3/ina-packet.h"

#include <cstdint>
#include <cstring>

namespace ns3
{

/// InaPacket::protocol of every Libra packet to or from the switch ("LB").
constexpr uint16_t LIBRA_PROTOCOL = 0x4c42;

/**
 * Host endpoint of Libra job j on every worker is LIBRA_ENDPOINT_BASE + j, so a multicast result
 * reaches the same endpoint at every member. Below InaHost::AllocateEndpoint's range (1024 up),
 * above SwitchML's (256 .. 1023 is SwitchML's, so Libra takes 64 .. 255): job ids up to 191.
 */
constexpr uint16_t LIBRA_ENDPOINT_BASE = 64;
/// The largest endpoint Libra uses.
constexpr uint16_t LIBRA_ENDPOINT_LAST = 255;

/**
 * \ingroup libra
 * The Libra header as the simulator sees it, in InaPacket::hdr. The paper gives no field list;
 * these are the fields the spec proposes (type, retransmit flag, job, worker, sequence, pair
 * count) plus the round. On the wire it is 12 B after Ethernet
 * 14 + IPv4 20 + UDP 8 (LibraLayout::HEADER_BYTES = 54 B in all).
 *
 * The (rank, value) pairs of a push ride in InaPacket::values as two 32-bit words each (rank,
 * float bits), always: the switch needs the ranks even when values are not checked (then the
 * values are 0). A pull carries the same words with the values zero (only its ranks count on the
 * wire), and comes back as the RESULT with the sums in their place.
 */
struct LibraHeader
{
    /// Message types.
    enum Type : uint8_t
    {
        PUSH = 1,           //!< worker -> switch: hot pairs of one round
        PUSH_ACK = 2,       //!< switch -> worker: the push was aggregated (or had been before)
        DONE = 3,           //!< worker -> switch: seq 0: every push of this round acknowledged;
                            //!< seq 1: every pull of this round answered
        DONE_ACK = 4,       //!< switch -> worker
        READY = 5,          //!< switch -> workers (multicast): every worker's DONE of phase seq is
                            //!< in; 0: pull, 1: the registers are clean, push the next round
        READY_ACK = 6,      //!< worker -> switch CPU
        PULL = 7,           //!< worker -> switch: read the sums of the ranks of one of its pushes
        RESULT = 8,         //!< switch -> worker: a pull answered, its ranks with their sums
        RESULT_ACK = 9,     //!< worker -> switch CPU
        HEARTBEAT = 10,     //!< controller -> switch: are you well (paper Sec. 3.6, Figure 11)
        HEARTBEAT_ACK = 11, //!< switch -> controller: the switch's statistics (values: packets
                            //!< its ports sent and lost, as two 64-bit counts; pairs: held copies)
        STATE_PULL = 12,    //!< controller -> failing switch: send chunk seq of the job's state
                            //!< (the first one freezes the job there)
        STATE = 13,         //!< switch -> controller: chunk seq of round (the chunk count)
        STATE_INSTALL = 14, //!< controller -> standby: chunk seq of round (the chunk count)
        STATE_INSTALL_ACK = 15 //!< standby -> controller
    };

    /// Bytes of a header-only Libra packet (DONE, PULL, the ACKs): 54 B of headers, padded to
    /// the 60-B Ethernet minimum.
    static constexpr uint32_t MIN_FRAME_BYTES = 60;

    /// Bytes of a job's state one STATE or STATE_INSTALL packet carries (the controller's
    /// transfer; 54 B of headers more, within a 1500-B MTU).
    static constexpr uint32_t STATE_CHUNK_BYTES = 1024;

    static constexpr uint8_t FLAG_RETX = 0x1;     //!< sent again after a timeout (paper Sec. 3.6)
    static constexpr uint8_t FLAG_FROM_CPU = 0x2; //!< re-injected by the switch CPU after the
                                                  //!< record check: take the fast path

    uint8_t type;      //!< Type
    uint8_t flags;     //!< FLAG_*
    uint16_t worker;   //!< worker rank (sender of a push/done/pull/ack; addressee of a resend)
    uint16_t pairs;    //!< pairs in a push
    uint16_t reserved; //!< zero
    uint32_t round;    //!< the round (iteration) the packet belongs to
    uint32_t seq;      //!< push: packet index within the worker's round; pull/result: the push
                       //!< packet whose ranks it reads; done/ready (and their ACKs): the phase
};

/// A float as the 32-bit word that carries it in a packet's values and in the switch's registers.
inline uint32_t
LibraFloatBits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

/// The float a 32-bit word of a packet or register holds.
inline float
LibraBitsFloat(uint32_t u)
{
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

} // namespace ns3

#endif /* LIBRA_HEADER_H */
