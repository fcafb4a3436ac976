/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Placement policies put workers where they say, and jobs never share a host.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/job-placement.h"

#include <gtest/gtest.h>
#include <set>

using namespace ns3;

namespace
{
InaTopology
LeafSpine4x4()
{
    // 4 leaves x 4 hosts: hosts 0-3 under leaf 0, 4-7 under leaf 1, ...
    return InaTopology::LeafSpine(4, 2, 4, {100000000000ULL, 1000000}, {100000000000ULL, 1000000});
}
} // namespace

TEST(JobPlacement, PackedTakesLowestFreeIds)
{
    InaTopology t = LeafSpine4x4();
    std::vector<bool> used;
    EXPECT_EQ(JobPlacement::Place(JobPlacement::Kind::PACKED, 3, {}, t, used, 1),
              (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(JobPlacement::Place(JobPlacement::Kind::PACKED, 3, {}, t, used, 1),
              (std::vector<uint32_t>{3, 4, 5}));
}

TEST(JobPlacement, SpreadUsesOneHostPerRackInTurn)
{
    InaTopology t = LeafSpine4x4();
    std::vector<bool> used;
    EXPECT_EQ(JobPlacement::Place(JobPlacement::Kind::SPREAD, 4, {}, t, used, 1),
              (std::vector<uint32_t>{0, 4, 8, 12}));
    // Second round: racks 0-3 give 1, 5, 9, 13; third round from racks 0 and 1: 2, 6.
    EXPECT_EQ(JobPlacement::Place(JobPlacement::Kind::SPREAD, 6, {}, t, used, 1),
              (std::vector<uint32_t>{1, 2, 5, 6, 9, 13}));
}

TEST(JobPlacement, RandomIsSeededAndDisjoint)
{
    InaTopology t = LeafSpine4x4();
    std::vector<bool> u1;
    std::vector<bool> u2;
    std::vector<bool> u3;
    auto a = JobPlacement::Place(JobPlacement::Kind::RANDOM, 8, {}, t, u1, 7);
    auto b = JobPlacement::Place(JobPlacement::Kind::RANDOM, 8, {}, t, u2, 7);
    auto c = JobPlacement::Place(JobPlacement::Kind::RANDOM, 8, {}, t, u3, 8);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    auto d = JobPlacement::Place(JobPlacement::Kind::RANDOM, 8, {}, t, u1, 7);
    std::set<uint32_t> all(a.begin(), a.end());
    all.insert(d.begin(), d.end());
    EXPECT_EQ(all.size(), 16u) << "two jobs never share a host";
}

TEST(JobPlacement, ExplicitAndItsErrors)
{
    InaTopology t = LeafSpine4x4();
    std::vector<bool> used;
    EXPECT_EQ(JobPlacement::Place(JobPlacement::Kind::EXPLICIT, 2, {9, 3}, t, used, 1),
              (std::vector<uint32_t>{9, 3}));
    EXPECT_EQ(ns3::tests::ErrorOf<std::runtime_error>(
                  [&] {
                      JobPlacement::Place(JobPlacement::Kind::EXPLICIT, 1, {3}, t, used, 1);
                  },
                  "host 3 is taken"),
              "host 3 is already taken (by this or an earlier job)");
    EXPECT_EQ(ns3::tests::ErrorOf<std::runtime_error>(
                  [&] {
                      JobPlacement::Place(JobPlacement::Kind::EXPLICIT, 1, {16}, t, used, 1);
                  },
                  "host 16 does not exist"),
              "host 16 does not exist (the topology has hosts 0..15)");
    EXPECT_EQ(ns3::tests::ErrorOf<std::runtime_error>(
                  [&] {
                      JobPlacement::Place(JobPlacement::Kind::PACKED, 15, {}, t, used, 1);
                  },
                  "not enough free hosts"),
              "needs 15 hosts but only 14 of 16 are free");
}
