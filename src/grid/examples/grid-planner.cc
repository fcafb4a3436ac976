/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// grid-planner: GRID's control plane at planner level (Fang et al., Sec. 3.1 and 6.3; inasim
// spec B.9): GRID's R-GRIA plan against the fluid models of ATP, SwitchML and Geryon.
//
//   grid-planner --scenario=fig1 [--plan]
//   grid-planner --scenario=fattree --programmable=random20 --workers=20,40,60,80,100 --seeds=10
//   grid-planner --scenario=leafspine --programmable=tor
//
// fig1 prints one row per scheme for the motivating example (topologies/grid-fig1.topo):
//   scheme,lambda_gbps,mean_rate_gbps,switch_agg_gbps,ps_agg_gbps
// fattree/leafspine print, per worker count and scheme, the means over the seeds:
//   topology,programmable,workers,scheme,seeds,mean_rate_gbps,switch_agg_gbps,ps_agg_gbps,
//   lp_bound_gbps,lambda_hat_gbps
// Lines starting with '#' describe the set-up. Exit status: 0 done, 2 bad input (message on
// stderr).

#include "ns3/grid-planner.h"

#include "ns3/command-line.h"
#include "ns3/grid-baselines.h"
#include "ns3/grid-problem.h"
#include "ns3/ina-list-option.h"
#include "ns3/ina-split-mix.h"
#include "ns3/ina-topology.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr double kGbps = 1e9;

#ifdef INASIM_TOPOLOGY_DIR
const std::string kDefaultFig1 = std::string(INASIM_TOPOLOGY_DIR) + "/grid-fig1.topo";
#else
const std::string kDefaultFig1 = "topologies/grid-fig1.topo";
#endif

