/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_CONTROLLER_MEMBERSHIP_H
#define GRID_CONTROLLER_MEMBERSHIP_H

#include "ns3/ptr.h"

namespace ns3
{

class GridControlledJob;
class GridController;
struct JobContext;

/**
 * \ingroup grid
 * A job's place among the jobs its fabric's GridController re-plans, held by each protocol that
 * is a GridControlledJob (GridProtocol, AtpPacedProtocol): it joins when the job is installed,
 * tells the controller when the job ends, and leaves when the protocol is disposed.
 */
class GridControllerMembership
{
  public:
    /// Out of line: it holds a Ptr to a class this header only declares.
    ~GridControllerMembership();

    /**
     * Join the controller of the job's fabric (GridController::Of) from the job's start on.
     * \param job the job
     * \param ctx its context (fabric, start time)
     */
    void Join(GridControlledJob* job, const JobContext& ctx);

    /// The job ended: the controller re-plans the others (nothing if it never joined).
    void JobEnded();

    /// Leave the controller (nothing if the job never joined): the protocol is being disposed.
    void Leave();

  private:
    Ptr<GridController> m_controller;   //!< the fabric's, once joined
    GridControlledJob* m_job = nullptr; //!< the job that joined
};

} // namespace ns3

#endif /* GRID_CONTROLLER_MEMBERSHIP_H */
