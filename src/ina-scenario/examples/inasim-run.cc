/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// inasim-run: run one scenario file. `./inasim run` calls this program.
//
//   inasim-run SCENARIO.yaml [KEY=VALUE ...] [--out DIR]
//
// Exit codes: 0 the run completed; 1 it ended incomplete (summary.json says why); 2 the scenario
// or its command line is wrong (the message names the file, line or key); 3 the model refused the
// set-up (a switch program that does not fit, a protocol bug caught by the pipeline).

#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-scenario-module.h"

#include <cstring>
#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
void
Usage(std::ostream& os)
{
    os << "usage: inasim-run SCENARIO.yaml [KEY=VALUE ...] [--out DIR]\n"
          "  KEY=VALUE overrides a scenario key by its dotted path, e.g. topology.k=8\n"
          "  --out DIR  where outputs go (default: results/<name>/)\n";
}
} // namespace

int
main(int argc, char* argv[])
{
    InaFabricHelper::ConfigureSimulator(); // picosecond time steps, the scheduler: before any Time
    std::string scenarioPath;
    std::string outDir;
    std::vector<std::string> overrides;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a == "-h" || a == "--help")
        {
            Usage(std::cout);
            return 0;
        }
        if (a == "--out")
        {
            if (i + 1 >= argc)
            {
                std::cerr << "inasim-run: --out needs a directory\n";
                return 2;
            }
            outDir = argv[++i];
        }
        else if (a.rfind("--out=", 0) == 0)
        {
            outDir = a.substr(6);
        }
        else if (a.find('=') != std::string::npos && a[0] != '-')
        {
            overrides.push_back(a);
        }
        else if (scenarioPath.empty() && a[0] != '-')
        {
            scenarioPath = a;
        }
        else
        {
            std::cerr << "inasim-run: unexpected argument '" << a << "'\n";
            Usage(std::cerr);
            return 2;
        }
    }
    if (scenarioPath.empty())
    {
        Usage(std::cerr);
        return 2;
    }
    try
    {
        Scenario scenario = ScenarioLoader::Load(scenarioPath, overrides);
        for (const std::string& w : scenario.origins.warnings)
        {
            std::cerr << "inasim: warning: " << w << "\n";
        }
        if (outDir.empty())
        {
            outDir = "results/" + scenario.name;
        }
        ScenarioRunner runner(scenario, outDir);
        return runner.Run();
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "inasim: " << e.what() << "\n";
        return 2;
    }
    catch (const std::logic_error& e)
    {
        // PipelineFitError / PipelineViolation: the model refused what the scenario asked for.
        std::cerr << "inasim: " << e.what() << "\n";
        return 3;
    }
    catch (const std::runtime_error& e)
    {
        std::cerr << "inasim: " << e.what() << "\n";
        return 2;
    }
}
