/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/libra-hot-set.h"
#include "ns3/libra-rank-table.h"
#include "ns3/sparse-workload.h"

#include <gtest/gtest.h>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Ten keys 0..9 with 100 updates in all: 40, 20, 10, 10, 5, 5, 4, 3, 2, 1.
LibraHotSet
TenKeys()
{
    return LibraHotSet::FromDenseCounts({40, 20, 10, 10, 5, 5, 4, 3, 2, 1});
}

} // namespace

TEST(LibraHotSet, RanksByCountThenAscendingKeyAndDropsKeysWithoutUpdates)
{
    LibraHotSet h({{7, 5}, {3, 9}, {12, 5}, {1, 0}, {4, 2}});
    ASSERT_EQ(h.GetNRanked(), 4u);
    EXPECT_EQ(h.GetKey(0), 3u);
    EXPECT_EQ(h.GetKey(1), 7u); // 7 and 12 tie at 5: the smaller key first
    EXPECT_EQ(h.GetKey(2), 12u);
    EXPECT_EQ(h.GetKey(3), 4u);
    EXPECT_EQ(h.GetCount(1), 5u);
    EXPECT_EQ(h.GetTotalUpdates(), 21u);
    EXPECT_EQ(h.GetTopUpdates(2), 14u);
    EXPECT_DOUBLE_EQ(h.GetTopShare(2), 14.0 / 21.0);
    EXPECT_EQ(h.GetTopUpdates(99), 21u); // clamped
    EXPECT_EQ(h.GetRank(12), 2u);
    EXPECT_EQ(h.GetRank(1), LibraRankTable::NO_RANK); // no update: never hot
    EXPECT_EQ(h.GetRank(5), LibraRankTable::NO_RANK);
    EXPECT_EQ(h.GetTopKeys(3), (std::vector<uint32_t>{3, 7, 12}));
    EXPECT_THROW(h.GetKey(4), std::out_of_range);

    // the same counts in another order give the same ranking
    LibraHotSet g({{4, 2}, {12, 5}, {7, 5}, {3, 9}});
    EXPECT_EQ(g.GetTopKeys(4), h.GetTopKeys(4));
}

TEST(LibraHotSet, RefusesAKeyListedTwice)
{
    const std::string msg = ns3::tests::ErrorOf<std::invalid_argument>([] {
        LibraHotSet({{3, 1}, {5, 2}, {3, 4}});
    });
    EXPECT_NE(msg.find("key 3 is listed twice"), std::string::npos) << msg;
}

