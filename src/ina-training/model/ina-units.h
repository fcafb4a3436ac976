/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_UNITS_H
#define INA_UNITS_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-training
 * Quantities with units as written in scenario files: data rates, times and sizes.
 *
 * Parsing is exact: the decimal number is scaled with integer arithmetic, so "0.5us" is exactly
 * 500000 ps and "1.25MB" exactly 1250000 bytes; a value that is not a whole number of the base unit
 * (bit/s, picosecond, byte) is rejected instead of rounded, because a silently rounded delay or
 * size would change results without a trace. Every parse error is a std::invalid_argument whose
 * message says what was expected and what was given (the caller adds file, line and key).
 *
 * Formatting picks the largest unit in which the value is a whole number, so Format(Parse(x)) is a
 * canonical spelling and Parse(Format(v)) == v for every v.
 */
class InaUnits
{
  public:
    /**
     * \param text e.g. "100Gbps", "2.5Gbps", "25 Gbps"; units bps, Kbps (or kbps), Mbps, Gbps, Tbps
     *        (powers of 1000, bits per second)
     * \return the rate in bits per second
     */
    static uint64_t ParseDataRate(const std::string& text);

    /**
     * \param text e.g. "20Mpps", "1.5Mpps"; units pps, Kpps, Mpps, Gpps (powers of 1000, packets
     *        per second)
     * \return the rate in packets per second
     */
    static uint64_t ParsePacketRate(const std::string& text);

    /// \return e.g. "20Mpps", "1500Kpps", "0pps"
    static std::string FormatPacketRate(uint64_t pps);

    /**
     * \param text e.g. "1us", "0.5us", "10s"; units ps, ns, us, ms, s; a bare "0" is also accepted
     * \return the time in picoseconds (never negative)
     */
    static int64_t ParseTime(const std::string& text);

    /**
     * \param text e.g. "64MB", "1.25MB", "4KiB", "1500"; units B, KB, MB, GB, TB (powers of 1000),
     *        KiB, MiB, GiB, TiB (powers of 1024); a plain integer is a number of bytes
     * \return the size in bytes
     */
    static uint64_t ParseBytes(const std::string& text);

    /// \return e.g. "100Gbps", "2500Mbps" (largest unit that keeps the number whole), "0bps"
    static std::string FormatDataRate(uint64_t bps);

    /// \return e.g. "1us", "500ns", "0s"
    static std::string FormatTime(int64_t ps);

    /// \return e.g. "1MB", "1250KB", "4KiB", "1500B", "0B"
    static std::string FormatBytes(uint64_t bytes);
};

} // namespace ns3

#endif /* INA_UNITS_H */
