/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_WORKER_PACING_H
#define GRID_WORKER_PACING_H

#include "ns3/aggregation-protocol.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * Each worker sending at the rate a rate model gives it, as GRID's control plane sets every
 * worker's sending rate (GRID paper, Sec. 3.3 and 4.3): the one place GridProtocol (each worker at
 * its planned rate) and AtpPacedProtocol (all at the rate of the paper's model of ATP) cap the
 * workers' NICs.
 */
class GridWorkerPacing
{
  public:
    /**
     * Caps worker r's NIC at rateBps[r] (InaHost::SetInjectionRateCap).
     * \param ctx the job
     * \param rateBps one rate per worker, by rank, bit/s
     * \return the rank of the first worker whose host has no NIC that can pace (the p2p link
     *         model), or -1 when every worker is capped
     */
    static int64_t Cap(const JobContext& ctx, const std::vector<double>& rateBps);
};

} // namespace ns3

#endif /* GRID_WORKER_PACING_H */
