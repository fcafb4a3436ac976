/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-units.h"

#include <cctype>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{

using Wide = unsigned __int128;

struct Unit
{
    const char* name;
    uint64_t scale;
};

/// Descending scale: formatting takes the first unit that divides the value.
const Unit RATE_UNITS[] = {{"Tbps", 1000000000000ULL},
                           {"Gbps", 1000000000ULL},
                           {"Mbps", 1000000ULL},
                           {"Kbps", 1000ULL},
                           {"kbps", 1000ULL},
                           {"bps", 1ULL}};

const Unit PACKET_RATE_UNITS[] = {{"Gpps", 1000000000ULL},
                                  {"Mpps", 1000000ULL},
                                  {"Kpps", 1000ULL},
                                  {"pps", 1ULL}};

const Unit TIME_UNITS[] = {{"s", 1000000000000ULL},
                           {"ms", 1000000000ULL},
                           {"us", 1000000ULL},
                           {"ns", 1000ULL},
                           {"ps", 1ULL}};

const Unit BYTE_UNITS[] = {{"TiB", 1099511627776ULL},
                           {"TB", 1000000000000ULL},
                           {"GiB", 1073741824ULL},
                           {"GB", 1000000000ULL},
                           {"MiB", 1048576ULL},
                           {"MB", 1000000ULL},
                           {"KiB", 1024ULL},
                           {"KB", 1000ULL},
                           {"B", 1ULL}};

const char* RATE_EXPECTED = "a data rate like 100Gbps (units: bps, Kbps, Mbps, Gbps, Tbps)";
const char* PACKET_RATE_EXPECTED = "a packet rate like 20Mpps (units: pps, Kpps, Mpps, Gpps)";
const char* TIME_EXPECTED = "a time like 1us (units: ps, ns, us, ms, s)";
const char* BYTE_EXPECTED = "a size like 64MB (units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, or a "
                            "plain number of bytes)";

/// Beyond this many significant digits the scaled value could overflow 128 bits.
constexpr size_t MAX_DIGITS = 24;

struct QuantityRules
{
    const Unit* units;
    size_t unitCount;
    const char* expected;
    const char* baseName; ///< "bit/s", used in "not a whole number of ..."
    bool bareIsBase;      ///< a number without unit counts in the base unit (bytes)
    bool bareZero;        ///< a number without unit is accepted when it is zero (times)
    uint64_t max;
};

[[noreturn]] void
Fail(const QuantityRules& rules, const std::string& text, const std::string& reason)
{
    std::string msg = std::string("expected ") + rules.expected + ", got \"" + text + "\"";
    if (!reason.empty())
    {
        msg += ": " + reason;
    }
    throw std::invalid_argument(msg);
}

std::string
Trim(const std::string& s)
{
    size_t b = 0;
    size_t e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b])))
    {
        ++b;
    }
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])))
    {
        --e;
    }
    return s.substr(b, e - b);
}

/// A decimal quantity as written: its significant digits and its unit.
struct Decimal
{
    std::string intDigits;  //!< without leading zeros (at least one digit)
    std::string fracDigits; //!< without trailing zeros
    std::string unit;       //!< what follows the number and its spaces
};

/// `text` split into a decimal number and its unit; fails for anything but digits with at most
/// one '.' between digits, or for more than MAX_DIGITS significant digits.
Decimal
SplitDecimal(const std::string& text, const QuantityRules& rules)
{
    const std::string t = Trim(text);
    if (t.empty())
    {
        Fail(rules, text, "");
    }
    if (t[0] == '-')
    {
        Fail(rules, text, "must not be negative");
    }
    Decimal d;
    size_t i = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
    {
        d.intDigits += t[i++];
    }
    if (i < t.size() && t[i] == '.')
    {
        ++i;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])))
        {
            d.fracDigits += t[i++];
        }
        if (d.fracDigits.empty())
        {
            Fail(rules, text, "");
        }
    }
    if (d.intDigits.empty())
    {
        Fail(rules, text, "");
    }
    while (i < t.size() && t[i] == ' ')
    {
        ++i;
    }
    d.unit = t.substr(i);

    // Drop digits that carry no value so long spellings like "0000001.5000us" still fit.
    size_t lead = 0;
    while (lead + 1 < d.intDigits.size() && d.intDigits[lead] == '0')
    {
        ++lead;
    }
    d.intDigits.erase(0, lead);
    while (!d.fracDigits.empty() && d.fracDigits.back() == '0')
    {
        d.fracDigits.pop_back();
    }
    if (d.intDigits.size() + d.fracDigits.size() > MAX_DIGITS)
    {
        Fail(rules, text, "too many digits");
    }
    return d;
}

/// The base units in one `unitName` of the rules' units; fails for another name.
uint64_t
UnitScale(const std::string& unitName, const QuantityRules& rules, const std::string& text)
{
    for (size_t u = 0; u < rules.unitCount; ++u)
    {
        if (unitName == rules.units[u].name)
        {
            return rules.units[u].scale;
        }
    }
    // The expected units are already listed in the message.
    Fail(rules, text, "");
}

