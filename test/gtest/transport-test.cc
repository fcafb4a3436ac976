/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Pure logic behind the transport and the traffic application: the ring buffer the scoreboards
// live in, derangements, flow patterns and the nearest-rank percentile.

#include "ns3/ina-flow-app.h"
#include "ns3/ina-ring-buffer.h"

#include <gtest/gtest.h>
#include <numeric>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

TEST(InaRingBuffer, KeepsAbsolutePositionsAcrossGrowth)
{
    InaRingBuffer<uint64_t> r;
    for (uint64_t i = 0; i < 10; ++i)
    {
        r.PushBack(i * 10);
    }
    for (int i = 0; i < 7; ++i)
    {
        r.PopFront();
    }
    // 3 left (positions 7..9); push past the initial 16 slots so the array doubles while wrapped.
    for (uint64_t i = 10; i < 40; ++i)
    {
        r.PushBack(i * 10);
    }
    EXPECT_EQ(r.Head(), 7u);
    EXPECT_EQ(r.Tail(), 40u);
    EXPECT_EQ(r.Size(), 33u);
    for (uint64_t i = 7; i < 40; ++i)
    {
        EXPECT_EQ(r.At(i), i * 10) << "position " << i;
    }
    EXPECT_EQ(r.Front(), 70u);
    r.Clear(100);
    EXPECT_TRUE(r.Empty());
    r.PushBack(5);
    EXPECT_EQ(r.Head(), 100u);
    EXPECT_EQ(r.At(100), 5u);
}

TEST(InaFlowApp, DerangementHasNoFixedPointAndIsAPermutation)
{
    for (uint32_t n : {2u, 3u, 8u, 64u, 1000u})
    {
        for (uint64_t seed = 1; seed <= 20; ++seed)
        {
            std::vector<uint32_t> d = InaFlowApp::Derangement(n, seed);
            ASSERT_EQ(d.size(), n);
            std::vector<bool> hit(n, false);
            for (uint32_t i = 0; i < n; ++i)
            {
                ASSERT_LT(d[i], n);
                EXPECT_NE(d[i], i) << "n=" << n << " seed=" << seed;
                EXPECT_FALSE(hit[d[i]]) << "n=" << n << " seed=" << seed;
                hit[d[i]] = true;
            }
        }
    }
    // The only derangement of two is the swap.
    EXPECT_EQ(InaFlowApp::Derangement(2, 99), (std::vector<uint32_t>{1, 0}));
}

TEST(InaFlowApp, DerangementDependsOnTheSeedOnly)
{
    EXPECT_EQ(InaFlowApp::Derangement(16, 5), InaFlowApp::Derangement(16, 5));
    EXPECT_NE(InaFlowApp::Derangement(16, 5), InaFlowApp::Derangement(16, 6));
    // Of the 9 derangements of 4, 200 seeds should reach every one.
    std::set<std::vector<uint32_t>> seen;
    for (uint64_t seed = 0; seed < 200; ++seed)
    {
        seen.insert(InaFlowApp::Derangement(4, seed));
    }
    EXPECT_EQ(seen.size(), 9u);
}

TEST(InaFlowApp, DerangementOfFewerThanTwoIsAnError)
{
    EXPECT_THROW(InaFlowApp::Derangement(1, 1), std::invalid_argument);
    EXPECT_THROW(InaFlowApp::Derangement(0, 1), std::invalid_argument);
}

TEST(InaFlowApp, FlowPairs)
{
    const std::vector<uint32_t> hosts{4, 7, 1};
    auto perm = InaFlowApp::MakeFlowPairs(InaFlowApp::PERMUTATION, hosts, 3, 0);
    ASSERT_EQ(perm.size(), 3u);
    std::vector<uint32_t> d = InaFlowApp::Derangement(3, 3);
    for (uint32_t i = 0; i < 3; ++i)
    {
        EXPECT_EQ(perm[i].first, hosts[i]);
        EXPECT_EQ(perm[i].second, hosts[d[i]]);
    }

    auto incast = InaFlowApp::MakeFlowPairs(InaFlowApp::INCAST, hosts, 3, 7);
    EXPECT_EQ(incast, (std::vector<std::pair<uint32_t, uint32_t>>{{4, 7}, {1, 7}}));
    auto outside = InaFlowApp::MakeFlowPairs(InaFlowApp::INCAST, hosts, 3, 9);
    EXPECT_EQ(outside.size(), 3u) << "a destination outside the list receives from all";
    EXPECT_THROW(InaFlowApp::MakeFlowPairs(InaFlowApp::INCAST, {7}, 3, 7), std::invalid_argument);

    auto all = InaFlowApp::MakeFlowPairs(InaFlowApp::ALL_TO_ALL, hosts, 3, 0);
    EXPECT_EQ(all,
              (std::vector<
                  std::pair<uint32_t, uint32_t>>{{4, 7}, {4, 1}, {7, 4}, {7, 1}, {1, 4}, {1, 7}}));
    EXPECT_THROW(InaFlowApp::MakeFlowPairs(InaFlowApp::ALL_TO_ALL, {3}, 3, 0),
                 std::invalid_argument);
}

TEST(InaFlowApp, NearestRankPercentile)
{
    // 1..100: rank ceil(99) = 99.
    std::vector<int64_t> v(100);
    std::iota(v.begin(), v.end(), 1);
    std::reverse(v.begin(), v.end());
    EXPECT_EQ(InaFlowApp::NearestRankPercentile(v, 99), 99);
    EXPECT_EQ(InaFlowApp::NearestRankPercentile(v, 50), 50);
    EXPECT_EQ(InaFlowApp::NearestRankPercentile(v, 100), 100);
    EXPECT_EQ(InaFlowApp::NearestRankPercentile(v, 1), 1);
    // 1..200: rank ceil(198) = 198; 1..201: ceil(198.99) = 199.
    std::vector<int64_t> w(200);
    std::iota(w.begin(), w.end(), 1);
    EXPECT_EQ(InaFlowApp::NearestRankPercentile(w, 99), 198);
    w.push_back(201);
    EXPECT_EQ(InaFlowApp::NearestRankPercentile(w, 99), 199);
    // Up to 100 values the 99th percentile is the largest.
    EXPECT_EQ(InaFlowApp::NearestRankPercentile({30, 10, 20}, 99), 30);
    EXPECT_EQ(InaFlowApp::NearestRankPercentile({5}, 99), 5);
    EXPECT_THROW(InaFlowApp::NearestRankPercentile({}, 99), std::invalid_argument);
    EXPECT_THROW(InaFlowApp::NearestRankPercentile({1}, 0), std::invalid_argument);
    EXPECT_THROW(InaFlowApp::NearestRankPercentile({1}, 101), std::invalid_argument);
}

TEST(InaFlowApp, PatternNames)
{
    EXPECT_EQ(InaFlowApp::PatternName(InaFlowApp::PERMUTATION), "permutation");
    EXPECT_EQ(InaFlowApp::PatternName(InaFlowApp::INCAST), "incast");
    EXPECT_EQ(InaFlowApp::PatternName(InaFlowApp::ALL_TO_ALL), "all-to-all");
}
