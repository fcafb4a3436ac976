/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MYP_PARAMETER_SERVER_H
#define MYP_PARAMETER_SERVER_H

#include "ns3/pool-parameter-server.h"

namespace ns3
{

/// Step 4 of docs/architecture.md "How to add a protocol": the kit's PoolParameterServer, a TypeId
/// and nothing else.
class MypParameterServer : public PoolParameterServer
{
  public:
    static TypeId GetTypeId();
};

} // namespace ns3

#endif /* MYP_PARAMETER_SERVER_H */
