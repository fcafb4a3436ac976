/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Unit tests of AtpProgram in a real Pipeline with a recording switch double (no topology): one
// level (absorb, complete to the PS, hold until the parameter packet), collisions between jobs,
// resend flushes (partial and whole), level 2, groups a level-1 switch does not aggregate, ECN,
// saturation, duplicates, bad packets, and the pool against the pipeline.

#include "../../ina-protocol-kit/test/pool-test-values.h"
#include "../../ina-protocol-kit/test/program-rig.h"

#include "ns3/atp-program.h"
#include "ns3/ecn-codepoints.h"
#include "ns3/ina-test-suite.h"
#include "ns3/object-factory.h"
#include "ns3/pipeline.h"
#include "ns3/pool-header.h"
#include "ns3/simulator.h"
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
using tests::Ramps;
using tests::Sum;

constexpr InaAddress SWITCH = 40;
constexpr InaAddress PS = 50;
constexpr InaAddress GROUP = 9 | INA_MULTICAST_BIT;
constexpr uint32_t JOB = 3;
constexpr uint32_t OTHER = 4;

/// What one test packet carries (src, dst and protocol are the rig's).
struct Pkt : tests::PoolPacketSpec
{
    Pkt()
    {
        job = JOB;
    }
};

/// A default (Tofino-like) pipeline whose switch records what it is handed, with an ATP program.
struct Rig : tests::ProgramRig<AtpProgram, PoolHeader, SWITCH>
{
    explicit Rig(uint32_t poolSize = 16)
        : ProgramRig(Factory(poolSize))
    {
    }

    static ObjectFactory Factory(uint32_t poolSize)
    {
        ObjectFactory f("ns3::AtpProgram");
        f.Set("PoolSize", UintegerValue(poolSize));
        return f;
    }

    void AddJob(uint32_t jobId, AtpProgram::Role role, uint32_t groupBit = 1, uint8_t ps = 0)
    {
        AtpProgram::JobConfig c;
        c.jobId = jobId;
        c.psIndex = ps;
        c.name = "job" + std::to_string(jobId);
        c.role = role;
        c.groupBit = groupBit;
        program->AddJob(c);
    }

    /// Hand the pipeline one packet; returns the index of its record.
    size_t Send(const Pkt& k)
    {
        tests::PoolPacketSpec s = k;
        s.dst = (k.flags & PoolHeader::FLAG_ACK) != 0 ? GROUP : PS;
        s.protocol = ATP_PROTOCOL;
        const size_t first = Process(tests::MakePoolPacket(sw.pool, s));
        NS_ASSERT_MSG(sw.records.size() == first + 1, "one packet in, one out");
        return first;
    }
};

/// A contribution of worker `pos` of a 3-worker group.
Pkt
Worker(uint32_t pos, const std::vector<int32_t>& values, uint64_t seq = 5, uint16_t index = 7)
{
    Pkt k;
    k.bitmap0 = 1u << pos;
    k.values = values;
    k.seq = seq;
    k.index = index;
    return k;
}

/// The parameter packet of (job, seq) on `index`.
Pkt
Ack(uint32_t job, uint64_t seq, uint16_t index)
{
    Pkt k;
    k.job = job;
    k.seq = seq;
    k.index = index;
    k.flags = PoolHeader::FLAG_ACK;
    k.values = Ramp(0);
    return k;
}

/**
 * \ingroup atp-test
 * One level, 3 workers: two contributions are absorbed, the third leaves for the PS with the sum,
 * the union bitmap and edgeSwitchIdentifier set; the aggregator stays held (key, bitmap, counter)
 * until the parameter packet frees it, and the next fragment on that index overwrites the stale
 * values instead of adding to them.
 */
class AtpOneLevelTestCase : public TestCase
{
  public:
    AtpOneLevelTestCase()
        : TestCase("one level: absorb, complete to the PS, held until the parameter packet")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddJob(JOB, AtpProgram::Role::LEVEL1);
        auto& rec = rig.sw.records;
        const auto [u0, u1, u2] = Ramps({1, -300, 7000});

