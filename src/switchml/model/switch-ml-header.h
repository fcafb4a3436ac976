/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_ML_HEADER_H
#define SWITCH_ML_HEADER_H

#include "ns3/ina-packet.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace ns3
{

/// InaPacket::protocol of every SwitchML packet ("S1": SwitchML, version 1 layout).
constexpr uint16_t SWITCHML_PROTOCOL = 0x5301;

/**
 * Host endpoint of job j is SWITCHML_ENDPOINT_BASE + j on every worker, so a multicast result
 * reaches the same endpoint at every member. Below InaHost::AllocateEndpoint's range (1024 up), and
 * low because a host's endpoint table is a flat vector indexed by endpoint; job ids above
 * 1023 - base are refused at set-up.
 */
constexpr uint16_t SWITCHML_ENDPOINT_BASE = 256;
/// The largest endpoint SwitchML uses.
constexpr uint16_t SWITCHML_ENDPOINT_LAST = 1023;

/**
 * \ingroup switchml
 * The SwitchML header as the simulator sees it, kept in InaPacket::hdr. Its wire size is not
 * sizeof() but WireBytes(): the fields below are what the paper's header carries (Algorithm 3:
 * wid, ver, idx, off, the vector) plus what the simulator needs to model more than one tier
 * (origin) and the NSDI'21 exponent exchange (exponent).
 *
 * Wire layout (spec A1): Ethernet 14 + IPv4 20 + UDP 8 = 42 B, then
 * - 32 elements (v1 paper): a 10-B SwitchML header (type 4 bit, size 3, ver 1, job 8, wid 16,
 *   idx 16, off 32) and 128 B of int32: 180 B; 182 B with the 2-B block exponent; 116 B with
 *   float16 on the wire (64 B of payload);
 * - 64 elements (NSDI'21 code): an 8-B header (no wid: the switch maps the source address to the
 *   worker with a table), 256 B of int32 and a 2-B exponent: 308 B.
 * A packet with no payload (the exponent-only first phase of a slot in block-exponent mode) is the
 * headers alone, padded to the 60-B Ethernet minimum.
 */
struct SwitchMlHeader
{
    /// Message types.
    enum Type : uint8_t
    {
        UPDATE = 1, //!< a contribution (worker or child switch) to an aggregating switch
        RESULT = 2  //!< an aggregate on its way down to the workers
    };

    static constexpr uint8_t FLAG_DATA = 0x1;    //!< the packet carries a payload vector
    static constexpr uint8_t FLAG_RETX = 0x2;    //!< sent again: a worker timeout, or a partial
                                                 //!< re-sent up because of one
    static constexpr uint8_t FLAG_HARVEST = 0x4; //!< switch-internal: the next pass reads the high
                                                 //!< halves of a 64-element aggregate

    /// Exponent field of a packet that announces no block (the last phase of a slot's chain).
    static constexpr int16_t EXP_NONE = std::numeric_limits<int16_t>::min();

    uint8_t type;     //!< Type
    uint8_t ver;      //!< pool version (0 or 1) of the slot this phase uses
    uint8_t flags;    //!< FLAG_*
    uint8_t reserved; //!< zero
    uint16_t wid;     //!< contributor id at the receiving switch (worker rank or child index)
    uint16_t idx;     //!< slot index within the job's share of the pool
    uint32_t off;     //!< chunk number in the worker's stream (low 32 bits): names the phase
    uint32_t origin;  //!< host address of the worker whose packet this is or was re-sent for
    int16_t exponent; //!< block-exponent mode: a block's exponent (update) or the maximum (result)

    static constexpr uint32_t L2_L3_L4_BYTES = 42;  //!< Ethernet + IPv4 + UDP
    static constexpr uint32_t MIN_FRAME_BYTES = 60; //!< Ethernet minimum without the FCS

    /**
     * \param elements elements per packet (32 or 64)
     * \param exponentField whether the packet carries the 2-B exponent
     * \param hasData whether it carries the payload vector
     * \param elementBytes bytes of one element on the wire: 4 (int32), or 2 (float16, converted
     *        to and from int32 in the switch; paper, Section 3.7)
     * \return the bytes the packet occupies on a link
     */
    static constexpr uint32_t WireBytes(uint32_t elements,
                                        bool exponentField,
                                        bool hasData,
                                        uint32_t elementBytes = 4)
    {
        // The NSDI'21 layout always has the exponent field; v1 only when the exchange is on.
        const bool v2 = elements > 32;
        const uint32_t header = L2_L3_L4_BYTES + (v2 ? 8 : 10) + (v2 || exponentField ? 2 : 0);
        const uint32_t bytes = header + (hasData ? elementBytes * elements : 0);
        return std::max(bytes, MIN_FRAME_BYTES);
    }
};

static_assert(sizeof(SwitchMlHeader) <= InaPacket::HDR_BYTES, "SwitchMlHeader must fit InaPacket");
static_assert(SwitchMlHeader::WireBytes(32, false, true) == 180, "v1 frame is 180 B");
static_assert(SwitchMlHeader::WireBytes(64, true, true) == 308, "NSDI'21 frame is 308 B");
static_assert(SwitchMlHeader::WireBytes(32, false, true, 2) == 116, "v1 float16 frame is 116 B");

} // namespace ns3

#endif /* SWITCH_ML_HEADER_H */