/// Uniform on [0, 1) from the top 53 bits (the same on every platform).
double
Uniform(std::mt19937_64& rng)
{
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

/**
 * A k-ary fat-tree (Al-Fares: k pods of k/2 ToRs and k/2 aggs, (k/2)^2 cores, ToR i of a pod to
 * every agg of the pod, agg j of every pod to cores j*k/2 .. j*k/2+k/2-1) with `hostsPerEdge`
 * hosts per ToR instead of k/2. The paper's fabric is k = 8 with 6 hosts per ToR: 80 switches,
 * 192 servers. InaTopology::FatTree(8, link, link, 6) builds the same fabric but numbers its
 * switches tier by tier; this text numbers them pod by pod, the numbering the measured tables of
 * doc/grid.rst come from (ECMP tie-breaks and so the routes depend on node ids).
 */
std::string
FatTreeText(uint32_t k, uint32_t hostsPerEdge, const std::string& rate)
{
    const uint32_t h = k / 2;
    std::ostringstream t;
    t << "defaults rate=" << rate << " delay=1us\n";
    for (uint32_t p = 0; p < k; ++p)
    {
        t << "switch tor" << p * h << "..tor" << p * h + h - 1 << " tier=tor pod=" << p << "\n";
        t << "switch agg" << p * h << "..agg" << p * h + h - 1 << " tier=agg pod=" << p << "\n";
    }
    t << "switch core0..core" << h * h - 1 << " tier=core\n";
    t << "host h0..h" << k * h * hostsPerEdge - 1 << " attach=tor0..tor" << k * h - 1 << "\n";
    for (uint32_t p = 0; p < k; ++p)
    {
        t << "link tor" << p * h << "..tor" << p * h + h - 1 << " agg" << p * h << "..agg"
          << p * h + h - 1 << "\n";
        for (uint32_t j = 0; j < h; ++j)
        {
            t << "link agg" << p * h + j << " core" << j * h << "..core" << j * h + h - 1 << "\n";
        }
    }
    return t.str();
}

/**
 * Leaf-spine with `hosts` servers spread as evenly as the count allows (the first
 * hosts % leaves leaves get one more), every leaf linked to every spine. The paper's 30 x 30
 * with 500 servers: 20 leaves of 17 and 10 of 16 (spec B.9 (iii) [E]).
 */
std::string
LeafSpineText(uint32_t leaves, uint32_t spines, uint32_t hosts, const std::string& rate)
{
    const uint32_t q = hosts / leaves;
    const uint32_t r = hosts % leaves;
    std::ostringstream t;
    t << "defaults rate=" << rate << " delay=1us\n";
    t << "switch leaf0..leaf" << leaves - 1 << " tier=leaf\n";
    t << "switch spine0..spine" << spines - 1 << " tier=spine\n";
    if (r > 0)
    {
        t << "host h0..h" << r * (q + 1) - 1 << " attach=leaf0..leaf" << r - 1 << "\n";
    }
    t << "host h" << r * (q + 1) << "..h" << hosts - 1 << " attach=leaf" << r << "..leaf"
      << leaves - 1 << "\n";
    t << "link leaf0..leaf" << leaves - 1 << " spine0..spine" << spines - 1 << "\n";
    return t.str();
}

/// One row of the sweep: sums over seeds.
struct Sum
{
    double rate = 0;
    double switchAgg = 0;
    double psAgg = 0;
    double lpBound = 0;
    double lambdaHat = 0;

    void Add(const GridSchemeRates& r)
    {
        rate += r.meanSendingBps;
        switchAgg += r.switchAggregationBps;
        psAgg += r.psAggregationBps;
    }
};

int
RunFig1(const std::string& topologyPath, const GridPlanner::Options& options, bool showPlan)
{
    const InaTopology topo = InaTopology::FromFile(topologyPath);
    std::vector<uint32_t> workers;
    for (const char* name : {"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"})
    {
        workers.push_back(topo.FindNode(name));
    }
    std::vector<GridProblem::ProgrammableSwitch> switches;
    for (const char* name : {"s1", "s2", "s3"})
    {
        switches.push_back({topo.FindNode(name), 9 * kGbps});
    }
    const GridProblem problem(topo, workers, topo.FindNode("ps"), switches);

    const GridPlan plan = GridPlanner(options).Plan(problem);
    const GridSchemeRates grid = plan.Rates();
    const GridSchemeRates atp = GridBaselines::Atp(problem);
    const GridSchemeRates sml = GridBaselines::SwitchMl(problem);
    const GridSchemeRates ger = GridBaselines::Geryon(problem);

    std::printf("# grid-planner: GRID (Fang et al.) Fig. 1, planner level (inasim spec B.9 (i))\n");
    std::printf("# topology %s: w1..w8, PS, s1..s3 all programmable with C = 9 Gb/s; links "
                "3 Gb/s, PS link (B_alpha) %.0f Gb/s; T = %.0f Gb/s\n",
                topologyPath.c_str(),
                problem.GetPsIngressBps() / kGbps,
                problem.GetMinWorkerRateBps() / kGbps);
    std::printf("# paper: GRID 3, ATP 2.43, Geryon 1 Gb/s (SwitchML not given for Fig. 1)\n");
    std::printf("scheme,lambda_gbps,mean_rate_gbps,switch_agg_gbps,ps_agg_gbps\n");
    const std::pair<const char*, GridSchemeRates> rows[] = {{"grid", grid},
                                                            {"atp", atp},
                                                            {"switchml", sml},
                                                            {"geryon", ger}};
    for (const auto& [name, r] : rows)
    {
        std::printf("%s,%.4f,%.4f,%.4f,%.4f\n",
                    name,
                    r.lambdaBps / kGbps,
                    r.meanSendingBps / kGbps,
                    r.switchAggregationBps / kGbps,
                    r.psAggregationBps / kGbps);
    }
    std::printf("# grid: LP bound %.4f Gb/s, achieved %.4f Gb/s (trial %u of %u), bottleneck: "
                "%s; printed-model optimum (oracle) %.4f Gb/s\n",
                plan.lpBoundBps / kGbps,
                plan.achievedBps / kGbps,
                plan.bestTrial,
                plan.trials,
                plan.bottleneck.c_str(),
                GridPlanner::PaperOptimum(problem) / kGbps);
    if (showPlan)
    {
        for (const GridPlan::WorkerRoute& w : plan.workers)
        {
            std::string path;
            for (uint32_t n : w.path)
            {
                path += (path.empty() ? "" : " ") + topo.GetNode(n).name;
            }
            std::printf("# plan: %s aggregated at %s, %.4f Gb/s, route %s\n",
                        topo.GetNode(w.host).name.c_str(),
                        topo.GetNode(w.node).name.c_str(),
                        w.rateBps / kGbps,
                        path.c_str());
        }
        for (const GridPlan::SwitchRoute& s : plan.switches)
        {
            std::string path;
            for (uint32_t n : s.pathToPs)
            {
                path += (path.empty() ? "" : " ") + topo.GetNode(n).name;
            }
            std::printf("# plan: %s fan-in %u, aggregate %.4f Gb/s, route %s\n",
                        topo.GetNode(s.node).name.c_str(),
                        s.fanIn,
                        s.rateBps / kGbps,
                        path.c_str());
        }
        std::printf("# plan: PS fan-in %u streams (%u direct workers)\n",
                    plan.psFanIn,
                    plan.directWorkers);
    }
    return 0;
}

int
RunSweep(const std::string& scenario,
         const std::string& programmable,
         const std::vector<uint32_t>& workerCounts,
         uint32_t seeds,
         const GridPlanner::Options& base,
         bool variants)
{
    const bool fatTree = scenario == "fattree";
    const std::string text =
        fatTree ? FatTreeText(8, 6, "100Gbps") : LeafSpineText(30, 30, 500, "100Gbps");
    const InaTopology topo = InaTopology::FromString(text, scenario + " (generated)");
    const std::string rackTier = fatTree ? "tor" : "leaf";
    const uint32_t perRack = fatTree ? 6 : 16;
    const std::vector<uint32_t> racks = topo.NodesInTier(rackTier);
    std::vector<uint32_t> allSwitches;
    for (uint32_t n = topo.GetNHosts(); n < topo.GetNNodes(); ++n)
    {
        allSwitches.push_back(n);
    }
    uint32_t percent = 0;
    if (programmable != "tor")
    {
        const std::string digits = programmable.size() > 6 ? programmable.substr(6) : "";
        if (programmable.compare(0, 6, "random") != 0 || digits.empty() || digits.size() > 3 ||
            digits.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(digits) == 0 || std::stoul(digits) > 100)
        {
            throw std::invalid_argument("--programmable=" + programmable +
                                        ": expected tor (every " + rackTier +
                                        " switch) or randomP (P % of all switches, 1..100, e.g. "
                                        "random20)");
        }
        percent = static_cast<uint32_t>(std::stoul(digits));
    }
    const uint32_t maxWorkers = perRack * static_cast<uint32_t>(racks.size() - 1);
    for (uint32_t n : workerCounts)
    {
        if (n > maxWorkers)
        {
            throw std::invalid_argument(
                "--workers: " + std::to_string(n) + " workers do not fit " +
                std::to_string(perRack) + " per rack in the " + std::to_string(racks.size() - 1) +
                " racks left beside the PS's: expected at most " + std::to_string(maxWorkers));
        }
    }
    const uint32_t nProgrammable =
        percent == 0
            ? static_cast<uint32_t>(racks.size())
            : std::max<uint32_t>(1,
                                 static_cast<uint32_t>((allSwitches.size() * percent + 50) / 100));

    std::printf("# grid-planner: GRID (Fang et al.) Sec. 6.3, planner level (inasim spec B.9 "
                "(iii))\n");
    std::printf("# topology %s: %u hosts, %u switches, all links 100 Gb/s; %s\n",
                scenario.c_str(),
                topo.GetNHosts(),
                topo.GetNSwitches(),
                fatTree ? "k = 8 fat-tree with 6 servers per edge switch (32 edge, 32 agg, 16 "
                          "core)"
                        : "30 leaves x 30 spines, 500 servers (20 leaves of 17, 10 of 16)");
    std::printf("# programmable: %s (%u switches); capacities uniform in [100 Gb/s, 3.2 Tb/s], "
                "drawn per seed\n",
                percent == 0 ? ("every " + rackTier).c_str()
                             : ("random " + std::to_string(percent) +
                                " % of all switches, "
                                "drawn per seed")
                                   .c_str(),
                nProgrammable);
    std::printf("# placement: workers fill racks in order, %u per rack; the PS is the first host "
                "of the last rack; T = B_alpha = 100 Gb/s\n",
                perRack);
    std::printf("# grid: LP with link rows, %u roundings, each repaired by single-worker moves "
                "and switch closures (%s); grid-rgria: the same without repair; grid-paper: the "
                "paper's LP and R-GRIA as printed (no link rows, no repair), its plan evaluated on "
                "the fabric (mean_rate etc.), lambda_hat under the printed model\n",
                base.trials,
                base.repair ? "on" : "OFF: --repair=false");
    std::printf("# means over %u seeds (base seed %llu); lp_bound = LP optimum lambda~, "
                "lambda_hat = achieved rate\n",
                seeds,
                static_cast<unsigned long long>(base.seed));
    std::printf("topology,programmable,workers,scheme,seeds,mean_rate_gbps,switch_agg_gbps,"
                "ps_agg_gbps,lp_bound_gbps,lambda_hat_gbps\n");

    for (uint32_t nWorkers : workerCounts)
    {
        Sum grid;
        Sum rgria;
        Sum paper;
        Sum atp;
        Sum sml;
        Sum ger;
        for (uint32_t s = 0; s < seeds; ++s)
        {
            const uint64_t instanceSeed = InaSplitMix64(InaSplitMix64(base.seed) ^ (s + 1));
            std::mt19937_64 rng(instanceSeed);
            std::vector<uint32_t> chosen;
            if (percent == 0)
            {
                chosen = racks;
            }
            else
            {
                std::vector<uint32_t> pool = allSwitches;
                for (uint32_t i = 0; i < nProgrammable; ++i)
                {
                    const std::size_t j =
                        i + static_cast<std::size_t>(Uniform(rng) * (pool.size() - i));
                    std::swap(pool[i], pool[j]);
                }
                chosen.assign(pool.begin(), pool.begin() + nProgrammable);
                std::sort(chosen.begin(), chosen.end());
            }
            std::vector<GridProblem::ProgrammableSwitch> switches;
            for (uint32_t node : chosen)
            {
                switches.push_back({node, (100 + Uniform(rng) * (3200 - 100)) * kGbps});
            }
            std::vector<uint32_t> workers;
            for (uint32_t w = 0; w < nWorkers; ++w)
            {
                workers.push_back(topo.HostsUnder(racks[w / perRack]).at(w % perRack));
            }
            const uint32_t ps = topo.HostsUnder(racks.back()).front();
            const GridProblem problem(topo, workers, ps, switches);

            GridPlanner::Options opt = base;
            opt.seed = instanceSeed;
            opt.linkRows = true;
            const GridPlan plan = GridPlanner(opt).Plan(problem);
            grid.Add(plan.Rates());
            grid.lpBound += plan.lpBoundBps;
            grid.lambdaHat += plan.achievedBps;
            if (variants)
            {
                opt.repair = false;
                const GridPlan rgriaPlan = GridPlanner(opt).Plan(problem);
                rgria.Add(rgriaPlan.Rates());
                rgria.lpBound += rgriaPlan.lpBoundBps;
                rgria.lambdaHat += rgriaPlan.achievedBps;
                opt.linkRows = false;
                const GridPlan paperPlan = GridPlanner(opt).Plan(problem);
                paper.Add(GridPlanner::MakePlan(problem, paperPlan.Assignment(), true).Rates());
                paper.lpBound += paperPlan.lpBoundBps;
                paper.lambdaHat += paperPlan.achievedBps;
            }
            atp.Add(GridBaselines::Atp(problem));
            sml.Add(GridBaselines::SwitchMl(problem));
            ger.Add(GridBaselines::Geryon(problem));
        }
        auto row = [&](const char* name, const Sum& sum, bool lp) {
            const double k = seeds * kGbps;
            std::printf("%s,%s,%u,%s,%u,%.4f,%.4f,%.4f,",
                        scenario.c_str(),
                        programmable.c_str(),
                        nWorkers,
                        name,
                        seeds,
                        sum.rate / k,
                        sum.switchAgg / k,
                        sum.psAgg / k);
            if (lp)
            {
                std::printf("%.4f,%.4f\n", sum.lpBound / k, sum.lambdaHat / k);
            }
            else
            {
                std::printf(",\n");
            }
        };
        row("grid", grid, true);
        if (variants)
        {
            row("grid-rgria", rgria, true);
            row("grid-paper", paper, true);
        }
        row("atp", atp, false);
        row("switchml", sml, false);
        row("geryon", ger, false);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string scenario = "fig1";
    std::string topologyPath = kDefaultFig1;
    std::string workersText = "20,40,60,80,100";
    std::string programmable = "tor";
    uint32_t seeds = 10;
    GridPlanner::Options options;
    bool plan = false;
    bool variants = true;

    CommandLine cmd(__FILE__);
    cmd.Usage("GRID's planner (R-GRIA) against ATP, SwitchML and Geryon at planner level: the "
              "paper's Fig. 1 example and its Sec. 6.3 fat-tree and leaf-spine sweeps, as CSV.");
    cmd.AddValue("scenario", "fig1, fattree or leafspine", scenario);
    cmd.AddValue("topology", "fig1: the topology file", topologyPath);
    cmd.AddValue("workers", "fattree/leafspine: comma-separated worker counts", workersText);
    cmd.AddValue("seeds", "fattree/leafspine: instances averaged per worker count", seeds);
    cmd.AddValue("programmable",
                 "fattree/leafspine: tor (every ToR/leaf, scenario (a)) or randomP (P % of all "
                 "switches, scenario (b): random20)",
                 programmable);
    cmd.AddValue("trials", "R: roundings per plan", options.trials);
    cmd.AddValue("seed", "base seed (capacities, programmable sets, roundings)", options.seed);
    cmd.AddValue("plan", "fig1: also print GRID's plan (nodes, fan-ins, routes)", plan);
    cmd.AddValue("repair",
                 "GRID's repair step after each rounding (not in the paper)",
                 options.repair);
    cmd.AddValue("variants",
                 "fattree/leafspine: add the rows grid-rgria (no repair) and grid-paper (the "
                 "paper's LP and rounding as printed)",
                 variants);
    cmd.Parse(argc, argv);

    try
    {
        if (options.trials == 0)
        {
            throw std::invalid_argument("--trials=0: expected at least one rounding");
        }
        if (scenario == "fig1")
        {
            return RunFig1(topologyPath, options, plan);
        }
        if (scenario == "fattree" || scenario == "leafspine")
        {
            if (seeds == 0)
            {
                throw std::invalid_argument("--seeds=0: expected at least one instance");
            }
            return RunSweep(scenario,
                            programmable,
                            InaParsePositiveList(workersText, "workers"),
                            seeds,
                            options,
                            variants);
        }
        throw std::invalid_argument("--scenario=" + scenario +
                                    ": expected fig1, fattree or leafspine");
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
