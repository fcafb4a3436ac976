/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gpu-contention-params.h"

#include "gpu-contention-text.h"
#include "ina-number-text.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>
#include <yaml-cpp/yaml.h>

namespace ns3
{

namespace
{

/// How a key's value is bounded.
enum class Bound
{
    POSITIVE,
    NON_NEGATIVE
};

/// One key of the file format and the value it sets.
struct Field
{
    const char* name;
    Bound bound;
    double* value;
};

/// \return the keys of the file format, in file order, bound to p's members
std::vector<Field>
Fields(GpuContentionParams& p)
{
    return {{"alpha1", Bound::POSITIVE, &p.alpha1},
            {"alpha2", Bound::NON_NEGATIVE, &p.alpha2},
            {"p_gamma1_bytes_per_s", Bound::POSITIVE, &p.overlapped.gamma1},
            {"p_gamma2_bytes_per_s", Bound::NON_NEGATIVE, &p.overlapped.gamma2},
            {"p_gamma3", Bound::POSITIVE, &p.overlapped.gamma3},
            {"p_gamma4", Bound::POSITIVE, &p.overlapped.gamma4},
            {"q_gamma1_bytes_per_s", Bound::POSITIVE, &p.alone.gamma1},
            {"q_gamma2_bytes_per_s", Bound::NON_NEGATIVE, &p.alone.gamma2},
            {"q_gamma3", Bound::POSITIVE, &p.alone.gamma3},
            {"q_gamma4", Bound::POSITIVE, &p.alone.gamma4},
            {"alpha_hop_s", Bound::NON_NEGATIVE, &p.alphaHopS},
            {"ina_startup_s", Bound::NON_NEGATIVE, &p.inaStartupS}};
}

std::string
KeyList()
{
    GpuContentionParams unused;
    std::string out;
    for (const auto& k : Fields(unused))
    {
        out += (out.empty() ? "" : ", ");
        out += k.name;
    }
    return out;
}

/// A key and its value as written, with the line (1-based; 0 if unknown).
struct Entry
{
    std::string key;
    std::string value;
    int line;
};

using gpucontention::Fail;
using gpucontention::Trim;

/// \return whether text is one finite number written out in full (no trailing characters)
bool
ParseNumber(const std::string& text, double* out)
{
    const std::string t = Trim(text);
    if (t.empty())
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size() || errno == ERANGE || !std::isfinite(v))
    {
        return false;
    }
    *out = v;
    return true;
}

GpuContentionParams
Build(const std::vector<Entry>& entries, const std::string& file)
{
    GpuContentionParams params;
    const std::vector<Field> fields = Fields(params);
    std::map<std::string, int> seen;
    for (const auto& e : entries)
    {
        const Field* spec = nullptr;
        for (const auto& k : fields)
        {
            if (e.key == k.name)
            {
                spec = &k;
            }
        }
        if (spec == nullptr)
        {
            Fail(file, e.line, "unknown key '" + e.key + "' (expected one of: " + KeyList() + ")");
        }
        auto it = seen.find(e.key);
        if (it != seen.end())
        {
            Fail(file,
                 e.line,
                 "key '" + e.key + "' repeated (first at line " + std::to_string(it->second) + ")");
        }
        seen.emplace(e.key, e.line);
        double v = 0;
        const char* want =
            spec->bound == Bound::POSITIVE ? "a finite number > 0" : "a finite number >= 0";
        if (!ParseNumber(e.value, &v) || (spec->bound == Bound::POSITIVE && !(v > 0)) ||
            (spec->bound == Bound::NON_NEGATIVE && !(v >= 0)))
        {
            Fail(file,
                 e.line,
                 "key '" + e.key + "': expected " + want + ", got '" + Trim(e.value) + "'");
        }
        *spec->value = v;
    }
    for (const auto& k : fields)
    {
        if (seen.find(k.name) == seen.end())
        {
            Fail(file,
                 0,
                 std::string("missing key '") + k.name + "' (every key is required: " + KeyList() +
                     ")");
        }
    }
    params.source = file;
    return params;
}

/// \return the shortest decimal text that reads back as exactly v
std::string
Num(double v)
{
    char buf[64];
    for (int digits = 15; digits <= 17; ++digits)
    {
        std::snprintf(buf, sizeof(buf), "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v)
        {
            break;
        }
    }
    return buf;
}

} // namespace

double
GpuContentionParams::RateCurve::Rate(uint32_t threads) const
{
    return gamma1 - gamma2 * std::exp(-gamma3 * std::pow(static_cast<double>(threads), gamma4));
}

GpuContentionParams
GpuContentionParams::Illustrative()
{
    GpuContentionParams p;
    p.alpha1 = 1.0;
    p.alpha2 = 1.35e-4;
    p.overlapped = {6.0e9, 6.0e9, 0.0377, kPaperGamma4};
    p.alone = {6.0e9, 6.0e9, 0.06, kPaperGamma4};
    p.alphaHopS = 10e-6;
    p.inaStartupS = 20e-6;
    p.source = "illustrative";
    return p;
}

GpuContentionParams
GpuContentionParams::Load(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot read the parameter file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto endsWith = [&path](const std::string& suffix) {
        return path.size() >= suffix.size() &&
               path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (endsWith(".csv"))
    {
        return FromCsv(text.str(), path);
    }
    if (endsWith(".yaml") || endsWith(".yml"))
    {
        return FromYaml(text.str(), path);
    }
    throw std::runtime_error(path + ": unknown parameter file type (expected a name ending in "
                                    ".yaml, .yml or .csv)");
}

GpuContentionParams
GpuContentionParams::FromYaml(const std::string& text, const std::string& fileName)
{
    YAML::Node root;
    try
    {
        root = YAML::Load(text);
    }
    catch (const YAML::Exception& e)
    {
        Fail(fileName, e.mark.line >= 0 ? e.mark.line + 1 : 0, "not valid YAML: " + e.msg);
    }
    if (!root.IsMap())
    {
        Fail(fileName,
             root.IsDefined() && !root.IsNull() ? root.Mark().line + 1 : 0,
             "expected a map of parameter keys (" + KeyList() + ")");
    }
    std::vector<Entry> entries;
    for (const auto& kv : root)
    {
        const int line = kv.first.Mark().line + 1;
        if (!kv.first.IsScalar())
        {
            Fail(fileName, line, "keys must be plain names");
        }
        if (!kv.second.IsScalar())
        {
            Fail(fileName,
                 line,
                 "key '" + kv.first.Scalar() + "': expected a single number, got a " +
                     (kv.second.IsMap() ? "map" : (kv.second.IsSequence() ? "list" : "null")));
        }
        entries.push_back({kv.first.Scalar(), kv.second.Scalar(), line});
    }
    return Build(entries, fileName);
}

GpuContentionParams
GpuContentionParams::FromCsv(const std::string& text, const std::string& fileName)
{
    const std::vector<gpucontention::ContentLine> lines = gpucontention::ContentLines(text);
    if (lines.empty())
    {
        Fail(fileName, 0, "empty parameter file (expected the header line 'key,value')");
    }
    if (lines[0].text != "key,value")
    {
        Fail(fileName,
             lines[0].number,
             "expected the header line 'key,value'; got '" + lines[0].text + "'");
    }
    std::vector<Entry> entries;
    for (size_t i = 1; i < lines.size(); ++i)
    {
        const std::string& s = lines[i].text;
        const int line = static_cast<int>(lines[i].number);
        size_t comma = s.find(',');
        if (comma == std::string::npos || s.find(',', comma + 1) != std::string::npos)
        {
            Fail(fileName, line, "expected two comma-separated fields key,value; got '" + s + "'");
        }
        std::string key = Trim(s.substr(0, comma));
        std::string value = Trim(s.substr(comma + 1));
        entries.push_back({key, value, line});
    }
    return Build(entries, fileName);
}

void
GpuContentionParams::Validate() const
{
    GpuContentionParams copy = *this;
    for (const auto& k : Fields(copy))
    {
        double v = *k.value;
        bool ok = std::isfinite(v) && (k.bound == Bound::POSITIVE ? v > 0 : v >= 0);
        if (!ok)
        {
            throw std::invalid_argument(
                std::string("GPU contention parameter '") + k.name + "' must be a finite number " +
                (k.bound == Bound::POSITIVE ? "> 0" : ">= 0") + ", got " + Num(v));
        }
    }
}

GpuContentionParams
GpuContentionParams::WithoutContention() const
{
    GpuContentionParams p = *this;
    p.alpha1 = 1.0;
    p.alpha2 = 0.0;
    p.overlapped = p.alone;
    p.source = source + ", contention removed";
    return p;
}

double
GpuContentionParams::ComputeSpeed(uint32_t threads) const
{
    return threads == 0 ? 1.0 : alpha1 - alpha2 * threads;
}

std::string
GpuContentionParams::ToYaml() const
{
    std::ostringstream os;
    os << "alpha1: " << Num(alpha1) << "\n"
       << "alpha2: " << Num(alpha2) << "\n"
       << "p_gamma1_bytes_per_s: " << Num(overlapped.gamma1) << "\n"
       << "p_gamma2_bytes_per_s: " << Num(overlapped.gamma2) << "\n"
       << "p_gamma3: " << Num(overlapped.gamma3) << "\n"
       << "p_gamma4: " << Num(overlapped.gamma4) << "\n"
       << "q_gamma1_bytes_per_s: " << Num(alone.gamma1) << "\n"
       << "q_gamma2_bytes_per_s: " << Num(alone.gamma2) << "\n"
       << "q_gamma3: " << Num(alone.gamma3) << "\n"
       << "q_gamma4: " << Num(alone.gamma4) << "\n"
       << "alpha_hop_s: " << Num(alphaHopS) << "\n"
       << "ina_startup_s: " << Num(inaStartupS) << "\n";
    return os.str();
}

std::string
GpuContentionParams::Summary() const
{
    std::ostringstream os;
    os << "alpha1=" << InaNumberText(alpha1) << " alpha2=" << InaNumberText(alpha2) << " p=("
       << InaNumberText(overlapped.gamma1) << "," << InaNumberText(overlapped.gamma2) << ","
       << InaNumberText(overlapped.gamma3) << "," << InaNumberText(overlapped.gamma4) << ") q=("
       << InaNumberText(alone.gamma1) << "," << InaNumberText(alone.gamma2) << ","
       << InaNumberText(alone.gamma3) << "," << InaNumberText(alone.gamma4)
       << ") B/s alpha_hop=" << InaNumberText(alphaHopS)
       << "s ina_startup=" << InaNumberText(inaStartupS) << "s";
    return os.str();
}

} // namespace ns3
