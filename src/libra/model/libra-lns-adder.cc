/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-lns-adder.h"

#include "ns3/ina-split-mix.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr double STEPS = 1 << LibraLnsAdder::FRACTION_BITS; // 128 steps per unit of log2

/// \return v rounded to the nearest Q8.7 step, as 16-bit two's complement; saturates short of
/// LOG_ZERO so that no finite value reads as zero
uint16_t
ToQ(double v)
{
    const double q = std::round(v * STEPS);
    const double clamped = std::max(-32767.0, std::min(32767.0, q));
    return static_cast<uint16_t>(static_cast<int16_t>(clamped));
}

uint16_t
QBits(int32_t q)
{
    return static_cast<uint16_t>(static_cast<int16_t>(q));
}

uint32_t
Bits(float x)
{
    uint32_t b;
    std::memcpy(&b, &x, sizeof(b));
    return b;
}

float
FromBits(uint32_t b)
{
    float x;
    std::memcpy(&x, &b, sizeof(x));
    return x;
}

} // namespace

const std::vector<LibraLnsAdder::TableSpec>&
LibraLnsAdder::GetTableSpecs()
{
    static const std::vector<TableSpec> specs = {
        {EPO, "lns_epo", 8, 256, 2, 0, "e - 127 of exponent field e"},
        {LOG_M, "lns_log_m", 12, 4096, 2, 0, "log2 m, m = 1.f1..f11"},
        {LOG_DM, "lns_log_dm", 12, 4096, 2, 0, "log2 dm, dm = 0.f12..f23 * 2^-11"},
        {LOG_MLN2, "lns_log_mln2", 12, 4096, 2, 0, "log2(m ln 2)"},
        {TAYLOR_EXP, "lns_taylor_exp", 16, 65536, 2, 1, "2^t, t = log2 dm - log2(m ln 2)"},
        {MI, "lns_mi", 16, 65536, 2, 2, "log2(1 + 2^-g), or log2(1 - 2^-g) for opposite signs"},
        {EXP, "lns_exp", 16, 65536, 2, 3, "top 16 mantissa bits of 2^frac(L)"},
    };
    return specs;
}

uint64_t
LibraLnsAdder::GetTableMemoryBytes()
{
    uint64_t bytes = 0;
    for (const TableSpec& t : GetTableSpecs())
    {
        bytes += uint64_t{t.entries} * t.valueBytes;
    }
    return bytes;
}

double
LibraLnsAdder::PerAddErrorBound()
{
    const double halfStep = std::exp2(-(FRACTION_BITS + 1));
    const double operandLog = halfStep + std::exp2(-11) / std::log(2.0);
    return std::exp2(2 * operandLog + halfStep) - 1 + std::exp2(-16);
}

const LibraLnsAdder::Tables&
LibraLnsAdder::GetTables()
{
    static const Tables tables = [] {
        Tables t;
        for (const TableSpec& s : GetTableSpecs())
        {
            t[s.id].assign(s.entries, 0);
        }
        for (uint32_t e = 0; e < 256; ++e)
        {
            t[EPO][e] = QBits((static_cast<int32_t>(e) - 127) * static_cast<int32_t>(STEPS));
        }
        const double log2Ln2 = std::log2(std::log(2.0));
        // Keys with the leading bit clear are never looked up (a normal float's m has its
        // implicit 1); they stay 0, but the paper's 4096-entry size counts them.
        for (uint32_t key = 2048; key < 4096; ++key)
        {
            const double m = key / 2048.0;
            t[LOG_M][key] = ToQ(std::log2(m));
            t[LOG_MLN2][key] = ToQ(std::log2(m) + log2Ln2);
        }
        t[LOG_DM][0] = QBits(LOG_ZERO);
        for (uint32_t key = 1; key < 4096; ++key)
        {
            t[LOG_DM][key] = ToQ(std::log2(static_cast<double>(key)) - 23.0);
        }
        for (uint32_t key = 0; key < 65536; ++key)
        {
            const double l = static_cast<int16_t>(key) / STEPS;
            t[TAYLOR_EXP][key] = ToQ(std::exp2(l));

            const bool opposite = (key & 0x8000) != 0;
            const double d = -static_cast<double>(key & 0x7fff) / STEPS;
            if (!opposite)
            {
                t[MI][key] = ToQ(std::log2(1.0 + std::exp2(d)));
            }
            else
            {
                t[MI][key] =
                    (key & 0x7fff) == 0 ? QBits(LOG_ZERO) : ToQ(std::log2(1.0 - std::exp2(d)));
            }

            const uint32_t frac = key & (static_cast<uint32_t>(STEPS) - 1);
            const double mant = std::round((std::exp2(frac / STEPS) - 1.0) * 65536.0);
            t[EXP][key] = static_cast<uint16_t>(std::min(65535.0, mant));
        }
        return t;
    }();
    return tables;
}

LibraLnsAdder::LibraLnsAdder(Mode mode)
    : m_mode(mode)
    , m_tables(&GetTables())
{
}

std::string
LibraLnsAdder::ModeName(Mode mode)
{
    return mode == Mode::EXACT ? "exact" : "lns-approx";
}

LibraLnsAdder::Mode
LibraLnsAdder::ParseMode(const std::string& name)
{
    if (name == "exact")
    {
        return Mode::EXACT;
    }
    if (name == "lns-approx")
    {
        return Mode::LNS_APPROX;
    }
    throw std::invalid_argument("Libra float add mode '" + name +
                                "': expected 'exact' or 'lns-approx'");
}

