/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// LIBRA's GPU contention in packet mode (GpuContentionComputeModel): the fluid model on one layer
// with kernels starting and ending mid-layer (completion times, speeds and injection caps by
// hand), the worker's fusion as LIBRA's groups, the thread policies' refusals, the scenario's
// errors naming the param, dp against fixed thread counts on the example scenario, and
// determinism. The whole tiny job under contention is the ns-3 suite gpu-contention-compute-model.

#include "test-messages.h"
#include "test-temp-dir.h"

#include "ns3/gpu-contention-compute-model.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-net-device.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr int64_t US = 1000000; // ps

/**
 * Round numbers: alpha1 = 1, alpha2 = 2.5e-4, so 2000 threads compute at half speed and 1000 at
 * 3/4; p and q flat (gamma2 = 0) at 5e9 and 6e9 B/s, i.e. caps of 40 and 48 Gb/s at any r.
 * Parsed from the parameter file the scenario tests read (ROUND_YAML), so they are written once.
 */
const char* ROUND_YAML = "alpha1: 1\nalpha2: 2.5e-4\n"
                         "p_gamma1_bytes_per_s: 5e9\np_gamma2_bytes_per_s: 0\np_gamma3: 1\n"
                         "p_gamma4: 0.6\n"
                         "q_gamma1_bytes_per_s: 6e9\nq_gamma2_bytes_per_s: 0\nq_gamma3: 1\n"
                         "q_gamma4: 0.6\nalpha_hop_s: 1e-5\nina_startup_s: 2e-5\n";

GpuContentionParams
RoundParams()
{
    return GpuContentionParams::FromYaml(ROUND_YAML, "test");
}

/// One GpuContentionComputeModel driven by hand: a one-layer model, pieces' threads, a recorder.
class Fluid
{
  public:
    Fluid(int64_t backwardPs,
          const std::vector<uint32_t>& pieceThreads,
          Ptr<InaHost> host = nullptr)
    {
        ModelSpec m;
        m.name = "one";
        m.layers.push_back({"l0", 4000, 0, backwardPs});
        model = CreateObject<GpuContentionComputeModel>();
        model->SetModel(m);
        model->Configure(RoundParams(), pieceThreads, host);
    }

    ~Fluid()
    {
        model->Dispose();
        Simulator::Destroy();
    }

    void StartAt(int64_t at)
    {
        Simulator::Schedule(
            TimeStep(at),
            MakeInaFunctorEvent([this]() {
                model->StartLayer(ComputeModel::BACKWARD, 0, 0, MakeCallback(&Fluid::Done, this));
            }));
    }

    void CommAt(int64_t at, uint32_t piece, bool start)
    {
        Simulator::Schedule(TimeStep(at), MakeInaFunctorEvent([this, piece, start]() {
                                if (start)
                                {
                                    model->CommunicationStarted(0, piece);
                                }
                                else
                                {
                                    model->CommunicationEnded(0, piece);
                                }
                            }));
    }

    /// Record the resident threads, the speed and the cap at each of `times`.
    void ProbeAt(std::initializer_list<int64_t> times)
    {
        for (int64_t at : times)
        {
            Simulator::Schedule(TimeStep(at), MakeInaFunctorEvent([this]() {
                                    threads.push_back(model->GetResidentThreads());
                                    speeds.push_back(model->GetComputeSpeed());
                                    caps.push_back(model->GetInjectionCapBps());
                                }));
        }
    }

    void Done()
    {
        doneAt.push_back(Simulator::Now().GetTimeStep());
    }

    Ptr<GpuContentionComputeModel> model;
    std::vector<int64_t> doneAt;
    std::vector<uint32_t> threads;
    std::vector<double> speeds;
    std::vector<uint64_t> caps;
};

constexpr uint64_t X_O = 40000000000ULL; // 5e9 B/s
constexpr uint64_t X_N = 48000000000ULL; // 6e9 B/s

TEST(GpuPacketFluid, NoKernelRunsTheProfiledTimeExactly)
{
    Fluid f(7 * US + 123, {2000});
    f.StartAt(0);
    Simulator::Run();
    ASSERT_EQ(f.doneAt, (std::vector<int64_t>{7 * US + 123}));
}

