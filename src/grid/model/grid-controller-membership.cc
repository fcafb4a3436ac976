/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "grid-controller-membership.h"

#include "grid-controller.h"

namespace ns3
{

GridControllerMembership::~GridControllerMembership() = default;

void
GridControllerMembership::Join(GridControlledJob* job, const JobContext& ctx)
{
    m_job = job;
    m_controller = GridController::Of(ctx.fabric);
    m_controller->AddJob(job, TimeStep(ctx.startPs));
}

void
GridControllerMembership::JobEnded()
{
    if (m_controller)
    {
        m_controller->JobEnded(m_job);
    }
}

void
GridControllerMembership::Leave()
{
    if (m_controller)
    {
        m_controller->RemoveJob(m_job);
        m_controller = nullptr;
    }
}

} // namespace ns3
