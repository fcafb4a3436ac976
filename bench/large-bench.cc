/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench large`: the large multi-job case of issue 18. A k=16 fat-tree (1,024 hosts, 100
// Gb/s, 1 us links), 8 jobs of 128 workers placed packed (16 racks, two pods each), one ResNet-50
// iteration each (the model zoo's layer sizes and compute times), once per protocol: SwitchML
// (aggregating at the ToRs and a core), ATP (ToRs, then the parameter server's ToR) and the ring.
// ATP needs a parameter-server host per job, so its jobs have one worker fewer (8 x (127 + 1) =
// 1,024 hosts). Each protocol runs in a child process of its own, so its peak RSS (VmHWM) is its
// own. Per protocol P, printed as large.P.*:
//   wall_s              wall time of the whole run, set-up included (the set-up's steps and
//                       times are on stderr with the progress lines)
//   peak_rss_mb         the child's peak resident set
//   completed           1 if every job finished
//   sim_time_s          simulated time until the end
//   mean_jct_s          mean job completion time
//   events, hops        simulator events and packet-hops
//   drops               tail drops over every link
//   value_errors        aggregated values outside the protocol's bound (with --check-values)
// A smaller case (--k=4 --jobs=2 --workers=4 --tensor-bytes=... --check-values) is the ctest
// bench/large-smoke. Prints one flat JSON object (docs/driver.md).

#include "bench-main.h"
#include "bench-process.h"

#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-scenario-module.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

struct Options
{
    uint32_t k = 16;
    uint32_t jobs = 8;
    uint32_t workers = 128;
    std::string model = "resnet50";
    std::string tensorBytes; //!< instead of the model: one tensor of this size
    bool checkValues = false;
    std::string outDir = "/tmp/inasim-large-bench";
};

/// What one protocol's run reports (plain numbers: it crosses a pipe from the child).
struct Outcome
{
    double wallS = 0;
    double peakRssMb = 0;
    double completed = 0;
    double simTimeS = 0;
    double meanJctS = 0;
    double events = 0;
    double hops = 0;
    double drops = 0;
    double valueErrors = 0;
};

std::string
ScenarioYaml(const Options& o, const std::string& protocol)
{
    // ATP's parameter server takes a host of its own.
    const uint32_t workers = protocol == "atp" ? o.workers - 1 : o.workers;
    std::ostringstream y;
    y << "name: large-" << protocol << "\n"
      << "seed: 1\n"
      << "check_values: " << (o.checkValues ? "true" : "false") << "\n"
      << "topology: {type: fat-tree, k: " << o.k << "}\n"
      << "switch: {ina_tiers: [tor, core]}\n"
      << "jobs:\n";
    for (uint32_t j = 0; j < o.jobs; ++j)
    {
        y << "  - {protocol: " << protocol << ", workers: " << workers
          << ", placement: packed, ps_hosts: 1, workload: {"
          << (o.tensorBytes.empty() ? "model: " + o.model : "tensor_bytes: " + o.tensorBytes)
          << ", iterations: 1}}\n";
    }
    return y.str();
}

Outcome
RunProtocol(const Options& o, const std::string& protocol)
{
    Outcome out;
    const std::string dir = o.outDir + "/" + protocol;
    auto t0 = std::chrono::steady_clock::now();
    ScenarioRunner runner(ScenarioLoader::LoadString(ScenarioYaml(o, protocol), "large.yaml"), dir);
    std::ostringstream quiet;
    runner.SetConsole(&std::cerr, &quiet);
    runner.Run();
    auto t1 = std::chrono::steady_clock::now();
    out.wallS = std::chrono::duration<double>(t1 - t0).count();
    std::ifstream in(dir + "/summary.json");
    const nlohmann::json s = nlohmann::json::parse(in);
    out.completed = s.at("completed").get<bool>() ? 1 : 0;
    out.simTimeS = s.at("sim_time_s").get<double>();
    out.events = s.at("events").get<double>();
    out.hops = s.at("packet_hops").get<double>();
    out.drops = s.at("links").at("drops").get<double>();
    double jct = 0;
    for (const auto& j : s.at("jobs"))
    {
        jct += j.value("jct_s", 0.0);
        out.valueErrors += j.value("value_errors", 0.0);
        out.completed = out.completed != 0 && j.at("completed").get<bool>() ? 1 : 0;
    }
    out.meanJctS = s.at("jobs").empty() ? 0 : jct / s.at("jobs").size();
    Simulator::Destroy();
    out.peakRssMb = BenchPeakRssBytes() / 1048576.0;
    return out;
}

} // namespace

int
main(int argc, char* argv[])
{
    Options o;
    std::string protocols = "switchml,atp,ring";
    bool fork = true;
    CommandLine cmd = BenchCommandLine(
        __FILE__,
        "The large case: a k=16 fat-tree, 8 jobs x 128 workers, one ResNet-50 iteration "
        "each, with SwitchML, ATP and the ring: wall time, peak RSS, completion.");
    cmd.AddValue("k", "fat-tree size (even, >= 4)", o.k);
    cmd.AddValue("jobs", "jobs", o.jobs);
    cmd.AddValue("workers",
                 "workers per job (ATP: one of them is its parameter server)",
                 o.workers);
    cmd.AddValue("model", "model of the zoo", o.model);
    cmd.AddValue("tensor-bytes",
                 "one tensor of this size instead of the model (e.g. 1MB)",
                 o.tensorBytes);
    cmd.AddValue("check-values", "carry real values and check every result", o.checkValues);
    cmd.AddValue("protocols", "comma-separated protocols", protocols);
    cmd.AddValue("out", "folder for the runs' outputs", o.outDir);
    cmd.AddValue("fork", "run each protocol in a child process (peak RSS per protocol)", fork);
    cmd.Parse(argc, argv);
    const uint64_t hosts = static_cast<uint64_t>(o.k) * o.k * o.k / 4;
    if (o.k < 4 || o.k % 2 != 0 || o.workers < 2 ||
        static_cast<uint64_t>(o.jobs) * o.workers > hosts)
    {
        std::fprintf(stderr,
                     "large-bench: --jobs (%u) x --workers (%u) must fit the %llu hosts of an "
                     "even k >= 4 (--k=%u), with at least 2 workers per job\n",
                     o.jobs,
                     o.workers,
                     static_cast<unsigned long long>(hosts),
                     o.k);
        return 2;
    }
    std::ostringstream json;
    json << "{";
    bool first = true;
    auto emit = [&](const std::string& key, double v, int precision) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", precision, v);
        json << (first ? "" : ", ") << "\"large." << key << "\": " << buf;
        first = false;
    };
    for (const std::string& p : BenchSplitList(protocols))
    {
        std::fprintf(stderr,
                     "large-bench: %s, %u jobs x %u workers on k=%u ...\n",
                     p.c_str(),
                     o.jobs,
                     o.workers,
                     o.k);
        const Outcome r = fork ? BenchRunInChild<Outcome>(
                                     [&] {
                                         return RunProtocol(o, p);
                                     },
                                     "large-bench: the " + p + " run")
                               : RunProtocol(o, p);
        emit(p + ".wall_s", r.wallS, 2);
        emit(p + ".peak_rss_mb", r.peakRssMb, 1);
        emit(p + ".completed", r.completed, 0);
        emit(p + ".sim_time_s", r.simTimeS, 6);
        emit(p + ".mean_jct_s", r.meanJctS, 6);
        emit(p + ".events", r.events, 0);
        emit(p + ".hops", r.hops, 0);
        emit(p + ".drops", r.drops, 0);
        emit(p + ".value_errors", r.valueErrors, 0);
    }
    json << "}";
    std::printf("%s\n", json.str().c_str());
    std::error_code ec;
    std::filesystem::remove_all(o.outDir, ec);
    return 0;
}
