/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench grid`: GRID's planner on the paper's largest fabric, and GRID's packet level.
//
//   grid.leafspine_a.*, grid.leafspine_b.*   examples/papers/grid/leafspine-{a,b}.yaml with 100
//                                            workers (the 30 + 30 leaf-spine with 500 servers;
//                                            (a) every leaf programmable, (b) a random 20 % of
//                                            the switches), GRID at planner level:
//       plan_wall_s    wall time of the one plan (LP with link rows, 32 roundings, repair)
//       run_wall_s     the whole planner-level run (topology, routes, plan, outputs)
//       rate_gbps      the plan's common worker rate; lp_bound_gbps its LP bound
//   grid.fattree_b.*                         the same on the 80-switch fat-tree, 100 workers
//   grid.fig1_packet.*                       examples/scenarios/grid-rack.yaml (Fig. 1's fabric,
//                                            8 workers, values checked) at packet level with a
//                                            100 MB tensor: wall_s, events, hops, hops_per_s,
//                                            sim_time_s
// Runs through the scenario runner, as `./inasim run` does.

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

nlohmann::json
RunScenario(const std::string& path,
            const std::vector<std::string>& overrides,
            const std::string& outDir,
            double& wallS)
{
    const Scenario scenario = ScenarioLoader::Load(path, overrides);
    ScenarioRunner runner(scenario, outDir);
    std::ostringstream quiet;
    runner.SetConsole(nullptr, &quiet);
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = runner.Run();
    wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (rc != 0)
    {
        throw std::runtime_error(path + " did not complete:\n" + quiet.str());
    }
    std::ifstream in(outDir + "/summary.json");
    return nlohmann::json::parse(in);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string outBase = "results/bench/grid";
    uint32_t workers = 100;
    std::string tensor = "100MB";
    InaFabricHelper::ConfigureSimulator(); // picosecond time steps, the scheduler: before any Time
    CommandLine cmd(__FILE__);
    cmd.AddValue("out", "folder for the runs' outputs", outBase);
    cmd.AddValue("workers", "workers of the planner-level cases", workers);
    cmd.AddValue("tensor", "tensor of the packet-level case", tensor);
    cmd.Parse(argc, argv);
    const std::string src = INASIM_SOURCE_DIR;
    try
    {
        std::vector<std::pair<std::string, double>> metrics;
        const std::string w = "jobs.0.workers=" + std::to_string(workers);
        for (const char* name : {"leafspine-a", "leafspine-b", "fattree-b"})
        {
            double wall = 0;
            const nlohmann::json s =
                RunScenario(src + "/examples/papers/grid/" + std::string(name) + ".yaml",
                            {w, "jobs.0.protocol=grid"},
                            outBase + "/" + name,
                            wall);
            std::string key = "grid." + std::string(name) + ".";
            key[key.find('-')] = '_';
            metrics.push_back({key + "plan_wall_s", s["planner"]["replan_wall_s_max"]});
            metrics.push_back({key + "run_wall_s", wall});
            metrics.push_back({key + "rate_gbps", s["jobs"][0]["rate_gbps"]});
            metrics.push_back({key + "lp_bound_gbps", s["jobs"][0]["lp_bound_gbps"]});
        }
        double wall = 0;
        const nlohmann::json s =
            RunScenario(src + "/examples/scenarios/grid-rack.yaml",
                        {"jobs.0.workload.tensor_bytes=" + tensor, "jobs.0.workload.iterations=1"},
                        outBase + "/fig1-packet",
                        wall);
        const double hops = s["packet_hops"].get<double>();
        metrics.push_back({"grid.fig1_packet.wall_s", wall});
        metrics.push_back({"grid.fig1_packet.events", s["events"].get<double>()});
        metrics.push_back({"grid.fig1_packet.hops", hops});
        metrics.push_back({"grid.fig1_packet.hops_per_s", wall > 0 ? hops / wall : 0.0});
        metrics.push_back({"grid.fig1_packet.sim_time_s", s["sim_time_s"].get<double>()});
        std::printf("{");
        for (size_t i = 0; i < metrics.size(); ++i)
        {
            std::printf("%s\"%s\": %.6g",
                        i ? ", " : "",
                        metrics[i].first.c_str(),
                        metrics[i].second);
        }
        std::printf("}\n");
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "grid-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
