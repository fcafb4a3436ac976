/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of SwitchMlProgram in a real Pipeline with a recording switch double (no topology):
// the paper's worked example (lost update, lost result, duplicates), slot reuse over both
// versions, a fan-in of 1, the reordering detector, 64 elements with their harvest pass, block
// exponents, partials below the root, pass-through traffic, bad packets, pool partitioning, and the
// pool's fit against the pipeline (1 slot, the maximum, one more than the maximum).

#include "../../ina-protocol-kit/test/program-rig.h"

#include "ns3/boolean.h"
#include "ns3/ina-test-suite.h"
#include "ns3/object-factory.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/switch-ml-header.h"
#include "ns3/switch-ml-program.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr InaAddress SWITCH = 42;
constexpr InaAddress GROUP = 7 | INA_MULTICAST_BIT;
constexpr uint32_t JOB = 3;

/// A pipeline (default Tofino-like Attributes) whose switch records what it is handed, with a
/// SwitchML program.
struct Rig : tests::ProgramRig<SwitchMlProgram, SwitchMlHeader, SWITCH>
{
    explicit Rig(uint32_t poolSize = 8, uint32_t elements = 32, bool blockExponent = false)
        : ProgramRig(Factory(poolSize, elements, blockExponent))
    {
    }

    static ObjectFactory Factory(uint32_t poolSize, uint32_t elements, bool blockExponent)
    {
        ObjectFactory f("ns3::SwitchMlProgram");
        f.Set("PoolSize", UintegerValue(poolSize));
        f.Set("ElementsPerPacket", UintegerValue(elements));
        f.Set("BlockExponent", BooleanValue(blockExponent));
        return f;
    }

    /// A root job: results to GROUP, endpoint 9000 + id.
    void AddRootJob(uint32_t jobId, uint32_t fanIn, uint32_t slots)
    {
        SwitchMlProgram::JobConfig c;
        c.jobId = jobId;
        c.name = "job" + std::to_string(jobId);
        c.fanIn = fanIn;
        c.requestedSlots = slots;
        c.resultGroup = GROUP;
        c.endpoint = static_cast<uint16_t>(9000 + jobId);
        program->AddJob(c);
    }

    /**
     * Hand the pipeline an update from worker `wid` (whose host address is 100 + wid), and run
     * the simulator so a recirculated packet finishes. Returns the index of the first record it
     * produced.
     */
    size_t Send(uint16_t wid,
                uint16_t idx,
                uint8_t ver,
                uint32_t off,
                const std::vector<int32_t>& values,
                uint32_t jobId = JOB,
                int16_t exponent = SwitchMlHeader::EXP_NONE,
                bool data = true,
                InaAddress dst = SWITCH)
    {
        InaPacket* p = sw.pool.Alloc();
        p->src = 100 + wid;
        p->dst = dst;
        p->jobId = jobId;
        p->protocol = SWITCHML_PROTOCOL;
        p->wireBytes = 180;
        p->flowId = 500 + wid;
        auto* h = p->Header<SwitchMlHeader>();
        h->type = SwitchMlHeader::UPDATE;
        h->ver = ver;
        h->flags = data ? SwitchMlHeader::FLAG_DATA : 0;
        h->wid = wid;
        h->idx = idx;
        h->off = off;
        h->origin = 100 + wid;
        h->exponent = exponent;
        if (!values.empty())
        {
            p->values = sw.pool.AllocValues(values.size());
            std::memcpy(p->values->AsInt32(), values.data(), values.size() * 4);
        }
        return Process(p, wid);
    }
};

/// 32 values base, base + 1, ...
std::vector<int32_t>
Ramp(int32_t base, uint32_t n = 32)
{
    std::vector<int32_t> v(n);
    std::iota(v.begin(), v.end(), base);
    return v;
}

/// Element-wise sum.
std::vector<int32_t>
Sum(std::initializer_list<std::vector<int32_t>> vs)
{
    std::vector<int32_t> s(vs.begin()->size(), 0);
    for (const auto& v : vs)
    {
        for (size_t i = 0; i < s.size(); ++i)
        {
            s[i] += v[i];
        }
    }
    return s;
}

