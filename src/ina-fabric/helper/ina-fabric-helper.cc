/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-fabric-helper.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/global-value.h"
#include "ns3/ina-channel.h"
#include "ns3/ina-huge-pages.h"
#include "ns3/ina-net-device.h"
#include "ns3/ina-p2p-port.h"
#include "ns3/ina-time-resolution.h"
#include "ns3/ina-wheel-scheduler.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pipeline.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/queue.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaFabricHelper");

void
InaFabricHelper::ConfigureSimulator()
{
    if (Time::GetResolution() == Time::NS)
    {
        NS_LOG_INFO("time resolution: NS (ns-3's default) -> PS");
        Time::SetResolution(InaTimeResolution::UNIT);
    }
    // NS_GLOBAL_VALUE is applied when the GlobalValue is made, so an environment choice of
    // MapScheduler looks like the default: the variable itself says the user chose.
    const char* env = std::getenv("NS_GLOBAL_VALUE");
    if (env != nullptr && std::strstr(env, "SchedulerType") != nullptr)
    {
        return;
    }
    TypeIdValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    if (scheduler.Get().GetName() == "ns3::MapScheduler")
    {
        NS_LOG_INFO("scheduler: ns3::MapScheduler (ns-3's default) -> ns3::InaWheelScheduler");
        GlobalValue::Bind("SchedulerType", TypeIdValue(InaWheelScheduler::GetTypeId()));
    }
}

InaFabricHelper::InaFabricHelper()
{
    m_pipelineFactory.SetTypeId("ns3::Pipeline");
}

void
InaFabricHelper::SetLinkKind(LinkKind kind)
{
    m_linkKind = kind;
}

void
InaFabricHelper::SetQueue(uint64_t capacityBytes, uint64_t ecnThresholdBytes)
{
    m_capacityBytes = capacityBytes;
    m_ecnThresholdBytes = ecnThresholdBytes;
}

void
InaFabricHelper::SetEcnAtHosts(bool mark)
{
    m_ecnAtHosts = mark;
}

void
InaFabricHelper::SetPriorityClasses(uint32_t classes)
{
    m_priorityClasses = classes;
}

void
InaFabricHelper::SetMtu(uint32_t bytes)
{
    if (bytes < MIN_MTU || bytes > MAX_MTU)
    {
        throw std::invalid_argument("InaFabricHelper::SetMtu: an MTU of " + std::to_string(bytes) +
                                    " B is outside " + std::to_string(MIN_MTU) + ".." +
                                    std::to_string(MAX_MTU));
    }
    m_mtuBytes = bytes;
}

uint32_t
InaFabricHelper::GetLinkMtu(const InaTopology& topology, uint32_t link) const
{
    const uint32_t own = topology.GetLink(link).mtuBytes;
    return own != 0 ? own : m_mtuBytes;
}

void
InaFabricHelper::SetLossRate(double rate)
{
    m_lossRate = rate;
}

void
InaFabricHelper::SetEcmpSeed(uint64_t seed)
{
    m_ecmpSeed = seed;
}

void
InaFabricHelper::SetStreamBase(int64_t stream)
{
    m_streamBase = stream;
}

void
InaFabricHelper::SetPipelineAttribute(const std::string& name, const AttributeValue& value)
{
    m_pipelineFactory.Set(name, value);
}

void
InaFabricHelper::SetProgress(std::function<void(const std::string&)> report)
{
    m_progress = std::move(report);
}

void
InaFabricHelper::EnablePcap(const std::string& prefix)
{
    m_pcapPrefix = prefix;
}

namespace
{
Ptr<RateErrorModel>
MakeLoss(double rate, int64_t stream)
{
    auto em = CreateObject<RateErrorModel>();
    em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
    em->SetAttribute("ErrorRate", DoubleValue(rate));
    em->AssignStreams(stream);
    return em;
}
} // namespace

