/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fitting LIBRA's curves to (threads, time) samples, and reading samples and parameter files.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/gpu-contention-fit.h"
#include "ns3/gpu-contention-params.h"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

const std::string kExampleDir = std::string(INASIM_SOURCE_DIR) + "/examples/libra-gpu";

/// \return the message of the std::runtime_error that f throws ("" if it throws none)
template<class F>
std::string
ErrorOf(F f)
{
    return ns3::tests::ErrorOf<std::runtime_error>(f);
}

/// Known parameters, deliberately unlike the illustrative ones.
GpuContentionParams
Truth()
{
    GpuContentionParams p;
    p.alpha1 = 0.98;
    p.alpha2 = 1.2e-4;
    p.overlapped = {5.0e9, 4.5e9, 0.05, 0.6};
    p.alone = {5.5e9, 5.0e9, 0.08, 0.6};
    p.alphaHopS = 7e-6;
    p.inaStartupS = 3e-6;
    return p;
}

/// Samples of every kind at 11 thread counts and 3 sizes, times multiplied by 1 + noise e.
std::vector<GpuContentionFit::Sample>
Synthetic(const GpuContentionParams& p, double noise, int repeats)
{
    std::mt19937_64 rng(7);
    // Box-Muller on the raw 64-bit draws: the same numbers on every standard library
    auto gauss = [&rng]() {
        double u1 = (rng() >> 11) * 0x1.0p-53;
        double u2 = (rng() >> 11) * 0x1.0p-53;
        return std::sqrt(-2 * std::log(1 - u1)) * std::cos(2 * M_PI * u2);
    };
    std::vector<GpuContentionFit::Sample> out;
    for (int rep = 0; rep < repeats; ++rep)
    {
        for (uint32_t r : {64u, 128u, 192u, 256u, 384u, 512u, 768u, 1024u, 2048u, 3072u, 4096u})
        {
            for (double size : {1.0, 3.0, 10.0})
            {
                double b = 0.01 * size;
                out.push_back({GpuContentionFit::COMPUTE,
                               r,
                               b,
                               b / p.ComputeSpeed(r) * (1 + noise * gauss()),
                               0});
                double c = 2e7 * size;
                out.push_back({GpuContentionFit::OVERLAPPED,
                               r,
                               c,
                               c / p.overlapped.Rate(r) * (1 + noise * gauss()),
                               0});
                out.push_back({GpuContentionFit::ALONE,
                               r,
                               c,
                               c / p.alone.Rate(r) * (1 + noise * gauss()),
                               0});
            }
        }
    }
    return out;
}

void
ExpectRel(double got, double want, double rel, const char* what)
{
    EXPECT_NEAR(got, want, std::fabs(want) * rel) << what;
}

std::string
SampleError(const std::string& text)
{
    return ErrorOf([&] {
        GpuContentionFit::ParseCsv(text, "s.csv");
    });
}

std::string
YamlError(const std::string& text)
{
    return ErrorOf([&] {
        GpuContentionParams::FromYaml(text, "p.yaml");
    });
}

} // namespace

TEST(GpuContentionFitTest, NoiseFreeSamplesRecoverTheParameters)
{
    const GpuContentionParams truth = Truth();
    auto fit =
        GpuContentionFit::Fit(Synthetic(truth, 0, 1), GpuContentionParams::Illustrative(), "x");
    const auto& p = fit.params;
    ExpectRel(p.alpha1, truth.alpha1, 1e-6, "alpha1");
    ExpectRel(p.alpha2, truth.alpha2, 1e-6, "alpha2");
    ExpectRel(p.overlapped.gamma1, truth.overlapped.gamma1, 1e-6, "p gamma1");
    ExpectRel(p.overlapped.gamma2, truth.overlapped.gamma2, 1e-6, "p gamma2");
    ExpectRel(p.overlapped.gamma3, truth.overlapped.gamma3, 1e-6, "p gamma3");
    ExpectRel(p.alone.gamma1, truth.alone.gamma1, 1e-6, "q gamma1");
    ExpectRel(p.alone.gamma2, truth.alone.gamma2, 1e-6, "q gamma2");
    ExpectRel(p.alone.gamma3, truth.alone.gamma3, 1e-6, "q gamma3");
    EXPECT_EQ(p.overlapped.gamma4, 0.6);
    EXPECT_EQ(p.alone.gamma4, 0.6);
    // what samples cannot give comes from the base
    EXPECT_EQ(p.alphaHopS, GpuContentionParams::Illustrative().alphaHopS);
    EXPECT_EQ(p.source, "x (fitted)");
    EXPECT_LT(fit.computeRmsRel, 1e-9);
    EXPECT_LT(fit.overlappedRmsRel, 1e-9);
    EXPECT_LT(fit.aloneRmsRel, 1e-9);
    EXPECT_EQ(fit.computeSamples, 33u);
}

