/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BENCH_MAIN_H
#define BENCH_MAIN_H

// How every benchmark program starts, and the link the single-switch benchmarks share.

#include "ns3/command-line.h"
#include "ns3/ina-fabric-helper.h"

#include <cstdint>
#include <string>

namespace ns3
{

/// The links of the ATP and SwitchML benchmarks: 100 Gb/s, 1 us.
constexpr uint64_t BENCH_RATE_BPS = 100000000000ULL;
constexpr int64_t BENCH_DELAY_PS = 1000000;

/**
 * The command line of a benchmark's main() (`file` is its __FILE__), with `usage`. It first sets
 * the simulator up as every inasim program has it (picosecond time steps, the scheduler), which
 * must come before any Time is made: call it before main() makes one (the options declared
 * before it are numbers and strings).
 */
inline CommandLine
BenchCommandLine(const std::string& file, const std::string& usage)
{
    InaFabricHelper::ConfigureSimulator();
    CommandLine cmd(file);
    cmd.Usage(usage);
    return cmd;
}

} // namespace ns3

#endif /* BENCH_MAIN_H */
