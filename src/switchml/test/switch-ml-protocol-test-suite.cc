/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// End-to-end tests of SwitchML through the protocol and agent API on real fabrics (star, fat-tree,
// leaf-spine): every worker all-reduces real gradients (GradientValues) and gets back their sum
// within the quantization bound, with and without random loss on every link; line-rate timing;
// the retransmission timer; stale results; versions across tensors; jobs sharing a pool; trees
// over two and three tiers; and the set-up errors. Set INASIM_LONG_TESTS=1 for 100 MB tensors
// under loss.

#include "../../ina-protocol-kit/test/protocol-test-fabric.h"

#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-ml-agent.h"
#include "ns3/switch-ml-header.h"
#include "ns3/switch-ml-program.h"
#include "ns3/switch-ml-protocol.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using namespace ns3::tests;

using JobSpec = AllReduceRunner::Spec;

/// One SwitchML job.
using JobRun = TypedJobRun<SwitchMlProtocol, SwitchMlAgent>;

/// A job of hosts 0 to `workers` - 1 (the star's first), reducing `tensorBytes`.
JobSpec
FirstHostsJob(uint32_t workers, const std::vector<uint64_t>& tensorBytes)
{
    JobSpec spec;
    spec.hosts = Range(0, workers);
    spec.tensorBytes = tensorBytes;
    return spec;
}

/// SwitchML's jobs here take at most 2 simulated seconds unless a test says otherwise.
const JobsRunner RunJobs(2);

/// The sum of a switch program's reason over the job's tree.
uint64_t
TreeReason(const JobRun& run, SwitchMlProgram::Reason reason)
{
    uint64_t s = 0;
    for (const auto& ts : run.protocol->GetTree())
    {
        s += ts.program->GetReasonCount(reason);
    }
    return s;
}

/**
 * \ingroup switchml-test
 * 8 workers on one 100 Gb/s switch, a 4 MB tensor of real gradients, no loss: every element within
 * the bound, no retransmission, and the time within 2 % of the line-rate bound: 31,250 packets of
 * 180 B per worker = 450 us, plus one round trip (about 4.6 us) and the first packet.
 */
class SwitchMlStarTestCase : public TestCase
{
  public:
    SwitchMlStarTestCase()
        : TestCase("8 workers, one switch: exact sums at line rate")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(8);
        JobRun run(fabric, FirstHostsJob(8, {4000000}));
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "every worker done");
        double worst = 0;
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(&worst), 0, "worst error " << worst);
        NS_TEST_EXPECT_MSG_LT(worst, 1e-6, "float rounding of the sum, not more");
        // RTT = 2 x (1 us + 14.4 ns + 0.4 us pipeline) = 2.83 us; 100 Gb/s x 2.83 us / 180 B
        // = 197 packets, next power of two 256 (the paper's 512 included host processing).
        NS_TEST_EXPECT_MSG_EQ(run.protocol->GetAutoPoolSize(), 256, "BDP-derived pool");
        NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetWindow(), 256, "window");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::packetsSent), 8 * 31250, "sent");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::wireBytesSent),
                              8ULL * 31250 * 180,
                              "180-B frames");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "no loss");
        NS_TEST_EXPECT_MSG_EQ(run.SumCounter(&SwitchMlAgent::Counters::staleResults), 0, "stale");
        NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::COMPLETED), 31250, "completions");
        NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::STALE_CONTRIBUTION), 0, "ordered");
        Ptr<SwitchMlProgram> program = run.protocol->GetTree()[0].program;
        // The 8 updates of a phase reach the switch at the same instant: phases open and close
        // back to back, so few slots are ever open at once; never more than the window.
        NS_TEST_EXPECT_MSG_GT(program->GetPeakSlotsInUse(), 0, "slots were used");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(program->GetPeakSlotsInUse(), 256, "within the window");
        NS_TEST_EXPECT_MSG_EQ(program->GetSlotsInUse(), 0, "all closed");
        Ptr<SwitchProgram> generic = fabric->GetSwitch(8)->GetPipeline()->GetProgramByIndex(0);
        NS_TEST_EXPECT_MSG_EQ(generic->GetPeakAggregatorsInUse(),
                              program->GetPeakSlotsInUse(),
                              "reported through SwitchProgram");
        const double bound = 31250.0 * 180 * 8 / 1e11;
        const double t = run.LastFinishPs() * 1e-12;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(t, bound, "not faster than the wire");
        NS_TEST_EXPECT_MSG_LT(t, bound * 1.02, "within 2 % of the line-rate bound");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetTotalLinkCounters().drops, 0, "no queue drops");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * The NSDI'21 variant: 64 elements per 308-B packet (a recirculation per result) and block
 * exponents (one exponent-only phase per slot and tensor), exact within n^2 B / (2^31 - 1 - n).
 */
class SwitchMlNsdiTestCase : public TestCase
{
  public:
    SwitchMlNsdiTestCase()
        : TestCase("64 elements with block exponents: exact sums, one harvest per result")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(6);
        JobSpec spec = FirstHostsJob(6, {1000000, 10000, 256});
        spec.attributes = {{"ElementsPerPacket", "64"}, {"Quantizer", "block-exponent"}};
        JobRun run(fabric, spec);
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "every worker done");
        double worst = 0;
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(&worst), 0, "worst error " << worst);
        // 1 MB = 3907 chunks, 10 kB = 40, 256 B = 1: 3948 data phases; exponent-only phases:
        // min(window, chunks) per tensor.
        const uint32_t w = run.agents[0]->GetWindow();
        const uint64_t boot = std::min<uint64_t>(w, 3907) + 40 + 1;
        NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetCounters().exponentPhases, boot, "bootstraps");
        NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetStats().packetsSent, 3948 + boot, "packets");
        NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetStats().wireBytesSent,
                              3948ULL * 308 + boot * 60,
                              "308-B data frames, 60-B exponent frames");
        NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::HARVEST_PASSES),
                              3948,
                              "one harvest per data result");
        NS_TEST_EXPECT_MSG_EQ(
            run.protocol->GetTree()[0].program->GetCount(SwitchProgram::Counter::RECIRCULATIONS),
            3948,
            "counted by the pipeline");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * float16 on the wire ("SwitchML (16)"): 4 workers, a 1 MB tensor. 32 elements ride in 116-B
 * frames (64 B of halves) instead of 180 B, and the sums are within the half-float bound but not
 * exact to float (the values really travel as halves).
 */
