/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_EVENT_BATCHER_H
#define INA_EVENT_BATCHER_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * One scheduler event for every group of link arrivals due at the same picosecond.
 *
 * Collective traffic moves in lockstep: a switch multicasts a result to every worker at once, the
 * workers answer at once, and each of those packets used to cost its own scheduler event, all at
 * one time stamp. The scheduler's insert and remove are most of a hop's cost (performance.md D),
 * so a request for the time of the batch scheduled most recently joins that batch instead: the
 * event runs the waiting targets in the order they asked, and traffic that is not in lockstep
 * pays what it paid before (one event each).
 *
 * Order: targets of one batch run in request order, as separate events would, but all at the
 * batch's place among the events of that time stamp (where its first target would have run).
 * Events are pooled, so batching allocates nothing in the steady state. State is per simulation:
 * Simulator::Destroy forgets pending batches.
 */
class InaEventBatcher
{
  public:
    /// Something woken by the batcher (an InaNetDevice's head-of-line arrival).
    class Target
    {
      public:
        virtual ~Target() = default;
        /// Called at the time asked for.
        virtual void OnBatchedEvent() = 0;
    };

    /**
     * Wake `target` at `atPs` (absolute picoseconds, not before now). A target must not be
     * scheduled twice at once; nothing can be cancelled (an InaNetDevice's arrivals never are).
     */
    static void ScheduleAt(int64_t atPs, Target* target);

    /// Scheduler events created for batches since the process started (for benchmarks).
    static uint64_t GetBatchesScheduled();
};

} // namespace ns3

#endif /* INA_EVENT_BATCHER_H */
