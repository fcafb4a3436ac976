/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_EVENT_H
#define INA_EVENT_H

#include "ns3/event-impl.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <utility>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * An event that calls one member function and is scheduled again and again without allocating.
 *
 * Simulator::Schedule(f, args) allocates an EventImpl per call; on a link that is one malloc and
 * one free per packet hop, a large share of what remains once ns-3 Packets are gone (performance.md
 * B4). An owner that never has more than one instance pending (a link's head packet, a
 * recirculation port) keeps one InaEvent and reschedules it. Simulator::Schedule(Time,
 * Ptr<EventImpl>) takes its own reference (GetPointer acquires one) and the scheduler drops it
 * after Invoke.
 */
template<typename T, void (T::*Method)()>
class InaEvent : public EventImpl
{
  public:
    explicit InaEvent(T* owner)
        : m_owner(owner)
    {
    }

  private:
    void Notify() override
    {
        (m_owner->*Method)();
    }

    T* m_owner;
};

/**
 * \ingroup ina-fabric
 * Holder of one reusable event. Not copyable: the event points back at its owner.
 */
template<typename T, void (T::*Method)()>
class InaReusableEvent
{
  public:
    explicit InaReusableEvent(T* owner)
        : m_event(new InaEvent<T, Method>(owner), false)
    {
    }

    InaReusableEvent(const InaReusableEvent&) = delete;
    InaReusableEvent& operator=(const InaReusableEvent&) = delete;

    /// Schedule at an absolute time (picoseconds). At most one instance may be pending.
    void ScheduleAt(int64_t atPs)
    {
        Simulator::Schedule(TimeStep(atPs - Simulator::Now().GetTimeStep()), m_event);
    }

  private:
    Ptr<EventImpl> m_event;
};

/**
 * \ingroup ina-fabric
 * A one-shot event that calls a functor (e.g. a lambda) once.
 *
 * Simulator::Schedule(Time, lambda) exists only from ns-3.36, Schedule(Time, Ptr<EventImpl>) in
 * every version: set-up code and tests that must also build under waf with ns-3.35 schedule
 * lambdas through MakeInaFunctorEvent. It allocates once per call: not for per-packet paths.
 */
template<typename F>
class InaFunctorEvent : public EventImpl
{
  public:
    explicit InaFunctorEvent(F f)
        : m_f(std::move(f))
    {
    }

  private:
    void Notify() override
    {
        m_f();
    }

    F m_f;
};

/**
 * \ingroup ina-fabric
 * \param f the functor to call once.
 * \return a one-shot event for Simulator::Schedule(Time, Ptr<EventImpl>).
 */
template<typename F>
Ptr<EventImpl>
MakeInaFunctorEvent(F f)
{
    return Ptr<EventImpl>(new InaFunctorEvent<F>(std::move(f)), false);
}

} // namespace ns3

#endif /* INA_EVENT_H */
