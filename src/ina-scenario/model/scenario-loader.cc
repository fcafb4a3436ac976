/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-loader.h"

#include "safe-name.h"
#include "yaml-node-text.h"

#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-topology-size.h"
#include "ns3/ina-units.h"
#include "ns3/training-job.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

namespace ns3
{

namespace
{

/// One value being read: its node, its dotted path and the line of its key (0-based, -1 unknown).
struct Item
{
    YAML::Node node;
    std::string path;
    int line;
};

std::string
Join(const std::string& path, const std::string& key)
{
    return path.empty() ? key : path + "." + key;
}

/// True when `path` is `prefix` or lies below it.
bool
IsUnder(const std::string& path, const std::string& prefix)
{
    return path == prefix ||
           (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
            path[prefix.size()] == '.');
}

std::string
Quote(const std::string& s)
{
    return "\"" + s + "\"";
}

std::string
JoinNames(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names)
    {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

size_t
EditDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
    {
        row[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i)
    {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
        {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
            diag = up;
        }
    }
    return row[b.size()];
}

/// Where each value comes from, and how errors are phrased for the layer being applied.
class Reader
{
  public:
    /// A file layer: locations are "SOURCE:LINE".
    Reader(const std::string& source, ScenarioOrigins& origins)
        : m_source(source)
        , m_origins(origins)
    {
    }

    /// An override layer: every location is "override 'TEXT'"; only keys at or below
    /// `overridePath` are recorded as set by it.
    Reader(const std::string& source,
           ScenarioOrigins& origins,
           const std::string& overrideText,
           const std::string& overridePath)
        : m_source(source)
        , m_origins(origins)
        , m_override(overrideText)
        , m_overridePath(overridePath)
        , m_isOverride(true)
    {
    }

    std::string Where(int line) const
    {
        if (m_isOverride)
        {
            return "override '" + m_override + "'";
        }
        if (line >= 0)
        {
            return m_source + ":" + std::to_string(line + 1);
        }
        return m_source;
    }

    [[noreturn]] void Fail(const Item& it, const std::string& what) const
    {
        throw ScenarioError(Where(it.line), it.path, what);
    }

    void Record(const Item& it)
    {
        if (it.path.empty() || (m_isOverride && !IsUnder(it.path, m_overridePath)))
        {
            return;
        }
        m_origins.where[it.path] = Where(it.line);
    }

    /// A list replaced as a whole: what was recorded for its old entries no longer applies.
    void ForgetBelow(const std::string& path)
    {
        const std::string prefix = path + ".";
        auto it = m_origins.where.lower_bound(prefix);
        while (it != m_origins.where.end() && it->first.compare(0, prefix.size(), prefix) == 0)
        {
            it = m_origins.where.erase(it);
        }
    }

    /// Overrides address list entries by index ("jobs.0.workers"); files give whole lists.
    bool MayPatchLists() const
    {
        return m_isOverride;
    }

  private:
    std::string m_source;
    ScenarioOrigins& m_origins;
    std::string m_override;
    std::string m_overridePath;
    bool m_isOverride{false};
};

// ---- single values --------------------------------------------------------------------------

std::string
ReadScalar(const Item& it, Reader& r, const std::string& expected)
{
    if (!it.node.IsScalar())
    {
        r.Fail(it, "expected " + expected + ", got " + DescribeYamlNode(it.node));
    }
    return it.node.Scalar();
}

std::string
ReadString(const Item& it, Reader& r)
{
    if (it.node.IsNull())
    {
        return "";
    }
    return ReadScalar(it, r, "a single value (a name or a number)");
}

uint64_t
ReadUint(const Item& it,
         Reader& r,
         uint64_t min = 0,
         uint64_t max = std::numeric_limits<uint64_t>::max())
{
    const std::string text = ReadScalar(it, r, "a non-negative integer");
    uint64_t value = 0;
    const char* end = text.data() + text.size();
    const bool digitsOnly = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
    });
    const auto res = std::from_chars(text.data(), end, value);
    if (!digitsOnly || res.ec == std::errc::invalid_argument || res.ptr != end)
    {
        r.Fail(it, "expected a non-negative integer, got " + Quote(text));
    }
    if (res.ec == std::errc::result_out_of_range || value > max)
    {
        r.Fail(it, "expected an integer <= " + std::to_string(max) + ", got " + text);
    }
    if (value < min)
    {
        r.Fail(it, "expected an integer >= " + std::to_string(min) + ", got " + text);
    }
    return value;
}

uint32_t
ReadU32(const Item& it, Reader& r, uint32_t min = 0, uint32_t max = 0xffffffffU)
{
    return static_cast<uint32_t>(ReadUint(it, r, min, max));
}

bool
ReadBool(const Item& it, Reader& r)
{
    std::string text = ReadScalar(it, r, "true or false");
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
        return std::tolower(c);
    });
    if (text == "true" || text == "yes" || text == "on")
    {
        return true;
    }
    if (text == "false" || text == "no" || text == "off")
    {
        return false;
    }
    r.Fail(it, "expected true or false, got " + Quote(it.node.Scalar()));
}

double
ReadProbability(const Item& it, Reader& r)
{
    const std::string text = ReadScalar(it, r, "a probability in [0, 1)");
    double value = 0;
    const char* end = text.data() + text.size();
    const auto res = std::from_chars(text.data(), end, value);
    if (text.empty() || res.ec != std::errc() || res.ptr != end || !std::isfinite(value))
    {
        r.Fail(it, "expected a probability in [0, 1) like 0.001, got " + Quote(text));
    }
    if (value < 0 || value >= 1)
    {
        r.Fail(it, "expected a probability in [0, 1), got " + text);
    }
    return value;
}

uint64_t
ReadRate(const Item& it, Reader& r)
{
    const std::string text = ReadScalar(it, r, "a data rate like 100Gbps");
    uint64_t bps = 0;
    try
    {
        bps = InaUnits::ParseDataRate(text);
    }
    catch (const std::invalid_argument& e)
    {
        r.Fail(it, e.what());
    }
    if (bps == 0)
    {
        r.Fail(it, "expected a data rate > 0, got " + Quote(text));
    }
    return bps;
}

int64_t
ReadTime(const Item& it, Reader& r)
{
    const std::string text = ReadScalar(it, r, "a time like 1us");
    try
    {
        return InaUnits::ParseTime(text);
    }
    catch (const std::invalid_argument& e)
    {
        r.Fail(it, e.what());
    }
}

uint64_t
ReadBytes(const Item& it,
          Reader& r,
          uint64_t min = 0,
          uint64_t max = std::numeric_limits<uint64_t>::max())
{
    const std::string text = ReadScalar(it, r, "a size like 64MB");
    uint64_t bytes = 0;
    try
    {
        bytes = InaUnits::ParseBytes(text);
    }
    catch (const std::invalid_argument& e)
    {
        r.Fail(it, e.what());
    }
    if (bytes < min)
    {
        r.Fail(it, "expected a size >= " + InaUnits::FormatBytes(min) + ", got " + Quote(text));
    }
    if (bytes > max)
    {
        r.Fail(it, "expected a size <= " + InaUnits::FormatBytes(max) + ", got " + Quote(text));
    }
    return bytes;
}

template<class E>
E
ReadEnum(const Item& it, Reader& r, const ScenarioNames<E>& table)
{
    std::vector<std::string> names;
    for (const auto& [name, value] : table)
    {
        names.push_back(name);
    }
    const std::string text = ReadScalar(it, r, "one of " + JoinNames(names));
    for (const auto& [name, value] : table)
    {
        if (name == text)
        {
            return value;
        }
    }
    r.Fail(it, "expected one of " + JoinNames(names) + ", got " + Quote(text));
}

// ---- lists and maps ---------------------------------------------------------------------------

/// Children of a sequence node, with their paths "path.i" and lines.
std::vector<Item>
Elements(const Item& it)
{
    std::vector<Item> out;
    for (size_t i = 0; i < it.node.size(); ++i)
    {
        const YAML::Node e = it.node[i];
        const int line = e.Mark().line >= 0 ? e.Mark().line : it.line;
        out.push_back(Item{e, Join(it.path, std::to_string(i)), line});
    }
    return out;
}