/**
 * \ingroup switchml-test
 * The paper's Appendix A example, extended over three phases of one slot: w2's update is lost
 * upward (w0, w1 resend and are ignored), w2's resend completes the slot, w0's result is lost and
 * its resend gets the stored result by unicast, also after w1 and w2 have moved to the other
 * version; then w0's next update completes that version with a sum that does not include the old
 * one, and the third phase reuses version 0 from scratch.
 */
class SwitchMlWorkedExampleTestCase : public TestCase
{
  public:
    SwitchMlWorkedExampleTestCase()
        : TestCase("paper example: lost update, lost result, resends, both versions, slot reuse")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddRootJob(JOB, 3, 4);
        auto& rec = rig.sw.records;
        const auto u0 = Ramp(1);
        const auto u1 = Ramp(100);
        const auto u2 = Ramp(-50);

        // t0, t1: w0 and w1 contribute to slot 2, version 0; w2's packet is lost on the way.
        size_t r = rig.Send(0, 2, 0, 2, u0);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'C', "absorbed");
        rig.Send(1, 2, 0, 2, u1);
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCount(JOB, 2, 0), 2, "two contributions");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetSlotsInUse(), 1, "one open phase");

        // t4, t5: w0 and w1 time out and resend: ignored, nothing changes.
        r = rig.Send(0, 2, 0, 2, u0);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'C', "duplicate dropped");
        rig.Send(1, 2, 0, 2, u1);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::DUPLICATE_DROPPED), 2, "two dropped");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCount(JOB, 2, 0), 2, "still two");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadValue(JOB, 2, 0, 5), 6 + 105, "added once");

        // t6: w2's resend completes the slot: the result is multicast to the job's group.
        r = rig.Send(2, 2, 0, 2, u2);
        const auto sum0 = Sum({u0, u1, u2});
        NS_TEST_ASSERT_MSG_EQ(rec.size(), r + 1, "one packet out");
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "forwarded");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, GROUP, "to the group");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dstPort, 9000 + JOB, "to the job's endpoint");
        NS_TEST_EXPECT_MSG_EQ(+rec[r].h.type, +SwitchMlHeader::RESULT, "a result");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.off, 2, "same offset");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == sum0), true, "the sum");
        NS_TEST_EXPECT_MSG_EQ(rec[r].passes, 1, "one pass at 32 elements");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCount(JOB, 2, 0), 0, "complete");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetSlotsInUse(), 0, "closed");

        // t7, t8: w0's copy is lost; its resend gets the stored result, unicast to w0.
        r = rig.Send(0, 2, 0, 2, u0);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "answered");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, 100, "to w0 only");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == sum0), true, "the stored sum");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & SwitchMlHeader::FLAG_RETX) != 0), true, "a reply");

        // w1 and w2 got theirs: next phase on version 1 (offset 2 + 4 slots).
        const auto v1 = Ramp(1000);
        const auto v2 = Ramp(2000);
        rig.Send(1, 2, 1, 6, v1);
        rig.Send(2, 2, 1, 6, v2);
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadSeen(JOB, 2, 0, 1), false, "w1 cleared in v0");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadSeen(JOB, 2, 0, 0), true, "w0 still in v0");

        // w0's result is lost once more; it retransmits into version 0 while the others are in
        // version 1: still the stored result (the shadow copy).
        r = rig.Send(0, 2, 0, 2, u0);
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, 100, "unicast again");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == sum0), true, "shadow copy intact");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::DUPLICATE_REPLIED), 2, "two replies");

        // w0 moves on: version 1 completes with exactly the new contributions.
        const auto v0 = Ramp(3000);
        r = rig.Send(0, 2, 1, 6, v0);
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, GROUP, "multicast");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({v0, v1, v2})), true, "phase 2 sum");

        // Phase 3 reuses version 0: the first contribution overwrites the old result.
        const auto x0 = Ramp(-7);
        const auto x1 = Ramp(11);
        const auto x2 = Ramp(0);
        rig.Send(2, 2, 0, 10, x2);
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadValue(JOB, 2, 0, 3), 3, "overwritten, not added");
        rig.Send(0, 2, 0, 10, x0);
        r = rig.Send(1, 2, 0, 10, x1);
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({x0, x1, x2})), true, "phase 3 sum");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::COMPLETED), 3, "three completions");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::ABSORBED), 6, "six absorbed");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::STALE_CONTRIBUTION), 0, "none stale");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetPeakSlotsInUse(), 1, "one slot at a time");
    }
};

