/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/model-zoo.h"

#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const std::string kZooPath =
    std::string(INASIM_SOURCE_DIR) + "/src/ina-training/data/model-zoo.yaml";

/// \return the message of the std::runtime_error that f throws ("" if it throws none)
template<class F>
std::string
ErrorOf(F f)
{
    return ns3::tests::ErrorOf<std::runtime_error>(f);
}

std::string
ZooError(const std::string& text)
{
    return ErrorOf([&] {
        ModelZoo::FromString(text, "zoo.yaml");
    });
}

/// A valid one-model zoo; tests break one thing in it at a time. Line numbers matter below.
const std::string kGoodZoo =
    "models:\n"                      // 1
    "  - name: tiny\n"               // 2
    "    description: two layers\n"  // 3
    "    gpu: V100\n"                // 4
    "    batch_size: 8\n"            // 5
    "    params: 1000250\n"          // 6
    "    iteration_compute: 1.5ms\n" // 7
    "    sources: [hand-made]\n"     // 8
    "    timing: by hand\n"          // 9
    "    layers:\n"                  // 10
    "      - {name: a, gradient: 1000B, forward: 0.25ms, backward: 0.5ms}\n"
    "      - {name: b, gradient: 4MB, forward: 250us, backward: 500000ns}\n";

std::string
Replace(std::string text, const std::string& from, const std::string& to)
{
    size_t pos = text.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    return pos == std::string::npos ? text : text.replace(pos, from.size(), to);
}

/// kGoodZoo with each edit (`from` replaced by `to`) made alone is refused with the edit's error.
struct ZooEdit
{
    std::string from;
    std::string to;
    std::string error;
};

void
ExpectEditsRefused(const std::vector<ZooEdit>& edits)
{
    for (const ZooEdit& e : edits)
    {
        EXPECT_EQ(ZooError(Replace(kGoodZoo, e.from, e.to)), e.error)
            << "'" << e.from << "' replaced by '" << e.to << "'";
    }
}

} // namespace

TEST(ModelZoo, ShippedFileLoadsWithEveryRequiredModel)
{
    ModelZoo zoo(kZooPath);
    std::set<std::string> names;
    for (const auto& n : zoo.Names())
    {
        names.insert(n);
    }
    for (const char* required : {"alexnet",
                                 "vgg16",
                                 "resnet50",
                                 "resnet101",
                                 "resnet152",
                                 "inception3",
                                 "googlenet",
                                 "bert-base",
                                 "esa-dnn-a",
                                 "esa-dnn-b"})
    {
        EXPECT_EQ(names.count(required), 1u) << required;
    }
    EXPECT_EQ(zoo.GetPath(), kZooPath);
    for (const auto& name : zoo.Names())
    {
        const ModelSpec& m = zoo.Get(name);
        EXPECT_EQ(m.name, name);
        EXPECT_FALSE(m.layers.empty()) << name;
        EXPECT_FALSE(m.sources.empty()) << name;
        EXPECT_FALSE(m.gpu.empty()) << name;
        EXPECT_GT(m.batchSize, 0u) << name;
        // the loader enforces both, so these fail only if the loader stops checking
        EXPECT_EQ(m.TotalBytes(), 4 * m.params) << name;
        EXPECT_EQ(m.ForwardPs() + m.BackwardPs(), m.iterationComputePs) << name;
        EXPECT_GT(m.iterationComputePs, 0) << name;
    }
}