/// Children of a map node; rejects duplicate and non-scalar keys (YAML allows both, silently).
std::vector<std::pair<std::string, Item>>
Children(const Item& it, Reader& r)
{
    std::vector<std::pair<std::string, Item>> out;
    std::map<std::string, int> seen;
    for (auto kv : it.node)
    {
        const int line = kv.first.Mark().line >= 0 ? kv.first.Mark().line : it.line;
        if (!kv.first.IsScalar())
        {
            r.Fail(Item{kv.first, it.path, line},
                   "keys must be plain names, got " + DescribeYamlNode(kv.first));
        }
        const std::string key = kv.first.Scalar();
        Item child{kv.second, Join(it.path, key), line};
        auto [pos, fresh] = seen.emplace(key, line);
        if (!fresh)
        {
            r.Fail(child,
                   "duplicate key (first given on line " + std::to_string(pos->second + 1) + ")");
        }
        out.emplace_back(key, child);
    }
    return out;
}

/**
 * A list value: a YAML list replaces `v` (each entry made by `fresh` then `apply`); in an override,
 * a map of indices patches entries ("jobs.0.workers=16" arrives as {jobs: {0: {workers: 16}}}).
 */
template<class V>
void
ApplyList(std::vector<V>& v,
          const Item& it,
          Reader& r,
          const std::string& expected,
          const std::function<V()>& fresh,
          const std::function<void(V&, const Item&)>& apply)
{
    if (it.node.IsNull())
    {
        r.ForgetBelow(it.path);
        v.clear();
        return;
    }
    if (it.node.IsSequence())
    {
        r.ForgetBelow(it.path);
        std::vector<V> out;
        for (const Item& e : Elements(it))
        {
            r.Record(e);
            out.push_back(fresh());
            apply(out.back(), e);
        }
        v = std::move(out);
        return;
    }
    if (it.node.IsMap() && r.MayPatchLists())
    {
        for (auto& [key, child] : Children(it, r))
        {
            const bool isIndex = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            });
            if (!isIndex || key.size() > 9)
            {
                r.Fail(child,
                       "'" + it.path + "' is a list: expected an entry index, got '" + key + "'");
            }
            const size_t index = std::stoul(key);
            if (index > v.size())
            {
                r.Fail(child,
                       "index " + key + " is past the end: the list has " +
                           std::to_string(v.size()) + (v.size() == 1 ? " entry" : " entries") +
                           " (index " + std::to_string(v.size()) + " appends one)");
            }
            if (index == v.size())
            {
                v.push_back(fresh());
            }
            r.Record(child);
            apply(v[index], child);
        }
        return;
    }
    r.Fail(it, "expected " + expected + ", got " + DescribeYamlNode(it.node));
}

void
ApplyIdList(std::vector<uint32_t>& ids, const Item& it, Reader& r)
{
    ApplyList<uint32_t>(
        ids,
        it,
        r,
        "a list of host ids like [0, 1, 2]",
        [] {
            return 0U;
        },
        [&r](uint32_t& id, const Item& e) {
            id = ReadU32(e, r);
        });
}

/// Attribute-like maps (params, workload extras): merged key by key, values kept as written.
void
ApplyStringMap(std::map<std::string, std::string>& m, const Item& it, Reader& r)
{
    if (it.node.IsNull())
    {
        return;
    }
    if (!it.node.IsMap())
    {
        r.Fail(it, "expected a section of NAME: VALUE entries, got " + DescribeYamlNode(it.node));
    }
    for (auto& [key, child] : Children(it, r))
    {
        r.Record(child);
        if (child.node.IsNull())
        {
            r.Fail(child, "expected a value, got nothing");
        }
        m[key] = ReadScalar(child, r, "a single value (a number or a string)");
    }
}

// ---- sections -------------------------------------------------------------------------------

/// One key of a section: how to read it and how to write it back.
template<class T>
struct Rule
{
    const char* key;
    std::function<void(T&, const Item&, Reader&)> apply;
    std::function<void(const T&, YAML::Emitter&)> emit;
};

template<class T>
using Rules = std::vector<Rule<T>>;

template<class T>
std::vector<std::string>
KeyNames(const Rules<T>& rules)
{
    std::vector<std::string> names;
    for (const auto& rule : rules)
    {
        names.push_back(rule.key);
    }
    return names;
}

template<class T>
void
ApplySection(T& obj,
             const Item& it,
             Reader& r,
             const Rules<T>& rules,
             const std::function<void(T&, const std::string&, const Item&)>& onOtherKey = nullptr)
{
    if (it.node.IsNull())
    {
        return;
    }
    const std::vector<std::string> names = KeyNames(rules);
    if (!it.node.IsMap())
    {
        r.Fail(it,
               "expected a section with keys (" + JoinNames(names) + "), got " +
                   DescribeYamlNode(it.node));
    }
    for (auto& [key, child] : Children(it, r))
    {
        r.Record(child);
        auto rule = std::find_if(rules.begin(), rules.end(), [&key = key](const Rule<T>& x) {
            return key == x.key;
        });
        if (rule != rules.end())
        {
            rule->apply(obj, child, r);
            continue;
        }
        if (onOtherKey)
        {
            onOtherKey(obj, key, child);
            continue;
        }
        std::string hint;
        for (const auto& name : names)
        {
            const size_t d = EditDistance(key, name);
            if (d <= 1 || (d == 2 && name.size() >= 4))
            {
                hint = " (did you mean '" + name + "'?)";
                break;
            }
        }
        r.Fail(child, "unknown key" + hint + "; valid keys here: " + JoinNames(names));
    }
}

template<class T>
void
EmitSection(const T& obj, YAML::Emitter& e, const Rules<T>& rules, bool flow = false)
{
    if (flow)
    {
        e << YAML::Flow;
    }
    e << YAML::BeginMap;
    for (const auto& rule : rules)
    {
        e << YAML::Key << rule.key << YAML::Value;
        rule.emit(obj, e);
    }
    e << YAML::EndMap;
}

void
EmitStringMap(const std::map<std::string, std::string>& m, YAML::Emitter& e)
{
    if (m.empty())
    {
        e << YAML::Flow;
    }
    e << YAML::BeginMap;
    for (const auto& [k, v] : m)
    {
        e << YAML::Key << k << YAML::Value << v;
    }
    e << YAML::EndMap;
}

template<class V>
void
EmitFlowList(const std::vector<V>& v, YAML::Emitter& e)
{
    e << YAML::Flow << YAML::BeginSeq;
    for (const auto& x : v)
    {
        e << x;
    }
    e << YAML::EndSeq;
}

std::string
FormatDouble(double v)
{
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof(buf), v);
    return std::string(buf, res.ptr);
}

// Rule makers: one line per key in the tables below.

template<class T, class M>
Rule<T>
Field(const char* key,
      M T::*member,
      std::function<M(const Item&, Reader&)> read,
      std::function<void(const M&, YAML::Emitter&)> emit)
{
    return Rule<T>{key,
                   [member, read](T& obj, const Item& it, Reader& r) {
                       obj.*member = read(it, r);
                   },
                   [member, emit](const T& obj, YAML::Emitter& e) {
                       emit(obj.*member, e);
                   }};
}

template<class T, class M>
Rule<T>
UintField(const char* key, M T::*member, M min = 0, M max = std::numeric_limits<M>::max())
{
    return Field<T, M>(
        key,
        member,
        [min, max](const Item& it, Reader& r) {
            return static_cast<M>(ReadUint(it, r, min, max));
        },
        [](const M& v, YAML::Emitter& e) {
            e << v;
        });
}

template<class T>
Rule<T>
StringField(const char* key, std::string T::*member)
{
    return Field<T, std::string>(key,
                                 member,
                                 ReadString,
                                 [](const std::string& v, YAML::Emitter& e) {
                                     e << v;
                                 });
}

template<class T>
Rule<T>
BoolField(const char* key, bool T::*member)
{
    return Field<T, bool>(key, member, ReadBool, [](const bool& v, YAML::Emitter& e) {
        e << v;
    });
}

template<class T>
Rule<T>
RateField(const char* key, uint64_t T::*member)
{
    return Field<T, uint64_t>(key, member, ReadRate, [](const uint64_t& v, YAML::Emitter& e) {
        e << InaUnits::FormatDataRate(v);
    });
}

template<class T>
Rule<T>
TimeField(const char* key, int64_t T::*member)
{
    return Field<T, int64_t>(key, member, ReadTime, [](const int64_t& v, YAML::Emitter& e) {
        e << InaUnits::FormatTime(v);
    });
}

template<class T>
Rule<T>
BytesField(const char* key,
           uint64_t T::*member,
           uint64_t min = 0,
           uint64_t max = std::numeric_limits<uint64_t>::max())
{
    return Field<T, uint64_t>(
        key,
        member,
        [min, max](const Item& it, Reader& r) {
            return ReadBytes(it, r, min, max);
        },
        [](const uint64_t& v, YAML::Emitter& e) {
            e << InaUnits::FormatBytes(v);
        });
}

