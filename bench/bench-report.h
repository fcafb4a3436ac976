/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

// What the benchmark programs share around a run: what running the simulator cost, measured the
// same way by every program, and the one flat JSON object each prints on stdout (`./inasim bench`
// reads it).

#include "ns3/simulator.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ns3
{

/// What running the simulator cost.
struct BenchCost
{
    double wallS = 0;    //!< wall-clock seconds
    uint64_t events = 0; //!< simulator events executed
};

/**
 * \param run a call that runs the simulator (Simulator::Run, AllReduceRunner::RunAll)
 * \return its wall-clock time and the events it executed
 */
template<typename F>
BenchCost
BenchMeasure(F run)
{
    const uint64_t eventsBefore = Simulator::GetEventCount();
    const auto t0 = std::chrono::steady_clock::now();
    run();
    const auto t1 = std::chrono::steady_clock::now();
    return BenchCost{std::chrono::duration<double>(t1 - t0).count(),
                     Simulator::GetEventCount() - eventsBefore};
}

/// The flat JSON object of numbers a benchmark prints: keys in the order they are put, each value
/// printed with its own printf format.
class BenchJson
{
  public:
    /**
     * \param key the key
     * \param value its value
     * \param format a printf format for one double ("%.6f")
     */
    void Put(const std::string& key, double value, const char* format)
    {
        char buf[64];
        std::snprintf(buf, sizeof(buf), format, value);
        m_body += (m_body.empty() ? "\"" : ", \"") + key + "\": " + buf;
    }

    /// Print the object on stdout, on one line.
    void Print() const
    {
        std::printf("{%s}\n", m_body.c_str());
    }

  private:
    std::string m_body; //!< the members so far, without the braces
};

} // namespace ns3

#endif /* BENCH_REPORT_H */
