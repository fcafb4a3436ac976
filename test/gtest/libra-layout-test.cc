/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/libra-layout.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

LibraLayout
Heat(uint32_t hotKeys, uint32_t m, uint32_t cap)
{
    LibraLayout::Config c;
    c.hotKeys = hotKeys;
    c.registers = m;
    c.pairsPerPacket = cap;
    return LibraLayout(c);
}

/// \return the packets as lists of ranks
std::vector<std::vector<uint32_t>>
Packets(const std::vector<uint32_t>& ranks, const LibraPacking& p)
{
    std::vector<std::vector<uint32_t>> out;
    for (uint32_t i = 0; i < p.GetNPackets(); ++i)
    {
        out.emplace_back();
        for (uint32_t j = p.begin[i]; j < p.begin[i + 1]; ++j)
        {
            out.back().push_back(ranks[p.items[j]]);
        }
    }
    return out;
}

using Pkts = std::vector<std::vector<uint32_t>>;

/// The message of the std::invalid_argument a layout of `c` is refused with, "" if it is not.
std::string
ConfigError(const LibraLayout::Config& c)
{
    return ns3::tests::ErrorOf<std::invalid_argument>([&] {
        LibraLayout l(c);
    });
}

} // namespace

TEST(LibraLayout, HeatPlacementIsRankModAndDivM)
{
    const LibraLayout l = Heat(30000, 16, 16);
    EXPECT_EQ(l.GetSlotsPerRegister(), 1875u);
    EXPECT_EQ(l.RegisterOf(0), 0u);
    EXPECT_EQ(l.SlotOf(0), 0u);
    EXPECT_EQ(l.RegisterOf(15), 15u);
    EXPECT_EQ(l.SlotOf(15), 0u);
    EXPECT_EQ(l.RegisterOf(16), 0u);
    EXPECT_EQ(l.SlotOf(16), 1u);
    EXPECT_EQ(l.RegisterOf(29999), 15u);
    EXPECT_EQ(l.SlotOf(29999), 1874u);
    EXPECT_THROW(l.RegisterOf(30000), std::out_of_range);

    const LibraLayout odd = Heat(20, 7, 7);
    EXPECT_EQ(odd.GetSlotsPerRegister(), 3u); // ceil(20 / 7)
    EXPECT_EQ(odd.RegisterOf(19), 5u);
    EXPECT_EQ(odd.SlotOf(19), 2u);
}

TEST(LibraLayout, RandomPlacementIsASeededBalancedPermutation)
{
    LibraLayout::Config c;
    c.hotKeys = 1000;
    c.registers = 16;
    c.placement = LibraLayout::Placement::RANDOM;
    c.seed = 3;
    const LibraLayout a(c);
    const LibraLayout b(c);
    c.seed = 4;
    const LibraLayout other(c);
    std::set<uint64_t> positions;
    std::vector<uint32_t> perRegister(16, 0);
    uint32_t differs = 0;
    uint32_t fixedPoints = 0;
    for (uint32_t r = 0; r < 1000; ++r)
    {
        ASSERT_EQ(a.RegisterOf(r), b.RegisterOf(r));
        ASSERT_EQ(a.SlotOf(r), b.SlotOf(r));
        positions.insert(uint64_t{a.SlotOf(r)} * 16 + a.RegisterOf(r));
        ++perRegister[a.RegisterOf(r)];
        differs += a.RegisterOf(r) != other.RegisterOf(r) ? 1 : 0;
        fixedPoints += a.RegisterOf(r) == r % 16 && a.SlotOf(r) == r / 16 ? 1 : 0;
    }
    EXPECT_EQ(positions.size(), 1000u); // a permutation: every position once
    EXPECT_EQ(*positions.rbegin(), 999u);
    for (uint32_t i = 0; i < 16; ++i)
    {
        // 1000 = 62 * 16 + 8: registers 0..7 hold 63 ranks, 8..15 hold 62
        EXPECT_EQ(perRegister[i], i < 8 ? 63u : 62u) << "register " << i;
    }
    EXPECT_GT(differs, 800u);    // another seed, another layout (15/16 expected to differ)
    EXPECT_LT(fixedPoints, 10u); // not the heat layout (about 1 expected)
}

