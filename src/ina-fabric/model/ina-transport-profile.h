/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TRANSPORT_PROFILE_H
#define INA_TRANSPORT_PROFILE_H

#include "ns3/attribute.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Named sets of InaTransportSender / InaTransportReceiver Attributes that stand for the host
 * transports the INA papers' baselines ran on, so a scenario says `Transport: tcp` rather than a
 * dozen attributes. Each value and where it comes from is in ina-transport.rst and
 * docs/training.md:
 *
 *  - `ideal`: the transport's own defaults (DCTCP-style, SACK + RACK, a probe after 2 SRTT,
 *    MinRto 200 us): a data-centre-tuned stack, kept as the upper bound of what a host
 *    transport can do; it sets nothing.
 *  - `tcp`: Linux TCP as the papers' hosts ran it (kernel 4.x, ECN off): Reno-style loss
 *    reaction, initial window 10 segments, MinRto 200 ms, initial RTO 1 s, MaxRto 120 s, a
 *    tail-loss probe no sooner than 10 ms, a 3 MiB receive window.
 *  - `dctcp`: `tcp` with DCTCP's reaction to ECN (Linux's tcp_dctcp: g = 1/16, alpha from 1).
 *  - `rdma`: an RDMA NIC's reliable connection as NCCL uses it over RoCE: go-back-N, no window
 *    (DCQCN not modelled: the NIC sends at line rate), a fixed 67.1 ms ACK timeout
 *    (4.096 us x 2^14) without backoff, 7 retries.
 */
class InaTransportProfile
{
  public:
    enum Kind
    {
        IDEAL,
        TCP,
        DCTCP,
        RDMA
    };

    /// The profile names, in the order the docs list them.
    static std::vector<std::string> Names();

    /// An EnumChecker over the names, for a protocol's `Transport` Attribute.
    static Ptr<const AttributeChecker> MakeKindChecker();

    /// Set profile `kind`'s Attributes on the two factories (see Apply by name).
    static void Apply(Kind kind, ObjectFactory& sender, ObjectFactory& receiver);

    /**
     * Set profile `name`'s Attributes on factories for ns3::InaTransportSender and
     * ns3::InaTransportReceiver. Attributes the caller sets afterwards win.
     * \throws std::invalid_argument naming the profiles there are, for an unknown name.
     */
    static void Apply(const std::string& name, ObjectFactory& sender, ObjectFactory& receiver);
};

} // namespace ns3

#endif /* INA_TRANSPORT_PROFILE_H */