template<class T, class E>
Rule<T>
EnumField(const char* key, E T::*member, const ScenarioNames<E>& table)
{
    return Field<T, E>(
        key,
        member,
        [&table](const Item& it, Reader& r) {
            return ReadEnum(it, r, table);
        },
        [](const E& v, YAML::Emitter& e) {
            e << ToString(v);
        });
}

/// A nested section; `flow` writes it on one line ({rate: 100Gbps, delay: 1us}).
template<class T, class S>
Rule<T>
SectionField(const char* key, S T::*member, const Rules<S>& (*rules)(), bool flow)
{
    return Rule<T>{key,
                   [member, rules](T& obj, const Item& it, Reader& r) {
                       ApplySection(obj.*member, it, r, rules());
                   },
                   [member, rules, flow](const T& obj, YAML::Emitter& e) {
                       EmitSection(obj.*member, e, rules(), flow);
                   }};
}

template<class T>
Rule<T>
StringMapField(const char* key, std::map<std::string, std::string> T::*member)
{
    return Rule<T>{key,
                   [member](T& obj, const Item& it, Reader& r) {
                       ApplyStringMap(obj.*member, it, r);
                   },
                   [member](const T& obj, YAML::Emitter& e) {
                       EmitStringMap(obj.*member, e);
                   }};
}

/// A list of sections (jobs, traffic): each new entry starts from V's defaults.
template<class T, class V>
Rule<T>
SectionListField(const char* key,
                 std::vector<V> T::*member,
                 const Rules<V>& (*rules)(),
                 const std::string& expected)
{
    return Rule<T>{key,
                   [member, rules, expected](T& obj, const Item& it, Reader& r) {
                       ApplyList<V>(
                           obj.*member,
                           it,
                           r,
                           expected,
                           [] {
                               return V();
                           },
                           [&r, rules](V& v, const Item& e) {
                               ApplySection(v, e, r, rules());
                           });
                   },
                   [member, rules](const T& obj, YAML::Emitter& e) {
                       const std::vector<V>& v = obj.*member;
                       if (v.empty())
                       {
                           e << YAML::Flow;
                       }
                       e << YAML::BeginSeq;
                       for (const auto& x : v)
                       {
                           EmitSection(x, e, rules());
                       }
                       e << YAML::EndSeq;
                   }};
}

void
ApplyPlacement(ScenarioPlacement& p, const Item& it, Reader& r)
{
    if (it.node.IsScalar())
    {
        if (it.node.Scalar() == "explicit")
        {
            r.Fail(it,
                   "an explicit placement is written as the list of host ids, e.g. [0, 1, 2, 3]");
        }
        p.kind = ReadEnum(it, r, PlacementKindNames());
        p.hosts.clear();
        return;
    }
    if (it.node.IsMap() && r.MayPatchLists() && p.kind != ScenarioPlacement::Kind::EXPLICIT)
    {
        r.Fail(it,
               "the placement is '" + ToString(p.kind) +
                   "', not a list of host ids: give the whole list, e.g. " + it.path +
                   "=[0,1,2,3]");
    }
    if (!it.node.IsSequence() && !it.node.IsMap())
    {
        r.Fail(it,
               "expected packed, spread, random or a list of host ids, got " +
                   DescribeYamlNode(it.node));
    }
    p.kind = ScenarioPlacement::Kind::EXPLICIT;
    ApplyIdList(p.hosts, it, r);
}

void
EmitPlacement(const ScenarioPlacement& p, YAML::Emitter& e)
{
    if (p.kind == ScenarioPlacement::Kind::EXPLICIT)
    {
        EmitFlowList(p.hosts, e);
    }
    else
    {
        e << ToString(p.kind);
    }
}

void
ApplyTrafficHosts(ScenarioTraffic& t, const Item& it, Reader& r)
{
    if (it.node.IsScalar())
    {
        if (it.node.Scalar() != "all")
        {
            r.Fail(it,
                   "expected all or a list of host ids like [0, 1, 2], got " +
                       DescribeYamlNode(it.node));
        }
        t.allHosts = true;
        t.hosts.clear();
        return;
    }
    if (it.node.IsMap() && r.MayPatchLists() && t.allHosts)
    {
        r.Fail(it, "hosts is 'all', not a list: give the whole list, e.g. " + it.path + "=[0,1,2]");
    }
    if (!it.node.IsSequence() && !it.node.IsMap())
    {
        r.Fail(it,
               "expected all or a list of host ids like [0, 1, 2], got " +
                   DescribeYamlNode(it.node));
    }
    t.allHosts = false;
    ApplyIdList(t.hosts, it, r);
}

void
EmitTrafficHosts(const ScenarioTraffic& t, YAML::Emitter& e)
{
    if (t.allHosts)
    {
        e << "all";
    }
    else
    {
        EmitFlowList(t.hosts, e);
    }
}

// ---- the schema: one table per section, in the contract's key order -------------------------

const Rules<ScenarioLink>&
LinkRules()
{
    using T = ScenarioLink;
    static const Rules<T> rules = {RateField("rate", &T::rateBps), TimeField("delay", &T::delayPs)};
    return rules;
}

const Rules<ScenarioQueue>&
QueueRules()
{
    using T = ScenarioQueue;
    static const Rules<T> rules = {BytesField("capacity", &T::capacityBytes, 1),
                                   BytesField("ecn_threshold", &T::ecnThresholdBytes),
                                   BoolField("ecn_at_hosts", &T::ecnAtHosts)};
    return rules;
}

const Rules<ScenarioTopology>&
TopologyRules()
{
    using T = ScenarioTopology;
    static const Rules<T> rules = {
        EnumField("type", &T::type, TopologyTypeNames()),
        UintField("hosts", &T::hosts),
        UintField("k", &T::k),
        UintField("hosts_per_tor", &T::hostsPerTor),
        UintField("leaves", &T::leaves),
        UintField("spines", &T::spines),
        UintField("hosts_per_leaf", &T::hostsPerLeaf),
        StringField("file", &T::file),
        SectionField("host_link", &T::hostLink, LinkRules, true),
        SectionField("fabric_link", &T::fabricLink, LinkRules, true),
        Field<T, double>("loss_rate",
                         &T::lossRate,
                         ReadProbability,
                         [](const double& v, YAML::Emitter& e) {
                             e << FormatDouble(v);
                         }),
        SectionField("queue", &T::queue, QueueRules, true),
        UintField("priority_classes", &T::priorityClasses, 1U, 8U),
        BytesField("mtu", &T::mtuBytes, InaFabricHelper::MIN_MTU, InaFabricHelper::MAX_MTU),
    };
    return rules;
}

const Rules<ScenarioRecirculation>&
RecirculationRules()
{
    using T = ScenarioRecirculation;
    static const Rules<T> rules = {RateField("rate", &T::rateBps),
                                   TimeField("latency", &T::latencyPs)};
    return rules;
}

/// An aggregation capacity: `0` (line rate), a data rate (`9Gbps`) or a packet rate (`20Mpps`).
ScenarioCapacity
ReadCapacity(const Item& it, Reader& r)
{
    const std::string text =
        ReadScalar(it, r, "a capacity like 9Gbps or 20Mpps (0: line rate, no limit)");
    ScenarioCapacity c;
    if (text == "0")
    {
        return c;
    }
    try
    {
        if (text.size() > 3 && text.compare(text.size() - 3, 3, "pps") == 0)
        {
            c.pps = InaUnits::ParsePacketRate(text);
        }
        else
        {
            c.bps = InaUnits::ParseDataRate(text);
        }
    }
    catch (const std::invalid_argument& e)
    {
        r.Fail(it,
               std::string(e.what()) +
                   " (an aggregation capacity is a data rate or a packet rate; 0: line rate)");
    }
    return c;
}

void
EmitCapacity(const ScenarioCapacity& c, YAML::Emitter& e)
{
    if (c.pps != 0)
    {
        e << InaUnits::FormatPacketRate(c.pps);
    }
    else if (c.bps != 0)
    {
        e << InaUnits::FormatDataRate(c.bps);
    }
    else
    {
        e << "0";
    }
}

