/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TRANSPORT_HEADER_H
#define INA_TRANSPORT_HEADER_H

#include "ns3/ina-packet.h"

#include <cstdint>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The header of inasim's reliable transport (InaTransportSender / InaTransportReceiver), kept in
 * InaPacket::hdr. Its bytes are not what occupies the wire: the sender's HeaderBytes attribute
 * stands for Ethernet + IP + UDP + this header on the link.
 *
 * A flow numbers its packets 0, 1, 2, ... across all its messages (InaPacket::seq); a message is a
 * contiguous run of them. Data packets say where they sit in their message, so the receiver can
 * place a packet whatever order it arrives in. ACKs carry the receiver's cumulative position and
 * echo the transmission they answer (its order number and time), which gives the sender an exact
 * RTT sample and a per-packet SACK even for retransmissions.
 */
struct InaTransportHeader
{
    static constexpr uint8_t DATA = 1;
    static constexpr uint8_t ACK = 2;
    /// ACK: the data packet it answers arrived with CE (DCTCP's exact per-packet echo).
    static constexpr uint8_t FLAG_ECE = 1;
    /// ACK of a go-back-N receiver: a packet after cumAck arrived out of order and was dropped;
    /// the sender resends everything from cumAck (an RDMA NIC's NAK, PSN sequence error).
    static constexpr uint8_t FLAG_NAK = 2;

    uint8_t type;          //!< DATA or ACK
    uint8_t flags;         //!< FLAG_ECE, FLAG_NAK on ACKs
    uint16_t reserved;     //!< zero
    uint32_t payloadBytes; //!< DATA: message bytes this packet carries
    uint32_t msgPackets;   //!< DATA: packets in the message
    uint32_t msgIndex;     //!< DATA: position of the message on the flow (0, 1, ...)
    uint64_t msgFirstSeq;  //!< DATA: sequence number of the message's first packet
    uint64_t msgBytes;     //!< DATA: message length in bytes
    uint64_t offset;       //!< DATA: byte offset of this payload in the message
    uint64_t cumAck;       //!< ACK: every packet below this sequence number has arrived
    uint64_t txOrder;      //!< DATA: sender's transmission counter; ACK: echoed
    int64_t tsPs;          //!< DATA: time of this transmission (ps); ACK: echoed
};

static_assert(sizeof(InaTransportHeader) <= InaPacket::HDR_BYTES,
              "InaTransportHeader must fit InaPacket::hdr");
static_assert(std::is_trivially_copyable<InaTransportHeader>::value,
              "InaTransportHeader must be POD");

} // namespace ns3

#endif /* INA_TRANSPORT_HEADER_H */