        size_t r = rig.Send(Worker(0, u0));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'C', "absorbed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(7), PoolHeader::Key(JOB, 5), "claimed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadBitmap(7), 1, "w0's bit");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCounter(7), 1, "one contribution");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 1, "one held");
        r = rig.Send(Worker(1, u1));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'C', "absorbed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadValue(7, 61), (1 + 61) + (-300 + 61), "added");

        r = rig.Send(Worker(2, u2));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "forwarded");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, PS, "to the parameter server");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({u0, u1, u2})), true, "the sum");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap0, 7, "union bitmap");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_EDGE) != 0),
                              true,
                              "level 1 done");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_ECN) != 0), false, "no ECN");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(7), PoolHeader::Key(JOB, 5), "still held");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCounter(7), 3, "complete");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 1, "held until the ACK");

        r = rig.Send(Ack(JOB, 5, 7));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "to the workers");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, GROUP, "the multicast group");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(7), 0, "freed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadBitmap(7), 0, "bitmap cleared");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCounter(7), 0, "counter cleared");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadValue(7, 0), 1 - 300 + 7000, "values stay");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0, "none held");

        // Fragment 21 reuses index 7: its first contribution overwrites.
        rig.Send(Worker(1, Ramp(40), 21));
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadValue(7, 0), 40, "overwritten, not added");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(7), PoolHeader::Key(JOB, 21), "new key");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::ALLOCATED), 2, "two allocations");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::ABSORBED), 3, "three absorbed");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::COMPLETED), 1, "one completion");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::ACK_FREED), 1, "one free");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetPeakAggregatorsInUse(), 1, "peak");
    }
};

/**
 * \ingroup atp-test
 * Two jobs hash onto one aggregator: the first to arrive holds it; the other's packets are marked
 * collision and leave unchanged for their PS; the loser's parameter packet frees nothing, the
 * winner's frees it; a resend that finds a free aggregator passes untouched and takes nothing.
 */
class AtpCollisionTestCase : public TestCase
{
  public:
    AtpCollisionTestCase()
        : TestCase("a collision between two jobs: first come first served, the loser to its PS")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddJob(JOB, AtpProgram::Role::LEVEL1);
        rig.AddJob(OTHER, AtpProgram::Role::LEVEL1);
        auto& rec = rig.sw.records;
        rig.Send(Worker(0, Ramp(1), 5, 2));

        Pkt b = Worker(0, Ramp(500), 9, 2);
        b.job = OTHER;
        b.fanIn0 = 2;
        size_t r = rig.Send(b);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "forwarded");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, PS, "to its PS");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_COLLISION) != 0), true, "marked");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Ramp(500)), true, "unchanged values");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap0, 1, "unchanged bitmap");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_EDGE) != 0), false, "not done");
        b.bitmap0 = 2;
        rig.Send(b);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::COLLISION), 2, "both collided");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(2), PoolHeader::Key(JOB, 5), "winner holds it");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadBitmap(2), 1, "winner's bitmap only");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadValue(2, 3), 4, "winner's values only");

        // The loser's parameter packet carries the same index: it must not free the winner's.
        r = rig.Send(Ack(OTHER, 9, 2));
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, GROUP, "still multicast");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::ACK_PASSED), 1, "passed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(2), PoolHeader::Key(JOB, 5), "still held");

        rig.Send(Worker(1, Ramp(2), 5, 2));
        r = rig.Send(Worker(2, Ramp(3), 5, 2));
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({Ramp(1), Ramp(2), Ramp(3)})), true, "exact");
        rig.Send(Ack(JOB, 5, 2));
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0, "freed");

        // A resend of the loser finds the aggregator free: untouched, and nothing allocated.
        b.flags = PoolHeader::FLAG_RESEND;
        r = rig.Send(b);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "forwarded");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Ramp(500)), true, "untouched");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_COLLISION) != 0),
                              false,
                              "a resend is never tagged collision");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::RESEND_PASSED), 1, "passed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(2), 0, "never allocates");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::ALLOCATED), 1, "one allocation in all");
    }
};