class SwitchMlFloat16TestCase : public TestCase
{
  public:
    SwitchMlFloat16TestCase()
        : TestCase("float16 on the wire: 116-B frames, sums within the half-float bound")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(4);
        JobSpec spec = FirstHostsJob(4, {1000000});
        spec.attributes = {{"WireFormat", "float16"}};
        JobRun run(fabric, spec);
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "every worker done");
        double worst = 0;
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(&worst), 0, "worst error " << worst);
        NS_TEST_EXPECT_MSG_GT(worst, 1e-5, "halves lose more than float rounding");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(worst,
                                    run.protocol->ValueTolerance(4, 1.0),
                                    "within the bound");
        const uint64_t chunks = (250000 + 31) / 32;
        NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetStats().wireBytesSent,
                              chunks * 116,
                              "116-B frames");
        Simulator::Destroy();
        JobSpec bad;
        bad.hosts = Range(0, 2);
        bad.attributes = {{"WireFormat", "float16"}, {"Quantizer", "block-exponent"}};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(Star(2), bad),
                              "job j1 (switchml): attribute WireFormat float16 needs Quantizer "
                              "global: the switch converts half floats with the model's one "
                              "scaling factor (paper, Section 3.7)",
                              "float16 needs the global quantizer");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * A job of one worker (pitfall: Algorithm 3 as printed never resets a slot when n = 1): it gets
 * its own gradient back, over many phases of every slot.
 */
class SwitchMlOneWorkerJobTestCase : public TestCase
{
  public:
    SwitchMlOneWorkerJobTestCase()
        : TestCase("a one-worker job gets its own gradient back")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* elements : {"32", "64"})
        {
            Ptr<InaFabric> fabric = Star(2);
            JobSpec spec;
            spec.hosts = {1};
            spec.tensorBytes = {300000, 4000};
            spec.attributes = {{"ElementsPerPacket", elements}, {"PoolSize", "16"}};
            JobRun run(fabric, spec);
            RunJobs({&run});
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done, " << elements);
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "its own values, " << elements);
            NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "none");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup switchml-test
 * Random loss on every link direction at 0, 0.01 %, 0.1 % and 1 %: every worker completes every
 * tensor (three at once, of sizes that end in partial chunks) and every element is within the
 * bound; at 1 % some packets were retransmitted; no contribution ever arrives out of order.
 */
class SwitchMlLossTestCase : public TestCase
{
  public:
    SwitchMlLossTestCase(double loss, bool nsdi)
        : TestCase(std::string("loss ") + std::to_string(loss * 100).substr(0, 4) + " %" +
                   (nsdi ? ", 64 elements and block exponents" : "") +
                   ": complete, and exact within the bound")
        , m_loss(loss)
        , m_nsdi(nsdi)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(8, m_loss, 11);
        JobSpec spec = FirstHostsJob(8, {1000000, 65540, 3000});
        if (m_nsdi)
        {
            spec.attributes = {{"ElementsPerPacket", "64"}, {"Quantizer", "block-exponent"}};
        }
        JobRun run(fabric, spec);
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "every worker done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "no value errors");
        NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::STALE_CONTRIBUTION), 0, "ordered");
        const uint64_t lost = fabric->GetTotalLinkCounters().lost;
        if (m_loss >= 0.01)
        {
            NS_TEST_EXPECT_MSG_GT(lost, 100, "packets were lost");
            NS_TEST_EXPECT_MSG_GT(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "resent");
            NS_TEST_EXPECT_MSG_GT(TreeReason(run, SwitchMlProgram::DUPLICATE_REPLIED),
                                  0,
                                  "lost results recovered from the shadow copy");
        }
        if (m_loss == 0)
        {
            NS_TEST_EXPECT_MSG_EQ(lost, 0, "nothing lost");
            NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "none");
        }
        Simulator::Destroy();
    }

    double m_loss;
    bool m_nsdi;
};

/**
 * \ingroup switchml-test
 * Versions across tensors: with a 4-slot window, tensors of 3, 5, 1 and 7 chunks (one
 * ending in a partial chunk) leave slots at different versions; the next tensor must continue
 * each slot's version, or a slot would look complete and answer with an old result. Handed
 * one after the other and all at once, with and without loss.
 */
class SwitchMlVersionsTestCase : public TestCase
{
  public:
    SwitchMlVersionsTestCase()
        : TestCase("versions continue across tensors whose chunks do not fill the window")
    {
    }

  private:
    void DoRun() override
    {
        for (bool sequential : {true, false})
        {
            for (double loss : {0.0, 0.01})
            {
                for (const char* quantizer : {"global", "block-exponent"})
                {
                    Ptr<InaFabric> fabric = Star(3, loss, 5);
                    JobSpec spec;
                    spec.hosts = {0, 1, 2};
                    spec.tensorBytes = {3 * 128 - 8, 5 * 128, 100, 7 * 128, 2 * 128};
                    spec.sequential = sequential;
                    spec.attributes = {{"PoolSize", "4"}, {"Quantizer", quantizer}};
                    JobRun run(fabric, spec);
                    RunJobs({&run});
                    const std::string what = std::string(sequential ? "sequential" : "at once") +
                                             ", loss " + std::to_string(loss) + ", " + quantizer;
                    NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done: " << what);
                    NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact: " << what);
                    NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetWindow(), 4, "window 4");
                    Simulator::Destroy();
                }
            }
        }
    }
};

