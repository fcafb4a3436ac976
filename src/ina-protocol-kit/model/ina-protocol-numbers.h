/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_PROTOCOL_NUMBERS_H
#define INA_PROTOCOL_NUMBERS_H

#include <cstdint>

namespace ns3
{

/**
 * \file
 * \ingroup ina-protocol-kit
 * Every in-network protocol's packet number and host endpoints, in one place, so that a new
 * protocol picks numbers nobody uses. A switch hands a packet to the program installed for its
 * InaPacket::protocol (SwitchProgram::GetProtocolNumber); a host hands it to the sink bound to its
 * destination endpoint (InaHost::Bind).
 */

/// SwitchML ("S1": SwitchML, version 1 layout).
constexpr uint16_t SWITCHML_PROTOCOL = 0x5301;
/// ATP ("AT").
constexpr uint16_t ATP_PROTOCOL = 0x4154;
/// ESA ("ES"): ESA jobs share a pool of their own, apart from ATP's.
constexpr uint16_t ESA_PROTOCOL = 0x4553;
/// GRID ("GR"): GRID jobs share a pool of their own per switch.
constexpr uint16_t GRID_PROTOCOL = 0x4752;

/**
 * Host endpoint of SwitchML job j is SWITCHML_ENDPOINT_BASE + j on every worker, so a multicast
 * result reaches the same endpoint at every member. Below InaHost::AllocateEndpoint's range (1024
 * up), and low because a host's endpoint table is a flat vector indexed by endpoint; job ids above
 * 1023 - base are refused at set-up.
 */
constexpr uint16_t SWITCHML_ENDPOINT_BASE = 256;
/// The largest endpoint SwitchML uses.
constexpr uint16_t SWITCHML_ENDPOINT_LAST = 1023;

/**
 * Host endpoint of job j of the pool protocols (ATP, ESA, GRID) is POOL_ENDPOINT_BASE + j on every
 * worker and parameter server of the job, so one multicast result reaches the same endpoint at
 * every member. Above SwitchML's range, so the two never meet on a host (InaHost::AllocateEndpoint
 * skips endpoints already bound).
 */
constexpr uint16_t POOL_ENDPOINT_BASE = 0x7000;

} // namespace ns3

#endif /* INA_PROTOCOL_NUMBERS_H */
