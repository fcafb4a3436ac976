/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of EsaProgram in a real Pipeline with a recording switch double (no topology):
// completion multicast with the aggregator freed at once, preemption of a partial aggregate
// (exactly its contributions, to its own job's parameter server, after a second pass), a tie and a
// lower priority that do not preempt (the holder halved), the two ablations, reminders that flush
// only their key, results that free leftovers, stale holders, fan-in 1, and the second level.
// Expected values are worked out by hand in the comments.

#include "../../ina-protocol-kit/test/pool-test-values.h"
#include "../../ina-protocol-kit/test/program-rig.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/esa-header.h"
#include "ns3/esa-program.h"
#include "ns3/ina-test-suite.h"
#include "ns3/object-factory.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using tests::Ramp;
using tests::Sum;

constexpr InaAddress SWITCH = 40;
constexpr InaAddress PS_A = 50;
constexpr InaAddress PS_B = 51;
constexpr InaAddress GROUP_A = 9 | INA_MULTICAST_BIT;
constexpr InaAddress GROUP_B = 10 | INA_MULTICAST_BIT;
constexpr uint32_t JOB_A = 3;
constexpr uint32_t JOB_B = 4;
constexpr uint16_t INDEX = 7;

/// What one test packet carries (src and protocol are the rig's; dst 0: the job's PS).
struct Pkt : tests::PoolPacketSpec
{
    Pkt()
    {
        job = JOB_A;
        priority = 5;
        index = INDEX;
    }

    EsaHeader::Kind kind = EsaHeader::DATA; //!< the ESA packet kind
};

/// A default (Tofino-like) pipeline whose switch records what it is handed, with an ESA program
/// for jobs A and B.
struct Rig : tests::ProgramRig<EsaProgram, PoolHeader, SWITCH>
{
    explicit Rig(const std::string& mode = "priority", double probability = 0.5)
        : ProgramRig(Factory(mode, probability))
    {
        AddJob(JOB_A, EsaProgram::Role::LEVEL1, true);
        AddJob(JOB_B, EsaProgram::Role::LEVEL1, true);
    }

    static ObjectFactory Factory(const std::string& mode, double probability)
    {
        ObjectFactory f("ns3::EsaProgram");
        f.Set("PoolSize", UintegerValue(16));
        f.Set("Preemption", StringValue(mode));
        f.Set("PreemptProbability", DoubleValue(probability));
        return f;
    }

    void AddJob(uint32_t jobId, EsaProgram::Role role, bool top, uint32_t groupBit = 1)
    {
        EsaProgram::JobConfig c;
        c.jobId = jobId;
        c.name = "job" + std::to_string(jobId);
        c.role = role;
        c.groupBit = groupBit;
        program->AddJob(c);
        EsaProgram::JobRoute r;
        r.ps = jobId == JOB_A ? PS_A : PS_B;
        r.resultGroup = jobId == JOB_A ? GROUP_A : GROUP_B;
        r.endpoint = static_cast<uint16_t>(POOL_ENDPOINT_BASE + jobId);
        r.psFlowId = 100 + jobId;
        r.resultFlowId = 200 + jobId;
        r.top = top;
        program->SetJobRoute(jobId, 0, r);
    }

    /// Hand the pipeline one packet and run; returns the index of its first record.
    size_t Send(const Pkt& k)
    {
        tests::PoolPacketSpec s = k;
        s.dst = k.dst != 0 ? k.dst : (k.job == JOB_A ? PS_A : PS_B);
        s.protocol = ESA_PROTOCOL;
        InaPacket* p = tests::MakePoolPacket(sw.pool, s);
        EsaHeader::SetKind(p->Header<PoolHeader>(), k.kind);
        return Process(p);
    }
};

/// A data packet of job A, worker `bit`, seq 5, values Ramp(base), priority `prio`.
Pkt
A(uint32_t bit, int32_t base, uint8_t prio = 5)
{
    Pkt k;
    k.job = JOB_A;
    k.bitmap0 = bit;
    k.priority = prio;
    k.values = Ramp(base);
    return k;
}

