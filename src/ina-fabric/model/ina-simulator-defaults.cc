/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/global-value.h"
#include "ns3/nstime.h"
#include "ns3/priority-queue-scheduler.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <cstring>

namespace ns3
{
namespace
{
/**
 * Simulator settings inasim needs, made when the library loads so no program that links inasim
 * can forget them.
 *
 * Picosecond time: at 100 Gb/s a 182-byte packet serializes in 14.56 ns, and ns-3's default
 * nanosecond resolution rounds every one of them to 15 ns, a 3 % bias in every completion time
 * (performance.md B4). Times made earlier (attribute defaults registered at load) are converted
 * by ns-3.
 *
 * The scheduler: a hop costs about one event, and ns-3's default MapScheduler (a red-black tree,
 * one allocation per event) was close to half of a hop's cycles. The binary heap of
 * PriorityQueueScheduler ran the SwitchML benchmark 22 % faster and the raw event benchmark 40 %
 * faster on the same machine; every ns-3 scheduler orders events by (time, insertion), so results
 * are identical. A user's choice wins: NS_GLOBAL_VALUE=SchedulerType=... or --SchedulerType.
 */
struct InaSimulatorDefaults
{
    InaSimulatorDefaults()
    {
        if (Time::GetResolution() != Time::PS)
        {
            Time::SetResolution(Time::PS);
        }
        const char* env = std::getenv("NS_GLOBAL_VALUE");
        if (env == nullptr || std::strstr(env, "SchedulerType") == nullptr)
        {
            GlobalValue::Bind("SchedulerType", TypeIdValue(PriorityQueueScheduler::GetTypeId()));
        }
    }
};

const InaSimulatorDefaults g_inaSimulatorDefaults;
} // namespace
} // namespace ns3
