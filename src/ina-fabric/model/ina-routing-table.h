/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_ROUTING_TABLE_H
#define INA_ROUTING_TABLE_H

#include "ina-topology.h"

#include "ns3/assert.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Shortest-path (hop count) routes of a topology with every equal-cost choice kept, for ECMP; plus
 * shortest-path multicast trees and path enumeration for planners that set routes from outside.
 *
 * Next hops are port numbers in the InaTopology sense (port i of a node = its i-th neighbour).
 * Storage is compact: hosts are single-homed, so a route to a host is the route to its rack except
 * at the rack itself. Each switch keeps one group id (uint16_t) per destination *switch* and a
 * deduplicated list of next-hop groups; memory is about 4 bytes per pair of switches (33 MB for a
 * k=48 fat-tree).
 *
 * ECMP: a switch picks nexthops[EcmpHash(flowId, node, seed) % nexthops.size()] (SelectPort), so
 * the choice depends only on the flow, the switch and the scenario seed, on every platform.
 */
class InaRoutingTable
{
  public:
    /// (switch node, ports to replicate on, ascending)
    using MulticastEntry = std::pair<uint32_t, std::vector<uint16_t>>;

    /**
     * A switch's routes to every host as arithmetic, for the forwarding fast path: a host h in
     * [downLo, downHi) leaves on port downBase + (h - downLo) / downDiv; every other host on one of
     * the ports [upFirst, upFirst + upCount), chosen by ECMP as NextHops would choose it. Generated
     * fat-trees, leaf-spines and stars have this shape at every switch (a ToR: its rack below; an
     * aggregation switch: its pod, one ToR per downDiv hosts; a core or spine: every host), so
     * forwarding needs a few fields of the switch instead of table lookups whose memory grows
     * with the fabric. The constructor derives the rule from the table and checks it against every
     * host, so it never disagrees with NextHops; `valid` is false where the routes have another
     * shape (some topology files), and those switches keep using the table.
     */
    struct HostRule
    {
        bool valid = false;
        uint32_t downLo = 0;
        uint32_t downHi = 0;
        uint32_t downDiv = 1;
        uint16_t downBase = 0;
        uint16_t upFirst = 0;
        uint16_t upCount = 0;
    };

    /// Computes all routes (BFS from every switch). The topology is copied.
    explicit InaRoutingTable(const InaTopology& topology);

    /**
     * The routes of a fabric with failed links (what its routing converges to once the failures
     * are detected, InaFaultInjector): shortest paths over the links whose entry in `linkFailed`
     * (by topology link index) is false. Destinations no path reaches have no next hop (the
     * switch drops as no route); a host's rack keeps its port to the host.
     * \throws std::invalid_argument if linkFailed does not have one entry per link.
     */
    InaRoutingTable(const InaTopology& topology, const std::vector<bool>& linkFailed);

    /**
     * The equal-cost next hops (ports of `node`, ascending) on shortest paths from `node` to
     * `dst`; empty when node == dst. A host's only next hop is port 0. Hot path: no checks beyond
     * NS_ASSERT, both indices must be valid nodes.
     */
    const std::vector<uint16_t>& NextHops(uint32_t node, uint32_t dst) const
    {
        NS_ASSERT_MSG(node < m_nNodes && dst < m_nNodes, "InaRoutingTable: bad node index");
        if (node < m_nHosts)
        {
            return node == dst ? m_none : m_hostUp;
        }
        const uint32_t s = node - m_nHosts;
        uint32_t d;
        if (dst < m_nHosts)
        {
            const uint32_t rack = m_rack[dst];
            if (rack == node)
            {
                return m_groups[s][m_hostGroup[dst]];
            }
            d = rack - m_nHosts;
        }
        else
        {
            d = dst - m_nHosts;
        }
        return m_groups[s][m_table[static_cast<size_t>(s) * m_nSwitches + d]];
    }

    /// The ECMP choice of `node` for a flow: NextHops(node, dst)[EcmpHash(...) % size]. node !=
    /// dst.
    uint16_t SelectPort(uint32_t node, uint32_t dst, uint32_t flowId, uint64_t seed) const
    {
        const std::vector<uint16_t>& hops = NextHops(node, dst);
        NS_ASSERT_MSG(!hops.empty(), "InaRoutingTable::SelectPort: node is the destination");
        return hops[EcmpHash(flowId, node, seed) % hops.size()];
    }

