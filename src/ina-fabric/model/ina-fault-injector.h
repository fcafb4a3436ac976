/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_FAULT_INJECTOR_H
#define INA_FAULT_INJECTOR_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <memory>
#include <vector>

namespace ns3
{

class InaFabric;
class InaNetDevice;
class InaRoutingTable;

/**
 * \ingroup ina-fabric
 * Link and switch faults of a fabric, and the routing's reaction to them.
 *
 * A link that goes down drops, in both directions, every packet sent into it and every packet
 * queued or on the wire (InaNetDevice::SetLinkDown; counted as fault drops). A switch that fails
 * takes all its links down and loses its data-plane state (SwitchProgram::ResetState: registers,
 * aggregators); when it comes back (a reboot) its links come up with empty registers, and the
 * control plane's tables as they were.
 *
 * Routing learns of a change DetectionDelay after it happens, as a fabric running BFD would, if
 * the link stayed so all that time (a shorter failure or repair goes unnoticed, as with BFD); it
 * then converges at once to shortest paths over the links it knows are up (InaRoutingTable with
 * failed links): ECMP stops choosing a port towards a dead link or switch, and uses it again a
 * detection delay after it comes back. Until then packets hashed onto the dead link are lost.
 * Routes pinned from outside (a planner's job routes, multicast trees) are not recomputed.
 *
 * Nothing here runs per packet: forwarding is untouched until an event fires, and the routes go
 * back to the fabric's own table (and its arithmetic fast path) once every fault is repaired.
 */
class InaFaultInjector : public Object
{
  public:
    static TypeId GetTypeId();
    InaFaultInjector();
    ~InaFaultInjector() override;

    /**
     * The fabric to act on; its links must be InaNetDevices (the fast link model).
     * \throws std::invalid_argument otherwise
     */
    void SetFabric(Ptr<InaFabric> fabric);

    /// \name Faults, each at an absolute simulated time (not before now)
    /// @{
    void ScheduleLinkDown(uint32_t link, Time at);
    void ScheduleLinkUp(uint32_t link, Time at);
    /// The switch at topology node `node` fails: its links go down, its state is lost.
    void ScheduleSwitchDown(uint32_t node, Time at);
    /// The switch comes back (after a ScheduleSwitchDown): its links come up.
    void ScheduleSwitchUp(uint32_t node, Time at);
    /// Random loss on both directions of `link` from `at` on (0: none); `stream` fixes its draws.
    void ScheduleLinkLoss(uint32_t link, double rate, Time at, int64_t stream);
    /// @}

    /// Packets lost to faults so far, over all links.
    uint64_t GetFaultDrops() const;
    /// How many times the routing converged to new routes.
    uint32_t GetReroutes() const;
    /// Links that are down now.
    uint32_t GetLinksDown() const;

  protected:
    void DoDispose() override;

  private:
    InaNetDevice* Device(uint32_t link, int end) const;
    /// `delta` more (+1) or fewer (-1) reasons for the link to be down
    void ChangeLink(uint32_t link, int delta);
    void LinkDown(uint32_t link);
    void LinkUp(uint32_t link);
    void SwitchDown(uint32_t node);
    void SwitchUp(uint32_t node);
    void SetLoss(uint32_t link, double rate, int64_t stream);
    /// Routing learns the link's state if it held for the whole detection delay (`change` is
    /// the link's change count then; a later change makes this detection void).
    void Detect(uint32_t link, bool down, uint64_t change);
    void Reconverge();
    void CheckLink(uint32_t link) const;
    void CheckSwitch(uint32_t node) const;

    Time m_detectionDelay;
    Ptr<InaFabric> m_fabric;
    std::vector<uint32_t> m_downCount; //!< per link: reasons it is down (its own, failed ends)
    std::vector<bool> m_detected;      //!< per link: down as the routing knows it
    std::vector<uint64_t> m_changes;   //!< per link: how often it went down or up
    std::vector<bool> m_switchDown;    //!< per switch node - hosts
    std::unique_ptr<InaRoutingTable> m_routes; //!< converged routes while a fault is known
    bool m_reconvergePending = false;
    uint32_t m_reroutes = 0;
};

} // namespace ns3

#endif /* INA_FAULT_INJECTOR_H */
