/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATP_PARAMETER_SERVER_H
#define ATP_PARAMETER_SERVER_H

#include "ns3/pool-parameter-server.h"

namespace ns3
{

/**
 * \ingroup atp
 * ATP's parameter server (ATP paper, Section 3.3): the kit's server of a shared-pool protocol
 * (PoolParameterServer: merges complete aggregates and the partials that fell back, answers each
 * fragment once with a multicast parameter packet) as it is.
 */
class AtpParameterServer : public PoolParameterServer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
};

} // namespace ns3

#endif /* ATP_PARAMETER_SERVER_H */
