/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-faults.h"

#include "ns3/scenario-error.h"
#include "ns3/simulator.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Random streams of per-link loss: past every stream the fabric helper and the jobs take.
constexpr int64_t LOSS_STREAM_BASE = int64_t{1} << 40;
} // namespace

ScenarioFaults::ScenarioFaults(const Scenario& scenario, Ptr<InaFabric> fabric)
    : m_fabric(fabric)
{
    if (scenario.events.empty())
    {
        return;
    }
    m_injector = CreateObject<InaFaultInjector>();
    m_injector->SetAttribute("DetectionDelay", TimeValue(TimeStep(scenario.faultDetectionPs)));
    try
    {
        m_injector->SetFabric(fabric);
    }
    catch (const std::invalid_argument& e)
    {
        throw scenario.Error("events", std::string(e.what()));
    }
    for (size_t i = 0; i < scenario.events.size(); ++i)
    {
        Schedule(scenario, i);
    }
}

ScenarioFaults::~ScenarioFaults()
{
    if (m_injector)
    {
        m_injector->Dispose();
    }
}

uint32_t
ScenarioFaults::FindLink(const Scenario& s,
                         size_t index,
                         const std::vector<std::string>& ends) const
{
    const InaTopology& topo = m_fabric->GetTopology();
    const std::string path = "events." + std::to_string(index) + ".link";
    uint32_t node[2];
    for (int e = 0; e < 2; ++e)
    {
        if (!topo.HasNode(ends[e]))
        {
            throw s.Error(path,
                          "no node named '" + ends[e] + "' in this topology (names like " +
                              topo.GetNode(0).name + ", " + topo.GetNode(topo.GetNHosts()).name +
                              ")");
        }
        node[e] = topo.FindNode(ends[e]);
    }
    for (const auto& [neighbour, link] : topo.Neighbors(node[0]))
    {
        if (neighbour == node[1])
        {
            return link;
        }
    }
    throw s.Error(path, "there is no link between " + ends[0] + " and " + ends[1]);
}

uint32_t
ScenarioFaults::FindSwitch(const Scenario& s, size_t index, const std::string& name) const
{
    const InaTopology& topo = m_fabric->GetTopology();
    const std::string path = "events." + std::to_string(index) + ".switch";
    if (!topo.HasNode(name))
    {
        throw s.Error(path,
                      "no switch named '" + name + "' in this topology (names like " +
                          topo.GetNode(topo.GetNHosts()).name + ")");
    }
    const uint32_t node = topo.FindNode(name);
    if (topo.IsHost(node))
    {
        throw s.Error(path, "'" + name + "' is a host, not a switch");
    }
    return node;
}

std::vector<uint32_t>
ScenarioFaults::FindLossLinks(const Scenario& s, size_t index) const
{
    const ScenarioEvent& e = s.events[index];
    if (!e.link.empty())
    {
        return {FindLink(s, index, e.link)};
    }
    const InaTopology& topo = m_fabric->GetTopology();
    const std::string path = "events." + std::to_string(index) + ".tiers";
    for (const std::string& tier : e.tiers)
    {
        if (!topo.HasTier(tier))
        {
            std::string known;
            for (const std::string& t : topo.GetTiers())
            {
                known += (known.empty() ? "" : ", ") + t;
            }
            throw s.Error(path,
                          "no tier '" + tier + "' in this topology (its tiers: " + known + ")");
        }
    }
    std::vector<uint32_t> links;
    for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
    {
        const std::string& ta = topo.GetTier(topo.GetLink(l).a);
        const std::string& tb = topo.GetTier(topo.GetLink(l).b);
        if ((ta == e.tiers[0] && tb == e.tiers[1]) || (ta == e.tiers[1] && tb == e.tiers[0]))
        {
            links.push_back(l);
        }
    }
    if (links.empty())
    {
        throw s.Error(path, "no link joins tier " + e.tiers[0] + " to tier " + e.tiers[1]);
    }
    return links;
}

void
ScenarioFaults::Schedule(const Scenario& s, size_t index)
{
    using K = ScenarioEvent::Kind;
    const ScenarioEvent& e = s.events[index];
    const Time at = TimeStep(e.atPs);
    switch (e.kind)
    {
    case K::LINK_DOWN:
        m_injector->ScheduleLinkDown(FindLink(s, index, e.link), at);
        return;
    case K::LINK_UP:
        m_injector->ScheduleLinkUp(FindLink(s, index, e.link), at);
        return;
    case K::LINK_FLAP:
        ScheduleFlap(s, index);
        return;
    case K::SWITCH_FAIL:
        m_injector->ScheduleSwitchDown(FindSwitch(s, index, e.switchName), at);
        return;
    case K::SWITCH_REBOOT: {
        const uint32_t node = FindSwitch(s, index, e.switchName);
        m_injector->ScheduleSwitchDown(node, at);
        m_injector->ScheduleSwitchUp(node, TimeStep(e.atPs + e.downForPs));
        return;
    }
    case K::LOSS:
        ScheduleLoss(s, index);
        return;
    }
}

void
ScenarioFaults::ScheduleFlap(const Scenario& s, size_t index)
{
    const ScenarioEvent& e = s.events[index];
    const uint32_t link = FindLink(s, index, e.link);
    const int64_t downFor = e.downForPs > 0 ? e.downForPs : e.periodPs / 2;
    for (uint32_t n = 0;; ++n)
    {
        const int64_t start = e.atPs + static_cast<int64_t>(n) * e.periodPs;
        if ((e.count > 0 && n >= e.count) || (e.count == 0 && start >= e.untilPs))
        {
            break;
        }
        m_injector->ScheduleLinkDown(link, TimeStep(start));
        m_injector->ScheduleLinkUp(link, TimeStep(start + downFor));
    }
}

void
ScenarioFaults::ScheduleLoss(const Scenario& s, size_t index)
{
    const ScenarioEvent& e = s.events[index];
    const std::vector<uint32_t> links = FindLossLinks(s, index);
    // Each event and link direction its own random stream, whatever other events there are.
    const int64_t perEvent = 2 * static_cast<int64_t>(m_fabric->GetTopology().GetNLinks());
    for (uint32_t l : links)
    {
        m_injector->ScheduleLinkLoss(l,
                                     e.rate,
                                     TimeStep(e.atPs),
                                     LOSS_STREAM_BASE + static_cast<int64_t>(index) * perEvent +
                                         2 * l);
    }
}

nlohmann::json
ScenarioFaults::Summary() const
{
    if (!m_injector)
    {
        return nlohmann::json();
    }
    return {{"fault_drops", m_injector->GetFaultDrops()},
            {"reroutes", m_injector->GetReroutes()},
            {"links_down_at_end", m_injector->GetLinksDown()}};
}

std::string
ScenarioFaults::ConsoleLine() const
{
    if (!m_injector)
    {
        return "";
    }
    return "  faults: " + std::to_string(m_injector->GetFaultDrops()) +
           " packets lost to faults, " + std::to_string(m_injector->GetReroutes()) + " reroutes, " +
           std::to_string(m_injector->GetLinksDown()) + " links down at the end";
}

} // namespace ns3
