/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-host.h"

#include "ina-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaHost");
NS_OBJECT_ENSURE_REGISTERED(InaHost);

namespace
{

/// Where `port` is or would go in a list of (endpoint, sink) sorted by endpoint.
template<class List>
auto
HighSlot(List& list, uint16_t port)
{
    return std::lower_bound(list.begin(), list.end(), port, [](const auto& e, uint16_t p) {
        return e.first < p;
    });
}

} // namespace

TypeId
InaHost::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaHost")
                            .SetParent<Object>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaHost>();
    return tid;
}

void
InaHost::DoDispose()
{
    m_endpoints.clear();
    m_highEndpoints.clear();
    m_port = nullptr;
    m_device = nullptr;
    Object::DoDispose();
}

void
InaHost::SetAddress(InaAddress address)
{
    m_address = address;
}

InaAddress
InaHost::GetAddress() const
{
    return m_address;
}

void
InaHost::SetPort(InaPort* port)
{
    m_port = port;
    m_device = dynamic_cast<InaNetDevice*>(port);
}

InaPort*
InaHost::GetPort() const
{
    return m_port;
}

void
InaHost::SetPool(InaPacketPool* pool)
{
    m_pool = pool;
}

InaPacketPool&
InaHost::GetPool() const
{
    return *m_pool;
}

void
InaHost::Bind(uint16_t port, InaPacketSink* sink)
{
    if (port >= DIRECT_ENDPOINTS)
    {
        auto it = HighSlot(m_highEndpoints, port);
        NS_ABORT_MSG_IF(it != m_highEndpoints.end() && it->first == port,
                        "InaHost " << m_address << ": endpoint " << port << " is already bound");
        m_highEndpoints.insert(it, {port, sink});
        return;
    }
    if (port >= m_endpoints.size())
    {
        m_endpoints.resize(port + 1, nullptr);
    }
    NS_ABORT_MSG_IF(m_endpoints[port] != nullptr,
                    "InaHost " << m_address << ": endpoint " << port << " is already bound");
    m_endpoints[port] = sink;
}

void
InaHost::Unbind(uint16_t port)
{
    if (port >= DIRECT_ENDPOINTS)
    {
        auto it = HighSlot(m_highEndpoints, port);
        if (it != m_highEndpoints.end() && it->first == port)
        {
            m_highEndpoints.erase(it);
        }
        return;
    }
    if (port < m_endpoints.size())
    {
        m_endpoints[port] = nullptr;
    }
}

InaPacketSink*
InaHost::FindHigh(uint16_t port) const
{
    auto it = HighSlot(m_highEndpoints, port);
    return it != m_highEndpoints.end() && it->first == port ? it->second : nullptr;
}

uint16_t
InaHost::AllocateEndpoint()
{
    while (m_nextEndpoint < 0xffff &&
           (m_nextEndpoint < DIRECT_ENDPOINTS
                ? m_nextEndpoint < m_endpoints.size() && m_endpoints[m_nextEndpoint] != nullptr
                : FindHigh(m_nextEndpoint) != nullptr))
    {
        ++m_nextEndpoint;
    }
    NS_ABORT_MSG_IF(m_nextEndpoint == 0xffff, "InaHost " << m_address << ": out of endpoints");
    return m_nextEndpoint++;
}

void
InaHost::Send(InaPacket* p)
{
    p->src = m_address;
    if (m_device != nullptr)
    {
        m_device->InaNetDevice::Send(p, 0);
        return;
    }
    m_port->Send(p, 0);
}

bool
InaHost::SetInjectionRateCap(uint64_t bps)
{
    if (m_device == nullptr)
    {
        return false;
    }
    m_device->SetInjectionRateCap(bps);
    return true;
}

void
InaHost::Receive(InaPacket* p, uint32_t port)
{
    InaPacketSink* sink = p->dstPort < m_endpoints.size()  ? m_endpoints[p->dstPort]
                          : p->dstPort >= DIRECT_ENDPOINTS ? FindHigh(p->dstPort)
                                                           : nullptr;
    if (sink == nullptr)
    {
        ++m_unboundDrops;
        m_pool->Free(p);
        return;
    }
    sink->Receive(p, port);
}

int64_t
InaHost::NowPs() const
{
    return m_device != nullptr ? m_device->NowPs() : InaEventBatcher::SimulatorNowPs();
}

uint64_t
InaHost::GetUnboundDrops() const
{
    return m_unboundDrops;
}

} // namespace ns3