/**
 * \ingroup switchml-test
 * A job of one worker (Algorithm 3 as printed never overwrites there): every update completes at
 * once with its own values, the next use of a version starts from scratch, and a duplicate gets
 * the stored copy.
 */
class SwitchMlOneWorkerTestCase : public TestCase
{
  public:
    SwitchMlOneWorkerTestCase()
        : TestCase("a one-worker job completes every phase and never accumulates across phases")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddRootJob(JOB, 1, 2);
        auto& rec = rig.sw.records;
        for (uint32_t phase = 0; phase < 4; ++phase)
        {
            const auto v = Ramp(static_cast<int32_t>(10 * phase + 1));
            const size_t r = rig.Send(0, 1, phase % 2, 1 + 2 * phase, v);
            NS_TEST_EXPECT_MSG_EQ(rec[r].dst, GROUP, "completes at once");
            NS_TEST_EXPECT_MSG_EQ((rec[r].values == v), true, "its own values, phase " << phase);
        }
        const size_t r = rig.Send(0, 1, 1, 7, Ramp(99));
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, 100, "duplicate answered by unicast");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Ramp(31)), true, "with the stored phase-3 sum");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetSlotsInUse(), 0, "never an open phase");
    }
};

/**
 * \ingroup switchml-test
 * Reordering: a stale version-0 resend that reaches the switch after the same
 * worker's version-1 update, while version 1 is still open, is counted; the legitimate next use
 * of version 0 (after version 1 completed) is not.
 */
class SwitchMlStaleContributionTestCase : public TestCase
{
  public:
    SwitchMlStaleContributionTestCase()
        : TestCase("a stale resend overtaken by its successor is detected; normal reuse is not")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddRootJob(JOB, 2, 1);
        rig.Send(0, 0, 0, 0, Ramp(1));
        rig.Send(1, 0, 0, 0, Ramp(2));
        rig.Send(0, 0, 1, 1, Ramp(3)); // w0 moved on; version 1 open
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::STALE_CONTRIBUTION), 0, "fine so far");
        rig.Send(0, 0, 0, 0, Ramp(1)); // w0's old resend, delayed past its successor
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::STALE_CONTRIBUTION), 1, "detected");

        Rig clean;
        clean.AddRootJob(JOB, 2, 1);
        for (uint32_t phase = 0; phase < 5; ++phase)
        {
            clean.Send(0, 0, phase % 2, phase, Ramp(1));
            clean.Send(1, 0, phase % 2, phase, Ramp(2));
        }
        NS_TEST_EXPECT_MSG_EQ(clean.Reason(SwitchMlProgram::STALE_CONTRIBUTION), 0, "none");
        NS_TEST_EXPECT_MSG_EQ(clean.Reason(SwitchMlProgram::COMPLETED), 5, "five phases");
    }
};

/**
 * \ingroup switchml-test
 * 64 elements: two per 64-bit register cell; absorbing takes one pass, a result (completion or
 * reply to a duplicate) a second, recirculated pass for the high halves. Both halves wrap at 32
 * bits independently.
 */
