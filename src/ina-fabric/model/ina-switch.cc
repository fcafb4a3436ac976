/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-switch.h"

#include "ina-net-device.h"
#include "ina-routing-table.h"
#include "pipeline.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaSwitch");
NS_OBJECT_ENSURE_REGISTERED(InaSwitch);

TypeId
InaSwitch::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaSwitch")
                            .SetParent<Object>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaSwitch>();
    return tid;
}

InaSwitch::InaSwitch() = default;
InaSwitch::~InaSwitch() = default;

void
InaSwitch::DoDispose()
{
    m_pipeline = nullptr;
    m_pipelineRaw = nullptr;
    m_ports.clear();
    m_portArray = nullptr;
    m_devicePorts = false;
    Object::DoDispose();
}

void
InaSwitch::SetIdentity(InaAddress address, const std::string& name, const std::string& tier)
{
    m_address = address;
    m_name = name;
    m_tier = tier;
    UpdateHostRule();
}

void
InaSwitch::AddPort(InaPort* port)
{
    m_ports.push_back(port);
    m_portArray = m_ports.data();
    const bool device = dynamic_cast<InaNetDevice*>(port) != nullptr;
    m_devicePorts = (m_ports.size() == 1 || m_devicePorts) && device;
}

void
InaSwitch::SetRouting(const InaRoutingTable* routes, uint64_t ecmpSeed)
{
    m_routes = routes;
    m_ecmpSeed = ecmpSeed;
    UpdateHostRule();
}

void
InaSwitch::UpdateHostRule()
{
    // Set-up may give the identity and the routes in either order.
    m_ruleValid = false;
    if (m_routes != nullptr)
    {
        m_nHosts = m_routes->GetTopology().GetNHosts();
        if (m_address >= m_nHosts && m_address < m_routes->GetTopology().GetNNodes())
        {
            const InaRoutingTable::HostRule& r = m_routes->GetHostRule(m_address);
            m_ruleValid = r.valid;
            m_ruleDownLo = r.downLo;
            m_ruleDownCount = r.downHi - r.downLo;
            m_ruleDownDiv = r.downDiv;
            m_ruleDownBase = r.downBase;
            m_ruleUpFirst = r.upFirst;
            m_ruleUpCount = r.upCount;
        }
    }
    m_fastHosts = m_ruleValid && !m_hasOverrides ? m_nHosts : 0;
}

void
InaSwitch::SetPool(InaPacketPool* pool)
{
    m_pool = pool;
}

void
InaSwitch::SetPipeline(Ptr<Pipeline> pipeline)
{
    m_pipeline = pipeline;
    m_pipelineRaw = PeekPointer(pipeline);
    m_pipeline->SetActions(this);
    m_latencyPs = m_pipeline->GetLatency().GetTimeStep();
}

Ptr<Pipeline>
InaSwitch::GetPipeline() const
{
    return m_pipeline;
}

InaPort*
InaSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

const std::string&
InaSwitch::GetName() const
{
    return m_name;
}

const std::string&
InaSwitch::GetTier() const
{
    return m_tier;
}

void
InaSwitch::SetMulticastGroup(uint32_t group, const std::vector<uint16_t>& ports)
{
    if (group >= m_multicast.size())
    {
        m_multicast.resize(group + 1);
    }
    m_multicast[group] = ports;
}

void
InaSwitch::SetFlowRoute(uint32_t flowId, uint16_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "InaSwitch " << m_name << ": flow route to port " << port
                                 << " but the switch has " << m_ports.size() << " ports");
    m_flowRoutes[flowId] = port;
    m_hasOverrides = true;
    m_fastHosts = 0;
}

uint64_t
InaSwitch::JobRouteKey(uint32_t jobId, InaAddress dst)
{
    return (static_cast<uint64_t>(jobId) << 32) | dst;
}

void
InaSwitch::SetJobRoute(uint32_t jobId, InaAddress dst, uint16_t port)
{
    NS_ABORT_MSG_IF(port >= m_ports.size(),
                    "InaSwitch " << m_name << ": job route to port " << port
                                 << " but the switch has " << m_ports.size() << " ports");
    m_jobRoutes[JobRouteKey(jobId, dst)] = port;
    m_hasOverrides = true;
    m_fastHosts = 0;
}

