/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_REPLAN_REPORT_H
#define GRID_REPLAN_REPORT_H

#include "ns3/ina-fabric.h"

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * What GRID's controller (GridController) re-planned during a packet-level run, for the
 * scenario's outputs: only when it re-planned (jobs of GRID's data plane starting or ending while
 * others ran, routes converging around failed links), so that other runs' summaries stay as they
 * were. Empty without the grid module.
 */
class GridReplanReport
{
  public:
    /**
     * \param fabric the run's fabric
     * \return summary.json's "grid_replans": the count, the wall time in total and at most, and
     * each re-plan (simulated time it applied, trigger, wall time, every running job's rate,
     * the jobs left without a route); null if there was none
     */
    static nlohmann::ordered_json Summary(Ptr<InaFabric> fabric);

    /// \return the console line ("" if there was no re-plan)
    static std::string ConsoleLine(Ptr<InaFabric> fabric);
};

} // namespace ns3

#endif /* GRID_REPLAN_REPORT_H */