TEST(GpuPacketFluid, KernelStartsAndEndsMidLayer)
{
    // b = 10 us; r = 2000 (speed 1/2) from 2 to 6 us: 2 us done by 2 us, 2 more by 6 us, the
    // remaining 6 us at full speed: the layer ends at 12 us. The NIC is paced at X_o while the
    // layer computes beside the kernel, and freed when the kernel ends.
    InaFabricHelper helper;
    Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(2, {100000000000ULL, US}));
    Ptr<InaHost> host = fabric->GetHost(0);
    auto* device = dynamic_cast<InaNetDevice*>(host->GetPort());
    ASSERT_NE(device, nullptr);
    uint64_t deviceCapAt3us = 1;
    {
        Fluid f(10 * US, {2000}, host);
        f.StartAt(0);
        f.CommAt(2 * US, 0, true);
        f.CommAt(6 * US, 0, false);
        f.ProbeAt({1 * US, 3 * US, 7 * US});
        Simulator::Schedule(TimeStep(3 * US), MakeInaFunctorEvent([&]() {
                                deviceCapAt3us = device->GetInjectionRateCap();
                            }));
        Simulator::Run();
        EXPECT_EQ(f.doneAt, (std::vector<int64_t>{12 * US}));
        EXPECT_EQ(f.threads, (std::vector<uint32_t>{0, 2000, 0}));
        EXPECT_EQ(f.speeds, (std::vector<double>{1.0, 0.5, 1.0}));
        EXPECT_EQ(f.caps, (std::vector<uint64_t>{0, X_O, 0}));
        EXPECT_EQ(device->GetInjectionRateCap(), 0u);
    }
    EXPECT_EQ(deviceCapAt3us, X_O);
}

TEST(GpuPacketFluid, KernelOutlastsTheLayer)
{
    // Kernel from 4 us: 4 us done, the other 6 at half speed take 12: the layer ends at 16 us;
    // then the GPU is idle and the cap is X_n until the kernel ends at 20 us.
    Fluid f(10 * US, {2000});
    f.StartAt(0);
    f.CommAt(4 * US, 0, true);
    f.CommAt(20 * US, 0, false);
    f.ProbeAt({5 * US, 17 * US, 21 * US});
    Simulator::Run();
    EXPECT_EQ(f.doneAt, (std::vector<int64_t>{16 * US}));
    EXPECT_EQ(f.caps, (std::vector<uint64_t>{X_O, X_N, 0}));
    const ComputeModel::Report r = f.model->GetReport();
    ASSERT_EQ(r.perIteration.size(), 4u);
    EXPECT_EQ(r.perIteration[0].first, "backward_s");
    EXPECT_DOUBLE_EQ(r.perIteration[0].second.at(0), 20e-6); // the layer's start to the piece back
    EXPECT_EQ(r.perIteration[1].first, "backward_compute_s");
    EXPECT_DOUBLE_EQ(r.perIteration[1].second.at(0), 16e-6);
    EXPECT_EQ(r.perIteration[2].first, "compute_slowdown_s");
    EXPECT_DOUBLE_EQ(r.perIteration[2].second.at(0), 6e-6);
    EXPECT_EQ(r.perIteration[3].first, "kernel_resident_s");
    EXPECT_DOUBLE_EQ(r.perIteration[3].second.at(0), 16e-6);
    // 12 us at 40 Gb/s, then 4 us at 48 Gb/s
    EXPECT_EQ(r.values.at(2).first, "mean_injection_cap_gbps");
    EXPECT_NEAR(r.values.at(2).second, (12 * 40.0 + 4 * 48.0) / 16, 1e-9);
}

TEST(GpuPacketFluid, KernelResidentBeforeTheLayerStarts)
{
    // r = 1000 (speed 3/4) from 0 to 5 us; the layer of 6 us starts at 1 us: 3 us of work by
    // 5 us, the last 3 at full speed: it ends at 8 us. Before the layer the GPU is idle: X_n.
    Fluid f(6 * US, {1000});
    f.CommAt(0, 0, true);
    f.StartAt(1 * US);
    f.CommAt(5 * US, 0, false);
    f.ProbeAt({US / 2, 2 * US});
    Simulator::Run();
    EXPECT_EQ(f.doneAt, (std::vector<int64_t>{8 * US}));
    EXPECT_EQ(f.caps, (std::vector<uint64_t>{X_N, X_O}));
    EXPECT_EQ(f.speeds, (std::vector<double>{0.75, 0.75}));
}