/**
 * \ingroup switchml-test
 * The retransmission timer. Worker 0 sends 10 packets at 0; worker 1 starts late, so worker 0's
 * packets sit in the switch and it re-sends all of them every RTO, duplicates the switch drops.
 * - RTO 1 ms, worker 1 at 3.6 ms: re-sends at 1, 2 and 3 ms (30).
 * - RTO 250 us, worker 1 timed so that worker 0 receives slot 0's result 0.5 ns after the 14th
 *   expiry at 3.5 ms (worker 1's packet takes 14.4 ns + 1 us to the switch, the result 400 ns of
 *   pipeline + 14.4 ns + 1 us back: worker 1 starts at 3.5 ms + 0.5 ns - 2.4288 us): 14 rounds,
 *   140 re-sends, a timer late by even 1 ns would miss slot 0 in the last; with the result 0.5 ns
 *   before the expiry, slot 0 is not re-sent (139), which a timer early by 1 ns would. The last
 * round reaches the switch after the phases completed: each is answered from the stored copy, and
 *   worker 0 drops those 10 answers as stale.
 * Worker 1 never re-sends.
 */
class SwitchMlTimerTestCase : public TestCase
{
  public:
    SwitchMlTimerTestCase()
        : TestCase("one timer per worker re-sends each slot exactly RTO after its last send")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string rto;
            int64_t startPs;
            uint64_t resends;
            uint64_t replied;
        };

        for (const Case& c : {Case{"1ms", 3600 * US, 30, 0},
                              Case{"250us", 3500000000LL + 500 - 2428800, 140, 10},
                              Case{"250us", 3500000000LL - 500 - 2428800, 139, 9}})
        {
            Ptr<InaFabric> fabric = Star(2);
            JobSpec spec;
            spec.hosts = {0, 1};
            spec.tensorBytes = {10 * 128};
            spec.startPs = {0, c.startPs};
            spec.attributes = {{"Rto", c.rto}};
            JobRun run(fabric, spec);
            RunJobs({&run});
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done, RTO " << c.rto);
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact");
            NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetStats().retransmissions,
                                  c.resends,
                                  "worker 0, RTO " << c.rto);
            NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetCounters().timeouts, c.resends, "timeouts");
            NS_TEST_EXPECT_MSG_EQ(run.agents[1]->GetStats().retransmissions, 0, "worker 1");
            NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::DUPLICATE_DROPPED),
                                  c.resends - c.replied,
                                  "duplicates of open phases dropped");
            NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::DUPLICATE_REPLIED),
                                  c.replied,
                                  "duplicates of complete phases answered");
            NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetCounters().staleResults,
                                  c.replied,
                                  "answers after the multicast are stale");
            NS_TEST_EXPECT_MSG_LT(run.FinishPs(0), c.startPs + 3 * US, "one round trip later");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup switchml-test
 * Stale results at a worker: late copies of results of phases the worker has finished
 * (as a multicast copy arriving after a unicast reply would be), and one for another job, are
 * counted and ignored; the aggregate stays exact.
 */
class SwitchMlStaleResultTestCase : public TestCase
{
  public:
    SwitchMlStaleResultTestCase()
        : TestCase("results for phases a worker has finished are ignored")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(4);
        JobRun run(fabric, FirstHostsJob(4, {4000000}));
        Ptr<InaHost> host = fabric->GetHost(0);
        const uint16_t endpoint = run.protocol->GetEndpoint();
        // The window is 256: at 20 us slot 0 has finished its first phases (chunk 0 on version 0,
        // chunk 256 on version 1) and is several phases further.
        auto inject = [&fabric, host, endpoint](uint8_t ver, uint32_t off, uint32_t job) {
            InaPacket* p = fabric->GetPool().Alloc();
            p->protocol = SWITCHML_PROTOCOL;
            p->jobId = job;
            p->dstPort = endpoint;
            p->dst = 0;
            p->wireBytes = 180;
            auto* h = p->Header<SwitchMlHeader>();
            h->type = SwitchMlHeader::RESULT;
            h->flags = SwitchMlHeader::FLAG_DATA;
            h->idx = 0;
            h->ver = ver;
            h->off = off;
            p->values = fabric->GetPool().AllocValues(32);
            for (uint32_t i = 0; i < 32; ++i)
            {
                p->values->AsInt32()[i] = 1 << 30;
            }
            host->Receive(p, 0);
        };
        Simulator::Schedule(MicroSeconds(20), MakeInaFunctorEvent([&]() {
                                inject(0, 0, 1);
                                inject(1, 256, 1);
                                inject(0, 0, 2);
                            }));
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "not corrupted");
        NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetCounters().staleResults, 3, "three ignored");
        NS_TEST_EXPECT_MSG_EQ(run.agents[1]->GetCounters().staleResults, 0, "none elsewhere");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * Two jobs on one switch share its pool: automatic requests get equal shares, capped at their
 * BDP window (256 each of 8192), or half each of a 400-slot pool (200); both complete exactly,
 * concurrently, in disjoint slot ranges. Then two jobs across a leaf-spine's leaves, and two jobs
 * of three levels each on a fat-tree sharing every ToR, both under 1 % loss.
 */