void
InaSwitch::ClearRouteOverrides()
{
    m_flowRoutes.clear();
    m_jobRoutes.clear();
    m_hasOverrides = false;
    UpdateHostRule();
}

uint16_t
InaSwitch::SelectPort(const InaPacket* p) const
{
    if (p->dst < m_fastHosts)
    {
        return RulePort(p);
    }
    return SelectPortSlow(p);
}

uint16_t
InaSwitch::SelectPortSlow(const InaPacket* p) const
{
    if (m_hasOverrides)
    {
        auto f = m_flowRoutes.find(p->flowId);
        if (f != m_flowRoutes.end())
        {
            return f->second;
        }
        auto j = m_jobRoutes.find(JobRouteKey(p->jobId, p->dst));
        if (j != m_jobRoutes.end())
        {
            return j->second;
        }
    }
    if (m_ruleValid && p->dst < m_nHosts)
    {
        return RulePort(p);
    }
    if (p->dst >= m_routes->GetNNodes())
    {
        // No such node: a header no sender of this fabric writes (garbage, a corrupted field).
        // Dropped as no route instead of indexing the table with it; hosts took the rule above.
        return INA_NO_PORT;
    }
    const std::vector<uint16_t>& hops = m_routes->NextHops(m_address, p->dst);
    switch (hops.size())
    {
    case 0:
        return INA_NO_PORT;
    case 1:
        return hops[0];
    default:
        return hops[InaRoutingTable::EcmpHash(p->flowId, m_address, m_ecmpSeed) % hops.size()];
    }
}

void
InaSwitch::Receive(InaPacket* p, uint32_t port)
{
    ++m_received;
    p->passes = 0;
    if (p->protocol != INA_PROTO_NONE && m_pipelineRaw->HasProgramFor(p->protocol))
    {
        m_pipelineRaw->Process(p, port);
        return;
    }
    Forward(p);
}

void
InaSwitch::Forward(InaPacket* p)
{
    if (p->IsMulticast())
    {
        uint32_t group = p->dst & ~INA_MULTICAST_BIT;
        if (group >= m_multicast.size() || m_multicast[group].empty())
        {
            ++m_counters.noRoute;
            m_pool->Free(p);
            return;
        }
        const std::vector<uint16_t>& ports = m_multicast[group];
        for (std::size_t i = 0; i + 1 < ports.size(); ++i)
        {
            SendOut(m_pool->Clone(p), ports[i]);
        }
        SendOut(p, ports.back());
        m_counters.multicastCopies += ports.size();
        return;
    }
    uint16_t port = SelectPort(p);
    if (port == INA_NO_PORT)
    {
        ++m_counters.noRoute;
        m_pool->Free(p);
        return;
    }
    ++m_forwarded;
    SendOut(p, port);
}

void
InaSwitch::SendOnPort(InaPacket* p, uint32_t port)
{
    ++m_forwarded;
    SendOut(p, port);
}

void
InaSwitch::SendOut(InaPacket* p, uint32_t port)
{
    InaPort* out = m_portArray[port];
    if (m_devicePorts)
    {
        static_cast<InaNetDevice*>(out)->InaNetDevice::Send(p, m_latencyPs);
        return;
    }
    out->Send(p, m_latencyPs);
}

void
InaSwitch::Consume(InaPacket* p)
{
    ++m_counters.consumed;
    m_pool->Free(p);
}

InaPacketPool&
InaSwitch::GetPool()
{
    return *m_pool;
}

InaAddress
InaSwitch::GetAddress() const
{
    return m_address;
}

uint32_t
InaSwitch::GetNPorts() const
{
    return m_ports.size();
}

const InaSwitch::Counters&
InaSwitch::GetCounters() const
{
    m_counters.received = m_received;
    m_counters.forwarded = m_forwarded;
    return m_counters;
}

} // namespace ns3