TEST(LibraLayout, Algorithm1OnAHandMadePush)
{
    // m = 4, cap = 3. Sorted push 0 1 2 4 5 8 12, registers 0 1 2 0 1 0 0; P = ceil(7/3) = 3.
    //   0 -> p0; 1 -> p0; 2 -> p0 (full); 4 (reg 0) -> p1; 5 -> p1; 8 (reg 0: p1 has it) -> p2;
    //   12 (reg 0: p1 and p2 have it, p0 full) -> G'; G' -> one fresh packet.
    const LibraLayout l = Heat(100, 4, 3);
    const std::vector<uint32_t> push = {8, 1, 4, 0, 12, 5, 2};
    LibraPacking p;
    l.Pack(push, p);
    EXPECT_EQ(Packets(push, p), (Pkts{{0, 1, 2}, {4, 5}, {8}, {12}}));
    EXPECT_EQ(p.items, (std::vector<uint32_t>{3, 1, 6, 2, 5, 0, 4})); // indices into the push
    EXPECT_EQ(p.begin, (std::vector<uint32_t>{0, 3, 5, 6, 7}));
    EXPECT_EQ(p.leftovers, 1u);
    EXPECT_EQ(p.leftoverPackets, 1u);

    // m = 2, cap = 2: sorted 0 1 2 4 6 8 10 12, P = 4; 0, 1 fill p0; 2, 4, 6 (reg 0) open p1..p3;
    // 8, 10, 12 (reg 0) fit nowhere -> G' = {8, 10, 12} -> {8, 10}, {12}, layout ignored.
    const LibraLayout l2 = Heat(100, 2, 2);
    const std::vector<uint32_t> push2 = {12, 10, 8, 6, 4, 2, 1, 0};
    l2.Pack(push2, p);
    EXPECT_EQ(Packets(push2, p), (Pkts{{0, 1}, {2}, {4}, {6}, {8, 10}, {12}}));
    EXPECT_EQ(p.leftovers, 3u);
    EXPECT_EQ(p.leftoverPackets, 2u);

    LibraPushStats st;
    l2.AnalysePacking(push2.data(), p, 1, st);
    EXPECT_EQ(st.pushes, 1u);
    EXPECT_EQ(st.packets, 6u);
    EXPECT_EQ(st.pairs, 8u);
    EXPECT_EQ(st.leftovers, 3u);
    EXPECT_EQ(st.collisions, 1u); // {8, 10}: both register 0
    EXPECT_EQ(st.recirculationsNeeded, 1u);
    EXPECT_EQ(st.recirculatedPackets, 1u);
    EXPECT_EQ(st.fallbackPairs, 0u);
    EXPECT_DOUBLE_EQ(st.GetCollisionsPerPacket(), 1.0 / 6.0);

    l2.Pack(std::vector<uint32_t>{}, p);
    EXPECT_EQ(p.GetNPackets(), 0u);
}

TEST(LibraLayout, SequentialPackingFillsPacketsInRankOrder)
{
    LibraLayout::Config c;
    c.hotKeys = 100;
    c.registers = 4;
    c.pairsPerPacket = 2;
    c.packing = LibraLayout::Packing::SEQUENTIAL;
    const LibraLayout l(c);
    const std::vector<uint32_t> push = {5, 3, 9, 1, 7};
    LibraPacking p;
    l.Pack(push, p);
    EXPECT_EQ(Packets(push, p), (Pkts{{1, 3}, {5, 7}, {9}}));
    EXPECT_EQ(p.leftovers, 0u);
    EXPECT_EQ(p.leftoverPackets, 0u);
}

