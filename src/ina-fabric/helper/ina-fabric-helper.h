/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_FABRIC_HELPER_H
#define INA_FABRIC_HELPER_H

#include "ns3/ina-fabric.h"
#include "ns3/ina-topology.h"
#include "ns3/object-factory.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Turns an InaTopology into a running network: an ns-3 Node per topology node with an InaHost or an
 * InaSwitch (every switch with a Pipeline) aggregated to it, and a link per topology link, either
 * inasim's InaNetDevice pair or ns-3's PointToPointNetDevice pair.
 *
 * \code
 *   InaFabricHelper::ConfigureSimulator(); // first thing in main()
 *   InaFabricHelper fabric;
 *   fabric.SetQueue(1000000, 100000);
 *   fabric.SetPipelineAttribute("Stages", UintegerValue(12));
 *   Ptr<InaFabric> net = fabric.Build(InaTopology::FatTree(4, hostLink, fabricLink));
 * \endcode
 */
class InaFabricHelper
{
  public:
    enum class LinkKind
    {
        FAST, //!< InaNetDevice: one event per hop
        P2P   //!< ns-3 PointToPointNetDevice, for comparison
    };

    InaFabricHelper();

    /**
     * The simulator settings inasim's models need, as an explicit step: call it at the start of
     * main(), before any other ns-3 call (in any case before the first Simulator::Run() and before
     * CommandLine::Parse()). Loading an inasim library changes nothing; this call does, and only
     * what the program has not chosen itself. Calling it again does nothing more.
     *
     * - Picosecond time steps (InaTimeResolution), if the resolution is still ns-3's default
     *   (nanoseconds). A resolution the program set itself is kept, and fabrics then refuse to
     *   build (InaTimeResolution::Require). ns-3 allows one Time::SetResolution per process, before
     *   Simulator::Run; a program that calls Time::SetResolution(Time::NS) itself and then this
     *   call breaks that rule (ns-3 aborts), since ns-3 cannot tell its default from that choice.
     * - ns3::InaWheelScheduler (a timing wheel of nanosecond buckets in front of a heap) as the
     *   scheduler, if SchedulerType is still ns-3's default MapScheduler and NS_GLOBAL_VALUE does
     *   not name it. With MapScheduler the ATP benchmark's hop rate was 20 % lower and the raw
     *   event rate 29 % lower (docs/architecture.md); a binary heap's cost per event grows with
     *   the events pending, the wheel's does not (docs/performance.md). Every ns-3 scheduler
     *   orders events by (time, insertion), so results do not depend on it. --SchedulerType given
     *   to a CommandLine parsed after this call still wins.
     */
    static void ConfigureSimulator();

    void SetLinkKind(LinkKind kind);
    /// Output-queue capacity (every port) and ECN marking threshold (0: no marking; switch ports
    /// only, as DCTCP marks at switch egress), in bytes.
    void SetQueue(uint64_t capacityBytes, uint64_t ecnThresholdBytes);
    /// Let hosts' NIC queues mark ECN too (default off: only switch ports mark, as with DCTCP).
    void SetEcnAtHosts(bool mark);
    void SetPriorityClasses(uint32_t classes);
    /// Largest packet (wire bytes) of every link whose topology gives none (Link::mtuBytes 0);
    /// default 1500. A larger packet is dropped at the sending port (InaLinkCounters::oversize).
    /// \throws std::invalid_argument outside 68..65535 (IPv4's smallest MTU, RFC 791; the largest
    /// an ns-3 NetDevice takes).
    void SetMtu(uint32_t bytes);
    static constexpr uint32_t MIN_MTU = 68;
    static constexpr uint32_t MAX_MTU = 65535;
    /// The MTU a link of `topology` gets: its own, else SetMtu's.
    uint32_t GetLinkMtu(const InaTopology& topology, uint32_t link) const;
    /// Independent random loss per packet per link direction.
    void SetLossRate(double rate);
    /// ECMP hash seed; with the loss streams, what makes a run repeatable.
    void SetEcmpSeed(uint64_t seed);
    /// First random stream for the links' error models (one stream per link direction).
    void SetStreamBase(int64_t stream);
    /// Any ns3::Pipeline attribute, for every switch.
    void SetPipelineAttribute(const std::string& name, const AttributeValue& value);
    /// Write pcap files `<prefix>-<node>-<port>.pcap` for every port (fast links only).
    void EnablePcap(const std::string& prefix);

    /**
     * Report the steps of Build as they end (routes computed, links made in quarters, ports
     * wired), each as a short line without a newline: a fabric of tens of thousands of hosts
     * takes seconds to build and should not do so in silence. Unset, or for a fabric of fewer
     * than PROGRESS_MIN_LINKS links (built in well under a second), Build reports nothing.
     */
    void SetProgress(std::function<void(const std::string&)> report);
    static constexpr uint32_t PROGRESS_MIN_LINKS = 4096;

    Ptr<InaFabric> Build(const InaTopology& topology) const;

  private:
    /// Build's steps.
    /// @{
    /// One ns-3 Node per topology node, with its InaHost, or its InaSwitch and Pipeline.
    std::vector<Ptr<Node>> CreateNodes(InaFabric& fabric) const;
    /// The two ends of link `l` as InaNetDevices on an InaChannel (LinkKind::FAST).
    void ConnectFast(InaFabric& fabric,
                     uint32_t l,
                     const std::vector<Ptr<Node>>& nodes,
                     int64_t& stream,
                     InaPort* ends[2]) const;
    /// The two ends of link `l` as PointToPointNetDevices behind InaP2pPorts (LinkKind::P2P).
    void ConnectP2p(InaFabric& fabric,
                    uint32_t l,
                    const std::vector<Ptr<Node>>& nodes,
                    int64_t& stream,
                    InaPort* ends[2]) const;
    /// The ECN threshold of a port owned by `node` (0 at a host unless SetEcnAtHosts).
    uint64_t EcnThresholdAt(const InaTopology& topo, uint32_t node) const;
    /// Attach every node's ports, in its Neighbors() order, to its host or switch.
    void AttachPorts(InaFabric& fabric, const std::vector<std::vector<InaPort*>>& ports) const;
    /// @}

    LinkKind m_linkKind = LinkKind::FAST;
    uint64_t m_capacityBytes = 1000000;
    uint64_t m_ecnThresholdBytes = 0;
    bool m_ecnAtHosts = false;
    uint32_t m_priorityClasses = 1;
    uint32_t m_mtuBytes = 1500;
    double m_lossRate = 0;
    uint64_t m_ecmpSeed = 1;
    int64_t m_streamBase = 0;
    ObjectFactory m_pipelineFactory;
    std::string m_pcapPrefix;
    std::function<void(const std::string&)> m_progress;
};

} // namespace ns3

#endif /* INA_FABRIC_HELPER_H */