class SwitchMlSixtyFourTestCase : public TestCase
{
  public:
    SwitchMlSixtyFourTestCase()
        : TestCase("64 elements: one pass to absorb, two for every result, exact sums")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig(4, 64);
        rig.AddRootJob(JOB, 2, 4);
        auto& rec = rig.sw.records;
        auto a = Ramp(-30, 64);
        auto b = Ramp(1000, 64);
        a[63] = INT32_MAX; // wraps to INT32_MIN + 1062 in the high half of lane 31
        b[62] = -5;
        size_t r = rig.Send(0, 3, 0, 3, a);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'C', "absorbed");
        NS_TEST_EXPECT_MSG_EQ(rec[r].passes, 1, "in one pass");
        r = rig.Send(1, 3, 0, 3, b);
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, GROUP, "result");
        NS_TEST_EXPECT_MSG_EQ(rec[r].passes, 2, "after one recirculation");
        std::vector<int32_t> expect(64);
        for (size_t i = 0; i < 64; ++i)
        {
            expect[i] =
                static_cast<int32_t>(static_cast<uint32_t>(a[i]) + static_cast<uint32_t>(b[i]));
        }
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == expect), true, "both halves summed");
        NS_TEST_EXPECT_MSG_EQ(rec[r].values[63], INT32_MIN + 1062, "wrapped like the hardware");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & SwitchMlHeader::FLAG_HARVEST) == 0),
                              true,
                              "harvest flag cleared on the way out");
        r = rig.Send(0, 3, 0, 3, a);
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, 100, "reply");
        NS_TEST_EXPECT_MSG_EQ(rec[r].passes, 2, "also two passes");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == expect), true, "stored sum");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetCount(SwitchProgram::Counter::RECIRCULATIONS),
                              2,
                              "two recirculations");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::HARVEST_PASSES), 2, "two harvests");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadValue(JOB, 3, 0, 63),
                              INT32_MIN + 1062,
                              "control-plane read of a high half");

        // Virtual payloads pay the same passes.
        Rig virt(4, 64);
        virt.AddRootJob(JOB, 2, 4);
        virt.Send(0, 0, 0, 0, {});
        r = virt.Send(1, 0, 0, 0, {});
        NS_TEST_EXPECT_MSG_EQ(virt.sw.records[r].passes, 2, "same timing without values");
    }
};

/**
 * \ingroup switchml-test
 * Block exponents: the first update of a phase writes its exponent, later ones keep the maximum,
 * the result and a reply carry it; an exponent-only update (no payload) aggregates the exponent
 * alone and, at 64 elements, needs no harvest pass.
 */
class SwitchMlExponentTestCase : public TestCase
{
  public:
    SwitchMlExponentTestCase()
        : TestCase("block exponents: maximum per phase, carried by results and replies")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig(4, 64, true);
        rig.AddRootJob(JOB, 3, 4);
        auto& rec = rig.sw.records;
        rig.Send(0, 1, 0, 1, {}, JOB, -3, false);
        rig.Send(1, 1, 0, 1, {}, JOB, 5, false);
        size_t r = rig.Send(2, 1, 0, 1, {}, JOB, 2, false);
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, GROUP, "exponent-only phase completes");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.exponent, 5, "the maximum");
        NS_TEST_EXPECT_MSG_EQ(rec[r].passes, 1, "no payload, no harvest");
        r = rig.Send(1, 1, 0, 1, {}, JOB, 5, false);
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.exponent, 5, "reply carries the stored maximum");

        // Next phase of the slot: data, and the next block's exponents; the first overwrites.
        rig.Send(0, 1, 1, 5, Ramp(0, 64), JOB, -20);
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadExponent(JOB, 1, 1), -20, "first writes");
        rig.Send(1, 1, 1, 5, Ramp(0, 64), JOB, SwitchMlHeader::EXP_NONE);
        r = rig.Send(2, 1, 1, 5, Ramp(0, 64), JOB, -21);
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.exponent, -20, "maximum, ignoring 'none'");
        NS_TEST_EXPECT_MSG_EQ(rec[r].passes, 2, "a 64-element result is harvested");
        NS_TEST_EXPECT_MSG_EQ(rec[r].values[10], 30, "three times element 10");
    }
};

/**
 * \ingroup switchml-test
 * Below the root: a completed phase goes up to the parent as this switch's partial (its child id,
 * its flow); a duplicate of a completed phase re-sends the partial up, marked and with the
 * worker's origin kept; a duplicate of an open phase is dropped.
 */
