/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-problem.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

namespace
{

std::string
NodeLabel(const InaTopology& topology, uint32_t node)
{
    return "node " + std::to_string(node) + " ('" + topology.GetNode(node).name + "')";
}

} // namespace

GridProblem::GridProblem(const InaTopology& topology,
                         const std::vector<uint32_t>& workers,
                         uint32_t ps,
                         const std::vector<ProgrammableSwitch>& programmable,
                         double psIngressBps,
                         uint64_t pathSeed,
                         const std::vector<bool>& failedLinks)
    : m_routing(failedLinks.empty() ? InaRoutingTable(topology)
                                    : InaRoutingTable(topology, failedLinks))
    , m_workers(workers)
    , m_ps(ps)
    , m_switches(programmable)
    , m_pathSeed(pathSeed)
{
    const InaTopology& topo = m_routing.GetTopology();
    SetWorkers(topo);
    SetSwitches(topo);
    SetCapacities(topo, failedLinks, psIngressBps);
    SetPaths();
}

void
GridProblem::SetWorkers(const InaTopology& topo)
{
    const uint32_t ps = m_ps;
    const uint32_t nNodes = topo.GetNNodes();
    if (nNodes > 65536)
    {
        throw std::invalid_argument("GRID problem: the topology has " + std::to_string(nNodes) +
                                    " nodes: expected at most 65536 (route flow ids use 16 bits "
                                    "per node)");
    }
    if (m_workers.empty())
    {
        throw std::invalid_argument("GRID problem: no workers: expected at least one worker host");
    }
    if (ps >= nNodes || !topo.IsHost(ps))
    {
        throw std::invalid_argument("GRID problem: the PS " +
                                    (ps >= nNodes ? "node " + std::to_string(ps) + " does not exist"
                                                  : NodeLabel(topo, ps) + " is a switch") +
                                    ": expected a host (0.." +
                                    std::to_string(topo.GetNHosts() - 1) + ")");
    }
    std::vector<bool> seen(nNodes, false);
    m_workerRate.reserve(m_workers.size());
    for (std::size_t i = 0; i < m_workers.size(); ++i)
    {
        const uint32_t w = m_workers[i];
        if (w >= nNodes || !topo.IsHost(w))
        {
            throw std::invalid_argument(
                "GRID problem: worker " + std::to_string(i) + " is " +
                (w >= nNodes ? "node " + std::to_string(w) + ", which does not exist"
                             : NodeLabel(topo, w) + ", a switch") +
                ": expected a host (0.." + std::to_string(topo.GetNHosts() - 1) + ")");
        }
        if (w == ps)
        {
            throw std::invalid_argument("GRID problem: worker " + std::to_string(i) + " is " +
                                        NodeLabel(topo, w) +
                                        ", the PS: expected the PS on a host of its own");
        }
        if (seen[w])
        {
            throw std::invalid_argument("GRID problem: worker " + std::to_string(i) + " repeats " +
                                        NodeLabel(topo, w) + ": expected one worker per host");
        }
        seen[w] = true;
        // A host has exactly one link: its NIC.
        const uint32_t link = topo.Neighbors(w).at(0).second;
        m_workerRate.push_back(static_cast<double>(topo.GetLink(link).rateBps));
    }
    m_minWorkerRate = *std::min_element(m_workerRate.begin(), m_workerRate.end());
}

void
GridProblem::SetSwitches(const InaTopology& topo)
{
    const uint32_t nNodes = topo.GetNNodes();
    m_switchIndex.assign(nNodes, -1);
    for (std::size_t j = 0; j < m_switches.size(); ++j)
    {
        const ProgrammableSwitch& s = m_switches[j];
        if (s.node >= nNodes || topo.IsHost(s.node))
        {
            throw std::invalid_argument(
                "GRID problem: programmable switch " + std::to_string(j) + " is " +
                (s.node >= nNodes ? "node " + std::to_string(s.node) + ", which does not exist"
                                  : NodeLabel(topo, s.node) + ", a host") +
                ": expected a switch (" + std::to_string(topo.GetNHosts()) + ".." +
                std::to_string(nNodes - 1) + ")");
        }
        if (m_switchIndex[s.node] >= 0)
        {
            throw std::invalid_argument("GRID problem: programmable switch " + std::to_string(j) +
                                        " repeats " + NodeLabel(topo, s.node) +
                                        ": expected each switch once");
        }
        if (!(s.capacityBps > 0) || !std::isfinite(s.capacityBps))
        {
            throw std::invalid_argument(
                "GRID problem: capacity of programmable switch " + NodeLabel(topo, s.node) +
                " is " + std::to_string(s.capacityBps) + " b/s: expected a finite capacity > 0");
        }
        m_switchIndex[s.node] = static_cast<int32_t>(j);
    }
}

void
GridProblem::SetCapacities(const InaTopology& topo,
                           const std::vector<bool>& failedLinks,
                           double psIngressBps)
{
    const uint32_t ps = m_ps;
    m_edgeCapacity.resize(2 * static_cast<std::size_t>(topo.GetNLinks()));
    for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
    {
        m_edgeCapacity[2 * l] = static_cast<double>(topo.GetLink(l).rateBps);
        if (!failedLinks.empty() && failedLinks[l])
        {
            m_edgeCapacity[2 * l] = 0;
        }
        m_edgeCapacity[2 * l + 1] = m_edgeCapacity[2 * l];
    }
    const uint32_t psLink = topo.Neighbors(ps).at(0).second;
    m_psEdge = 2 * psLink + (topo.GetLink(psLink).a == ps ? 1 : 0);

    if (std::isnan(psIngressBps) || psIngressBps < 0 || std::isinf(psIngressBps))
    {
        throw std::invalid_argument("GRID problem: PS ingress bandwidth is " +
                                    std::to_string(psIngressBps) +
                                    " b/s: expected a finite value > 0, or 0 for the rate of the "
                                    "PS's link");
    }
    m_psIngress = psIngressBps > 0 ? psIngressBps : m_edgeCapacity[m_psEdge];
}

