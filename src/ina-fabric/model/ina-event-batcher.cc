/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-event-batcher.h"

#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/ptr.h"
#include "ns3/simulator.h"

#include <vector>

namespace ns3
{
namespace
{

class Batch;

/// The batcher's per-simulation state (one simulation runs at a time in a process).
struct BatcherState
{
    Batch* open = nullptr; //!< the batch scheduled most recently, while it is pending
    bool destroyHooked = false;
    std::vector<Ptr<Batch>> pool;
    uint64_t scheduled = 0;
};

BatcherState&
State()
{
    static BatcherState s;
    return s;
}

class Batch : public EventImpl
{
  public:
    int64_t atPs = 0;
    std::vector<InaEventBatcher::Target*> targets;

  private:
    void Notify() override
    {
        BatcherState& s = State();
        if (s.open == this)
        {
            // Requests made from here on are for later times or belong after this event.
            s.open = nullptr;
        }
        for (size_t i = 0; i < targets.size(); ++i)
        {
            targets[i]->OnBatchedEvent();
        }
        targets.clear();
        s.pool.emplace_back(this);
    }
};

void
ForgetPendingBatches()
{
    // Simulator::Destroy drops pending events without running them: none of them may be joined.
    BatcherState& s = State();
    s.open = nullptr;
    s.destroyHooked = false;
}

} // namespace

void
InaEventBatcher::ScheduleAt(int64_t atPs, Target* target)
{
    BatcherState& s = State();
    if (s.open != nullptr && s.open->atPs == atPs)
    {
        s.open->targets.push_back(target);
        return;
    }
    const int64_t now = Simulator::Now().GetTimeStep();
    NS_ASSERT_MSG(atPs >= now, "InaEventBatcher: an event in the past");
    Ptr<Batch> b;
    if (s.pool.empty())
    {
        b = Ptr<Batch>(new Batch, false);
    }
    else
    {
        b = s.pool.back();
        s.pool.pop_back();
    }
    b->atPs = atPs;
    b->targets.push_back(target);
    Simulator::Schedule(TimeStep(atPs - now), b);
    s.open = PeekPointer(b);
    ++s.scheduled;
    if (!s.destroyHooked)
    {
        Simulator::ScheduleDestroy(&ForgetPendingBatches);
        s.destroyHooked = true;
    }
}

uint64_t
InaEventBatcher::GetBatchesScheduled()
{
    return State().scheduled;
}

} // namespace ns3
