/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: the sweep expander (SweepExpander::ExpandString), as `sweep` reads a sweep file.
// The input is read as a file of examples/sweeps, so `base:` can name the example scenarios.
// Documented refusal: ScenarioError.

#include "fuzz-input.h"

#include "ns3/scenario-error.h"
#include "ns3/sweep-expander.h"

#ifndef INASIM_SOURCE_DIR
#error "INASIM_SOURCE_DIR must name the source tree"
#endif

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    inasim_fuzz::CheckContract<ns3::ScenarioError>([&] {
        ns3::SweepExpander::ExpandString(inasim_fuzz::Text(data, size),
                                         INASIM_SOURCE_DIR "/examples/sweeps/fuzz.yaml");
    });
    return 0;
}