void
GridProblem::SetPaths()
{
    const uint32_t ps = m_ps;
    const std::size_t targets = m_switches.size() + 1;
    m_workerPaths.resize(m_workers.size() * targets);
    m_workerReaches.assign(m_workers.size() * targets, true);
    for (std::size_t i = 0; i < m_workers.size(); ++i)
    {
        for (std::size_t a = 0; a < targets; ++a)
        {
            const uint32_t to = GetTargetNode(static_cast<uint32_t>(a));
            m_workerReaches[i * targets + a] = Connected(m_workers[i], to);
            if (m_workerReaches[i * targets + a])
            {
                m_workerPaths[i * targets + a] = RouteEdges(m_workers[i], to);
            }
        }
    }
    m_switchPaths.resize(m_switches.size());
    m_switchReaches.assign(m_switches.size(), true);
    for (std::size_t j = 0; j < m_switches.size(); ++j)
    {
        m_switchReaches[j] = Connected(m_switches[j].node, ps);
        if (m_switchReaches[j])
        {
            m_switchPaths[j] = RouteEdges(m_switches[j].node, ps);
        }
    }
}

bool
GridProblem::Connected(uint32_t src, uint32_t dst) const
{
    for (uint32_t node = src; node != dst;)
    {
        const std::vector<uint16_t>& hops = m_routing.NextHops(node, dst);
        if (hops.empty())
        {
            return false;
        }
        const uint16_t port = m_routing.SelectPort(node, dst, PathFlowId(src, dst), m_pathSeed);
        const uint32_t link = GetTopology().Neighbors(node).at(port).second;
        if (!m_routing.GetFailedLinks().empty() && m_routing.GetFailedLinks()[link])
        {
            return false; // a host's own link: its rack keeps the port to it
        }
        node = GetTopology().Neighbors(node).at(port).first;
    }
    return true;
}

uint32_t
GridProblem::GetTargetNode(uint32_t a) const
{
    if (a == m_switches.size())
    {
        return m_ps;
    }
    return m_switches.at(a).node;
}

void
GridProblem::SetEdgeCapacityBps(uint32_t edge, double bps)
{
    if (edge >= m_edgeCapacity.size())
    {
        throw std::invalid_argument("GRID problem: edge " + std::to_string(edge) +
                                    " does not exist: expected 0.." +
                                    std::to_string(m_edgeCapacity.size() - 1));
    }
    if (!(bps >= 0) || !std::isfinite(bps))
    {
        throw std::invalid_argument("GRID problem: capacity of edge " + EdgeName(edge) + " is " +
                                    std::to_string(bps) + " b/s: expected a finite value >= 0");
    }
    m_edgeCapacity[edge] = bps;
}

uint32_t
GridProblem::GetEdgeFrom(uint32_t edge) const
{
    const InaTopology::Link& l = GetTopology().GetLink(edge / 2);
    return (edge % 2 == 0) ? l.a : l.b;
}

uint32_t
GridProblem::GetEdgeTo(uint32_t edge) const
{
    const InaTopology::Link& l = GetTopology().GetLink(edge / 2);
    return (edge % 2 == 0) ? l.b : l.a;
}

std::vector<uint32_t>
GridProblem::MulticastEdges(uint32_t root, const std::vector<uint32_t>& memberHosts) const
{
    const InaTopology& topo = GetTopology();
    std::vector<uint32_t> edges;
    for (const auto& [node, ports] : m_routing.MulticastTree(root, memberHosts, m_multicastSeed))
    {
        for (uint16_t port : ports)
        {
            const uint32_t link = topo.Neighbors(node).at(port).second;
            edges.push_back(2 * link + (topo.GetLink(link).a == node ? 0 : 1));
        }
    }
    return edges;
}

std::string
GridProblem::EdgeName(uint32_t edge) const
{
    const InaTopology& topo = GetTopology();
    return topo.GetNode(GetEdgeFrom(edge)).name + "->" + topo.GetNode(GetEdgeTo(edge)).name;
}

std::vector<uint32_t>
GridProblem::RouteEdges(uint32_t src, uint32_t dst) const
{
    const InaTopology& topo = GetTopology();
    if (src >= topo.GetNNodes() || dst >= topo.GetNNodes())
    {
        throw std::out_of_range("GridProblem::RouteEdges: node " +
                                std::to_string(std::max(src, dst)) + " does not exist");
    }
    std::vector<uint32_t> edges;
    const uint32_t flow = PathFlowId(src, dst);
    uint32_t node = src;
    while (node != dst)
    {
        if (m_routing.NextHops(node, dst).empty())
        {
            throw std::runtime_error("GridProblem::RouteEdges: no route from " +
                                     topo.GetNode(src).name + " to " + topo.GetNode(dst).name +
                                     " over the links that are up");
        }
        const uint16_t port = m_routing.SelectPort(node, dst, flow, m_pathSeed);
        const std::pair<uint32_t, uint32_t>& hop = topo.Neighbors(node).at(port);
        const uint32_t link = hop.second;
        edges.push_back(2 * link + (topo.GetLink(link).a == node ? 0 : 1));
        node = hop.first;
    }
    return edges;
}

std::vector<uint32_t>
GridProblem::RouteNodes(uint32_t src, uint32_t dst) const
{
    std::vector<uint32_t> nodes{src};
    for (uint32_t e : RouteEdges(src, dst))
    {
        nodes.push_back(GetEdgeTo(e));
    }
    return nodes;
}

} // namespace ns3
