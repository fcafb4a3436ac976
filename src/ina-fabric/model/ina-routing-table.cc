/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-routing-table.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace ns3
{

InaRoutingTable::InaRoutingTable(const InaTopology& topology)
    : m_topology(topology)
    , m_nHosts(topology.GetNHosts())
    , m_nSwitches(topology.GetNSwitches())
    , m_nNodes(topology.GetNNodes())
{
    Compute(nullptr);
}

InaRoutingTable::InaRoutingTable(const InaTopology& topology, const std::vector<bool>& linkFailed)
    : m_topology(topology)
    , m_nHosts(topology.GetNHosts())
    , m_nSwitches(topology.GetNSwitches())
    , m_nNodes(topology.GetNNodes())
{
    if (linkFailed.size() != topology.GetNLinks())
    {
        throw std::invalid_argument("InaRoutingTable: " + std::to_string(linkFailed.size()) +
                                    " link states for " + std::to_string(topology.GetNLinks()) +
                                    " links");
    }
    m_linkFailed = linkFailed;
    Compute(&linkFailed);
}

namespace
{

constexpr uint32_t UNSEEN = std::numeric_limits<uint32_t>::max();
constexpr uint16_t UNREACHABLE = std::numeric_limits<uint16_t>::max(); //!< in the distances
constexpr uint32_t NO_PARENT = std::numeric_limits<uint32_t>::max();   //!< in a multicast tree

/// Per switch: its (neighbour switch, port) pairs over links that are up.
using SwitchAdjacency = std::vector<std::vector<std::pair<uint32_t, uint16_t>>>;

/// The switch-only graph: hosts are leaves, so no shortest path between switches crosses one.
SwitchAdjacency
SwitchGraph(const InaTopology& topo, const std::vector<bool>* linkFailed)
{
    const uint32_t H = topo.GetNHosts();
    SwitchAdjacency swAdj(topo.GetNSwitches());
    for (uint32_t s = 0; s < swAdj.size(); ++s)
    {
        const auto& adj = topo.Neighbors(H + s);
        for (uint32_t p = 0; p < adj.size(); ++p)
        {
            if (adj[p].first >= H && (linkFailed == nullptr || !(*linkFailed)[adj[p].second]))
            {
                swAdj[s].emplace_back(adj[p].first - H, static_cast<uint16_t>(p));
            }
        }
    }
    return swAdj;
}

/**
 * The hop counts between switches (S x S, row d from a BFS from switch d; distances are
 * symmetric, links being undirected), written row by row; UNREACHABLE where failed links cut
 * (`mayBeCut`), an error otherwise.
 */
void
ComputeDistances(const SwitchAdjacency& swAdj, bool mayBeCut, std::vector<uint16_t>* out)
{
    const auto S = static_cast<uint32_t>(swAdj.size());
    out->assign(static_cast<size_t>(S) * S, 0);
    std::vector<uint32_t> dist(S);
    std::vector<uint32_t> queue;
    queue.reserve(S);
    for (uint32_t d = 0; d < S; ++d)
    {
        std::fill(dist.begin(), dist.end(), UNSEEN);
        queue.clear();
        dist[d] = 0;
        queue.push_back(d);
        for (size_t head = 0; head < queue.size(); ++head)
        {
            const uint32_t u = queue[head];
            for (const auto& e : swAdj[u])
            {
                if (dist[e.first] == UNSEEN)
                {
                    dist[e.first] = dist[u] + 1;
                    queue.push_back(e.first);
                }
            }
        }
        if (queue.size() != S && !mayBeCut)
        {
            throw std::runtime_error("InaRoutingTable: the switches of the topology are not "
                                     "connected");
        }
        uint16_t* row = &(*out)[static_cast<size_t>(d) * S];
        for (uint32_t s = 0; s < S; ++s)
        {
            if (dist[s] >= UNREACHABLE && dist[s] != UNSEEN)
            {
                throw std::runtime_error("InaRoutingTable: paths of 65535 hops or more");
            }
            row[s] = dist[s] == UNSEEN ? UNREACHABLE : static_cast<uint16_t>(dist[s]);
        }
    }
}

/// Numbers each switch's distinct next-hop port sets (group 0: none), so a table entry is a
/// 16-bit group id.
class GroupInterner
{
  public:
    GroupInterner(const InaTopology& topo, std::vector<std::vector<std::vector<uint16_t>>>* groups)
        : m_topo(topo)
        , m_groups(*groups)
        , m_intern(topo.GetNSwitches())
    {
        m_groups.assign(topo.GetNSwitches(), std::vector<std::vector<uint16_t>>(1));
    }

    /// The id of `ports` at switch s, numbered on first use.
    uint16_t Id(uint32_t s, const std::vector<uint16_t>& ports)
    {
        if (ports.empty())
        {
            return 0;
        }
        auto it = m_intern[s].find(ports);
        if (it != m_intern[s].end())
        {
            return it->second;
        }
        if (m_groups[s].size() > std::numeric_limits<uint16_t>::max())
        {
            throw std::runtime_error("InaRoutingTable: switch " +
                                     m_topo.GetNode(m_topo.GetNHosts() + s).name +
                                     " needs more than 65535 distinct next-hop groups");
        }
        const auto id = static_cast<uint16_t>(m_groups[s].size());
        m_groups[s].push_back(ports);
        m_intern[s].emplace(ports, id);
        return id;
    }

    /// The ports of group `id` at switch s.
    const std::vector<uint16_t>& Ports(uint32_t s, uint16_t id) const
    {
        return m_groups[s][id];
    }

  private:
    const InaTopology& m_topo;
    std::vector<std::vector<std::vector<uint16_t>>>& m_groups;
    std::vector<std::map<std::vector<uint16_t>, uint16_t>> m_intern;
};

/**
 * Switch s's next hops towards d are its neighbours one hop closer to d (`dist`), read from the
 * neighbours' rows in order of d so the table is written row by row (set-up time at k=48 was
 * mostly cache misses of a column-wise write).
 */
void
FillNextHops(const SwitchAdjacency& swAdj,
             const std::vector<uint16_t>& dist,
             GroupInterner& groups,
             std::vector<uint16_t>* out)
{
    const auto S = static_cast<uint32_t>(swAdj.size());
    out->assign(static_cast<size_t>(S) * S, 0);
    std::vector<uint16_t> ports;
    for (uint32_t s = 0; s < S; ++s)
    {
        const uint16_t* own = &dist[static_cast<size_t>(s) * S];
        uint16_t* table = &(*out)[static_cast<size_t>(s) * S];
        uint16_t last = 0; // the group of the previous destination: most often this one's too
        for (uint32_t d = 0; d < S; ++d)
        {
            if (s == d || own[d] == UNREACHABLE)
            {
                continue; // unreachable (failed links): no next hop
            }
            ports.clear();
            for (const auto& e : swAdj[s])
            {
                if (static_cast<uint32_t>(dist[static_cast<size_t>(e.first) * S + d]) + 1 == own[d])
                {
                    ports.push_back(e.second);
                }
            }
            if (last == 0 || groups.Ports(s, last) != ports)
            {
                last = groups.Id(s, ports);
            }
            table[d] = last;
        }
    }
}

/// A multicast tree's entries from each node's `parent` (NO_PARENT at the root and off the tree):
/// per switch with children, the ports to them in ascending order; switches by node number.
std::vector<InaRoutingTable::MulticastEntry>
TreeEntries(const InaTopology& topo, const std::vector<uint32_t>& parent)
{
    std::map<uint32_t, std::vector<uint16_t>> replicate;
    for (uint32_t x = 0; x < parent.size(); ++x)
    {
        const uint32_t p = parent[x];
        if (p != NO_PARENT && p >= topo.GetNHosts())
        {
            replicate[p].push_back(topo.PortTo(p, x));
        }
    }
    std::vector<InaRoutingTable::MulticastEntry> tree;
    tree.reserve(replicate.size());
    for (auto& e : replicate)
    {
        std::sort(e.second.begin(), e.second.end());
        tree.emplace_back(e.first, std::move(e.second));
    }
    return tree;
}

} // namespace

void
InaRoutingTable::Compute(const std::vector<bool>* linkFailed)
{
    const uint32_t H = m_nHosts;
    const uint32_t S = m_nSwitches;
    m_rack.resize(H);
    for (uint32_t h = 0; h < H; ++h)
    {
        m_rack[h] = m_topology.RackOf(h);
    }
    const SwitchAdjacency swAdj = SwitchGraph(m_topology, linkFailed);
    GroupInterner groups(m_topology, &m_groups);
    // Two passes, each writing its matrix row by row: the distances, then the next hops.
    ComputeDistances(swAdj, linkFailed != nullptr, &m_dist);
    FillNextHops(swAdj, m_dist, groups, &m_table);

    m_hostGroup.resize(H);
    for (uint32_t h = 0; h < H; ++h)
    {
        m_hostGroup[h] = groups.Id(m_rack[h] - H, {m_topology.PortTo(m_rack[h], h)});
    }

    m_hostRules.resize(S);
    for (uint32_t s = 0; s < S; ++s)
    {
        m_hostRules[s] = DeriveHostRule(s);
    }
}

namespace
{

/// \return whether `ports` is a run of consecutive port numbers, not empty and at most 65535
///         long (what a HostRule's up group can name)
template<class Ports>
bool
IsPortRange(const Ports& ports)
{
    if (ports.empty() || ports.size() > std::numeric_limits<uint16_t>::max())
    {
        return false;
    }
    for (size_t i = 0; i < ports.size(); ++i)
    {
        if (ports[i] != ports[0] + i)
        {
            return false;
        }
    }
    return true;
}

} // namespace

InaRoutingTable::HostRule
InaRoutingTable::DeriveHostRule(uint32_t s) const
{
    const uint32_t H = m_nHosts;
    const uint32_t node = H + s;
    auto groupOf = [&](uint32_t h) -> uint16_t {
        return m_rack[h] == node ? m_hostGroup[h]
                                 : m_table[static_cast<size_t>(s) * m_nSwitches + (m_rack[h] - H)];
    };
    const auto& groups = m_groups[s];
    // The "up" group is the one of the hosts outside the switch's subtree, which then include the
    // first or the last host; or there is none (a core, a spine, a star's switch).
    constexpr uint32_t NO_UP = std::numeric_limits<uint32_t>::max();
    const uint32_t candidates[3] = {groupOf(0), groupOf(H - 1), NO_UP};
    for (uint32_t up : candidates)
    {
        HostRule r;
        uint32_t lo = 0;
        uint32_t hi = H;
        if (up != NO_UP)
        {
            const auto& ports = groups[up];
            if (!IsPortRange(ports))
            {
                continue;
            }
            r.upFirst = ports[0];
            r.upCount = static_cast<uint16_t>(ports.size());
            while (lo < H && groupOf(lo) == up)
            {
                ++lo;
            }
            while (hi > lo && groupOf(hi - 1) == up)
            {
                --hi;
            }
        }
        if (lo == hi)
        {
            continue; // every host is up: not a switch with a subtree of hosts
        }
        // Below: one port per run of downDiv hosts, ascending from the port of the first.
        if (groups[groupOf(lo)].size() != 1)
        {
            continue;
        }
        r.downLo = lo;
        r.downHi = hi;
        r.downBase = groups[groupOf(lo)][0];
        r.downDiv = 1;
        while (lo + r.downDiv < hi && groupOf(lo + r.downDiv) == groupOf(lo))
        {
            ++r.downDiv;
        }
        bool ok = true;
        for (uint32_t h = 0; h < H && ok; ++h)
        {
            const auto& hops = groups[groupOf(h)];
            if (h >= lo && h < hi)
            {
                ok = hops.size() == 1 && hops[0] == r.downBase + (h - lo) / r.downDiv;
            }
            else
            {
                ok = groupOf(h) == up;
            }
        }
        if (ok)
        {
            r.valid = true;
            return r;
        }
    }
    return HostRule{};
}

const InaRoutingTable::HostRule&
InaRoutingTable::GetHostRule(uint32_t switchNode) const
{
    if (switchNode >= m_nNodes || switchNode < m_nHosts)
    {
        throw std::invalid_argument("InaRoutingTable::GetHostRule: node " +
                                    std::to_string(switchNode) + " is not a switch");
    }
    return m_hostRules[switchNode - m_nHosts];
}

void
InaRoutingTable::CheckNode(uint32_t node, const char* what) const
{
    if (node >= m_nNodes)
    {
        throw std::out_of_range(std::string("InaRoutingTable::") + what + ": no node " +
                                std::to_string(node) + " (there are " + std::to_string(m_nNodes) +
                                ")");
    }
}

uint32_t
InaRoutingTable::Distance(uint32_t a, uint32_t b) const
{
    CheckNode(a, "Distance");
    CheckNode(b, "Distance");
    if (a == b)
    {
        return 0;
    }
    uint32_t hops = 0;
    if (a < m_nHosts)
    {
        a = m_rack[a];
        ++hops;
    }
    if (b < m_nHosts)
    {
        b = m_rack[b];
        ++hops;
    }
    return hops + m_dist[static_cast<size_t>(a - m_nHosts) * m_nSwitches + (b - m_nHosts)];
}

std::vector<std::vector<uint32_t>>
InaRoutingTable::AllShortestPaths(uint32_t src, uint32_t dst) const
{
    CheckNode(src, "AllShortestPaths");
    CheckNode(dst, "AllShortestPaths");
    std::vector<std::vector<uint32_t>> paths;
    std::vector<uint32_t> path{src};
    // Depth-first along next hops; every branch has the same length, Distance(src, dst).
    auto walk = [&](auto& self, uint32_t node) -> void {
        if (node == dst)
        {
            paths.push_back(path);
            return;
        }
        const auto& adj = m_topology.Neighbors(node);
        for (uint16_t port : NextHops(node, dst))
        {
            path.push_back(adj[port].first);
            self(self, adj[port].first);
            path.pop_back();
        }
    };
    walk(walk, src);
    return paths;
}

std::vector<uint16_t>
InaRoutingTable::PathPorts(const std::vector<uint32_t>& path) const
{
    std::vector<uint16_t> ports;
    for (size_t i = 0; i + 1 < path.size(); ++i)
    {
        CheckNode(path[i], "PathPorts");
        CheckNode(path[i + 1], "PathPorts");
        ports.push_back(m_topology.PortTo(path[i], path[i + 1]));
    }
    return ports;
}

std::vector<InaRoutingTable::MulticastEntry>
InaRoutingTable::MulticastTree(uint32_t rootNode,
                               const std::vector<uint32_t>& memberHosts,
                               uint64_t seed) const
{
    if (rootNode >= m_nNodes)
    {
        throw std::invalid_argument("InaRoutingTable::MulticastTree: root " +
                                    std::to_string(rootNode) + " is not a node");
    }
    constexpr uint32_t NONE = NO_PARENT;
    std::vector<uint32_t> parent(m_nNodes, NONE);
    std::vector<char> onTree(m_nNodes, 0);
    std::vector<char> isMember(m_nHosts, 0);
    onTree[rootNode] = 1;
    std::vector<uint32_t> chain;
    std::vector<uint32_t> candidates;
    for (uint32_t m : memberHosts)
    {
        if (m >= m_nHosts)
        {
            throw std::invalid_argument("InaRoutingTable::MulticastTree: member " +
                                        std::to_string(m) + " is not a host");
        }
        if (isMember[m])
        {
            throw std::invalid_argument("InaRoutingTable::MulticastTree: member " +
                                        m_topology.GetNode(m).name + " is listed twice");
        }
        isMember[m] = 1;
        if (m == rootNode)
        {
            continue;
        }
        // Walk back toward the root one hop closer each step; stop on the first node already on
        // the tree, so the new branch shares its whole prefix with the tree.
        chain.clear();
        uint32_t c = m;
        while (!onTree[c])
        {
            chain.push_back(c);
            const uint32_t want = Distance(rootNode, c) - 1;
            candidates.clear();
            uint32_t pick = NONE;
            for (const auto& nb : m_topology.Neighbors(c))
            {
                if (!m_linkFailed.empty() && m_linkFailed[nb.second])
                {
                    continue; // the tree stays on links these routes use
                }
                if (Distance(rootNode, nb.first) == want)
                {
                    if (onTree[nb.first])
                    {
                        pick = nb.first;
                        break;
                    }
                    candidates.push_back(nb.first);
                }
            }
            if (pick == NONE && candidates.empty())
            {
                throw std::invalid_argument(
                    "InaRoutingTable::MulticastTree: member " + m_topology.GetNode(m).name +
                    " cannot be reached from " + m_topology.GetNode(rootNode).name +
                    " over the links that are up");
            }
            if (pick == NONE)
            {
                pick = candidates[EcmpHash(m, c, seed) % candidates.size()];
            }
            parent[c] = pick;
            c = pick;
        }
        for (uint32_t x : chain)
        {
            onTree[x] = 1;
        }
    }

    return TreeEntries(m_topology, parent);
}

std::vector<uint16_t>
InaRoutingTable::GroupTable(uint32_t switchNode) const
{
    if (switchNode >= m_nNodes || switchNode < m_nHosts)
    {
        throw std::invalid_argument("InaRoutingTable::GroupTable: node " +
                                    std::to_string(switchNode) + " is not a switch");
    }
    const uint32_t s = switchNode - m_nHosts;
    std::vector<uint16_t> table(m_nNodes);
    for (uint32_t d = 0; d < m_nNodes; ++d)
    {
        if (d < m_nHosts)
        {
            table[d] = m_rack[d] == switchNode
                           ? m_hostGroup[d]
                           : m_table[static_cast<size_t>(s) * m_nSwitches + (m_rack[d] - m_nHosts)];
        }
        else
        {
            table[d] = m_table[static_cast<size_t>(s) * m_nSwitches + (d - m_nHosts)];
        }
    }
    return table;
}

const std::vector<std::vector<uint16_t>>&
InaRoutingTable::Groups(uint32_t switchNode) const
{
    if (switchNode >= m_nNodes || switchNode < m_nHosts)
    {
        throw std::invalid_argument("InaRoutingTable::Groups: node " + std::to_string(switchNode) +
                                    " is not a switch");
    }
    return m_groups[switchNode - m_nHosts];
}

} // namespace ns3
