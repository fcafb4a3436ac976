/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench esa`: the ESA paper's simulation set-up (examples/scenarios/esa-paper.yaml: one
// 100 Gb/s switch, 8 jobs x 8 workers of DNN A plus a parameter server each, 5 MB of INA memory,
// 306-B packets, the paper's send order, sender jitter U(0, 300 us) and overlap of the next forward
// pass, 3 iterations) run through the scenario runner, once per protocol in one process, so the
// ratios are meaningful on a noisy machine. Every protocol runs the same file: ESA takes its
// priority inputs from the jobs' model and worker settings. Per protocol P (esa, atp, switchml),
// printed as esa.paper.P.*:
//   wall_s, events, hops, hops_per_s   the simulation's wall time and its packet-hop rate
//   sim_time_s                         simulated time until the last job finished
//   mean_jct_s                         the mean JCT over the jobs (the paper's Figure 8 metric)
//   mean_steady_iteration_s            the mean over the jobs of their iterations after the first
//                                      (one communication round and the computation overlapping
//                                      it: the paper's job)
//   utilisation                        mean aggregation throughput over the 306-B line-rate
//                                      goodput, 248 / 306 x 100 Gb/s (the paper's Figure 10)
//   ps_fallback_packets                packets the jobs' parameter servers aggregated
//   collisions, preemptions            the switch program's collision and preempted counters
//                                      (0 where the program has none)
// and esa.paper.ratio.atp_jct_over_esa, esa.paper.ratio.switchml_jct_over_esa: the paper's
// speed-ups of ESA (1.35x over ATP and up to 1.89x over SwitchML for all-DNN-A in its figures).
// The driver runs the scheduler benchmark beside it (raw event rate, for the hop rate's context).

#include "bench-main.h"
#include "bench-process.h"
#include "bench-report.h"

#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-scenario-module.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The line-rate goodput of 306-B frames carrying 248 B of values, bit/s.
constexpr double GOODPUT_GBPS = 248.0 / 306.0 * 100.0;

struct Outcome
{
    double wallS = 0;
    double events = 0;
    double hops = 0;
    double simTimeS = 0;
    double meanJctS = 0;
    double meanSteadyS = 0;
    double utilisation = 0;
    double collisions = 0;
    double preemptions = 0;
    double fallback = 0;
    bool complete = false;
    std::string why;
};

Outcome
RunOnce(const std::string& scenarioPath,
        const std::string& protocol,
        const std::vector<std::string>& extra,
        const std::string& outDir)
{
    std::vector<std::string> overrides = extra;
    const Scenario probe = ScenarioLoader::Load(scenarioPath, overrides);
    for (std::size_t i = 0; i < probe.jobs.size(); ++i)
    {
        overrides.push_back("jobs." + std::to_string(i) + ".protocol=" + protocol);
    }
    const Scenario scenario = ScenarioLoader::Load(scenarioPath, overrides);
    ScenarioRunner runner(scenario, outDir);
    std::ostringstream quiet;
    runner.SetConsole(nullptr, &quiet);
    auto t0 = std::chrono::steady_clock::now();
    const int rc = runner.Run();
    auto t1 = std::chrono::steady_clock::now();
    Outcome o;
    o.wallS = std::chrono::duration<double>(t1 - t0).count();
    std::ifstream in(outDir + "/summary.json");
    const nlohmann::json s = nlohmann::json::parse(in);
    o.events = s.at("events").get<double>();
    o.hops = s.at("packet_hops").get<double>();
    o.simTimeS = s.at("sim_time_s").get<double>();
    o.complete = rc == 0;
    o.why = s.value("incomplete_reason", std::string());
    double jct = 0;
    double steady = 0;
    double thr = 0;
    const auto& jobs = s.at("jobs");
    for (const auto& j : jobs)
    {
        jct += j.at("jct_s").get<double>();
        thr += j.at("agg_throughput_gbps").get<double>();
        o.fallback += j.at("ps_fallback_packets").get<double>();
        o.complete = o.complete && j.at("completed").get<bool>();
        const auto& it = j.at("iteration_time_s");
        double sum = 0;
        for (std::size_t k = 1; k < it.size(); ++k)
        {
            sum += it[k].get<double>();
        }
        // A job of one iteration has no steady state: its only iteration stands for it.
        steady += it.size() > 1 ? sum / (it.size() - 1) : (it.empty() ? 0 : it[0].get<double>());
    }
    for (const auto& sw : s.at("switches"))
    {
        for (const auto& program : sw.at("pipeline").value("programs", nlohmann::json::array()))
        {
            const auto& c = program.at("counters");
            o.collisions += c.value("collision", 0.0);
            o.preemptions += c.value("preempted", 0.0);
        }
    }
    o.meanJctS = jobs.empty() ? 0 : jct / jobs.size();
    o.meanSteadyS = jobs.empty() ? 0 : steady / jobs.size();
    o.utilisation = jobs.empty() ? 0 : thr / jobs.size() / GOODPUT_GBPS;
    return o;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string scenario = std::string(INASIM_SOURCE_DIR) + "/examples/scenarios/esa-paper.yaml";
    std::string protocols = "esa,atp,switchml";
    std::string outDir = "/tmp/inasim-esa-bench";
    std::string overrideList;
    CommandLine cmd = BenchCommandLine(
        __FILE__,
        "ESA benchmark: the paper's simulation set-up (8 jobs x 8 workers on one 100 Gb/s "
        "switch, sender jitter, send order and overlap) with ESA, ATP and SwitchML: wall "
        "time, packet-hops/s, mean JCT, memory utilisation.");
    cmd.AddValue("scenario", "the scenario file", scenario);
    cmd.AddValue("protocols", "comma-separated protocols; the first is the reference", protocols);
    cmd.AddValue("overrides", "semicolon-separated KEY=VALUE scenario overrides", overrideList);
    cmd.AddValue("out", "folder for the runs' outputs (one sub-folder per protocol)", outDir);
    cmd.Parse(argc, argv);

    const std::vector<std::string> names = BenchSplitList(protocols);
    const std::vector<std::string> overrides = BenchSplitList(overrideList, ';');
    if (names.empty())
    {
        std::fprintf(stderr, "esa-bench: --protocols is empty\n");
        return 1;
    }

    BenchJson json;
    std::vector<Outcome> outcomes;
    for (const std::string& p : names)
    {
        std::fprintf(stderr, "esa-bench: %s\n", p.c_str());
        Outcome o;
        try
        {
            o = RunOnce(scenario, p, overrides, outDir + "/" + p);
        }
        catch (const std::exception& e)
        {
            std::fprintf(stderr, "esa-bench: %s: %s\n", p.c_str(), e.what());
            return 1;
        }
        if (!o.complete)
        {
            std::fprintf(stderr,
                         "esa-bench: %s did not complete: %s\n",
                         p.c_str(),
                         o.why.empty() ? "a job is incomplete" : o.why.c_str());
            return 1;
        }
        const std::string k = "esa.paper." + p + ".";
        json.Put(k + "wall_s", o.wallS, "%.6f");
        json.Put(k + "events", o.events, "%.0f");
        json.Put(k + "hops", o.hops, "%.0f");
        json.Put(k + "hops_per_s", o.hops / o.wallS, "%.1f");
        json.Put(k + "sim_time_s", o.simTimeS, "%.9f");
        json.Put(k + "mean_jct_s", o.meanJctS, "%.9f");
        json.Put(k + "mean_steady_iteration_s", o.meanSteadyS, "%.9f");
        json.Put(k + "utilisation", o.utilisation, "%.5f");
        json.Put(k + "ps_fallback_packets", o.fallback, "%.0f");
        json.Put(k + "collisions", o.collisions, "%.0f");
        json.Put(k + "preemptions", o.preemptions, "%.0f");
        outcomes.push_back(o);
    }
    for (std::size_t i = 1; i < names.size(); ++i)
    {
        json.Put("esa.paper.ratio." + names[i] + "_jct_over_" + names[0],
                 outcomes[i].meanJctS / outcomes[0].meanJctS,
                 "%.5f");
    }
    json.Print();
    return 0;
}
