/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INASIM_TEST_MESSAGES_H
#define INASIM_TEST_MESSAGES_H

// What the GoogleTest cases compare against when they run a scenario given as text: the message of
// the error it throws when it must be refused (ns3::tests::ErrorOf), so that the test checks the
// error names the right key and value, or the summary it writes when it runs.

#include "../../src/ina-fabric/test/error-of.h"
#include "test-temp-dir.h"

#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace inasim_test
{

/**
 * Load and run a scenario given as text, its console output discarded and its outputs written to
 * a folder of its own that is removed afterwards.
 * \param yaml the scenario
 * \param name its file name, for messages
 * \return the message of the ns3::ScenarioError it throws, or "no error"
 */
inline std::string
RunError(const std::string& yaml, const std::string& name)
{
    const std::string out = (TempDir() / ("run-error-" + name)).string();
    const std::string what = ns3::tests::ErrorOf<ns3::ScenarioError>(
        [&] {
            ns3::ScenarioRunner runner(ns3::ScenarioLoader::LoadString(yaml, name), out);
            std::ostringstream quiet;
            runner.SetConsole(&quiet, &quiet);
            runner.Run();
        },
        "no error");
    ns3::Simulator::Destroy();
    std::filesystem::remove_all(out);
    return what;
}

/**
 * Load and run a scenario given as text, its console output discarded and its outputs written to
 * a folder of its own that is removed afterwards. Errors propagate.
 * \param yaml the scenario
 * \param name its file name, for messages
 * \return the text of the summary.json it wrote
 */
inline std::string
RunSummaryText(const std::string& yaml, const std::string& name)
{
    const std::filesystem::path out = TempDir() / ("run-summary-" + name);
    {
        ns3::ScenarioRunner runner(ns3::ScenarioLoader::LoadString(yaml, name), out.string());
        std::ostringstream quiet;
        runner.SetConsole(&quiet, &quiet);
        runner.Run();
    }
    ns3::Simulator::Destroy();
    std::ifstream summary(out / "summary.json");
    std::string text((std::istreambuf_iterator<char>(summary)), std::istreambuf_iterator<char>());
    summary.close();
    std::filesystem::remove_all(out);
    return text;
}

} // namespace inasim_test

#endif /* INASIM_TEST_MESSAGES_H */
