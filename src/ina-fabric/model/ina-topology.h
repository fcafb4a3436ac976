/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TOPOLOGY_H
#define INA_TOPOLOGY_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * A data-centre topology as plain data: nodes (hosts and switches) and full-duplex links. No ns-3
 * objects are made here; the fabric helper turns it into nodes, ports and channels, and
 * InaRoutingTable computes routes on it.
 *
 * The node numbering is the address plan (InaAddress == node index) and is deterministic: all hosts
 * first, in rack order (the hosts of the first ToR/leaf, then of the second, ...), then the
 * switches tier by tier from the bottom (ToRs/leaves, then aggregation, then cores/spines).
 *
 * Port numbering: port i of a node is its i-th entry in Neighbors(node), which lists neighbours in
 * ascending node index. Because switches are numbered bottom-up, a switch's downlinks come first; a
 * host's only port is port 0.
 *
 * Every topology is connected and every host is attached to exactly one switch (generators build it
 * so; FromFile checks it).
 */
class InaTopology
{
  public:
    /**
     * Nodes a topology may have: about 35 times the largest fabric inasim is built for (a k=48
     * fat-tree, 30,528 nodes). Every node costs its name, adjacency and, once built, an ns-3
     * Node with its devices, so a size beyond it (a mistyped k or leaf count) is refused before
     * anything is allocated rather than exhausting memory.
     */
    static constexpr uint64_t MAX_NODES = uint64_t{1} << 20;
    /**
     * Switches a topology may have. The routing table keeps two uint16 matrices indexed by
     * (switch, switch), 4 B per pair: 16,384 switches take 1 GiB (a k=48 fat-tree's 2,880 take
     * 33 MB). Beyond it the routes alone would not fit the machines inasim runs on.
     */
    static constexpr uint64_t MAX_SWITCHES = uint64_t{1} << 14;

    /// Rate and one-way propagation delay of a kind of link.
    struct LinkSpec
    {
        uint64_t rateBps = 0; //!< bits per second, > 0
        int64_t delayPs = 0;  //!< propagation delay in picoseconds, >= 0
    };

    struct Node
    {
        std::string name;    //!< unique; "h3", "tor0", "agg5", ... in generated topologies
        bool isHost = false; //!< true for hosts, false for switches
        std::string tier;    //!< "host" for hosts; a switch tier such as "tor", "agg", "core"
        uint32_t pod = 0;    //!< fat-tree pod (of the rack for hosts); 0 for cores, spines, stars
        uint32_t index = 0;  //!< position among the nodes of the same tier and pod, in node order
        /// switches: aggregation capacity from a topology file's capacity= (Pipeline attribute
        /// AggregationCapacity / AggregationCapacityPps); both 0: not given
        uint64_t aggCapacityBps = 0;
        uint64_t aggCapacityPps = 0; //!< see aggCapacityBps
    };

    /// A full-duplex link between nodes `a` and `b` (node indices).
    struct Link
    {
        uint32_t a = 0;
        uint32_t b = 0;
        uint64_t rateBps = 0;
        int64_t delayPs = 0;
        /// largest packet in wire bytes (a topology file's mtu=); 0: the fabric's (the helper's
        /// SetMtu, the scenario's topology.mtu)
        uint32_t mtuBytes = 0;
    };

    /// (neighbour node, link index); the position in the list is the port number.
    using Adjacency = std::vector<std::pair<uint32_t, uint32_t>>;

    /**
     * One switch "tor0" with `hosts` hosts "h0".. on it.
     * \throws std::invalid_argument if hosts is 0 or exceeds 65535 (a switch's port limit), or a
     * link spec is invalid.
     */
    static InaTopology Star(uint32_t hosts, LinkSpec hostLink);

    /**
     * The k-ary fat-tree of Al-Fares et al.: k pods of k/2 ToRs ("tor") and k/2 aggregation
     * switches ("agg"), (k/2)^2 cores ("core"), k/2 hosts per ToR (k^3/4 hosts). ToR i of pod p
     * connects to every agg of pod p; agg j of each pod connects to cores j*k/2 .. j*k/2+k/2-1.
     * Switch names count globally within a tier (tor0..tor(k^2/2-1)); Node::pod and Node::index
     * give the position in the pod.
     *
     * `hostsPerTor` other than k/2 oversubscribes (more) or undersubscribes (fewer) the ToRs: their
     * uplinks stay k/2, so the ToR's ratio is hostsPerTor * hostLink rate / (k/2 * fabricLink
     * rate), see Oversubscription(). GRID's evaluation, for example, puts 6 hosts under each ToR
     * of a k=8 fat-tree (1.5:1).
     * \param hostsPerTor hosts under each ToR; 0: k/2
     * \throws std::invalid_argument unless k is even and >= 4, or if the result would have more
     * than MAX_NODES nodes or MAX_SWITCHES switches, or a ToR more ports than it has.
     */
    static InaTopology FatTree(uint32_t k,
                               LinkSpec hostLink,
                               LinkSpec fabricLink,
                               uint32_t hostsPerTor = 0);

