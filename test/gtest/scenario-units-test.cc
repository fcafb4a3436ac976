/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// InaUnits: exact parsing of rates, times and sizes, the error messages, canonical formatting.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/ina-units.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using ns3::InaUnits;

namespace
{

/// The message of the std::invalid_argument `f` throws, or "no error".
template<class F>
std::string
ErrorOf(F f)
{
    return ns3::tests::ErrorOf<std::invalid_argument>(f, "no error");
}

const std::string RATE = "expected a data rate like 100Gbps (units: bps, Kbps, Mbps, Gbps, Tbps)";
const std::string TIME = "expected a time like 1us (units: ps, ns, us, ms, s)";
const std::string SIZE = "expected a size like 64MB (units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, "
                         "or a plain number of bytes)";

uint64_t
Rate(const std::string& text)
{
    return InaUnits::ParseDataRate(text);
}

int64_t
Time(const std::string& text)
{
    return InaUnits::ParseTime(text);
}

uint64_t
Bytes(const std::string& text)
{
    return InaUnits::ParseBytes(text);
}

/// Each text of `cases` parses (by `parse`) to its value.
template<typename T>
void
ExpectParses(T (*parse)(const std::string&), const std::vector<std::pair<std::string, T>>& cases)
{
    for (const auto& [text, value] : cases)
    {
        EXPECT_EQ(parse(text), value) << "parsing \"" << text << "\"";
    }
}

/// Each text of `cases` is refused (by `parse`) with `expected`, the text and the case's detail.
template<typename T>
void
ExpectRefuses(T (*parse)(const std::string&),
              const std::string& expected,
              const std::vector<std::pair<std::string, std::string>>& cases)
{
    for (const auto& [text, detail] : cases)
    {
        EXPECT_EQ(ErrorOf([&] {
                      parse(text);
                  }),
                  expected + ", got \"" + text + "\"" + detail)
            << "parsing \"" << text << "\"";
    }
}

/// Each value of `cases` formats (by `format`) as its text.
template<typename T>
void
ExpectFormats(std::string (*format)(T), const std::vector<std::pair<T, std::string>>& cases)
{
    for (const auto& [value, text] : cases)
    {
        EXPECT_EQ(format(value), text) << "formatting " << value;
    }
}

} // namespace

TEST(ScenarioUnits, DataRateEveryUnit)
{
    ExpectParses<uint64_t>(Rate,
                           {
                               {"7bps", 7ULL},
                               {"10Kbps", 10000ULL},
                               {"10kbps", 10000ULL},
                               {"40Mbps", 40000000ULL},
                               {"100Gbps", 100000000000ULL},
                               {"1Tbps", 1000000000000ULL},
                           });
}

TEST(ScenarioUnits, DataRateDecimalsAndSpaces)
{
    ExpectParses<uint64_t>(Rate,
                           {
                               {"2.5Gbps", 2500000000ULL},
                               {"0.001Kbps", 1ULL},
                               {"25 Gbps", 25000000000ULL},
                               {"  400Gbps ", 400000000000ULL},
                               {"0100.50Mbps", 100500000ULL},
                           });
}

TEST(ScenarioUnits, DataRateErrors)
{
    ExpectRefuses(Rate,
                  RATE,
                  {
                      {"100GB", ""},
                      {"100", ": the unit is missing"},
                      {"", ""},
                      {"Gbps", ""},
                      {"-1Gbps", ": must not be negative"},
                      {"1.5bps", ": not a whole number of bit/s"},
                      {"20000000000Tbps", ": too large"},
                      {"1e9bps", ""},
                      {"1.Gbps", ""},
                      {".5Gbps", ""},
                      {"1Gbps2", ""},
                      {"1gbps", ""},
                  });
}

TEST(ScenarioUnits, TimeEveryUnit)
{
    ExpectParses<int64_t>(Time,
                          {
                              {"7ps", 7},
                              {"3ns", 3000},
                              {"1us", 1000000},
                              {"2ms", 2000000000},
                              {"10s", 10000000000000},
                          });
}

TEST(ScenarioUnits, TimeDecimalsAndZero)
{
    ExpectParses<int64_t>(Time,
                          {
                              {"0.5us", 500000},
                              {"1.5ns", 1500},
                              {"0.000001s", 1000000},
                              {"1 us", 1000000},
                              {"0", 0},
                              {"0.0", 0},
                              {"0s", 0},
                              // The largest time that fits: 2^63-1 ps.
                              {"9223372036854775807ps", 9223372036854775807LL},
                          });
}

TEST(ScenarioUnits, TimeErrors)
{
    ExpectRefuses(Time,
                  TIME,
                  {
                      {"1", ": the unit is missing"},
                      {"0.1ps", ": not a whole number of picoseconds"},
                      {"1min", ""},
                      {"-5us", ": must not be negative"},
                      {"9223372036854775808ps", ": too large"},
                      {"1000000000s", ": too large"},
                  });
}

TEST(ScenarioUnits, BytesEveryUnit)
{
    ExpectParses<uint64_t>(Bytes,
                           {
                               {"1500", 1500ULL},
                               {"9B", 9ULL},
                               {"100KB", 100000ULL},
                               {"64MB", 64000000ULL},
                               {"2GB", 2000000000ULL},
                               {"3TB", 3000000000000ULL},
                               {"4KiB", 4096ULL},
                               {"2MiB", 2097152ULL},
                               {"1GiB", 1073741824ULL},
                               {"1TiB", 1099511627776ULL},
                           });
}

TEST(ScenarioUnits, BytesDecimals)
{
    ExpectParses<uint64_t>(Bytes,
                           {
                               {"1.25MB", 1250000ULL},
                               {"1.5KiB", 1536ULL},
                               {"0.5GiB", 536870912ULL},
                           });
}

TEST(ScenarioUnits, BytesErrors)
{
    ExpectRefuses(Bytes,
                  SIZE,
                  {
                      {"0.5B", ": not a whole number of bytes"},
                      {"1.5", ": not a whole number of bytes"},
                      {"64Mb", ""},
                      {"MB", ""},
                      {"-1KB", ": must not be negative"},
                      {"1000000000000000000000000000KB", ": too many digits"},
                  });
}

TEST(ScenarioUnits, FormatPicksTheLargestExactUnit)
{
    ExpectFormats<uint64_t>(InaUnits::FormatDataRate,
                            {
                                {100000000000ULL, "100Gbps"},
                                {2500000000ULL, "2500Mbps"},
                                {1000ULL, "1Kbps"},
                                {1001ULL, "1001bps"},
                                {2000000000000ULL, "2Tbps"},
                                {0ULL, "0bps"},
                            });
    ExpectFormats<int64_t>(InaUnits::FormatTime,
                           {
                               {1000000, "1us"},
                               {500000, "500ns"},
                               {1500, "1500ps"},
                               {10000000000000, "10s"},
                               {2000000000, "2ms"},
                               {0, "0s"},
                           });
    ExpectFormats<uint64_t>(InaUnits::FormatBytes,
                            {
                                {1000000ULL, "1MB"},
                                {1250000ULL, "1250KB"},
                                {1048576ULL, "1MiB"},
                                // KiB is larger than KB
                                {1024000ULL, "1000KiB"},
                                {4096ULL, "4KiB"},
                                {1500ULL, "1500B"},
                                {0ULL, "0B"},
                            });
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