class SwitchMlPartialTestCase : public TestCase
{
  public:
    SwitchMlPartialTestCase()
        : TestCase("below the root: partials go up, duplicates re-send them")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        SwitchMlProgram::JobConfig c;
        c.jobId = JOB;
        c.name = "tor";
        c.fanIn = 2;
        c.requestedSlots = 2;
        c.isRoot = false;
        c.parent = 77;
        c.childId = 5;
        c.upFlowId = 1234;
        c.endpoint = 9003;
        rig.program->AddJob(c);
        auto& rec = rig.sw.records;
        size_t r = rig.Send(1, 1, 0, 1, Ramp(1));
        r = rig.Send(1, 1, 0, 1, Ramp(1));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'C', "duplicate of an open phase dropped");
        r = rig.Send(0, 1, 0, 1, Ramp(10));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "partial forwarded");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, 77, "to the parent");
        NS_TEST_EXPECT_MSG_EQ(rec[r].src, SWITCH, "from this switch");
        NS_TEST_EXPECT_MSG_EQ(rec[r].flowId, 1234, "on the partials' flow");
        NS_TEST_EXPECT_MSG_EQ(+rec[r].h.type, +SwitchMlHeader::UPDATE, "an update at the parent");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.wid, 5, "as child 5");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.ver, 0, "same version");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.idx, 1, "same slot");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({Ramp(1), Ramp(10)})), true, "the partial");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & SwitchMlHeader::FLAG_RETX) == 0), true, "first");
        r = rig.Send(1, 1, 0, 1, Ramp(1));
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, 77, "re-sent up");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.origin, 101, "for w1");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & SwitchMlHeader::FLAG_RETX) != 0), true, "marked");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({Ramp(1), Ramp(10)})),
                              true,
                              "the stored partial");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::PARTIAL_SENT_UP), 1, "one partial");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::DUPLICATE_RESENT_UP), 1, "one re-sent");
    }
};

/**
 * \ingroup switchml-test
 * What the program does not aggregate: results and updates addressed elsewhere pass unchanged;
 * updates for an unknown job, a slot beyond the share or a contributor beyond the fan-in are
 * dropped and counted, touching no register.
 */
class SwitchMlPassThroughTestCase : public TestCase
{
  public:
    SwitchMlPassThroughTestCase()
        : TestCase("pass-through traffic is forwarded; bad updates are dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddRootJob(JOB, 2, 2);
        auto& rec = rig.sw.records;
        size_t r = rig.Send(0, 0, 0, 0, Ramp(1), JOB, 0, true, 55);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "update for another switch forwarded");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, 55, "unchanged");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCount(JOB, 0, 0), 0, "no register touched");

        InaPacket* p = rig.sw.pool.Alloc();
        p->dst = GROUP;
        p->jobId = JOB;
        p->protocol = SWITCHML_PROTOCOL;
        p->Header<SwitchMlHeader>()->type = SwitchMlHeader::RESULT;
        rig.pipeline->Process(p, 0);
        NS_TEST_EXPECT_MSG_EQ(rec.back().action, 'F', "result passes through");

        rig.Send(0, 0, 0, 0, Ramp(1), 99);
        rig.Send(0, 2, 0, 0, Ramp(1));
        rig.Send(2, 0, 0, 0, Ramp(1));
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::UNKNOWN_JOB), 1, "unknown job");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::BAD_SLOT), 1, "slot 2 of a 2-slot share");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::BAD_WORKER), 1, "wid 2 of fan-in 2");
        rig.Send(0, 0, 0, 0, Ramp(1, 16));
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(SwitchMlProgram::BAD_PAYLOAD), 1, "16 values");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCount(JOB, 0, 0), 0, "still untouched");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetCount(SwitchProgram::Counter::CONSUMED),
                              4,
                              "dropped");
    }
};

/// What AddJob threw, or "".
std::string
AddJobError(Rig& rig, uint32_t jobId, uint32_t slots, uint32_t cap = 8, uint32_t fanIn = 2)
{
    SwitchMlProgram::JobConfig c;
    c.jobId = jobId;
    c.name = "j" + std::to_string(jobId);
    c.fanIn = fanIn;
    c.requestedSlots = slots;
    c.autoCap = cap;
    return tests::ErrorOf([&] {
        rig.program->AddJob(c);
    });
}

/**
 * \ingroup switchml-test
 * Jobs partition the pool: explicit requests in full, automatic ones an equal share of the rest
 * (capped), contiguous in install order; a zero share, an over-asked pool, a full job table and a
 * started job's share moving are all refused at set-up with the reason.
 */
