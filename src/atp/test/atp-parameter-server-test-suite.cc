/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of AtpParameterServer on a star, with packets handed to it directly and its
// parameter packets caught at the workers' endpoint: decoding bitmaps into workers over two
// levels, merging partials, discarding overlaps whole (or replacing by a superset when asked),
// answering again after completion, and dropping stale and malformed packets.

#include "../../ina-protocol-kit/test/pool-server-rig.h"

#include "ns3/atp-parameter-server.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/pool-header.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using namespace ns3::tests;

constexpr uint32_t JOB = 6;
constexpr uint16_t ENDPOINT = POOL_ENDPOINT_BASE + JOB;

/// A star of 6 hosts: workers on 0..4, the PS on 5; groups {0, 1, 2} and {3, 4}.
struct Rig : tests::PoolServerRig<AtpParameterServer>
{
    explicit Rig(bool superset = false)
        : PoolServerRig(6, 5, ENDPOINT)
    {
        AtpParameterServer::Config c = Config(JOB, ENDPOINT, 5, {0, 1, 2, 3, 4});
        c.groups = {{0, 3}, {3, 2}};
        c.supersetReplaces = superset;
        ps->Setup(c);
    }

    /// Hand the PS one gradient packet and run until its answer (if any) is delivered.
    void Send(uint64_t seq,
              bool edge,
              uint32_t bitmap0,
              uint32_t bitmap1,
              const std::vector<int32_t>& values,
              uint8_t flags = 0)
    {
        tests::PoolPacketSpec k;
        k.src = 0;
        k.dst = 5;
        k.job = JOB;
        k.protocol = ATP_PROTOCOL;
        k.seq = seq;
        k.bitmap0 = bitmap0;
        k.bitmap1 = bitmap1;
        k.fanIn0 = 0;
        k.fanIn1 = 0;
        k.flags = static_cast<uint8_t>(flags | (edge ? PoolHeader::FLAG_EDGE : 0));
        k.index = 3;
        k.values = values;
        Deliver(k);
        Simulator::Run();
    }

    const AtpParameterServer::Counters& Counts() const
    {
        return ps->GetCounters();
    }
};

/**
 * \ingroup atp-test
 * Fragment 1 arrives in pieces: worker 0 alone (collided at level 1), workers 0 and 1 (a level-1
 * flush overlapping worker 0: discarded whole), group 1 whole (a level-1 aggregate that collided
 * at level 2), then workers 1 and 2 alone: complete, one parameter packet to every worker with
 * the exact sum and the collision flag. A late resend is answered again. Fragment 2 arrives as a
 * full two-level aggregate: overwrites, one answer, no fallback.
 */
class AtpPsMergeTestCase : public TestCase
{
  public:
    AtpPsMergeTestCase()
        : TestCase("partials merged by bitmap, overlaps discarded whole, answers after completion")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        const auto [g0, g1, g2, rack1] = Ramps({1, 10, 100, 1000});
        rig.Send(1, false, 1, 1, g0, PoolHeader::FLAG_COLLISION);
        rig.Send(1, false, 3, 1, Sum({g0, g1}), PoolHeader::FLAG_RESEND);
        NS_TEST_EXPECT_MSG_EQ(rig.Counts().overlapDiscarded, 1, "overlap discarded");
        rig.Send(1, true, 3, 2, rack1, PoolHeader::FLAG_COLLISION);
        rig.Send(1, false, 2, 1, g1);
        NS_TEST_EXPECT_MSG_EQ(rig.ps->GetOpenFragments(), 1, "one open");
        NS_TEST_EXPECT_MSG_EQ(rig.sinks[0]->rx.size(), 0, "not yet");
        rig.Send(1, false, 4, 1, g2);
        NS_TEST_EXPECT_MSG_EQ(rig.ps->GetOpenFragments(), 0, "complete");
        for (const auto& sink : rig.sinks)
        {
            NS_TEST_ASSERT_MSG_EQ(sink->rx.size(), 1, "one parameter packet each");
            const auto& r = sink->rx[0];
            NS_TEST_EXPECT_MSG_EQ(r.seq, 1, "fragment 1");
            NS_TEST_EXPECT_MSG_EQ((r.values == Sum({g0, g1, g2, rack1})), true, "exact sum");
            NS_TEST_EXPECT_MSG_EQ(((r.header.flags & PoolHeader::FLAG_ACK) != 0), true, "ACK");
            NS_TEST_EXPECT_MSG_EQ(((r.header.flags & PoolHeader::FLAG_COLLISION) != 0),
                                  true,
                                  "collided");
        }
        const auto& c = rig.Counts();
        NS_TEST_EXPECT_MSG_EQ(c.partials, 5, "five partials");
        NS_TEST_EXPECT_MSG_EQ(c.collisions, 2, "two marked");
        NS_TEST_EXPECT_MSG_EQ(c.fragments, 1, "one fragment");