TEST(GpuPacketFluid, TheOldestOutstandingPieceIsTheKernel)
{
    // Piece 0 (2000 threads) from 0 to 3 us, piece 1 (1000) handed at 1 us, back at 7 us: r is
    // 2000 until 3 us (1.5 us of work), 1000 until 7 us (3 us more), then the last 5.5 us at full
    // speed: 12.5 us. Threads are never added (not 3000 between 1 and 3 us).
    Fluid f(10 * US, {2000, 1000});
    f.StartAt(0);
    f.CommAt(0, 0, true);
    f.CommAt(1 * US, 1, true);
    f.CommAt(3 * US, 0, false);
    f.CommAt(7 * US, 1, false);
    f.ProbeAt({2 * US, 4 * US, 8 * US});
    Simulator::Run();
    EXPECT_EQ(f.doneAt, (std::vector<int64_t>{12500000}));
    EXPECT_EQ(f.threads, (std::vector<uint32_t>{2000, 1000, 0}));
}

TEST(GpuPacketFluid, APieceBackOutOfOrderLeavesTheOldestResident)
{
    // Both handed at 0; piece 1 back at 2 us, piece 0 at 4 us: 2000 threads until 4 us (2 us of
    // work), then 8 us at full speed: 12 us.
    Fluid f(10 * US, {2000, 1000});
    f.StartAt(0);
    f.CommAt(0, 0, true);
    f.CommAt(0, 1, true);
    f.CommAt(2 * US, 1, false);
    f.CommAt(4 * US, 0, false);
    f.ProbeAt({3 * US});
    Simulator::Run();
    EXPECT_EQ(f.doneAt, (std::vector<int64_t>{12 * US}));
    EXPECT_EQ(f.threads, (std::vector<uint32_t>{2000}));
}

ModelSpec
Model(const std::vector<uint64_t>& bytes)
{
    ModelSpec m;
    m.name = "test";
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        m.layers.push_back({"l" + std::to_string(i), bytes[i], US, 2 * US});
    }
    return m;
}

TEST(GpuPacketGroups, TheWorkersFusionBucketsAreTheGroups)
{
    const auto BACKWARD = JobContext::SendOrder::BACKWARD;
    // Layers (forward order) of 100, 0, 300, 400 bytes. Layer indices in the groups are
    // backward: 0 is the model's last layer.
    const ModelSpec m = Model({100, 0, 300, 400});
    std::vector<uint32_t> pieceGroup;
    // No fusion: 400, 300, then the empty layer 1 joins layer 0's group (its backward pass
    // comes before layer 0's gradient is ready).
    ThreadAllocPlan g =
        GpuContentionComputeModel::FusionGroups(m,
                                                WorkerApp::PlanIteration(m, 0, 0, BACKWARD, 0),
                                                512,
                                                &pieceGroup);
    EXPECT_EQ(g.LayersString(), "0-0;1-1;2-3");
    EXPECT_EQ(g.ThreadsString(), "512;512;512");
    EXPECT_EQ(pieceGroup, (std::vector<uint32_t>{0, 1, 2}));
    // Fusion 500: 700 bytes at layer 2, then 100 at layer 0; partitions of 200 B: the first
    // group's four pieces share it.
    g = GpuContentionComputeModel::FusionGroups(m,
                                                WorkerApp::PlanIteration(m, 500, 200, BACKWARD, 0),
                                                128,
                                                &pieceGroup);
    EXPECT_EQ(g.LayersString(), "0-1;2-3");
    EXPECT_EQ(pieceGroup, (std::vector<uint32_t>{0, 0, 0, 0, 1}));
    // A first layer without gradient makes no piece: a group of 0 bytes that no piece is in.
    const ModelSpec z = Model({0, 100, 200});
    g = GpuContentionComputeModel::FusionGroups(z,
                                                WorkerApp::PlanIteration(z, 0, 0, BACKWARD, 0),
                                                128,
                                                &pieceGroup);
    EXPECT_EQ(g.LayersString(), "0-0;1-1;2-2");
    EXPECT_EQ(pieceGroup, (std::vector<uint32_t>{0, 1}));
}

