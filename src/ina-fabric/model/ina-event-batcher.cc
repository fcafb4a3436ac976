/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-event-batcher.h"

#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"

#include <typeinfo>

namespace ns3
{

/// One scheduler event waking the targets that asked for its time stamp. Aligned to a cache
/// line and holding its first target itself: most batches have one target, and waking it then
/// reads the line the scheduler's Invoke has just read, not a separate array as well.
class alignas(64) InaEventBatcher::Batch final : public EventImpl
{
  public:
    explicit Batch(InaEventBatcher* owner)
        : m_owner(owner)
    {
    }

    InaEventBatcher* m_owner;    //!< null once the batcher is gone (then the batch does nothing)
    int64_t atPs = 0;            //!< when it runs (the owner's NowPs() while it does)
    Target first{};              //!< the target that opened the batch
    std::vector<Target> joiners; //!< the others, in request order (capacity kept across reuse)

  private:
    void Notify() override
    {
        if (m_owner == nullptr)
        {
            return;
        }
        if (m_owner->m_open == this)
        {
            // Requests made from here on are for later times or belong after this event.
            m_owner->m_open = nullptr;
        }

        // The clock goes back to the simulator's however the targets return (an exception that
        // ends the run must not leave a stale time behind for the next one).
        struct Clock
        {
            InaEventBatcher* owner;

            ~Clock()
            {
                owner->m_runningAtPs = NOT_RUNNING;
            }
        } clock{m_owner};

        m_owner->m_runningAtPs = atPs;
        const size_t n = joiners.size();
        if (n > 0)
        {
            joiners[0].ops->prefetch(joiners[0].object);
        }
        first.ops->wake(first.object);
        for (size_t i = 0; i < n; ++i)
        {
            // The next target's lines are asked for while this one runs (LookAhead's reason).
            if (i + 1 < n)
            {
                joiners[i + 1].ops->prefetch(joiners[i + 1].object);
            }
            joiners[i].ops->wake(joiners[i].object);
        }
        first = Target{};
        joiners.clear();
        m_owner->Done(this);
    }
};

/// Run by Simulator::Destroy, which drops pending events without running them.
class InaEventBatcher::DestroyHook : public EventImpl
{
  public:
    explicit DestroyHook(InaEventBatcher* owner)
        : m_owner(owner)
    {
    }

    InaEventBatcher* m_owner; //!< null once the batcher is gone

  private:
    void Notify() override
    {
        if (m_owner != nullptr)
        {
            m_owner->ForgetPending();
        }
    }
};

InaEventBatcher::InaEventBatcher() = default;

InaEventBatcher::~InaEventBatcher()
{
    // The scheduler may still hold some of the batches, and the simulation the hook: both
    // outlive this object and must not call back.
    for (const auto& b : m_all)
    {
        b->m_owner = nullptr;
        b->first = Target{};
        b->joiners.clear();
    }
    if (m_destroyHook)
    {
        m_destroyHook->m_owner = nullptr;
    }
}

void
InaEventBatcher::JoinOpen(const Target& target)
{
    m_open->joiners.push_back(target);
}

void
InaEventBatcher::ScheduleNew(int64_t atPs, const Target& target)
{
    const int64_t now = NowPs();
    NS_ASSERT_MSG(atPs >= now, "InaEventBatcher: an event in the past");
    Batch* b;
    if (m_idle.empty())
    {
        m_all.push_back(Ptr<Batch>(new Batch(this), false));
        b = PeekPointer(m_all.back());
    }
    else
    {
        b = m_idle.back();
        m_idle.pop_back();
    }
    b->first = target;
    b->atPs = atPs;
    if (m_impl == nullptr)
    {
        m_impl = PeekPointer(Simulator::GetImplementation());
    }
    // Straight to the simulation's implementation, not through Simulator::Schedule: that wrapper
    // looks the implementation up (GetImpl) and copies the event's Ptr on every call, about 46
    // of the 223 instructions a schedule took (docs/performance.md, "Seventh pass"). The
    // implementation owns one reference to a scheduled event, as Simulator::Schedule gives it.
    b->Ref();
    m_impl->Schedule(TimeStep(atPs - now), b);
    m_open = b;
    m_openAtPs = atPs;
    ++m_scheduled;
    if (!m_destroyHook)
    {
        m_destroyHook = Create<DestroyHook>(this);
        Simulator::ScheduleDestroy(Ptr<EventImpl>(m_destroyHook));
    }
}

void
InaEventBatcher::Done(Batch* batch)
{
    m_idle.push_back(batch);
}

void
InaEventBatcher::ForgetPending()
{
    // None of the dropped batches may be joined, and each is free again (the scheduler released
    // it without running it).
    m_open = nullptr;
    m_idle.clear();
    for (const auto& b : m_all)
    {
        b->first = Target{};
        b->joiners.clear();
        m_idle.push_back(PeekPointer(b));
    }
    m_destroyHook = nullptr; // the next simulation gets a hook of its own
    m_impl = nullptr;        // and is looked up again: Simulator::Destroy releases this one
}

void
InaEventBatcher::LookAhead(const EventImpl* event)
{
    // typeid reads the event's vtable pointer, on the line the scheduler asked for when this
    // event was further down its bucket, and the (hot) vtable. The addresses of the type_info
    // objects are compared, not the objects: Batch is defined in this file alone, so its
    // type_info is one object, and type_info's operator== would compare the names of every
    // other event's type with a string comparison (a call, on every event the wheel hands out).
    if (&typeid(*event) != &typeid(Batch))
    {
        return;
    }
    const auto* batch = static_cast<const Batch*>(event);
    if (batch->first.ops != nullptr)
    {
        batch->first.ops->prefetch(batch->first.object);
    }
    if (!batch->joiners.empty())
    {
        __builtin_prefetch(batch->joiners.data());
    }
}

int64_t
InaEventBatcher::SimulatorNowPs()
{
    return Simulator::Now().GetTimeStep();
}

uint64_t
InaEventBatcher::GetBatchesScheduled() const
{
    return m_scheduled;
}

} // namespace ns3
