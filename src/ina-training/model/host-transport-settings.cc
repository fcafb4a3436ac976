/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "host-transport-settings.h"

#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"

namespace ns3
{

void
HostTransportSettings::MakeFactories(uint32_t maxTimeouts,
                                     ObjectFactory& sender,
                                     ObjectFactory& receiver) const
{
    sender.SetTypeId(InaTransportSender::GetTypeId());
    receiver.SetTypeId(InaTransportReceiver::GetTypeId());
    // A host baseline gives up like an INA agent, after the job's MaxTimeouts, unless the
    // profile (applied after) models a stack with its own retry count.
    sender.Set("MaxTimeouts", UintegerValue(maxTimeouts));
    InaTransportProfile::Apply(transport, sender, receiver);
    if (!messageOverhead.IsZero())
    {
        sender.Set("MessageOverhead", TimeValue(messageOverhead));
    }
    if (mtu != 0)
    {
        sender.Set("Mtu", UintegerValue(mtu));
    }
    if (initialWindow != 0)
    {
        sender.Set("InitialWindow", UintegerValue(initialWindow));
    }
    if (maxWindow != 0)
    {
        sender.Set("MaxWindow", UintegerValue(maxWindow));
    }
    if (!minRto.IsZero())
    {
        sender.Set("MinRto", TimeValue(minRto));
    }
}

} // namespace ns3
