/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "sweep-expander.h"

#include "safe-name.h"
#include "scenario-loader.h"
#include "yaml-node-text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace ns3
{

namespace
{

/// Beyond this a sweep is almost surely a typo (a range with step 1 instead of mul 2).
constexpr uint64_t MAX_VALUES_PER_AXIS = 10000;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
/// Under the fuzzers only (test/fuzz/ defines the macro, libFuzzer's convention): each run is one
/// more pass of the same ScenarioLoader code over another value, and inputs that expanded to
/// thousands of runs held the sweep target to about 50 executions a second (2026-11-26), a day
/// for a million. The refusal beyond the bound is still exercised, at the lower number.
constexpr uint64_t MAX_RUNS = 64;
#else
constexpr uint64_t MAX_RUNS = 1000000;
#endif
/// Run ids name folders; keep them well below file-name limits and readable in a listing.
constexpr size_t MAX_ID_LENGTH = 96;
/// The keys a sweep file may have at its top level.
constexpr const char* SWEEP_KEYS = "name, base, repeats, axes, zip";

struct AxisValue
{
    std::string text;          ///< as written, for ids and tables
    std::string overrideValue; ///< YAML for KEY=VALUE (quoted where a plain scalar would misparse)
};

/// The keys of one dimension move together: one key for an axis, several for a zip group.
struct Dimension
{
    std::vector<std::string> keys;
    std::vector<std::string> wheres;            ///< per key: "FILE:LINE"
    std::vector<std::vector<AxisValue>> values; ///< per key: its list
    std::vector<std::string> labels;            ///< per key: "axes.KEY" or "zip.G.KEY"

    size_t Size() const
    {
        return values.empty() ? 0 : values.front().size();
    }
};

class SweepReader
{
  public:
    explicit SweepReader(const std::string& source)
        : m_source(source)
    {
    }

    std::string Where(const YAML::Node& n) const
    {
        return n.Mark().line >= 0 ? m_source + ":" + std::to_string(n.Mark().line + 1) : m_source;
    }

    const std::string& Source() const
    {
        return m_source;
    }

  private:
    std::string m_source;
};

std::string
FlowText(const YAML::Node& n)
{
    YAML::Emitter e;
    e << YAML::Flow << n;
    return e.c_str();
}

/// Map entries with their key nodes; duplicate keys are errors (YAML accepts them silently).
std::vector<std::pair<YAML::Node, YAML::Node>>
Entries(const YAML::Node& map, const SweepReader& r, const std::string& path)
{
    std::vector<std::pair<YAML::Node, YAML::Node>> out;
    std::set<std::string> seen;
    for (auto kv : map)
    {
        if (!kv.first.IsScalar())
        {
            throw ScenarioError(r.Where(kv.first), path, "keys must be plain names");
        }
        if (!seen.insert(kv.first.Scalar()).second)
        {
            throw ScenarioError(r.Where(kv.first),
                                path.empty() ? kv.first.Scalar() : path + "." + kv.first.Scalar(),
                                "duplicate key");
        }
        out.emplace_back(kv.first, kv.second);
    }
    return out;
}

/// "64" -> (64, ""), "10Gbps" -> (10, "Gbps"); false if not an integer with an optional unit.
bool
SplitNumber(const std::string& text, uint64_t* number, std::string* unit)
{
    size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        ++i;
    }
    if (i == 0 || i > 18)
    {
        return false;
    }
    *unit = text.substr(i);
    if (!std::all_of(unit->begin(), unit->end(), [](char c) {
            return std::isalpha(static_cast<unsigned char>(c));
        }))
    {
        return false;
    }
    std::from_chars(text.data(), text.data() + i, *number);
    return true;
}

/// The keys of a range mapping; a default YAML::Node is a defined null, so presence is kept apart.
struct RangeKeys
{
    YAML::Node range;
    YAML::Node step;
    YAML::Node mul;
    bool hasRange = false;
    bool hasStep = false;
    bool hasMul = false;
};

/// The keys of the range mapping `node`; any other key is an error.
RangeKeys
ReadRangeKeys(const YAML::Node& node, const SweepReader& r, const std::string& label)
{
    RangeKeys keys;
    for (auto& [k, v] : Entries(node, r, label))
    {
        const std::string key = k.Scalar();
        if (key == "range")
        {
            keys.range.reset(v);
            keys.hasRange = true;
        }
        else if (key == "step")
        {
            keys.step.reset(v);
            keys.hasStep = true;
        }
        else if (key == "mul")
        {
            keys.mul.reset(v);
            keys.hasMul = true;
        }
        else
        {
            throw ScenarioError(r.Where(k),
                                label,
                                "unknown key '" + key +
                                    "' in a range; valid keys here: range, step, mul");
        }
    }
    return keys;
}

/// lo, lo x mul, ... up to hi (one value past MAX_VALUES_PER_AXIS at most).
std::vector<uint64_t>
MulNumbers(const YAML::Node& mul,
           uint64_t lo,
           uint64_t hi,
           const SweepReader& r,
           const std::string& label)
{
    uint64_t factor = 0;
    std::string mulUnit;
    if (!mul.IsScalar() || !SplitNumber(mul.Scalar(), &factor, &mulUnit) || !mulUnit.empty() ||
        factor < 2 || lo == 0)
    {
        throw ScenarioError(r.Where(mul),
                            label,
                            "mul needs a whole factor >= 2 and a range starting above 0, got " +
                                DescribeYamlNode(mul));
    }
    std::vector<uint64_t> numbers;
    for (uint64_t x = lo; x <= hi && numbers.size() <= MAX_VALUES_PER_AXIS; x *= factor)
    {
        numbers.push_back(x);
        if (x > hi / factor)
        {
            break;
        }
    }
    return numbers;
}

/// lo, lo + step, ... up to hi (step 1 if the range has none; one value past
/// MAX_VALUES_PER_AXIS at most).
std::vector<uint64_t>
StepNumbers(const RangeKeys& keys,
            uint64_t lo,
            uint64_t hi,
            const std::string& unit,
            const SweepReader& r,
            const std::string& label)
{
    uint64_t delta = 1;
    if (keys.hasStep)
    {
        std::string stepUnit;
        if (!keys.step.IsScalar() || !SplitNumber(keys.step.Scalar(), &delta, &stepUnit) ||
            (!stepUnit.empty() && stepUnit != unit) || delta == 0)
        {
            throw ScenarioError(r.Where(keys.step),
                                label,
                                "step needs a whole number > 0 in the range's unit, got " +
                                    DescribeYamlNode(keys.step));
        }
    }
    std::vector<uint64_t> numbers;
    for (uint64_t x = lo; x <= hi && numbers.size() <= MAX_VALUES_PER_AXIS; x += delta)
    {
        numbers.push_back(x);
        if (hi - x < delta)
        {
            break;
        }
    }
    return numbers;
}

std::vector<AxisValue>
ReadRange(const YAML::Node& node, const SweepReader& r, const std::string& label)
{
    const RangeKeys keys = ReadRangeKeys(node, r, label);
    const YAML::Node& range = keys.range;
    const std::string form = "a range like {range: [4, 64], mul: 2} or {range: [10Gbps, 40Gbps], "
                             "step: 10Gbps}";
    if (!keys.hasRange || !range.IsSequence() || range.size() != 2 || !range[0].IsScalar() ||
        !range[1].IsScalar())
    {
        throw ScenarioError(r.Where(node), label, "expected " + form);
    }
    if (keys.hasStep && keys.hasMul)
    {
        throw ScenarioError(r.Where(node), label, "give step or mul, not both");
    }
    uint64_t lo = 0;
    uint64_t hi = 0;
    std::string unit;
    std::string hiUnit;
    if (!SplitNumber(range[0].Scalar(), &lo, &unit) ||
        !SplitNumber(range[1].Scalar(), &hi, &hiUnit) || unit != hiUnit)
    {
        throw ScenarioError(r.Where(range),
                            label,
                            "range ends must be whole numbers with the same unit (if any), like "
                            "[4, 64] or [10Gbps, 40Gbps], got " +
                                FlowText(range));
    }
    if (lo > hi)
    {
        throw ScenarioError(r.Where(range), label, "the range goes down: " + FlowText(range));
    }
    const std::vector<uint64_t> numbers = keys.hasMul ? MulNumbers(keys.mul, lo, hi, r, label)
                                                      : StepNumbers(keys, lo, hi, unit, r, label);
    if (numbers.size() > MAX_VALUES_PER_AXIS)
    {
        throw ScenarioError(r.Where(node),
                            label,
                            "the range has more than " + std::to_string(MAX_VALUES_PER_AXIS) +
                                " values");
    }
    std::vector<AxisValue> out;
    for (uint64_t x : numbers)
    {
        const std::string text = std::to_string(x) + unit;
        out.push_back(AxisValue{text, text});
    }
    return out;
}

std::vector<AxisValue>
ReadAxisValues(const YAML::Node& node, const SweepReader& r, const std::string& label)
{
    if (node.IsMap())
    {
        return ReadRange(node, r, label);
    }
    if (!node.IsSequence() || node.size() == 0)
    {
        throw ScenarioError(r.Where(node),
                            label,
                            "expected a non-empty list of values or a range like {range: [4, 64], "
                            "mul: 2}, got " +
                                DescribeYamlNode(node));
    }
    std::vector<AxisValue> out;
    for (size_t i = 0; i < node.size(); ++i)
    {
        const YAML::Node v = node[i];
        const std::string flow = FlowText(v);
        out.push_back(AxisValue{v.IsScalar() ? v.Scalar() : flow, flow});
    }
    return out;
}

std::string
IdPart(const std::string& s)
{
    std::string out;
    for (char c : s)
    {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+')
        {
            out += c;
        }
        else if (!out.empty() && out.back() != '_')
        {
            out += '_';
        }
    }
    while (!out.empty() && out.back() == '_')
    {
        out.pop_back();
    }
    return out.empty() ? "_" : out;
}

/// The shortest trailing part of each dotted key that tells it apart from the others
/// (jobs.0.workers and jobs.1.workers become 0.workers and 1.workers; alone, just workers).
std::vector<std::string>
ShortNames(const std::vector<std::string>& keys)
{
    std::vector<std::vector<std::string>> parts;
    for (const auto& key : keys)
    {
        std::vector<std::string> p;
        std::istringstream in(key);
        std::string part;
        while (std::getline(in, part, '.'))
        {
            p.push_back(part);
        }
        parts.push_back(p);
    }
    auto tail = [&parts](size_t k, size_t n) {
        const auto& p = parts[k];
        std::string out;
        for (size_t i = p.size() - std::min(n, p.size()); i < p.size(); ++i)
        {
            out += (out.empty() ? "" : ".") + p[i];
        }
        return out;
    };
    std::vector<std::string> out;
    for (size_t k = 0; k < keys.size(); ++k)
    {
        size_t n = 1;
        while (n < parts[k].size())
        {
            bool unique = true;
            for (size_t o = 0; o < keys.size(); ++o)
            {
                unique = unique && (o == k || tail(o, n) != tail(k, n));
            }
            if (unique)
            {
                break;
            }
            ++n;
        }
        out.push_back(tail(k, n));
    }
    return out;
}

std::string
ReadText(const std::string& path, const std::string& what, const std::string& where)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
    {
        throw ScenarioError(where, "", "cannot read " + what + " '" + path + "': it is a folder");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ScenarioError(where,
                            "",
                            "cannot read " + what + " '" + path + "': " + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw ScenarioError(where,
                            "",
                            "cannot read " + what + " '" + path + "': " + std::strerror(errno));
    }
    return text.str();
}

/// The sections of a sweep file, read and checked at the top level.
struct SweepSections
{
    YAML::Node base;
    YAML::Node axes;
    YAML::Node zip;
    bool hasBase = false;
};

/// Parse a sweep file's text and check that its top level is a section.
YAML::Node
ParseSweep(const std::string& yamlText, const std::string& sourceName, const SweepReader& r)
{
    YAML::Node root;
    try
    {
        root = YAML::Load(yamlText);
    }
    catch (const YAML::Exception& e)
    {
        const std::string where =
            e.mark.line >= 0 ? sourceName + ":" + std::to_string(e.mark.line + 1) : sourceName;
        throw ScenarioError(where, "", "not valid YAML: " + e.msg);
    }
    if (!root.IsMap())
    {
        throw ScenarioError(r.Where(root),
                            "",
                            "expected a sweep: a section with keys (" + std::string(SWEEP_KEYS) +
                                "), got " + DescribeYamlNode(root));
    }

    return root;
}

/// Read the top-level keys into `plan` (name, repeats) and `sections` (base, axes, zip).
void
ReadTopLevel(const YAML::Node& root, const SweepReader& r, SweepPlan& plan, SweepSections& sections)
{
    for (auto& [k, v] : Entries(root, r, ""))
    {
        const std::string key = k.Scalar();
        if (key == "name")
        {
            if (!v.IsScalar() || !IsSafeName(v.Scalar()))
            {
                throw ScenarioError(r.Where(k),
                                    key,
                                    "the name is used as a folder name: letters, digits, '-', '_', "
                                    "'.' only, got " +
                                        DescribeYamlNode(v));
            }
            plan.name = v.Scalar();
        }
        else if (key == "base")
        {
            sections.base.reset(v);
            sections.hasBase = true;
        }
        else if (key == "repeats")
        {
            uint64_t n = 0;
            std::string unit;
            if (!v.IsScalar() || !SplitNumber(v.Scalar(), &n, &unit) || !unit.empty() || n < 1 ||
                n > MAX_VALUES_PER_AXIS)
            {
                throw ScenarioError(r.Where(k),
                                    key,
                                    "expected an integer from 1 to " +
                                        std::to_string(MAX_VALUES_PER_AXIS) + ", got " +
                                        DescribeYamlNode(v));
            }
            plan.repeats = static_cast<uint32_t>(n);
        }
        else if (key == "axes")
        {
            sections.axes.reset(v);
        }
        else if (key == "zip")
        {
            sections.zip.reset(v);
        }
        else
        {
            throw ScenarioError(r.Where(k),
                                key,
                                "unknown key; valid keys here: " + std::string(SWEEP_KEYS));
        }
    }
    if (!IsSafeName(plan.name))
    {
        plan.name = "sweep";
    }
}

/// Throws unless the lists of zip group `d` (the node `group`, `label`) have one length: they
/// move together.
void
CheckZipLengths(const Dimension& d,
                const SweepReader& r,
                const YAML::Node& group,
                const std::string& label)
{
    for (size_t i = 1; i < d.keys.size(); ++i)
    {
        if (d.values[i].size() != d.values[0].size())
        {
            std::string sizes;
            for (size_t j = 0; j < d.keys.size(); ++j)
            {
                sizes += (j ? ", " : "") + d.keys[j] + ": " + std::to_string(d.values[j].size()) +
                         " values";
            }
            throw ScenarioError(r.Where(group),
                                label,
                                "the lists of a zip group move together and need the same "
                                "length, got " +
                                    sizes);
        }
    }
}

/// The swept dimensions: one per axis, one per zip group; `keyWhere` maps each key to its place.
std::vector<Dimension>
ReadDimensions(const SweepSections& sections,
               const SweepReader& r,
               std::map<std::string, std::string>& keyWhere)
{
    std::vector<Dimension> dims;
    auto addKey = [&](Dimension& d,
                      const YAML::Node& keyNode,
                      const YAML::Node& valueNode,
                      const std::string& label) {
        const std::string key = keyNode.Scalar();
        auto [pos, fresh] = keyWhere.emplace(key, r.Where(keyNode));
        if (!fresh)
        {
            throw ScenarioError(r.Where(keyNode),
                                label,
                                "key '" + key + "' is already swept (" + pos->second + ")");
        }
        d.keys.push_back(key);
        d.wheres.push_back(r.Where(keyNode));
        d.labels.push_back(label);
        d.values.push_back(ReadAxisValues(valueNode, r, label));
    };
    if (!sections.axes.IsNull())
    {
        if (!sections.axes.IsMap())
        {
            throw ScenarioError(r.Where(sections.axes),
                                "axes",
                                "expected a section KEY: [values], got " +
                                    DescribeYamlNode(sections.axes));
        }
        for (auto& [k, v] : Entries(sections.axes, r, "axes"))
        {
            Dimension d;
            addKey(d, k, v, "axes." + k.Scalar());
            dims.push_back(std::move(d));
        }
    }
    if (!sections.zip.IsNull())
    {
        if (!sections.zip.IsSequence())
        {
            throw ScenarioError(r.Where(sections.zip),
                                "zip",
                                "expected a list of groups like - {KEY: [values], KEY2: [values]}, "
                                "got " +
                                    DescribeYamlNode(sections.zip));
        }
        for (size_t g = 0; g < sections.zip.size(); ++g)
        {
            const YAML::Node group = sections.zip[g];
            const std::string groupLabel = "zip." + std::to_string(g);
            if (!group.IsMap() || group.size() == 0)
            {
                throw ScenarioError(r.Where(group),
                                    groupLabel,
                                    "expected a group {KEY: [values], KEY2: [values]}, got " +
                                        DescribeYamlNode(group));
            }
            Dimension d;
            for (auto& [k, v] : Entries(group, r, groupLabel))
            {
                addKey(d, k, v, groupLabel + "." + k.Scalar());
            }
            CheckZipLengths(d, r, group, groupLabel);
            dims.push_back(std::move(d));
        }
    }
    return dims;
}

/// Everything a run's id and overrides are made from, the same for every run of a sweep.
struct RunTemplate
{
    const SweepPlan& plan;
    const std::vector<Dimension>& dims;
    std::vector<std::string> shortNames;
    size_t width;
    bool seedSwept;
    const Scenario& baseDocument; //!< the base file read once (ScenarioLoader::ReadDocument)
    const std::string& sourceName;
};

/// A run's folder name: its number and values, its seed when repeated, within MAX_ID_LENGTH.
std::string
MakeRunId(std::string id, uint64_t seed, uint32_t repeats)
{
    if (repeats > 1)
    {
        id += "-seed=" + std::to_string(seed);
    }
    if (id.size() > MAX_ID_LENGTH)
    {
        id.resize(MAX_ID_LENGTH);
        while (!id.empty() && (id.back() == '-' || id.back() == '=' || id.back() == '_'))
        {
            id.pop_back();
        }
    }
    return id;
}

/// Run `i` of the sweep: its pick of every dimension, id, overrides and seed (checked by loading).
SweepRun
MakeRun(const RunTemplate& t, uint64_t i)
{
    const SweepPlan& plan = t.plan;
    const std::vector<Dimension>& dims = t.dims;
    const std::vector<std::string>& shortNames = t.shortNames;
    const size_t width = t.width;
    SweepRun run;
    run.index = static_cast<uint32_t>(i);
    run.repeat = static_cast<uint32_t>(i % plan.repeats);
    std::vector<size_t> pick(dims.size());
    uint64_t rest = i / plan.repeats;
    for (size_t d = dims.size(); d-- > 0;)
    {
        pick[d] = rest % dims[d].Size();
        rest /= dims[d].Size();
    }
    std::string number = std::to_string(i);
    std::string id = "r" + std::string(width - number.size(), '0') + number;
    std::map<std::string, std::pair<std::string, std::string>> overrideOrigin;
    size_t nameIndex = 0;
    for (size_t d = 0; d < dims.size(); ++d)
    {
        for (size_t k = 0; k < dims[d].keys.size(); ++k, ++nameIndex)
        {
            const AxisValue& v = dims[d].values[k][pick[d]];
            const std::string o = dims[d].keys[k] + "=" + v.overrideValue;
            run.values.emplace_back(dims[d].keys[k], v.text);
            run.overrides.push_back(o);
            overrideOrigin["override '" + o + "'"] = {dims[d].wheres[k], dims[d].labels[k]};
            id += "-" + IdPart(shortNames[nameIndex]) + "=" + IdPart(v.text);
        }
    }
    if (!t.seedSwept)
    {
        run.overrides.push_back("seed=" + std::to_string(plan.baseSeed + run.repeat));
    }
    if (run.repeat > 0 && plan.baseSeed + run.repeat > plan.baseSeed)
    {
        // Repeats are innermost: repeat 0 of these same values was checked just before, and
        // the seed is all that differs. Loading every repeat again made a sweep's expansion
        // cost (repeats x runs) loads: seconds for a mistyped `repeats: 10000`.
        run.seed = plan.baseSeed + run.repeat;
        run.id = MakeRunId(id, run.seed, plan.repeats);
        return run;
    }
    Scenario loaded;
    try
    {
        loaded = ScenarioLoader::Complete(t.baseDocument, run.overrides);
    }
    catch (const ScenarioError& e)
    {
        auto origin = overrideOrigin.find(e.GetWhere());
        if (origin != overrideOrigin.end())
        {
            throw ScenarioError(origin->second.first,
                                origin->second.second,
                                "run " + id + ": " + e.what());
        }
        std::string all;
        for (const auto& o : run.overrides)
        {
            all += (all.empty() ? "" : " ") + o;
        }
        throw ScenarioError(t.sourceName, "", "run " + id + " (" + all + "): " + e.what());
    }
    run.seed = loaded.seed;
    run.id = MakeRunId(id, run.seed, plan.repeats);
    return run;
}

} // namespace