TEST(ModelZoo, TotalsMatchTheWellKnownParameterCounts)
{
    ModelZoo zoo(kZooPath);
    // The commonly quoted totals (torchvision's model table, the BERT paper, the GoogLeNet
    // paper's ~6.8 M is only its rounded table, the exact count with biases is 6,998,552).
    const std::map<std::string, double> quoted = {{"alexnet", 61.1e6},
                                                  {"vgg16", 138.4e6},
                                                  {"resnet50", 25.6e6},
                                                  {"resnet101", 44.5e6},
                                                  {"resnet152", 60.2e6},
                                                  {"inception3", 23.8e6},
                                                  {"googlenet", 7.0e6},
                                                  {"bert-base", 110e6}};
    for (const auto& [name, total] : quoted)
    {
        double params = static_cast<double>(zoo.Get(name).params);
        EXPECT_LT(std::abs(params - total) / total, 0.01) << name << " has " << params;
    }
    // Exact counts, computed by hand from the architectures (torchvision's published numbers for
    // the CNNs; inception_v3's 27,161,264 minus its 3,326,696-parameter auxiliary head;
    // Hugging Face BertModel's 109,482,240 plus the pre-training heads' 624,188).
    EXPECT_EQ(zoo.Get("alexnet").params, 61100840u);
    EXPECT_EQ(zoo.Get("vgg16").params, 138357544u);
    EXPECT_EQ(zoo.Get("resnet50").params, 25557032u);
    EXPECT_EQ(zoo.Get("resnet101").params, 44549160u);
    EXPECT_EQ(zoo.Get("resnet152").params, 60192808u);
    EXPECT_EQ(zoo.Get("inception3").params, 23834568u);
    EXPECT_EQ(zoo.Get("googlenet").params, 6998552u);
    EXPECT_EQ(zoo.Get("bert-base").params, 110106428u);
}

TEST(ModelZoo, LayersFollowTheArchitectures)
{
    ModelZoo zoo(kZooPath);
    const ModelSpec& vgg = zoo.Get("vgg16");
    ASSERT_EQ(vgg.layers.size(), 16u); // 13 conv + 3 fc
    EXPECT_EQ(vgg.layers[13].name, "fc6");
    EXPECT_EQ(vgg.layers[13].gradientBytes, 4u * (25088 * 4096 + 4096));
    EXPECT_EQ(vgg.layers[0].gradientBytes, 4u * (3 * 64 * 9 + 64));

    const ModelSpec& r50 = zoo.Get("resnet50");
    ASSERT_EQ(r50.layers.size(), 54u); // 49 conv in blocks + 4 downsample + stem conv + fc
    EXPECT_EQ(r50.layers.front().gradientBytes, 4u * (3 * 64 * 49 + 2 * 64));
    EXPECT_EQ(r50.layers.back().name, "fc");
    EXPECT_EQ(r50.layers.back().gradientBytes, 4u * (2048 * 1000 + 1000));
    EXPECT_EQ(zoo.Get("resnet152").layers.size(), 156u);

    const ModelSpec& alex = zoo.Get("alexnet");
    ASSERT_EQ(alex.layers.size(), 8u);
    EXPECT_EQ(alex.layers[0].gradientBytes, 93184u); // (64 * 3 * 11 * 11 + 64) * 4

    const ModelSpec& bert = zoo.Get("bert-base");
    ASSERT_EQ(bert.layers.size(), 15u); // embeddings, 12 blocks, pooler, heads
    // Q, K, V, O (4 x (768^2 + 768)), 2 LayerNorms, FFN 768 x 3072 and back
    EXPECT_EQ(bert.layers[1].gradientBytes, 4u * 7087872);
    EXPECT_EQ(bert.layers[0].gradientBytes, 4u * (30522 * 768 + 512 * 768 + 2 * 768 + 2 * 768));

    const ModelSpec& esa = zoo.Get("esa-dnn-a");
    ASSERT_EQ(esa.layers.size(), 2u);
    EXPECT_EQ(esa.layers[0].gradientBytes, 8000000u);
    EXPECT_EQ(esa.layers[0].forwardPs, 320000000); // 0.32 ms
    EXPECT_EQ(esa.layers[0].backwardPs, 0);
}