class SwitchMlPartitionTestCase : public TestCase
{
  public:
    SwitchMlPartitionTestCase()
        : TestCase("jobs partition the pool; a zero share is a set-up error")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig(10);
        const std::string e1 = AddJobError(rig, 1, 4);
        NS_TEST_EXPECT_MSG_EQ(e1, "", "explicit 4");
        const std::string e2 = AddJobError(rig, 2, 0);
        NS_TEST_EXPECT_MSG_EQ(e2, "", "auto");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetShare(2), 6, "all that is left (cap 8)");
        const std::string e3 = AddJobError(rig, 3, 0, 2);
        NS_TEST_EXPECT_MSG_EQ(e3, "", "auto, cap 2");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetShare(1), 4, "explicit unchanged");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetShare(2), 3, "half of 6");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetShare(3), 2, "capped");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetBase(1), 0, "contiguous");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetBase(2), 4, "contiguous");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetBase(3), 7, "contiguous");
        const std::string e4 = AddJobError(rig, 4, 7);
        NS_TEST_EXPECT_MSG_EQ(e4,
                              "the jobs here ask for 11 slots but the SwitchML pool has 10 "
                              "(jobs and PoolSize asked: j1 (4), j2 (auto), j3 (auto), j4 (7)); "
                              "raise the switch pool (SwitchPoolSize, or "
                              "ns3::SwitchMlProgram::PoolSize) or lower the jobs' PoolSize",
                              "");
        rig.program->FreezeJob(2);
        const std::string e5 = AddJobError(rig, 5, 1);
        NS_TEST_EXPECT_MSG_EQ(e5,
                              "adding job j5 would move the pool share of job j2, which has "
                              "already started; install every SwitchML job before the first one "
                              "starts",
                              "a started job keeps its share");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetNJobs(), 3, "refused jobs are not added");
        const std::string e6 = AddJobError(rig, 1, 1);
        NS_TEST_EXPECT_MSG_EQ(e6,
                              "job id 1 (j1) is already installed at this switch",
                              "ids are unique");
        const std::string e7 = AddJobError(rig, 6, 1, 8, 65);
        NS_TEST_EXPECT_MSG_EQ(e7,
                              "job j6 has 65 contributors here; expected 1..64 "
                              "(ns3::SwitchMlProgram::MaxFanIn)",
                              "fan-in");

        Rig tiny(2);
        const std::string e8 = AddJobError(tiny, 1, 0);
        NS_TEST_EXPECT_MSG_EQ(e8, "", "first auto");
        const std::string e9 = AddJobError(tiny, 2, 0);
        NS_TEST_EXPECT_MSG_EQ(e9, "", "second auto");
        const std::string e10 = AddJobError(tiny, 3, 0);
        NS_TEST_EXPECT_MSG_EQ(e10,
                              "job j1 would get a share of 0 slots: the SwitchML pool has 2 "
                              "slots for 3 jobs (jobs and PoolSize asked: j1 (auto), j2 (auto), "
                              "j3 (auto)); raise the switch pool (SwitchPoolSize, or "
                              "ns3::SwitchMlProgram::PoolSize) or run fewer SwitchML jobs on "
                              "this switch",
                              "zero share");
        NS_TEST_EXPECT_MSG_EQ(tiny.program->GetShare(1), 1, "kept");
    }
};

/// What installing a program of `poolSize` slots into a default pipeline threw, or "".
std::string
InstallError(uint32_t poolSize, uint32_t elements)
{
    return tests::InstallError<SwitchMlProgram, SwitchMlHeader, SWITCH>(
        Rig::Factory(poolSize, elements, false));
}

/**
 * \ingroup switchml-test
 * The pool against the pipeline (Tofino-1 defaults: 12 stages of 1.25 MiB and 4 stateful ALUs).
 * 32 elements: the value lanes take 4 per stage, each 2 x P x 4 B rounded up to 16-KiB blocks, so
 * ceil(8P / 16384) <= 20 and P <= 40960; 64 elements (8-B cells) halve that to 20480. The maximum
 * installs and runs, one slot more is refused naming the stage; a pool of one slot works.
 */