TEST(GpuPacketGroups, PoliciesRefuseWhatTheyCannotDo)
{
    const ModelSpec m = Model({100, 300, 400});
    const GpuContentionModel gpu(RoundParams(), 8);
    const auto layers = GpuContentionModel::BackwardLayers(m);
    const ThreadAllocPlan two = GpuContentionComputeModel::FusionGroups(
        m,
        WorkerApp::PlanIteration(m, 500, 0, JobContext::SendOrder::BACKWARD, 0),
        128,
        nullptr);
    ASSERT_EQ(two.GetGroupCount(), 2u);
    try
    {
        GpuContentionComputeModel::ChooseThreads(GpuContentionComputeModel::SE,
                                                 128,
                                                 gpu,
                                                 layers,
                                                 two);
        FAIL() << "se accepted two groups";
    }
    catch (const std::runtime_error& e)
    {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("GpuThreadPolicy: se (SE) ", 0), 0u) << what;
        EXPECT_NE(what.find("FusionBytes"), std::string::npos) << what;
        EXPECT_NE(what.find("(800)"), std::string::npos) << what;
    }
    try
    {
        // alpha1 - alpha2 r = 0 at 4000 threads
        GpuContentionComputeModel::ChooseThreads(GpuContentionComputeModel::FIXED,
                                                 4000,
                                                 gpu,
                                                 layers,
                                                 two);
        FAIL() << "4000 threads accepted";
    }
    catch (const std::runtime_error& e)
    {
        EXPECT_EQ(std::string(e.what()).rfind("GpuThreads: r = 4000", 0), 0u) << e.what();
    }
    const ThreadAllocPlan one = GpuContentionComputeModel::FusionGroups(
        m,
        WorkerApp::PlanIteration(m, 800, 0, JobContext::SendOrder::BACKWARD, 0),
        128,
        nullptr);
    EXPECT_EQ(GpuContentionComputeModel::ChooseThreads(GpuContentionComputeModel::SE,
                                                       256,
                                                       gpu,
                                                       layers,
                                                       one)
                  .ThreadsString(),
              "256");
    // dp picks from the paper's R for each of the worker's groups, keeping the fusion.
    const ThreadAllocPlan dp =
        GpuContentionComputeModel::ChooseThreads(GpuContentionComputeModel::DP,
                                                 1,
                                                 gpu,
                                                 layers,
                                                 two);
    EXPECT_EQ(dp.LayersString(), two.LayersString());
    for (const auto& group : dp.GetGroups())
    {
        EXPECT_TRUE(group.threads >= 128 && group.threads <= 2048 &&
                    (group.threads & (group.threads - 1)) == 0)
            << group.threads; // 4096 leaves this model no speed
    }
}

/// The message of the ScenarioError running `yaml` throws, or "no error".
std::string
RunError(const std::string& yaml)
{
    return inasim_test::RunError(yaml, "g.yaml");
}

std::string
Job(const std::string& params, const std::string& workload = "tensor_bytes: 4KB")
{
    return "topology: {type: star, hosts: 2}\n"
           "jobs:\n"
           "  - {protocol: ring, workers: 2, workload: {" +
           workload + ", iterations: 1}, params: {" + params + "}}\n";
}

std::string
TempFile(const std::string& name, const std::string& text)
{
    const std::filesystem::path p = inasim_test::TempDir() / name;
    std::ofstream(p) << text;
    return p.string();
}

