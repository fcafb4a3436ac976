/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PLANNER_LEVEL_RUNNER_H
#define PLANNER_LEVEL_RUNNER_H

#include "ns3/ina-topology.h"
#include "ns3/scenario.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * A scenario at `level: planner`: no packets; every job is planned by GRID's planner or by the
 * fluid model of its baseline (protocol grid, atp, switchml or geryon), re-planned whenever a job
 * starts or ends (GridOnlinePlanner), and ends when its workers have sent their iterations'
 * gradients at the planned rates. This is the level of the GRID paper's large-scale evaluation
 * (Sec. 6.3, "running the algorithm simulations").
 *
 * The fabric is the scenario's topology. The programmable switches are those of switch.ina_tiers
 * (planner.programmable: tiers) or a random planner.fraction of all switches drawn from the seed
 * (random). Their capacities C_s are drawn uniformly in [planner.capacity_min, capacity_max] from
 * the seed when those are set (the paper's 100 Gb/s to 3.2 Tb/s), else taken from the switch's
 * aggregation capacity as the packet level would set it (switch.aggregation.per_switch, a
 * topology file's capacity=, switch.aggregation.capacity), and else the sum of the switch's port
 * rates (line rate). Workers and the parameter server are placed as at the packet level.
 *
 * Outputs: summary.json (per job: the first plan's rate and Sec. 6.1 metrics, the lowest and
 * highest rate it was given, start, end and JCT; the re-plans with their wall times), replans.csv,
 * config.yaml.
 */
class PlannerLevelRunner
{
  public:
    /**
     * \param scenario a scenario with level planner
     * \param topology its topology, built
     * \param outDir where outputs go
     */
    PlannerLevelRunner(const Scenario& scenario,
                       const InaTopology& topology,
                       const std::string& outDir);

    /// Where the human summary goes (stdout by default; nullptr: nowhere).
    void SetConsole(std::ostream* summary);

    /**
     * Plan, run and write the outputs.
     * \return 0 when every job ended, 1 when some job could never move (rate 0 for ever)
     * Throws ScenarioError naming the key for what cannot be planned.
     */
    int Run();

  private:
    Scenario m_scenario;
    InaTopology m_topology;
    std::string m_outDir;
    std::ostream* m_summaryOut;
};

} // namespace ns3

#endif /* PLANNER_LEVEL_RUNNER_H */