/**
 * \ingroup atp-test
 * Resends flush and free an aggregator of their key: with no new bit (partial union, no
 * edgeSwitchIdentifier), with the last missing bit (whole group: edgeSwitchIdentifier set), and
 * at a complete aggregator that waits for a lost parameter packet.
 */
class AtpResendTestCase : public TestCase
{
  public:
    AtpResendTestCase()
        : TestCase("resends flush and free their aggregator, partial or whole")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddJob(JOB, AtpProgram::Role::LEVEL1);
        auto& rec = rig.sw.records;
        const auto [u0, u1, u2] = Ramps({10, 20, 30});

        // w2's packet was lost; w0 times out first.
        rig.Send(Worker(0, u0));
        rig.Send(Worker(1, u1, 5, 7));
        Pkt re = Worker(0, u0);
        re.flags = PoolHeader::FLAG_RESEND;
        size_t r = rig.Send(re);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "flushed");
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, PS, "to the PS");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({u0, u1})), true, "w0 + w1, once");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap0, 3, "union");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_EDGE) != 0), false, "partial");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_RESEND) != 0), true, "resend");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(7), 0, "freed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadCounter(7), 0, "counter cleared");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0, "none held");

        // Fragment 6 on index 8: w2's resend brings the last bit to a held aggregator.
        rig.Send(Worker(0, u0, 6, 8));
        rig.Send(Worker(1, u1, 6, 8));
        re = Worker(2, u2, 6, 8);
        re.flags = PoolHeader::FLAG_RESEND;
        r = rig.Send(re);
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({u0, u1, u2})), true, "all three");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap0, 7, "whole group");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_EDGE) != 0), true, "whole");
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadId(8), 0, "freed");

        // Fragment 7 on index 9 completes, its parameter packet is lost; w1 resends.
        rig.Send(Worker(0, u0, 7, 9));
        rig.Send(Worker(1, u1, 7, 9));
        r = rig.Send(Worker(2, u2, 7, 9));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "completed");
        re = Worker(1, u1, 7, 9);
        re.flags = PoolHeader::FLAG_RESEND;
        r = rig.Send(re);
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({u0, u1, u2})), true, "the stored sum");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap0, 7, "whole group");
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_EDGE) != 0), true, "whole");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0, "none held");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::RESEND_FLUSHED), 3, "three flushes");
        // The late parameter packet finds nothing to free.
        rig.Send(Ack(JOB, 7, 9));
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::ACK_PASSED), 1, "nothing to free");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::COLLISION), 0, "no collision");
    }
};

/**
 * \ingroup atp-test
 * Level 2 aggregates groups (bitmap1, fanInDegree1) of packets already aggregated at level 1,
 * and passes level-1 leftovers (edgeSwitchIdentifier 0: collided or partial) to the PS; a
 * level-1 switch leaves other groups and finished aggregates alone.
 */
