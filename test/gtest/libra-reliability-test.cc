/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Libra's per-packet reliability (paper Sec. 3.6) as pure logic: the sender's retransmission
// queue and the switch CPU's records, each by hand, then together against a reference model of a
// lossy channel, packet by packet.
#include "ns3/libra-retx-queue.h"
#include "ns3/libra-switch-records.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using namespace ns3;

TEST(LibraRetxQueue, ExpiresInSendOrderAndRearms)
{
    LibraRetxQueue q(100);
    q.Sent(1, 0);
    q.Sent(2, 10);
    q.Sent(3, 20);
    EXPECT_EQ(q.GetNextDeadline(), 100);
    std::vector<uint64_t> out;
    q.Expired(99, out);
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(q.Acked(2));
    q.Expired(115, out);
    EXPECT_EQ(out, (std::vector<uint64_t>{1}));
    // 1 is re-armed at 115; 3 expires at 120, then 1 at 215.
    EXPECT_EQ(q.GetNextDeadline(), 120);
    q.Expired(120, out);
    EXPECT_EQ(out, (std::vector<uint64_t>{3}));
    EXPECT_EQ(q.GetNextDeadline(), 215);
    EXPECT_EQ(q.GetPending(), 2u);
    EXPECT_EQ(q.GetResends(), 2u);
}

TEST(LibraRetxQueue, DuplicateAndUnknownAcksAreCountedNotApplied)
{
    LibraRetxQueue q(50);
    q.Sent(7, 0);
    EXPECT_TRUE(q.Acked(7));
    EXPECT_FALSE(q.Acked(7));
    EXPECT_FALSE(q.Acked(8));
    EXPECT_EQ(q.GetDuplicateAcks(), 2u);
    EXPECT_EQ(q.GetNextDeadline(), -1);
    std::vector<uint64_t> out;
    q.Expired(1000, out);
    EXPECT_TRUE(out.empty());
}

TEST(LibraSwitchRecords, RecordsRepeatsAndPrunes)
{
    LibraSwitchRecords r;
    EXPECT_TRUE(r.RecordPush(3, 5, 17));
    EXPECT_FALSE(r.RecordPush(3, 5, 17));
    EXPECT_TRUE(r.HasPush(3, 5, 17));
    EXPECT_FALSE(r.HasPush(3, 5, 18));
    EXPECT_FALSE(r.HasPush(4, 5, 17));
    EXPECT_FALSE(r.HasPush(3, 6, 17));
    EXPECT_TRUE(r.RecordDone(3, 5));
    EXPECT_FALSE(r.RecordDone(3, 5));
    EXPECT_FALSE(r.HasDone(3, 5, 1)); // the pull phase is its own marker
    EXPECT_TRUE(r.RecordDone(3, 5, 1));
    EXPECT_TRUE(r.HasDone(3, 5, 1));
    EXPECT_TRUE(r.RecordPull(3, 5, 9));
    EXPECT_FALSE(r.RecordPull(3, 5, 9));
    EXPECT_TRUE(r.HasPull(3, 5, 9));
    EXPECT_FALSE(r.HasPull(3, 6, 9));
    EXPECT_FALSE(r.HasPull(2, 5, 9));
    EXPECT_TRUE(r.RecordPush(0, 6, 0));
    EXPECT_EQ(r.GetSize(), 5u);
    r.PruneBefore(6);
    EXPECT_FALSE(r.HasPush(3, 5, 17));
    EXPECT_FALSE(r.HasDone(3, 5));
    EXPECT_FALSE(r.HasDone(3, 5, 1));
    EXPECT_FALSE(r.HasPull(3, 5, 9));
    EXPECT_TRUE(r.HasPush(0, 6, 0));
    EXPECT_EQ(r.GetSize(), 1u);
}

TEST(LibraSwitchRecords, RefusesKeysBeyondTheirRange)
{
    LibraSwitchRecords r;
    EXPECT_THROW(r.RecordPush(LibraSwitchRecords::MAX_WORKERS, 0, 0), std::out_of_range);
    EXPECT_THROW(r.RecordPush(0, 0, LibraSwitchRecords::MAX_SEQ), std::out_of_range);
}

/**
 * A worker pushes P packets through a channel that loses pushes and ACKs; the switch applies a
 * push without the retransmit flag at once and records it, and a flagged one only when its
 * records do not have it (the paper's rule), always ACKing. The reference model is the set of
 * pushes that took effect: every decision of the switch is compared with it packet by packet
 * (apply exactly when the reference has not applied it), and at the end every push took effect
 * exactly once and the worker has nothing outstanding. The ACK-loss case is Figure 10's repeat
 * write: without the records the switch would apply those resends a second time.
 */
TEST(LibraReliability, LossyChannelAppliesEveryPushExactlyOnce)
{
    for (uint32_t seed = 1; seed <= 20; ++seed)
    {
        std::mt19937 rng(seed);
        auto lost = [&rng](uint32_t percent) {
            return rng() % 100 < percent;
        };
        const uint32_t packets = 200;
        const int64_t rtt = 10;
        const int64_t timeout = 25;
        LibraRetxQueue q(timeout);
        LibraSwitchRecords records;
        std::map<uint32_t, uint32_t> applied; // reference: times each push took effect
        std::multimap<int64_t, std::pair<uint32_t, bool>> pushes; // arrival -> (seq, retx)
        std::multimap<int64_t, uint32_t> acks;                    // arrival at the worker
        uint64_t repeatsAbsorbed = 0;
        uint64_t resends = 0;
        int64_t now = 0;
        for (uint32_t s = 0; s < packets; ++s)
        {
            q.Sent(s, now);
            if (!lost(10))
            {
                pushes.emplace(now + rtt / 2, std::make_pair(s, false));
            }
        }
        std::vector<uint64_t> expired;
        while (q.GetPending() > 0)
        {
            ASSERT_LT(now, 1000000) << "seed " << seed << ": the worker never finished";
            ++now;
            for (auto it = pushes.begin(); it != pushes.end() && it->first <= now;)
            {
                const auto [seq, retx] = it->second;
                const bool referenceApplied = applied.count(seq) != 0;
                bool apply;
                if (!retx)
                {
                    apply = true;
                    records.RecordPush(0, 0, seq);
                }
                else
                {
                    apply = !records.HasPush(0, 0, seq);
                    if (apply)
                    {
                        records.RecordPush(0, 0, seq);
                    }
                    else
                    {
                        ++repeatsAbsorbed;
                    }
                }
                EXPECT_EQ(apply, !referenceApplied)
                    << "seed " << seed << " push " << seq << (retx ? " (resend)" : "");
                if (apply)
                {
                    ++applied[seq];
                }
                if (!lost(10))
                {
                    acks.emplace(now + rtt / 2, seq);
                }
                it = pushes.erase(it);
            }
            for (auto it = acks.begin(); it != acks.end() && it->first <= now;)
            {
                q.Acked(it->second);
                it = acks.erase(it);
            }
            q.Expired(now, expired);
            for (uint64_t seq : expired)
            {
                ++resends;
                if (!lost(10))
                {
                    pushes.emplace(now + rtt / 2, std::make_pair(static_cast<uint32_t>(seq), true));
                }
            }
        }
        ASSERT_EQ(applied.size(), packets) << "seed " << seed;
        for (const auto& [seq, n] : applied)
        {
            EXPECT_EQ(n, 1u) << "seed " << seed << " push " << seq;
        }
        EXPECT_GT(resends, 0u) << "seed " << seed;
        EXPECT_GT(repeatsAbsorbed, 0u) << "seed " << seed << ": no ACK was lost after a push";
    }
}
