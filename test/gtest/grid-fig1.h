/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INASIM_TEST_GRID_FIG1_H
#define INASIM_TEST_GRID_FIG1_H

// The GRID paper's Figure 1 example (topologies/grid-fig1.topo) as the planner tests use it:
// eight workers w1..w8, the PS, and the programmable switches s1, s2, s3 of 9 Gb/s each.

#include "ns3/grid-problem.h"
#include "ns3/ina-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace inasim_test
{

/// The Figure 1 topology file.
inline const std::string GRID_FIG1 = std::string(INASIM_SOURCE_DIR) + "/topologies/grid-fig1.topo";

/// \return the Figure 1 problem: w1..w8 to the PS, s1..s3 programmable at 9 Gb/s
inline ns3::GridProblem
GridFig1Problem()
{
    const ns3::InaTopology t = ns3::InaTopology::FromFile(GRID_FIG1);
    std::vector<uint32_t> workers;
    for (const char* n : {"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"})
    {
        workers.push_back(t.FindNode(n));
    }
    constexpr double C = 9e9;
    return ns3::GridProblem(t,
                            workers,
                            t.FindNode("ps"),
                            {{t.FindNode("s1"), C}, {t.FindNode("s2"), C}, {t.FindNode("s3"), C}});
}

} // namespace inasim_test

#endif /* INASIM_TEST_GRID_FIG1_H */
