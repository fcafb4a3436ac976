/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GERYON_PROTOCOL_H
#define GERYON_PROTOCOL_H

#include "grid-protocol.h"

namespace ns3
{

/**
 * \ingroup grid
 * GRID's no-aggregation baseline at packet level, registered as protocol "geryon": Geryon-like
 * flow scheduling (GRID paper, Sec. 3.1 and 6.1) on GRID's data plane. GeryonRouter gives every
 * worker one path to the PS and the common rate; each worker sends every fragment to the PS on
 * its path (pinned per worker, as GRID's routes), paced at that rate (Pace), and the PS
 * aggregates everything and answers each worker. No switch aggregates, so no switch runs a
 * program and none spends aggregation capacity; switch.ina_tiers may be empty. Its paths are
 * GeryonRouter's flow schedule, not the fabric's routes, so GridController does not re-plan it
 * (FollowsFabricRoutes).
 */
class GeryonProtocol : public GridProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    GeryonProtocol();

  protected:
    GridPlan PlanJob(const GridProblem& problem,
                     const GridPlanner::Options& options) const override;
};

} // namespace ns3

#endif /* GERYON_PROTOCOL_H */
