/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "model-zoo.h"

#include "ina-units.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

namespace ns3
{

namespace
{

/// Builds "FILE:LINE: context: message" errors.
class ErrorSite
{
  public:
    ErrorSite(const std::string& file, std::string context)
        : m_file(file)
        , m_context(std::move(context))
    {
    }

    [[noreturn]] void Fail(const YAML::Mark& mark, const std::string& message) const
    {
        std::ostringstream os;
        os << m_file;
        if (mark.line >= 0)
        {
            os << ":" << (mark.line + 1);
        }
        os << ": " << m_context << (m_context.empty() ? "" : ": ") << message;
        throw std::runtime_error(os.str());
    }

  private:
    const std::string& m_file;
    std::string m_context;
};

/**
 * The fields of one YAML mapping, checked against the allowed names: unknown and duplicate keys
 * are errors (yaml-cpp would otherwise keep the first of two equal keys without a word).
 */
class Fields
{
  public:
    Fields(const YAML::Node& map,
           const ErrorSite& site,
           const std::vector<std::string>& allowed,
           const YAML::Mark& where,
           const std::string& what)
        : m_site(site)
        , m_mark(map.IsDefined() ? map.Mark() : where)
    {
        if (!map.IsMap())
        {
            m_site.Fail(m_mark, "expected " + what + " (a mapping with " + Join(allowed) + ")");
        }
        for (auto it = map.begin(); it != map.end(); ++it)
        {
            // copies: the iterator hands out temporaries
            YAML::Node key = it->first;
            YAML::Node value = it->second;
            if (!key.IsScalar())
            {
                m_site.Fail(key.Mark(), "field names must be plain strings");
            }
            std::string name = key.Scalar();
            bool known = false;
            for (const auto& a : allowed)
            {
                known = known || (a == name);
            }
            if (!known)
            {
                m_site.Fail(key.Mark(),
                            "unknown field '" + name + "' (expected " + Join(allowed) + ")");
            }
            if (m_fields.count(name) != 0)
            {
                m_site.Fail(key.Mark(),
                            "duplicate field '" + name + "' (first at line " +
                                std::to_string(m_fields.at(name).first.line + 1) + ")");
            }
            m_fields.emplace(name, std::make_pair(key.Mark(), value));
        }
    }

    /// \return the value of a required field; a missing or empty one is an error
    const YAML::Node& Required(const std::string& name) const
    {
        auto it = m_fields.find(name);
        if (it == m_fields.end())
        {
            m_site.Fail(m_mark, "missing field '" + name + "'");
        }
        if (it->second.second.IsNull())
        {
            m_site.Fail(it->second.first, "field '" + name + "' has no value");
        }
        return it->second.second;
    }

    /// \return the line of a field's key (for errors about its value)
    YAML::Mark MarkOf(const std::string& name) const
    {
        return m_fields.at(name).first;
    }

    std::string Scalar(const std::string& name) const
    {
        const YAML::Node& n = Required(name);
        if (!n.IsScalar())
        {
            m_site.Fail(MarkOf(name), "field '" + name + "' must be a single value");
        }
        return n.Scalar();
    }

    std::string NonEmptyString(const std::string& name) const
    {
        std::string s = Scalar(name);
        if (s.find_first_not_of(" \t") == std::string::npos)
        {
            m_site.Fail(MarkOf(name), "field '" + name + "' is empty");
        }
        return s;
    }

    uint64_t PositiveInteger(const std::string& name) const
    {
        std::string s = Scalar(name);
        bool ok = !s.empty() && s.size() <= 18 && s.find_first_not_of("0123456789") == s.npos;
        uint64_t v = ok ? std::stoull(s) : 0;
        if (v == 0)
        {
            m_site.Fail(MarkOf(name),
                        "bad value '" + s + "' for '" + name + "': expected a positive integer");
        }
        return v;
    }

    int64_t Time(const std::string& name) const
    {
        std::string s = Scalar(name);
        try
        {
            return InaUnits::ParseTime(s);
        }
        catch (const std::invalid_argument& e)
        {
            m_site.Fail(MarkOf(name), "'" + name + "': " + e.what());
        }
    }

