/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "tree-link-load.h"

#include "ns3/ina-routing-table.h"
#include "ns3/ina-topology.h"

#include <algorithm>
#include <limits>

namespace ns3
{

TreeLinkLoad::TreeLinkLoad(Ptr<const InaFabric> fabric)
    : m_fabric(fabric)
{
}

std::vector<std::pair<uint32_t, uint32_t>>
TreeLinkLoad::Path(uint32_t from, uint32_t to, uint32_t flowId) const
{
    const InaTopology& topo = m_fabric->GetTopology();
    const InaRoutingTable& routes = m_fabric->GetRoutes();
    std::vector<std::pair<uint32_t, uint32_t>> hops;
    for (uint32_t cur = from; cur != to;)
    {
        const uint16_t port = routes.SelectPort(cur, to, flowId, m_fabric->GetEcmpSeed());
        const auto& [next, link] = topo.Neighbors(cur)[port];
        hops.emplace_back(link, topo.GetLink(link).a == cur ? 0 : 1);
        cur = next;
    }
    return hops;
}

void
TreeLinkLoad::AddStream(uint32_t from, uint32_t to, uint32_t flowId)
{
    for (const auto& [link, dir] : Path(from, to, flowId))
    {
        ++m_streams[2ULL * link + dir];
    }
}

double
TreeLinkLoad::ShareBps(uint32_t from, uint32_t to, uint32_t flowId) const
{
    const InaTopology& topo = m_fabric->GetTopology();
    double share = std::numeric_limits<double>::infinity();
    for (const auto& [link, dir] : Path(from, to, flowId))
    {
        const auto it = m_streams.find(2ULL * link + dir);
        const uint32_t n = it == m_streams.end() ? 1 : std::max<uint32_t>(1, it->second);
        share = std::min(share, static_cast<double>(topo.GetLink(link).rateBps) / n);
    }
    return share;
}

uint32_t
TreeLinkLoad::GetMaxStreams() const
{
    uint32_t most = 0;
    for (const auto& [key, n] : m_streams)
    {
        most = std::max(most, n);
    }
    return most;
}

} // namespace ns3