class AtpLevelsTestCase : public TestCase
{
  public:
    AtpLevelsTestCase()
        : TestCase("level 2 aggregates groups; level-1 leftovers and other groups pass")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddJob(JOB, AtpProgram::Role::LEVEL2);
        rig.AddJob(OTHER, AtpProgram::Role::LEVEL1, 4);
        auto& rec = rig.sw.records;
        auto group = [](uint32_t g, const std::vector<int32_t>& v) {
            Pkt k;
            k.bitmap0 = 3;
            k.bitmap1 = 1u << g;
            k.fanIn0 = 2;
            k.fanIn1 = 3;
            k.flags = PoolHeader::FLAG_EDGE;
            k.values = v;
            return k;
        };
        // A single worker of group 1 that collided at its level-1 switch.
        Pkt left = group(1, Ramp(99));
        left.bitmap0 = 2;
        left.flags = PoolHeader::FLAG_COLLISION;
        size_t r = rig.Send(left);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "passed");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Ramp(99)), true, "untouched");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::BYPASSED), 1, "bypassed");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0, "nothing taken");

        rig.Send(group(0, Ramp(1)));
        rig.Send(group(2, Ramp(2)));
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadBitmap(7), 5, "groups 0 and 2");
        r = rig.Send(group(1, Ramp(3)));
        NS_TEST_EXPECT_MSG_EQ(rec[r].dst, PS, "complete");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap1, 7, "all groups");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap0, 3, "bitmap0 untouched at level 2");
        NS_TEST_EXPECT_MSG_EQ((rec[r].values == Sum({Ramp(1), Ramp(2), Ramp(3)})), true, "sum");

        // A partial rack flush (resend, edgeSwitchIdentifier 0) is never merged at level 2.
        Pkt partial = group(0, Ramp(5));
        partial.flags = PoolHeader::FLAG_RESEND;
        partial.seq = 6;
        r = rig.Send(partial);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::BYPASSED), 2, "bypassed");

        // The level-1 job: its own group (bit 2) only, and nothing already aggregated.
        Pkt mine = Worker(0, Ramp(1), 5, 3);
        mine.job = OTHER;
        mine.bitmap1 = 4;
        rig.Send(mine);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::ABSORBED), 3, "its group absorbed");
        Pkt foreign = mine;
        foreign.bitmap1 = 2;
        r = rig.Send(foreign);
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "another group's packet passes");
        Pkt done = mine;
        done.flags = PoolHeader::FLAG_EDGE;
        rig.Send(done);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::NOT_AGGREGATED), 2, "both passed");
        Pkt unknown = mine;
        unknown.job = 77;
        rig.Send(unknown);
        Pkt otherPs = mine;
        otherPs.ps = 1;
        rig.Send(otherPs);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::NOT_AGGREGATED), 4, "unknown job and PS");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 2, "level-2 and level-1");
    }
};

/**
 * \ingroup atp-test
 * ECN is ORed into the aggregate (IP CE or the ATP bit of any contribution) and cleared with the
 * aggregator; lanes saturate at +-(2^31 - 1); a contribution with no new bit re-emits a complete
 * aggregate and is dropped at an incomplete one; virtual payloads take the same decisions.
 */
class AtpEcnSaturationTestCase : public TestCase
{
  public:
    AtpEcnSaturationTestCase()
        : TestCase("ECN ORed, saturating lanes, duplicates, virtual payloads")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddJob(JOB, AtpProgram::Role::LEVEL1);
        auto& rec = rig.sw.records;
        auto big = Ramp(0);
        big[0] = AtpQuantizerMax() - 5;
        big[1] = -AtpQuantizerMax() + 1;
        Pkt a = Worker(0, big);
        a.ecn = INA_ECN_CE;
        rig.Send(a);
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadEcn(7), true, "CE recorded");
        size_t r = rig.Send(Worker(0, Ramp(1)));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'C', "duplicate of an open aggregate dropped");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::DUPLICATE_DROPPED), 1, "counted");
        auto down = Ramp(10);
        down[1] = -100;
        rig.Send(Worker(1, down));
        r = rig.Send(Worker(2, down));
        NS_TEST_EXPECT_MSG_EQ(((rec[r].h.flags & PoolHeader::FLAG_ECN) != 0), true, "ORed");
        NS_TEST_EXPECT_MSG_EQ(rec[r].values[0], AtpQuantizerMax(), "saturated high");
        NS_TEST_EXPECT_MSG_EQ(rec[r].values[1], -AtpQuantizerMax(), "saturated low");
        NS_TEST_EXPECT_MSG_EQ(rec[r].values[2], 2 + 12 + 12, "others exact");
        r = rig.Send(Worker(1, Ramp(10)));
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "re-emitted");
        NS_TEST_EXPECT_MSG_EQ(rec[r].values[2], 26, "the aggregate");
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::DUPLICATE_REEMITTED), 1, "counted");
        rig.Send(Ack(JOB, 5, 7));
        NS_TEST_EXPECT_MSG_EQ(rig.program->ReadEcn(7), false, "cleared with the aggregator");

        // The same without values.
        for (uint32_t w = 0; w < 3; ++w)
        {
            Pkt v = Worker(w, {}, 8, 11);
            r = rig.Send(v);
        }
        NS_TEST_EXPECT_MSG_EQ(rec[r].action, 'F', "virtual payloads complete too");
        NS_TEST_EXPECT_MSG_EQ(rec[r].h.bitmap0, 7, "union");
        NS_TEST_EXPECT_MSG_EQ(rec[r].values.empty(), true, "still virtual");
    }

    static int32_t AtpQuantizerMax()
    {
        return 2147483647;
    }
};

