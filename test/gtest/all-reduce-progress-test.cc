/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The progress line's percent done (TrainingJob::GetProgressFraction) counts the result bytes each
// agent reports (AggregationAgent::NoteResultBytes) as they come back. For the in-network
// protocols it must move during one all-reduce, not jump from 0 to 100 % when the tensor
// completes: sampled while one 4 MB all-reduce runs, the result bytes take many values strictly
// between nothing and the whole tensor, never fall, and end at the tensor.

#include "ns3/all-reduce-runner.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/simulator.h"

#include <functional>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr uint64_t TENSOR = 4000000;
constexpr uint32_t WORKERS = 4;

/// Result bytes of every agent of `run`, summed.
uint64_t
ResultBytes(const AllReduceRunner& run)
{
    uint64_t sum = 0;
    for (uint32_t r = 0; r < run.GetNWorkers(); ++r)
    {
        sum += run.GetAgent(r)->GetResultBytes();
    }
    return sum;
}

/// The summed result bytes every 2 us of simulated time while one all-reduce of `protocol` runs
/// (4 workers and a parameter server on a 100 Gb/s star), and whether it completed.
std::vector<uint64_t>
Samples(const std::string& protocol, bool* complete)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    Ptr<InaFabric> fabric =
        helper.Build(InaTopology::Star(WORKERS + 1, {100000000000ULL, 1000000}));
    AllReduceRunner::Spec spec;
    spec.hosts = {0, 1, 2, 3};
    spec.ps = {WORKERS};
    spec.tensorBytes = {TENSOR};
    std::vector<uint64_t> samples;
    {
        AllReduceRunner run(fabric, protocol, spec);
        std::function<void()> sample = [&]() {
            samples.push_back(ResultBytes(run));
            if (!run.Complete())
            {
                Simulator::Schedule(MicroSeconds(2), sample);
            }
        };
        Simulator::ScheduleNow(sample);
        AllReduceRunner::RunAll({&run}, Seconds(1));
        samples.push_back(ResultBytes(run));
        *complete = run.Complete();
        run.Dispose();
    }
    fabric->Dispose();
    Simulator::Destroy();
    return samples;
}

} // namespace

TEST(AllReduceProgress, ResultBytesMoveDuringOneAllReduce)
{
    for (const std::string protocol : {"switchml", "atp", "esa", "grid"})
    {
        SCOPED_TRACE(protocol);
        bool complete = false;
        const std::vector<uint64_t> samples = Samples(protocol, &complete);
        ASSERT_TRUE(complete);
        std::set<uint64_t> between;
        for (size_t i = 0; i < samples.size(); ++i)
        {
            if (i > 0)
            {
                EXPECT_GE(samples[i], samples[i - 1]) << "sample " << i;
            }
            if (samples[i] > 0 && samples[i] < WORKERS * TENSOR)
            {
                between.insert(samples[i]);
            }
        }
        // A tensor that completes at once would give no value in between; 4 MB at 100 Gb/s takes
        // about 330 us, over 150 samples.
        EXPECT_GE(between.size(), 10u) << samples.size() << " samples";
        // Every worker got the whole tensor back (the last packet may carry padding).
        EXPECT_GE(samples.back(), WORKERS * TENSOR);
        EXPECT_LT(samples.back(), WORKERS * (TENSOR + 1024));
    }
}
