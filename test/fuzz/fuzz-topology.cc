/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: the topology file reader (InaTopology::FromString), as `topology.type: file`
// reads one. Documented refusals: std::runtime_error ("FILE:LINE: what was expected") and
// std::invalid_argument (a generated shape out of range); a logic_error or out_of_range is an
// internal check firing on user input, a bug.

#include "fuzz-input.h"

#include "ns3/ina-topology.h"

#include <stdexcept>

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    inasim_fuzz::CheckContract<std::invalid_argument, std::runtime_error>([&] {
        ns3::InaTopology t =
            ns3::InaTopology::FromString(inasim_fuzz::Text(data, size), "fuzz.topo");
        // What the fabric reads next: every node's tier, level and links, every host's rack.
        for (uint32_t n = 0; n < t.GetNNodes(); ++n)
        {
            (void)t.GetTier(n);
            (void)t.GetLevel(n);
            (void)t.Neighbors(n);
            if (t.IsHost(n))
            {
                (void)t.RackOf(n);
            }
        }
    });
    return 0;
}