    uint64_t Bytes(const std::string& name) const
    {
        std::string s = Scalar(name);
        try
        {
            return InaUnits::ParseBytes(s);
        }
        catch (const std::invalid_argument& e)
        {
            m_site.Fail(MarkOf(name), "'" + name + "': " + e.what());
        }
    }

  private:
    static std::string Join(const std::vector<std::string>& names)
    {
        std::string out;
        for (size_t i = 0; i < names.size(); ++i)
        {
            out += (i == 0 ? "" : ", ") + names[i];
        }
        return out;
    }

    const ErrorSite& m_site;
    YAML::Mark m_mark;
    std::map<std::string, std::pair<YAML::Mark, YAML::Node>> m_fields;
};

const std::vector<std::string> kModelFields = {"name",
                                               "description",
                                               "gpu",
                                               "batch_size",
                                               "params",
                                               "iteration_compute",
                                               "sources",
                                               "timing",
                                               "layers"};
const std::vector<std::string> kLayerFields = {"name", "gradient", "forward", "backward"};

/// Relative location of the zoo in a source tree, and in an ns-3 tree as a contrib module.
const char* const kRelativePaths[] = {"src/ina-training/data/model-zoo.yaml",
                                      "contrib/ina-training/data/model-zoo.yaml"};

bool
IsFile(const std::filesystem::path& p)
{
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
}

/// \return the first zoo file found in dir or one of its parents, or an empty path
std::filesystem::path
FindUpwards(std::filesystem::path dir)
{
    while (!dir.empty())
    {
        for (const char* rel : kRelativePaths)
        {
            if (IsFile(dir / rel))
            {
                return dir / rel;
            }
        }
        if (dir == dir.parent_path())
        {
            break;
        }
        dir = dir.parent_path();
    }
    return {};
}

/// A model's citations ('sources': a non-empty list of non-empty strings).
void
ReadSources(const Fields& f, const ErrorSite& site, ModelSpec* spec)
{
    const YAML::Node& sources = f.Required("sources");
    if (!sources.IsSequence() || sources.size() == 0)
    {
        site.Fail(f.MarkOf("sources"), "'sources' must be a non-empty list of citations");
    }
    for (const auto& s : sources)
    {
        if (!s.IsScalar() || s.Scalar().find_first_not_of(" \t") == std::string::npos)
        {
            site.Fail(s.Mark(), "every entry of 'sources' must be a non-empty string");
        }
        spec->sources.push_back(s.Scalar());
    }
}

/// A model's layers ('layers'), each with a name of its own and a positive gradient; errors name
/// the model (`label`) and the layer.
void
ReadLayers(const Fields& f,
           const ErrorSite& site,
           const std::string& path,
           const std::string& label,
           ModelSpec* spec)
{
    const YAML::Node& layers = f.Required("layers");
    if (!layers.IsSequence() || layers.size() == 0)
    {
        site.Fail(f.MarkOf("layers"), "'layers' must be a non-empty list of layers");
    }
    std::set<std::string> layerNames;
    for (size_t li = 0; li < layers.size(); ++li)
    {
        const YAML::Node& l = layers[li];
        std::string where = label + " layer " + std::to_string(li);
        if (l.IsMap() && l["name"] && l["name"].IsScalar())
        {
            where += " ('" + l["name"].Scalar() + "')";
        }
        ErrorSite lsite(path, where);
        Fields lf(l, lsite, kLayerFields, layers.Mark(), "a layer");
        LayerSpec layer;
        layer.name = lf.NonEmptyString("name");
        if (!layerNames.insert(layer.name).second)
        {
            lsite.Fail(lf.MarkOf("name"), "duplicate layer name in this model");
        }
        layer.gradientBytes = lf.Bytes("gradient");
        if (layer.gradientBytes == 0)
        {
            lsite.Fail(lf.MarkOf("gradient"),
                       "'gradient' must be positive (list only layers with parameters)");
        }
        layer.forwardPs = lf.Time("forward");
        layer.backwardPs = lf.Time("backward");
        spec->layers.push_back(layer);
    }
}

/// The model's stated totals (params, iteration_compute) against its layers': they guard against
/// a layer lost or mistyped when the file is edited.
void
CheckTotals(const Fields& f, const ErrorSite& site, const ModelSpec& spec)
{
    if (spec.TotalBytes() != 4 * spec.params)
    {
        site.Fail(f.MarkOf("params"),
                  "the layers' gradients add up to " + std::to_string(spec.TotalBytes()) +
                      " bytes, but params " + std::to_string(spec.params) + " means " +
                      std::to_string(4 * spec.params) + " bytes (4 per fp32 parameter)");
    }
    int64_t compute = spec.ForwardPs() + spec.BackwardPs();
    if (compute != spec.iterationComputePs)
    {
        site.Fail(f.MarkOf("iteration_compute"),
                  "the layers' forward + backward times add up to " + std::to_string(compute) +
                      " ps, but iteration_compute is " + std::to_string(spec.iterationComputePs) +
                      " ps");
    }
}

/// The sum of one field of every layer.
template<typename T>
T
SumOverLayers(const std::vector<LayerSpec>& layers, T LayerSpec::*field)
{
    T sum = 0;
    for (const auto& l : layers)
    {
        sum += l.*field;
    }
    return sum;
}

} // namespace

uint64_t
ModelSpec::TotalBytes() const
{
    return SumOverLayers(layers, &LayerSpec::gradientBytes);
}

int64_t
ModelSpec::ForwardPs() const
{
    return SumOverLayers(layers, &LayerSpec::forwardPs);
}

int64_t
ModelSpec::BackwardPs() const
{
    return SumOverLayers(layers, &LayerSpec::backwardPs);
}

ModelZoo::ModelZoo(const std::string& path)
    : m_path(path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot open the model zoo file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw std::runtime_error(path + ": cannot read the model zoo file");
    }
    Parse(text.str());
}