/// A data packet of job B (seq 9, same aggregator index).
Pkt
B(uint32_t bit, int32_t base, uint8_t prio)
{
    Pkt k;
    k.job = JOB_B;
    k.seq = 9;
    k.bitmap0 = bit;
    k.priority = prio;
    k.values = Ramp(base);
    return k;
}

/**
 * \ingroup esa-test
 * Three contributions complete an aggregate: the third packet becomes the result, multicast to
 * the job's group with FLAG_ACK, values 100+200+300+3i, and the aggregator is free at once.
 */
class EsaCompleteTestCase : public TestCase
{
  public:
    EsaCompleteTestCase()
        : TestCase("completion multicasts the result and frees the aggregator at once")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.Send(A(1, 100));
        rig.Send(A(2, 200));
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), PoolHeader::Key(JOB_A, 5), "held");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadCount(INDEX), 2u, "two contributions");
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetAggregatorsInUse(), 1u, "one in use");
        const size_t i = rig.Send(A(4, 300));
        const auto& r = rig.sw.records[i];
        NS_TEST_ASSERT_MSG_EQ(r.action, 'F', "forwarded");
        NS_TEST_ASSERT_MSG_EQ(r.dst, GROUP_A, "to the workers' group, not the PS");
        NS_TEST_ASSERT_MSG_EQ(((r.h.flags & PoolHeader::FLAG_ACK) != 0), true, "a result");
        NS_TEST_ASSERT_MSG_EQ(r.h.bitmap0, 7u, "every worker");
        NS_TEST_ASSERT_MSG_EQ(r.passes, 1u, "one pass");
        const auto expect = Sum({Ramp(100), Ramp(200), Ramp(300)});
        NS_TEST_ASSERT_MSG_EQ((r.values == expect), true, "the exact sum");
        NS_TEST_ASSERT_MSG_EQ(r.values[61], 600 + 3 * 61, "600 + 3 x 61 in the last lane");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), 0u, "freed at completion");
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0u, "none in use");
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetPeakAggregatorsInUse(), 1u, "peak 1");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::COMPLETED), 1u, "completed once");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::ABSORBED), 2u, "two absorbed");
    }
};

/**
 * \ingroup esa-test
 * Job A holds the aggregator with workers 1 and 2 (priority 5); job B's fragment (priority 9)
 * preempts: the packet that leaves carries exactly A's partial (values 100+200+2i, bitmap 0b11,
 * A's key, full seq 5, A's group bit) to A's parameter server after a second pass; the aggregator
 * now holds B's fragment and completes with B's values alone.
 */
class EsaPreemptTestCase : public TestCase
{
  public:
    EsaPreemptTestCase()
        : TestCase("a higher priority preempts: exactly the evicted contributions go to their PS")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.Send(A(1, 100));
        rig.Send(A(2, 200));
        const size_t i = rig.Send(B(1, 1000, 9));
        NS_TEST_ASSERT_MSG_EQ(rig.sw.records.size(), i + 1, "one packet out");
        const auto& e = rig.sw.records[i];
        NS_TEST_ASSERT_MSG_EQ(e.action, 'F', "forwarded");
        NS_TEST_ASSERT_MSG_EQ(e.dst, PS_A, "to the evicted job's PS");
        NS_TEST_ASSERT_MSG_EQ(e.jobId, JOB_A, "as job A's packet");
        NS_TEST_ASSERT_MSG_EQ(e.seq, 5u, "with A's full fragment number");
        NS_TEST_ASSERT_MSG_EQ(e.h.jobIdAndSeq, PoolHeader::Key(JOB_A, 5), "A's key");
        NS_TEST_ASSERT_MSG_EQ(+EsaHeader::GetKind(&e.h), +EsaHeader::EVICTED, "kind EVICTED");
        NS_TEST_ASSERT_MSG_EQ(e.h.bitmap0, 3u, "workers 1 and 2 exactly");
        NS_TEST_ASSERT_MSG_EQ(e.h.bitmap1, 1u, "A's group");
        NS_TEST_ASSERT_MSG_EQ((e.h.flags & PoolHeader::FLAG_EDGE), 0, "a level-1 partial");
        NS_TEST_ASSERT_MSG_EQ((e.values == Sum({Ramp(100), Ramp(200)})), true, "A's partial sum");
        NS_TEST_ASSERT_MSG_EQ(e.passes, 2u, "the resubmit pass");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), PoolHeader::Key(JOB_B, 9), "B holds it");
        NS_TEST_ASSERT_MSG_EQ(+rig.program->ReadPriority(INDEX), 9, "with B's priority");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadCount(INDEX), 1u, "one contribution");
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetAggregatorsInUse(), 1u, "still one in use");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::PREEMPTED), 1u, "preempted");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::EVICTED_SENT), 1u, "evicted sent");
        rig.Send(B(2, 2000, 9));
        const size_t j = rig.Send(B(4, 3000, 9));
        const auto& r = rig.sw.records[j];
        NS_TEST_ASSERT_MSG_EQ(r.dst, GROUP_B, "B's result to B's workers");
        NS_TEST_ASSERT_MSG_EQ((r.values == Sum({Ramp(1000), Ramp(2000), Ramp(3000)})),
                              true,
                              "B's sum, untouched by A's partial");
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0u, "freed");
    }
};

