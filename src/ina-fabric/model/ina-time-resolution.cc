/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/nstime.h"

namespace ns3
{
namespace
{
/**
 * inasim needs picosecond time: at 100 Gb/s a 182-byte packet serializes in 14.56 ns, and ns-3's
 * default nanosecond resolution rounds every one of them to 15 ns, a 3 % bias in every completion
 * time (performance.md B4). Setting it when the library loads means no program that links inasim
 * can forget; Times made earlier (attribute defaults registered at load) are converted by ns-3.
 */
struct PicosecondResolution
{
    PicosecondResolution()
    {
        if (Time::GetResolution() != Time::PS)
        {
            Time::SetResolution(Time::PS);
        }
    }
};

const PicosecondResolution g_picosecondResolution;
} // namespace
} // namespace ns3
