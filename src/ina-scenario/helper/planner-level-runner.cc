/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "planner-level-runner.h"

#include "output-file.h"
#include "programmable-draw.h"

#include "ns3/job-placement.h"
#include "ns3/model-zoo.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"

#ifdef INASIM_HAVE_GRID
#include "ns3/grid-online-planner.h"
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>

namespace ns3
{

#ifdef INASIM_HAVE_GRID

namespace
{

constexpr double kGbps = 1e9;

/// Check the capacity keys that name switches or ranges before any is used.
void
CheckCapacityKeys(const Scenario& sc, const InaTopology& topo)
{
    // Called for its check: a capacity_min/capacity_max range it cannot draw from throws.
    ProgrammableDraw::DrawsCapacities(sc);
    for (const auto& [name, c] : sc.switchConfig.aggregation.perSwitch)
    {
        bool found = false;
        for (uint32_t n = topo.GetNHosts(); n < topo.GetNNodes() && !found; ++n)
        {
            found = topo.GetNode(n).name == name;
        }
        if (!found)
        {
            throw sc.Error("switch.aggregation.per_switch." + name,
                           "no switch named '" + name + "' in this topology");
        }
    }
}

/// C_s of one programmable switch: drawn, per switch, from the topology file, the scenario's
/// capacity, or line rate (the class comment's order).
double
SwitchCapacity(const Scenario& sc, const InaTopology& topo, uint32_t n, std::mt19937_64& rng)
{
    const InaTopology::Node& node = topo.GetNode(n);
    double capacity = 0;
    std::string key = "switch.aggregation.capacity";
    uint64_t pps = 0;
    if (ProgrammableDraw::DrawsCapacities(sc))
    {
        capacity = ProgrammableDraw::DrawCapacity(sc, rng);
    }
    else if (auto it = sc.switchConfig.aggregation.perSwitch.find(node.name);
             it != sc.switchConfig.aggregation.perSwitch.end())
    {
        capacity = static_cast<double>(it->second.bps);
        pps = it->second.pps;
        key = "switch.aggregation.per_switch." + node.name;
    }
    else if (node.aggCapacityBps != 0 || node.aggCapacityPps != 0)
    {
        capacity = static_cast<double>(node.aggCapacityBps);
        pps = node.aggCapacityPps;
        key = "topology.file";
    }
    else
    {
        capacity = static_cast<double>(sc.switchConfig.aggregation.capacity.bps);
        pps = sc.switchConfig.aggregation.capacity.pps;
    }
    if (pps != 0)
    {
        throw sc.Error(key,
                       "switch " + node.name +
                           " has its aggregation capacity in packets per second; the "
                           "planner works in bit/s: give it as a data rate");
    }
    if (capacity == 0)
    {
        // Line rate: every input at its link's rate.
        for (const auto& [peer, link] : topo.Neighbors(n))
        {
            capacity += static_cast<double>(topo.GetLink(link).rateBps);
        }
    }
    return capacity;
}

/// Each worker's bits: its iterations' gradients (the model's or tensor_bytes).
double
BitsPerWorker(const Scenario& sc, size_t i)
{
    const ScenarioJob& sj = sc.jobs[i];
    ModelSpec model;
    if (!sj.workload.model.empty())
    {
        try
        {
            model = ModelZoo::Default().Get(sj.workload.model);
        }
        catch (const std::runtime_error& e)
        {
            throw sc.Error("jobs." + std::to_string(i) + ".workload.model", e.what());
        }
    }
    else
    {
        model = ModelZoo::TensorWorkload(sj.workload.tensorBytes);
    }
    return 8.0 * static_cast<double>(model.TotalBytes()) * sj.workload.iterations;
}

/// Job i of the scenario, placed as the packet level places it; its PS host appended to psOf.
GridOnlinePlanner::Job
MakeJob(const Scenario& sc,
        const InaTopology& topo,
        size_t i,
        std::vector<bool>& used,
        std::vector<std::vector<uint32_t>>& psOf)
{
    const ScenarioJob& sj = sc.jobs[i];
    const std::string key = "jobs." + std::to_string(i);
    GridOnlinePlanner::Job job;
    job.name = sj.name;
    try
    {
        job.scheme = GridOnlinePlanner::ParseScheme(sj.protocol);
    }
    catch (const std::invalid_argument& e)
    {
        throw sc.Error(key + ".protocol", e.what());
    }
    if (sj.psHosts != 1)
    {
        throw sc.Error(key + ".ps_hosts",
                       "the planner plans one parameter server per job (GRID paper, Sec. "
                       "4.1); got " +
                           std::to_string(sj.psHosts));
    }
    job.bitsPerWorker = BitsPerWorker(sc, i);
    job.startS = static_cast<double>(sj.startPs) * 1e-12;
    // The packet level's placement and seeds, so that random placements match it.
    const uint64_t seed = ScenarioRunner::JobSeed(sc.seed, i);
    const JobPlacement::Kind kind = ScenarioRunner::PlacementKind(sj.placement.kind);
    try
    {
        job.workers = JobPlacement::Place(kind, sj.workers, sj.placement.hosts, topo, used, seed);
        const JobPlacement::Kind psKind =
            kind == JobPlacement::Kind::EXPLICIT ? JobPlacement::Kind::PACKED : kind;
        psOf.push_back(JobPlacement::Place(psKind, 1, {}, topo, used, seed + 1));
    }
    catch (const std::runtime_error& e)
    {
        throw sc.Error(key + ".placement", "job '" + sj.name + "' " + e.what());
    }
    job.ps = psOf.back().at(0);
    return job;
}

using json = nlohmann::ordered_json;

/// summary.json's jobs; `completed` false if one never ended.
json
JobsJson(const Scenario& sc,
         const GridOnlinePlanner& online,
         const std::vector<std::vector<uint32_t>>& psOf,
         bool& completed)
{
    json jobs = json::array();
    for (uint32_t i = 0; i < online.GetNJobs(); ++i)
    {
        const GridOnlinePlanner::Job& job = online.GetJob(i);
        const GridOnlinePlanner::JobResult& r = online.GetResults()[i];
        const bool done = r.endS >= 0;
        completed = completed && done;
        json j;
        j["name"] = job.name;
        j["protocol"] = sc.jobs[i].protocol;
        j["workers"] = job.workers.size();
        j["worker_hosts"] = job.workers;
        j["ps_hosts"] = psOf[i];
        j["completed"] = done;
        j["start_s"] = r.startS;
        if (done)
        {
            j["end_s"] = r.endS;
            j["jct_s"] = r.endS - r.startS;
            j["effective_rate_gbps"] = job.bitsPerWorker / (r.endS - r.startS) / kGbps;
        }
        j["rate_gbps"] = r.firstRates.lambdaBps / kGbps;
        j["mean_rate_gbps"] = r.firstRates.meanSendingBps / kGbps;
        j["switch_agg_gbps"] = r.firstRates.switchAggregationBps / kGbps;
        j["ps_agg_gbps"] = r.firstRates.psAggregationBps / kGbps;
        if (job.scheme == GridOnlinePlanner::Scheme::GRID)
        {
            j["lp_bound_gbps"] = r.lpBoundBps / kGbps;
        }
        j["min_rate_gbps"] = r.minRateBps / kGbps;
        j["max_rate_gbps"] = r.maxRateBps / kGbps;
        j["plans"] = r.plans;
        jobs.push_back(j);
    }
    return jobs;
}

/// The re-plans: summary.json's list, replans.csv's rows, the total and longest wall time.
json
ReplansJson(const GridOnlinePlanner& online,
            std::ostringstream& csv,
            double& wallTotal,
            double& wallMax)
{
    json replans = json::array();
    csv << "time_s,trigger,wall_s,job,rate_gbps\n";
    for (const auto& r : online.GetReplans())
    {
        wallTotal += r.wallS;
        wallMax = std::max(wallMax, r.wallS);
        json rates = json::object();
        for (size_t k = 0; k < r.jobs.size(); ++k)
        {
            const std::string& name = online.GetJob(r.jobs[k]).name;
            rates[name] = r.rateBps[k] / kGbps;
            char line[256];
            std::snprintf(line,
                          sizeof(line),
                          "%.12g,\"%s\",%.6f,%s,%.6f\n",
                          r.timeS,
                          r.trigger.c_str(),
                          r.wallS,
                          name.c_str(),
                          r.rateBps[k] / kGbps);
            csv << line;
        }
        replans.push_back({{"time_s", r.timeS},
                           {"trigger", r.trigger},
                           {"wall_s", r.wallS},
                           {"rates_gbps", rates}});
    }
    return replans;
}

/// The human summary.
void
PrintConsole(std::ostream& o,
             const std::string& name,
             bool completed,
             size_t nProgrammable,
             size_t nReplans,
             double wallTotal,
             double wallMax,
             const json& jobs,
             const std::string& outDir)
{
    o << "inasim: " << name << " (planner level) — " << (completed ? "completed" : "INCOMPLETE")
      << "\n";
    char line[300];
    std::snprintf(line,
                  sizeof(line),
                  "  %zu programmable switches, %zu re-plans in %.3f s wall (longest %.3f s)\n",
                  nProgrammable,
                  nReplans,
                  wallTotal,
                  wallMax);
    o << line;
    for (const auto& j : jobs)
    {
        std::snprintf(line,
                      sizeof(line),
                      "  job %s (%s, %llu workers): %.4f Gb/s per worker at its start, "
                      "%.4f Gb/s in switches, %.4f Gb/s into the PS%s\n",
                      j["name"].get<std::string>().c_str(),
                      j["protocol"].get<std::string>().c_str(),
                      static_cast<unsigned long long>(j["workers"].get<uint64_t>()),
                      j["rate_gbps"].get<double>(),
                      j["switch_agg_gbps"].get<double>(),
                      j["ps_agg_gbps"].get<double>(),
                      j["completed"].get<bool>() ? "" : ", never ends");
        o << line;
    }
    o << "  outputs in " << outDir << "/ (summary.json, replans.csv, config.yaml)\n";
}

/// summary.json, replans.csv and config.yaml, and the human summary to `console` (if any).
/// \return 0 when every job ended, else 1
int
WriteOutputs(const Scenario& sc,
             const InaTopology& topo,
             const std::string& outDir,
             std::ostream* console,
             const GridOnlinePlanner& online,
             const std::vector<GridProblem::ProgrammableSwitch>& programmable,
             const std::vector<std::vector<uint32_t>>& psOf,
             double wall)
{
    const ScenarioPlanner& pl = sc.planner;
    json summary;
    summary["name"] = sc.name;
    summary["seed"] = sc.seed;
    summary["level"] = "planner";
    summary["wall_time_s"] = wall;
    bool completed = true;
    const json jobs = JobsJson(sc, online, psOf, completed);
    summary["completed"] = completed;
    if (!completed)
    {
        summary["incomplete_reason"] =
            "a job could never move: every plan gave it rate 0 and nothing was left to start or "
            "end";
    }
    summary["jobs"] = jobs;

    json names = json::array();
    json caps = json::array();
    for (const auto& s : programmable)
    {
        names.push_back(topo.GetNode(s.node).name);
        caps.push_back(s.capacityBps / kGbps);
    }
    double wallTotal = 0;
    double wallMax = 0;
    std::ostringstream csv;
    const json replans = ReplansJson(online, csv, wallTotal, wallMax);
    summary["planner"] = {{"programmable", names},
                          {"capacities_gbps", caps},
                          {"trials", pl.trials},
                          {"repair", pl.repair},
                          {"link_rows", pl.linkRows},
                          {"replans", online.GetReplans().size()},
                          {"replan_wall_s_total", wallTotal},
                          {"replan_wall_s_max", wallMax}};
    summary["replans"] = replans;

    const std::filesystem::path out(outDir);
    WriteOutputFile(out / "summary.json", summary.dump(2) + "\n");
    WriteOutputFile(out / "replans.csv", csv.str());
    WriteOutputFile(out / "config.yaml", EffectiveConfigYaml(sc));
    if (console != nullptr)
    {
        PrintConsole(*console,
                     sc.name,
                     completed,
                     programmable.size(),
                     online.GetReplans().size(),
                     wallTotal,
                     wallMax,
                     jobs,
                     outDir);
    }
    return completed ? 0 : 1;
}

} // namespace

#endif // INASIM_HAVE_GRID

PlannerLevelRunner::PlannerLevelRunner(const Scenario& scenario,
                                       const InaTopology& topology,
                                       const std::string& outDir)
    : m_scenario(scenario)
    , m_topology(topology)
    , m_outDir(outDir)
    , m_summaryOut(&std::cout)
{
}

void
PlannerLevelRunner::SetConsole(std::ostream* summary)
{
    m_summaryOut = summary;
}

#ifndef INASIM_HAVE_GRID

int
PlannerLevelRunner::Run()
{
    throw m_scenario.Error("level",
                           "level: planner runs GRID's planner, but the grid module is not built "
                           "(it needs lp_solve 5.5: apt install liblpsolve55-dev, then configure "
                           "again with INASIM_LPSOLVE=ON)");
}

#else

int
PlannerLevelRunner::Run()
{
    const auto wallStart = std::chrono::steady_clock::now();
    const Scenario& sc = m_scenario;
    const ScenarioPlanner& pl = sc.planner;
    const InaTopology& topo = m_topology;
    std::filesystem::create_directories(m_outDir);

    // One generator for the random programmable set and the capacities, from the scenario seed
    // (the packet level draws the same set from it: ProgrammableDraw).
    std::mt19937_64 rng = ProgrammableDraw::Generator(sc.seed);
    const std::vector<uint32_t> chosen = ProgrammableDraw::Choose(sc, topo, rng);
    CheckCapacityKeys(sc, topo);
    std::vector<GridProblem::ProgrammableSwitch> programmable;
    for (uint32_t n : chosen)
    {
        programmable.push_back({n, SwitchCapacity(sc, topo, n, rng)});
    }

    GridPlanner::Options options;
    options.trials = pl.trials;
    options.repair = pl.repair;
    options.linkRows = pl.linkRows;
    options.seed = sc.seed;
    GridOnlinePlanner online(topo, programmable, options, sc.seed);
    std::vector<bool> used(topo.GetNHosts(), false);
    std::vector<std::vector<uint32_t>> psOf;
    for (size_t i = 0; i < sc.jobs.size(); ++i)
    {
        const GridOnlinePlanner::Job job = MakeJob(sc, topo, i, used, psOf);
        try
        {
            online.AddJob(job);
        }
        catch (const std::invalid_argument& e)
        {
            throw sc.Error("jobs." + std::to_string(i), e.what());
        }
    }
    try
    {
        online.Run();
    }
    catch (const std::invalid_argument& e)
    {
        throw sc.Error("jobs", e.what());
    }
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return WriteOutputs(sc, topo, m_outDir, m_summaryOut, online, programmable, psOf, wall);
}

#endif // INASIM_HAVE_GRID

} // namespace ns3