/**
 * \ingroup esa-test
 * A tie (6 vs 6) and a lower priority (3 vs 12) do not preempt: the contender goes unchanged to
 * its own PS, marked collision, and the holder's priority halves (6 -> 3; 12 -> 6); the holder
 * keeps its count and completes with its own values. Ties are counted apart (fallback_tie).
 */
class EsaTieTestCase : public TestCase
{
  public:
    EsaTieTestCase()
        : TestCase("a tie or a lower priority does not preempt; the holder's priority halves")
    {
    }

  private:
    void DoRun() override
    {
        {
            Rig rig;
            rig.Send(A(1, 100, 6));
            const size_t i = rig.Send(B(1, 1000, 6));
            const auto& r = rig.sw.records[i];
            NS_TEST_ASSERT_MSG_EQ(r.dst, PS_B, "to its own PS");
            NS_TEST_ASSERT_MSG_EQ(r.jobId, JOB_B, "unchanged");
            NS_TEST_ASSERT_MSG_EQ((r.values == Ramp(1000)), true, "its own values");
            NS_TEST_ASSERT_MSG_EQ(((r.h.flags & PoolHeader::FLAG_COLLISION) != 0),
                                  true,
                                  "collision");
            NS_TEST_ASSERT_MSG_EQ(+EsaHeader::GetKind(&r.h), +EsaHeader::DATA, "still data");
            NS_TEST_ASSERT_MSG_EQ(r.passes, 1u, "one pass");
            NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), PoolHeader::Key(JOB_A, 5), "A");
            NS_TEST_ASSERT_MSG_EQ(+rig.program->ReadPriority(INDEX), 3, "6 >> 1");
            NS_TEST_ASSERT_MSG_EQ(rig.program->ReadCount(INDEX), 1u, "count kept");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::FALLBACK), 1u, "fallback");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::DOWNGRADED), 1u, "downgraded");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::FALLBACK_TIE), 1u, "a tie");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::PREEMPTED), 0u, "no preemption");
            // A's next contribution renews the priority to its own (6).
            rig.Send(A(2, 200, 6));
            NS_TEST_ASSERT_MSG_EQ(+rig.program->ReadPriority(INDEX), 6, "renewed");
            const size_t j = rig.Send(A(4, 300, 6));
            NS_TEST_ASSERT_MSG_EQ(
                (rig.sw.records[j].values == Sum({Ramp(100), Ramp(200), Ramp(300)})),
                true,
                "A completes exactly");
        }
        {
            Rig rig;
            rig.Send(A(1, 100, 12));
            rig.Send(B(1, 1000, 3));
            NS_TEST_ASSERT_MSG_EQ(+rig.program->ReadPriority(INDEX), 6, "12 >> 1");
            rig.Send(B(1, 1000, 3));
            NS_TEST_ASSERT_MSG_EQ(+rig.program->ReadPriority(INDEX), 3, "6 >> 1");
            rig.Send(B(1, 1000, 3));
            NS_TEST_ASSERT_MSG_EQ(+rig.program->ReadPriority(INDEX), 1, "3 >> 1");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::PREEMPTED), 0u, "3 never beat 12, 6, 3");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::FALLBACK_TIE), 1u, "3 against 3 only");
            // 3 > 1: the fourth one preempts.
            const size_t i = rig.Send(B(1, 1000, 3));
            NS_TEST_ASSERT_MSG_EQ(rig.sw.records[i].dst, PS_A, "A's partial evicted");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::PREEMPTED), 1u, "preempted at last");
        }
    }
};

