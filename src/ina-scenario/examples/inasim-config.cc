/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// inasim-config: the scenario layer on the command line, for the Python driver (which has no YAML
// parser) and for researchers checking a file before a long run.
//
//   inasim-config check FILE [KEY=VALUE ...]   effective YAML on stdout (warnings on stderr), or
//                                              the error (exit 2). Builds the fabric and installs
//                                              the jobs as `run` does (ScenarioRunner::Prepare),
//                                              so it rejects everything `run` would reject
//                                              before simulating.
//   inasim-config effective FILE [KEY=VALUE ...]
//                                              the same, reading the file only (fast; what a
//                                              sweep compares to tell whether a run is current)
//   inasim-config expand-sweep SWEEPFILE       the runs of a sweep as JSON (exit 2 on error)
//   inasim-config defaults                     every key with its default value
//
// Exit status: 0 done, 1 wrong usage, 2 the scenario or sweep is wrong.

#include "ns3/ina-fabric-helper.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/sweep-expander.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

int
Usage()
{
    std::cerr << "usage: inasim-config check FILE [KEY=VALUE ...]\n"
                 "       inasim-config effective FILE [KEY=VALUE ...]\n"
                 "       inasim-config expand-sweep SWEEPFILE\n"
                 "       inasim-config defaults\n";
    return 1;
}

} // namespace

int
main(int argc, char* argv[])
{
    InaFabricHelper::ConfigureSimulator(); // as inasim-run: picosecond time steps, the scheduler
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty())
    {
        return Usage();
    }
    const std::string& command = args[0];
    try
    {
        if ((command == "check" || command == "effective") && args.size() >= 2)
        {
            const std::vector<std::string> overrides(args.begin() + 2, args.end());
            const Scenario scenario = ScenarioLoader::Load(args[1], overrides);
            for (const auto& warning : scenario.origins.warnings)
            {
                std::cerr << "warning: " << warning << "\n";
            }
            if (command == "check")
            {
                {
                    ScenarioRunner runner(scenario, "");
                    runner.SetConsole(nullptr, nullptr);
                    runner.Prepare();
                }
                Simulator::Destroy();
            }
            std::cout << EffectiveConfigYaml(scenario);
            return 0;
        }
        if (command == "expand-sweep" && args.size() == 2)
        {
            std::cout << SweepExpander::Expand(args[1]).ToJson().dump(2) << "\n";
            return 0;
        }
        if (command == "defaults" && args.size() == 1)
        {
            std::cout << EffectiveConfigYaml(Scenario());
            return 0;
        }
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
    catch (const std::exception& e)
    {
        // The model refused the set-up (a switch program that does not fit): run exits 3 on it.
        std::cerr << "error: " << e.what() << "\n";
        return 3;
    }
    return Usage();
}
