/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: the scenario loader (ScenarioLoader::LoadString), as `run` and `check` read a
// scenario file, once as a file and once with its last line also given as a KEY=VALUE override.
// Documented refusal: ScenarioError.

#include "fuzz-input.h"

#include "ns3/scenario-loader.h"

#include <vector>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text = inasim_fuzz::Text(data, size);
    std::vector<std::vector<std::string>> overrideSets{{}};
    const size_t lastLine = text.find_last_of('\n');
    if (lastLine != std::string::npos && text.find('=', lastLine) != std::string::npos)
    {
        overrideSets.push_back({text.substr(lastLine + 1)});
    }
    for (const auto& overrides : overrideSets)
    {
        inasim_fuzz::CheckContract<ns3::ScenarioError>([&] {
            ns3::ScenarioLoader::LoadString(text, "fuzz.yaml", overrides);
        });
    }
    return 0;
}
