/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_ML_PS_PROTOCOL_H
#define SWITCH_ML_PS_PROTOCOL_H

#include "grid-protocol.h"

namespace ns3
{

/**
 * \ingroup grid
 * SwitchML as GRID's evaluation runs it, at packet level, registered as protocol "switchml-ps"
 * (GRID paper, Sec. 6.1: SwitchML "minimizes the communication overheads at each rack. For fair
 * evaluation, we further accelerate the training of SwitchML by sending the aggregated gradients
 * of the programmable switch to the PS for global aggregation"): each worker's rack switch
 * aggregates the rack if it is programmable, the others send straight to the PS
 * (GridBaselines::SwitchMlAssignment, the planner level's SwitchML), on the default routes, all
 * at the common rate that assignment sustains (GridPlanner::MakePlan), paced. It runs on GRID's
 * data plane (ATP-like hashed units and windows), not on SwitchML's own (protocol "switchml",
 * one tree of switches and no PS).
 */
class SwitchMlPsProtocol : public GridProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchMlPsProtocol();

  protected:
    GridPlan PlanJob(const GridProblem& problem,
                     const GridPlanner::Options& options) const override;
};

} // namespace ns3

#endif /* SWITCH_ML_PS_PROTOCOL_H */
