/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// inasim-gtest's main: GoogleTest's, after the simulator settings inasim's models need
// (picosecond time steps, the scheduler). Loading the inasim libraries does not make them; a
// program does, as inasim-run and the benchmarks do (InaFabricHelper::ConfigureSimulator).

#include "ns3/ina-fabric-helper.h"

#include <gtest/gtest.h>

int
main(int argc, char** argv)
{
    ns3::InaFabricHelper::ConfigureSimulator();
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
