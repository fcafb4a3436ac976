/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_FAULTS_H
#define SCENARIO_FAULTS_H

#include "ns3/ina-fabric.h"
#include "ns3/ina-fault-injector.h"
#include "ns3/scenario.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * A scenario's `events` on a built fabric: each event's links and switches found by name, each
 * fault scheduled with an InaFaultInjector. A scenario without events gets no injector, and its
 * fabric is untouched.
 */
class ScenarioFaults
{
  public:
    /**
     * Resolve and schedule every event (call before the simulation starts).
     * \throws ScenarioError naming the event's key for a node, link or tier the topology lacks,
     * or a link model faults cannot act on
     */
    ScenarioFaults(const Scenario& scenario, Ptr<InaFabric> fabric);
    ~ScenarioFaults();

    /// summary.json's `faults` section: packets lost to faults, reroutes, links down at the end.
    nlohmann::json Summary() const;
    /// One line for the console summary.
    std::string ConsoleLine() const;

  private:
    /// The topology link index between the two named ends of events.<index>.link.
    uint32_t FindLink(const Scenario& s, size_t index, const std::vector<std::string>& ends) const;
    uint32_t FindSwitch(const Scenario& s, size_t index, const std::string& name) const;
    /// The links a `loss` event names: its one link, or every link between its two tiers.
    std::vector<uint32_t> FindLossLinks(const Scenario& s, size_t index) const;
    void Schedule(const Scenario& s, size_t index);
    /// Books every down/up pair of a `link_flap` event.
    void ScheduleFlap(const Scenario& s, size_t index);
    void ScheduleLoss(const Scenario& s, size_t index);

    Ptr<InaFabric> m_fabric;
    Ptr<InaFaultInjector> m_injector;
};

} // namespace ns3

#endif /* SCENARIO_FAULTS_H */