TEST(GpuContentionFitTest, NoisySamplesStayWithinAFewPercent)
{
    // 2 % noise on every time, 5 repeats of 33 points per curve. gamma2 and gamma3 trade off
    // against each other and are the least determined: q has shed 62 % of its deficit already at
    // the smallest r (64), so few points see it.
    const GpuContentionParams truth = Truth();
    auto fit =
        GpuContentionFit::Fit(Synthetic(truth, 0.02, 5), GpuContentionParams::Illustrative(), "x");
    const auto& p = fit.params;
    ExpectRel(p.alpha1, truth.alpha1, 0.01, "alpha1");
    ExpectRel(p.alpha2, truth.alpha2, 0.03, "alpha2");
    ExpectRel(p.overlapped.gamma1, truth.overlapped.gamma1, 0.02, "p gamma1");
    ExpectRel(p.overlapped.gamma2, truth.overlapped.gamma2, 0.03, "p gamma2");
    ExpectRel(p.overlapped.gamma3, truth.overlapped.gamma3, 0.03, "p gamma3");
    ExpectRel(p.alone.gamma1, truth.alone.gamma1, 0.02, "q gamma1");
    ExpectRel(p.alone.gamma2, truth.alone.gamma2, 0.08, "q gamma2");
    ExpectRel(p.alone.gamma3, truth.alone.gamma3, 0.08, "q gamma3");
    // the curves themselves within 1.5 % over R
    for (uint32_t r : {128u, 512u, 2048u, 4096u})
    {
        ExpectRel(p.ComputeSpeed(r), truth.ComputeSpeed(r), 0.015, "speed");
        ExpectRel(p.overlapped.Rate(r), truth.overlapped.Rate(r), 0.015, "p rate");
        ExpectRel(p.alone.Rate(r), truth.alone.Rate(r), 0.015, "q rate");
    }
    EXPECT_NEAR(fit.computeRmsRel, 0.02, 0.004);
}

TEST(GpuContentionFitTest, ShippedSyntheticSamplesGiveTheIllustrativeSetBack)
{
    // examples/libra-gpu/samples.csv: illustrative parameters, 2 % noise (see make-samples.py)
    auto samples = GpuContentionFit::ReadCsv(kExampleDir + "/samples.csv");
    ASSERT_EQ(samples.size(), 99u);
    const GpuContentionParams ill = GpuContentionParams::Illustrative();
    auto fit = GpuContentionFit::Fit(samples, ill, "samples.csv");
    for (uint32_t r : {128u, 512u, 2048u, 4096u})
    {
        ExpectRel(fit.params.ComputeSpeed(r), ill.ComputeSpeed(r), 0.02, "speed");
        ExpectRel(fit.params.overlapped.Rate(r), ill.overlapped.Rate(r), 0.02, "p rate");
        ExpectRel(fit.params.alone.Rate(r), ill.alone.Rate(r), 0.02, "q rate");
    }
    // and the shipped fitted file is what --fit printed for them
    GpuContentionParams shipped = GpuContentionParams::Load(kExampleDir + "/fitted-params.yaml");
    ExpectRel(shipped.alpha1, fit.params.alpha1, 1e-12, "alpha1");
    ExpectRel(shipped.alpha2, fit.params.alpha2, 1e-12, "alpha2");
    ExpectRel(shipped.overlapped.gamma2, fit.params.overlapped.gamma2, 1e-12, "p gamma2");
    ExpectRel(shipped.overlapped.gamma3, fit.params.overlapped.gamma3, 1e-12, "p gamma3");
    ExpectRel(shipped.alone.gamma1, fit.params.alone.gamma1, 1e-12, "q gamma1");
    ExpectRel(shipped.alone.gamma3, fit.params.alone.gamma3, 1e-12, "q gamma3");
}