const Rules<ScenarioAggregation>&
AggregationRules()
{
    using T = ScenarioAggregation;
    static const Rules<T> rules = {
        Field<T, ScenarioCapacity>("capacity", &T::capacity, ReadCapacity, EmitCapacity),
        BytesField("queue", &T::queueBytes, 1),
        Rule<T>{"per_switch",
                [](T& a, const Item& it, Reader& r) {
                    if (it.node.IsNull())
                    {
                        return;
                    }
                    if (!it.node.IsMap())
                    {
                        r.Fail(it,
                               "expected a section of SWITCH: CAPACITY entries (e.g. {s1: 9Gbps}), "
                               "got " +
                                   DescribeYamlNode(it.node));
                    }
                    for (auto& [name, child] : Children(it, r))
                    {
                        r.Record(child);
                        a.perSwitch[name] = ReadCapacity(child, r);
                    }
                },
                [](const T& a, YAML::Emitter& e) {
                    if (a.perSwitch.empty())
                    {
                        e << YAML::Flow;
                    }
                    e << YAML::BeginMap;
                    for (const auto& [name, c] : a.perSwitch)
                    {
                        e << YAML::Key << name << YAML::Value;
                        EmitCapacity(c, e);
                    }
                    e << YAML::EndMap;
                }},
    };
    return rules;
}

/// A data rate that may be 0 (`0` or `0bps`: not given).
uint64_t
ReadRateOrZero(const Item& it, Reader& r)
{
    const std::string text = ReadScalar(it, r, "a data rate like 100Gbps, or 0");
    if (text == "0")
    {
        return 0;
    }
    try
    {
        return InaUnits::ParseDataRate(text);
    }
    catch (const std::invalid_argument& e)
    {
        r.Fail(it, e.what());
    }
    return 0;
}

const Rules<ScenarioPlanner>&
PlannerRules()
{
    using T = ScenarioPlanner;
    static const Rules<T> rules = {
        Field<T, std::string>(
            "programmable",
            &T::programmable,
            [](const Item& it, Reader& r) {
                const std::string v = ReadScalar(it, r, "tiers or random");
                if (v != "tiers" && v != "random")
                {
                    r.Fail(it,
                           "expected tiers (the switches of switch.ina_tiers) or random (a "
                           "random fraction of all switches), got " +
                               Quote(v));
                }
                return v;
            },
            [](const std::string& v, YAML::Emitter& e) {
                e << v;
            }),
        Field<T, double>(
            "fraction",
            &T::fraction,
            [](const Item& it, Reader& r) {
                const std::string text = ReadScalar(it, r, "a fraction in (0, 1]");
                double value = 0;
                const char* end = text.data() + text.size();
                const auto res = std::from_chars(text.data(), end, value);
                if (text.empty() || res.ec != std::errc() || res.ptr != end || !(value > 0) ||
                    value > 1)
                {
                    r.Fail(it, "expected a fraction in (0, 1] like 0.2, got " + Quote(text));
                }
                return value;
            },
            [](const double& v, YAML::Emitter& e) {
                e << FormatDouble(v);
            }),
        Field<T, uint64_t>("capacity_min",
                           &T::capacityMinBps,
                           ReadRateOrZero,
                           [](const uint64_t& v, YAML::Emitter& e) {
                               e << (v == 0 ? std::string("0") : InaUnits::FormatDataRate(v));
                           }),
        Field<T, uint64_t>("capacity_max",
                           &T::capacityMaxBps,
                           ReadRateOrZero,
                           [](const uint64_t& v, YAML::Emitter& e) {
                               e << (v == 0 ? std::string("0") : InaUnits::FormatDataRate(v));
                           }),
        UintField("trials", &T::trials, 1U),
        BoolField("repair", &T::repair),
        BoolField("link_rows", &T::linkRows),
    };
    return rules;
}

const Rules<ScenarioSwitch>&
SwitchRules()
{
    using T = ScenarioSwitch;
    static const Rules<T> rules = {
        UintField("stages", &T::stages, 1U),
        BytesField("sram_per_stage", &T::sramPerStageBytes, 1),
        UintField("stateful_alus_per_stage", &T::statefulAlusPerStage),
        SectionField("recirculation", &T::recirculation, RecirculationRules, true),
        Rule<T>{"ina_tiers",
                [](T& s, const Item& it, Reader& r) {
                    ApplyList<std::string>(
                        s.inaTiers,
                        it,
                        r,
                        "a list of tiers like [tor, agg]",
                        [] {
                            return std::string();
                        },
                        [&r](std::string& tier, const Item& e) {
                            tier = ReadScalar(e, r, "a tier name (tor, agg, core, leaf, spine)");
                        });
                },
                [](const T& s, YAML::Emitter& e) {
                    EmitFlowList(s.inaTiers, e);
                }},
        SectionField("aggregation", &T::aggregation, AggregationRules, true),
        BytesField("ina_memory", &T::inaMemoryBytes),
        StringMapField("params", &T::params),
    };
    return rules;
}

const Rules<ScenarioWorkload>&
WorkloadRules()
{
    using T = ScenarioWorkload;
    static const Rules<T> rules = {
        StringField("model", &T::model),
        BytesField("tensor_bytes", &T::tensorBytes),
        UintField("iterations", &T::iterations, 1U, TrainingJob::MAX_ITERATIONS)};
    return rules;
}

void
ApplyWorkload(ScenarioWorkload& w, const Item& it, Reader& r)
{
    ApplySection<ScenarioWorkload>(
        w,
        it,
        r,
        WorkloadRules(),
        [&r](ScenarioWorkload& wl, const std::string& key, const Item& child) {
            // Kept for workload kinds to come; their own code validates them.
            if (child.node.IsNull())
            {
                r.Fail(child, "expected a value, got nothing");
            }
            wl.extra[key] = ReadScalar(child, r, "a single value (a number or a string)");
        });
}

void
EmitWorkload(const ScenarioWorkload& w, YAML::Emitter& e)
{
    e << YAML::BeginMap;
    for (const auto& rule : WorkloadRules())
    {
        e << YAML::Key << rule.key << YAML::Value;
        rule.emit(w, e);
    }
    for (const auto& [k, v] : w.extra)
    {
        e << YAML::Key << k << YAML::Value << v;
    }
    e << YAML::EndMap;
}

const Rules<ScenarioJob>&
JobRules()
{
    using T = ScenarioJob;
    static const Rules<T> rules = {
        StringField("name", &T::name),
        StringField("protocol", &T::protocol),
        UintField("workers", &T::workers, 1U),
        Rule<T>{"placement",
                [](T& j, const Item& it, Reader& r) {
                    ApplyPlacement(j.placement, it, r);
                },
                [](const T& j, YAML::Emitter& e) {
                    EmitPlacement(j.placement, e);
                }},
        UintField("ps_hosts", &T::psHosts),
        Rule<T>{"workload",
                [](T& j, const Item& it, Reader& r) {
                    ApplyWorkload(j.workload, it, r);
                },
                [](const T& j, YAML::Emitter& e) {
                    EmitWorkload(j.workload, e);
                }},
        TimeField("start", &T::startPs),
        StringMapField("params", &T::params),
    };
    return rules;
}

const Rules<ScenarioTraffic>&
TrafficRules()
{
    using T = ScenarioTraffic;
    static const Rules<T> rules = {
        EnumField("pattern", &T::pattern, TrafficPatternNames()),
        Rule<T>{"hosts", ApplyTrafficHosts, EmitTrafficHosts},
        BytesField("flow_bytes", &T::flowBytes, 1),
        TimeField("start", &T::startPs),
        UintField("dst", &T::dst),
    };
    return rules;
}

const Rules<ScenarioOutputs>&
OutputRules()
{
    using T = ScenarioOutputs;
    static const Rules<T> rules = {BoolField("pcap", &T::pcap),
                                   TimeField("timeseries_interval", &T::timeseriesIntervalPs)};
    return rules;
}

const Rules<ScenarioLimits>&
LimitRules()
{
    using T = ScenarioLimits;
    static const Rules<T> rules = {TimeField("no_progress", &T::noProgressPs)};
    return rules;
}

/// Two names, like a link's ends `[tor0, h1]` or two tiers `[tor, agg]`.
template<class T>
Rule<T>
NamePairField(const char* key, std::vector<std::string> T::*member, const char* example)
{
    return Rule<T>{key,
                   [member, example](T& obj, const Item& it, Reader& r) {
                       if (!it.node.IsSequence() || it.node.size() != 2)
                       {
                           r.Fail(it,
                                  std::string("expected two names like ") + example + ", got " +
                                      DescribeYamlNode(it.node));
                       }
                       std::vector<std::string> names;
                       for (const Item& e : Elements(it))
                       {
                           names.push_back(ReadScalar(e, r, "a name"));
                       }
                       obj.*member = names;
                   },
                   [member](const T& obj, YAML::Emitter& e) {
                       EmitFlowList(obj.*member, e);
                   }};
}