/**
 * \ingroup esa-test
 * The paper's ablations: Straw1 preempts on every collision whatever the priorities; Straw2 with
 * probability 1 preempts, with probability 0 never does and downgrades nothing.
 */
class EsaAblationTestCase : public TestCase
{
  public:
    EsaAblationTestCase()
        : TestCase("always-preempt and preempt-with-probability variants")
    {
    }

  private:
    void DoRun() override
    {
        {
            Rig rig("always");
            rig.Send(A(1, 100, 200));
            const size_t i = rig.Send(B(1, 1000, 1));
            NS_TEST_ASSERT_MSG_EQ(rig.sw.records[i].dst, PS_A, "priority 1 evicts 200");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::PREEMPTED), 1u, "preempted");
        }
        {
            Rig rig("random", 1.0);
            rig.Send(A(1, 100, 200));
            rig.Send(B(1, 1000, 1));
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::PREEMPTED), 1u, "p = 1 preempts");
        }
        {
            Rig rig("random", 0.0);
            rig.Send(A(1, 100, 4));
            const size_t i = rig.Send(B(1, 1000, 200));
            NS_TEST_ASSERT_MSG_EQ(rig.sw.records[i].dst, PS_B, "p = 0 falls back even at 200");
            NS_TEST_ASSERT_MSG_EQ(+rig.program->ReadPriority(INDEX), 4, "no downgrade");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::DOWNGRADED), 0u, "none counted");
            rig.Send(B(2, 2000, 4));
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::FALLBACK_TIE), 0u, "ties: ESA's only");
        }
    }
};

/**
 * \ingroup esa-test
 * A reminder from the PS for A's key flushes its partial (workers 1 and 2, values 100+200+2i) back
 * to the PS and frees the aggregator, in two passes; a reminder for another key finds it held by
 * B and comes back empty, leaving B's aggregate alone.
 */
class EsaReminderTestCase : public TestCase
{
  public:
    EsaReminderTestCase()
        : TestCase("a reminder flushes a stuck aggregator of its key, and only of its key")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.Send(A(1, 100));
        rig.Send(A(2, 200));
        Pkt rem;
        rem.job = JOB_A;
        rem.kind = EsaHeader::REMINDER;
        rem.bitmap0 = 0;
        rem.bitmap1 = 0;
        rem.priority = 0;
        rem.src = PS_A;
        rem.dst = SWITCH;
        rem.values = std::vector<int32_t>(PoolHeader::VALUES, 0);
        const size_t i = rig.Send(rem);
        const auto& r = rig.sw.records[i];
        NS_TEST_ASSERT_MSG_EQ(r.dst, PS_A, "back to the PS");
        NS_TEST_ASSERT_MSG_EQ(+EsaHeader::GetKind(&r.h), +EsaHeader::REMINDER, "its answer");
        NS_TEST_ASSERT_MSG_EQ(r.h.bitmap0, 3u, "workers 1 and 2");
        NS_TEST_ASSERT_MSG_EQ((r.values == Sum({Ramp(100), Ramp(200)})), true, "their sum");
        NS_TEST_ASSERT_MSG_EQ(r.passes, 2u, "the resubmit pass");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), 0u, "freed");
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0u, "none in use");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::REMINDER_FLUSHED), 1u, "flushed");

        rig.Send(B(1, 1000, 9));
        const size_t j = rig.Send(rem); // A's key again: B holds the aggregator now
        const auto& m = rig.sw.records[j];
        NS_TEST_ASSERT_MSG_EQ(m.dst, PS_A, "back to the PS");
        NS_TEST_ASSERT_MSG_EQ(m.h.bitmap0, 0u, "empty");
        NS_TEST_ASSERT_MSG_EQ(m.h.bitmap1, 0u, "empty");
        NS_TEST_ASSERT_MSG_EQ(m.passes, 1u, "one pass");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), PoolHeader::Key(JOB_B, 9), "B kept");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadCount(INDEX), 1u, "B's count kept");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::REMINDER_MISSED), 1u, "missed");
        // A reminder for another switch passes through untouched.
        rem.dst = 41;
        const size_t k = rig.Send(rem);
        NS_TEST_ASSERT_MSG_EQ(rig.sw.records[k].dst, 41u, "forwarded");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::PASSED), 1u, "passed");
    }
};