int32_t
LibraLnsAdder::GetEntry(Table t, uint32_t key) const
{
    if (t >= N_TABLES || key >= (*m_tables)[t].size())
    {
        throw std::out_of_range("Libra LNS tables: key " + std::to_string(key) +
                                " is beyond table " + std::to_string(static_cast<int>(t)));
    }
    return t == EXP ? static_cast<int32_t>((*m_tables)[t][key]) : Q(t, key);
}

const std::vector<uint16_t>&
LibraLnsAdder::GetTableEntries(Table t)
{
    if (t >= N_TABLES)
    {
        throw std::out_of_range("Libra LNS tables: no table " +
                                std::to_string(static_cast<int>(t)));
    }
    return GetTables()[t];
}

int16_t
LibraLnsAdder::ToLog(float x) const
{
    const uint32_t b = Bits(x);
    const uint32_t e = (b >> 23) & 0xff;
    if (e == 0)
    {
        return LOG_ZERO;
    }
    const uint32_t m12 = 0x800 | ((b >> 12) & 0x7ff);
    const uint32_t dm = b & 0xfff;
    int32_t l = Q(EPO, e) + Q(LOG_M, m12);
    const int32_t logDm = Q(LOG_DM, dm);
    if (logDm != LOG_ZERO)
    {
        l += Q(TAYLOR_EXP, QBits(logDm - Q(LOG_MLN2, m12)));
    }
    return static_cast<int16_t>(l);
}

float
LibraLnsAdder::FromLog(int32_t l, bool negative) const
{
    const uint32_t sign = negative ? 0x80000000U : 0;
    if (l == LOG_ZERO)
    {
        return FromBits(sign);
    }
    const int32_t frac = l & (static_cast<int32_t>(STEPS) - 1);
    const int32_t e = (l - frac) / static_cast<int32_t>(STEPS) + 127;
    if (e <= 0)
    {
        return FromBits(sign);
    }
    if (e >= 255)
    {
        return FromBits(sign | 0x7f800000U);
    }
    const uint32_t mant = (*m_tables)[EXP][static_cast<uint16_t>(l)];
    return FromBits(sign | (static_cast<uint32_t>(e) << 23) | (mant << 7));
}

float
LibraLnsAdder::LnsAdd(float x, float y) const
{
    const uint32_t bx = Bits(x);
    const uint32_t by = Bits(y);
    if (((bx >> 23) & 0xff) == 0xff || ((by >> 23) & 0xff) == 0xff)
    {
        return x + y;
    }
    const int32_t lx = ToLog(x);
    const int32_t ly = ToLog(y);
    if (ly == LOG_ZERO)
    {
        return lx == LOG_ZERO ? 0.0f : x;
    }
    if (lx == LOG_ZERO)
    {
        return y;
    }
    const bool xBig = lx >= ly;
    const int32_t big = xBig ? lx : ly;
    const int32_t gap = std::min<int32_t>(xBig ? lx - ly : ly - lx, 0x7fff);
    const uint32_t opposite = ((bx ^ by) >> 31) != 0 ? 0x8000 : 0;
    const int32_t s = Q(MI, opposite | static_cast<uint32_t>(gap));
    if (s == LOG_ZERO)
    {
        return 0.0f;
    }
    return FromLog(big + s, ((xBig ? bx : by) >> 31) != 0);
}

double
LibraLnsAdder::Precision(double exact, double approx)
{
    if (exact == 0.0)
    {
        return approx == 0.0 ? 1.0 : 0.0;
    }
    const double rel = std::abs(approx - exact) / std::abs(exact);
    return 1.0 - std::min(1.0, rel);
}

LibraLnsAdder::PrecisionStats
LibraLnsAdder::MeasurePrecision(uint32_t pairs, bool signedOperands, uint64_t seed) const
{
    if (pairs == 0)
    {
        throw std::invalid_argument("Libra LNS precision: at least one pair is needed");
    }
    uint64_t state = seed;
    // An odd multiple of 2^-24 in (0, 1): 23 random bits, exact in float32, never 0.
    auto draw = [&state, signedOperands]() {
        const uint64_t z = InaSplitMix64Next(state);
        const float u = static_cast<float>(((z >> 41) << 1) | 1) * 0x1.0p-24f;
        return signedOperands && (z & 1) != 0 ? -u : u;
    };
    std::vector<double> p(pairs);
    PrecisionStats st;
    st.pairs = pairs;
    double sum = 0;
    for (uint32_t i = 0; i < pairs; ++i)
    {
        const float x = draw();
        const float y = draw();
        const double exact = static_cast<double>(x) + static_cast<double>(y);
        p[i] = Precision(exact, static_cast<double>(Add(x, y)));
        sum += p[i];
        st.belowHalf += p[i] < 0.5 ? 1 : 0;
        st.oppositeSigns += (x < 0) != (y < 0) ? 1 : 0;
    }
    st.average = sum / pairs;
    std::sort(p.begin(), p.end());
    st.minimum = p.front();
    st.median = pairs % 2 == 1 ? p[pairs / 2] : (p[pairs / 2 - 1] + p[pairs / 2]) / 2;
    return st;
}

} // namespace ns3