    /**
     * The ECMP hash, fixed so results are the same on every platform:
     * Mix64(Mix64(seed) ^ ((uint64_t(flowId) << 32) | nodeIndex)) >> 32, where Mix64 is the
     * splitmix64 step: x += 0x9e3779b97f4a7c15; x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9;
     * x = (x ^ x >> 27) * 0x94d049bb133111eb; x ^= x >> 31. Mixing in the node index keeps the
     * choices of successive tiers independent (no hash polarisation).
     */
    static uint32_t EcmpHash(uint32_t flowId, uint32_t nodeIndex, uint64_t seed)
    {
        const uint64_t key = (static_cast<uint64_t>(flowId) << 32) | nodeIndex;
        return static_cast<uint32_t>(Mix64(Mix64(seed) ^ key) >> 32);
    }

    /// The arithmetic form of a switch's routes to hosts (HostRule). \throws std::invalid_argument
    /// if the node is not a switch.
    const HostRule& GetHostRule(uint32_t switchNode) const;

    /// Hop count between two nodes. \throws std::out_of_range for a bad index.
    uint32_t Distance(uint32_t a, uint32_t b) const;

    /**
     * Every shortest path from src to dst as node sequences (src first, dst last), in the order of
     * the ports taken (lowest port first at every hop). For tests and planners: the count can grow
     * quickly with the topology. \throws std::out_of_range for a bad index.
     */
    std::vector<std::vector<uint32_t>> AllShortestPaths(uint32_t src, uint32_t dst) const;

    /**
     * The port each node of a path leaves on, for installing a chosen route: result[i] is the port
     * of path[i] toward path[i+1] (one fewer entry than nodes).
     * \throws std::invalid_argument if two consecutive nodes are not adjacent.
     */
    std::vector<uint16_t> PathPorts(const std::vector<uint32_t>& path) const;

    /**
     * A multicast tree from `rootNode` (a host, or a switch such as the aggregation switch) to
     * every member host, made of shortest paths root -> member that share prefixes, so each member
     * gets exactly one copy and no node gets two. Members are joined in the order given; each
     * walks back toward the root, joining the tree at the first node already on it, and where it
     * has several equal-cost parents prefers one on the tree, else picks by EcmpHash(member,
     * node, seed). A member equal to the root is skipped (it holds the data).
     * \return one entry per switch on the tree: the ports to replicate on, ascending; entries by
     * ascending node. A host root has no entry: it sends its one copy on its only port, 0.
     * \throws std::invalid_argument if the root is not a node, a member is not a host, or a
     * member is listed twice.
     */
    std::vector<MulticastEntry> MulticastTree(uint32_t rootNode,
                                              const std::vector<uint32_t>& memberHosts,
                                              uint64_t seed) const;

    /// For switches that keep their own table: the group id per destination node (size: nodes).
    /// \throws std::invalid_argument if the node is not a switch.
    std::vector<uint16_t> GroupTable(uint32_t switchNode) const;
    /// The next-hop groups GroupTable() ids refer to; group 0 is empty (the switch itself).
    const std::vector<std::vector<uint16_t>>& Groups(uint32_t switchNode) const;

    const InaTopology& GetTopology() const
    {
        return m_topology;
    }

    /// The failed links these routes avoid, by topology link index (empty: none).
    const std::vector<bool>& GetFailedLinks() const
    {
        return m_linkFailed;
    }

  private:
    static uint64_t Mix64(uint64_t x)
    {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

    void Compute(const std::vector<bool>* linkFailed);
    void CheckNode(uint32_t node, const char* what) const;
    /// HostRule of switch index s (node m_nHosts + s), checked against the table for every host.
    HostRule DeriveHostRule(uint32_t s) const;

    InaTopology m_topology;
    std::vector<bool> m_linkFailed; //!< per link, as given (empty: none failed)
    uint32_t m_nHosts;
    uint32_t m_nSwitches;
    uint32_t m_nNodes;
    std::vector<uint32_t> m_rack;      //!< per host: its switch (node index)
    std::vector<uint16_t> m_hostGroup; //!< per host: the group at its rack holding the port to it
    std::vector<uint16_t> m_table;     //!< [switch * nSwitches + dstSwitch] -> group id
    std::vector<uint16_t> m_dist;      //!< [switch * nSwitches + switch] -> hops
    std::vector<std::vector<std::vector<uint16_t>>> m_groups; //!< per switch: next-hop groups
    std::vector<HostRule> m_hostRules;                        //!< per switch
    std::vector<uint16_t> m_hostUp{0};
    std::vector<uint16_t> m_none;
};

} // namespace ns3

#endif /* INA_ROUTING_TABLE_H */
