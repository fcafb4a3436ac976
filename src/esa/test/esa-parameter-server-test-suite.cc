/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of EsaParameterServer on a star, with packets handed to it directly and what it sends
// caught at the hosts: no contribution is counted twice when an evicted partial and a worker's
// retransmission race, late partials after completion are dropped, a worker's reminder is
// answered with the result or turned into reminders to the switches and pulls, and the timeout
// and the duplicate threshold remind on their own. Expected values are worked out by hand.

#include "../../ina-protocol-kit/test/pool-server-rig.h"

#include "ns3/esa-header.h"
#include "ns3/esa-parameter-server.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
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
constexpr uint32_t FAKE_SWITCH = 3; //!< a host standing in for the aggregating switch
constexpr uint32_t PS = 4;

/// Records what reaches one host's endpoint, and counts ESA's results and pulls among it.
class Sink : public tests::PoolEndpointRecorder
{
  public:
    Sink(Ptr<InaHost> host, uint16_t endpoint)
        : PoolEndpointRecorder(host, endpoint)
    {
    }

    /// \return how many results (FLAG_ACK) arrived
    size_t Results() const
    {
        size_t n = 0;
        for (const Rx& r : rx)
        {
            n += (r.header.flags & PoolHeader::FLAG_ACK) != 0 ? 1 : 0;
        }
        return n;
    }

    /// \return how many pulls for `seq` arrived
    size_t Pulls(uint64_t seq) const
    {
        size_t n = 0;
        for (const Rx& r : rx)
        {
            n += r.seq == seq && EsaHeader::GetKind(&r.header) == EsaHeader::CONTROL &&
                         r.header.reserved == EsaHeader::PULL
                     ? 1
                     : 0;
        }
        return n;
    }
};

uint16_t
IndexOf(uint64_t seq)
{
    return static_cast<uint16_t>(seq * 3 % 16);
}

/// A star of 5 hosts: workers 0..2 (one group), a stand-in switch on 3, the PS on 4.
struct Rig : tests::PoolServerRig<EsaParameterServer, Sink>
{
    Rig()
        : PoolServerRig(5, 4, ENDPOINT)
    {
        PoolParameterServer::Config c = Config(JOB, ENDPOINT, PS, {0, 1, 2});
        c.protocol = ESA_PROTOCOL;
        c.groups = {{0, 3}};
        ps->Setup(c);
        EsaParameterServer::EsaConfig e;
        e.switches = {FAKE_SWITCH};
        e.workers = {0, 1, 2};
        e.indexOf = MakeCallback(&IndexOf);
        e.controlFlowId = 78;
        e.rtoMinPs = 1000000000; // 1 ms
        e.rtoMaxPs = 64000000000;
        e.dupAckThreshold = 3;
        ps->SetEsaConfig(e);
    }

    /// Hand the PS one packet of `kind` (control subtype `control`) and run `ms` of time.
    void Send(uint64_t seq,
              EsaHeader::Kind kind,
              uint8_t control,
              uint32_t bitmap0,
              const std::vector<int32_t>& values,
              uint32_t from = 0,
              double ms = 0.1)
    {
        tests::PoolPacketSpec k;
        k.src = from;
        k.dst = PS;
        k.job = JOB;
        k.protocol = ESA_PROTOCOL;
        k.seq = seq;
        k.bitmap0 = bitmap0;
        k.index = IndexOf(seq);
        k.values = values;
        InaPacket* p = tests::MakePoolPacket(fabric->GetPool(), k);
        EsaHeader::SetKind(p->Header<PoolHeader>(), kind);
        p->Header<PoolHeader>()->reserved = control;
        ps->Receive(p, 0);
        Simulator::Stop(MicroSeconds(ms * 1000));
        Simulator::Run();
    }

    const EsaParameterServer::EsaCounters& Esa() const
    {
        return ps->GetEsaCounters();
    }
};

/**
 * \ingroup esa-test
 * Worker 0's contribution (a retransmission the PS pulled) arrives first; then the switch's
 * evicted partial of workers 0 and 1 races in: it overlaps worker 0, so it is discarded whole and
 * workers 1 and 2 are pulled (not worker 0). Their contributions complete the fragment with
 * v0 + v1 + v2 exactly: worker 0 is counted once. A late evicted partial of workers 1 and 2 is
 * dropped, not answered with a second result.
 */