class SwitchMlMultiJobTestCase : public TestCase
{
  public:
    SwitchMlMultiJobTestCase()
        : TestCase("jobs sharing switches partition their pools and both complete")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& [pool, window] :
             std::vector<std::pair<std::string, uint32_t>>{{"0", 256}, {"400", 200}})
        {
            Ptr<InaFabric> fabric = Star(8, 0.001, 3);
            JobSpec a;
            a.hosts = Range(0, 4);
            a.tensorBytes = {600000};
            a.attributes = {{"SwitchPoolSize", pool}};
            JobSpec b = a;
            b.jobId = 2;
            b.name = "j2";
            b.hosts = Range(4, 4);
            b.seed = 99;
            JobRun ra(fabric, a);
            JobRun rb(fabric, b);
            RunJobs({&ra, &rb});
            NS_TEST_ASSERT_MSG_EQ((ra.Complete() && rb.Complete()),
                                  true,
                                  "both done, pool " << pool);
            NS_TEST_EXPECT_MSG_EQ((ra.ValueErrors() + rb.ValueErrors()), 0, "both exact");
            Ptr<SwitchMlProgram> program = ra.protocol->GetTree()[0].program;
            NS_TEST_EXPECT_MSG_EQ(PeekPointer(program),
                                  PeekPointer(rb.protocol->GetTree()[0].program),
                                  "one program, shared");
            NS_TEST_EXPECT_MSG_EQ(program->GetNJobs(), 2, "two jobs");
            NS_TEST_EXPECT_MSG_EQ(ra.agents[0]->GetWindow(), window, "job 1 window");
            NS_TEST_EXPECT_MSG_EQ(rb.agents[0]->GetWindow(), window, "job 2 window");
            NS_TEST_EXPECT_MSG_EQ(program->GetBase(2), window, "disjoint ranges");
            NS_TEST_EXPECT_MSG_EQ((ra.Sum(&AggregationAgent::Stats::packetsSent) > 0),
                                  true,
                                  "sent");
            Simulator::Destroy();
        }

        // Two jobs across the leaves of a leaf-spine, 1 % loss: every leaf aggregates for both,
        // and the roots are spread over the spines by job id.
        InaFabricHelper helper;
        helper.SetLossRate(0.01);
        helper.SetStreamBase(41);
        Ptr<InaFabric> fabric =
            helper.Build(InaTopology::LeafSpine(4, 2, 4, {GBPS_100, US}, {GBPS_100, US}));
        JobSpec a;
        a.hosts = {0, 4, 8, 12};
        a.tiers = {"leaf", "spine"};
        a.tensorBytes = {300000, 7000};
        JobSpec b = a;
        b.jobId = 2;
        b.name = "j2";
        b.hosts = {1, 5, 9, 13, 14};
        b.seed = 3;
        JobRun ra(fabric, a);
        JobRun rb(fabric, b);
        RunJobs({&ra, &rb});
        NS_TEST_ASSERT_MSG_EQ((ra.Complete() && rb.Complete()), true, "both done on leaf-spine");
        NS_TEST_EXPECT_MSG_EQ(ra.ValueErrors() + rb.ValueErrors(), 0, "both exact");
        NS_TEST_EXPECT_MSG_NE(ra.protocol->GetRootNode(),
                              rb.protocol->GetRootNode(),
                              "different spines");
        for (const auto& ts : ra.protocol->GetTree())
        {
            NS_TEST_EXPECT_MSG_EQ(ts.program->GetNJobs(), ts.isRoot ? 1 : 2, "leaves shared");
        }
        Simulator::Destroy();

        // Two jobs of three levels each on a k=4 fat-tree, 1 % loss, every ToR shared: their
        // roots are different cores, so each pod aggregates at the agg linked to its job's core.
        InaFabricHelper fatHelper;
        fatHelper.SetLossRate(0.01);
        fatHelper.SetStreamBase(43);
        Ptr<InaFabric> fatTree =
            fatHelper.Build(InaTopology::FatTree(4, {GBPS_100, US}, {GBPS_100, US}));
        JobSpec c;
        c.hosts = {0, 2, 4, 6, 8, 10, 12, 14};
        c.tiers = {"tor", "agg", "core"};
        c.tensorBytes = {200000, 3000};
        JobSpec d = c;
        d.jobId = 2;
        d.name = "j2";
        d.hosts = {1, 3, 5, 7, 9, 11, 13, 15};
        d.seed = 5;
        JobRun rc(fatTree, c);
        JobRun rd(fatTree, d);
        RunJobs({&rc, &rd});
        NS_TEST_ASSERT_MSG_EQ((rc.Complete() && rd.Complete()), true, "both done on the fat-tree");
        NS_TEST_EXPECT_MSG_EQ(rc.ValueErrors() + rd.ValueErrors(), 0, "both exact");
        NS_TEST_EXPECT_MSG_EQ(rc.protocol->GetCounters().at("tree_levels"), 3, "three levels");
        NS_TEST_EXPECT_MSG_EQ(rd.protocol->GetCounters().at("tree_levels"), 3, "three levels");
        NS_TEST_EXPECT_MSG_NE(rc.protocol->GetRootNode(),
                              rd.protocol->GetRootNode(),
                              "different cores");
        for (const auto& ts : rc.protocol->GetTree())
        {
            const bool tor = fatTree->GetTopology().GetTier(ts.node) == "tor";
            NS_TEST_EXPECT_MSG_EQ(ts.program->GetNJobs(), tor ? 2 : 1, "ToRs shared, not above");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * Set-up errors, each naming the job and what to change: a job whose pool share would be zero
 * (reported while its co-tenant is installed), explicit requests beyond the pool, no tier
 * allowed to aggregate, workers spanning racks with only the rack tier allowed, a bad packet
 * size, two workers on one host, and jobs that disagree on a shared switch's configuration.
 */
class SwitchMlSetupErrorTestCase : public TestCase
{
  public:
    SwitchMlSetupErrorTestCase()
        : TestCase("a zero pool share and other impossible set-ups fail at install, clearly")
    {
    }

  private:
    void DoRun() override
    {
        {
            Ptr<InaFabric> fabric = Star(4);
            JobSpec a;
            a.hosts = {0, 1};
            a.attributes = {{"SwitchPoolSize", "1"}};
            JobRun ra(fabric, a);
            NS_TEST_EXPECT_MSG_EQ(ra.protocol->GetTree()[0].program->GetShare(1), 1, "all of it");
            NS_TEST_EXPECT_MSG_EQ(ErrorOf<std::runtime_error>([&] {
                                      ra.protocol->CreateAgent(0);
                                  }),
                                  "job j1 (switchml): an agent for worker 0 exists already; every "
                                  "rank gets one agent (one endpoint on its host)",
                                  "one agent per rank");
            JobSpec b = a;
            b.jobId = 2;
            b.name = "j2";
            b.hosts = {2, 3};
            b.attributes = {};
            const std::string e = InstallError<JobRun>(fabric, b);
            NS_TEST_EXPECT_MSG_EQ(e,
                                  "job j2 (switchml): switch tor0: job j1 would get a share of 0 "
                                  "slots: the SwitchML pool has 1 slots for 2 jobs (jobs and "
                                  "PoolSize asked: j1 (auto), j2 (auto)); raise the switch pool "
                                  "(SwitchPoolSize, or ns3::SwitchMlProgram::PoolSize) or run "
                                  "fewer SwitchML jobs on this switch",
                                  "zero share");
            b.attributes = {{"PoolSize", "2"}};
            const std::string e2 = InstallError<JobRun>(fabric, b);
            NS_TEST_EXPECT_MSG_EQ(
                (e2.rfind("job j2 (switchml): switch tor0: the jobs here ask for 2 "
                          "slots but the SwitchML pool has 1 ",
                          0)),
                0,
                e2);
            b.attributes = {{"ElementsPerPacket", "64"}};
            const std::string e3 = InstallError<JobRun>(fabric, b);
            NS_TEST_EXPECT_MSG_EQ(e3,
                                  "job j2 (switchml): switch tor0 already runs SwitchML with "
                                  "ElementsPerPacket 32 (installed by another job) but this job "
                                  "asks for 64; SwitchML jobs that share a switch must agree on it",
                                  "configurations must agree");
            Simulator::Destroy();
        }
        Ptr<InaFabric> fatTree =
            InaFabricHelper().Build(InaTopology::FatTree(4, {GBPS_100, US}, {GBPS_100, US}));
        JobSpec s;
        s.hosts = {0, 5};
        s.tiers = {};
        const std::string e4 = InstallError<JobRun>(fatTree, s);
        NS_TEST_EXPECT_MSG_EQ(e4,
                              "job j1 (switchml): switch.ina_tiers is empty, but SwitchML "
                              "aggregates in switches; allow at least the workers' rack tier "
                              "(this topology's switch tiers: tor, agg, core)",
                              "no tier");
        s.tiers = {"tor"};
        const std::string e5 = InstallError<JobRun>(fatTree, s);
        NS_TEST_EXPECT_MSG_EQ(e5,
                              "job j1 (switchml): its workers are under tor0, tor2 and no switch "
                              "of the tiers allowed to aggregate (ina_tiers: tor) above them is "
                              "a common ancestor reached by an upward path; allow a higher tier "
                              "(this topology's switch tiers: tor, agg, core) or place the job's "
                              "workers in one rack",
                              "racks span, no higher tier");
        s.tiers = {"tor", "agg"};
        const std::string e6 = InstallError<JobRun>(fatTree, s);
        NS_TEST_EXPECT_MSG_EQ((e6.find("no switch of the tiers allowed to aggregate (ina_tiers: "
                                       "tor, agg)") != std::string::npos),
                              true,
                              "an agg is no common ancestor across pods: " << e6);
        s.tiers = {"tor"};
        s.hosts = {0, 1};
        s.attributes = {{"ElementsPerPacket", "48"}};
        const std::string e7 = InstallError<JobRun>(fatTree, s);
        NS_TEST_EXPECT_MSG_EQ(e7,
                              "job j1 (switchml): attribute ElementsPerPacket is 48; expected 32 "
                              "(2019 paper) or 64 (NSDI'21)",
                              "packet size");
        s.attributes = {};
        s.jobId = 768;
        const std::string e9 = InstallError<JobRun>(fatTree, s);
        NS_TEST_EXPECT_MSG_EQ(e9,
                              "job j1 (switchml): job id 768 is outside 1..767 (SwitchML's host "
                              "endpoint is 256 + job id)",
                              "job id range");
        s.jobId = 1;
        s.hosts = {1, 1};
        const std::string e8 = InstallError<JobRun>(fatTree, s);
        NS_TEST_EXPECT_MSG_EQ(e8,
                              "job j1 (switchml): workers 0 and 1 are both on host 1; SwitchML "
                              "needs one worker per host (one endpoint per job)",
                              "one worker per host");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * Workers in several racks, aggregated at the racks and then at a common ancestor:
 * a fat-tree pod (ToRs, then an agg), across pods with ToRs and cores allowed (ToRs, then a core;
 * the aggs between only forward), across pods with every tier allowed (the two racks of pod 0 meet
 * at its agg, the pods' other racks go straight to the core), across pods with only agg/core
 * allowed (pod 0's two workers meet at its agg, the rest go straight to the core), and a
 * leaf-spine (leaves, then a spine); with 1 % loss on every link for three of them. Every
 * switch below the root sends to a parent above it in the tree.
 */
class SwitchMlMultiRackTestCase : public TestCase
{
  public:
    SwitchMlMultiRackTestCase()
        : TestCase("trees over several tiers on fat-tree and leaf-spine, with loss")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            std::string name;
            bool leafSpine;
            std::vector<uint32_t> hosts;
            std::vector<std::string> tiers;
            double loss;
            std::string rootTier;
            uint32_t rootFanIn;
            size_t treeSize;
            double levels;
        };

        const std::vector<Case> cases{
            {"pod", false, {0, 1, 2, 3}, {"tor", "agg"}, 0, "agg", 2, 3, 2},
            {"pods", false, {0, 3, 4, 9, 14, 15}, {"tor", "core"}, 0.01, "core", 5, 6, 2},
            {"pods, 3 tiers",
             false,
             {0, 3, 4, 9, 14, 15},
             {"tor", "agg", "core"},
             0.01,
             "core",
             4,
             7,
             3},
            {"pods, no tor", false, {0, 3, 4, 9, 14}, {"agg", "core"}, 0, "core", 4, 2, 2},
            {"leaf-spine", true, Range(0, 16), {"leaf", "spine"}, 0.01, "spine", 4, 5, 2},
        };
        for (const Case& c : cases)
        {
            InaFabricHelper helper;
            helper.SetLossRate(c.loss);
            helper.SetStreamBase(21);
            Ptr<InaFabric> fabric =
                c.leafSpine
                    ? helper.Build(InaTopology::LeafSpine(4, 2, 4, {GBPS_100, US}, {GBPS_100, US}))
                    : helper.Build(InaTopology::FatTree(4, {GBPS_100, US}, {GBPS_100, US}));
            JobSpec spec;
            spec.hosts = c.hosts;
            spec.tiers = c.tiers;
            spec.tensorBytes = {400000, 5000};
            JobRun run(fabric, spec);
            const auto& tree = run.protocol->GetTree();
            const InaTopology& topo = fabric->GetTopology();
            NS_TEST_EXPECT_MSG_EQ(tree.size(), c.treeSize, c.name << ": aggregating switches");
            NS_TEST_EXPECT_MSG_EQ(topo.GetTier(tree[0].node), c.rootTier, c.name << ": root");
            NS_TEST_EXPECT_MSG_EQ(tree[0].fanIn, c.rootFanIn, c.name << ": root fan-in");
            NS_TEST_EXPECT_MSG_EQ(run.protocol->GetCounters().at("tree_levels"),
                                  c.levels,
                                  c.name << ": levels");
            for (size_t i = 1; i < tree.size(); ++i)
            {
                const auto parent = std::find_if(tree.begin(), tree.end(), [&](const auto& ts) {
                    return ts.node == tree[i].parent;
                });
                NS_TEST_ASSERT_MSG_EQ((parent != tree.end()), true, c.name << ": parent");
                NS_TEST_EXPECT_MSG_GT(topo.GetLevel(parent->node),
                                      topo.GetLevel(tree[i].node),
                                      c.name << ": parent above");
                NS_TEST_EXPECT_MSG_LT(tree[i].childId, parent->fanIn, c.name << ": child id");
            }
            RunJobs({&run});
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, c.name << ": done");
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, c.name << ": exact");
            NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::STALE_CONTRIBUTION),
                                  0,
                                  c.name << ": ordered");
            if (c.treeSize > 1)
            {
                NS_TEST_EXPECT_MSG_EQ(tree[0].program->GetReasonCount(SwitchMlProgram::COMPLETED),
                                      3125 + 40,
                                      c.name << ": every phase completes once at the root");
            }
            if (c.loss > 0)
            {
                NS_TEST_EXPECT_MSG_GT(TreeReason(run, SwitchMlProgram::DUPLICATE_RESENT_UP),
                                      0,
                                      c.name << ": partials re-sent up");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup switchml-test
 * Three aggregation levels (the paper's Section 6 with H = 3): all 16 hosts of a k=4 fat-tree with
 * ToRs, aggs and cores allowed aggregate at their 8 ToRs, at the one agg of each pod linked to
 * the root core, and at that core. Every ToR and agg has two contributors and sends one partial
 * per phase to its parent; the root completes each phase once. Under 1 % loss on every link the
 * result is still exact and every level's shadow copy answers resends: ToRs and aggs re-send
 * their stored partials up, the root answers duplicates, and a resend that reaches the root from
 * a ToR crosses an agg that has already counted that ToR. With 64 elements and block exponents (the
 * NSDI'21 variant) every level reads a partial's high halves in a second pass.
 */
class SwitchMlThreeLevelTestCase : public TestCase
{
  public:
    SwitchMlThreeLevelTestCase(double loss, bool nsdi)
        : TestCase(std::string("three aggregation levels on a k=4 fat-tree") +
                   (loss > 0 ? ", 1 % loss" : "") +
                   (nsdi ? ", 64 elements and block exponents" : "") + ": exact")
        , m_loss(loss)
        , m_nsdi(nsdi)
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        helper.SetLossRate(m_loss);
        helper.SetStreamBase(31);
        Ptr<InaFabric> fabric =
            helper.Build(InaTopology::FatTree(4, {GBPS_100, US}, {GBPS_100, US}));
        const InaTopology& topo = fabric->GetTopology();
        JobSpec spec;
        spec.hosts = Range(0, 16);
        spec.tiers = {"tor", "agg", "core"};
        spec.tensorBytes = {400000, 5000};
        if (m_nsdi)
        {
            spec.attributes = {{"ElementsPerPacket", "64"}, {"Quantizer", "block-exponent"}};
        }
        JobRun run(fabric, spec);
        const auto& tree = run.protocol->GetTree();
        NS_TEST_ASSERT_MSG_EQ(tree.size(), 13u, "a core, 4 aggs and 8 ToRs");
        NS_TEST_EXPECT_MSG_EQ(run.protocol->GetCounters().at("tree_levels"), 3, "three levels");
        std::map<std::string, uint32_t> perTier;
        for (const auto& ts : tree)
        {
            const std::string& tier = topo.GetTier(ts.node);
            ++perTier[tier];
            const uint32_t fanIn = tier == "core" ? 4 : 2;
            NS_TEST_EXPECT_MSG_EQ(ts.fanIn, fanIn, "fan-in at " << tier);
            if (tier == "tor")
            {
                NS_TEST_EXPECT_MSG_EQ(topo.GetTier(ts.parent), "agg", "a ToR's parent");
                NS_TEST_EXPECT_MSG_EQ(fabric->GetRoutes().Distance(ts.node, ts.parent),
                                      1,
                                      "in its pod");
            }
            if (tier == "agg")
            {
                NS_TEST_EXPECT_MSG_EQ(ts.parent, tree[0].node, "an agg's parent is the root");
                NS_TEST_EXPECT_MSG_EQ(fabric->GetRoutes().Distance(ts.node, ts.parent),
                                      1,
                                      "linked to the root");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(perTier["core"], 1u, "one core");
        NS_TEST_EXPECT_MSG_EQ(perTier["agg"], 4u, "an agg per pod");
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact");
        NS_TEST_EXPECT_MSG_EQ(TreeReason(run, SwitchMlProgram::STALE_CONTRIBUTION), 0, "ordered");
        // 32 elements: 100,000 + 1,250 values in 3,125 + 40 chunks; 64 elements: 1,563 + 20, and
        // block exponents add an exponent-only first phase per slot and tensor.
        const uint64_t phases = m_nsdi ? 0 : 3125 + 40;
        if (!m_nsdi)
        {
            NS_TEST_EXPECT_MSG_EQ(tree[0].program->GetReasonCount(SwitchMlProgram::COMPLETED),
                                  phases,
                                  "every phase completes once at the root");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(TreeReason(run, SwitchMlProgram::HARVEST_PASSES),
                                  0,
                                  "64-element partials and results read their high halves");
        }
        uint64_t aggPartials = 0;
        uint64_t aggResent = 0;
        uint64_t torResent = 0;
        for (const auto& ts : tree)
        {
            const std::string& tier = topo.GetTier(ts.node);
            if (tier == "agg")
            {
                aggPartials += ts.program->GetReasonCount(SwitchMlProgram::PARTIAL_SENT_UP);
                aggResent += ts.program->GetReasonCount(SwitchMlProgram::DUPLICATE_RESENT_UP);
            }
            if (tier == "tor")
            {
                torResent += ts.program->GetReasonCount(SwitchMlProgram::DUPLICATE_RESENT_UP);
            }
        }
        if (m_loss == 0)
        {
            NS_TEST_EXPECT_MSG_EQ(aggPartials,
                                  4 * tree[0].program->GetReasonCount(SwitchMlProgram::COMPLETED),
                                  "each agg sends each phase up once");
            NS_TEST_EXPECT_MSG_EQ(fabric->GetTotalLinkCounters().lost, 0, "nothing lost");
            NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "none");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "resent");
            NS_TEST_EXPECT_MSG_GT(torResent, 0, "ToRs re-send stored partials up");
            NS_TEST_EXPECT_MSG_GT(aggResent, 0, "aggs re-send stored partials up");
            NS_TEST_EXPECT_MSG_GT(
                tree[0].program->GetReasonCount(SwitchMlProgram::DUPLICATE_REPLIED),
                0,
                "the root answers resends from its shadow copy");
        }
        Simulator::Destroy();
    }

    double m_loss;
    bool m_nsdi;
};

/**
 * \ingroup switchml-test
 * 64 workers in 16 racks of a k=8 fat-tree, aggregated at the ToRs and a core: the agg of each of
 * the 4 pods forwards its 4 racks' partials on its one link to the root, so the automatic window is
 * that link's share (100 Gb/s over 4) times the round trip, and the job can never have more than
 * 4 x window packets on any link. With check_values the result is exact; no link queue ever holds
 * more than that bound, and since the bound is below the (small, 400 KB) queues, nothing is
 * dropped, where a window sized to the workers' own links would overflow them.
 */
class SwitchMlSharedLinkWindowTestCase : public TestCase
{
  public:
    SwitchMlSharedLinkWindowTestCase()
        : TestCase("self-clocked window at scale: racks sharing a link to the root")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t queueBytes = 400000;
        InaFabricHelper helper;
        helper.SetQueue(queueBytes, 0);
        Ptr<InaFabric> fabric =
            helper.Build(InaTopology::FatTree(8, {GBPS_100, US}, {GBPS_100, US}));
        JobSpec spec;
        spec.hosts = Range(0, 64);
        spec.tiers = {"tor", "core"};
        spec.tensorBytes = {1000000};
        JobRun run(fabric, spec);
        Ptr<SwitchMlProtocol> p = run.protocol;
        const auto& tree = p->GetTree();
        NS_TEST_ASSERT_MSG_EQ(tree.size(), 17u, "16 racks and the root");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetTopology().GetTier(tree[0].node), "core", "root");
        NS_TEST_ASSERT_MSG_EQ(p->GetMaxLinkStreams(), 4u, "a pod's 4 racks share its agg's link");
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact");
        const uint64_t window = p->GetWindow();
        // Sized to the worker's own 100 Gb/s link the window would be four times as many slots,
        // 1,024, and 4 x 1,024 x 180 B = 737 KB would not fit the 400 KB queue.
        NS_TEST_EXPECT_MSG_EQ(window, 256u, "sized to a quarter of the shared link");
        const uint64_t bound = p->GetMaxLinkStreams() * window * p->GetWireBytes(true);
        NS_TEST_ASSERT_MSG_LT(bound, queueBytes, "the bound fits the queue");
        uint64_t peak = 0;
        InaLinkCounters total = fabric->GetTotalLinkCounters();
        for (uint32_t l = 0; l < fabric->GetTopology().GetNLinks(); ++l)
        {
            for (int e = 0; e < 2; ++e)
            {
                peak = std::max(peak, fabric->GetLinkPort(l, e)->GetCounters().peakBacklogBytes);
            }
        }
        NS_TEST_EXPECT_MSG_LT_OR_EQ(peak, bound, "no queue above streams x window x packet");
        NS_TEST_EXPECT_MSG_EQ(total.drops, 0, "so no drops");
        NS_TEST_EXPECT_MSG_EQ(run.SumCounter(&SwitchMlAgent::Counters::timeouts),
                              0,
                              "and no retransmissions");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * Pool sizes of 1 slot (a window of one packet) and of the pipeline's maximum (40,960 slots at 32
 * elements, every one used and reused), exact, the first under 0.1 % loss.
 */
class SwitchMlPoolExtremesTestCase : public TestCase
{
  public:
    SwitchMlPoolExtremesTestCase()
        : TestCase("pool of 1 slot and pool of the pipeline's maximum")
    {
    }

  private:
    void DoRun() override
    {
        {
            Ptr<InaFabric> fabric = Star(4, 0.001, 8);
            JobSpec spec = FirstHostsJob(4, {40000, 333});
            spec.attributes = {{"PoolSize", "1"}, {"SwitchPoolSize", "1"}};
            JobRun run(fabric, spec);
            RunJobs({&run});
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "pool of 1 done");
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "pool of 1 exact");
            NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetWindow(), 1, "window 1");
            NS_TEST_EXPECT_MSG_EQ(run.protocol->GetTree()[0].program->GetPeakSlotsInUse(),
                                  1,
                                  "one slot");
            Simulator::Destroy();
        }
        {
            const uint32_t max = CreateObject<SwitchMlProgram>()->GetMaxPoolSize(PipelineLimits{});
            NS_TEST_ASSERT_MSG_EQ(max, 40960, "the Tofino-like maximum");
            // A 7.4 MB window: NIC queues that hold it, or most of it would be tail-dropped.
            Ptr<InaFabric> fabric = Star(2, 0, 0, 16000000);
            JobSpec spec;
            spec.hosts = {0, 1};
            spec.tensorBytes = {uint64_t(max) * 128 * 3 / 2};
            // Worker 1 starts once worker 0 has sent its whole window, so every slot is open.
            spec.startPs = {0, 600 * US};
            // Its last packets leave the NIC 590 us after the first: an RTO of 10 ms (the NSDI'21
            // code's default) rather than 1 ms, or the tail of each window would be re-sent.
            spec.attributes = {{"PoolSize", std::to_string(max)},
                               {"SwitchPoolSize", std::to_string(max)},
                               {"Rto", "10ms"}};
            JobRun run(fabric, spec);
            RunJobs({&run});
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "max pool done");
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "max pool exact");
            NS_TEST_EXPECT_MSG_EQ(run.agents[0]->GetWindow(), max, "window = pool");
            NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "no drop");
            NS_TEST_EXPECT_MSG_EQ(run.protocol->GetTree()[0].program->GetPeakSlotsInUse(),
                                  max,
                                  "every slot in use at once");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup switchml-test
 * Through TrainingJob and WorkerApp, as a scenario runs it: 8 workers, a three-layer model whose
 * gradients are handed as each backward pass ends (several tensors outstanding), 3 iterations,
 * 0.1 % loss: the job completes and its own exactness check finds no error.
 */
