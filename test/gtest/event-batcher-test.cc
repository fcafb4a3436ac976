/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/ina-event-batcher.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Records when and in which order it was woken, as "name@ps".
class Recorder
{
  public:
    Recorder(std::string name, std::vector<std::string>* log)
        : m_name(std::move(name))
        , m_log(log)
    {
    }

    void OnBatchedEvent()
    {
        m_log->push_back(m_name + "@" + std::to_string(Simulator::Now().GetPicoSeconds()));
    }

    void PrefetchBatchedEvent() const
    {
    }

  private:
    std::string m_name;
    std::vector<std::string>* m_log;
};

/// A plain scheduler event, to see where batched targets run among other events.
void
Mark(std::vector<std::string>* log, const char* name)
{
    log->push_back(std::string(name) + "@" + std::to_string(Simulator::Now().GetPicoSeconds()));
}

/// Every case's set-up: a log and three targets writing to it; the simulation is destroyed after
/// each case (a case that runs two simulations destroys the first itself).
class EventBatcher : public testing::Test
{
  protected:
    void TearDown() override
    {
        Simulator::Destroy();
    }

    std::vector<std::string> log; //!< what the targets wrote, in order
    Recorder a{"a", &log};
    Recorder b{"b", &log};
    Recorder c{"c", &log};
};

TEST_F(EventBatcher, SameTimeRequestsShareOneEventAndRunInRequestOrder)
{
    InaEventBatcher batcher;
    batcher.ScheduleAt(100, &a);
    batcher.ScheduleAt(100, &b);
    batcher.ScheduleAt(50, &c); // earlier: its own event
    const uint64_t events = Simulator::GetEventCount();
    Simulator::Run();
    EXPECT_EQ(batcher.GetBatchesScheduled(), 2u);
    EXPECT_EQ(Simulator::GetEventCount() - events, 2u);
    EXPECT_EQ(log, (std::vector<std::string>{"c@50", "a@100", "b@100"}));
}

TEST_F(EventBatcher, OnlyTheMostRecentBatchIsJoined)
{
    // a@100 then c@200 then b@100: b cannot join a's batch any more and gets its own event, which
    // runs after a's (ns-3 order among equal times is insertion order).
    InaEventBatcher batcher;
    batcher.ScheduleAt(100, &a);
    batcher.ScheduleAt(200, &c);
    batcher.ScheduleAt(100, &b);
    Simulator::Run();
    EXPECT_EQ(batcher.GetBatchesScheduled(), 3u);
    EXPECT_EQ(log, (std::vector<std::string>{"a@100", "b@100", "c@200"}));
}

TEST_F(EventBatcher, JoinersRunAtTheFirstRequestsPlaceAmongEqualTimeEvents)
{
    // The documented order: b joins a's batch, so it runs before the plain event x that was
    // scheduled for the same time between the two requests.
    InaEventBatcher batcher;
    batcher.ScheduleAt(100, &a);
    Simulator::Schedule(PicoSeconds(100), &Mark, &log, "x");
    batcher.ScheduleAt(100, &b);
    Simulator::Run();
    EXPECT_EQ(log, (std::vector<std::string>{"a@100", "b@100", "x@100"}));
}

TEST_F(EventBatcher, ATargetWokenRequestsAgainForTheSameTimeInANewEvent)
{
    // Requests made while a batch runs never join it (its loop has moved on); a request for the
    // current time gets a new event that runs after the batch.

    struct Again
    {
        std::vector<std::string>* log;
        InaEventBatcher* batcher;
        int left = 2;

        void OnBatchedEvent()
        {
            log->push_back("again@" + std::to_string(Simulator::Now().GetPicoSeconds()));
            if (--left > 0)
            {
                batcher->ScheduleAt(Simulator::Now().GetPicoSeconds(), this);
            }
        }

        void PrefetchBatchedEvent() const
        {
        }
    } again;

    InaEventBatcher batcher;
    again.log = &log;
    again.batcher = &batcher;
    batcher.ScheduleAt(10, &again);
    batcher.ScheduleAt(10, &a);
    Simulator::Run();
    EXPECT_EQ(log, (std::vector<std::string>{"again@10", "a@10", "again@10"}));
}

TEST_F(EventBatcher, ADestroyedSimulationsPendingBatchIsNeverJoined)
{
    // A batch pending when Simulator::Destroy drops it must not swallow a request of the next
    // simulation for the same time stamp: the target would never run.
    InaEventBatcher batcher;
    batcher.ScheduleAt(500, &a);
    Simulator::Stop(PicoSeconds(100));
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_TRUE(log.empty());
    batcher.ScheduleAt(500, &b);
    Simulator::Run();
    EXPECT_EQ(log, (std::vector<std::string>{"b@500"}));
    EXPECT_EQ(batcher.GetBatchesScheduled(), 2u);
}