TEST(LibraHotSet, Principle1TakesTheSmallestKReachingPWithinTheMemoryCap)
{
    const LibraHotSet h = TenKeys();
    // cumulative shares: 0.40 0.60 0.70 0.80 0.85 0.90 0.94 0.97 0.99 1.00
    EXPECT_EQ(h.ChooseByPrinciple1(0.6, 0.05), 2u); // T_2 / T_n = 0.6 exactly
    EXPECT_EQ(h.ChooseByPrinciple1(0.61, 0.05), 3u);
    EXPECT_EQ(h.ChooseByPrinciple1(0.8, 0.05), 4u);
    EXPECT_EQ(h.ChooseByPrinciple1(0.95, 0.05), 8u);
    EXPECT_EQ(h.ChooseByPrinciple1(0.1, 0.05), 1u);

    // a 16-B switch with c = 0.75 holds 12 B = 3 keys of 4 B
    EXPECT_EQ(LibraHotSet::MaxHotKeys(0.75, 16, 4), 3u);
    EXPECT_EQ(h.ChooseByPrinciple1(0.7, 0.75, 16, 4), 3u);
    const std::string msg = ns3::tests::ErrorOf<std::invalid_argument>([&] {
        h.ChooseByPrinciple1(0.8, 0.75, 16, 4);
    });
    EXPECT_NE(msg.find("p = 0.8 of the updates needs the top 4 keys (16 B)"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("c = 0.75 of the 16-B switch SRAM holds only 3 keys"), std::string::npos)
        << msg;

    // the paper's switch: 20 MB, c = 5 % -> 1 MiB -> 262,144 keys; c = 10 % -> 524,288
    EXPECT_EQ(LibraHotSet::MaxHotKeys(0.05), 262144u);
    EXPECT_EQ(LibraHotSet::MaxHotKeys(0.1), 524288u);
}

TEST(LibraHotSet, KneeRuleAddsBlocksUntilOneAddsLessThanTheThreshold)
{
    const LibraHotSet h = TenKeys();
    // blocks of 2: gains 0.60, 0.20, 0.10, 0.07 (< 0.1: added, then stop) -> 8 keys
    EXPECT_EQ(h.ChooseByKnee(2, 0.1), 8u);
    // threshold 0.15: 0.60, 0.20, 0.10 (< 0.15: added, then stop) -> 6 keys
    EXPECT_EQ(h.ChooseByKnee(2, 0.15), 6u);
    // blocks of 4: 0.80, 0.18, then the last 2 keys (0.03 < 0.05) -> all 10
    EXPECT_EQ(h.ChooseByKnee(4, 0.05), 10u);

    // the paper's rule (blocks of 1,000, 1 %): 1,000 keys of 100 updates, 1,000 of 5, 3,000 of 1;
    // T_n = 108,000: gains 0.926, 0.046, 0.0093 (< 0.01) -> 3,000 keys
    std::vector<uint64_t> counts(5000, 1);
    for (uint32_t i = 0; i < 1000; ++i)
    {
        counts[i] = 100;
        counts[1000 + i] = 5;
    }
    EXPECT_EQ(LibraHotSet::FromDenseCounts(counts).ChooseByKnee(), 3000u);

    // fewer keys than a block: the ranking runs out
    EXPECT_EQ(LibraHotSet::FromDenseCounts({3, 2, 1}).ChooseByKnee(), 3u);
}

TEST(LibraHotSet, PrecisionIsTheShareOfTheGlobalHotSetTheSampleFinds)
{
    EXPECT_DOUBLE_EQ(LibraHotSet::Precision({1, 2, 3, 4}, {2, 4, 9}), 0.5);
    EXPECT_DOUBLE_EQ(LibraHotSet::Precision({1, 2, 3, 4}, {4, 3, 2, 1, 8, 9}), 1.0);
    EXPECT_DOUBLE_EQ(LibraHotSet::Precision({5}, {}), 0.0);
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([] {
                  LibraHotSet::Precision({}, {1});
              }).find("empty global"),
              std::string::npos);
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([] {
                  LibraHotSet::Precision({1, 2}, {3, 3});
              }).find("key 3 appears twice in H_s"),
              std::string::npos);
}

TEST(LibraHotSet, BadParametersAreNamed)
{
    const LibraHotSet h = TenKeys();
    EXPECT_EQ(ns3::tests::ErrorOf<std::invalid_argument>([&] {
                  h.ChooseByPrinciple1(1.0, 0.05);
              }),
              "Libra hot set: p (traffic share) must be in (0, 1), got 1");
    EXPECT_EQ(ns3::tests::ErrorOf<std::invalid_argument>([] {
                  LibraHotSet::MaxHotKeys(0.0);
              }),
              "Libra hot set: c (share of switch SRAM) must be in (0, 1), got 0");
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([&] {
                  h.ChooseByKnee(0, 0.01);
              }).find("at least one key"),
              std::string::npos);
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([&] {
                  h.ChooseByKnee(1000, 1.5);
              }).find("minimum gain"),
              std::string::npos);
    const LibraHotSet empty({});
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([&] {
                  empty.ChooseByKnee();
              }).find("no key has an update"),
              std::string::npos);
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([&] {
                  h.MakeRankTable(11);
              }).find("only 10 keys have updates"),
              std::string::npos);
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([] {
                  LibraHotSet::SampledIterations(100, 0.0);
              }).find("sampling fraction must be in (0, 1], got 0"),
              std::string::npos);
    EXPECT_THROW(LibraHotSet::SampledIterations(100, 1.5), std::invalid_argument);
}

TEST(LibraHotSet, SampledModeTakesTheFirstCeilFIterations)
{
    EXPECT_EQ(LibraHotSet::SampledIterations(200, 0.04), 8u);
    EXPECT_EQ(LibraHotSet::SampledIterations(200, 0.08), 16u);
    EXPECT_EQ(LibraHotSet::SampledIterations(100, 0.07), 7u); // 0.07 * 100 = 7.000000000000001
    EXPECT_EQ(LibraHotSet::SampledIterations(3, 0.5), 2u);
    EXPECT_EQ(LibraHotSet::SampledIterations(10, 0.01), 1u);
    EXPECT_EQ(LibraHotSet::SampledIterations(10, 1.0), 10u);

    const SparseWorkload w(1000, 1, 50, 1.0, 5);
    const LibraHotSet sampled = LibraHotSet::FromSampledTrace(w, 3, 20, 0.25);
    const LibraHotSet prefix = LibraHotSet::FromTrace(w, 3, 5);
    EXPECT_EQ(sampled.GetTotalUpdates(), prefix.GetTotalUpdates());
    EXPECT_EQ(sampled.GetTopKeys(sampled.GetNRanked()), prefix.GetTopKeys(prefix.GetNRanked()));
}

