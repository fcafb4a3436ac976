/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: the model zoo reader (ModelZoo::FromString), as INASIM_MODEL_ZOO or the packaged
// zoo is read. Documented refusal: std::runtime_error ("FILE:LINE: ...").

#include "fuzz-input.h"

#include "ns3/model-zoo.h"

#include <stdexcept>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    inasim_fuzz::CheckContract<std::runtime_error>([&] {
        ns3::ModelZoo zoo = ns3::ModelZoo::FromString(inasim_fuzz::Text(data, size), "fuzz.yaml");
        for (const std::string& name : zoo.Names())
        {
            (void)zoo.Get(name).TotalBytes();
        }
    });
    return 0;
}