TEST(GpuContentionFitTest, BadSampleLinesNameFileLineAndExpectation)
{
    const std::string h = "# comment\nkind,threads,work,time_s\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"kind,threads,time_s\n",
         "s.csv:1: expected the header line 'kind,threads,work,time_s'; got "
         "'kind,threads,time_s'"},
        {h + "compute,128,0.01\n",
         "s.csv:3: expected 4 comma-separated fields kind,threads,work,time_s; got 3"},
        {h + "compute,128,0.01,0.02,\n",
         "s.csv:3: expected 4 comma-separated fields kind,threads,work,time_s; got 5"},
        {h + "\ncomputing,128,0.01,0.02\n",
         "s.csv:4: kind: expected compute, overlapped or alone; got 'computing'"},
        {h + "compute,0,0.01,0.02\n", "s.csv:3: threads: expected a positive integer, got '0'"},
        {h + "compute,1.5,0.01,0.02\n", "s.csv:3: threads: expected a positive integer, got '1.5'"},
        {h + "alone,128,-5,0.02\n",
         "s.csv:3: work: expected a positive finite number (wire bytes), got '-5'"},
        {h + "compute,128,0.01,nan\n",
         "s.csv:3: time_s: expected a positive finite number of seconds, got 'nan'"},
        {h + "compute,128,0.01,2s\n",
         "s.csv:3: time_s: expected a positive finite number of seconds, got '2s'"},
        {"# only a comment\n",
         "s.csv: empty sample file (expected the header line 'kind,threads,work,time_s')"},
    };
    for (const auto& [text, message] : cases)
    {
        EXPECT_EQ(SampleError(text), message) << "samples:\n" << text;
    }
    EXPECT_EQ(ErrorOf([] {
                  GpuContentionFit::ReadCsv("/nonexistent/s.csv");
              }),
              "/nonexistent/s.csv: cannot read the sample file");
    auto ok =
        GpuContentionFit::ParseCsv(h + "overlapped, 256 ,1e8, 0.03 # trailing comment\n", "s.csv");
    ASSERT_EQ(ok.size(), 1u);
    EXPECT_EQ(ok[0].kind, GpuContentionFit::OVERLAPPED);
    EXPECT_EQ(ok[0].threads, 256u);
    EXPECT_EQ(ok[0].work, 1e8);
    EXPECT_EQ(ok[0].line, 3u);
}

TEST(GpuContentionFitTest, TooFewPointsOrUnphysicalFitsAreErrors)
{
    auto samples = Synthetic(Truth(), 0, 1);
    std::vector<GpuContentionFit::Sample> noAlone;
    for (const auto& s : samples)
    {
        if (s.kind != GpuContentionFit::ALONE || s.threads == 64 || s.threads == 128)
        {
            noAlone.push_back(s);
        }
    }
    EXPECT_EQ(ErrorOf([&] {
                  GpuContentionFit::Fit(noAlone, GpuContentionParams::Illustrative(), "s.csv");
              }),
              "s.csv: need 'alone' samples at >= 3 distinct thread counts to fit q; got 2");
    // computation that speeds up with more threads
    std::vector<GpuContentionFit::Sample> faster = samples;
    for (auto& s : faster)
    {
        if (s.kind == GpuContentionFit::COMPUTE)
        {
            s.timeS = s.work / (0.5 + 1e-4 * s.threads);
        }
    }
    EXPECT_NE(ErrorOf([&] {
                  GpuContentionFit::Fit(faster, GpuContentionParams::Illustrative(), "s.csv");
              }).find("s.csv: the compute samples give alpha1 = "),
              std::string::npos);
    // a rate that falls with r
    std::vector<GpuContentionFit::Sample> falling = samples;
    for (auto& s : falling)
    {
        if (s.kind == GpuContentionFit::OVERLAPPED)
        {
            s.timeS = s.work / (6e9 - 1e6 * s.threads);
        }
    }
    EXPECT_NE(ErrorOf([&] {
                  GpuContentionFit::Fit(falling, GpuContentionParams::Illustrative(), "s.csv");
              }).find("s.csv: 'overlapped' samples: FitRate: the best gamma3 lies at the edge"),
              std::string::npos);
}

