/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-fault-injector.h"

#include "ina-fabric.h"
#include "ina-net-device.h"
#include "ina-routing-table.h"
#include "pipeline.h"
#include "switch-program.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaFaultInjector");
NS_OBJECT_ENSURE_REGISTERED(InaFaultInjector);

TypeId
InaFaultInjector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::InaFaultInjector")
            .SetParent<Object>()
            .SetGroupName("InaFabric")
            .AddConstructor<InaFaultInjector>()
            .AddAttribute(
                "DetectionDelay",
                "How long after a link or switch fails (or comes back) the routing learns of it "
                "and converges. The default is BFD's detection time (RFC 5880, Section 6.8.4: the "
                "detect multiplier times the transmit interval) with the usual multiplier 3 and "
                "3.3 ms, the shortest of the common intervals of RFC 7419 (Section 3), which "
                "switches run BFD at in hardware.",
                TimeValue(MicroSeconds(9900)),
                MakeTimeAccessor(&InaFaultInjector::m_detectionDelay),
                MakeTimeChecker(Time(0)));
    return tid;
}

InaFaultInjector::InaFaultInjector() = default;
InaFaultInjector::~InaFaultInjector() = default;

void
InaFaultInjector::DoDispose()
{
    if (m_fabric && m_routes)
    {
        m_fabric->InstallRoutes(nullptr);
    }
    m_routes.reset();
    m_fabric = nullptr;
    Object::DoDispose();
}

void
InaFaultInjector::SetFabric(Ptr<InaFabric> fabric)
{
    const InaTopology& topo = fabric->GetTopology();
    for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
    {
        for (int e = 0; e < 2; ++e)
        {
            if (dynamic_cast<InaNetDevice*>(fabric->GetLinkPort(l, e)) == nullptr)
            {
                throw std::invalid_argument("faults need inasim's own links (link: fast); this "
                                            "fabric has other link devices");
            }
        }
    }
    m_fabric = fabric;
    m_downCount.assign(topo.GetNLinks(), 0);
    m_detected.assign(topo.GetNLinks(), false);
    m_changes.assign(topo.GetNLinks(), 0);
    m_switchDown.assign(topo.GetNSwitches(), false);
}

InaNetDevice*
InaFaultInjector::Device(uint32_t link, int end) const
{
    return static_cast<InaNetDevice*>(m_fabric->GetLinkPort(link, end));
}

void
InaFaultInjector::CheckLink(uint32_t link) const
{
    if (!m_fabric || link >= m_downCount.size())
    {
        throw std::invalid_argument("InaFaultInjector: no link " + std::to_string(link) +
                                    (m_fabric ? "" : " (SetFabric first)"));
    }
}

void
InaFaultInjector::CheckSwitch(uint32_t node) const
{
    if (!m_fabric || node < m_fabric->GetNHosts() || node >= m_fabric->GetTopology().GetNNodes())
    {
        throw std::invalid_argument("InaFaultInjector: node " + std::to_string(node) +
                                    " is not a switch" + (m_fabric ? "" : " (SetFabric first)"));
    }
}

void
InaFaultInjector::ScheduleLinkDown(uint32_t link, Time at)
{
    CheckLink(link);
    Simulator::Schedule(at - Simulator::Now(), &InaFaultInjector::LinkDown, this, link);
}

void
InaFaultInjector::ScheduleLinkUp(uint32_t link, Time at)
{
    CheckLink(link);
    Simulator::Schedule(at - Simulator::Now(), &InaFaultInjector::LinkUp, this, link);
}

void
InaFaultInjector::ScheduleSwitchDown(uint32_t node, Time at)
{
    CheckSwitch(node);
    Simulator::Schedule(at - Simulator::Now(), &InaFaultInjector::SwitchDown, this, node);
}

void
InaFaultInjector::ScheduleSwitchUp(uint32_t node, Time at)
{
    CheckSwitch(node);
    Simulator::Schedule(at - Simulator::Now(), &InaFaultInjector::SwitchUp, this, node);
}

void
InaFaultInjector::ScheduleLinkLoss(uint32_t link, double rate, Time at, int64_t stream)
{
    CheckLink(link);
    if (!(rate >= 0 && rate < 1))
    {
        throw std::invalid_argument("InaFaultInjector: loss rate " + std::to_string(rate) +
                                    " is not in [0, 1)");
    }
    Simulator::Schedule(at - Simulator::Now(),
                        &InaFaultInjector::SetLoss,
                        this,
                        link,
                        rate,
                        stream);
}

