/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef MYP_PROTOCOL_H
#define MYP_PROTOCOL_H

#include "ns3/pool-protocol.h"

namespace ns3
{

/// Steps 4 and 5 of docs/architecture.md "How to add a protocol": the kit's PoolProtocol with
/// myp's pieces, registered as protocol "myp".
class MypProtocol : public PoolProtocol
{
  public:
    static TypeId GetTypeId();

    MypProtocol();

  protected:
    Ptr<PoolProgram> CreateProgram() const override;
    Ptr<PoolParameterServer> CreateServer() const override;
    Ptr<PoolAgent> CreatePoolAgent() const override;
};

} // namespace ns3

#endif /* MYP_PROTOCOL_H */