TEST(GpuContentionParamsTest, YamlRoundTripAndCsv)
{
    const GpuContentionParams p = Truth();
    GpuContentionParams back = GpuContentionParams::FromYaml(p.ToYaml(), "p.yaml");
    EXPECT_EQ(back.alpha1, p.alpha1);
    EXPECT_EQ(back.alpha2, p.alpha2);
    EXPECT_EQ(back.overlapped.gamma3, p.overlapped.gamma3);
    EXPECT_EQ(back.alone.gamma1, p.alone.gamma1);
    EXPECT_EQ(back.inaStartupS, p.inaStartupS);
    EXPECT_EQ(back.source, "p.yaml");
    // the shipped CSV holds the illustrative set
    GpuContentionParams csv = GpuContentionParams::Load(kExampleDir + "/illustrative-params.csv");
    const GpuContentionParams ill = GpuContentionParams::Illustrative();
    EXPECT_EQ(csv.alpha2, ill.alpha2);
    EXPECT_EQ(csv.overlapped.gamma1, ill.overlapped.gamma1);
    EXPECT_EQ(csv.overlapped.gamma3, ill.overlapped.gamma3);
    EXPECT_EQ(csv.alone.gamma3, ill.alone.gamma3);
    EXPECT_EQ(csv.alphaHopS, ill.alphaHopS);
    EXPECT_EQ(csv.inaStartupS, ill.inaStartupS);
}

TEST(GpuContentionParamsTest, BadParameterFilesNameFileLineAndKey)
{
    std::string good = GpuContentionParams::Illustrative().ToYaml();
    EXPECT_EQ(YamlError("alpha0: 1\n" + good),
              "p.yaml:1: unknown key 'alpha0' (expected one of: alpha1, alpha2, "
              "p_gamma1_bytes_per_s, p_gamma2_bytes_per_s, p_gamma3, p_gamma4, "
              "q_gamma1_bytes_per_s, q_gamma2_bytes_per_s, q_gamma3, q_gamma4, alpha_hop_s, "
              "ina_startup_s)");
    EXPECT_EQ(YamlError(good + "alpha2: 0.1\n"),
              "p.yaml:13: key 'alpha2' repeated (first at line 2)");
    std::string missing = good.substr(good.find('\n') + 1); // drop alpha1
    EXPECT_NE(YamlError(missing).find("p.yaml: missing key 'alpha1' (every key is required"),
              std::string::npos);
    std::string bad = good;
    bad.replace(bad.find("alpha2: "), std::string("alpha2: 0.000135").size(), "alpha2: -1");
    EXPECT_EQ(YamlError(bad), "p.yaml:2: key 'alpha2': expected a finite number >= 0, got '-1'");
    std::string word = good;
    word.replace(word.find("p_gamma3: 0.0377"),
                 std::string("p_gamma3: 0.0377").size(),
                 "p_gamma3: fast");
    EXPECT_EQ(YamlError(word),
              "p.yaml:5: key 'p_gamma3': expected a finite number > 0, got 'fast'");
    EXPECT_EQ(YamlError("alpha1: [1, 2]\n"),
              "p.yaml:1: key 'alpha1': expected a single number, got a list");
    EXPECT_EQ(YamlError("- 1\n"),
              "p.yaml:1: expected a map of parameter keys (alpha1, alpha2, "
              "p_gamma1_bytes_per_s, p_gamma2_bytes_per_s, p_gamma3, "
              "p_gamma4, q_gamma1_bytes_per_s, q_gamma2_bytes_per_s, "
              "q_gamma3, q_gamma4, alpha_hop_s, ina_startup_s)");
    EXPECT_NE(YamlError("alpha1: 1\n  bad: [\n").find("p.yaml:"), std::string::npos);
    auto csvError = [](const std::string& text) {
        return ErrorOf([&] {
            GpuContentionParams::FromCsv(text, "p.csv");
        });
    };
    EXPECT_EQ(csvError("name,value\n"),
              "p.csv:1: expected the header line 'key,value'; got "
              "'name,value'");
    EXPECT_EQ(csvError("key,value\nalpha1,1,2\n"),
              "p.csv:2: expected two comma-separated fields key,value; got 'alpha1,1,2'");
    EXPECT_EQ(csvError("key,value\nalpha1,0\n"),
              "p.csv:2: key 'alpha1': expected a finite number > 0, got '0'");
    EXPECT_EQ(ErrorOf([] {
                  GpuContentionParams::Load("params.json");
              }),
              "params.json: cannot read the parameter file");
    EXPECT_EQ(ErrorOf([] {
                  GpuContentionParams::Load(kExampleDir + "/make-samples.py");
              }),
              kExampleDir + "/make-samples.py: unknown parameter file type (expected a name "
                            "ending in .yaml, .yml or .csv)");
}

TEST(GpuContentionParamsTest, WithoutContention)
{
    GpuContentionParams cf = Truth().WithoutContention();
    EXPECT_EQ(cf.ComputeSpeed(4096), 1.0);
    EXPECT_EQ(cf.overlapped.gamma3, Truth().alone.gamma3);
    EXPECT_EQ(cf.overlapped.gamma1, Truth().alone.gamma1);
}