TEST(GpuPacketParams, BadValuesNameTheirKey)
{
    const std::string model = RunError(Job("ComputeModel: gpu"));
    EXPECT_NE(model.find("g.yaml"), std::string::npos) << model;
    EXPECT_NE(model.find("key 'jobs.0.params.ComputeModel'"), std::string::npos) << model;
    EXPECT_NE(model.find("known: profiled, gpu-contention"), std::string::npos) << model;

    const std::string policy =
        RunError(Job("ComputeModel: gpu-contention, GpuThreadPolicy: libra"));
    EXPECT_NE(policy.find("key 'jobs.0.params.GpuThreadPolicy'"), std::string::npos) << policy;
    EXPECT_NE(policy.find("libra"), std::string::npos) << policy;

    const std::string zero = RunError(Job("ComputeModel: gpu-contention, GpuThreads: 0"));
    EXPECT_NE(zero.find("key 'jobs.0.params.GpuThreads'"), std::string::npos) << zero;

    const std::string missing =
        RunError(Job("ComputeModel: gpu-contention, GpuParams: /nonexistent/p.yaml"));
    EXPECT_NE(missing.find("key 'jobs.0.params.GpuParams'"), std::string::npos) << missing;
    EXPECT_NE(missing.find("/nonexistent/p.yaml: cannot read"), std::string::npos) << missing;

    std::string bad = ROUND_YAML;
    bad.replace(bad.find("2.5e-4"), 6, "fast");
    const std::string file = TempFile("inasim-gpu-bad-params.yaml", bad);
    const std::string malformed = RunError(Job("ComputeModel: gpu-contention, GpuParams: " + file));
    EXPECT_NE(malformed.find("key 'jobs.0.params.GpuParams'"), std::string::npos) << malformed;
    EXPECT_NE(malformed.find(file + ":2:"), std::string::npos) << malformed;
    EXPECT_NE(malformed.find("alpha2"), std::string::npos) << malformed;
    EXPECT_NE(malformed.find("fast"), std::string::npos) << malformed;

    const std::string se =
        RunError(Job("ComputeModel: gpu-contention, GpuThreadPolicy: se", "model: resnet50"));
    EXPECT_NE(se.find("key 'jobs.0.params.GpuThreadPolicy'"), std::string::npos) << se;
    EXPECT_NE(se.find("FusionBytes"), std::string::npos) << se;

    const std::string noModel = RunError(Job("GpuThreads: 256"));
    EXPECT_NE(noModel.find("key 'jobs.0.params.GpuThreads'"), std::string::npos) << noModel;
    EXPECT_NE(noModel.find("ComputeModel: profiled | gpu-contention"), std::string::npos)
        << noModel;

    const std::string p2p = RunError("link: p2p\n" + Job("ComputeModel: gpu-contention"));
    EXPECT_NE(p2p.find("link: fast"), std::string::npos) << p2p;

    const std::string good = TempFile("inasim-gpu-good-params.yaml", ROUND_YAML);
    EXPECT_EQ(
        RunError(Job("ComputeModel: gpu-contention, GpuThreadPolicy: dp, GpuParams: " + good)),
        "no error");
    std::filesystem::remove(file);
    std::filesystem::remove(good);
}

/// Runs the example scenario with `overrides`; returns summary.json's first job.
nlohmann::json
RunExample(const std::vector<std::string>& overrides, const std::string& outName)
{
    const std::string out = (inasim_test::TempDir() / outName).string();
    ScenarioRunner runner(
        ScenarioLoader::Load(std::string(INASIM_SOURCE_DIR) + "/examples/scenarios/libra-gpu.yaml",
                             overrides),
        out);
    std::ostringstream quiet;
    runner.SetConsole(&quiet, &quiet);
    EXPECT_EQ(runner.Run(), 0);
    std::ifstream in(std::filesystem::path(out) / "summary.json");
    nlohmann::json summary = nlohmann::json::parse(in);
    std::filesystem::remove_all(out);
    return summary["jobs"][0];
}

TEST(GpuPacketExample, DpIsNeverSlowerThanTheWorstFixedThreadCount)
{
    // The example (VGG16, 8 workers, ring at 50 Gb/s, 64 MiB groups), one iteration: backward
    // time with every fixed r of the paper's R, and with dp on the same groups.
    double worst = 0;
    double best = 1e9;
    for (const char* r : {"128", "256", "512", "1024", "2048", "4096"})
    {
        const nlohmann::json j = RunExample(
            {"jobs.0.workload.iterations=1", "jobs.0.params.GpuThreads=" + std::string(r)},
            "inasim-gpu-example-" + std::string(r));
        const double b = j["compute"]["backward_s"][0].get<double>();
        worst = std::max(worst, b);
        best = std::min(best, b);
    }
    const nlohmann::json dp =
        RunExample({"jobs.0.workload.iterations=1", "jobs.0.params.GpuThreadPolicy=dp"},
                   "inasim-gpu-example-dp");
    const double b = dp["compute"]["backward_s"][0].get<double>();
    EXPECT_LT(b, worst);
    // and here better than the best fixed count too (measured: 303 vs 307 ms)
    EXPECT_LT(b, best) << dp["compute"]["threads"];
    EXPECT_EQ(dp["compute"]["policy"], "dp");
    EXPECT_EQ(dp["compute"]["params"].get<std::string>().rfind("ILLUSTRATIVE", 0), 0u);
}

TEST(GpuPacketExample, TheSameSeedGivesTheSameOutputs)
{
    const std::vector<std::string> o = {"jobs.0.workload.model=resnet50",
                                        "jobs.0.workload.iterations=2",
                                        "jobs.0.params.GpuThreadPolicy=dp"};
    nlohmann::json a = RunExample(o, "inasim-gpu-determinism-a");
    nlohmann::json b = RunExample(o, "inasim-gpu-determinism-b");
    EXPECT_EQ(a, b);
    EXPECT_GT(a["compute"]["compute_slowdown_s"][1].get<double>(), 0);
}

} // namespace