        // A worker that missed the result resends: answered at once, to everyone.
        rig.Send(1, false, 1, 2, rack1, PoolHeader::FLAG_RESEND);
        NS_TEST_EXPECT_MSG_EQ(rig.sinks[3]->rx.size(), 2, "answered again");
        NS_TEST_EXPECT_MSG_EQ(((rig.sinks[3]->rx[1].header.flags & PoolHeader::FLAG_RESEND) != 0),
                              true,
                              "the resend flag is kept");
        NS_TEST_EXPECT_MSG_EQ((rig.sinks[3]->rx[1].values == Sum({g0, g1, g2, rack1})),
                              true,
                              "the same sum");

        // Fragment 2: a full aggregate from level 2.
        rig.Send(2, true, 3, 3, Ramp(-5));
        NS_TEST_EXPECT_MSG_EQ(rig.sinks[4]->rx.size(), 3, "answered");
        NS_TEST_EXPECT_MSG_EQ((rig.sinks[4]->rx[2].values == Ramp(-5)), true, "as is");
        NS_TEST_EXPECT_MSG_EQ(
            ((rig.sinks[4]->rx[2].header.flags & PoolHeader::FLAG_COLLISION) != 0),
            false,
            "did not collide");
        NS_TEST_EXPECT_MSG_EQ(rig.Counts().fullAggregates, 1, "one full");
        NS_TEST_EXPECT_MSG_EQ(rig.Counts().results, 3, "three parameter packets sent");
    }
};

/**
 * \ingroup atp-test
 * With SupersetReplaces a partial holding every recorded worker (a level-1 flush that took in a
 * resend of worker 0, whose original had collided) replaces the slice instead of being lost.
 */
class AtpPsSupersetTestCase : public TestCase
{
  public:
    AtpPsSupersetTestCase()
        : TestCase("a superset partial replaces the slice when asked")
    {
    }

  private:
    void DoRun() override
    {
        for (bool superset : {false, true})
        {
            Rig rig(superset);
            rig.Send(1, false, 1, 1, Ramp(1), PoolHeader::FLAG_COLLISION);
            rig.Send(1, true, 7, 1, Sum({Ramp(1), Ramp(2), Ramp(3)}), PoolHeader::FLAG_RESEND);
            NS_TEST_EXPECT_MSG_EQ(rig.Counts().supersetReplaced, superset ? 1 : 0, "replaced");
            NS_TEST_EXPECT_MSG_EQ(rig.Counts().overlapDiscarded, superset ? 0 : 1, "discarded");
            rig.Send(1, true, 3, 2, Ramp(4));
            NS_TEST_EXPECT_MSG_EQ(rig.sinks[0]->rx.size(), superset ? 1 : 0, "complete?");
            if (superset)
            {
                NS_TEST_EXPECT_MSG_EQ(
                    (rig.sinks[0]->rx[0].values == Sum({Ramp(1), Ramp(2), Ramp(3), Ramp(4)})),
                    true,
                    "exact");
            }
        }
    }
};

/**
 * \ingroup atp-test
 * Packets the server cannot place are dropped and counted: an older fragment than its ring
 * holds, bitmaps naming no worker (two groups without edgeSwitchIdentifier, a group or a position
 * beyond the job), a parameter packet, another job.
 */
class AtpPsBadPacketTestCase : public TestCase
{
  public:
    AtpPsBadPacketTestCase()
        : TestCase("stale and malformed packets are dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.Send(200, false, 1, 1, Ramp(1));
        rig.Send(200 - 64, false, 1, 1, Ramp(1)); // the same ring slot, older
        NS_TEST_EXPECT_MSG_EQ(rig.Counts().stale, 1, "stale");
        rig.Send(3, false, 1, 3, Ramp(1));
        rig.Send(3, false, 1, 4, Ramp(1));
        rig.Send(3, false, 8, 1, Ramp(1));
        rig.Send(3, true, 0, 4, Ramp(1));
        rig.Send(3, false, 1, 1, Ramp(1), PoolHeader::FLAG_ACK);
        NS_TEST_EXPECT_MSG_EQ(rig.Counts().malformed, 5, "malformed");
        NS_TEST_EXPECT_MSG_EQ(rig.Counts().packets, 1, "one accepted");
        NS_TEST_EXPECT_MSG_EQ(rig.ps->GetOpenFragments(), 1, "fragment 200 open");
        // Fragment 264 takes fragment 200's slot while 200 is open: counted, never silent.
        rig.Send(264, false, 1, 1, Ramp(1));
        NS_TEST_EXPECT_MSG_EQ(rig.Counts().evictedIncomplete, 1, "evicted");
    }
};

/**
 * \ingroup atp-test
 * The ATP parameter-server test suite.
 */
class AtpParameterServerTestSuite : public InaTestSuite
{
  public:
    AtpParameterServerTestSuite()
        : InaTestSuite("atp-parameter-server", Type::UNIT)
    {
        AddTestCase(new AtpPsMergeTestCase);
        AddTestCase(new AtpPsSupersetTestCase);
        AddTestCase(new AtpPsBadPacketTestCase);
    }
};

/// Static instance registering the suite.
AtpParameterServerTestSuite g_atpParameterServerTestSuite;

} // namespace