TEST_F(EventBatcher, TwoBatchersNeverJoinEachOthersBatches)
{
    // Per-fabric state: requests for one time stamp through two batchers cost two events, each
    // batcher's targets in their own request order.
    InaEventBatcher first;
    InaEventBatcher second;
    first.ScheduleAt(100, &a);
    second.ScheduleAt(100, &b);
    first.ScheduleAt(100, &c); // joins first's open batch, whatever second scheduled since
    const uint64_t events = Simulator::GetEventCount();
    Simulator::Run();
    EXPECT_EQ(first.GetBatchesScheduled(), 1u);
    EXPECT_EQ(second.GetBatchesScheduled(), 1u);
    EXPECT_EQ(Simulator::GetEventCount() - events, 2u);
    EXPECT_EQ(log, (std::vector<std::string>{"a@100", "c@100", "b@100"}));
}

TEST_F(EventBatcher, EveryTargetIsAskedToPrefetchBeforeItIsWoken)
{
    // The look-ahead (InaWheelScheduler::RemoveNext for a batch's first target, the batch itself
    // for its joiners) must reach every target after the first event, and before its wake: a
    // prefetch after the wake, or none, hides nothing. gtest-main configures the wheel scheduler.
    struct Target
    {
        std::string name;
        std::vector<std::string>* log;

        void OnBatchedEvent()
        {
            log->push_back("wake " + name);
        }

        void PrefetchBatchedEvent() const
        {
            log->push_back("prefetch " + name);
        }
    };

    std::vector<Target> targets;
    for (const char* name : {"a", "b", "c", "d", "e"})
    {
        targets.push_back(Target{name, &log});
    }
    InaEventBatcher batcher;
    Simulator::Schedule(PicoSeconds(50), &Mark, &log, "x"); // an event ahead of every batch
    batcher.ScheduleAt(100, &targets[0]);
    batcher.ScheduleAt(100, &targets[1]); // joins
    batcher.ScheduleAt(100, &targets[2]); // joins
    batcher.ScheduleAt(200, &targets[3]);
    batcher.ScheduleAt(5000, &targets[4]); // a later bucket of the wheel
    Simulator::Run();
    for (const auto& t : targets)
    {
        const auto prefetch = std::find(log.begin(), log.end(), "prefetch " + t.name);
        const auto wake = std::find(log.begin(), log.end(), "wake " + t.name);
        ASSERT_NE(wake, log.end()) << t.name;
        EXPECT_LT(prefetch, wake) << t.name << " was not asked to prefetch before its wake";
    }
}

TEST_F(EventBatcher, ABatcherGoneBeforeItsBatchRunsLeavesAnEventThatDoesNothing)
{
    // A fabric released while the simulation still holds one of its batches: the batch must not
    // call back into the dead batcher or wake its targets.
    auto batcher = std::make_unique<InaEventBatcher>();
    batcher->ScheduleAt(100, &a);
    batcher.reset();
    Simulator::Schedule(PicoSeconds(200), &Mark, &log, "x");
    Simulator::Run();
    EXPECT_EQ(log, (std::vector<std::string>{"x@200"}));
}

TEST_F(EventBatcher, NowPsIsTheSimulatorsTimeInsideAndOutsideItsBatches)
{
    // NowPs() answers from the running batch instead of asking ns-3: it must equal
    // Simulator::Now() in a batch's targets (first and joiners), in plain events between
    // batches, in another batcher's batch, and after a target threw out of its wake.
    struct Clock
    {
        std::vector<std::string>* log;
        const InaEventBatcher* asked;
        bool fail = false;

        void OnBatchedEvent()
        {
            log->push_back(std::to_string(asked->NowPs()) + "=" +
                           std::to_string(Simulator::Now().GetPicoSeconds()));
            if (fail)
            {
                fail = false;
                throw std::runtime_error("a wake that throws");
            }
        }

        void PrefetchBatchedEvent() const
        {
        }
    };

    InaEventBatcher batcher;
    InaEventBatcher other;
    Clock first{&log, &batcher};
    Clock joiner{&log, &batcher};
    Clock foreign{&log, &batcher}; // woken by the other batcher, asks this one
    Clock thrower{&log, &batcher, true};
    auto plain = [this, &batcher] {
        log.push_back(std::to_string(batcher.NowPs()) + "=" +
                      std::to_string(Simulator::Now().GetPicoSeconds()));
    };
    EXPECT_EQ(batcher.NowPs(), 0);
    batcher.ScheduleAt(100, &first);
    batcher.ScheduleAt(100, &joiner);
    Simulator::Schedule(PicoSeconds(150), plain);
    other.ScheduleAt(300, &foreign);
    batcher.ScheduleAt(400, &thrower);
    Simulator::Schedule(PicoSeconds(500), plain);
    EXPECT_THROW(Simulator::Run(), std::runtime_error); // at 400, out of the thrower's wake
    EXPECT_EQ(log,
              (std::vector<std::string>{"100=100", "100=100", "150=150", "300=300", "400=400"}));
    Simulator::Run(); // the plain event at 500: a stale clock would say 400
    EXPECT_EQ(log.back(), "500=500");
}

} // namespace
