/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_FABRIC_H
#define INA_FABRIC_H

#include "ina-event-batcher.h"
#include "ina-host.h"
#include "ina-packet-pool.h"
#include "ina-port.h"
#include "ina-routing-table.h"
#include "ina-switch.h"
#include "ina-topology.h"

#include "ns3/node-container.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * One built network: the topology it came from, its nodes (hosts and switches, addressed by their
 * topology node index), the ports of every link, the routing table, and the packet pool they share.
 * Made by InaFabricHelper; everything a protocol or an application needs to reach the network goes
 * through it, so nothing about a simulation lives in process-wide state.
 */
class InaFabric : public Object
{
  public:
    static TypeId GetTypeId();
    InaFabric();
    ~InaFabric() override;

    const InaTopology& GetTopology() const;
    const InaRoutingTable& GetRoutes() const;
    /// The routes the switches forward by now: GetRoutes(), or those InstallRoutes installed.
    const InaRoutingTable& GetInstalledRoutes() const;
    /// The seed of the switches' ECMP hash (InaRoutingTable::SelectPort's `seed`).
    uint64_t GetEcmpSeed() const;
    InaPacketPool& GetPool();
    /// The event batcher the fabric's links share (per fabric, so per simulation).
    InaEventBatcher& GetEventBatcher();

    uint32_t GetNHosts() const;
    Ptr<InaHost> GetHost(uint32_t host) const;
    /// The switch at topology node index `node` (node >= number of hosts).
    Ptr<InaSwitch> GetSwitch(uint32_t node) const;
    const std::vector<Ptr<InaSwitch>>& GetSwitches() const;
    NodeContainer GetNodes() const;

    /// Both ends of topology link `link`: [0] at GetLink(link).a, [1] at .b.
    InaPort* GetLinkPort(uint32_t link, int end) const;

    /**
     * Make a multicast group from `root` (a switch or host node) to `members` (hosts): every switch
     * on the shortest-path tree replicates on the ports towards its members, so each member gets
     * exactly one copy. Returns the destination address to send to (group | INA_MULTICAST_BIT).
     */
    InaAddress CreateMulticastGroup(uint32_t root, const std::vector<uint32_t>& members);

    /**
     * Lay a group made by CreateMulticastGroup again, on the routes installed now
     * (GetInstalledRoutes): for a control plane that moves its trees off failed links. Switches
     * that were on the old tree only keep their entry; no packet of the group reaches them.
     * \param group the address CreateMulticastGroup returned
     * \param root its root, as then
     * \param members its members, as then
     * \throws std::invalid_argument if a member cannot be reached from the root
     */
    void RelayMulticastGroup(InaAddress group, uint32_t root, const std::vector<uint32_t>& members);

    /**
     * Make every switch forward by `routes` (built on this fabric's topology and kept alive by
     * the caller until replaced), or by the fabric's own table again with nullptr: how the
     * routing converges around failures (InaFaultInjector).
     */
    void InstallRoutes(const InaRoutingTable* routes);

    /// Signature of the RoutesChanged trace: InstallRoutes ran (GetInstalledRoutes has them).
    typedef void (*RoutesChangedCallback)();

    /// Packets delivered over all links (one per packet-hop).
    uint64_t GetPacketHops() const;
    /// Aggregators held now by every switch program of the fabric (Pipeline::GetAggregatorsInUse).
    uint64_t GetAggregatorsInUse() const;
    /// Sum of every link direction's counters.
    InaLinkCounters GetTotalLinkCounters() const;

    /// \name Building (InaFabricHelper only)
    /// @{
    void SetTopology(const InaTopology& topology, uint64_t ecmpSeed);
    void AddNode(Ptr<Node> node);
    void AddHost(Ptr<InaHost> host);
    void AddSwitch(Ptr<InaSwitch> sw);
    void AddLinkPorts(InaPort* a, InaPort* b);
    void AdoptPort(std::unique_ptr<InaPort> port);
    /// @}

  protected:
    void DoDispose() override;

  private:
    /// Set every switch's entry of `group` on the tree from `root` to `members` over `routes`.
    void LayMulticastTree(uint32_t group,
                          uint32_t root,
                          const std::vector<uint32_t>& members,
                          const InaRoutingTable& routes);

    std::unique_ptr<InaPacketPool> m_pool;
    std::unique_ptr<InaEventBatcher> m_batcher;
    std::unique_ptr<InaTopology> m_topology;
    std::unique_ptr<InaRoutingTable> m_routes;
    const InaRoutingTable* m_installed = nullptr; //!< InstallRoutes' table (nullptr: m_routes)
    TracedCallback<> m_routesChanged;             //!< RoutesChanged
    NodeContainer m_nodes;
    std::vector<Ptr<InaHost>> m_hosts;
    std::vector<Ptr<InaSwitch>> m_switches;
    std::vector<std::pair<InaPort*, InaPort*>> m_linkPorts;
    std::vector<std::unique_ptr<InaPort>> m_ownedPorts;
    uint64_t m_ecmpSeed = 0;
    uint32_t m_nextGroup = 0;
};

} // namespace ns3

#endif /* INA_FABRIC_H */