TEST(ModelZoo, TimesAddUpToTheCitedThroughputs)
{
    ModelZoo zoo(kZooPath);
    // batch / single-P100 images/s of the TensorFlow benchmarks: every layer's forward is rounded
    // to 1 ps and backward is twice it, so the sum is within 1.5 ps per layer.
    const std::map<std::string, double> measured = {{"vgg16", 64.0 / 154},
                                                    {"resnet50", 64.0 / 219},
                                                    {"resnet152", 64.0 / 91.8},
                                                    {"inception3", 64.0 / 142}};
    for (const auto& [name, seconds] : measured)
    {
        const ModelSpec& m = zoo.Get(name);
        EXPECT_EQ(m.gpu, "P100");
        EXPECT_EQ(m.batchSize, 64u);
        double diffPs = std::abs(static_cast<double>(m.iterationComputePs) - seconds * 1e12);
        EXPECT_LE(diffPs, 1.5 * m.layers.size()) << name;
    }
    for (const auto& name : zoo.Names())
    {
        const ModelSpec& m = zoo.Get(name);
        if (m.gpu == "synthetic")
        {
            continue;
        }
        for (const auto& l : m.layers)
        {
            EXPECT_EQ(l.backwardPs, 2 * l.forwardPs) << name << " " << l.name;
        }
    }
}

TEST(ModelZoo, ParsesExactQuantities)
{
    ModelZoo zoo = ModelZoo::FromString(kGoodZoo, "zoo.yaml");
    const ModelSpec& m = zoo.Get("tiny");
    EXPECT_EQ(m.batchSize, 8u);
    EXPECT_EQ(m.layers[0].gradientBytes, 1000u);
    EXPECT_EQ(m.layers[1].gradientBytes, 4000000u);
    EXPECT_EQ(m.layers[1].forwardPs, 250000000);
    EXPECT_EQ(m.layers[1].backwardPs, 500000000);
    EXPECT_EQ(m.ForwardPs(), 500000000);
    EXPECT_EQ(m.BackwardPs(), 1000000000);
    EXPECT_EQ(m.TotalBytes(), 4001000u);

    std::string binary =
        Replace(Replace(kGoodZoo, "1000B", "1KiB"), "params: 1000250", "params: 1000256");
    EXPECT_EQ(ModelZoo::FromString(binary, "z").Get("tiny").layers[0].gradientBytes, 1024u);
    std::string decimal = Replace(kGoodZoo, "forward: 0.25ms", "forward: 0.000250s");
    EXPECT_EQ(ModelZoo::FromString(decimal, "z").Get("tiny").layers[0].forwardPs, 250000000);
}

TEST(ModelZoo, MissingFieldIsNamedWithFileAndLine)
{
    ExpectEditsRefused({
        {", backward: 500000ns}",
         "}",
         "zoo.yaml:12: model 'tiny' layer 1 ('b'): missing field 'backward'"},
        {"    gpu: V100\n", "", "zoo.yaml:2: model 'tiny': missing field 'gpu'"},
        {"gpu: V100", "gpu:", "zoo.yaml:4: model 'tiny': field 'gpu' has no value"},
    });
}

TEST(ModelZoo, BadUnitIsNamedWithFileAndLine)
{
    ExpectEditsRefused({
        {"forward: 0.25ms",
         "forward: 0.25xs",
         "zoo.yaml:11: model 'tiny' layer 0 ('a'): 'forward': expected a time like 1us "
         "(units: ps, ns, us, ms, s), got \"0.25xs\""},
        {"forward: 0.25ms",
         "forward: 25",
         "zoo.yaml:11: model 'tiny' layer 0 ('a'): 'forward': expected a time like 1us "
         "(units: ps, ns, us, ms, s), got \"25\": the unit is missing"},
        {"gradient: 1000B",
         "gradient: 1.5B",
         "zoo.yaml:11: model 'tiny' layer 0 ('a'): 'gradient': expected a size like 64MB "
         "(units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, or a plain number of bytes), got "
         "\"1.5B\": not a whole number of bytes"},
        {"gradient: 4MB",
         "gradient: 4Mb",
         "zoo.yaml:12: model 'tiny' layer 1 ('b'): 'gradient': expected a size like 64MB "
         "(units: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB, or a plain number of bytes), got "
         "\"4Mb\""},
        {"batch_size: 8",
         "batch_size: eight",
         "zoo.yaml:5: model 'tiny': bad value 'eight' for 'batch_size': expected a "
         "positive integer"},
    });
}

