/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// switch.ina_memory: the switch's INA memory sizes every pool-based protocol's pool, and
// SwitchML's jobs split theirs equally (the ESA paper, Section 7.2.1).

#include "test-messages.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

/// The first value of `key` in a run's summary.json (-1: absent).
double
RunAndRead(const std::string& yaml, const std::string& key)
{
    const std::string text = inasim_test::RunSummaryText(yaml, "mem.yaml");
    const std::string k = "\"" + key + "\": ";
    const size_t at = text.find(k);
    return at == std::string::npos ? -1 : std::stod(text.substr(at + k.size()));
}

/// Two jobs of 2 workers of `protocol` on one switch with `memory` of INA memory.
std::string
TwoJobs(const std::string& protocol, const std::string& memory, const std::string& params = "")
{
    std::string y =
        "topology: {type: star, hosts: 6}\nswitch: {ina_memory: " + memory + "}\njobs:\n";
    for (int j = 0; j < 2; ++j)
    {
        y +=
            "  - {protocol: " + protocol +
            ", workers: 2, ps_hosts: 1, workload: {tensor_bytes: 100KB, iterations: 1}, params: {" +
            params + "}}\n";
    }
    return y;
}

} // namespace

TEST(InaMemory, KeyDefaultsToEachProtocolsOwnPool)
{
    EXPECT_EQ(ScenarioLoader::LoadString("", "a.yaml").switchConfig.inaMemoryBytes, 0U);
    EXPECT_EQ(ScenarioLoader::LoadString("switch: {ina_memory: 5MB}\n", "a.yaml")
                  .switchConfig.inaMemoryBytes,
              5000000U);
}

TEST(InaMemory, SwitchMlJobsSplitTheMemoryEqually)
{
    // 32 KiB of slots of 2 x 32 int32 (256 B): 128 slots, 64 per job, below the bandwidth-delay
    // window each job takes from the default pool (256 slots on this star's 1-us links).
    EXPECT_EQ(RunAndRead(TwoJobs("switchml", "32KiB"), "window"), 64.0);
    EXPECT_EQ(RunAndRead(TwoJobs("switchml", "0"), "window"), 256.0);
}

TEST(InaMemory, AtpPoolHoldsWhatFits)
{
    // 24,800 B: 100 aggregators of 62 int32; the job hashes onto all of them (a window of at
    // most 50 slots, which must fit the range).
    const std::string small = "MaxWindow: 50, InitialWindow: 50";
    EXPECT_EQ(RunAndRead(TwoJobs("atp", "24800B", small), "hash_range"), 100.0);
    EXPECT_EQ(RunAndRead(TwoJobs("atp", "0", small), "hash_range"), 20000.0);
}
