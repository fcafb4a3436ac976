/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// InaWheelScheduler hands events out in ns-3's order, (time stamp, uid), whatever the mix of
// near and far events, ties, events for the bucket being drained, removals and peeks: checked
// operation by operation against an ordered set of the same keys.
#include "ns3/event-impl.h"
#include "ns3/ina-wheel-scheduler.h"

#include <gtest/gtest.h>
#include <iterator>
#include <random>
#include <set>
#include <tuple>

using namespace ns3;

namespace
{

using Key = std::pair<uint64_t, uint32_t>; // (time stamp, uid)

/// What every test event points at: the scheduler reads an event it is about to hand out
/// (RemoveNext's look-ahead), so it must be a real one.
class NoOp : public EventImpl
{
    void Notify() override
    {
    }
};

Scheduler::Event
MakeEvent(uint64_t ts, uint32_t uid)
{
    static NoOp noOp;
    Scheduler::Event ev;
    ev.impl = &noOp;
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = 0;
    return ev;
}

/// A delay from `now`, drawn from a mix: the same time stamp (ties), the current bucket, the
/// wheel's span, just past it, and far beyond (the overflow heap).
uint64_t
DrawDelay(std::mt19937_64& rng)
{
    const uint64_t span = uint64_t{InaWheelScheduler::BUCKETS} << InaWheelScheduler::BUCKET_SHIFT;
    switch (rng() % 6)
    {
    case 0:
        return 0;
    case 1:
        return rng() % (uint64_t{1} << InaWheelScheduler::BUCKET_SHIFT);
    case 2:
        return rng() % span;
    case 3:
        return span - 2 + rng() % 4;
    case 4:
        return span + rng() % (4 * span);
    default:
        return rng() % (1000 * span);
    }
}

/// Runs `ops` random operations from a simulation clock that only moves forward, as ns-3 uses a
/// scheduler, and checks every event taken out against the reference.
void
CheckAgainstReference(uint64_t seed, uint32_t ops, uint32_t peekEvery)
{
    std::mt19937_64 rng(seed);
    auto scheduler = CreateObject<InaWheelScheduler>();
    std::set<Key> reference;
    uint64_t now = 0;
    uint32_t nextUid = 0;
    uint32_t removed = 0;
    for (uint32_t i = 0; i < ops; ++i)
    {
        const uint32_t what = rng() % 10;
        if (what < 5 || reference.empty())
        {
            const uint64_t ts = now + DrawDelay(rng);
            scheduler->Insert(MakeEvent(ts, nextUid));
            reference.emplace(ts, nextUid);
            ++nextUid;
        }
        else if (what < 9)
        {
            if (peekEvery != 0 && i % peekEvery == 0)
            {
                const auto peeked = scheduler->PeekNext();
                ASSERT_EQ(Key(peeked.key.m_ts, peeked.key.m_uid), *reference.begin()) << "op " << i;
                // An event scheduled at `now` after the peek turned the wheel must still come out
                // first (ns-3 may peek, then run code that schedules for the current time).
                scheduler->Insert(MakeEvent(now, nextUid));
                reference.emplace(now, nextUid);
                ++nextUid;
            }
            const auto ev = scheduler->RemoveNext();
            ASSERT_EQ(Key(ev.key.m_ts, ev.key.m_uid), *reference.begin()) << "op " << i;
            reference.erase(reference.begin());
            now = ev.key.m_ts;
        }
        else
        {
            // Simulator::Remove of any pending event.
            auto it = reference.begin();
            std::advance(it, rng() % reference.size());
            scheduler->Remove(MakeEvent(it->first, it->second));
            reference.erase(it);
            ++removed;
        }
        ASSERT_EQ(scheduler->IsEmpty(), reference.empty()) << "op " << i;
    }
    while (!reference.empty())
    {
        const auto ev = scheduler->RemoveNext();
        ASSERT_EQ(Key(ev.key.m_ts, ev.key.m_uid), *reference.begin());
        reference.erase(reference.begin());
    }
    EXPECT_TRUE(scheduler->IsEmpty());
    EXPECT_GT(removed, 0u);
}

TEST(WheelScheduler, OrderMatchesReferenceOnRandomOperations)
{
    for (uint64_t seed = 1; seed <= 8; ++seed)
    {
        CheckAgainstReference(seed, 20000, 0);
    }
}

TEST(WheelScheduler, OrderMatchesReferenceWithPeeks)
{
    for (uint64_t seed = 11; seed <= 14; ++seed)
    {
        CheckAgainstReference(seed, 20000, 7);
    }
}

TEST(WheelScheduler, FarEventsComeBackThroughTheOverflowInOrder)
{
    // Only events beyond the wheel, in reverse order, several per bucket and several buckets
    // sharing a slot of the wheel (a span apart): each must come out in time order.
    auto scheduler = CreateObject<InaWheelScheduler>();
    const uint64_t span = uint64_t{InaWheelScheduler::BUCKETS} << InaWheelScheduler::BUCKET_SHIFT;
    std::set<Key> reference;
    uint32_t uid = 0;
    for (uint64_t lap = 10; lap >= 1; --lap)
    {
        for (uint64_t j = 0; j < 3; ++j)
        {
            const uint64_t ts = lap * span + 5 + j;
            scheduler->Insert(MakeEvent(ts, uid));
            reference.emplace(ts, uid);
            ++uid;
        }
    }
    for (const auto& expected : reference)
    {
        const auto ev = scheduler->RemoveNext();
        EXPECT_EQ(Key(ev.key.m_ts, ev.key.m_uid), expected);
    }
    EXPECT_TRUE(scheduler->IsEmpty());
}

} // namespace
