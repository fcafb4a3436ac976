/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-fabric.h"

#include "pipeline.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaFabric");
NS_OBJECT_ENSURE_REGISTERED(InaFabric);

TypeId
InaFabric::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaFabric")
                            .SetParent<Object>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaFabric>()
                            .AddTraceSource("RoutesChanged",
                                            "The switches' routes changed (InstallRoutes: "
                                            "the routing converged around failures or back)",
                                            MakeTraceSourceAccessor(&InaFabric::m_routesChanged),
                                            "ns3::InaFabric::RoutesChangedCallback");
    return tid;
}

InaFabric::InaFabric()
    : m_pool(new InaPacketPool)
    , m_batcher(new InaEventBatcher)
{
}

InaFabric::~InaFabric() = default;

void
InaFabric::DoDispose()
{
    m_hosts.clear();
    m_switches.clear();
    m_linkPorts.clear();
    m_nodes = NodeContainer();
    Object::DoDispose();
}

void
InaFabric::SetTopology(const InaTopology& topology, uint64_t ecmpSeed)
{
    m_topology = std::make_unique<InaTopology>(topology);
    m_routes = std::make_unique<InaRoutingTable>(*m_topology);
    m_ecmpSeed = ecmpSeed;
}

const InaTopology&
InaFabric::GetTopology() const
{
    return *m_topology;
}

const InaRoutingTable&
InaFabric::GetRoutes() const
{
    return *m_routes;
}

InaPacketPool&
InaFabric::GetPool()
{
    return *m_pool;
}

InaEventBatcher&
InaFabric::GetEventBatcher()
{
    return *m_batcher;
}

uint64_t
InaFabric::GetEcmpSeed() const
{
    return m_ecmpSeed;
}

uint32_t
InaFabric::GetNHosts() const
{
    return m_hosts.size();
}

Ptr<InaHost>
InaFabric::GetHost(uint32_t host) const
{
    NS_ABORT_MSG_IF(host >= m_hosts.size(),
                    "InaFabric: host " << host << " does not exist (the fabric has "
                                       << m_hosts.size() << " hosts)");
    return m_hosts[host];
}

Ptr<InaSwitch>
InaFabric::GetSwitch(uint32_t node) const
{
    NS_ABORT_MSG_IF(node < m_hosts.size() || node - m_hosts.size() >= m_switches.size(),
                    "InaFabric: node " << node << " is not a switch");
    return m_switches[node - m_hosts.size()];
}

const std::vector<Ptr<InaSwitch>>&
InaFabric::GetSwitches() const
{
    return m_switches;
}

void
InaFabric::InstallRoutes(const InaRoutingTable* routes)
{
    for (const auto& sw : m_switches)
    {
        sw->SetRouting(routes != nullptr ? routes : m_routes.get(), m_ecmpSeed);
    }
    m_installed = routes;
    m_routesChanged();
}

const InaRoutingTable&
InaFabric::GetInstalledRoutes() const
{
    return m_installed != nullptr ? *m_installed : *m_routes;
}

NodeContainer
InaFabric::GetNodes() const
{
    return m_nodes;
}

InaPort*
InaFabric::GetLinkPort(uint32_t link, int end) const
{
    return end == 0 ? m_linkPorts.at(link).first : m_linkPorts.at(link).second;
}

void
InaFabric::AddNode(Ptr<Node> node)
{
    m_nodes.Add(node);
}

void
InaFabric::AddHost(Ptr<InaHost> host)
{
    host->SetPool(m_pool.get());
    m_hosts.push_back(host);
}

void
InaFabric::AddSwitch(Ptr<InaSwitch> sw)
{
    sw->SetPool(m_pool.get());
    sw->SetRouting(m_routes.get(), m_ecmpSeed);
    m_switches.push_back(sw);
}

void
InaFabric::AddLinkPorts(InaPort* a, InaPort* b)
{
    m_linkPorts.emplace_back(a, b);
}

void
InaFabric::AdoptPort(std::unique_ptr<InaPort> port)
{
    m_ownedPorts.push_back(std::move(port));
}

InaAddress
InaFabric::CreateMulticastGroup(uint32_t root, const std::vector<uint32_t>& members)
{
    uint32_t group = m_nextGroup++;
    LayMulticastTree(group, root, members, *m_routes);
    return group | INA_MULTICAST_BIT;
}

void
InaFabric::RelayMulticastGroup(InaAddress group,
                               uint32_t root,
                               const std::vector<uint32_t>& members)
{
    LayMulticastTree(group & ~INA_MULTICAST_BIT, root, members, GetInstalledRoutes());
}

void
InaFabric::LayMulticastTree(uint32_t group,
                            uint32_t root,
                            const std::vector<uint32_t>& members,
                            const InaRoutingTable& routes)
{
    for (const auto& [node, ports] : routes.MulticastTree(root, members, m_ecmpSeed))
    {
        if (!m_topology->IsHost(node))
        {
            GetSwitch(node)->SetMulticastGroup(group, ports);
        }
    }
}

uint64_t
InaFabric::GetPacketHops() const
{
    return GetTotalLinkCounters().rxPackets;
}

uint64_t
InaFabric::GetAggregatorsInUse() const
{
    uint64_t n = 0;
    for (const auto& sw : m_switches)
    {
        n += sw->GetPipeline()->GetAggregatorsInUse();
    }
    return n;
}

InaLinkCounters
InaFabric::GetTotalLinkCounters() const
{
    InaLinkCounters t;
    for (const auto& [a, b] : m_linkPorts)
    {
        for (const InaPort* p : {a, b})
        {
            const InaLinkCounters& c = p->GetCounters();
            t.txPackets += c.txPackets;
            t.txBytes += c.txBytes;
            t.rxPackets += c.rxPackets;
            t.drops += c.drops;
            t.ecnMarks += c.ecnMarks;
            t.lost += c.lost;
            t.oversize += c.oversize;
            t.peakBacklogBytes = std::max(t.peakBacklogBytes, c.peakBacklogBytes);
        }
    }
    return t;
}

} // namespace ns3