/**
 * \ingroup atp-test
 * Packets the switch cannot aggregate are forwarded untouched and counted: an index beyond the
 * pool, a fan-in of 0 or above 31, a short payload, a float (overflow) payload.
 */
class AtpBadPacketTestCase : public TestCase
{
  public:
    AtpBadPacketTestCase()
        : TestCase("bad packets are forwarded untouched and counted")
    {
    }

  private:
    void DoRun() override
    {
        Rig rig;
        rig.AddJob(JOB, AtpProgram::Role::LEVEL1);
        Pkt k = Worker(0, Ramp(1));
        k.index = 16;
        rig.Send(k);
        k = Worker(0, Ramp(1));
        k.fanIn0 = 0;
        rig.Send(k);
        k.fanIn0 = 32;
        rig.Send(k);
        k = Worker(0, std::vector<int32_t>(10, 1));
        rig.Send(k);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::BAD_PACKET), 4, "four bad packets");
        k = Worker(0, Ramp(1));
        k.flags = PoolHeader::FLAG_OVERFLOW;
        rig.Send(k);
        NS_TEST_EXPECT_MSG_EQ(rig.Reason(AtpProgram::OVERFLOW_PASSED), 1, "float payload");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetAggregatorsInUse(), 0, "nothing taken");
        for (const auto& rec : rig.sw.records)
        {
            NS_TEST_EXPECT_MSG_EQ(rec.action, 'F', "forwarded");
        }
    }
};

/// What installing an ATP program of `poolSize` into a default pipeline threw, or "".
std::string
InstallError(uint32_t poolSize, uint32_t valuesPerPass = 32)
{
    ObjectFactory pipeline("ns3::Pipeline");
    pipeline.Set("ValuesPerPass", UintegerValue(valuesPerPass));
    return tests::InstallError<AtpProgram, PoolHeader, SWITCH>(Rig::Factory(poolSize), pipeline);
}

/// What AddJob threw, or "".
std::string
AddJobError(Rig& rig, const AtpProgram::JobConfig& c)
{
    return tests::ErrorOf([&] {
        rig.program->AddJob(c);
    });
}

/**
 * \ingroup atp-test
 * The pool against the pipeline (Tofino-1 defaults: 12 stages of 1.25 MiB, 4 stateful ALUs):
 * the 31 value lanes of 64-bit cells sit 4 per stage from stage 3, each P x 8 B rounded up to
 * 16-KiB blocks, so ceil(8P / 16384) <= 20 and P <= 40960 (about 10 MB of values). ATP's 20000
 * fits; the maximum installs and works at its last index; one more is refused naming stage 3's
 * SRAM; a pipeline with fewer than 31 values per pass is refused; AddJob refuses bad entries.
 */