ModelZoo
ModelZoo::FromString(const std::string& yamlText, const std::string& fileName)
{
    ModelZoo zoo;
    zoo.m_path = fileName;
    zoo.Parse(yamlText);
    return zoo;
}

void
ModelZoo::Parse(const std::string& yamlText)
{
    ErrorSite top(m_path, "");
    YAML::Node root;
    try
    {
        root = YAML::Load(yamlText);
    }
    catch (const YAML::Exception& e)
    {
        top.Fail(e.mark, "YAML syntax error: " + e.msg);
    }
    YAML::Mark start;
    start.line = 0;
    Fields rootFields(root, top, {"models"}, start, "a model zoo");
    const YAML::Node& models = rootFields.Required("models");
    if (!models.IsSequence() || models.size() == 0)
    {
        top.Fail(rootFields.MarkOf("models"), "'models' must be a non-empty list of models");
    }

    std::map<std::string, int> firstLine;
    for (size_t mi = 0; mi < models.size(); ++mi)
    {
        const YAML::Node& m = models[mi];
        // The name goes into every later message, so read it before the other fields.
        std::string label = "model " + std::to_string(mi);
        if (m.IsMap() && m["name"] && m["name"].IsScalar())
        {
            label = "model '" + m["name"].Scalar() + "'";
        }
        ErrorSite site(m_path, label);
        Fields f(m, site, kModelFields, models.Mark(), "a model");

        ModelSpec spec;
        spec.name = f.NonEmptyString("name");
        if (spec.name.find_first_of(" \t") != std::string::npos)
        {
            site.Fail(f.MarkOf("name"), "model names must not contain spaces");
        }
        auto dup = firstLine.find(spec.name);
        if (dup != firstLine.end())
        {
            site.Fail(f.MarkOf("name"),
                      "duplicate model name (first defined at line " + std::to_string(dup->second) +
                          ")");
        }
        firstLine[spec.name] = f.MarkOf("name").line + 1;
        spec.description = f.NonEmptyString("description");
        spec.gpu = f.NonEmptyString("gpu");
        uint64_t batch = f.PositiveInteger("batch_size");
        if (batch > UINT32_MAX)
        {
            site.Fail(f.MarkOf("batch_size"), "batch_size is too large");
        }
        spec.batchSize = static_cast<uint32_t>(batch);
        spec.params = f.PositiveInteger("params");
        spec.iterationComputePs = f.Time("iteration_compute");
        spec.timing = f.NonEmptyString("timing");

        ReadSources(f, site, &spec);
        ReadLayers(f, site, m_path, label, &spec);
        CheckTotals(f, site, spec);
        m_models.push_back(std::move(spec));
    }
}

