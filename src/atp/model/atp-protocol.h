/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ATP_PROTOCOL_H
#define ATP_PROTOCOL_H

#include "ns3/pool-protocol.h"

#include <string>

namespace ns3
{

/**
 * \ingroup atp
 * ATP (Lao et al., "ATP: In-network Aggregation for Multi-tenant Learning", NSDI'21) for one job,
 * registered as protocol "atp": the kit's shared-pool protocol (PoolProtocol: one aggregation
 * tree per parameter server over the rack switches, the slot-to-aggregator hash table, the
 * servers and the multicast group of results) with ATP's pieces: AtpProgram at the switches
 * (first come, first served; a collision falls back to the parameter server), AtpParameterServer,
 * AtpAgent. Many ATP jobs share one AtpProgram, and so one aggregator pool, per switch.
 */
class AtpProtocol : public PoolProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AtpProtocol();

  protected:
    /// For a variant of ATP (AtpPacedProtocol): its short name in messages
    /// \param label the name
    explicit AtpProtocol(const std::string& label);

    Ptr<PoolProgram> CreateProgram() const override;
    Ptr<PoolParameterServer> CreateServer() const override;
    Ptr<PoolAgent> CreatePoolAgent() const override;
};

} // namespace ns3

#endif /* ATP_PROTOCOL_H */