const Rules<ScenarioEvent>&
EventRules()
{
    using T = ScenarioEvent;
    static const Rules<T> rules = {
        EnumField("kind", &T::kind, EventKindNames()),
        TimeField("at", &T::atPs),
        NamePairField("link", &T::link, "[tor0, h1] (the link's two ends)"),
        StringField("switch", &T::switchName),
        TimeField("down_for", &T::downForPs),
        TimeField("period", &T::periodPs),
        UintField("count", &T::count),
        TimeField("until", &T::untilPs),
        Field<T, double>("rate",
                         &T::rate,
                         ReadProbability,
                         [](const double& v, YAML::Emitter& e) {
                             e << FormatDouble(v);
                         }),
        NamePairField("tiers", &T::tiers, "[tor, agg] (every link between the two tiers)"),
    };
    return rules;
}

/**
 * One event as its kind takes it: `kind`, `at` and the keys that hold a value. The effective
 * config must load again, and ValidateEvents refuses a key the kind does not take (a switch_fail
 * with `link: []`), so unset keys are left out rather than written as their zero.
 */
void
EmitEvent(const ScenarioEvent& ev, YAML::Emitter& e)
{
    const std::map<std::string, bool> set = {{"kind", true},
                                             {"at", true},
                                             {"link", !ev.link.empty()},
                                             {"switch", !ev.switchName.empty()},
                                             {"down_for", ev.downForPs > 0},
                                             {"period", ev.periodPs > 0},
                                             {"count", ev.count > 0},
                                             {"until", ev.untilPs > 0},
                                             {"rate", ev.kind == ScenarioEvent::Kind::LOSS},
                                             {"tiers", !ev.tiers.empty()}};
    e << YAML::BeginMap;
    for (const auto& rule : EventRules())
    {
        if (set.at(rule.key))
        {
            e << YAML::Key << rule.key << YAML::Value;
            rule.emit(ev, e);
        }
    }
    e << YAML::EndMap;
}

/// `events:`, read as any list of sections, written by EmitEvent.
Rule<Scenario>
EventsField()
{
    Rule<Scenario> r =
        SectionListField("events", &Scenario::events, EventRules, "a list of fault events");
    r.emit = [](const Scenario& obj, YAML::Emitter& e) {
        if (obj.events.empty())
        {
            e << YAML::Flow;
        }
        e << YAML::BeginSeq;
        for (const auto& ev : obj.events)
        {
            EmitEvent(ev, e);
        }
        e << YAML::EndSeq;
    };
    return r;
}

const Rules<Scenario>&
ScenarioRules()
{
    using T = Scenario;
    static const Rules<T> rules = {
        StringField("name", &T::name),
        UintField("seed", &T::seed),
        BoolField("check_values", &T::checkValues),
        EnumField("link", &T::link, LinkModelNames()),
        TimeField("stop_time", &T::stopTimePs),
        SectionField("topology", &T::topology, TopologyRules, false),
        SectionField("switch", &T::switchConfig, SwitchRules, false),
        EnumField("routing", &T::routing, RoutingNames()),
        EnumField("level", &T::level, LevelNames()),
        SectionField("planner", &T::planner, PlannerRules, false),
        SectionListField("jobs", &T::jobs, JobRules, "a list of jobs"),
        UintField("job_count", &T::jobCount),
        SectionListField("traffic", &T::traffic, TrafficRules, "a list of traffic entries"),
        SectionField("outputs", &T::outputs, OutputRules, false),
        SectionField("limits", &T::limits, LimitRules, false),
        EventsField(),
        TimeField("fault_detection", &T::faultDetectionPs),
    };
    return rules;
}

/**
 * Whether one document of a YAML stream holds anything, and where it starts. The scenario loader
 * looks for a second document with it instead of YAML::LoadAll, which in yaml-cpp 0.7 (Debian
 * 12) never returns on some malformed input: a stray ',' starting a document makes it hand out
 * empty documents forever, allocating as it goes (fixed upstream by yaml-cpp pull request 1319,
 * which stops at the first empty document, as this probe lets the loader do). `./inasim fuzz`
 * found it; test/fuzz/regressions/scenario/ keeps the input.
 */
class DocumentProbe : public YAML::EventHandler
{
  public:
    bool HasContent() const
    {
        return m_content;
    }

    /// Where the document's first node is.
    const YAML::Mark& GetStart() const
    {
        return m_start;
    }

    void OnDocumentStart(const YAML::Mark&) override
    {
    }

    void OnDocumentEnd() override
    {
    }