std::string
ModelZoo::DefaultPath()
{
    const char* env = std::getenv("INASIM_MODEL_ZOO");
    if (env != nullptr && *env != '\0')
    {
        if (!IsFile(env))
        {
            throw std::runtime_error(std::string("INASIM_MODEL_ZOO is set to '") + env +
                                     "', which is not a file");
        }
        return env;
    }
    std::string searched;
    std::error_code ec;
    std::filesystem::path cwd = std::filesystem::current_path(ec);
    if (!ec)
    {
        std::filesystem::path found = FindUpwards(cwd);
        if (!found.empty())
        {
            return found.string();
        }
        searched += "the working directory " + cwd.string() + " and its parents; ";
    }
    std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
    {
        std::filesystem::path found = FindUpwards(exe.parent_path());
        if (!found.empty())
        {
            return found.string();
        }
        searched +=
            "the executable's directory " + exe.parent_path().string() + " and its parents; ";
    }
#ifdef INASIM_TRAINING_DATA_DIR
    std::filesystem::path built =
        std::filesystem::path(INASIM_TRAINING_DATA_DIR) / "model-zoo.yaml";
    if (IsFile(built))
    {
        return built.string();
    }
    searched += built.string() + "; ";
#endif
    throw std::runtime_error("model zoo not found: set INASIM_MODEL_ZOO to the file, or run from "
                             "the source tree (searched " +
                             searched + "for " + kRelativePaths[0] + ")");
}

const ModelZoo&
ModelZoo::Default()
{
    static std::mutex mutex;
    static std::unique_ptr<ModelZoo> zoo;
    std::lock_guard<std::mutex> lock(mutex);
    if (!zoo)
    {
        zoo = std::make_unique<ModelZoo>(DefaultPath());
    }
    return *zoo;
}

ModelSpec
ModelZoo::TensorWorkload(uint64_t bytes)
{
    if (bytes == 0)
    {
        throw std::invalid_argument("tensor_bytes must be positive");
    }
    ModelSpec spec;
    spec.name = "tensor";
    spec.description =
        "tensor_bytes micro-benchmark: one " + std::to_string(bytes) + "-byte tensor, no compute";
    spec.gpu = "none";
    spec.sources = {"synthetic"};
    spec.timing = "no compute";
    spec.layers.push_back(LayerSpec{"tensor", bytes, 0, 0});
    return spec;
}

const ModelSpec&
ModelZoo::Get(const std::string& name) const
{
    for (const auto& m : m_models)
    {
        if (m.name == name)
        {
            return m;
        }
    }
    std::string known;
    for (const auto& m : m_models)
    {
        known += (known.empty() ? "" : ", ") + m.name;
    }
    throw std::runtime_error("unknown model '" + name + "' (the model zoo " + m_path +
                             " has: " + known + ")");
}

bool
ModelZoo::Has(const std::string& name) const
{
    for (const auto& m : m_models)
    {
        if (m.name == name)
        {
            return true;
        }
    }
    return false;
}

std::vector<std::string>
ModelZoo::Names() const
{
    std::vector<std::string> names;
    for (const auto& m : m_models)
    {
        names.push_back(m.name);
    }
    return names;
}

const std::string&
ModelZoo::GetPath() const
{
    return m_path;
}

} // namespace ns3
