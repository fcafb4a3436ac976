/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-plan.h"

namespace ns3
{

std::vector<uint32_t>
GridPlan::Assignment() const
{
    std::vector<uint32_t> out;
    out.reserve(workers.size());
    for (const WorkerRoute& w : workers)
    {
        out.push_back(w.target);
    }
    return out;
}

GridSchemeRates
GridPlan::Rates() const
{
    GridSchemeRates r;
    r.lambdaBps = achievedBps;
    double sum = 0;
    double direct = 0;
    for (const WorkerRoute& w : workers)
    {
        sum += w.rateBps;
        if (w.node == psNode)
        {
            direct += w.rateBps;
        }
    }
    double outputs = 0;
    for (const SwitchRoute& s : switches)
    {
        outputs += s.rateBps;
    }
    r.meanSendingBps = workers.empty() ? 0 : sum / static_cast<double>(workers.size());
    r.switchAggregationBps = sum - direct;
    r.psAggregationBps = direct + outputs;
    return r;
}

} // namespace ns3
