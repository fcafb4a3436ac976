/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * \file
 * Raw event rate of the ns-3 scheduler: trivial self-rescheduling events with a fixed number of
 * pending events. Every model built on ns-3 runs at some fraction of this rate, so it is the
 * ceiling the fabric and protocol benchmarks are compared against (docs/performance.md, B1 and D).
 * `scheduler.raw.*` uses the scheduler inasim programs use (InaFabricHelper::ConfigureSimulator's,
 * unless NS_GLOBAL_VALUE or --SchedulerType choose another); `scheduler.heap.*` ns-3's
 * PriorityQueueScheduler (a binary heap, what inasim used before InaWheelScheduler) and
 * `scheduler.map.*` ns-3's own default, MapScheduler, for comparison.
 *
 * Output (the `./inasim bench` protocol, docs/driver.md): one flat JSON object on stdout.
 */

#include "bench-main.h"

#include "ns3/command-line.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"

#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>

using namespace ns3;

namespace
{

/// Delays are drawn from [1 ps, MAX_DELAY_PS]: a spread like that of packet events at 100 Gbps.
constexpr uint64_t MAX_DELAY_PS = 1000000;

uint64_t g_target = 0;    //!< events to execute in total
uint64_t g_scheduled = 0; //!< events scheduled so far (initial ones included)
uint64_t g_executed = 0;  //!< events executed so far
uint64_t g_rng = 0;       //!< xorshift64 state

/// xorshift64 (Marsaglia): cheap enough not to hide the scheduler's cost, reproducible by seed.
uint64_t
NextRandom()
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

Time
NextDelay()
{
    return PicoSeconds(1 + NextRandom() % MAX_DELAY_PS);
}

/// One link of a chain: the pending set stays at the chain count until the target is reached,
/// then the chains drain, so exactly g_target events run.
void
Step()
{
    ++g_executed;
    if (g_scheduled < g_target)
    {
        ++g_scheduled;
        Simulator::Schedule(NextDelay(), &Step);
    }
}

struct Outcome
{
    uint64_t executed;
    double wallS;
};

Outcome
RunChains(uint64_t events, uint32_t chains, uint64_t seed)
{
    g_rng = seed;
    g_target = events;
    g_scheduled = 0;
    g_executed = 0;
    for (uint32_t i = 0; i < chains; ++i)
    {
        ++g_scheduled;
        Simulator::Schedule(NextDelay(), &Step);
    }
    const auto start = std::chrono::steady_clock::now();
    Simulator::Run();
    const auto stop = std::chrono::steady_clock::now();
    Simulator::Destroy();
    return {g_executed, std::chrono::duration<double>(stop - start).count()};
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t events = 8000000;
    uint32_t chains = 1000;
    uint64_t seed = 88172645463325252ULL;
    CommandLine cmd = BenchCommandLine(
        __FILE__,
        "Raw ns-3 event rate: CHAINS self-rescheduling chains of trivial events, random "
        "delays in [1 ps, 1 us], EVENTS events in total. Prints one flat JSON object.");
    cmd.AddValue("events", "events to execute in total (>= chains)", events);
    cmd.AddValue("chains", "concurrent chains, i.e. pending events (>= 1)", chains);
    cmd.AddValue("seed", "xorshift64 seed (non-zero)", seed);
    cmd.Parse(argc, argv);

    if (chains == 0)
    {
        std::fprintf(stderr, "scheduler-bench: --chains must be at least 1\n");
        return 1;
    }
    if (events < chains)
    {
        std::fprintf(stderr,
                     "scheduler-bench: --events (%" PRIu64 ") must be at least --chains (%" PRIu32
                     ")\n",
                     events,
                     chains);
        return 1;
    }
    if (seed == 0)
    {
        std::fprintf(stderr, "scheduler-bench: --seed must be non-zero (xorshift64 stays at 0)\n");
        return 1;
    }

    const Outcome raw = RunChains(events, chains, seed);
    ObjectFactory heap;
    heap.SetTypeId("ns3::PriorityQueueScheduler");
    Simulator::SetScheduler(heap);
    const Outcome heaped = RunChains(events, chains, seed);
    ObjectFactory map;
    map.SetTypeId("ns3::MapScheduler");
    Simulator::SetScheduler(map);
    const Outcome mapped = RunChains(events, chains, seed);
    for (const Outcome& o : {raw, heaped, mapped})
    {
        if (o.executed != events)
        {
            std::fprintf(stderr,
                         "scheduler-bench: executed %" PRIu64 " events, expected %" PRIu64 "\n",
                         o.executed,
                         events);
            return 1;
        }
    }
    auto rate = [](const Outcome& o) {
        return o.wallS > 0 ? static_cast<double>(o.executed) / o.wallS : 0.0;
    };
    std::printf("{\"scheduler.raw.events_per_s\": %.1f, \"scheduler.raw.events\": %" PRIu64
                ", \"scheduler.raw.wall_s\": %.6f, \"scheduler.heap.events_per_s\": %.1f, "
                "\"scheduler.map.events_per_s\": %.1f}\n",
                rate(raw),
                raw.executed,
                raw.wallS,
                rate(heaped),
                rate(mapped));
    return 0;
}
