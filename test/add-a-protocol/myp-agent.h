/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MYP_AGENT_H
#define MYP_AGENT_H

#include "ns3/pool-agent.h"

namespace ns3
{

/// Step 4 of docs/architecture.md "How to add a protocol": the kit's PoolAgent, a TypeId and
/// nothing else.
class MypAgent : public PoolAgent
{
  public:
    static TypeId GetTypeId();
};

} // namespace ns3

#endif /* MYP_AGENT_H */
