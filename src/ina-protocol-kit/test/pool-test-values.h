/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_TEST_VALUES_H
#define POOL_TEST_VALUES_H

// Shared by the test suites of the shared-pool family's switch programs and parameter servers (ATP,
// ESA): one packet's PoolHeader::VALUES values, distinct per contribution so that a value counted
// twice or lost shows in the sum; a packet with a PoolHeader made from its fields.

#include "ns3/ina-packet-pool.h"
#include "ns3/pool-header.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <numeric>
#include <vector>

namespace ns3
{
namespace tests
{

/// One packet's values: base, base + 1, ...
inline std::vector<int32_t>
Ramp(int32_t base)
{
    std::vector<int32_t> v(PoolHeader::VALUES);
    std::iota(v.begin(), v.end(), base);
    return v;
}

/// One Ramp per base, for several contributions at once: `const auto [a, b] = Ramps({1, 10});`.
template<size_t N>
inline std::array<std::vector<int32_t>, N>
Ramps(const int32_t (&bases)[N])
{
    std::array<std::vector<int32_t>, N> r;
    for (size_t i = 0; i < N; ++i)
    {
        r[i] = Ramp(bases[i]);
    }
    return r;
}

/// The element-wise sum of packets' values.
inline std::vector<int32_t>
Sum(std::initializer_list<std::vector<int32_t>> vs)
{
    std::vector<int32_t> s(PoolHeader::VALUES, 0);
    for (const auto& v : vs)
    {
        for (size_t i = 0; i < s.size(); ++i)
        {
            s[i] += v[i];
        }
    }
    return s;
}

/// The fields of a pool-family packet a test hands a switch program or a parameter server.
struct PoolPacketSpec
{
    InaAddress src = 100;        //!< sender
    InaAddress dst = 0;          //!< destination
    uint32_t job = 0;            //!< InaPacket::jobId and the header's key
    uint16_t protocol = 0;       //!< InaPacket::protocol
    uint64_t seq = 5;            //!< fragment
    uint8_t ecn = 1;             //!< ECT
    uint32_t bitmap0 = 1;        //!< PoolHeader::bitmap0
    uint32_t bitmap1 = 1;        //!< PoolHeader::bitmap1
    uint8_t fanIn0 = 3;          //!< PoolHeader::fanInDegree0
    uint8_t fanIn1 = 1;          //!< PoolHeader::fanInDegree1
    uint8_t flags = 0;           //!< PoolHeader::flags
    uint8_t priority = 0;        //!< PoolHeader::priority
    uint16_t index = 7;          //!< PoolHeader::aggregatorIndex
    uint8_t ps = 0;              //!< PoolHeader::psIndex
    std::vector<int32_t> values; //!< payload (empty: virtual)
};

/// \return a packet from `pool` with the fields of `k` (the header's key made of job and seq)
inline InaPacket*
MakePoolPacket(InaPacketPool& pool, const PoolPacketSpec& k)
{
    InaPacket* p = pool.Alloc();
    p->src = k.src;
    p->dst = k.dst;
    p->jobId = k.job;
    p->protocol = k.protocol;
    p->wireBytes = PoolHeader::WIRE_BYTES;
    p->seq = k.seq;
    p->ecn = k.ecn;
    PoolHeader* h = p->Header<PoolHeader>();
    h->bitmap0 = k.bitmap0;
    h->bitmap1 = k.bitmap1;
    h->fanInDegree0 = k.fanIn0;
    h->fanInDegree1 = k.fanIn1;
    h->flags = k.flags;
    h->priority = k.priority;
    h->aggregatorIndex = k.index;
    h->psIndex = k.ps;
    h->jobIdAndSeq = PoolHeader::Key(k.job, k.seq);
    if (!k.values.empty())
    {
        p->values = pool.AllocValues(k.values.size());
        std::memcpy(p->values->AsInt32(), k.values.data(), k.values.size() * 4);
    }
    return p;
}

} // namespace tests
} // namespace ns3

#endif // POOL_TEST_VALUES_H