class SwitchMlTrainingJobTestCase : public TestCase
{
  public:
    SwitchMlTrainingJobTestCase()
        : TestCase("a training job over SwitchML completes and passes its value check")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(8, 0.001, 17);
        ModelSpec model;
        model.name = "three-layers";
        model.layers.push_back({"l0", 40000, 1000000, 2000000});
        model.layers.push_back({"l1", 250000, 3000000, 6000000});
        model.layers.push_back({"l2", 4004, 1000000, 1000000});
        JobContext ctx;
        ctx.fabric = fabric;
        ctx.jobId = 4;
        ctx.name = "train";
        ctx.workerHosts = Range(0, 8);
        ctx.inaTiers = {"tor"};
        ctx.seed = 5;
        ctx.checkValues = true;
        ctx.flowIdBase = 4 * JobContext::FLOW_IDS_PER_JOB;
        Ptr<SwitchMlProtocol> protocol = CreateObject<SwitchMlProtocol>();
        Ptr<TrainingJob> job = CreateObject<TrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(3));
        job->Setup(ctx, model, protocol);
        job->Start();
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        NS_TEST_EXPECT_MSG_EQ(job->GetValuesChecked(),
                              3ULL * 8 * (10000 + 62500 + 1001),
                              "every element of every worker, every iteration");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "exact within the bound");
        Simulator::Destroy();
    }
};