/**
 * \ingroup esa-test
 * A parameter server's result for A's fragment frees a leftover aggregator of that fragment and
 * goes on; one for another fragment frees nothing. A holder with A's key but an older full
 * fragment number (65,536 earlier) is stale: evicted whatever its priority.
 */
class EsaResultAndStaleTestCase : public TestCase
{
  public:
    EsaResultAndStaleTestCase()
        : TestCase("a PS result frees leftovers of its fragment; a stale holder is evicted")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.Send(A(1, 100));
        Pkt res = A(2, 0);
        res.flags = PoolHeader::FLAG_ACK;
        res.dst = GROUP_A;
        res.seq = 6; // another fragment
        res.index = INDEX;
        res.values.clear();
        rig.Send(res);
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), PoolHeader::Key(JOB_A, 5), "kept");
        res.seq = 5;
        const size_t i = rig.Send(res);
        NS_TEST_ASSERT_MSG_EQ(rig.sw.records[i].dst, GROUP_A, "on to the workers");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), 0u, "leftover freed");
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0u, "none in use");

        rig.Send(A(1, 100, 250));
        Pkt later = A(2, 500, 1);
        later.seq = 5 + 65536; // the same 32-bit key
        const size_t j = rig.Send(later);
        const auto& e = rig.sw.records[j];
        NS_TEST_ASSERT_MSG_EQ(e.dst, PS_A, "the stale partial to its PS");
        NS_TEST_ASSERT_MSG_EQ(e.seq, 5u, "with its own (old) fragment number");
        NS_TEST_ASSERT_MSG_EQ((e.values == Ramp(100)), true, "its values");
        NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::STALE_HOLDER), 1u, "stale holder");
        NS_TEST_ASSERT_MSG_EQ(rig.program->ReadCount(INDEX), 1u, "the new fragment alone");
    }
};

/**
 * \ingroup esa-test
 * Fan-in 1 preempting: the fragment completes at once (its result multicast) and evicts the
 * holder in the same pass (two packets). At a level-1 switch under a level-2 one the complete
 * aggregate goes on to the PS with edgeSwitchIdentifier set instead of being multicast.
 */
class EsaFanInOneAndLevelsTestCase : public TestCase
{
  public:
    EsaFanInOneAndLevelsTestCase()
        : TestCase("fan-in 1 completes and evicts at once; level 1 under level 2 sends up")
    {
    }