class EsaPsRaceTestCase : public TestCase
{
  public:
    EsaPsRaceTestCase()
        : TestCase("an evicted partial racing a retransmission: no contribution counted twice")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        const auto [v0, v1, v2] = Ramps({1000, 20000, 300000});
        rig.Send(5, EsaHeader::CONTROL, EsaHeader::CONTRIBUTION, 1, v0);
        rig.Send(5, EsaHeader::EVICTED, 0, 3, Sum({v0, v1}));
        NS_TEST_ASSERT_MSG_EQ(rig.ps->GetCounters().overlapDiscarded, 1u, "discarded whole");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->Pulls(5), 0u, "worker 0 is recorded: not pulled");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[1]->Pulls(5), 1u, "worker 1 pulled");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Pulls(5), 1u, "worker 2 pulled");
        rig.Send(5, EsaHeader::CONTROL, EsaHeader::CONTRIBUTION, 2, v1, 1);
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->Results(), 0u, "not complete yet");
        rig.Send(5, EsaHeader::CONTROL, EsaHeader::CONTRIBUTION, 4, v2, 2);
        for (uint32_t w = 0; w < 3; ++w)
        {
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[w]->Results(), 1u, "one result at every worker");
            NS_TEST_ASSERT_MSG_EQ((rig.sinks[w]->rx.back().values == Sum({v0, v1, v2})),
                                  true,
                                  "v0 + v1 + v2, worker 0 once");
        }
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->rx.back().values[0], 321000, "1000+20000+300000");
        rig.Send(5, EsaHeader::EVICTED, 0, 6, Sum({v1, v2}));
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->Results(), 1u, "no second result");
        NS_TEST_ASSERT_MSG_EQ(rig.Esa().lateAfterComplete, 1u, "the late partial dropped");
        // A worker that missed the result reminds: the result again, to it alone.
        rig.Send(5, EsaHeader::CONTROL, EsaHeader::WORKER_REMINDER, 4, {}, 2);
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Results(), 2u, "worker 2 gets it again");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[1]->Results(), 1u, "worker 1 does not");
        NS_TEST_ASSERT_MSG_EQ((rig.sinks[2]->rx.back().values == Sum({v0, v1, v2})),
                              true,
                              "the same sum");
        NS_TEST_ASSERT_MSG_EQ(rig.Esa().resultsResent, 1u, "counted");
    }
};

/**
 * \ingroup esa-test
 * Worker 2 reminds about fragment 7, which the PS has never seen: the PS reminds the switch (a
 * full-size reminder with the fragment's aggregator index, 7 x 3 mod 16 = 5) and pulls the other
 * workers at the same time (ESA 5.3, Case 2), since it cannot tell a lost result from a lost
 * gradient; worker 2's contribution came with its reminder, so it is not asked. The switch's
 * answer carries worker 0's partial, which adds nothing new the PS could use without worker 1,
 * and brings no second pull. Worker 1 answers with the result from its cache (the switch had
 * completed the fragment for it): that completes the fragment with exactly those values, and
 * worker 2's late contribution changes nothing.
 */