    void OnNull(const YAML::Mark&, YAML::anchor_t) override
    {
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override
    {
        Content(mark);
    }

    void OnScalar(const YAML::Mark& mark,
                  const std::string&,
                  YAML::anchor_t,
                  const std::string&) override
    {
        Content(mark);
    }

    void OnSequenceStart(const YAML::Mark& mark,
                         const std::string&,
                         YAML::anchor_t,
                         YAML::EmitterStyle::value) override
    {
        Content(mark);
    }

    void OnSequenceEnd() override
    {
    }

    void OnMapStart(const YAML::Mark& mark,
                    const std::string&,
                    YAML::anchor_t,
                    YAML::EmitterStyle::value) override
    {
        Content(mark);
    }

    void OnMapEnd() override
    {
    }

  private:
    /// The first node of the document: where an error about the document points.
    void Content(const YAML::Mark& mark)
    {
        if (!m_content)
        {
            m_start = mark;
            m_content = true;
        }
    }

    YAML::Mark m_start;
    bool m_content = false;
};

// ---- layers ---------------------------------------------------------------------------------

void
ApplyDocument(Scenario& s, const std::string& yamlText, const std::string& source)
{
    YAML::Node root;
    try
    {
        // Load reads the first document and silently drops the rest, so a second one is looked
        // for apart (not with LoadAll: see DocumentProbe).
        root = YAML::Load(yamlText);
        std::istringstream in(yamlText);
        YAML::Parser parser(in);
        DocumentProbe first;
        DocumentProbe second;
        if (parser.HandleNextDocument(first) && parser.HandleNextDocument(second) &&
            second.HasContent())
        {
            const int line = second.GetStart().line;
            throw ScenarioError(line >= 0 ? source + ":" + std::to_string(line + 1) : source,
                                "",
                                "a second YAML document (after '---'); a scenario file holds "
                                "one scenario");
        }
    }
    catch (const YAML::Exception& e)
    {
        const std::string where =
            e.mark.line >= 0 ? source + ":" + std::to_string(e.mark.line + 1) : source;
        throw ScenarioError(where, "", "not valid YAML: " + e.msg);
    }
    Reader r(source, s.origins);
    const Item top{root, "", root.Mark().line >= 0 ? root.Mark().line : 0};
    if (!root.IsNull() && !root.IsMap())
    {
        throw ScenarioError(r.Where(top.line),
                            "",
                            "expected a scenario: a section with keys (" +
                                JoinNames(KeyNames(ScenarioRules())) + "), got " +
                                DescribeYamlNode(root));
    }
    ApplySection(s, top, r, ScenarioRules());
}

bool
IsKeyChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

std::string
Trim(const std::string& s)
{
    const size_t b = s.find_first_not_of(" \t");
    if (b == std::string::npos)
    {
        return "";
    }
    const size_t e = s.find_last_not_of(" \t");
    return s.substr(b, e - b + 1);
}

void
ApplyOverride(Scenario& s, const std::string& text)
{
    const std::string where = "override '" + text + "'";
    const size_t eq = text.find('=');
    if (eq == std::string::npos)
    {
        throw ScenarioError(where, "", "expected KEY=VALUE, e.g. topology.k=8");
    }
    const std::string key = Trim(text.substr(0, eq));
    const std::string value = Trim(text.substr(eq + 1));
    std::vector<std::string> parts;
    std::string part;
    std::istringstream keyStream(key);
    bool wellFormed = !key.empty() && key.back() != '.';
    while (std::getline(keyStream, part, '.'))
    {
        wellFormed =
            wellFormed && !part.empty() && std::all_of(part.begin(), part.end(), IsKeyChar);
        parts.push_back(part);
    }
    if (!wellFormed)
    {
        throw ScenarioError(where,
                            "",
                            "expected KEY=VALUE with KEY a dotted path of names and list indices, "
                            "e.g. jobs.0.workers=16; got key '" +
                                key + "'");
    }
    YAML::Node overlay;
    try
    {
        overlay = YAML::Load(value);
    }
    catch (const YAML::Exception& e)
    {
        throw ScenarioError(where, key, "the value is not valid YAML: " + e.msg);
    }
    // {a: {b: {c: value}}}; reset() rebinds the handle (operator= would alias the old node).
    for (size_t i = parts.size(); i-- > 0;)
    {
        YAML::Node level(YAML::NodeType::Map);
        level[parts[i]] = overlay;
        overlay.reset(level);
    }
    Reader r(s.origins.source, s.origins, text, key);
    ApplySection(s, Item{overlay, "", -1}, r, ScenarioRules());
}

// ---- defaults that depend on other keys, and cross-key rules ----------------------------------

bool
IsExplicit(const Scenario& s, const std::string& path)
{
    return s.origins.where.count(path) > 0;
}

std::string
SafeName(const std::string& raw)
{
    std::string out;
    for (char c : raw)
    {
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' ? c : '_';
    }
    return IsSafeName(out) ? out : "scenario";
}

void
ResolveTopologyFile(Scenario& s)
{
    namespace fs = std::filesystem;
    ScenarioTopology& t = s.topology;
    if (t.file.empty())
    {
        throw s.Error("topology.file",
                      "topology type 'file' needs file: the path of a topology file");
    }
    const fs::path given(t.file);
    std::vector<fs::path> candidates;
    const bool fromOverride = s.Where("topology.file").rfind("override", 0) == 0;
    const fs::path sourceDir = fs::path(s.origins.source).parent_path();
    if (given.is_relative() && !fromOverride && !sourceDir.empty())
    {
        candidates.push_back(sourceDir / given);
    }
    candidates.push_back(given);
    std::error_code ec;
    for (const auto& c : candidates)
    {
        if (fs::is_regular_file(c, ec))
        {
            // canonical, not lexically normal: "dir/../x" is wrong when dir is a symlink (the
            // modules symlinked into an ns-3 tree), and the effective config must load again.
            t.file = fs::canonical(c, ec).string();
            return;
        }
    }
    std::string looked;
    for (const auto& c : candidates)
    {
        if (fs::exists(c, ec))
        {
            // It is there but is not a file: say so, not "no such file".
            throw s.Error("topology.file",
                          "'" + t.file + "' (" + fs::absolute(c, ec).lexically_normal().string() +
                              ") is " +
                              (fs::is_directory(c, ec) ? "a folder" : "not a regular file") +
                              "; expected a topology file");
        }
        looked += (looked.empty() ? "" : ", ") + fs::absolute(c, ec).lexically_normal().string();
    }
    throw s.Error("topology.file", "no such file '" + t.file + "' (looked for " + looked + ")");
}

void
FillDerivedDefaults(Scenario& s)
{
    if (s.name.empty() && !IsExplicit(s, "name"))
    {
        s.name = SafeName(std::filesystem::path(s.origins.source).stem().string());
    }
    if (s.jobCount > 0)
    {
        // Applied after the overrides, so that a sweep can set every job of the list (a zip of
        // jobs.N.protocol) and vary how many of them run.
        if (s.jobCount > s.jobs.size())
        {
            throw s.Error("job_count",
                          "asks for the first " + std::to_string(s.jobCount) +
                              " jobs but 'jobs' lists " + std::to_string(s.jobs.size()) +
                              "; expected 0 (all) up to " + std::to_string(s.jobs.size()));
        }
        s.jobs.resize(s.jobCount);
    }
    for (size_t i = 0; i < s.jobs.size(); ++i)
    {
        ScenarioJob& job = s.jobs[i];
        const std::string path = "jobs." + std::to_string(i);
        if (job.name.empty() && !IsExplicit(s, path + ".name"))
        {
            job.name = "j" + std::to_string(i);
        }
        if (job.placement.kind == ScenarioPlacement::Kind::EXPLICIT)
        {
            const size_t n = job.placement.hosts.size();
            if (n == 0)
            {
                throw s.Error(path + ".placement",
                              "an explicit placement needs at least one host id");
            }
            if (!IsExplicit(s, path + ".workers"))
            {
                job.workers = static_cast<uint32_t>(n);
            }
            else if (job.workers != n)
            {
                throw s.Error(path + ".placement",
                              "lists " + std::to_string(n) + " host ids but workers is " +
                                  std::to_string(job.workers) + " (" + s.Where(path + ".workers") +
                                  "); give one host id per worker");
            }
        }
        // The contract's own example gives both; say which one counts instead of failing.
        const std::string tensorPath = path + ".workload.tensor_bytes";
        if (!job.workload.model.empty() && IsExplicit(s, tensorPath))
        {
            s.origins.warnings.push_back(s.Where(tensorPath) + ": key '" + tensorPath +
                                         "': not used, the tensors come from model '" +
                                         job.workload.model + "'");
        }
    }
    if (s.topology.type == ScenarioTopology::Type::FROM_FILE)
    {
        ResolveTopologyFile(s);
    }
}

/// The key to blame for a rule involving several: the last layer wins, so an override before a
/// file value, a file value before a default.
std::string
Blame(const Scenario& s, std::initializer_list<std::string> paths)
{
    for (const auto& p : paths)
    {
        if (IsExplicit(s, p) && s.Where(p).rfind("override", 0) == 0)
        {
            return p;
        }
    }
    for (const auto& p : paths)
    {
        if (IsExplicit(s, p))
        {
            return p;
        }
    }
    return *paths.begin();
}

template<class V>
void
CheckUnique(const Scenario& s, const std::vector<V>& ids, const std::string& path)
{
    std::set<V> seen;
    for (const auto& id : ids)
    {
        if (!seen.insert(id).second)
        {
            std::ostringstream os;
            os << "host id " << id << " is listed twice; each host may appear once";
            throw s.Error(path, os.str());
        }
    }
}

/// A built-in topology's size is within InaTopology's bounds, checked before it is built, with
/// the generators' own check and words, blamed on `key`.
void
CheckTopologySize(const Scenario& s,
                  const std::string& key,
                  const std::string& what,
                  uint64_t hosts,
                  uint64_t switches)
{
    try
    {
        InaCheckTopologySize(what, hosts, switches);
    }
    catch (const std::invalid_argument& e)
    {
        throw s.Error(key, e.what());
    }
}

void
ValidateTopology(const Scenario& s)
{
    const ScenarioTopology& t = s.topology;
    uint64_t hosts = 0;
    switch (t.type)
    {
    case ScenarioTopology::Type::STAR:
        if (t.hosts < 1)
        {
            throw s.Error("topology.hosts", "a star needs at least 1 host, got 0");
        }
        hosts = t.hosts;
        break;
    case ScenarioTopology::Type::FAT_TREE:
        if (t.k < 4 || t.k % 2 != 0)
        {
            throw s.Error("topology.k",
                          "a fat-tree needs an even k >= 4, got " + std::to_string(t.k));
        }
        if (t.hostsPerTor + static_cast<uint64_t>(t.k / 2) > 65535)
        {
            throw s.Error("topology.hosts_per_tor",
                          "a ToR has 65535 ports; " + std::to_string(t.hostsPerTor) +
                              " hosts and " + std::to_string(t.k / 2) + " uplinks do not fit");
        }
        hosts =
            static_cast<uint64_t>(t.k) * (t.k / 2) * (t.hostsPerTor == 0 ? t.k / 2 : t.hostsPerTor);
        CheckTopologySize(s,
                          t.hostsPerTor == 0 ? "topology.k"
                                             : Blame(s, {"topology.hosts_per_tor", "topology.k"}),
                          "a fat-tree of k=" + std::to_string(t.k),
                          hosts,
                          5 * static_cast<uint64_t>(t.k) * t.k / 4);
        break;
    case ScenarioTopology::Type::LEAF_SPINE:
        for (const auto& [key, value] : {std::make_pair("leaves", t.leaves),
                                         std::make_pair("spines", t.spines),
                                         std::make_pair("hosts_per_leaf", t.hostsPerLeaf)})
        {
            if (value < 1)
            {
                throw s.Error(std::string("topology.") + key,
                              std::string("a leaf-spine needs ") + key + " >= 1, got 0");
            }
        }
        hosts = static_cast<uint64_t>(t.leaves) * t.hostsPerLeaf;
        CheckTopologySize(
            s,
            Blame(s, {"topology.leaves", "topology.hosts_per_leaf", "topology.spines"}),
            "a leaf-spine of " + std::to_string(t.leaves) + " leaves",
            hosts,
            static_cast<uint64_t>(t.leaves) + t.spines);
        break;
    case ScenarioTopology::Type::FROM_FILE:
        break;
    }
    if (hosts > std::numeric_limits<uint32_t>::max())
    {
        throw s.Error("topology.type",
                      "this topology would have " + std::to_string(hosts) + " hosts, more than " +
                          std::to_string(std::numeric_limits<uint32_t>::max()));
    }
    if (t.queue.ecnThresholdBytes == 0)
    {
        // The links read 0 as "never mark"; written here it is more likely a slip than a wish.
        throw s.Error("topology.queue.ecn_threshold",
                      "expected a size >= 1B, got 0 (a threshold of 0 would turn ECN marking "
                      "off; to mark nothing, set it to the queue capacity)");
    }
    if (t.queue.ecnThresholdBytes > t.queue.capacityBytes)
    {
        throw s.Error(Blame(s, {"topology.queue.ecn_threshold", "topology.queue.capacity"}),
                      "ecn_threshold " + InaUnits::FormatBytes(t.queue.ecnThresholdBytes) +
                          " is above the queue capacity " +
                          InaUnits::FormatBytes(t.queue.capacityBytes));
    }
}

void
ValidateSwitch(const Scenario& s)
{
    using Type = ScenarioTopology::Type;
    std::vector<std::string> allowed;
    switch (s.topology.type)
    {
    case Type::STAR:
        allowed = {"tor", "leaf"};
        break;
    case Type::FAT_TREE:
        allowed = {"tor", "leaf", "agg", "core"};
        break;
    case Type::LEAF_SPINE:
        allowed = {"tor", "leaf", "spine"};
        break;
    case Type::FROM_FILE:
        allowed = {"tor", "leaf", "agg", "spine", "core"};
        break;
    }
    std::set<std::string> seen;
    const auto& tiers = s.switchConfig.inaTiers;
    for (size_t i = 0; i < tiers.size(); ++i)
    {
        const std::string path = "switch.ina_tiers." + std::to_string(i);
        if (std::find(allowed.begin(), allowed.end(), tiers[i]) == allowed.end())
        {
            throw s.Error(path,
                          "a " + ToString(s.topology.type) + " topology has tiers " +
                              JoinNames(allowed) + ", got '" + tiers[i] + "'");
        }
        // tor and leaf are two names of the tier hosts attach to.
        const std::string canonical = tiers[i] == "leaf" ? "tor" : tiers[i];
        if (!seen.insert(canonical).second)
        {
            throw s.Error(path,
                          "tier '" + tiers[i] +
                              "' is listed twice (tor and leaf are the same tier)");
        }
    }
}

void
ValidateJobs(const Scenario& s)
{
    std::map<std::string, size_t> names;
    for (size_t i = 0; i < s.jobs.size(); ++i)
    {
        const ScenarioJob& job = s.jobs[i];
        const std::string path = "jobs." + std::to_string(i);
        if (!IsSafeName(job.name))
        {
            throw s.Error(path + ".name",
                          "a job name is used in file names: letters, digits, '-', '_', '.' only, "
                          "got '" +
                              job.name + "'");
        }
        auto [pos, fresh] = names.emplace(job.name, i);
        if (!fresh)
        {
            throw s.Error(path + ".name",
                          "job name '" + job.name + "' is already used by jobs." +
                              std::to_string(pos->second));
        }
        if (job.protocol.empty())
        {
            throw s.Error(path + ".protocol",
                          "a job needs a protocol (switchml, atp, esa, libra, ring, ps)");
        }
        if (job.placement.kind == ScenarioPlacement::Kind::EXPLICIT)
        {
            CheckUnique(s, job.placement.hosts, path + ".placement");
        }
        if (job.workload.model.empty() && job.workload.tensorBytes == 0)
        {
            throw s.Error(Blame(s, {path + ".workload.tensor_bytes", path + ".workload"}),
                          "a workload needs a model or tensor_bytes > 0");
        }
    }
}

void
ValidateTraffic(const Scenario& s)
{
    for (size_t i = 0; i < s.traffic.size(); ++i)
    {
        const ScenarioTraffic& t = s.traffic[i];
        const std::string path = "traffic." + std::to_string(i);
        if (t.allHosts)
        {
            continue;
        }
        CheckUnique(s, t.hosts, path + ".hosts");
        size_t senders = t.hosts.size();
        if (t.pattern == ScenarioTraffic::Pattern::INCAST)
        {
            senders -= std::count(t.hosts.begin(), t.hosts.end(), t.dst);
            if (senders < 1)
            {
                throw s.Error(path + ".hosts",
                              "an incast needs at least one sender besides dst " +
                                  std::to_string(t.dst));
            }
        }
        else if (senders < 2)
        {
            throw s.Error(path + ".hosts",
                          "a " + ToString(t.pattern) + " needs at least 2 hosts, got " +
                              std::to_string(senders));
        }
    }
}

/**
 * A link_flap's failures, added to `*total` (those of the events before it), stay within
 * ScenarioEvent::MAX_LINK_FLAP_FAILURES, and its last repair is a time the simulator can hold.
 * The key named is the one that makes the count: `count`, or `period` with `until`.
 */
void
ValidateFlapBound(const Scenario& s, size_t index, uint64_t* total)
{
    const ScenarioEvent& e = s.events[index];
    const std::string path = "events." + std::to_string(index);
    const uint64_t failures = e.GetFlapFailures();
    const std::string key = path + (e.count > 0 ? ".count" : ".period");
    const std::string made = e.count > 0 ? "count: " + std::to_string(e.count)
                                         : "period " + InaUnits::FormatTime(e.periodPs) +
                                               " from 'at' (" + InaUnits::FormatTime(e.atPs) +
                                               ") to 'until' (" + InaUnits::FormatTime(e.untilPs) +
                                               ") makes " + std::to_string(failures) + " failures";
    if (failures > ScenarioEvent::MAX_LINK_FLAP_FAILURES - *total)
    {
        throw s.Error(key,
                      "link_flap events may make at most " +
                          std::to_string(ScenarioEvent::MAX_LINK_FLAP_FAILURES) +
                          " failures in all (each is booked when the run is set up); " + made +
                          (*total > 0
                               ? ", after " + std::to_string(*total) + " in the events before it"
                               : std::string()));
    }
    *total += failures;
    // The last failure starts (failures - 1) periods after 'at' and ends down_for later.
    const int64_t downFor = e.downForPs > 0 ? e.downForPs : e.periodPs / 2;
    const __int128 lastUp =
        static_cast<__int128>(e.atPs) + static_cast<__int128>(failures - 1) * e.periodPs + downFor;
    if (lastUp > std::numeric_limits<int64_t>::max())
    {
        throw s.Error(key,
                      "the flapping would last past the longest time the simulator can hold (" +
                          InaUnits::FormatTime(std::numeric_limits<int64_t>::max()) + "); " + made);
    }
}

/// Whether the scenario gave `key` of the event at `path` ("events.2").
bool
EventKeyGiven(const Scenario& s, const std::string& path, const std::string& key)
{
    return s.origins.where.count(path + "." + key) > 0;
}

/// What an event of one kind takes, in one place: its keys (every other key is refused, so a
/// typo'd kind is not silently a different fault) and the key of the element it acts on, when it
/// must name one.
struct EventShape
{
    std::vector<std::string> keys; //!< every key it may have
    std::string element;           //!< the key it must have: "link", "switch", or "" (loss)
    std::string elementForm;       //!< how that key is written, for the error
};

/// \return the shape of an event of this kind
EventShape
EventShapeOf(ScenarioEvent::Kind kind)
{
    using K = ScenarioEvent::Kind;
    const std::string link = "'link: [a, b]', the link's two ends";
    const std::string sw = "'switch', the switch's name";
    switch (kind)
    {
    case K::LINK_DOWN:
    case K::LINK_UP:
        return {{"kind", "at", "link"}, "link", link};
    case K::LINK_FLAP:
        return {{"kind", "at", "link", "down_for", "period", "count", "until"}, "link", link};
    case K::SWITCH_FAIL:
        return {{"kind", "at", "switch"}, "switch", sw};
    case K::SWITCH_REBOOT:
        return {{"kind", "at", "switch", "down_for"}, "switch", sw};
    case K::LOSS:
        return {{"kind", "at", "rate", "link", "tiers"}, "", ""};
    }
    return {{"kind", "at"}, "", ""};
}

/// An event has its kind, its time, only the keys its kind takes, and the element it acts on.
void
ValidateEventKeys(const Scenario& s, size_t index)
{
    using K = ScenarioEvent::Kind;
    const ScenarioEvent& e = s.events[index];
    const std::string path = "events." + std::to_string(index);
    const std::string kind = ToString(e.kind);
    if (!EventKeyGiven(s, path, "kind"))
    {
        throw s.Error(path,
                      "an event needs a kind: link_down, link_up, link_flap, switch_fail, "
                      "switch_reboot or loss");
    }
    if (!EventKeyGiven(s, path, "at") && e.kind != K::LOSS)
    {
        throw s.Error(path, "a " + kind + " event needs 'at', the time it happens");
    }
    const EventShape shape = EventShapeOf(e.kind);
    const std::vector<std::string>& allowed = shape.keys;
    for (const auto& rule : EventRules())
    {
        if (EventKeyGiven(s, path, rule.key) &&
            std::find(allowed.begin(), allowed.end(), rule.key) == allowed.end())
        {
            throw s.Error(path + "." + rule.key,
                          "a " + kind + " event takes no '" + rule.key +
                              "' (its keys: " + JoinNames(allowed) + ")");
        }
    }
    if (!shape.element.empty() && !EventKeyGiven(s, path, shape.element))
    {
        throw s.Error(path, "a " + kind + " event needs " + shape.elementForm);
    }
}

/// A switch_reboot is down for a time > 0 and comes back within the simulator's time.
void
ValidateReboot(const Scenario& s, size_t index)
{
    const ScenarioEvent& e = s.events[index];
    const std::string path = "events." + std::to_string(index);
    if (e.downForPs <= 0)
    {
        throw s.Error(path + (EventKeyGiven(s, path, "down_for") ? ".down_for" : ""),
                      "a switch_reboot needs 'down_for' > 0, how long the switch is down");
    }
    if (e.downForPs > std::numeric_limits<int64_t>::max() - e.atPs)
    {
        throw s.Error(path + ".down_for",
                      "the switch would come back after the longest time the simulator can "
                      "hold (" +
                          InaUnits::FormatTime(std::numeric_limits<int64_t>::max()) + ")");
    }
}

/// A link_flap has a period, a down time inside it, and one of count or until; with the flaps
/// before it, at most MAX_LINK_FLAP_FAILURES failures (ValidateFlapBound).
void
ValidateFlap(const Scenario& s, size_t index, uint64_t* flapFailures)
{
    const ScenarioEvent& e = s.events[index];
    const std::string path = "events." + std::to_string(index);
    auto given = [&](const std::string& key) {
        return EventKeyGiven(s, path, key);
    };
    if (e.periodPs <= 0)
    {
        throw s.Error(path + (given("period") ? ".period" : ""),
                      "a link_flap needs 'period' > 0, from one failure to the next");
    }
    if (given("down_for") && (e.downForPs <= 0 || e.downForPs >= e.periodPs))
    {
        throw s.Error(path + ".down_for",
                      "expected a time > 0 and shorter than the period (" +
                          InaUnits::FormatTime(e.periodPs) + "), got " +
                          InaUnits::FormatTime(e.downForPs));
    }
    if (given("count") == given("until"))
    {
        throw s.Error(path,
                      "a link_flap needs one of 'count' (how many failures) or 'until' "
                      "(when the flapping stops)");
    }
    if (given("count") && e.count == 0)
    {
        throw s.Error(path + ".count", "expected at least 1 failure, got 0");
    }
    if (given("until") && e.untilPs <= e.atPs)
    {
        throw s.Error(path + ".until",
                      "expected a time after 'at' (" + InaUnits::FormatTime(e.atPs) + "), got " +
                          InaUnits::FormatTime(e.untilPs));
    }
    ValidateFlapBound(s, index, flapFailures);
}

/// A loss event has its rate and one of a link or a pair of tiers.
void
ValidateLoss(const Scenario& s, size_t index)
{
    const std::string path = "events." + std::to_string(index);
    if (!EventKeyGiven(s, path, "rate"))
    {
        throw s.Error(path, "a loss event needs 'rate', the loss probability");
    }
    if (EventKeyGiven(s, path, "link") == EventKeyGiven(s, path, "tiers"))
    {
        throw s.Error(path,
                      "a loss event needs one of 'link: [a, b]' (one link) or 'tiers: "
                      "[a, b]' (every link between two tiers)");
    }
}

/// What each kind of event needs; names are checked against the topology by the runner.
void
ValidateEvents(const Scenario& s)
{
    using K = ScenarioEvent::Kind;
    uint64_t flapFailures = 0; // of the link_flap events so far
    for (size_t i = 0; i < s.events.size(); ++i)
    {
        const ScenarioEvent& e = s.events[i];
        ValidateEventKeys(s, i);
        if (e.kind == K::SWITCH_REBOOT)
        {
            ValidateReboot(s, i);
        }
        if (e.kind == K::LINK_FLAP)
        {
            ValidateFlap(s, i, &flapFailures);
        }
        if (e.kind == K::LOSS)
        {
            ValidateLoss(s, i);
        }
        if (s.stopTimePs > 0 && e.atPs >= s.stopTimePs)
        {
            throw s.Error("events." + std::to_string(i) + ".at",
                          "the event is at or after stop_time (" +
                              InaUnits::FormatTime(s.stopTimePs) + "): it would never happen");
        }
    }
}

void
Validate(const Scenario& s)
{
    if (!IsSafeName(s.name))
    {
        throw s.Error("name",
                      "the name is used as a folder name: letters, digits, '-', '_', '.' only, "
                      "got '" +
                          s.name + "'");
    }
    ValidateTopology(s);
    ValidateSwitch(s);
    ValidateJobs(s);
    ValidateTraffic(s);
    ValidateEvents(s);
    // Built-in topologies know their host count now; a topology file's is known to the runner.
    const uint32_t hosts = s.topology.GetHostCount();
    if (hosts > 0)
    {
        s.CheckHostIds(hosts);
    }
}

} // namespace

