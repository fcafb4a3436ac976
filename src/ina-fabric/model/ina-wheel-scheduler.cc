/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-wheel-scheduler.h"

#include "ina-event-batcher.h"

#include "ns3/assert.h"
#include "ns3/log.h"

#include <algorithm>
#include <functional>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaWheelScheduler");
NS_OBJECT_ENSURE_REGISTERED(InaWheelScheduler);

namespace
{
constexpr uint32_t WORDS = InaWheelScheduler::BUCKETS / 64;
static_assert(InaWheelScheduler::BUCKETS % 64 == 0 &&
                  (InaWheelScheduler::BUCKETS & (InaWheelScheduler::BUCKETS - 1)) == 0,
              "the wheel has a power-of-two number of buckets, whole words of the bitmap");

/// The heaps keep their smallest key on top.
const std::greater<Scheduler::Event> LATER;
} // namespace

TypeId
InaWheelScheduler::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaWheelScheduler")
                            .SetParent<Scheduler>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaWheelScheduler>();
    return tid;
}

InaWheelScheduler::InaWheelScheduler()
    : m_slots(BUCKETS)
    , m_nonEmpty(WORDS, 0)
{
}

InaWheelScheduler::~InaWheelScheduler() = default;

void
InaWheelScheduler::MarkNonEmpty(uint32_t slot)
{
    m_nonEmpty[slot >> 6] |= uint64_t{1} << (slot & 63);
}

void
InaWheelScheduler::MarkEmpty(uint32_t slot)
{
    m_nonEmpty[slot >> 6] &= ~(uint64_t{1} << (slot & 63));
}

void
InaWheelScheduler::Append(uint32_t slot, const Event& ev)
{
    auto& v = m_slots[slot];
    if (v.capacity() == 0 && !m_spare.empty())
    {
        v.swap(m_spare.back());
        m_spare.pop_back();
    }
    v.push_back(ev);
    MarkNonEmpty(slot);
}

void
InaWheelScheduler::Insert(const Event& ev)
{
    const uint64_t b = BucketOf(ev);
    if (m_size++ == 0)
    {
        // Nothing pending, so the wheel may start anywhere: at this event's bucket, which keeps
        // the invariant that the current bucket holds an event whenever one is pending.
        m_current = b;
        Append(SlotOf(b), ev);
        return;
    }
    if (b <= m_current)
    {
        // Due in the bucket being drained (or before it: RemoveNext turns the wheel as soon as a
        // bucket empties, possibly past now; the heap still hands it out first).
        Append(SlotOf(m_current), ev);
        auto& cur = m_slots[SlotOf(m_current)];
        std::push_heap(cur.begin(), cur.end(), LATER);
        return;
    }
    if (b - m_current < BUCKETS)
    {
        Append(SlotOf(b), ev);
        return;
    }
    m_overflow.push_back(ev);
    std::push_heap(m_overflow.begin(), m_overflow.end(), LATER);
}

bool
InaWheelScheduler::IsEmpty() const
{
    return m_size == 0;
}

uint64_t
InaWheelScheduler::NextNonEmpty() const
{
    // Scan the bitmap from the slot after the current one, round the wheel to the current one.
    const uint32_t currentSlot = SlotOf(m_current);
    const uint32_t start = SlotOf(m_current + 1);
    for (uint32_t k = 0; k <= WORDS; ++k)
    {
        const uint32_t w = ((start >> 6) + k) % WORDS;
        uint64_t bits = m_nonEmpty[w];
        if (k == 0)
        {
            bits &= ~uint64_t{0} << (start & 63);
        }
        else if (k == WORDS)
        {
            // Back at the first word: only the slots before `start` are left.
            bits &= (start & 63) == 0 ? 0 : (uint64_t{1} << (start & 63)) - 1;
        }
        if (bits != 0)
        {
            const uint32_t slot = w * 64 + static_cast<uint32_t>(__builtin_ctzll(bits));
            return m_current + ((slot - currentSlot) & (BUCKETS - 1));
        }
    }
    return std::numeric_limits<uint64_t>::max();
}