class SwitchMlPoolFitTestCase : public TestCase
{
  public:
    SwitchMlPoolFitTestCase()
        : TestCase("pool sizes of 1 and of the pipeline's maximum; one more does not fit")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<SwitchMlProgram> probe = CreateObject<SwitchMlProgram>();
        NS_TEST_EXPECT_MSG_EQ(probe->GetMaxPoolSize(PipelineLimits{}), 40960, "32 elements");
        ObjectFactory f("ns3::SwitchMlProgram");
        f.Set("ElementsPerPacket", UintegerValue(64));
        NS_TEST_EXPECT_MSG_EQ(f.Create<SwitchMlProgram>()->GetMaxPoolSize(PipelineLimits{}),
                              20480,
                              "64 elements");
        const std::string e11 = InstallError(40960, 32);
        NS_TEST_EXPECT_MSG_EQ(e11, "", "the maximum fits");
        const std::string e12 = InstallError(20480, 64);
        NS_TEST_EXPECT_MSG_EQ(e12, "", "the maximum fits (64)");
        const std::string over = InstallError(40961, 32);
        NS_TEST_EXPECT_MSG_EQ(
            (over.find("does not fit:\n  stage 2 needs 1376256 B (1.31 MiB) of SRAM") !=
             std::string::npos),
            true,
            "refused for stage 2's SRAM: " << over);
        const std::string e13 = InstallError(20481, 64);
        NS_TEST_EXPECT_MSG_NE(e13, "", "one more refused (64)");

        // The largest pool, used at its last slot; and a pool of one slot, over three phases.
        Rig big(40960);
        big.AddRootJob(JOB, 2, 40960);
        big.Send(0, 40959, 1, 7, Ramp(1));
        size_t r = big.Send(1, 40959, 1, 7, Ramp(2));
        NS_TEST_EXPECT_MSG_EQ((big.sw.records[r].values == Sum({Ramp(1), Ramp(2)})), true, "last");

        Rig one(1);
        one.AddRootJob(JOB, 2, 1);
        for (uint32_t phase = 0; phase < 3; ++phase)
        {
            one.Send(0, 0, phase % 2, phase, Ramp(static_cast<int32_t>(phase)));
            r = one.Send(1, 0, phase % 2, phase, Ramp(5));
            NS_TEST_EXPECT_MSG_EQ(
                (one.sw.records[r].values == Sum({Ramp(static_cast<int32_t>(phase)), Ramp(5)})),
                true,
                "phase " << phase);
        }
        const std::string e14 = AddJobError(one, 9, 1);
        NS_TEST_EXPECT_MSG_EQ((e14.rfind("the jobs here ask for 2 slots but "
                                         "the SwitchML pool has 1 ",
                                         0)),
                              0,
                              "a full pool takes no more explicit requests");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * Configurations the pipeline cannot run are refused at install, with the reason.
 */
class SwitchMlConfigTestCase : public TestCase
{
  public:
    SwitchMlConfigTestCase()
        : TestCase("bad program configurations are refused at install")
    {
    }

  private:
    void DoRun() override
    {
        const std::string e15 = InstallError(8, 48);
        NS_TEST_EXPECT_MSG_EQ(e15,
                              "program \"switchml\": ElementsPerPacket is 48; expected 32 (one "
                              "value per register lane) or 64 (two per lane, harvested in a "
                              "second pass)",
                              "48 elements");
        ObjectFactory f("ns3::SwitchMlProgram");
        f.Set("MaxFanIn", UintegerValue(200));
        const std::string error = tests::InstallError<SwitchMlProgram, SwitchMlHeader, SWITCH>(f);
        NS_TEST_EXPECT_MSG_EQ(error,
                              "program \"switchml\": MaxFanIn 200 needs 7 bitmap registers in one "
                              "stage but a stage has 4 stateful ALUs (StatefulAlusPerStage); at "
                              "most 128 contributors per switch",
                              "fan-in beyond one stage's ALUs");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * The SwitchML switch-program test suite.
 */
class SwitchMlProgramTestSuite : public InaTestSuite
{
  public:
    SwitchMlProgramTestSuite()
        : InaTestSuite("switchml-program", Type::UNIT)
    {
        AddTestCase(new SwitchMlWorkedExampleTestCase);
        AddTestCase(new SwitchMlOneWorkerTestCase);
        AddTestCase(new SwitchMlStaleContributionTestCase);
        AddTestCase(new SwitchMlSixtyFourTestCase);
        AddTestCase(new SwitchMlExponentTestCase);
        AddTestCase(new SwitchMlPartialTestCase);
        AddTestCase(new SwitchMlPassThroughTestCase);
        AddTestCase(new SwitchMlPartitionTestCase);
        AddTestCase(new SwitchMlPoolFitTestCase);
        AddTestCase(new SwitchMlConfigTestCase);
    }
};

/// Static instance registering the suite.
SwitchMlProgramTestSuite g_switchMlProgramTestSuite;

} // namespace
