/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// InaHugePages: the heap keeps its contents when the kernel collapses it into huge pages, advised
// memory keeps what is written to it, and the packet pool's growing blocks hand out each packet
// once.

#include "ns3/ina-huge-pages.h"
#include "ns3/ina-packet-pool.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <memory>
#include <vector>

using namespace ns3;

namespace
{

TEST(InaHugePages, TheHeapKeepsItsContentsThroughTheCollapse)
{
    // Small blocks come from malloc's heap (the brk area BackHeap collapses); 8 MiB of them spans
    // several huge pages whatever the kernel decides.
    std::vector<std::unique_ptr<uint64_t[]>> blocks;
    constexpr size_t WORDS = 512;
    for (size_t b = 0; b < 2048; ++b)
    {
        blocks.emplace_back(new uint64_t[WORDS]);
        for (size_t i = 0; i < WORDS; ++i)
        {
            blocks[b][i] = b * WORDS + i;
        }
    }
    InaHugePages::BackHeap();
    for (size_t b = 0; b < blocks.size(); ++b)
    {
        for (size_t i = 0; i < WORDS; ++i)
        {
            ASSERT_EQ(blocks[b][i], b * WORDS + i) << "block " << b << " word " << i;
        }
    }
}

TEST(InaHugePages, AdvisedMemoryKeepsWhatIsWrittenToIt)
{
    // Advise is called on a block before its first write (the pool's blocks); what is written
    // afterwards must read back, on both sides of the huge-page boundaries inside it.
    constexpr size_t BYTES = 3 * InaHugePages::HUGE_PAGE_BYTES + 4096;
    std::unique_ptr<uint8_t[]> block(new uint8_t[BYTES]);
    InaHugePages::Advise(block.get(), BYTES);
    for (size_t i = 0; i < BYTES; i += 1024)
    {
        block[i] = static_cast<uint8_t>(i / 1024);
    }
    for (size_t i = 0; i < BYTES; i += 1024)
    {
        ASSERT_EQ(block[i], static_cast<uint8_t>(i / 1024)) << "byte " << i;
    }
}

TEST(InaPacketPoolBlocks, EveryPacketOfTheGrowingBlocksIsHandedOutOnce)
{
    // Blocks double (1,024, 2,048, 4,096, ... packets); every packet of each is distinct and
    // zeroed when handed out.
    InaPacketPool pool;
    std::vector<InaPacket*> packets;
    for (size_t i = 0; i < 1024 + 2048 + 1; ++i)
    {
        packets.push_back(pool.Alloc());
        ASSERT_EQ(packets.back()->dst, 0u);
        packets.back()->dst = static_cast<InaAddress>(i + 1);
    }
    EXPECT_EQ(pool.GetAllocated(), 1024u + 2048u + 4096u);
    for (size_t i = 0; i < packets.size(); ++i)
    {
        ASSERT_EQ(packets[i]->dst, i + 1) << "packet " << i << " was handed out twice";
    }
    for (InaPacket* p : packets)
    {
        pool.Free(p);
    }
    EXPECT_EQ(pool.GetInUse(), 0u);
}

} // namespace
