/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_HEADER_H
#define ESA_HEADER_H

#include "ns3/pool-header.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup esa
 * ESA's packets: ATP's header (PoolHeader) with its 8-bit `priority` field filled in (ESA paper
 * 5.1: "The ESA Header adds an 8-bit priority field based on the ATP Head"), on 306-B frames as
 * ATP's (ESA 7.1.1; the priority byte is taken as fitting in spare header bits, spec B1.1).
 *
 * What the paper leaves to the implementation (spec B1.1, interpretation): the packet kind rides
 * in ATP's two spare flag bits (PoolHeader::FLAG_SPARE), and the kind of a host-to-host control
 * message in the header's `reserved` byte.
 * - DATA: a gradient fragment on its way to the switches (and, with FLAG_ACK, a result);
 * - REMINDER: from a parameter server to one aggregating switch (dst = that switch): flush the
 *   aggregator of this key (ESA 5.1: "all fields, except the job ID and sequence number, are 0";
 *   interpretation, spec B7.2: the sender also fills in the aggregator index it hashed, and the
 *   frame is full-size, so the switch can swap the partial aggregate into it); the switch sends it
 *   back to the parameter server carrying the partial, or with empty bitmaps when the aggregator
 *   holds another key;
 * - EVICTED: a partial aggregate a preemption pushed out, on its way to its own job's parameter
 *   server (switches on the way only forward it);
 * - CONTROL: host to host, never aggregated: Control names what it is.
 */
struct EsaHeader
{
    /// Packet kinds (PoolHeader::flags & PoolHeader::FLAG_SPARE).
    enum Kind : uint8_t
    {
        DATA = 0,     //!< a gradient fragment, or with FLAG_ACK a result
        REMINDER = 1, //!< parameter server <-> switch: flush one aggregator
        EVICTED = 2,  //!< a preempted partial aggregate, to its job's parameter server
        CONTROL = 3   //!< host to host (PoolHeader::reserved says what)
    };

    /// Control messages (PoolHeader::reserved of a CONTROL packet).
    enum Control : uint8_t
    {
        WORKER_REMINDER = 1, //!< worker -> PS: my result is overdue; here is my own gradient
        PULL = 2,            //!< PS -> worker: send your contribution, or the result if you have it
        CONTRIBUTION = 3,    //!< worker -> PS: my own gradient of the fragment (selective resend)
        CACHED_RESULT = 4    //!< worker -> PS: the result of the fragment, from my cache
    };

    /// A control message without values: 42 B of L2-L4 headers + 16 B, padded to the 60-B minimum.
    static constexpr uint32_t CONTROL_BYTES = 60;

    /// \return the kind of a packet
    static Kind GetKind(const PoolHeader* h)
    {
        return static_cast<Kind>(h->flags & PoolHeader::FLAG_SPARE);
    }

    /// Set the kind of a packet.
    static void SetKind(PoolHeader* h, Kind k)
    {
        h->flags = static_cast<uint8_t>((h->flags & ~PoolHeader::FLAG_SPARE) | k);
    }
};

static_assert(EsaHeader::CONTROL <= PoolHeader::FLAG_SPARE, "ESA's kinds fit ATP's spare bits");

} // namespace ns3

#endif /* ESA_HEADER_H */