class EsaPsWorkerReminderTestCase : public TestCase
{
  public:
    EsaPsWorkerReminderTestCase()
        : TestCase("a worker's reminder reminds the switch and pulls the workers at once")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.Send(7, EsaHeader::CONTROL, EsaHeader::WORKER_REMINDER, 4, Ramp(9), 2);
        Sink& sw = *rig.sinks[FAKE_SWITCH];
        NS_TEST_ASSERT_MSG_EQ(sw.rx.size(), 1u, "one reminder to the one switch");
        NS_TEST_ASSERT_MSG_EQ(sw.rx[0].seq, 7u, "for fragment 7");
        NS_TEST_ASSERT_MSG_EQ(sw.rx[0].header.aggregatorIndex, 5u, "at its aggregator");
        NS_TEST_ASSERT_MSG_EQ(sw.rx[0].wireBytes, PoolHeader::WIRE_BYTES, "full size");
        NS_TEST_ASSERT_MSG_EQ(sw.rx[0].values.size(), PoolHeader::VALUES, "room for the partial");
        for (uint32_t w = 0; w < 2; ++w)
        {
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[w]->Pulls(7), 1u, "the other workers pulled with it");
        }
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Pulls(7), 0u, "the reminding worker is not");
        rig.Send(7, EsaHeader::REMINDER, 0, 1, Ramp(5), FAKE_SWITCH);
        NS_TEST_ASSERT_MSG_EQ(rig.Esa().flushAnswers, 1u, "an answer with a partial");
        for (uint32_t w = 0; w < 2; ++w)
        {
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[w]->Pulls(7), 1u, "asked already: no second pull");
        }
        const auto result = Ramp(-40);
        rig.Send(7, EsaHeader::CONTROL, EsaHeader::CACHED_RESULT, 0, result, 1);
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Results(), 1u, "the result multicast");
        NS_TEST_ASSERT_MSG_EQ((rig.sinks[2]->rx.back().values == result), true, "the cached one");
        rig.Send(7, EsaHeader::CONTROL, EsaHeader::CONTRIBUTION, 4, Ramp(9), 2);
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Results(), 1u, "nothing more");
        // A reminder answered empty (the aggregator holds another key): the workers were asked
        // with the reminder, once.
        rig.Send(8, EsaHeader::CONTROL, EsaHeader::WORKER_REMINDER, 1, Ramp(3), 0);
        rig.Send(8, EsaHeader::REMINDER, 0, 0, {}, FAKE_SWITCH);
        NS_TEST_ASSERT_MSG_EQ(rig.Esa().flushMisses, 1u, "an empty answer");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[1]->Pulls(8) + rig.sinks[2]->Pulls(8),
                              2u,
                              "every other worker pulled once");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->Pulls(8), 0u, "the reminding worker not");
    }
};

/**
 * \ingroup esa-test
 * ESA 5.3, Case 1: worker 2's gradient of fragment 9 was lost on its way to the switch, whose
 * aggregator holds workers 0 and 1. Every worker misses the result and reminds the PS; each
 * reminder carries the worker's own gradient (Section 5.1: retransmissions go to the PS). Worker
 * 2's reminder arrives first: the PS records it, reminds the switch and pulls workers 0 and 1.
 * The switch's flush (v0 + v1) then completes the fragment, v0 + v1 + v2 exactly, without any
 * answer to a pull: the recovery costs the reminder's trip and the flush, not a further round
 * trip to the worker that lost its gradient. The others' reminders, arriving after, overlap
 * and change nothing.
 */
class EsaPsReminderCarriesGradientTestCase : public TestCase
{
  public:
    EsaPsReminderCarriesGradientTestCase()
        : TestCase("a worker's reminder carries its gradient: a lost one is recovered unasked")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        const auto [v0, v1, v2] = Ramps({7, 800, -90000});
        rig.Send(9, EsaHeader::CONTROL, EsaHeader::WORKER_REMINDER, 4, v2, 2);
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[FAKE_SWITCH]->rx.size(), 1u, "the switch reminded");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Pulls(9), 0u, "worker 2 not asked: its gradient is in");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->Pulls(9) + rig.sinks[1]->Pulls(9), 2u, "0, 1 asked");
        rig.Send(9, EsaHeader::REMINDER, 0, 3, Sum({v0, v1}), FAKE_SWITCH);
        for (uint32_t w = 0; w < 3; ++w)
        {
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[w]->Results(), 1u, "complete: one result each");
            NS_TEST_ASSERT_MSG_EQ((rig.sinks[w]->rx.back().values == Sum({v0, v1, v2})),
                                  true,
                                  "v0 + v1 + v2");
        }
        rig.Send(9, EsaHeader::CONTROL, EsaHeader::WORKER_REMINDER, 1, v0, 0);
        rig.Send(9, EsaHeader::CONTROL, EsaHeader::WORKER_REMINDER, 2, v1, 1);
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Results(), 1u, "no second multicast");
        NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->Results(), 2u, "a late reminder: the result again");
        NS_TEST_ASSERT_MSG_EQ((rig.sinks[0]->rx.back().values == Sum({v0, v1, v2})),
                              true,
                              "the same sum");
    }
};