TEST(LibraLayout, Algorithm1PacketsHoldEachPairOnceAndLayoutPacketsHaveNoCollision)
{
    const LibraLayout l = Heat(30000, 16, 16);
    std::mt19937 rng(11);
    LibraPacking p;
    for (int trial = 0; trial < 20; ++trial)
    {
        std::set<uint32_t> chosen;
        while (chosen.size() < 500)
        {
            chosen.insert(rng() % 3000);
        }
        std::vector<uint32_t> push(chosen.begin(), chosen.end());
        std::shuffle(push.begin(), push.end(), rng);
        l.Pack(push, p);
        std::vector<uint32_t> seen(push.size(), 0);
        for (uint32_t i : p.items)
        {
            ++seen[i];
        }
        ASSERT_EQ(std::count(seen.begin(), seen.end(), 1u), 500);
        const uint32_t layoutPackets = p.GetNPackets() - p.leftoverPackets;
        EXPECT_EQ(layoutPackets, 32u); // ceil(500 / 16): none of them left empty
        for (uint32_t k = 0; k < p.GetNPackets(); ++k)
        {
            ASSERT_LE(p.GetPacketPairs(k), 16u);
            ASSERT_GT(p.GetPacketPairs(k), 0u);
            std::vector<uint32_t> ranks;
            for (uint32_t j = p.begin[k]; j < p.begin[k + 1]; ++j)
            {
                ranks.push_back(push[p.items[j]]);
            }
            const LibraPacketPasses pp =
                l.Analyse(ranks.data(), static_cast<uint32_t>(ranks.size()));
            if (k < layoutPackets)
            {
                ASSERT_EQ(pp.collisions, 0u) << "trial " << trial << " packet " << k;
            }
        }
    }
}

TEST(LibraLayout, CollisionsPassesAndFallbackByHand)
{
    // m = 4: ranks 0 4 8 1 5 2 sit in registers 0 0 0 1 1 2, served in passes 0 1 2 0 1 0.
    const LibraLayout l = Heat(100, 4, 4);
    const uint32_t ranks[] = {0, 4, 8, 1, 5, 2};
    uint32_t pass[6];
    LibraPacketPasses p = l.Analyse(ranks, 6, LibraLayout::UNLIMITED_RECIRCULATIONS, pass);
    EXPECT_EQ(std::vector<uint32_t>(pass, pass + 6), (std::vector<uint32_t>{0, 1, 2, 0, 1, 0}));
    EXPECT_EQ(p.pairs, 6u);
    EXPECT_EQ(p.collisions, 3u); // 4, 8, 5
    EXPECT_EQ(p.passesNeeded, 3u);
    EXPECT_EQ(p.GetRecirculationsNeeded(), 2u);
    EXPECT_EQ(p.passesTaken, 3u);
    EXPECT_EQ(p.fallbackPairs, 0u);

    // the paper's cap of one recirculation: two passes, rank 8 (its register's third pair) to the
    // PS
    p = l.Analyse(ranks, 6, 1);
    EXPECT_EQ(p.passesTaken, 2u);
    EXPECT_EQ(p.GetRecirculationsTaken(), 1u);
    EXPECT_EQ(p.fallbackPairs, 1u);
    EXPECT_EQ(p.GetRecirculationsNeeded(), 2u);

    // no recirculation at all: 4, 8 and 5 go to the PS
    p = l.Analyse(ranks, 6, 0);
    EXPECT_EQ(p.passesTaken, 1u);
    EXPECT_EQ(p.fallbackPairs, 3u);

    // a conflict-free packet
    const uint32_t clean[] = {0, 1, 2, 3};
    p = l.Analyse(clean, 4, 1);
    EXPECT_EQ(p.collisions, 0u);
    EXPECT_EQ(p.passesNeeded, 1u);
    EXPECT_EQ(p.GetRecirculationsNeeded(), 0u);

    LibraPushStats st;
    st.Add(l.Analyse(ranks, 6, 1));
    st.Add(l.Analyse(clean, 4, 1));
    EXPECT_EQ(st.packets, 2u);
    EXPECT_EQ(st.pairs, 10u);
    EXPECT_EQ(st.collisions, 3u);
    EXPECT_EQ(st.recirculationsNeeded, 2u);
    EXPECT_EQ(st.recirculationsTaken, 1u);
    EXPECT_EQ(st.recirculatedPackets, 1u);
    EXPECT_EQ(st.fallbackPairs, 1u);
    EXPECT_DOUBLE_EQ(st.GetRecirculationsPerPacket(), 1.0);
    EXPECT_DOUBLE_EQ(st.GetFallbackShare(), 0.1);
}