  private:
    void DoRun() override
    {
        {
            Rig rig;
            rig.Send(A(1, 100, 2));
            Pkt b = B(1, 1000, 9);
            b.fanIn0 = 1;
            const size_t i = rig.Send(b);
            NS_TEST_ASSERT_MSG_EQ(rig.sw.records.size(), i + 2, "two packets out");
            bool result = false;
            bool evicted = false;
            for (size_t k = i; k < rig.sw.records.size(); ++k)
            {
                const auto& r = rig.sw.records[k];
                result = result || (r.dst == GROUP_B && r.values == Ramp(1000));
                evicted = evicted || (r.dst == PS_A && r.values == Ramp(100));
            }
            NS_TEST_ASSERT_MSG_EQ(result, true, "B's result is its own values");
            NS_TEST_ASSERT_MSG_EQ(evicted, true, "A's partial evicted");
            NS_TEST_ASSERT_MSG_EQ(rig.program->ReadKey(INDEX), 0u, "free");
            NS_TEST_ASSERT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0u, "none in use");
        }
        {
            Rig rig;
            constexpr uint32_t JOB_C = 5;
            rig.AddJob(JOB_C, EsaProgram::Role::LEVEL1, false, 2);
            Pkt c;
            c.job = JOB_C;
            c.dst = PS_B;
            c.bitmap1 = 2;
            c.fanIn0 = 2;
            c.bitmap0 = 1;
            c.values = Ramp(10);
            rig.Send(c);
            c.bitmap0 = 2;
            c.values = Ramp(20);
            const size_t i = rig.Send(c);
            const auto& r = rig.sw.records[i];
            NS_TEST_ASSERT_MSG_EQ(r.dst, PS_B, "towards the PS's rack");
            NS_TEST_ASSERT_MSG_EQ(((r.h.flags & PoolHeader::FLAG_EDGE) != 0), true, "level 1 done");
            NS_TEST_ASSERT_MSG_EQ(((r.h.flags & PoolHeader::FLAG_ACK) != 0), false, "not a result");
            NS_TEST_ASSERT_MSG_EQ((r.values == Sum({Ramp(10), Ramp(20)})), true, "the group sum");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::LEVEL1_DONE), 1u, "counted");
        }
        {
            // Level 2: aggregates level-1 aggregates (edge set) by group bits and multicasts.
            Rig rig;
            constexpr uint32_t JOB_D = 6;
            rig.AddJob(JOB_D, EsaProgram::Role::LEVEL2, true);
            Pkt d;
            d.job = JOB_D;
            d.dst = PS_B;
            d.flags = PoolHeader::FLAG_EDGE;
            d.bitmap0 = 0;
            d.bitmap1 = 1;
            d.fanIn1 = 2;
            d.values = Ramp(1);
            rig.Send(d);
            d.bitmap1 = 2;
            d.values = Ramp(2);
            const size_t i = rig.Send(d);
            NS_TEST_ASSERT_MSG_EQ(rig.sw.records[i].h.bitmap1, 3u, "both groups");
            NS_TEST_ASSERT_MSG_EQ((rig.sw.records[i].values == Sum({Ramp(1), Ramp(2)})),
                                  true,
                                  "their sum");
            // A fallback from level 1 (edge clear) only passes level 2.
            Pkt f = d;
            f.flags = 0;
            f.seq = 30;
            const size_t j = rig.Send(f);
            NS_TEST_ASSERT_MSG_EQ(rig.sw.records[j].action, 'F', "passed on");
            NS_TEST_ASSERT_MSG_EQ(rig.Reason(EsaProgram::BYPASSED), 1u, "bypassed");
        }
    }
};

/**
 * \ingroup esa-test
 * The pool against the pipeline: the key, priority and count share one 64-bit cell at stage 0
 * and ATP's separate counter register is not declared.
 */
class EsaResourcesTestCase : public TestCase
{
  public:
    EsaResourcesTestCase()
        : TestCase("registers: one 64-bit cell holds key, priority and count; no counter array")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        NS_TEST_ASSERT_MSG_EQ(rig.program->GetRegister("agtr_id").GetWidthBits(), 64u, "64 bits");
        bool counter = true;
        try
        {
            rig.program->GetRegister("counter");
        }
        catch (const std::invalid_argument&)
        {
            counter = false;
        }
        NS_TEST_ASSERT_MSG_EQ(counter, false, "no counter register");
        const uint64_t layout =
            (static_cast<uint64_t>(1) << 48) | (2ULL << 40) | (9ULL << 32) | ((3u << 16) | 5u);
        NS_TEST_ASSERT_MSG_EQ(EsaProgram::PackCell(PoolHeader::Key(3, 5), 9, 2, 1),
                              layout,
                              "cell layout");
        NS_TEST_ASSERT_MSG_EQ(EsaProgram::PackCell(0, 9, 2, 1), 0u, "key 0 is an empty cell");
    }
};

/**
 * \ingroup esa-test
 * The test suite.
 */
class EsaProgramTestSuite : public InaTestSuite
{
  public:
    EsaProgramTestSuite()
        : InaTestSuite("esa-program", TestSuite::Type::UNIT)
    {
        AddTestCase(new EsaCompleteTestCase);
        AddTestCase(new EsaPreemptTestCase);
        AddTestCase(new EsaTieTestCase);
        AddTestCase(new EsaAblationTestCase);
        AddTestCase(new EsaReminderTestCase);
        AddTestCase(new EsaResultAndStaleTestCase);
        AddTestCase(new EsaFanInOneAndLevelsTestCase);
        AddTestCase(new EsaResourcesTestCase);
    }
};

/// Static variable for test initialization
static EsaProgramTestSuite g_esaProgramTestSuite;

} // namespace