Ptr<InaFabric>
InaFabricHelper::Build(const InaTopology& topology) const
{
    InaTimeResolution::Require("InaFabricHelper::Build");
    Ptr<InaFabric> fabric = CreateObject<InaFabric>();
    fabric->SetTopology(topology, m_ecmpSeed);
    const InaTopology& topo = fabric->GetTopology();
    // A fabric this small builds in well under a second: its progress would be noise.
    const bool report = m_progress && topo.GetNLinks() >= PROGRESS_MIN_LINKS;
    if (report)
    {
        m_progress("routes computed for " + std::to_string(topo.GetNSwitches()) + " switches");
    }
    const std::vector<Ptr<Node>> nodes = CreateNodes(*fabric);

    // Ports are created in each node's Neighbors() order, so port i of a node is its i-th
    // neighbour, which is what the routing table's port indices mean.
    std::vector<std::vector<InaPort*>> ports(topo.GetNNodes());
    for (uint32_t i = 0; i < topo.GetNNodes(); ++i)
    {
        ports[i].resize(topo.Neighbors(i).size(), nullptr);
    }
    int64_t stream = m_streamBase;
    const uint32_t nLinks = topo.GetNLinks();
    uint32_t nextReport = 1; // quarters
    for (uint32_t l = 0; l < nLinks; ++l)
    {
        if (report && static_cast<uint64_t>(l) * 4 >= static_cast<uint64_t>(nextReport) * nLinks)
        {
            m_progress("links " + std::to_string(l) + "/" + std::to_string(nLinks));
            ++nextReport;
        }
        InaPort* ends[2] = {nullptr, nullptr};
        if (m_linkKind == LinkKind::FAST)
        {
            ConnectFast(*fabric, l, nodes, stream, ends);
        }
        else
        {
            ConnectP2p(*fabric, l, nodes, stream, ends);
        }
        fabric->AddLinkPorts(ends[0], ends[1]);
        const InaTopology::Link& link = topo.GetLink(l);
        ports[link.a][topo.PortTo(link.a, link.b)] = ends[0];
        ports[link.b][topo.PortTo(link.b, link.a)] = ends[1];
    }
    AttachPorts(*fabric, ports);
    if (report)
    {
        m_progress("links " + std::to_string(nLinks) + "/" + std::to_string(nLinks) +
                   ", ports wired");
    }
    InaHugePages::BackHeap();
    return fabric;
}

std::vector<Ptr<Node>>
InaFabricHelper::CreateNodes(InaFabric& fabric) const
{
    const InaTopology& topo = fabric.GetTopology();
    std::vector<Ptr<Node>> nodes;
    for (uint32_t i = 0; i < topo.GetNNodes(); ++i)
    {
        const InaTopology::Node& n = topo.GetNode(i);
        Ptr<Node> node = CreateObject<Node>();
        nodes.push_back(node);
        fabric.AddNode(node);
        if (n.isHost)
        {
            Ptr<InaHost> host = CreateObject<InaHost>();
            host->SetAddress(i);
            node->AggregateObject(host);
            fabric.AddHost(host);
            continue;
        }
        Ptr<InaSwitch> sw = CreateObject<InaSwitch>();
        sw->SetIdentity(i, n.name, n.tier);
        node->AggregateObject(sw);
        fabric.AddSwitch(sw);
        Ptr<Pipeline> pipeline = m_pipelineFactory.Create<Pipeline>();
        // The queue in front of a full switch marks as the links' queues do.
        pipeline->SetAttribute("AggregationEcnThreshold", UintegerValue(m_ecnThresholdBytes));
        if (n.aggCapacityBps != 0 || n.aggCapacityPps != 0)
        {
            // The topology file's capacity= for this switch wins over the attribute default.
            pipeline->SetAggregationCapacity(n.aggCapacityBps, n.aggCapacityPps);
        }
        sw->SetPipeline(pipeline);
    }
    return nodes;
}

uint64_t
InaFabricHelper::EcnThresholdAt(const InaTopology& topo, uint32_t node) const
{
    // ECN marks are a switch's congestion signal: a host's own NIC queue does not mark (as with
    // DCTCP, which marks at switch egress), or a sender whose window exceeds its path's BDP would
    // be told to slow down by its own queue.
    return topo.IsHost(node) && !m_ecnAtHosts ? 0 : m_ecnThresholdBytes;
}