uint64_t
ParseQuantity(const std::string& text, const QuantityRules& rules)
{
    const Decimal d = SplitDecimal(text, rules);
    Wide mantissa = 0;
    for (char c : d.intDigits + d.fracDigits)
    {
        mantissa = mantissa * 10 + static_cast<unsigned>(c - '0');
    }
    Wide divisor = 1;
    for (size_t k = 0; k < d.fracDigits.size(); ++k)
    {
        divisor *= 10;
    }
    if (d.unit.empty() && !rules.bareIsBase)
    {
        if (rules.bareZero && mantissa == 0)
        {
            return 0;
        }
        Fail(rules, text, "the unit is missing");
    }
    const uint64_t scale = d.unit.empty() ? 1 : UnitScale(d.unit, rules, text);
    const Wide scaled = mantissa * scale;
    if (scaled % divisor != 0)
    {
        Fail(rules, text, std::string("not a whole number of ") + rules.baseName);
    }
    const Wide value = scaled / divisor;
    if (value > rules.max)
    {
        Fail(rules, text, "too large");
    }
    return static_cast<uint64_t>(value);
}

std::string
FormatQuantity(uint64_t value, const Unit* units, size_t unitCount, const char* zero)
{
    if (value == 0)
    {
        return zero;
    }
    for (size_t u = 0; u < unitCount; ++u)
    {
        if (value % units[u].scale == 0)
        {
            return std::to_string(value / units[u].scale) + units[u].name;
        }
    }
    return std::to_string(value) + units[unitCount - 1].name;
}

const QuantityRules RATE_RULES{RATE_UNITS,
                               sizeof(RATE_UNITS) / sizeof(RATE_UNITS[0]),
                               RATE_EXPECTED,
                               "bit/s",
                               false,
                               false,
                               std::numeric_limits<uint64_t>::max()};

const QuantityRules PACKET_RATE_RULES{PACKET_RATE_UNITS,
                                      sizeof(PACKET_RATE_UNITS) / sizeof(PACKET_RATE_UNITS[0]),
                                      PACKET_RATE_EXPECTED,
                                      "packets/s",
                                      false,
                                      false,
                                      std::numeric_limits<uint64_t>::max()};

const QuantityRules TIME_RULES{TIME_UNITS,
                               sizeof(TIME_UNITS) / sizeof(TIME_UNITS[0]),
                               TIME_EXPECTED,
                               "picoseconds",
                               false,
                               true,
                               static_cast<uint64_t>(std::numeric_limits<int64_t>::max())};

const QuantityRules BYTE_RULES{BYTE_UNITS,
                               sizeof(BYTE_UNITS) / sizeof(BYTE_UNITS[0]),
                               BYTE_EXPECTED,
                               "bytes",
                               true,
                               false,
                               std::numeric_limits<uint64_t>::max()};

} // namespace

uint64_t
InaUnits::ParseDataRate(const std::string& text)
{
    return ParseQuantity(text, RATE_RULES);
}

uint64_t
InaUnits::ParsePacketRate(const std::string& text)
{
    return ParseQuantity(text, PACKET_RATE_RULES);
}

std::string
InaUnits::FormatPacketRate(uint64_t pps)
{
    return FormatQuantity(pps,
                          PACKET_RATE_UNITS,
                          sizeof(PACKET_RATE_UNITS) / sizeof(PACKET_RATE_UNITS[0]),
                          "0pps");
}

int64_t
InaUnits::ParseTime(const std::string& text)
{
    return static_cast<int64_t>(ParseQuantity(text, TIME_RULES));
}

uint64_t
InaUnits::ParseBytes(const std::string& text)
{
    return ParseQuantity(text, BYTE_RULES);
}

std::string
InaUnits::FormatDataRate(uint64_t bps)
{
    return FormatQuantity(bps, RATE_UNITS, sizeof(RATE_UNITS) / sizeof(RATE_UNITS[0]), "0bps");
}

std::string
InaUnits::FormatTime(int64_t ps)
{
    if (ps < 0)
    {
        // Negative times never come out of ParseTime; spell them anyway rather than wrap around.
        return "-" + FormatQuantity(static_cast<uint64_t>(-(ps + 1)) + 1,
                                    TIME_UNITS,
                                    sizeof(TIME_UNITS) / sizeof(TIME_UNITS[0]),
                                    "0s");
    }
    return FormatQuantity(static_cast<uint64_t>(ps),
                          TIME_UNITS,
                          sizeof(TIME_UNITS) / sizeof(TIME_UNITS[0]),
                          "0s");
}

std::string
InaUnits::FormatBytes(uint64_t bytes)
{
    return FormatQuantity(bytes, BYTE_UNITS, sizeof(BYTE_UNITS) / sizeof(BYTE_UNITS[0]), "0B");
}

} // namespace ns3
