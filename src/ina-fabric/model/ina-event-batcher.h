/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_EVENT_BATCHER_H
#define INA_EVENT_BATCHER_H

#include "ns3/event-impl.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class SimulatorImpl;

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
 * Events are pooled, so batching allocates nothing in the steady state.
 *
 * State is per batcher, not per process: an InaFabric owns the one its links share (its devices
 * hold a pointer to it, so the hot path makes no global look-up), and two fabrics, or two
 * simulations one after the other, never join each other's batches. Simulator::Destroy drops
 * pending batches without running them; the batcher forgets them then (a destroy hook it
 * registers with each simulation it schedules in). A batcher destroyed while some of its batches
 * are still pending disowns them: they run as empty events.
 */
class InaEventBatcher
{
  public:
    InaEventBatcher();
    ~InaEventBatcher();
    InaEventBatcher(const InaEventBatcher&) = delete;
    InaEventBatcher& operator=(const InaEventBatcher&) = delete;

    /**
     * Wake `target` at `atPs` (absolute picoseconds, not before now) by calling its
     * OnBatchedEvent(); its PrefetchBatchedEvent() const is called a few events before (LookAhead)
     * to ask for the lines the wake will read. A target must not be scheduled twice at once;
     * nothing can be cancelled (an InaNetDevice's arrivals never are).
     *
     * The batch keeps the functions to call beside the target's address, so a target needs no
     * vtable: an InaNetDevice's arrival line then holds only what the arrival reads (the 8 bytes
     * of a vtable pointer there left no room for the send counters, docs/performance.md).
     */
    template<typename T>
    void ScheduleAt(int64_t atPs, T* target)
    {
        const Target t{&OPS<T>, target};
        if (m_open != nullptr && m_openAtPs == atPs)
        {
            JoinOpen(t);
            return;
        }
        ScheduleNew(atPs, t);
    }

    /// Scheduler events this batcher created for batches (for benchmarks and tests).
    uint64_t GetBatchesScheduled() const;

    /**
     * The simulation's time in picoseconds, as Simulator::Now().GetTimeStep(). While one of this
     * batcher's batches runs it is that batch's time stamp, read from here: Simulator::Now() is
     * three calls into ns-3's core (GetImpl, Now, the Time) of about 50 instructions, asked
     * twice a hop by the send and the hosts' agents (docs/performance.md, "Seventh pass").
     * At any other moment (a timer, an application's event) it asks the simulator.
     */
    int64_t NowPs() const
    {
        return m_runningAtPs != NOT_RUNNING ? m_runningAtPs : SimulatorNowPs();
    }

    /// Simulator::Now().GetTimeStep(), for callers that have no batcher to ask.
    static int64_t SimulatorNowPs();

    /**
     * The scheduler's look-ahead (InaWheelScheduler): `event` runs soon. When it is a batch, ask
     * for the lines its targets will read when woken (their PrefetchBatchedEvent()), so those
     * misses overlap the events that run before it. Any other event is left alone. Only a hint:
     * nothing observable changes.
     */
    static void LookAhead(const EventImpl* event);

  private:
    /// What a batch does with a target of type T, shared by every target of that type.
    struct Ops
    {
        void (*wake)(void*);           //!< T::OnBatchedEvent
        void (*prefetch)(const void*); //!< T::PrefetchBatchedEvent
    };

    /// Something to wake: its operations and its object (an InaNetDevice's head-of-line arrival).
    struct Target
    {
        const Ops* ops;
        void* object;
    };

    template<typename T>
    static void Wake(void* target)
    {
        static_cast<T*>(target)->OnBatchedEvent();
    }

    template<typename T>
    static void Prefetch(const void* target)
    {
        static_cast<const T*>(target)->PrefetchBatchedEvent();
    }

    template<typename T>
    static constexpr Ops OPS{&Wake<T>, &Prefetch<T>};

    class Batch;
    class DestroyHook;
    friend class Batch;
    friend class DestroyHook;

    void JoinOpen(const Target& target);
    void ScheduleNew(int64_t atPs, const Target& target);
    void Done(Batch* batch); //!< a batch ran: back to the pool
    void ForgetPending();    //!< Simulator::Destroy dropped every pending batch

    Batch* m_open = nullptr;        //!< the batch scheduled most recently, while it is pending
    int64_t m_openAtPs = 0;         //!< its time (read on every request, kept beside the pointer)
    std::vector<Batch*> m_idle;     //!< batches that ran, ready for reuse
    std::vector<Ptr<Batch>> m_all;  //!< every batch made, to disown them when this dies
    Ptr<DestroyHook> m_destroyHook; //!< registered with the current simulation, or null
    /// The current simulation's implementation, looked up once (forgotten with m_destroyHook).
    SimulatorImpl* m_impl = nullptr;
    uint64_t m_scheduled = 0;

    static constexpr int64_t NOT_RUNNING = -1; //!< m_runningAtPs when none of its batches runs
    int64_t m_runningAtPs = NOT_RUNNING;       //!< the time stamp of the batch running now
};

} // namespace ns3

#endif /* INA_EVENT_BATCHER_H */
