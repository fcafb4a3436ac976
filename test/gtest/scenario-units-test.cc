/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// InaUnits: exact parsing of rates, times and sizes, the error messages, canonical formatting.

#include "test-messages.h"

#include "ns3/ina-units.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>

using ns3::InaUnits;

namespace
{

/// The message of the std::invalid_argument `f` throws, or "no error".
template<class F>
std::string
ErrorOf(F f)
{
    return inasim_test::MessageOf<std::invalid_argument>(f, "no error");
}

const std::string RATE = "expected a data rate like 100Gbps (units: bps, Kbps, Mbps, Gbps, Tbps)";
const std::string TIME = "expected a time like 1us (units: ps, ns, us, ms, s)";
const std::string SIZE = "expected a size like 64MB (units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, "
                         "or a plain number of bytes)";

} // namespace

TEST(ScenarioUnits, DataRateEveryUnit)
{
    EXPECT_EQ(InaUnits::ParseDataRate("7bps"), 7ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("10Kbps"), 10000ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("10kbps"), 10000ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("40Mbps"), 40000000ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("100Gbps"), 100000000000ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("1Tbps"), 1000000000000ULL);
}

TEST(ScenarioUnits, DataRateDecimalsAndSpaces)
{
    EXPECT_EQ(InaUnits::ParseDataRate("2.5Gbps"), 2500000000ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("0.001Kbps"), 1ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("25 Gbps"), 25000000000ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("  400Gbps "), 400000000000ULL);
    EXPECT_EQ(InaUnits::ParseDataRate("0100.50Mbps"), 100500000ULL);
}

TEST(ScenarioUnits, DataRateErrors)
{
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("100GB");
              }),
              RATE + ", got \"100GB\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("100");
              }),
              RATE + ", got \"100\": the unit is missing");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("");
              }),
              RATE + ", got \"\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("Gbps");
              }),
              RATE + ", got \"Gbps\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("-1Gbps");
              }),
              RATE + ", got \"-1Gbps\": must not be negative");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("1.5bps");
              }),
              RATE + ", got \"1.5bps\": not a whole number of bit/s");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("20000000000Tbps");
              }),
              RATE + ", got \"20000000000Tbps\": too large");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("1e9bps");
              }),
              RATE + ", got \"1e9bps\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("1.Gbps");
              }),
              RATE + ", got \"1.Gbps\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate(".5Gbps");
              }),
              RATE + ", got \".5Gbps\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("1Gbps2");
              }),
              RATE + ", got \"1Gbps2\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseDataRate("1gbps");
              }),
              RATE + ", got \"1gbps\"");
}

TEST(ScenarioUnits, TimeEveryUnit)
{
    EXPECT_EQ(InaUnits::ParseTime("7ps"), 7);
    EXPECT_EQ(InaUnits::ParseTime("3ns"), 3000);
    EXPECT_EQ(InaUnits::ParseTime("1us"), 1000000);
    EXPECT_EQ(InaUnits::ParseTime("2ms"), 2000000000);
    EXPECT_EQ(InaUnits::ParseTime("10s"), 10000000000000);
}

TEST(ScenarioUnits, TimeDecimalsAndZero)
{
    EXPECT_EQ(InaUnits::ParseTime("0.5us"), 500000);
    EXPECT_EQ(InaUnits::ParseTime("1.5ns"), 1500);
    EXPECT_EQ(InaUnits::ParseTime("0.000001s"), 1000000);
    EXPECT_EQ(InaUnits::ParseTime("1 us"), 1000000);
    EXPECT_EQ(InaUnits::ParseTime("0"), 0);
    EXPECT_EQ(InaUnits::ParseTime("0.0"), 0);
    EXPECT_EQ(InaUnits::ParseTime("0s"), 0);
    // The largest time that fits: 2^63-1 ps.
    EXPECT_EQ(InaUnits::ParseTime("9223372036854775807ps"), 9223372036854775807LL);
}

TEST(ScenarioUnits, TimeErrors)
{
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseTime("1");
              }),
              TIME + ", got \"1\": the unit is missing");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseTime("0.1ps");
              }),
              TIME + ", got \"0.1ps\": not a whole number of picoseconds");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseTime("1min");
              }),
              TIME + ", got \"1min\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseTime("-5us");
              }),
              TIME + ", got \"-5us\": must not be negative");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseTime("9223372036854775808ps");
              }),
              TIME + ", got \"9223372036854775808ps\": too large");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseTime("1000000000s");
              }),
              TIME + ", got \"1000000000s\": too large");
}