TEST(LibraHotSet, TraceCountsEveryRowOfEveryPushOnce)
{
    const SparseWorkload w(500, 1, 40, 1.1, 9);
    std::map<uint32_t, uint64_t> expected;
    uint64_t total = 0;
    for (uint32_t wk = 0; wk < 4; ++wk)
    {
        for (uint32_t i = 0; i < 6; ++i)
        {
            for (uint32_t row : w.RowsForIteration(wk, i))
            {
                ++expected[row];
                ++total;
            }
        }
    }
    const LibraHotSet h = LibraHotSet::FromTrace(w, 4, 6);
    ASSERT_EQ(h.GetNRanked(), expected.size());
    EXPECT_EQ(h.GetTotalUpdates(), total);
    for (uint32_t r = 0; r < h.GetNRanked(); ++r)
    {
        EXPECT_EQ(h.GetCount(r), expected[h.GetKey(r)]) << "rank " << r;
        if (r > 0)
        {
            // descending counts, ties by ascending key
            EXPECT_TRUE(h.GetCount(r - 1) > h.GetCount(r) ||
                        (h.GetCount(r - 1) == h.GetCount(r) && h.GetKey(r - 1) < h.GetKey(r)))
                << "rank " << r;
        }
    }
    // The hottest row of the law is updated in each of the 24 pushes (others may tie with it).
    EXPECT_EQ(h.GetCount(0), 24u);
    EXPECT_EQ(h.GetCount(h.GetRank(w.RowOfRank(0))), 24u);
    EXPECT_THROW(LibraHotSet::FromTrace(w, 0, 6), std::invalid_argument);
}

TEST(LibraRankTable, MapsHotKeysToRanksAndColdKeysToNoRank)
{
    const LibraRankTable t({50, 7, 1000000, 3});
    EXPECT_EQ(t.GetSize(), 4u);
    EXPECT_EQ(t.RankOf(50), 0u);
    EXPECT_EQ(t.RankOf(7), 1u);
    EXPECT_EQ(t.RankOf(1000000), 2u);
    EXPECT_EQ(t.RankOf(3), 3u);
    EXPECT_EQ(t.RankOf(8), LibraRankTable::NO_RANK);
    EXPECT_EQ(t.RankOf(0xffffffffU), LibraRankTable::NO_RANK);
    EXPECT_EQ(t.KeyOf(2), 1000000u);
    EXPECT_THROW(t.KeyOf(4), std::out_of_range);
    EXPECT_EQ(LibraRankTable().RankOf(3), LibraRankTable::NO_RANK);
    EXPECT_NE(ns3::tests::ErrorOf<std::invalid_argument>([] {
                  LibraRankTable({4, 9, 4});
              }).find("key 4 has rank 0 and rank 2"),
              std::string::npos);

    // 30,000 hot keys spread over a large key space: every one found, its neighbours not
    std::vector<uint32_t> keys;
    for (uint32_t r = 0; r < 30000; ++r)
    {
        keys.push_back(r * 4099 + 17);
    }
    const LibraRankTable big(keys);
    for (uint32_t r = 0; r < 30000; ++r)
    {
        ASSERT_EQ(big.RankOf(keys[r]), r);
        ASSERT_EQ(big.RankOf(keys[r] + 1), LibraRankTable::NO_RANK);
    }
}

TEST(LibraHotSet, RankTableOfTheTopKeys)
{
    const LibraHotSet h({{7, 5}, {3, 9}, {12, 5}, {4, 2}});
    const LibraRankTable t = h.MakeRankTable(2);
    EXPECT_EQ(t.RankOf(3), 0u);
    EXPECT_EQ(t.RankOf(7), 1u);
    EXPECT_EQ(t.RankOf(12), LibraRankTable::NO_RANK); // rank 2: cold with k = 2
}
