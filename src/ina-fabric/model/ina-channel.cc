/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-channel.h"

#include "ina-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaChannel");
NS_OBJECT_ENSURE_REGISTERED(InaChannel);

TypeId
InaChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaChannel")
                            .SetParent<Channel>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the wire.",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&InaChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

InaChannel::InaChannel() = default;

void
InaChannel::Add(Ptr<InaNetDevice> device)
{
    NS_ABORT_MSG_IF(m_nDevices == 2, "InaChannel: a link joins exactly two devices");
    m_devices[m_nDevices++] = device;
}

InaNetDevice*
InaChannel::GetPeerOf(const InaNetDevice* device) const
{
    return PeekPointer(m_devices[0]) == device ? PeekPointer(m_devices[1])
                                               : PeekPointer(m_devices[0]);
}

Time
InaChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
InaChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
InaChannel::GetDevice(std::size_t i) const
{
    return m_devices[i];
}

void
InaChannel::DoDispose()
{
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    Channel::DoDispose();
}

} // namespace ns3
