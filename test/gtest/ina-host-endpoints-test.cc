/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// InaHost's endpoint table: the pool protocols bind one endpoint per job from 0x7000 up on every
// host of the job. A table indexed by number up to there cost each such host 229 KB (about 235 MB
// for 1,024 hosts); high endpoints now live in a short sorted list. The heap is measured with
// glibc's mallinfo2 (under AddressSanitizer, which keeps its own heap, it does not move).

#include "ns3/ina-host.h"
#include "ns3/ptr.h"

#include <gtest/gtest.h>
#include <malloc.h>
#include <set>
#include <vector>

using namespace ns3;

namespace
{

/// A sink that is never called: these tests only bind and look up.
class NullSink : public InaPacketSink
{
  public:
    void Receive(InaPacket*, uint32_t) override
    {
    }
};

} // namespace

TEST(InaHostEndpoints, AHighEndpointDoesNotCostATableUpToIt)
{
    NullSink sink;
    std::vector<Ptr<InaHost>> hosts;
    for (int i = 0; i < 64; ++i)
    {
        hosts.push_back(CreateObject<InaHost>());
    }
    const size_t before = mallinfo2().uordblks;
    for (auto& h : hosts)
    {
        h->Bind(0x7000 + 3, &sink); // POOL_ENDPOINT_BASE + job 3
    }
    const size_t grown = mallinfo2().uordblks - before;
    // A table up to 0x7003 would be 64 x 229 KB = 14.7 MB.
    EXPECT_LT(grown, 64u * 1024) << "bytes for one high endpoint on each of 64 hosts";
    for (auto& h : hosts)
    {
        h->Dispose();
    }
}

TEST(InaHostEndpoints, AllocationSkipsBoundEndpointsLowAndHigh)
{
    NullSink sink;
    Ptr<InaHost> h = CreateObject<InaHost>();
    h->Bind(1025, &sink);
    h->Bind(4100, &sink);
    h->Bind(4098, &sink);
    h->Unbind(4098);
    std::set<uint16_t> got;
    for (int i = 0; i < 3100; ++i)
    {
        const uint16_t e = h->AllocateEndpoint();
        EXPECT_TRUE(got.insert(e).second) << e;
        h->Bind(e, &sink); // aborts if it was taken
    }
    EXPECT_EQ(got.count(1025), 0u);
    EXPECT_EQ(got.count(4100), 0u);
    EXPECT_EQ(got.count(4098), 1u) << "an unbound high endpoint is free again";
    EXPECT_EQ(*got.begin(), 1024);
    EXPECT_EQ(*got.rbegin(), 1024 + 3100 + 1); // 3,100 numbers, two of them skipped (1025, 4100)
    h->Dispose();
}