/// Larger than any scenario a person writes, small enough to read into memory at once.
constexpr uint64_t MAX_SCENARIO_BYTES = 16ULL << 20;

Scenario
ScenarioLoader::LoadString(const std::string& yamlText,
                           const std::string& sourceName,
                           const std::vector<std::string>& overrides)
{
    return Complete(ReadDocument(yamlText, sourceName), overrides);
}

Scenario
ScenarioLoader::ReadDocument(const std::string& yamlText, const std::string& sourceName)
{
    Scenario s;
    s.origins.source = sourceName;
    ApplyDocument(s, yamlText, sourceName);
    return s;
}

Scenario
ScenarioLoader::Complete(Scenario s, const std::vector<std::string>& overrides)
{
    for (const auto& o : overrides)
    {
        ApplyOverride(s, o);
    }
    FillDerivedDefaults(s);
    Validate(s);
    return s;
}

Scenario
ScenarioLoader::Load(const std::string& path, const std::vector<std::string>& overrides)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        // An ifstream opens a folder without complaint and reads nothing: all defaults, silently.
        throw ScenarioError(path, "", "is a folder, not a scenario file");
    }
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    {
        // A device or a pipe (/dev/zero) would be read forever.
        throw ScenarioError(path, "", "is not a regular file; expected a scenario file (.yaml)");
    }
    if (std::filesystem::is_regular_file(path, ec) &&
        std::filesystem::file_size(path, ec) > MAX_SCENARIO_BYTES)
    {
        throw ScenarioError(path,
                            "",
                            "is " + InaUnits::FormatBytes(std::filesystem::file_size(path, ec)) +
                                "; a scenario file is at most " +
                                InaUnits::FormatBytes(MAX_SCENARIO_BYTES) +
                                " (is this the right file?)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ScenarioError(path,
                            "",
                            std::string("cannot read the scenario file: ") + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw ScenarioError(path,
                            "",
                            std::string("cannot read the scenario file: ") + std::strerror(errno));
    }
    return LoadString(text.str(), path, overrides);
}

std::string
EffectiveConfigYaml(const Scenario& scenario)
{
    YAML::Emitter e;
    e.SetIndent(2);
    EmitSection(scenario, e, ScenarioRules());
    return std::string("# inasim effective configuration: every key after defaults and "
                       "overrides\n") +
           e.c_str() + "\n";
}

} // namespace ns3
