/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// inasim-run: run one scenario file. `./inasim run` calls this program.
//
//   inasim-run SCENARIO.yaml [KEY=VALUE ...] [--out DIR]
//
// Exit codes: 0 the run completed; 1 it ended incomplete (summary.json says why: stop_time, no
// progress, an agent that gave up); 2 the scenario or its command line is wrong (the message names
// the file, line or key); 3 the model refused the set-up (a switch program that does not fit, a
// protocol bug caught by the pipeline); 4 the machine refused (out of memory, a file system error
// while writing); 128 + N stopped by signal N (130 Ctrl-C, 143 SIGTERM) after writing a partial
// summary.json marked `ended_by: interrupted`. Exits 2 to 4 also write OUT/error.json (the kind,
// and for a scenario error its key, file and line; helper/error-report.h) when the output folder is
// known (--out, or the scenario's default once it has loaded).

#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-scenario-module.h"

#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <new>
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

/// First SIGINT / SIGTERM: stop the simulation and write what there is; a second one kills.
void
OnSignal(int signal)
{
    ScenarioRunner::RequestStop(signal);
    std::signal(signal, SIG_DFL);
}
} // namespace

int
main(int argc, char* argv[])
{
    InaFabricHelper::ConfigureSimulator(); // picosecond time steps, the scheduler: before any Time
    std::signal(SIGINT, OnSignal);
    std::signal(SIGTERM, OnSignal);
    std::signal(SIGHUP, OnSignal);
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
    // A failure is told twice: to a person on stderr, and to a driver as OUT/error.json (the
    // error's kind, key, file and line apart) whenever the output folder is known.
    auto fail = [&outDir](const std::string& kind, int code, const std::exception& e) {
        std::cerr << "inasim: " << e.what() << "\n";
        if (!outDir.empty())
        {
            std::error_code ec;
            std::filesystem::create_directories(outDir, ec);
            WriteErrorReport(std::filesystem::path(outDir) / "error.json", kind, code, e);
        }
        return code;
    };
    // A report left by an earlier run into the output folder no longer holds.
    auto forgetOldReport = [&outDir]() {
        std::error_code ec;
        std::filesystem::remove(std::filesystem::path(outDir) / "error.json", ec);
    };
    if (!outDir.empty())
    {
        forgetOldReport();
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
            forgetOldReport();
        }
        ScenarioRunner runner(scenario, outDir);
        const int code = runner.Run();
        if (ScenarioRunner::GetStopSignal() != 0)
        {
            return 128 + ScenarioRunner::GetStopSignal();
        }
        return code;
    }
    catch (const ScenarioError& e)
    {
        return fail("scenario", 2, e);
    }
    catch (const std::logic_error& e)
    {
        // PipelineFitError / PipelineViolation: the model refused what the scenario asked for.
        return fail("model", 3, e);
    }
    catch (const std::bad_alloc&)
    {
        const std::runtime_error e("out of memory: the scenario needs more memory than this "
                                   "machine has (a smaller fabric or workload, or check_values: "
                                   "false, needs less)");
        return fail("machine", 4, e);
    }
    catch (const std::filesystem::filesystem_error& e)
    {
        return fail("machine", 4, e);
    }
    catch (const std::exception& e)
    {
        return fail("other", 2, e);
    }
}