TEST(ModelZoo, DuplicatesAndUnknownFieldsAreRejected)
{
    std::string twice = kGoodZoo + kGoodZoo.substr(std::string("models:\n").size());
    EXPECT_EQ(ZooError(twice),
              "zoo.yaml:13: model 'tiny': duplicate model name (first defined at line 2)");
    ExpectEditsRefused({
        {"    gpu: V100\n",
         "    gpu: V100\n    gpu: A100\n",
         "zoo.yaml:5: model 'tiny': duplicate field 'gpu' (first at line 4)"},
        {"backward: 0.5ms",
         "backwards: 0.5ms",
         "zoo.yaml:11: model 'tiny' layer 0 ('a'): unknown field 'backwards' (expected "
         "name, gradient, forward, backward)"},
        {"{name: b,",
         "{name: a,",
         "zoo.yaml:12: model 'tiny' layer 1 ('a'): duplicate layer name in this model"},
    });
}

TEST(ModelZoo, StatedTotalsAreChecked)
{
    ExpectEditsRefused({
        {"params: 1000250",
         "params: 1000000",
         "zoo.yaml:6: model 'tiny': the layers' gradients add up to 4001000 bytes, but "
         "params 1000000 means 4000000 bytes (4 per fp32 parameter)"},
        {"iteration_compute: 1.5ms",
         "iteration_compute: 1.6ms",
         "zoo.yaml:7: model 'tiny': the layers' forward + backward times add up to "
         "1500000000 ps, but iteration_compute is 1600000000 ps"},
    });
}

TEST(ModelZoo, SyntaxAndFileErrorsAreClear)
{
    EXPECT_EQ(ZooError("models: [\n"),
              "zoo.yaml:2: YAML syntax error: end of sequence flow not found");
    EXPECT_EQ(ZooError("models: []\n"), "zoo.yaml:1: 'models' must be a non-empty list of models");
    EXPECT_EQ(ZooError("model: []\n"), "zoo.yaml:1: unknown field 'model' (expected models)");
    EXPECT_EQ(ErrorOf([] {
                  ModelZoo zoo("/nonexistent/zoo.yaml");
              }),
              "/nonexistent/zoo.yaml: cannot open the model zoo file");
}

TEST(ModelZoo, UnknownModelListsTheKnownOnes)
{
    ModelZoo zoo = ModelZoo::FromString(kGoodZoo, "zoo.yaml");
    EXPECT_TRUE(zoo.Has("tiny"));
    EXPECT_FALSE(zoo.Has("resnet"));
    EXPECT_EQ(ErrorOf([&] {
                  zoo.Get("resnet");
              }),
              "unknown model 'resnet' (the model zoo zoo.yaml has: tiny)");
}

TEST(ModelZoo, TensorWorkloadHasOneTensorAndNoCompute)
{
    ModelSpec t = ModelZoo::TensorWorkload(100000000);
    ASSERT_EQ(t.layers.size(), 1u);
    EXPECT_EQ(t.TotalBytes(), 100000000u);
    EXPECT_EQ(t.ForwardPs(), 0);
    EXPECT_EQ(t.BackwardPs(), 0);
    EXPECT_THROW(ModelZoo::TensorWorkload(0), std::invalid_argument);
}

TEST(ModelZoo, DefaultPathHonoursTheEnvironmentThenSearches)
{
    const char* old = std::getenv("INASIM_MODEL_ZOO");
    std::string saved = old ? old : "";

    setenv("INASIM_MODEL_ZOO", kZooPath.c_str(), 1);
    EXPECT_EQ(ModelZoo::DefaultPath(), kZooPath);
    setenv("INASIM_MODEL_ZOO", "/nonexistent/zoo.yaml", 1);
    EXPECT_EQ(ErrorOf([] {
                  ModelZoo::DefaultPath();
              }),
              "INASIM_MODEL_ZOO is set to '/nonexistent/zoo.yaml', which is not a file");
    unsetenv("INASIM_MODEL_ZOO");
    std::string found = ModelZoo::DefaultPath();
    const std::string tail = "src/ina-training/data/model-zoo.yaml";
    ASSERT_GE(found.size(), tail.size());
    EXPECT_EQ(found.substr(found.size() - tail.size()), tail);
    EXPECT_TRUE(ModelZoo::Default().Has("resnet50"));

    if (old)
    {
        setenv("INASIM_MODEL_ZOO", saved.c_str(), 1);
    }
}