void
InaFabricHelper::ConnectFast(InaFabric& fabric,
                             uint32_t l,
                             const std::vector<Ptr<Node>>& nodes,
                             int64_t& stream,
                             InaPort* ends[2]) const
{
    const InaTopology& topo = fabric.GetTopology();
    const InaTopology::Link& link = topo.GetLink(l);
    Ptr<InaChannel> channel = CreateObject<InaChannel>();
    channel->SetAttribute("Delay", TimeValue(TimeStep(link.delayPs)));
    for (int e = 0; e < 2; ++e)
    {
        const uint32_t owner = e == 0 ? link.a : link.b;
        Ptr<InaNetDevice> dev = CreateObject<InaNetDevice>();
        dev->SetAttribute("DataRate", DataRateValue(DataRate(link.rateBps)));
        dev->SetAttribute("QueueCapacity", UintegerValue(m_capacityBytes));
        dev->SetAttribute("EcnThreshold", UintegerValue(EcnThresholdAt(topo, owner)));
        dev->SetAttribute("PriorityClasses", UintegerValue(m_priorityClasses));
        dev->SetMtu(static_cast<uint16_t>(GetLinkMtu(topo, l)));
        dev->SetEventBatcher(&fabric.GetEventBatcher());
        if (m_lossRate > 0)
        {
            dev->SetAttribute("ErrorModel", PointerValue(MakeLoss(m_lossRate, stream++)));
        }
        nodes[owner]->AddDevice(dev);
        dev->Attach(channel);
        dev->SetAddress(Mac48Address::Allocate());
        ends[e] = PeekPointer(dev);
    }
}

void
InaFabricHelper::ConnectP2p(InaFabric& fabric,
                            uint32_t l,
                            const std::vector<Ptr<Node>>& nodes,
                            int64_t& stream,
                            InaPort* ends[2]) const
{
    const InaTopology& topo = fabric.GetTopology();
    const InaTopology::Link& link = topo.GetLink(l);
    Ptr<PointToPointChannel> channel = CreateObject<PointToPointChannel>();
    channel->SetAttribute("Delay", TimeValue(TimeStep(link.delayPs)));
    InaP2pPort* p2p[2];
    for (int e = 0; e < 2; ++e)
    {
        const uint32_t owner = e == 0 ? link.a : link.b;
        Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
        dev->SetAttribute("DataRate", DataRateValue(DataRate(link.rateBps)));
        Ptr<Queue<Packet>> q = CreateObjectWithAttributes<DropTailQueue<Packet>>(
            "MaxSize",
            QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, m_capacityBytes + 65536)));
        dev->SetQueue(q);
        dev->SetMtu(static_cast<uint16_t>(GetLinkMtu(topo, l)));
        if (m_lossRate > 0)
        {
            dev->SetReceiveErrorModel(MakeLoss(m_lossRate, stream++));
        }
        nodes[owner]->AddDevice(dev);
        dev->SetAddress(Mac48Address::Allocate());
        dev->Attach(channel);
        auto port = std::make_unique<InaP2pPort>(dev, m_capacityBytes, EcnThresholdAt(topo, owner));
        p2p[e] = port.get();
        ends[e] = port.get();
        fabric.AdoptPort(std::move(port));
    }
    // A direction's counters live at its sender; the receiving end reports into them.
    p2p[0]->SetPeer(p2p[1]);
    p2p[1]->SetPeer(p2p[0]);
}

void
InaFabricHelper::AttachPorts(InaFabric& fabric,
                             const std::vector<std::vector<InaPort*>>& ports) const
{
    const InaTopology& topo = fabric.GetTopology();
    for (uint32_t i = 0; i < topo.GetNNodes(); ++i)
    {
        for (uint32_t p = 0; p < ports[i].size(); ++p)
        {
            NS_ABORT_MSG_IF(ports[i][p] == nullptr,
                            "InaFabricHelper: unwired port " << p << " at node "
                                                             << topo.GetNode(i).name);
            if (topo.IsHost(i))
            {
                NS_ABORT_MSG_IF(ports[i].size() != 1,
                                "InaFabricHelper: host " << topo.GetNode(i).name
                                                         << " must have exactly one link");
                Ptr<InaHost> host = fabric.GetHost(i);
                ports[i][p]->Attach(PeekPointer(host), p, &fabric.GetPool());
                host->SetPort(ports[i][p]);
            }
            else
            {
                Ptr<InaSwitch> sw = fabric.GetSwitch(i);
                ports[i][p]->Attach(PeekPointer(sw), p, &fabric.GetPool());
                sw->AddPort(ports[i][p]);
            }
            auto* dev = dynamic_cast<InaNetDevice*>(ports[i][p]);
            if (!m_pcapPrefix.empty() && dev != nullptr)
            {
                dev->EnablePcap(m_pcapPrefix + "-" + topo.GetNode(i).name + "-" +
                                std::to_string(p) + ".pcap");
            }
        }
    }
}

} // namespace ns3