TEST(ScenarioUnits, BytesEveryUnit)
{
    EXPECT_EQ(InaUnits::ParseBytes("1500"), 1500ULL);
    EXPECT_EQ(InaUnits::ParseBytes("9B"), 9ULL);
    EXPECT_EQ(InaUnits::ParseBytes("100KB"), 100000ULL);
    EXPECT_EQ(InaUnits::ParseBytes("64MB"), 64000000ULL);
    EXPECT_EQ(InaUnits::ParseBytes("2GB"), 2000000000ULL);
    EXPECT_EQ(InaUnits::ParseBytes("3TB"), 3000000000000ULL);
    EXPECT_EQ(InaUnits::ParseBytes("4KiB"), 4096ULL);
    EXPECT_EQ(InaUnits::ParseBytes("2MiB"), 2097152ULL);
    EXPECT_EQ(InaUnits::ParseBytes("1GiB"), 1073741824ULL);
    EXPECT_EQ(InaUnits::ParseBytes("1TiB"), 1099511627776ULL);
}

TEST(ScenarioUnits, BytesDecimals)
{
    EXPECT_EQ(InaUnits::ParseBytes("1.25MB"), 1250000ULL);
    EXPECT_EQ(InaUnits::ParseBytes("1.5KiB"), 1536ULL);
    EXPECT_EQ(InaUnits::ParseBytes("0.5GiB"), 536870912ULL);
}

TEST(ScenarioUnits, BytesErrors)
{
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseBytes("0.5B");
              }),
              SIZE + ", got \"0.5B\": not a whole number of bytes");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseBytes("1.5");
              }),
              SIZE + ", got \"1.5\": not a whole number of bytes");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseBytes("64Mb");
              }),
              SIZE + ", got \"64Mb\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseBytes("MB");
              }),
              SIZE + ", got \"MB\"");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseBytes("-1KB");
              }),
              SIZE + ", got \"-1KB\": must not be negative");
    EXPECT_EQ(ErrorOf([] {
                  InaUnits::ParseBytes("1000000000000000000000000000KB");
              }),
              SIZE + ", got \"1000000000000000000000000000KB\": too many digits");
}

TEST(ScenarioUnits, FormatPicksTheLargestExactUnit)
{
    EXPECT_EQ(InaUnits::FormatDataRate(100000000000ULL), "100Gbps");
    EXPECT_EQ(InaUnits::FormatDataRate(2500000000ULL), "2500Mbps");
    EXPECT_EQ(InaUnits::FormatDataRate(1000ULL), "1Kbps");
    EXPECT_EQ(InaUnits::FormatDataRate(1001ULL), "1001bps");
    EXPECT_EQ(InaUnits::FormatDataRate(2000000000000ULL), "2Tbps");
    EXPECT_EQ(InaUnits::FormatDataRate(0ULL), "0bps");

    EXPECT_EQ(InaUnits::FormatTime(1000000), "1us");
    EXPECT_EQ(InaUnits::FormatTime(500000), "500ns");
    EXPECT_EQ(InaUnits::FormatTime(1500), "1500ps");
    EXPECT_EQ(InaUnits::FormatTime(10000000000000), "10s");
    EXPECT_EQ(InaUnits::FormatTime(2000000000), "2ms");
    EXPECT_EQ(InaUnits::FormatTime(0), "0s");

    EXPECT_EQ(InaUnits::FormatBytes(1000000ULL), "1MB");
    EXPECT_EQ(InaUnits::FormatBytes(1250000ULL), "1250KB");
    EXPECT_EQ(InaUnits::FormatBytes(1048576ULL), "1MiB");
    EXPECT_EQ(InaUnits::FormatBytes(1024000ULL), "1000KiB"); // KiB is larger than KB
    EXPECT_EQ(InaUnits::FormatBytes(4096ULL), "4KiB");
    EXPECT_EQ(InaUnits::FormatBytes(1500ULL), "1500B");
    EXPECT_EQ(InaUnits::FormatBytes(0ULL), "0B");
}

TEST(ScenarioUnits, FormatThenParseIsIdentity)
{
    for (uint64_t v : {1ULL,
                       999ULL,
                       1000ULL,
                       1024ULL,
                       1250000ULL,
                       100000000000ULL,
                       1ULL << 40,
                       123456789012345ULL,
                       18446744073709551615ULL})
    {
        EXPECT_EQ(InaUnits::ParseDataRate(InaUnits::FormatDataRate(v)), v);
        EXPECT_EQ(InaUnits::ParseBytes(InaUnits::FormatBytes(v)), v);
        if (v <= 9223372036854775807ULL)
        {
            const auto ps = static_cast<int64_t>(v);
            EXPECT_EQ(InaUnits::ParseTime(InaUnits::FormatTime(ps)), ps);
        }
    }
}