/**
 * \ingroup switchml-test
 * Long: the paper's 100 MB tensor, 8 workers, loss 0 to 1 % (INASIM_LONG_TESTS=1).
 */
class SwitchMlLongLossTestCase : public TestCase
{
  public:
    SwitchMlLongLossTestCase(double loss)
        : TestCase("100 MB, 8 workers, loss " + std::to_string(loss * 100).substr(0, 4) + " %")
        , m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(8, m_loss, 31);
        JobRun run(fabric, FirstHostsJob(8, {100000000}));
        RunJobs({&run}, Seconds(30));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact");
        if (m_loss == 0)
        {
            const double bound = 781250.0 * 180 * 8 / 1e11;
            NS_TEST_EXPECT_MSG_LT((run.LastFinishPs() * 1e-12), bound * 1.02, "line rate");
        }
        Simulator::Destroy();
    }

    double m_loss;
};

/**
 * \ingroup switchml-test
 * The SwitchML end-to-end test suite.
 */
class SwitchMlProtocolTestSuite : public InaTestSuite
{
  public:
    SwitchMlProtocolTestSuite()
        : InaTestSuite("switchml-protocol", Type::UNIT)
    {
        AddTestCase(new SwitchMlStarTestCase);
        AddTestCase(new SwitchMlNsdiTestCase);
        AddTestCase(new SwitchMlFloat16TestCase);
        AddTestCase(new SwitchMlOneWorkerJobTestCase);
        for (double loss : {0.0, 0.0001, 0.001, 0.01})
        {
            AddTestCase(new SwitchMlLossTestCase(loss, false));
        }
        AddTestCase(new SwitchMlLossTestCase(0.01, true));
        AddTestCase(new SwitchMlVersionsTestCase);
        AddTestCase(new SwitchMlTimerTestCase);
        AddTestCase(new SwitchMlStaleResultTestCase);
        AddTestCase(new SwitchMlMultiJobTestCase);
        AddTestCase(new SwitchMlSetupErrorTestCase);
        AddTestCase(new SwitchMlMultiRackTestCase);
        AddTestCase(new SwitchMlThreeLevelTestCase(0, false));
        AddTestCase(new SwitchMlThreeLevelTestCase(0.01, false));
        AddTestCase(new SwitchMlThreeLevelTestCase(0.01, true));
        AddTestCase(new SwitchMlSharedLinkWindowTestCase);
        AddTestCase(new SwitchMlPoolExtremesTestCase);
        AddTestCase(new SwitchMlTrainingJobTestCase);
        const char* longTests = std::getenv("INASIM_LONG_TESTS");
        if (longTests != nullptr && std::string(longTests) == "1")
        {
            for (double loss : {0.0, 0.0001, 0.001, 0.01})
            {
                AddTestCase(new SwitchMlLongLossTestCase(loss));
            }
        }
    }
};

/// Static instance registering the suite.
SwitchMlProtocolTestSuite g_switchMlProtocolTestSuite;

} // namespace