nlohmann::ordered_json
SweepPlan::ToJson() const
{
    nlohmann::ordered_json j;
    j["name"] = name;
    j["sweep_file"] = sweepFile;
    j["base"] = baseFile;
    j["repeats"] = repeats;
    j["base_seed"] = baseSeed;
    j["axes"] = axisKeys;
    j["runs"] = nlohmann::ordered_json::array();
    for (const auto& run : runs)
    {
        nlohmann::ordered_json rj;
        rj["id"] = run.id;
        rj["index"] = run.index;
        rj["repeat"] = run.repeat;
        rj["seed"] = run.seed;
        rj["values"] = nlohmann::ordered_json::object();
        for (const auto& [k, v] : run.values)
        {
            rj["values"][k] = v;
        }
        rj["overrides"] = run.overrides;
        j["runs"].push_back(std::move(rj));
    }
    return j;
}

SweepPlan
SweepExpander::Expand(const std::string& sweepPath)
{
    return ExpandString(ReadText(sweepPath, "the sweep file", sweepPath), sweepPath);
}

SweepPlan
SweepExpander::ExpandString(const std::string& yamlText, const std::string& sourceName)
{
    namespace fs = std::filesystem;
    SweepReader r(sourceName);
    const YAML::Node root = ParseSweep(yamlText, sourceName, r);
    SweepPlan plan;
    plan.sweepFile = sourceName;
    plan.name = fs::path(sourceName).stem().string();
    SweepSections sections;
    ReadTopLevel(root, r, plan, sections);
    const YAML::Node& base = sections.base;
    const bool hasBase = sections.hasBase;
    if (!hasBase || !base.IsScalar() || base.Scalar().empty())
    {
        throw ScenarioError(hasBase ? r.Where(base) : sourceName,
                            "base",
                            "a sweep needs base: the scenario file to vary, relative to the sweep "
                            "file");
    }
    fs::path basePath(base.Scalar());
    const fs::path sweepDir = fs::path(sourceName).parent_path();
    if (basePath.is_relative() && !sweepDir.empty())
    {
        basePath = sweepDir / basePath;
    }
    plan.baseFile = basePath.lexically_normal().string();
    const std::string baseText = ReadText(plan.baseFile, "the base scenario", r.Where(base));
    const Scenario baseDocument = ScenarioLoader::ReadDocument(baseText, plan.baseFile);
    const Scenario baseScenario = ScenarioLoader::Complete(baseDocument, {});
    plan.baseSeed = baseScenario.seed;

    std::map<std::string, std::string> keyWhere;
    const std::vector<Dimension> dims = ReadDimensions(sections, r, keyWhere);
    if (keyWhere.count("seed") && plan.repeats > 1)
    {
        throw ScenarioError(keyWhere["seed"],
                            "seed",
                            "seed is swept and repeats is " + std::to_string(plan.repeats) +
                                ": use one or the other");
    }

    uint64_t total = plan.repeats;
    for (const auto& d : dims)
    {
        total *= d.Size();
        if (total > MAX_RUNS)
        {
            throw ScenarioError(sourceName,
                                "",
                                "the sweep has more than " + std::to_string(MAX_RUNS) + " runs");
        }
    }

    std::vector<std::string> allKeys;
    for (const auto& d : dims)
    {
        allKeys.insert(allKeys.end(), d.keys.begin(), d.keys.end());
    }
    plan.axisKeys = allKeys;
    const std::vector<std::string> shortNames = ShortNames(allKeys);
    const size_t width = std::max<size_t>(4, std::to_string(total == 0 ? 0 : total - 1).size());

    const RunTemplate
        t{plan, dims, shortNames, width, keyWhere.count("seed") > 0, baseDocument, sourceName};
    for (uint64_t i = 0; i < total; ++i)
    {
        plan.runs.push_back(MakeRun(t, i));
    }
    return plan;
}

} // namespace ns3