void
InaFaultInjector::LinkDown(uint32_t link)
{
    NS_LOG_FUNCTION(this << link);
    ChangeLink(link, +1);
}

void
InaFaultInjector::LinkUp(uint32_t link)
{
    NS_LOG_FUNCTION(this << link);
    ChangeLink(link, -1);
}

void
InaFaultInjector::ChangeLink(uint32_t link, int delta)
{
    const uint32_t before = m_downCount[link];
    if (delta < 0 && before == 0)
    {
        return; // up already: a link-up with no fault to repair changes nothing
    }
    m_downCount[link] = before + delta;
    const bool down = m_downCount[link] > 0;
    if (down == (before > 0))
    {
        return;
    }
    Device(link, 0)->SetLinkDown(down);
    Device(link, 1)->SetLinkDown(down);
    Simulator::Schedule(m_detectionDelay,
                        &InaFaultInjector::Detect,
                        this,
                        link,
                        down,
                        ++m_changes[link]);
}

void
InaFaultInjector::SwitchDown(uint32_t node)
{
    NS_LOG_FUNCTION(this << node);
    const uint32_t s = node - m_fabric->GetNHosts();
    if (m_switchDown[s])
    {
        return;
    }
    m_switchDown[s] = true;
    for (const auto& [neighbour, link] : m_fabric->GetTopology().Neighbors(node))
    {
        ChangeLink(link, +1);
    }
    // Power lost: what the data plane held is gone; the control plane's tables come back as the
    // controller reinstalls them.
    Ptr<Pipeline> pipeline = m_fabric->GetSwitch(node)->GetPipeline();
    for (uint32_t i = 0; i < pipeline->GetNPrograms(); ++i)
    {
        pipeline->GetProgramByIndex(i)->ResetState();
    }
}

void
InaFaultInjector::SwitchUp(uint32_t node)
{
    NS_LOG_FUNCTION(this << node);
    const uint32_t s = node - m_fabric->GetNHosts();
    if (!m_switchDown[s])
    {
        return;
    }
    m_switchDown[s] = false;
    for (const auto& [neighbour, link] : m_fabric->GetTopology().Neighbors(node))
    {
        ChangeLink(link, -1);
    }
}

void
InaFaultInjector::SetLoss(uint32_t link, double rate, int64_t stream)
{
    Device(link, 0)->SetLossRate(rate, stream);
    Device(link, 1)->SetLossRate(rate, stream + 1);
}

void
InaFaultInjector::Detect(uint32_t link, bool down, uint64_t change)
{
    // As with BFD, a failure shorter than the detection time goes unnoticed (the session never
    // missed enough packets), and so does a repair that does not last that long.
    if (change != m_changes[link] || m_detected[link] == down)
    {
        return;
    }
    m_detected[link] = down;
    // Changes detected at the same instant converge together.
    if (!m_reconvergePending)
    {
        m_reconvergePending = true;
        Simulator::ScheduleNow(&InaFaultInjector::Reconverge, this);
    }
}

void
InaFaultInjector::Reconverge()
{
    m_reconvergePending = false;
    ++m_reroutes;
    bool anyDown = false;
    for (bool d : m_detected)
    {
        anyDown = anyDown || d;
    }
    if (!anyDown)
    {
        // All repaired: the fabric's own routes (and their arithmetic fast path) again.
        m_fabric->InstallRoutes(nullptr);
        m_routes.reset();
        return;
    }
    auto routes = std::make_unique<InaRoutingTable>(m_fabric->GetTopology(), m_detected);
    m_fabric->InstallRoutes(routes.get());
    m_routes = std::move(routes);
}

uint64_t
InaFaultInjector::GetFaultDrops() const
{
    uint64_t n = 0;
    for (uint32_t l = 0; m_fabric && l < m_downCount.size(); ++l)
    {
        n += Device(l, 0)->GetFaultDrops() + Device(l, 1)->GetFaultDrops();
    }
    return n;
}

uint32_t
InaFaultInjector::GetReroutes() const
{
    return m_reroutes;
}

uint32_t
InaFaultInjector::GetLinksDown() const
{
    uint32_t n = 0;
    for (uint32_t c : m_downCount)
    {
        n += c > 0 ? 1 : 0;
    }
    return n;
}

} // namespace ns3
