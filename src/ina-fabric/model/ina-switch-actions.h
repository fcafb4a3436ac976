/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_SWITCH_ACTIONS_H
#define INA_SWITCH_ACTIONS_H

#include "ina-packet-pool.h"
#include "ina-packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * What a switch offers its pipeline and the program running in it: the ways a packet may leave a
 * pass. InaSwitch implements it; tests implement it with a recording double, so a program can be
 * unit-tested with no topology.
 *
 * Every action takes ownership of the packet. A pass must end each packet it was given in exactly
 * one action (or in Pipeline recirculation), and may create new packets from GetPool() (a result, a
 * partial aggregate for the next tier) and send them too.
 */
class InaSwitchActions
{
  public:
    virtual ~InaSwitchActions() = default;

    /// Forward by the switch's table: unicast by p->dst, or replicate to a multicast group.
    virtual void Forward(InaPacket* p) = 0;
    /// Send out of one port, bypassing the table (a program that knows the port, e.g. a reply).
    virtual void SendOnPort(InaPacket* p, uint32_t port) = 0;
    /// Consume the packet (aggregated into registers, or dropped by the program's logic).
    virtual void Consume(InaPacket* p) = 0;

    virtual InaPacketPool& GetPool() = 0;
    virtual InaAddress GetAddress() const = 0;
    virtual uint32_t GetNPorts() const = 0;
};

} // namespace ns3

#endif /* INA_SWITCH_ACTIONS_H */
