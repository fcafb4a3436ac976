/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-layout.h"

#include "ns3/ina-split-mix.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ns3
{

namespace
{

constexpr uint32_t LEFTOVER = 0xffffffffU;

std::string
U(uint64_t x)
{
    return std::to_string(x);
}

} // namespace

void
LibraPushStats::Add(const LibraPacketPasses& p)
{
    ++packets;
    pairs += p.pairs;
    collisions += p.collisions;
    recirculationsNeeded += p.GetRecirculationsNeeded();
    recirculationsTaken += p.GetRecirculationsTaken();
    recirculatedPackets += p.GetRecirculationsNeeded() > 0 ? 1 : 0;
    fallbackPairs += p.fallbackPairs;
}

double
LibraPushStats::GetCollisionsPerPacket() const
{
    return packets == 0 ? 0.0 : static_cast<double>(collisions) / static_cast<double>(packets);
}

double
LibraPushStats::GetRecirculationsPerPacket() const
{
    return packets == 0 ? 0.0
                        : static_cast<double>(recirculationsNeeded) / static_cast<double>(packets);
}

double
LibraPushStats::GetFallbackShare() const
{
    return pairs == 0 ? 0.0 : static_cast<double>(fallbackPairs) / static_cast<double>(pairs);
}

LibraLayout::LibraLayout(const Config& config)
    : m_config(config)
{
    const Config& c = config;
    if (c.hotKeys == 0)
    {
        throw std::invalid_argument("Libra layout: hot keys (K) must be at least 1");
    }
    if (c.registers == 0)
    {
        throw std::invalid_argument("Libra layout: registers (m) must be at least 1");
    }
    if (c.pairsPerPacket == 0)
    {
        throw std::invalid_argument("Libra layout: pairs per packet (cap) must be at least 1");
    }
    if (c.rankBytes != 2 && c.rankBytes != 4)
    {
        throw std::invalid_argument("Libra layout: rank bytes must be 2 or 4, got " +
                                    U(c.rankBytes));
    }
    if (c.rankBytes == 2 && c.hotKeys > 65536)
    {
        throw std::invalid_argument("Libra layout: 2-byte ranks address at most 65536 hot keys, "
                                    "got K = " +
                                    U(c.hotKeys) + "; use 4-byte ranks");
    }
    const uint64_t bytes =
        static_cast<uint64_t>(c.headerBytes) + uint64_t{c.pairsPerPacket} * GetPairBytes();
    if (bytes > c.maxPacketBytes)
    {
        throw std::invalid_argument(
            "Libra layout: " + U(c.pairsPerPacket) + " pairs per packet make " + U(c.headerBytes) +
            " + " + U(c.pairsPerPacket) + " x " + U(GetPairBytes()) + " = " + U(bytes) +
            " B, above the " + U(c.maxPacketBytes) +
            "-B limit of the switch parser (the whole packet must be parsed); at most " +
            U(MaxPairsPerPacket(c.headerBytes, c.rankBytes, c.maxPacketBytes)) + " pairs fit");
    }
    if (c.packing == Packing::ALGORITHM1 && c.pairsPerPacket > c.registers)
    {
        throw std::invalid_argument(
            "Libra layout: Algorithm 1 needs pairs per packet (cap = " + U(c.pairsPerPacket) +
            ") <= registers (m = " + U(c.registers) +
            "): a packet holds at most one pair per register, so with cap > m no packet can be "
            "filled without a second pass");
    }
    if (c.placement == Placement::RANDOM)
    {
        m_permutation.resize(c.hotKeys);
        std::iota(m_permutation.begin(), m_permutation.end(), 0);
        uint64_t state = c.seed;
        for (uint32_t i = c.hotKeys - 1; i > 0; --i)
        {
            // j uniform in [0, i] by a multiply-high (bias below 2^-32, and the same everywhere)
            const auto j = static_cast<uint32_t>(
                (static_cast<unsigned __int128>(InaSplitMix64Next(state)) * (uint64_t{i} + 1)) >>
                64);
            std::swap(m_permutation[i], m_permutation[j]);
        }
    }
}

uint32_t
LibraLayout::GetSlotsPerRegister() const
{
    return static_cast<uint32_t>((uint64_t{m_config.hotKeys} + m_config.registers - 1) /
                                 m_config.registers);
}

uint32_t
LibraLayout::MaxPairsPerPacket(uint32_t headerBytes, uint32_t rankBytes, uint32_t maxPacketBytes)
{
    if (headerBytes >= maxPacketBytes)
    {
        return 0;
    }
    return (maxPacketBytes - headerBytes) / (rankBytes + VALUE_BYTES);
}

void
LibraLayout::FailRank(uint32_t rank) const
{
    throw std::out_of_range("Libra layout: rank " + U(rank) + " is not below the hot-key count " +
                            U(m_config.hotKeys));
}

void
LibraLayout::Pack(const std::vector<uint32_t>& ranks, LibraPacking& out) const
{
    Pack(ranks.data(), static_cast<uint32_t>(ranks.size()), out);
}

void
LibraLayout::Pack(const uint32_t* ranks, uint32_t n, LibraPacking& out) const
{
    out.items.clear();
    out.begin.assign(1, 0);
    out.leftovers = 0;
    out.leftoverPackets = 0;
    out.order.resize(n);
    std::iota(out.order.begin(), out.order.end(), 0);
    std::sort(out.order.begin(), out.order.end(), [ranks](uint32_t a, uint32_t b) {
        return ranks[a] < ranks[b];
    });
    for (uint32_t s = 0; s < n; ++s)
    {
        const uint32_t r = ranks[out.order[s]];
        if (r >= m_config.hotKeys)
        {
            throw std::invalid_argument("Libra layout: pair " + U(out.order[s]) +
                                        " of the push has rank " + U(r) +
                                        ", not below the hot-key count " + U(m_config.hotKeys));
        }
        if (s > 0 && ranks[out.order[s - 1]] == r)
        {
            throw std::invalid_argument("Libra layout: rank " + U(r) +
                                        " appears twice in one push (pairs " + U(out.order[s - 1]) +
                                        " and " + U(out.order[s]) +
                                        "); a push carries each key once");
        }
    }
    if (n == 0)
    {
        return;
    }
    if (m_config.packing == Packing::ALGORITHM1)
    {
        PackAlgorithm1(ranks, n, out);
    }
    else
    {
        PackSequential(n, out);
    }
}

void
LibraLayout::PackSequential(uint32_t n, LibraPacking& out) const
{
    out.items.assign(out.order.begin(), out.order.end());
    for (uint32_t b = 0; b < n;)
    {
        b = std::min(n, b + m_config.pairsPerPacket);
        out.begin.push_back(b);
    }
}

void
LibraLayout::PackAlgorithm1(const uint32_t* ranks, uint32_t n, LibraPacking& out) const
{
    const uint32_t cap = m_config.pairsPerPacket;
    const uint32_t m = m_config.registers;
    const uint32_t packets = (n + cap - 1) / cap;
    const uint32_t words = (m + 63) / 64;
    out.regBits.assign(static_cast<size_t>(packets) * words, 0);
    out.fill.assign(packets, 0);
    out.cursor.assign(m, 0);
    out.assigned.resize(n);

    for (uint32_t s = 0; s < n; ++s)
    {
        const uint32_t k = RegisterOf(ranks[out.order[s]]);
        const uint64_t bit = uint64_t{1} << (k & 63);
        const uint32_t word = k >> 6;
        uint32_t j = out.cursor[k];
        while (j < packets && (out.fill[j] == cap || (out.regBits[j * words + word] & bit) != 0))
        {
            ++j;
        }
        out.cursor[k] = j;
        if (j < packets)
        {
            out.regBits[j * words + word] |= bit;
            ++out.fill[j];
            out.assigned[s] = j;
        }
        else
        {
            out.assigned[s] = LEFTOVER;
            ++out.leftovers;
        }
    }

    // Lay the packets out contiguously (a counting sort on the packet, stable, so each packet
    // keeps its pairs in ascending rank), dropping empty packets, then the leftovers.
    out.items.resize(n);
    uint32_t next = 0;
    std::vector<uint32_t>& start = out.cursor; // reused: no longer needed per register
    start.assign(packets, 0);
    for (uint32_t j = 0; j < packets; ++j)
    {
        start[j] = next;
        next += out.fill[j];
        if (out.fill[j] > 0)
        {
            out.begin.push_back(next);
        }
    }
    uint32_t leftoverAt = next;
    for (uint32_t s = 0; s < n; ++s)
    {
        const uint32_t j = out.assigned[s];
        out.items[j == LEFTOVER ? leftoverAt++ : start[j]++] = out.order[s];
    }
    for (uint32_t b = next; b < n;)
    {
        b = std::min(n, b + cap);
        out.begin.push_back(b);
        ++out.leftoverPackets;
    }
}

LibraPacketPasses
LibraLayout::Analyse(const uint32_t* ranks,
                     uint32_t n,
                     uint32_t maxRecirculations,
                     uint32_t* passOfPair) const
{
    LibraPacketPasses r;
    r.pairs = n;
    const uint64_t maxPasses = uint64_t{maxRecirculations} + 1;
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t k = RegisterOf(ranks[i]);
        uint32_t earlier = 0;
        for (uint32_t j = 0; j < i; ++j)
        {
            earlier += RegisterOf(ranks[j]) == k ? 1 : 0;
        }
        if (passOfPair != nullptr)
        {
            passOfPair[i] = earlier;
        }
        r.collisions += earlier > 0 ? 1 : 0;
        r.passesNeeded = std::max(r.passesNeeded, earlier + 1);
        r.fallbackPairs += earlier >= maxPasses ? 1 : 0;
    }
    r.passesTaken = static_cast<uint32_t>(std::min<uint64_t>(r.passesNeeded, maxPasses));
    return r;
}

void
LibraLayout::AnalysePacking(const uint32_t* ranks,
                            LibraPacking& packing,
                            uint32_t maxRecirculations,
                            LibraPushStats& stats) const
{
    ++stats.pushes;
    stats.leftovers += packing.leftovers;
    for (uint32_t p = 0; p < packing.GetNPackets(); ++p)
    {
        packing.ranks.clear();
        for (uint32_t i = packing.begin[p]; i < packing.begin[p + 1]; ++i)
        {
            packing.ranks.push_back(ranks[packing.items[i]]);
        }
        stats.Add(Analyse(packing.ranks.data(),
                          static_cast<uint32_t>(packing.ranks.size()),
                          maxRecirculations));
    }
}

std::string
LibraLayout::PlacementName(Placement p)
{
    return p == Placement::HEAT ? "heat" : "random";
}

std::string
LibraLayout::PackingName(Packing p)
{
    return p == Packing::ALGORITHM1 ? "algorithm1" : "sequential";
}

} // namespace ns3
