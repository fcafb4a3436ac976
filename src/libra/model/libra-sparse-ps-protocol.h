/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_SPARSE_PS_PROTOCOL_H
#define LIBRA_SPARSE_PS_PROTOCOL_H

#include "libra-protocol.h"

namespace ns3
{

/**
 * \ingroup libra
 * The paper's PS-lite baseline (Sec. 5.1): a Libra job with no hot parameters, every (key, value)
 * pair pushed to and pulled from the sparse PS, on the same host stack and workload as Libra (spec
 * A.14.9), so that only the aggregation path differs. Registered as protocol "libra-ps"; every
 * Attribute of LibraProtocol applies, HotKeys is ignored (0).
 */
class LibraSparsePsProtocol : public LibraProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

  protected:
    bool AggregatesInNetwork() const override;
};

} // namespace ns3

#endif /* LIBRA_SPARSE_PS_PROTOCOL_H */
