/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// ESA's allocation decision at one aggregator (EsaPreemptionPolicy) and the Straw2 coin (EsaCoin),
// pure logic: allocation, renewal, preemption only by a strictly higher priority, a tie that does
// not preempt, the halving of an incumbent down to 0, the two ablations, reminders that touch only
// their own key. Expected values are worked out by hand in the comments.

#include "ns3/esa-coin.h"
#include "ns3/esa-preemption-policy.h"

#include <gtest/gtest.h>
#include <limits>

using namespace ns3;

namespace
{

using Action = EsaPreemptionPolicy::Action;
constexpr uint32_t K1 = (1u << 16) | 7; // job 1, seq 7
constexpr uint32_t K2 = (2u << 16) | 7; // job 2, seq 7: the same hash slot in these tests

EsaPreemptionPolicy::Decision
Esa(uint32_t holder, uint8_t holderPrio, uint32_t key, uint8_t prio)
{
    return EsaPreemptionPolicy::OnData(holder,
                                       holderPrio,
                                       key,
                                       prio,
                                       EsaPreemptionMode::PRIORITY,
                                       false);
}

TEST(EsaPreemptionPolicy, EmptyAggregatorIsAllocatedWithThePacketsPriority)
{
    const auto d = Esa(0, 0, K1, 5);
    EXPECT_EQ(d.action, Action::ALLOCATE);
    EXPECT_EQ(d.priority, 5);
    // Even the lowest data priority takes an empty aggregator.
    EXPECT_EQ(Esa(0, 0, K1, 1).action, Action::ALLOCATE);
}

TEST(EsaPreemptionPolicy, SameKeyAggregatesAndRenewsThePriority)
{
    // The incumbent was downgraded to 2; its own next contribution (priority 7) restores 7.
    const auto d = Esa(K1, 2, K1, 7);
    EXPECT_EQ(d.action, Action::AGGREGATE);
    EXPECT_EQ(d.priority, 7);
}

TEST(EsaPreemptionPolicy, StrictlyHigherPriorityPreempts)
{
    const auto d = Esa(K1, 5, K2, 6);
    EXPECT_EQ(d.action, Action::PREEMPT);
    EXPECT_EQ(d.priority, 6);
}

TEST(EsaPreemptionPolicy, ATieDoesNotPreemptAndHalvesTheIncumbent)
{
    // "If the priority in the aggregator is higher or equal, the preemption will fail": 5 vs 5
    // falls back, and the incumbent drops to 5 >> 1 = 2.
    const auto d = Esa(K1, 5, K2, 5);
    EXPECT_EQ(d.action, Action::FALLBACK);
    EXPECT_EQ(d.priority, 2);
    // Lower: 200 vs 7 falls back, 200 -> 100.
    const auto e = Esa(K1, 200, K2, 7);
    EXPECT_EQ(e.action, Action::FALLBACK);
    EXPECT_EQ(e.priority, 100);
}

TEST(EsaPreemptionPolicy, AnIncumbentDecaysToZeroWithinEightCollisions)
{
    // The highest incumbent (255) against contenders of the lowest priority (1):
    // 255 -> 127 -> 63 -> 31 -> 15 -> 7 -> 3 -> 1 (7 collisions), then 1 vs 1 is a tie -> 0
    // (8th), and the 9th contender preempts.
    uint8_t prio = 255;
    const uint8_t expected[8] = {127, 63, 31, 15, 7, 3, 1, 0};
    for (int i = 0; i < 8; ++i)
    {
        const auto d = Esa(K1, prio, K2, 1);
        ASSERT_EQ(d.action, Action::FALLBACK) << "collision " << i + 1;
        EXPECT_EQ(d.priority, expected[i]) << "collision " << i + 1;
        prio = d.priority;
    }
    const auto d = Esa(K1, prio, K2, 1);
    EXPECT_EQ(d.action, Action::PREEMPT);
    EXPECT_EQ(d.priority, 1);
}

TEST(EsaPreemptionPolicy, Straw1AlwaysPreempts)
{
    const auto d = EsaPreemptionPolicy::OnData(K1, 255, K2, 1, EsaPreemptionMode::ALWAYS, false);
    EXPECT_EQ(d.action, Action::PREEMPT);
    EXPECT_EQ(d.priority, 1);
    // Allocation and aggregation are the same in every mode.
    EXPECT_EQ(EsaPreemptionPolicy::OnData(0, 0, K2, 1, EsaPreemptionMode::ALWAYS, false).action,
              Action::ALLOCATE);
    EXPECT_EQ(EsaPreemptionPolicy::OnData(K2, 9, K2, 1, EsaPreemptionMode::ALWAYS, false).action,
              Action::AGGREGATE);
}

TEST(EsaPreemptionPolicy, Straw2FollowsTheCoinAndNeverDowngrades)
{
    const auto heads = EsaPreemptionPolicy::OnData(K1, 200, K2, 3, EsaPreemptionMode::RANDOM, true);
    EXPECT_EQ(heads.action, Action::PREEMPT);
    EXPECT_EQ(heads.priority, 3);
    const auto tails =
        EsaPreemptionPolicy::OnData(K1, 3, K2, 200, EsaPreemptionMode::RANDOM, false);
    EXPECT_EQ(tails.action, Action::FALLBACK);
    EXPECT_EQ(tails.priority, 3);
}

TEST(EsaPreemptionPolicy, AReminderFlushesOnlyItsOwnKey)
{
    EXPECT_TRUE(EsaPreemptionPolicy::ReminderHits(K1, K1));
    EXPECT_FALSE(EsaPreemptionPolicy::ReminderHits(K2, K1));
    EXPECT_FALSE(EsaPreemptionPolicy::ReminderHits(0, K1));
    EXPECT_FALSE(EsaPreemptionPolicy::ReminderHits(0, 0));
    static_assert(EsaPreemptionPolicy::ReminderHits(K1, K1), "constexpr");
}

TEST(EsaCoin, IsSplitMix64)
{
    // The reference outputs of splitmix64 from state 0 (Vigna's splitmix64.c).
    EsaCoin c(0, 0.5);
    EXPECT_EQ(c.Next(), 0xe220a8397b1dcdafULL);
    EXPECT_EQ(c.Next(), 0x6e789e6aa1b965f4ULL);
    EXPECT_EQ(c.Next(), 0x06c45d188009454fULL);
}

TEST(EsaCoin, FlipsWithTheConfiguredProbabilityReproducibly)
{
    // Counts of true in 10,000 flips from seed 42, from an independent implementation (Python):
    // 4978 at p = 0.5, 2433 at p = 0.25.
    auto count = [](uint64_t seed, double p) {
        EsaCoin c(seed, p);
        int n = 0;
        for (int i = 0; i < 10000; ++i)
        {
            n += c.Flip() ? 1 : 0;
        }
        return n;
    };
    EXPECT_EQ(count(42, 0.5), 4978);
    EXPECT_EQ(count(42, 0.25), 2433);
    EXPECT_EQ(count(42, 0.0), 0);
    EXPECT_EQ(count(42, 1.0), 10000);
    // Out-of-range probabilities are clamped; NaN never preempts.
    EXPECT_EQ(count(42, 2.0), 10000);
    EXPECT_EQ(count(42, -1.0), 0);
    EXPECT_EQ(count(42, std::numeric_limits<double>::quiet_NaN()), 0);
    EXPECT_DOUBLE_EQ(EsaCoin(1, 7.0).GetProbability(), 1.0);
}

} // namespace
