/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATP_AGENT_H
#define ATP_AGENT_H

#include "ns3/pool-agent.h"

namespace ns3
{

/**
 * \ingroup atp
 * The worker side of ATP (ATP paper, Section 3.4 and 3.5): the kit's worker of a shared-pool
 * protocol (PoolAgent: a sliding window of 62-value fragments, each sent to the job's parameter
 * server through the aggregating switches, the window driven by ECN and loss, resends with the
 * resend flag) as it is; ATP's choices (the job's slot table, FirstRto/Rto, fast retransmit)
 * are PoolAgent's defaults.
 */
class AtpAgent : public PoolAgent
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
};

} // namespace ns3

#endif /* ATP_AGENT_H */