/**
 * \ingroup esa-test
 * Fragment 11 falls back with worker 0 only and nothing else arrives: after RtoMin (1 ms) the PS
 * reminds the switch and pulls workers 1 and 2 by itself. Fragment 20 is open when three
 * fragments with larger sequence numbers (21, 22, 23) arrive: the third reminds the switch about
 * 20 at once ("dupACK"). The count is per entry (the paper, Section 5.1): with 30 and 31 both
 * open, 32, 33 and 34 remind about 30 (at 33) and about 31 (at 34), where counting against the
 * lowest open entry alone would leave 31 to its timeout.
 */
class EsaPsTimersTestCase : public TestCase
{
  public:
    EsaPsTimersTestCase()
        : TestCase("the PS reminds on its timeout and on three larger fragments")
    {
    }

  private:
    void DoRun() override
    {
        {
            Rig rig;
            rig.Send(11, EsaHeader::DATA, 0, 1, Ramp(0), 0, 0.5);
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[FAKE_SWITCH]->rx.size(), 0u, "nothing before 1 ms");
            Simulator::Stop(MicroSeconds(600));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(rig.Esa().timeoutReminders, 1u, "one timeout round");
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[FAKE_SWITCH]->rx.size(), 1u, "a reminder");
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[1]->Pulls(11), 1u, "worker 1 pulled");
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[2]->Pulls(11), 1u, "worker 2 pulled");
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[0]->Pulls(11), 0u, "worker 0 not");
        }
        {
            Rig rig;
            rig.Send(20, EsaHeader::DATA, 0, 1, Ramp(0));
            rig.Send(21, EsaHeader::DATA, 0, 1, Ramp(0));
            rig.Send(22, EsaHeader::DATA, 0, 1, Ramp(0));
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[FAKE_SWITCH]->rx.size(), 0u, "two are not enough");
            rig.Send(23, EsaHeader::DATA, 0, 1, Ramp(0));
            NS_TEST_ASSERT_MSG_EQ(rig.Esa().dupAckReminders, 1u, "the third reminds");
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[FAKE_SWITCH]->rx.size(), 1u, "one reminder");
            NS_TEST_ASSERT_MSG_EQ(rig.sinks[FAKE_SWITCH]->rx[0].seq, 20u, "about fragment 20");
        }
        {
            Rig rig;
            rig.Send(30, EsaHeader::DATA, 0, 1, Ramp(0));
            rig.Send(31, EsaHeader::DATA, 0, 1, Ramp(0));
            rig.Send(32, EsaHeader::DATA, 0, 1, Ramp(0));
            rig.Send(33, EsaHeader::DATA, 0, 1, Ramp(0));
            const Sink& sw = *rig.sinks[FAKE_SWITCH];
            NS_TEST_ASSERT_MSG_EQ(sw.rx.size(), 1u, "30 reminded at 33");
            NS_TEST_ASSERT_MSG_EQ(sw.rx[0].seq, 30u, "about fragment 30");
            rig.Send(34, EsaHeader::DATA, 0, 1, Ramp(0));
            NS_TEST_ASSERT_MSG_EQ(rig.Esa().dupAckReminders, 2u, "a round per entry");
            NS_TEST_ASSERT_MSG_EQ(sw.rx.size(), 2u, "31 reminded at 34");
            NS_TEST_ASSERT_MSG_EQ(sw.rx[1].seq, 31u, "about fragment 31");
        }
    }
};

/**
 * \ingroup esa-test
 * The test suite.
 */
class EsaParameterServerTestSuite : public InaTestSuite
{
  public:
    EsaParameterServerTestSuite()
        : InaTestSuite("esa-parameter-server", TestSuite::Type::UNIT)
    {
        AddTestCase(new EsaPsRaceTestCase);
        AddTestCase(new EsaPsWorkerReminderTestCase);
        AddTestCase(new EsaPsReminderCarriesGradientTestCase);
        AddTestCase(new EsaPsTimersTestCase);
    }
};

/// Static variable for test initialization
static EsaParameterServerTestSuite g_esaParameterServerTestSuite;

} // namespace