void
InaWheelScheduler::Advance()
{
    NS_ASSERT_MSG(m_size > 0, "InaWheelScheduler: no pending event");
    MarkEmpty(SlotOf(m_current));
    uint64_t next = NextNonEmpty();
    if (!m_overflow.empty())
    {
        next = std::min(next, BucketOf(m_overflow.front()));
    }
    m_current = next;
    // The span now reaches further: take in what the overflow holds for it.
    while (!m_overflow.empty() && BucketOf(m_overflow.front()) - m_current < BUCKETS)
    {
        Append(SlotOf(BucketOf(m_overflow.front())), m_overflow.front());
        std::pop_heap(m_overflow.begin(), m_overflow.end(), LATER);
        m_overflow.pop_back();
    }
    auto& cur = m_slots[SlotOf(m_current)];
    std::make_heap(cur.begin(), cur.end(), LATER);
}

Scheduler::Event
InaWheelScheduler::PeekNext() const
{
    NS_ASSERT_MSG(m_size > 0, "InaWheelScheduler: PeekNext with no pending event");
    return m_slots[SlotOf(m_current)].front();
}

Scheduler::Event
InaWheelScheduler::RemoveNext()
{
    NS_ASSERT_MSG(m_size > 0, "InaWheelScheduler: RemoveNext with no pending event");
    // The current bucket holds an event whenever one is pending (the invariant), so the common
    // case tests one thing per event: whether this one emptied the bucket.
    auto* cur = &m_slots[SlotOf(m_current)];
    std::pop_heap(cur->begin(), cur->end(), LATER);
    const Event ev = cur->back();
    cur->pop_back();
    --m_size;
    if (cur->empty())
    {
        MarkEmpty(SlotOf(m_current));
        // Its storage goes to the next bucket to fill, still in the cache, instead of waiting a
        // whole turn of the wheel.
        m_spare.emplace_back();
        m_spare.back().swap(*cur);
        if (m_size == 0)
        {
            return ev;
        }
        // Turn now rather than at the next call: the invariant, and the look-ahead then sees
        // the next bucket's first events too.
        Advance();
        cur = &m_slots[SlotOf(m_current)];
    }
    LookAhead(*cur);
    return ev;
}

void
InaWheelScheduler::LookAhead(const std::vector<Event>& bucket)
{
    // The events at the top of the heap run next (the next one at 0, the one after it at 1 or 2),
    // and what each will read was evicted since it last ran once the fabric outgrows the caches.
    // Asking for those lines now lets their misses overlap the event about to run instead of
    // following it one by one (docs/performance.md, "Fifth pass").
    const size_t n = std::min<size_t>(bucket.size(), LOOKAHEAD);
    for (size_t i = 0; i < n; ++i)
    {
        __builtin_prefetch(bucket[i].impl);
    }
    // The next event's own line was asked for when it was further down: through it, a batch
    // asks for its targets' lines (a device's arrival line).
    InaEventBatcher::LookAhead(bucket.front().impl);
}

void
InaWheelScheduler::Remove(const Event& ev)
{
    // Rare (Simulator::Remove): a linear search of the one place the event can be.
    const uint64_t b = BucketOf(ev);
    const bool inOverflow = b > m_current && b - m_current >= BUCKETS;
    const uint32_t slot = SlotOf(b <= m_current ? m_current : b);
    auto& v = inOverflow ? m_overflow : m_slots[slot];
    auto it = std::find_if(v.begin(), v.end(), [&ev](const Event& e) {
        return e.key.m_uid == ev.key.m_uid;
    });
    NS_ASSERT_MSG(it != v.end(), "InaWheelScheduler: Remove of an event that is not pending");
    v.erase(it);
    --m_size;
    if (inOverflow || b <= m_current)
    {
        std::make_heap(v.begin(), v.end(), LATER);
    }
    if (!inOverflow && v.empty())
    {
        MarkEmpty(slot);
        if (b <= m_current && m_size > 0)
        {
            Advance(); // the current bucket emptied: the invariant
        }
    }
}

} // namespace ns3
