/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ECN_CODEPOINTS_H
#define ECN_CODEPOINTS_H

#include <cstdint>

namespace ns3
{

/**
 * \file
 * \ingroup ina-fabric
 * IP ECN codepoints of InaPacket::ecn (RFC 3168, Section 5), as protocols set and read them: a
 * sender marks its packets ECT, a link queue past its threshold rewrites ECT to CE.
 */

constexpr uint8_t INA_ECN_NOT_ECT = 0; //!< not ECN-capable
constexpr uint8_t INA_ECN_ECT = 1;     //!< ECN-capable transport (ECT(1))
constexpr uint8_t INA_ECN_CE = 3;      //!< congestion experienced

} // namespace ns3

#endif /* ECN_CODEPOINTS_H */
