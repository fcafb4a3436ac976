/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_WHEEL_SCHEDULER_H
#define INA_WHEEL_SCHEDULER_H

#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The event queue of inasim's programs: a timing wheel of buckets one time step-range wide, in
 * front of a binary heap for what lies beyond the wheel.
 *
 * A binary heap over every pending event (ns-3's PriorityQueueScheduler) pays log n levels per
 * insert and removal, and a fabric keeps one event pending per busy link: at k=24 that is about
 * 24,000 events, 15 levels, and the lower levels are cache misses on a chain of dependent loads
 * (docs/performance.md, "Third pass"). Here an event due within the wheel's span (BUCKETS
 * buckets of 2^BUCKET_SHIFT time steps each: 4,096 x 1,024 ps, about 4.2 us at inasim's
 * picosecond resolution, more than a link's propagation and serialization) is appended to its
 * bucket, and only the bucket being drained is kept as a heap, of the few tens of events due in
 * the same nanosecond. Later events wait in the overflow heap and move into the wheel as it
 * turns. A drained bucket hands its storage to the next bucket that fills.
 *
 * Order is ns-3's: by time stamp, then by the event's uid (the order they were scheduled in),
 * exactly as every other ns-3 scheduler, so a run gives the same results with any of them.
 *
 * Handing out an event, the wheel already knows the next few: it asks for their lines
 * (LookAhead), and through InaEventBatcher::LookAhead for the lines the next batch's first
 * target will read, so the cache misses of the coming events overlap the one that runs instead
 * of following one another. Hints only: nothing observable changes.
 */
class InaWheelScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId();

    InaWheelScheduler();
    ~InaWheelScheduler() override;

    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    static constexpr uint32_t BUCKET_SHIFT = 10; //!< a bucket spans 2^10 time steps
    static constexpr uint32_t BUCKETS = 4096;    //!< buckets in the wheel (a power of two)

    /// Events at the top of the drained bucket whose lines RemoveNext asks for ahead of their
    /// turn (LookAhead): the next one and the one after it, wherever the heap keeps it (entry 1
    /// or 2). Measured against 1 and 8 at k=24 (docs/performance.md, "Fifth pass"): 1 kept about
    /// half of the gain, 8 added nothing to it.
    static constexpr size_t LOOKAHEAD = 3;

  private:
    /// Prefetch what the first LOOKAHEAD events of `bucket` (a heap) will read when they run.
    static void LookAhead(const std::vector<Event>& bucket);

    static uint64_t BucketOf(const Event& ev)
    {
        return ev.key.m_ts >> BUCKET_SHIFT;
    }

    /// Slot of an absolute bucket number in the wheel.
    static uint32_t SlotOf(uint64_t bucket)
    {
        return static_cast<uint32_t>(bucket & (BUCKETS - 1));
    }

    /// Move to the next bucket holding an event (the current one is empty), taking into the
    /// wheel every overflow event the new span covers. Needs a pending event.
    void Advance();

    /// The absolute number of the first non-empty bucket after the current one, within the
    /// wheel's span; UINT64_MAX if every other bucket is empty.
    uint64_t NextNonEmpty() const;

    /// Add `ev` to a bucket, unordered; an empty bucket takes its storage from m_spare.
    void Append(uint32_t slot, const Event& ev);
    void MarkNonEmpty(uint32_t slot);
    void MarkEmpty(uint32_t slot);

    // Invariants: the wheel holds buckets [m_current, m_current + BUCKETS) (an event inserted for
    // an earlier time, possible once RemoveNext turned the wheel early, joins the current bucket),
    // the current bucket is a min-heap holding at least one event whenever one is pending (so
    // PeekNext and RemoveNext need not look for one), the others are unordered, and every overflow
    // event lies at m_current + BUCKETS or later.
    std::vector<std::vector<Event>> m_slots; //!< BUCKETS buckets
    std::vector<uint64_t> m_nonEmpty;        //!< a bit per slot: it holds an event
    std::vector<Event> m_overflow;           //!< min-heap of events beyond the wheel
    /// Storage of drained buckets, most recent last: a bucket's storage lives only while the
    /// bucket holds events, so the wheel's memory follows the events pending (and stays warm).
    std::vector<std::vector<Event>> m_spare;
    uint64_t m_current = 0; //!< absolute number of the bucket drained
    uint64_t m_size = 0;    //!< pending events, wheel and overflow
};

} // namespace ns3

#endif /* INA_WHEEL_SCHEDULER_H */