TEST(LibraLayout, CapAboveRegistersIsRefusedForAlgorithm1)
{
    LibraLayout::Config c;
    c.registers = 8;
    c.pairsPerPacket = 9;
    const std::string msg = ConfigError(c);
    EXPECT_NE(msg.find("Algorithm 1 needs pairs per packet (cap = 9) <= registers (m = 8)"),
              std::string::npos)
        << msg;
    c.packing = LibraLayout::Packing::SEQUENTIAL; // the baseline has no such rule
    EXPECT_NO_THROW(LibraLayout l(c));
    c.pairsPerPacket = 8;
    c.packing = LibraLayout::Packing::ALGORITHM1;
    EXPECT_NO_THROW(LibraLayout l(c));
}

TEST(LibraLayout, PacketSizeLimitIsCheckedAtConfiguration)
{
    // 54 B of headers + cap x (4-B rank + 4-B value) <= 192 B: cap <= 17
    EXPECT_EQ(LibraLayout::MaxPairsPerPacket(), 17u);
    EXPECT_EQ(LibraLayout::MaxPairsPerPacket(54, 2), 23u); // 2-B ranks: 54 + 23 x 6 = 192
    EXPECT_EQ(LibraLayout::MaxPairsPerPacket(200, 4), 0u);
    LibraLayout::Config c;
    c.registers = 32;
    c.pairsPerPacket = 17;
    EXPECT_EQ(LibraLayout(c).GetPacketBytes(17), 190u);
    EXPECT_EQ(LibraLayout(c).GetPacketBytes(16), 182u); // the spec's default packet
    c.pairsPerPacket = 18;
    const std::string msg = ConfigError(c);
    EXPECT_NE(msg.find("18 pairs per packet make 54 + 18 x 8 = 198 B, above the 192-B limit"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("at most 17 pairs fit"), std::string::npos) << msg;

    c.rankBytes = 2;
    c.pairsPerPacket = 23;
    EXPECT_NO_THROW(LibraLayout l(c));
    c.pairsPerPacket = 24;
    EXPECT_THROW(LibraLayout l(c), std::invalid_argument);
    c.pairsPerPacket = 16;
    c.hotKeys = 70000;
    EXPECT_NE(ConfigError(c).find("2-byte ranks address at most 65536 hot keys, got K = 70000"),
              std::string::npos);
    c.rankBytes = 3;
    EXPECT_NE(ConfigError(c).find("rank bytes must be 2 or 4, got 3"), std::string::npos);
}

TEST(LibraLayout, BadConfigurationAndPushesAreNamed)
{
    LibraLayout::Config c;
    c.registers = 0;
    EXPECT_EQ(ConfigError(c), "Libra layout: registers (m) must be at least 1");
    c.registers = 16;
    c.hotKeys = 0;
    EXPECT_EQ(ConfigError(c), "Libra layout: hot keys (K) must be at least 1");
    c.hotKeys = 30000;
    c.pairsPerPacket = 0;
    EXPECT_EQ(ConfigError(c), "Libra layout: pairs per packet (cap) must be at least 1");

    const LibraLayout l = Heat(100, 4, 4);
    LibraPacking p;
    EXPECT_EQ(ns3::tests::ErrorOf<std::invalid_argument>([&] {
                  l.Pack(std::vector<uint32_t>{3, 100, 5}, p);
              }),
              "Libra layout: pair 1 of the push has rank 100, not below the hot-key count 100");
    EXPECT_EQ(ns3::tests::ErrorOf<std::invalid_argument>([&] {
                  l.Pack(std::vector<uint32_t>{3, 7, 3}, p);
              }),
              "Libra layout: rank 3 appears twice in one push (pairs 0 and 2); a push carries "
              "each key once");
}