    /**
     * Two tiers: `leaves` leaves ("leaf"), each with `hostsPerLeaf` hosts, and `spines` spines
     * ("spine"), every leaf linked to every spine. Oversubscription is set by the rates:
     * hostsPerLeaf * hostLink.rateBps / (spines * fabricLink.rateBps), see Oversubscription().
     * \throws std::invalid_argument if a count is 0, a leaf would have more than 65535 ports, or
     * the result more than MAX_NODES nodes or MAX_SWITCHES switches.
     */
    static InaTopology LeafSpine(uint32_t leaves,
                                 uint32_t spines,
                                 uint32_t hostsPerLeaf,
                                 LinkSpec hostLink,
                                 LinkSpec fabricLink);

    /**
     * Reads a topology file (format: docs/topology-format.md).
     * \throws std::runtime_error "PATH:LINE: what was expected" on any error in the file, or
     * "cannot open topology file ..." if it cannot be read.
     */
    static InaTopology FromFile(const std::string& path);

    /**
     * Parses topology-file text; `sourceName` stands for the file name in error messages.
     * \throws std::runtime_error as FromFile.
     */
    static InaTopology FromString(const std::string& text, const std::string& sourceName);

    uint32_t GetNHosts() const
    {
        return m_nHosts;
    }

    uint32_t GetNSwitches() const
    {
        return static_cast<uint32_t>(m_nodes.size()) - m_nHosts;
    }

    uint32_t GetNNodes() const
    {
        return static_cast<uint32_t>(m_nodes.size());
    }

    uint32_t GetNLinks() const
    {
        return static_cast<uint32_t>(m_links.size());
    }

    bool IsHost(uint32_t node) const
    {
        return node < m_nHosts;
    }

    /// \throws std::out_of_range for a bad index (also GetLink, GetTier, Neighbors, ...).
    const Node& GetNode(uint32_t node) const;
    const Link& GetLink(uint32_t link) const;

    const std::vector<Node>& GetNodes() const
    {
        return m_nodes;
    }

    const std::vector<Link>& GetLinks() const
    {
        return m_links;
    }

    /// \throws std::invalid_argument if no node has that name.
    uint32_t FindNode(const std::string& name) const;
    bool HasNode(const std::string& name) const;

    /// Hosts attached directly to `switchNode`, ascending (contiguous, by the address plan).
    /// \throws std::invalid_argument if the node is a host.
    std::vector<uint32_t> HostsUnder(uint32_t switchNode) const;
    /// The switch a host attaches to. \throws std::invalid_argument if the node is a switch.
    uint32_t RackOf(uint32_t host) const;

    const std::string& GetTier(uint32_t node) const;
    /// Nodes of a tier, ascending; empty for a tier the topology does not have.
    std::vector<uint32_t> NodesInTier(const std::string& tier) const;

    /// Tier names bottom-up, "host" first: {"host", "tor", "agg", "core"} for a fat-tree.
    const std::vector<std::string>& GetTiers() const
    {
        return m_tiers;
    }

    bool HasTier(const std::string& tier) const;
    /// Position of the node's tier in GetTiers() (hosts 0, ToRs/leaves 1, ...).
    uint32_t GetLevel(uint32_t node) const;

    /// (neighbour, link index) pairs by ascending neighbour; entry i is port i of the node.
    const Adjacency& Neighbors(uint32_t node) const;
    /// The port of `node` that leads to its neighbour `neighbor`.
    /// \throws std::invalid_argument if they are not adjacent.
    uint16_t PortTo(uint32_t node, uint32_t neighbor) const;

    /**
     * Downlink capacity over uplink capacity of a switch: the summed rates of its links to nodes of
     * a lower level (GetLevel) over those to a higher level. A leaf with 8 hosts at 100 Gb/s and 2
     * spine links at 100 Gb/s gives 4.
     * \throws std::invalid_argument for a host or a switch with no uplink (the top tier).
     */
    double Oversubscription(uint32_t switchNode) const;
    /// The largest Oversubscription() over switches that have uplinks; 1 when none has (a star).
    double MaxOversubscription() const;

  private:
    InaTopology() = default;
    /// Builds the derived indices (adjacency, names, racks, tiers); checks the address plan.
    void Finalize();

    std::vector<Node> m_nodes;
    std::vector<Link> m_links;
    uint32_t m_nHosts = 0;
    std::vector<Adjacency> m_adjacency;
    std::vector<uint32_t> m_rack;     //!< per host: its switch
    std::vector<std::string> m_tiers; //!< bottom-up, "host" first
    std::vector<uint32_t> m_level;    //!< per node: index of its tier in m_tiers
    std::unordered_map<std::string, uint32_t> m_byName;
};

} // namespace ns3

#endif /* INA_TOPOLOGY_H */