class AtpPoolFitTestCase : public TestCase
{
  public:
    AtpPoolFitTestCase()
        : TestCase("the pool against the pipeline; bad configurations refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<AtpProgram> probe = CreateObject<AtpProgram>();
        NS_TEST_EXPECT_MSG_EQ(probe->GetMaxPoolSize(PipelineLimits{}), 40960, "maximum");
        NS_TEST_EXPECT_MSG_EQ(InstallError(AtpProgram::DEFAULT_POOL_SIZE), "", "20000 fits");
        NS_TEST_EXPECT_MSG_EQ(InstallError(40960), "", "the maximum fits");
        const std::string over = InstallError(40961);
        NS_TEST_EXPECT_MSG_EQ(
            (over.find("stage 3 needs 1376256 B (1.31 MiB) of SRAM") != std::string::npos),
            true,
            "refused for stage 3's SRAM: " << over);
        NS_TEST_EXPECT_MSG_EQ(InstallError(16, 30),
                              "program \"atp\": ATP touches 31 payload register lanes (62 values "
                              "in pairs) per pass but the pipeline's ValuesPerPass is 30",
                              "too few values per pass");

        Rig big(40960);
        big.AddJob(JOB, AtpProgram::Role::LEVEL1);
        big.Send(Worker(0, Ramp(1), 5, 40959));
        big.Send(Worker(1, Ramp(2), 5, 40959));
        const size_t r = big.Send(Worker(2, Ramp(3), 5, 40959));
        NS_TEST_EXPECT_MSG_EQ((big.sw.records[r].values == Sum({Ramp(1), Ramp(2), Ramp(3)})),
                              true,
                              "the last aggregator works");
        const auto& usage = big.pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(usage.stagesUsed, 11, "stages 0..10");
        NS_TEST_EXPECT_MSG_EQ(usage.statefulAlus, 35, "id, bitmap, counter, ecn, 31 lanes");

        Rig rig;
        AtpProgram::JobConfig c;
        c.name = "x";
        c.jobId = 0;
        NS_TEST_EXPECT_MSG_EQ(AddJobError(rig, c),
                              "job x has id 0; ATP's job/seq field takes job ids 1..65535",
                              "job id 0");
        c.jobId = 5;
        c.groupBit = 6;
        NS_TEST_EXPECT_MSG_EQ(AddJobError(rig, c),
                              "job x: a level-1 switch aggregates one group, but its group bitmap "
                              "is 6 (expected a single bit)",
                              "two group bits");
        c.groupBit = 2;
        NS_TEST_EXPECT_MSG_EQ(AddJobError(rig, c), "", "accepted");
        NS_TEST_EXPECT_MSG_EQ(AddJobError(rig, c),
                              "job id 5 (x), parameter server 0, is already installed at this "
                              "switch",
                              "twice");
        c.psIndex = 4;
        NS_TEST_EXPECT_MSG_EQ(AddJobError(rig, c),
                              "job x: parameter server index 4; expected 0..3",
                              "PS index");
        Ptr<AtpProgram> loose = CreateObject<AtpProgram>();
        c.psIndex = 0;
        NS_TEST_EXPECT_MSG_NE(tests::ErrorOf([&] {
                                  loose->AddJob(c);
                              }),
                              "",
                              "AddJob before Install");
        NS_TEST_EXPECT_MSG_EQ(rig.program->GetNJobs(), 1, "one entry");
        NS_TEST_EXPECT_MSG_EQ(rig.program->HasJob(5, 0), true, "known");
        NS_TEST_EXPECT_MSG_EQ(rig.program->HasJob(5, 1), false, "other PS unknown");
    }
};

/**
 * \ingroup atp-test
 * The ATP switch-program test suite.
 */
class AtpProgramTestSuite : public InaTestSuite
{
  public:
    AtpProgramTestSuite()
        : InaTestSuite("atp-program", Type::UNIT)
    {
        AddTestCase(new AtpOneLevelTestCase);
        AddTestCase(new AtpCollisionTestCase);
        AddTestCase(new AtpResendTestCase);
        AddTestCase(new AtpLevelsTestCase);
        AddTestCase(new AtpEcnSaturationTestCase);
        AddTestCase(new AtpBadPacketTestCase);
        AddTestCase(new AtpPoolFitTestCase);
    }
};

/// Static instance registering the suite.
AtpProgramTestSuite g_atpProgramTestSuite;

} // namespace
