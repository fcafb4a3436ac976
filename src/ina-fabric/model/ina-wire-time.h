/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_WIRE_TIME_H
#define INA_WIRE_TIME_H

#include <cstdint>
#include <stdexcept>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The time `bytes` take at `rateBps`, in integer picoseconds rounded up: what a link, a NIC's
 * pacing, the recirculation port and a switch's aggregation capacity each charge. Exact for every
 * rate that divides 8e12 bit-ps (all the usual ones); others round up, so a served rate never
 * exceeds the rate. (ns-3's DataRate computes in double, which is not exact at 100 Gb/s and up.)
 *
 * \param bytes the bytes
 * \param rateBps the rate, > 0
 * \return picoseconds
 */
inline int64_t
InaSerializationPs(uint64_t bytes, uint64_t rateBps)
{
    constexpr uint64_t BIT_PS = 8000000000000ULL; // bits per byte x picoseconds per second
    // A packet's size in 64-bit arithmetic (the per-hop case); anything larger (a queue's
    // backlog, an aggregation batch) in 128 bits, where bytes x 8e12 cannot overflow.
    if (bytes < (uint64_t{1} << 20) && rateBps < (uint64_t{1} << 62))
    {
        return static_cast<int64_t>((bytes * BIT_PS + rateBps - 1) / rateBps);
    }
    const unsigned __int128 ps =
        (static_cast<unsigned __int128>(bytes) * BIT_PS + rateBps - 1) / rateBps;
    if (ps > static_cast<unsigned __int128>(INT64_MAX))
    {
        throw std::overflow_error(
            "InaSerializationPs: the time does not fit in 64-bit picoseconds");
    }
    return static_cast<int64_t>(ps);
}

} // namespace ns3

#endif /* INA_WIRE_TIME_H */
