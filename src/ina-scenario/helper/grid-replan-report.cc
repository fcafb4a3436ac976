/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-replan-report.h"

#ifdef INASIM_HAVE_GRID
#include "ns3/grid-controller.h"
#endif

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace ns3
{

#ifdef INASIM_HAVE_GRID

namespace
{

const std::vector<GridController::Replan>*
Replans(Ptr<InaFabric> fabric)
{
    Ptr<GridController> c = fabric->GetObject<GridController>();
    return c && !c->GetReplans().empty() ? &c->GetReplans() : nullptr;
}

} // namespace

nlohmann::ordered_json
GridReplanReport::Summary(Ptr<InaFabric> fabric)
{
    using json = nlohmann::ordered_json;
    const std::vector<GridController::Replan>* replans = Replans(fabric);
    if (replans == nullptr)
    {
        return json();
    }
    json list = json::array();
    double total = 0;
    double longest = 0;
    for (const GridController::Replan& r : *replans)
    {
        total += r.wallS;
        longest = std::max(longest, r.wallS);
        json rates = json::object();
        for (std::size_t k = 0; k < r.jobs.size(); ++k)
        {
            rates[r.jobs[k]] = r.rateBps[k] / 1e9;
        }
        json entry = {{"time_s", r.at.GetSeconds()},
                      {"trigger", r.trigger},
                      {"wall_s", r.wallS},
                      {"rates_gbps", rates}};
        if (!r.reassigned.empty())
        {
            entry["reassigned"] = r.reassigned;
        }
        if (!r.stranded.empty())
        {
            entry["stranded"] = r.stranded;
        }
        list.push_back(entry);
    }
    return json{{"count", replans->size()},
                {"wall_s_total", total},
                {"wall_s_max", longest},
                {"replans", list}};
}

std::string
GridReplanReport::ConsoleLine(Ptr<InaFabric> fabric)
{
    const std::vector<GridController::Replan>* replans = Replans(fabric);
    if (replans == nullptr)
    {
        return "";
    }
    double total = 0;
    std::size_t stranded = 0;
    std::size_t reassigned = 0;
    for (const GridController::Replan& r : *replans)
    {
        total += r.wallS;
        stranded += r.stranded.size();
        reassigned += r.reassigned.size();
    }
    char line[240];
    std::snprintf(line,
                  sizeof(line),
                  "  GRID re-plans: %zu (%.3f ms wall in total), last at %.6f s simulated%s%s",
                  replans->size(),
                  total * 1e3,
                  replans->back().at.GetSeconds(),
                  reassigned == 0 ? "" : "; jobs moved to new aggregation nodes (summary.json)",
                  stranded == 0 ? "" : "; jobs ended with no plan (summary.json)");
    return line;
}

#else

nlohmann::ordered_json
GridReplanReport::Summary(Ptr<InaFabric>)
{
    return nlohmann::ordered_json();
}

std::string
GridReplanReport::ConsoleLine(Ptr<InaFabric>)
{
    return "";
}

#endif // INASIM_HAVE_GRID

} // namespace ns3
