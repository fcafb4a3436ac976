/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// End-to-end tests of ATP through the protocol and agent API on real fabrics (star, leaf-spine,
// fat-tree): every worker all-reduces real gradients (GradientValues) and gets back their sum
// within the quantization bound. A hash collision between two jobs (the loser falls back to its
// parameter server, both exact); lost parameter packets recovered by fast retransmit and by the
// timeout; two-level aggregation with racks holding part of a job; random loss up to 1 % with
// several jobs; 16 jobs at once on a small hash range; the window's additive increase and ECN
// decrease; the first-packet timeout; two parameter servers; set-up errors. After every run no
// aggregator is left held. Set INASIM_LONG_TESTS=1 for 16 jobs x 8 workers under 1 % loss.

#include "../../ina-protocol-kit/test/protocol-test-fabric.h"

#include "ns3/atp-agent.h"
#include "ns3/atp-parameter-server.h"
#include "ns3/atp-program.h"
#include "ns3/atp-protocol.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/pipeline.h"
#include "ns3/pool-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using namespace ns3::tests;

using JobSpec = SmallJobSpec;

/// One ATP job, and ATP's counters summed over its servers and switches.
class JobRun : public TypedJobRun<AtpProtocol, AtpAgent>
{
  public:
    JobRun(Ptr<InaFabric> fabric, const JobSpec& spec)
        : TypedJobRun(fabric, spec)
    {
    }

    /// A parameter-server counter summed over the job's servers.
    uint64_t Ps(uint64_t AtpParameterServer::Counters::*field) const
    {
        uint64_t s = 0;
        for (const auto& t : protocol->GetTrees())
        {
            s += t.server->GetCounters().*field;
        }
        return s;
    }

    /// Fragments one worker sends for the tensors (no resends).
    uint64_t Fragments() const
    {
        uint64_t f = 0;
        for (uint64_t b : GetSpec().tensorBytes)
        {
            f += (b / 4 + PoolHeader::VALUES - 1) / PoolHeader::VALUES;
        }
        return f;
    }
};

/// ATP's jobs here take at most 2 simulated seconds unless a test says otherwise.
const JobsRunner RunJobs(2);

/// Drops chosen parameter packets on their way into one worker's agent.
class ResultDropper : public EndpointTap
{
  public:
    ResultDropper(Ptr<InaHost> host, uint16_t endpoint, Ptr<AtpAgent> agent)
        : EndpointTap(host, endpoint, agent)
    {
    }

    uint64_t dropSeq = 0;
    uint32_t dropCount = 1;
    uint32_t dropped = 0;

  private:
    bool Pass(const InaPacket* p) override
    {
        if (p->seq == dropSeq && dropped < dropCount)
        {
            ++dropped;
            return false;
        }
        return true;
    }
};

/**
 * \ingroup atp-test
 * 8 workers and their parameter server in one rack, three tensors (1 MB, 10 kB and one 62-value
 * fragment; 4033 + 41 + 1 = 4075 fragments): every fragment completes in the switch (one full
 * aggregate per fragment reaches the PS, nothing falls back), no resend, every element within
 * the bound, 306-B frames, and every aggregator is freed by its parameter packet.
 */
class AtpStarTestCase : public TestCase
{
  public:
    AtpStarTestCase()
        : TestCase("one rack: every fragment aggregated in the switch, exact, all freed")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(9);
        JobSpec spec;
        spec.hosts = Range(0, 8);
        spec.ps = {8};
        spec.tensorBytes = {1000000, 10000, 248};
        JobRun run(fabric, spec);
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "every worker done");
        double worst = 0;
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(&worst), 0, "worst error " << worst);
        NS_TEST_EXPECT_MSG_LT(worst, run.protocol->ValueTolerance(8, 1.0), "within the bound");
        NS_TEST_EXPECT_MSG_GT(worst, 0, "quantization does show");
        const uint64_t f = 4075;
        NS_TEST_EXPECT_MSG_EQ(run.Fragments(), f, "fragments");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::packetsSent), 8 * f, "sent");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::wireBytesSent),
                              8 * f * 306,
                              "306-B frames");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "no resend");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::psFallbackPackets), 0, "none");
        NS_TEST_EXPECT_MSG_EQ(run.Ps(&AtpParameterServer::Counters::fullAggregates), f, "full");
        NS_TEST_EXPECT_MSG_EQ(run.Ps(&AtpParameterServer::Counters::partials), 0, "no partial");
        NS_TEST_EXPECT_MSG_EQ(run.Ps(&AtpParameterServer::Counters::results), f, "one each");
        NS_TEST_EXPECT_MSG_EQ(run.Reason(AtpProgram::COMPLETED), f, "completions");
        NS_TEST_EXPECT_MSG_EQ(run.Reason(AtpProgram::ABSORBED), 7 * f, "absorbed");
        NS_TEST_EXPECT_MSG_EQ(run.Reason(AtpProgram::ALLOCATED), f, "allocations");
        NS_TEST_EXPECT_MSG_EQ(run.Reason(AtpProgram::ACK_FREED), f, "all freed by their ACK");
        NS_TEST_EXPECT_MSG_EQ(run.Reason(AtpProgram::COLLISION),
                              0,
                              "a job never collides "
                              "with itself");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        const auto& tree = run.protocol->GetTrees()[0];
        NS_TEST_EXPECT_MSG_EQ(tree.groups.size(), 1, "one group: the rack");
        NS_TEST_EXPECT_MSG_EQ(tree.level2, false, "one level");
        NS_TEST_EXPECT_MSG_EQ(run.protocol->GetWorkerRoute(0, 5).bitmap0, 1u << 5, "position");
        NS_TEST_EXPECT_MSG_EQ(+run.protocol->GetWorkerRoute(0, 5).fanIn0, 8, "fan-in");
        // The window starts below the bandwidth-delay product and grows: at most the wire's
        // pace, no worse than twice it.
        const double bound = f * 306 * 8 / 1e11;
        const double t = run.LastFinishPs() * 1e-12;
        NS_TEST_EXPECT_MSG_GT(t, bound, "not faster than the wire");
        NS_TEST_EXPECT_MSG_LT(t, 2 * bound, "near it");
        NS_TEST_EXPECT_MSG_GT(run.agents[0]->GetWindow(), 196, "the window grew");
        Simulator::Destroy();
    }
};

/**
 * \ingroup atp-test
 * Two jobs whose every fragment hashes to aggregator 0 (HashRange 1, window 1), one fragment
 * each; job 1 starts first and holds the aggregator from its first packet (1.02 us) to its
 * parameter packet (about 3.5 us); job 2's packets reach the switch at 2.02 us: both are marked
 * collision and go to job 2's PS, which aggregates them; both sums are exact; job 2's parameter
 * packet frees nothing, job 1's frees the aggregator.
 */
class AtpCollisionTestCase : public TestCase
{
  public:
    AtpCollisionTestCase()
        : TestCase("a hash collision between two jobs: the loser falls back, both exact")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(6);
        JobSpec a;
        a.hosts = {0, 1};
        a.ps = {2};
        a.tensorBytes = {248};
        a.attributes = {{"HashRange", "1"},
                        {"MaxWindow", "1"},
                        {"MinWindow", "1"},
                        {"InitialWindow", "1"}};
        JobSpec b = a;
        b.jobId = 2;
        b.name = "j2";
        b.hosts = {3, 4};
        b.ps = {5};
        b.seed = 9;
        b.startPs = {US, US};
        JobRun ra(fabric, a);
        JobRun rb(fabric, b);
        NS_TEST_EXPECT_MSG_EQ(ra.protocol->GetIndexTable()[0], 0, "index 0");
        NS_TEST_EXPECT_MSG_EQ(rb.protocol->GetIndexTable()[0], 0, "index 0 too");
        NS_TEST_EXPECT_MSG_EQ(ra.protocol->GetSwitches()[0].program,
                              rb.protocol->GetSwitches()[0].program,
                              "one shared program");
        RunJobs({&ra, &rb});
        NS_TEST_ASSERT_MSG_EQ((ra.Complete() && rb.Complete()), true, "both done");
        NS_TEST_EXPECT_MSG_EQ(ra.ValueErrors() + rb.ValueErrors(), 0, "both exact");
        Ptr<PoolProgram> program = ra.protocol->GetSwitches()[0].program;
        NS_TEST_EXPECT_MSG_EQ(program->GetReasonCount(AtpProgram::COLLISION), 2, "two collided");
        NS_TEST_EXPECT_MSG_EQ(program->GetReasonCount(AtpProgram::COMPLETED), 1, "job 1 only");
        NS_TEST_EXPECT_MSG_EQ(program->GetReasonCount(AtpProgram::ACK_FREED), 1, "job 1's ACK");
        NS_TEST_EXPECT_MSG_EQ(program->GetReasonCount(AtpProgram::ACK_PASSED), 1, "job 2's ACK");
        NS_TEST_EXPECT_MSG_EQ(ra.Ps(&AtpParameterServer::Counters::fullAggregates), 1, "switch");
        NS_TEST_EXPECT_MSG_EQ(ra.Sum(&AggregationAgent::Stats::psFallbackPackets), 0, "none");
        NS_TEST_EXPECT_MSG_EQ(rb.Ps(&AtpParameterServer::Counters::partials), 2, "PS merged");
        NS_TEST_EXPECT_MSG_EQ(rb.Ps(&AtpParameterServer::Counters::collisions), 2, "marked");
        NS_TEST_EXPECT_MSG_EQ(rb.agents[0]->GetStats().psFallbackPackets, 1, "worker 0's");
        NS_TEST_EXPECT_MSG_EQ(rb.agents[1]->GetStats().psFallbackPackets, 1, "worker 1's");
        NS_TEST_EXPECT_MSG_EQ(rb.SumCounter(&AtpAgent::Counters::collidedResults),
                              2,
                              "the parameter packet says it collided");
        NS_TEST_EXPECT_MSG_EQ(program->GetPeakAggregatorsInUse(), 1, "one aggregator");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        Simulator::Destroy();

        // Many fragments on 64 shared aggregators: contention both ways, still exact.
        Ptr<InaFabric> star = Star(10);
        a.attributes = {{"HashRange", "64"},
                        {"MaxWindow", "64"},
                        {"MinWindow", "8"},
                        {"InitialWindow", "32"}};
        a.hosts = {0, 1, 2, 3};
        a.ps = {4};
        a.tensorBytes = {200000, 30000};
        b.attributes = a.attributes;
        b.hosts = {5, 6, 7, 8};
        b.ps = {9};
        b.tensorBytes = {150000, 50000};
        b.startPs = {};
        JobRun ca(star, a);
        JobRun cb(star, b);
        RunJobs({&ca, &cb});
        NS_TEST_ASSERT_MSG_EQ((ca.Complete() && cb.Complete()), true, "both done");
        NS_TEST_EXPECT_MSG_EQ(ca.ValueErrors() + cb.ValueErrors(), 0, "both exact");
        NS_TEST_EXPECT_MSG_GT(ca.Reason(AtpProgram::COLLISION), 100, "contention");
        NS_TEST_EXPECT_MSG_GT(ca.Sum(&AggregationAgent::Stats::psFallbackPackets) +
                                  cb.Sum(&AggregationAgent::Stats::psFallbackPackets),
                              100,
                              "fallback traffic");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(
            ca.protocol->GetSwitches()[0].program->GetPeakAggregatorsInUse(),
            64,
            "within the range");
        NS_TEST_EXPECT_MSG_EQ(star->GetAggregatorsInUse(), 0, "nothing left held");
        NS_TEST_EXPECT_MSG_EQ(ca.Ps(&AtpParameterServer::Counters::evictedIncomplete) +
                                  cb.Ps(&AtpParameterServer::Counters::evictedIncomplete),
                              0,
                              "the PS ring never drops an open fragment");
        Simulator::Destroy();
    }
};

/**
 * \ingroup atp-test
 * A lost parameter packet: worker 3 misses the result of fragment 10. The result of 11 arrives
 * out of order, so worker 3 resends fragment 10 at once (one packet); its aggregator was freed by
 * the lost packet's pass through the switch, so the resend goes on to the PS, which answers with
 * the stored sum (once more to every worker: the seven others drop a duplicate). Then the last
 * fragment's result is lost, with nothing after it: worker 3's timer resends it one RTO
 * (200 us) after the last arrival.
 */
class AtpLostResultTestCase : public TestCase
{
  public:
    AtpLostResultTestCase()
        : TestCase("a lost result is recovered through a resend: fast, and by the timeout")
    {
    }

  private:
    void DoRun() override
    {
        for (const uint64_t lost : {10, 100})
        {
            Ptr<InaFabric> fabric = Star(9);
            JobRun run(fabric, OneRack(8, 100));
            ResultDropper drop(fabric->GetHost(3), run.protocol->GetEndpoint(), run.agents[3]);
            drop.dropSeq = lost;
            RunJobs({&run});
            const std::string where = "result " + std::to_string(lost) + " lost";
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "every worker done, " << where);
            NS_TEST_EXPECT_MSG_EQ(drop.dropped, 1, "dropped once");
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact, " << where);
            NS_TEST_EXPECT_MSG_EQ(run.agents[3]->GetStats().retransmissions, 1, "one resend");
            NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions),
                                  1,
                                  "nobody else resent");
            NS_TEST_EXPECT_MSG_EQ(run.Ps(&AtpParameterServer::Counters::resends), 1, "at the PS");
            NS_TEST_EXPECT_MSG_EQ(run.Ps(&AtpParameterServer::Counters::results),
                                  101,
                                  "answered again");
            NS_TEST_EXPECT_MSG_EQ(run.Reason(AtpProgram::RESEND_PASSED), 1, "freed already");
            NS_TEST_EXPECT_MSG_EQ(run.SumCounter(&AtpAgent::Counters::duplicateResults),
                                  7,
                                  "the others drop the extra copy");
            NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
            if (lost == 10)
            {
                NS_TEST_EXPECT_MSG_EQ(run.agents[3]->GetCounters().fastRetransmits, 1, "fast");
                NS_TEST_EXPECT_MSG_EQ(run.agents[3]->GetCounters().timeouts, 0, "no timeout");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(run.agents[3]->GetCounters().fastRetransmits, 0, "none");
                NS_TEST_EXPECT_MSG_EQ(run.agents[3]->GetCounters().timeouts, 1, "the timer");
                const int64_t late = run.FinishPs(3) - run.FinishPs(0);
                NS_TEST_EXPECT_MSG_GT_OR_EQ(late, 200 * US, "one RTO later");
                NS_TEST_EXPECT_MSG_LT(late, 210 * US, "plus one round trip");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup atp-test
 * Two levels on a leaf-spine (3 leaves of 4 hosts): workers 0-2 under leaf0, 3-4 under leaf1,
 * worker 5 beside the PS under leaf2. leaf0 and leaf1 aggregate their racks (level 1, groups 0
 * and 1), worker 5 is group 2 on its own, leaf2 aggregates the three groups (level 2). Every
 * fragment completes once at each of the three switches and reaches the PS as one full
 * aggregate; a second job on the same leaves, later, shares their pools. On a k=4 fat-tree the same
 * holds across pods (the cores and aggregation switches only forward).
 */
class AtpTwoLevelTestCase : public TestCase
{
  public:
    AtpTwoLevelTestCase()
        : TestCase("two levels: racks holding part of a job, exact on leaf-spine and fat-tree")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LeafSpine(3, 2, 4);
        JobSpec spec;
        spec.hosts = {0, 1, 2, 4, 5, 8};
        spec.ps = {9};
        spec.tiers = {"leaf"};
        spec.tensorBytes = {300000, 5000};
        JobSpec other = spec;
        other.jobId = 2;
        other.name = "j2";
        other.hosts = {3, 6, 7};
        other.ps = {10};
        other.seed = 11;
        // After job 1 is done: the pools are shared, the time is not (no collision to count).
        other.startPs = {500 * US, 500 * US, 500 * US};
        JobRun run(fabric, spec);
        JobRun second(fabric, other);
        const auto& tree = run.protocol->GetTrees()[0];
        NS_TEST_ASSERT_MSG_EQ(tree.groups.size(), 3, "three groups");
        NS_TEST_EXPECT_MSG_EQ(tree.groups[0].ranks.size(), 3, "leaf0's rack");
        NS_TEST_EXPECT_MSG_EQ(tree.groups[0].aggregates, true, "level 1");
        NS_TEST_EXPECT_MSG_EQ(tree.groups[1].ranks.size(), 2, "leaf1's rack");
        NS_TEST_EXPECT_MSG_EQ(tree.groups[2].aggregates, false, "beside the PS");
        NS_TEST_EXPECT_MSG_EQ(tree.level2, true, "leaf2 aggregates the groups");
        const auto& w5 = run.protocol->GetWorkerRoute(0, 5);
        NS_TEST_EXPECT_MSG_EQ(w5.edge, true, "worker 5 skips level 1");
        NS_TEST_EXPECT_MSG_EQ(w5.bitmap1, 4, "group 2");
        NS_TEST_EXPECT_MSG_EQ(+w5.fanIn1, 3, "three groups");
        const auto& w4 = run.protocol->GetWorkerRoute(0, 4);
        NS_TEST_EXPECT_MSG_EQ(w4.bitmap0, 2, "second in leaf1's rack");
        NS_TEST_EXPECT_MSG_EQ(+w4.fanIn0, 2, "two there");
        NS_TEST_EXPECT_MSG_EQ(run.protocol->GetSwitches().size(), 3, "three switches");
        RunJobs({&run, &second});
        NS_TEST_ASSERT_MSG_EQ((run.Complete() && second.Complete()), true, "both done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors() + second.ValueErrors(), 0, "exact");
        const uint64_t f = run.Fragments();
        for (const auto& e : run.protocol->GetSwitches())
        {
            NS_TEST_EXPECT_MSG_EQ(e.program->GetReasonCount(AtpProgram::COLLISION),
                                  0,
                                  "no contention here");
        }
        // leaf0 completes job 1's rack; leaf1 job 1's and job 2's racks (job 2's worker under
        // leaf0 is alone there); leaf2 both jobs' groups.
        const InaTopology& topo = fabric->GetTopology();
        for (const auto& e : run.protocol->GetSwitches())
        {
            const std::string& name = topo.GetNode(e.node).name;
            NS_TEST_EXPECT_MSG_EQ(e.program->GetReasonCount(AtpProgram::COMPLETED),
                                  (name == "leaf0" ? f : 2 * f),
                                  "completions at " << name);
            NS_TEST_EXPECT_MSG_EQ(e.program->GetNJobs(), (name == "leaf0" ? 1u : 2u), name);
        }
        NS_TEST_EXPECT_MSG_EQ(run.Ps(&AtpParameterServer::Counters::fullAggregates), f, "full");
        NS_TEST_EXPECT_MSG_EQ(run.Ps(&AtpParameterServer::Counters::partials), 0, "no partial");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "none");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        NS_TEST_EXPECT_MSG_EQ(run.protocol->GetCounters().at("aggregation_levels"), 2, "two");
        Simulator::Destroy();

        InaFabricHelper helper;
        Ptr<InaFabric> fatTree =
            helper.Build(InaTopology::FatTree(4, {GBPS_100, US}, {GBPS_100, US}));
        JobSpec ft;
        ft.hosts = {0, 1, 2, 5, 9, 12, 13};
        ft.ps = {14};
        ft.tiers = {"tor", "agg", "core"};
        ft.tensorBytes = {200000};
        JobRun rf(fatTree, ft);
        const auto& t = rf.protocol->GetTrees()[0];
        // tor0 holds hosts 0 and 1 (level 1); hosts 2, 5 and 9 are alone in their racks; tor6
        // holds 12 and 13 (level 1); tor7 holds the PS and aggregates the five groups.
        NS_TEST_EXPECT_MSG_EQ(t.groups.size(), 5, "five groups");
        NS_TEST_EXPECT_MSG_EQ(t.groups[0].aggregates, true, "tor0");
        NS_TEST_EXPECT_MSG_EQ(t.groups[1].aggregates, false, "host 2 alone");
        NS_TEST_EXPECT_MSG_EQ(t.groups[4].aggregates, true, "tor6");
        NS_TEST_EXPECT_MSG_EQ(t.level2, true, "tor7");
        RunJobs({&rf});
        NS_TEST_ASSERT_MSG_EQ(rf.Complete(), true, "fat-tree done");
        NS_TEST_EXPECT_MSG_EQ(rf.ValueErrors(), 0, "exact across pods");
        NS_TEST_EXPECT_MSG_EQ(rf.Ps(&AtpParameterServer::Counters::fullAggregates),
                              rf.Fragments(),
                              "aggregated in the network");
        NS_TEST_EXPECT_MSG_EQ(fatTree->GetAggregatorsInUse(), 0, "nothing left held");
        for (const auto& e : rf.protocol->GetSwitches())
        {
            NS_TEST_EXPECT_MSG_EQ(fatTree->GetTopology().GetTier(e.node), "tor", "ToRs only");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup atp-test
 * ATP as GRID's paper describes it (GRID paper, Sec. 3.1 and Fig. 1(b)): one level (Level2
 * false: the PS's rack aggregated at its own switch like any other) and a switch whose
 * aggregation capacity is exhausted passing whole fragments on to the PS (PassWhenFull). Four
 * workers at 3 Gb/s under s1, whose capacity is 6 Gb/s with a 16 kB queue, two more beside the
 * PS under s3. Some fragments pass s1, each with all four of its gradients (none half
 * aggregated), every other fragment completes there; the PS merges the passed gradients; the sums
 * are exact, at 0 and 1 % loss, no aggregator stays held, and s1 never aggregates above 6 Gb/s.
 * Without loss, s1's capacity serves exactly the gradients of the fragments it completes (the
 * decision is the fragment's, at its first gradient, although its aggregator is claimed only
 * when that gradient leaves the queue), and no worker resends: the passing gradients keep their
 * place behind the queued ones, so no result comes back out of order.
 */
class AtpPassWhenFullTestCase : public TestCase
{
  public:
    AtpPassWhenFullTestCase(double loss)
        : TestCase("one level, a full switch passes whole fragments, loss " + std::to_string(loss) +
                   ": exact")
        , m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        helper.SetLossRate(m_loss);
        helper.SetStreamBase(3);
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FromString(
            "defaults rate=3Gbps delay=1us\nswitch s1 tier=tor\nswitch s3 tier=tor\n"
            "host w1..w4 attach=s1\nhost w5..w6 attach=s3\nhost ps attach=s3 rate=9Gbps\n"
            "link s1 s3\n",
            "pass-when-full"));
        const InaTopology& t = fabric->GetTopology();
        const uint32_t s1 = t.FindNode("s1");
        Ptr<Pipeline> pipeline = fabric->GetSwitch(s1)->GetPipeline();
        pipeline->SetAggregationCapacity(6000000000ULL, 0);
        pipeline->SetAttribute("AggregationQueueBytes", UintegerValue(16384));
        JobSpec spec;
        spec.hosts = Nodes(t, {"w1", "w2", "w3", "w4", "w5", "w6"});
        spec.ps = {t.FindNode("ps")};
        spec.tensorBytes = {400000};
        spec.attributes = {{"Level2", "false"}, {"PassWhenFull", "true"}};
        JobRun run(fabric, spec);
        const auto& tree = run.protocol->GetTrees()[0];
        NS_TEST_ASSERT_MSG_EQ(tree.groups.size(), 2, "two racks");
        NS_TEST_EXPECT_MSG_EQ(tree.groups[1].aggregates, true, "the PS's rack aggregates too");
        NS_TEST_EXPECT_MSG_EQ(tree.level2, false, "one level");
        RunJobs({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        const uint64_t passed = run.ReasonAt(s1, AtpProgram::BYPASSED);
        const uint64_t completed = run.ReasonAt(s1, AtpProgram::COMPLETED);
        NS_TEST_EXPECT_MSG_EQ(run.ReasonAt(s1, AtpProgram::COLLISION), 0, "");
        NS_TEST_EXPECT_MSG_GT(passed, 0u, "s1 was full at times");
        const PipelineUsage usage = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_LT_OR_EQ(usage.MeasuredAggregationBps(), 6e9, "capacity held");
        if (m_loss == 0)
        {
            NS_TEST_EXPECT_MSG_EQ(passed % 4, 0u, "whole fragments pass");
            NS_TEST_EXPECT_MSG_EQ(completed + passed / 4, run.Fragments(), "or complete at s1");
            NS_TEST_EXPECT_MSG_EQ(usage.aggregationPackets,
                                  4 * completed,
                                  "s1's capacity spent on the fragments it aggregates only");
            NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "none");
        }
        Simulator::Destroy();
    }

    double m_loss;
};

/**
 * \ingroup atp-test
 * Random loss on every link direction at 0, 0.1 % and 1 %, three jobs on a leaf-spine (one
 * across racks with two levels, one in a rack with its PS, one spread with a small hash range
 * shared by the others): every job completes, every element is exact, no aggregator is left
 * held, the servers never drop an open fragment.
 */
class AtpLossTestCase : public TestCase
{
  public:
    explicit AtpLossTestCase(double loss)
        : TestCase("loss " + std::to_string(loss * 100).substr(0, 4) +
                   " %, three jobs: complete, exact, nothing held")
        , m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LeafSpine(3, 2, 6, m_loss, 17);
        JobSpec a;
        a.hosts = {0, 1, 2, 6, 7};
        a.ps = {12};
        a.tiers = {"leaf"};
        a.tensorBytes = {120000, 3000};
        a.attributes = {{"HashRange", "4096"}};
        JobSpec b = a;
        b.jobId = 2;
        b.name = "j2";
        b.hosts = {13, 14, 15};
        b.ps = {16};
        b.seed = 8;
        JobSpec c = a;
        c.jobId = 3;
        c.name = "j3";
        c.hosts = {3, 8, 17};
        c.ps = {4};
        c.seed = 9;
        c.attributes = {{"HashRange", "512"}, {"MaxWindow", "256"}};
        JobRun ra(fabric, a);
        JobRun rb(fabric, b);
        JobRun rc(fabric, c);
        RunJobs({&ra, &rb, &rc}, Seconds(5));
        for (JobRun* r : {&ra, &rb, &rc})
        {
            NS_TEST_ASSERT_MSG_EQ(r->Complete(), true, "done");
            NS_TEST_EXPECT_MSG_EQ(r->ValueErrors(), 0, "exact");
            NS_TEST_EXPECT_MSG_EQ(r->Ps(&AtpParameterServer::Counters::evictedIncomplete),
                                  0,
                                  "ring");
            uint32_t open = 0;
            for (const auto& t : r->protocol->GetTrees())
            {
                open += t.server->GetOpenFragments();
            }
            NS_TEST_EXPECT_MSG_EQ(open, 0, "nothing open at the PS");
        }
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        const uint64_t lost = fabric->GetTotalLinkCounters().lost;
        const uint64_t resent = ra.Sum(&AggregationAgent::Stats::retransmissions) +
                                rb.Sum(&AggregationAgent::Stats::retransmissions) +
                                rc.Sum(&AggregationAgent::Stats::retransmissions);
        if (m_loss >= 0.01)
        {
            NS_TEST_EXPECT_MSG_GT(lost, 100, "packets were lost");
            NS_TEST_EXPECT_MSG_GT(resent, 0, "and resent");
            NS_TEST_EXPECT_MSG_GT(ra.Reason(AtpProgram::RESEND_FLUSHED), 0, "flushes");
        }
        if (m_loss == 0)
        {
            // Collisions reorder results (a fallback completes later than its successors), and
            // the first out-of-order result resends the gap: ATP's spurious retransmissions.
            NS_TEST_EXPECT_MSG_EQ(lost, 0, "nothing lost");
            NS_TEST_EXPECT_MSG_GT(rc.Reason(AtpProgram::COLLISION), 0, "contention");
            NS_TEST_EXPECT_MSG_EQ(ra.SumCounter(&AtpAgent::Counters::timeouts) +
                                      rb.SumCounter(&AtpAgent::Counters::timeouts) +
                                      rc.SumCounter(&AtpAgent::Counters::timeouts),
                                  0,
                                  "no timeout");
        }
        Simulator::Destroy();
    }

    double m_loss;
};

/**
 * \ingroup atp-test
 * 16 jobs at once on a 48-host star (2 workers and a PS each), all hashing onto 600 aggregators
 * (HashRange 600, 64 slots each), without loss and with 1 % loss on every link: the pool is
 * contended, fragments fall back to the servers, and every job completes exactly with nothing
 * left held.
 */
class AtpManyJobsTestCase : public TestCase
{
  public:
    explicit AtpManyJobsTestCase(double loss)
        : TestCase("16 jobs share one pool, loss " + std::to_string(loss * 100).substr(0, 4) +
                   " %: contention, fallback, all exact")
        , m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(48, m_loss, 5);
        std::vector<std::unique_ptr<JobRun>> runs;
        std::vector<JobRun*> ptrs;
        for (uint32_t j = 0; j < 16; ++j)
        {
            JobSpec s;
            s.jobId = j + 1;
            s.name = "j" + std::to_string(j + 1);
            s.hosts = {3 * j, 3 * j + 1};
            s.ps = {3 * j + 2};
            s.tensorBytes = {40000 + 1000 * j};
            s.seed = 100 + j;
            s.attributes = {{"HashRange", "600"},
                            {"MaxWindow", "64"},
                            {"MinWindow", "4"},
                            {"InitialWindow", "32"}};
            s.startPs = {j * 100000, j * 100000};
            runs.push_back(std::make_unique<JobRun>(fabric, s));
            ptrs.push_back(runs.back().get());
        }
        RunJobs(ptrs);
        uint64_t fallback = 0;
        for (JobRun* r : ptrs)
        {
            NS_TEST_ASSERT_MSG_EQ(r->Complete(), true, "done");
            NS_TEST_EXPECT_MSG_EQ(r->ValueErrors(), 0, "exact");
            fallback += r->Sum(&AggregationAgent::Stats::psFallbackPackets);
        }
        Ptr<PoolProgram> program = runs[0]->protocol->GetSwitches()[0].program;
        NS_TEST_EXPECT_MSG_EQ(program->GetNJobs(), 16, "one program, sixteen jobs");
        NS_TEST_EXPECT_MSG_GT(program->GetReasonCount(AtpProgram::COLLISION), 0, "contention");
        NS_TEST_EXPECT_MSG_GT(fallback, 0, "fallback");
        NS_TEST_EXPECT_MSG_GT(program->GetPeakAggregatorsInUse(), 64, "more than one job's");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(program->GetPeakAggregatorsInUse(), 600, "within the range");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        if (m_loss > 0)
        {
            NS_TEST_EXPECT_MSG_GT(fabric->GetTotalLinkCounters().lost, 100, "lost packets");
        }
        Simulator::Destroy();
    }

    double m_loss;
};

/**
 * \ingroup atp-test
 * The window: with no ECN and no loss it grows by AdditiveIncrease (18000 B) each time the
 * marker fragment's result arrives, the marker moving on by the new window: from 196 packets,
 * markers at 196, 196 + 254, ... over the 4033 fragments of 1 MB: nine increases, 725 packets. With
 * a queue that marks ECN above 3 kB, the window is halved instead.
 */
class AtpWindowTestCase : public TestCase
{
  public:
    AtpWindowTestCase()
        : TestCase("window: additive increase per window, halved on ECN")
    {
    }

  private:
    void DoRun() override
    {
        // The rule by hand: cwnd in bytes, W = floor(cwnd / 306) within [12, 1200].
        double cwnd = 196 * 306.0;
        uint64_t marker = 196;
        uint32_t w = 196;
        uint64_t increases = 0;
        while (marker <= 4033)
        {
            cwnd = std::min(cwnd + 18000, 1200 * 306.0);
            w = std::min<uint32_t>(1200, std::max<uint32_t>(12, cwnd / 306));
            marker += w;
            ++increases;
        }
        Ptr<InaFabric> fabric = Star(3);
        JobSpec spec;
        spec.hosts = {0, 1};
        spec.ps = {2};
        spec.tensorBytes = {1000000};
        JobRun run(fabric, spec);
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done");
        for (const auto& a : run.agents)
        {
            NS_TEST_EXPECT_MSG_EQ(a->GetCounters().increases, increases, "one per window");
            NS_TEST_EXPECT_MSG_EQ(a->GetWindow(), w, "final window");
            NS_TEST_EXPECT_MSG_EQ(a->GetCounters().ecnDecreases, 0, "no ECN");
        }
        // 196, 450, 763, 1135, 1566, 2056, 2604, 3211, 3877; the next (4602) is past the end.
        NS_TEST_EXPECT_MSG_EQ(increases, 9, "nine windows in 4033 fragments");
        NS_TEST_EXPECT_MSG_EQ(w, 725, "(196 x 306 + 9 x 18000) / 306");
        Simulator::Destroy();

        // A window above the path's BDP queues at the workers' own NICs; let those queues mark
        // (the fabric's default marks at switch ports only) to see the window react.
        InaFabricHelper markingHelper;
        markingHelper.SetQueue(1000000, 3000);
        markingHelper.SetEcnAtHosts(true);
        Ptr<InaFabric> marking =
            markingHelper.Build(InaTopology::Star(9, {100000000000ULL, 1000000}));
        spec.hosts = Range(0, 8);
        spec.ps = {8};
        JobRun congested(marking, spec);
        RunJobs({&congested});
        NS_TEST_ASSERT_MSG_EQ(congested.Complete(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(congested.ValueErrors(), 0, "exact");
        NS_TEST_EXPECT_MSG_GT(congested.SumCounter(&AtpAgent::Counters::ecnDecreases), 0, "ECN");
        NS_TEST_EXPECT_MSG_LT(congested.agents[0]->GetWindow(), w, "smaller window");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(congested.agents[0]->GetWindow(), 12, "not below the floor");
        Simulator::Destroy();
    }
};

/**
 * \ingroup atp-test
 * The first-packet timeout: worker 1 starts 1 ms after worker 0. With FirstRto 50 ms worker 0
 * waits without resending; with FirstRto 100 us it times out (and its resends flush the partial
 * aggregates to the PS), and the sums are exact either way.
 */
class AtpFirstRtoTestCase : public TestCase
{
  public:
    AtpFirstRtoTestCase()
        : TestCase("a late worker is not a loss before the first result (FirstRto)")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* first : {"50ms", "100us"})
        {
            Ptr<InaFabric> fabric = Star(3);
            JobSpec spec;
            spec.hosts = {0, 1};
            spec.ps = {2};
            spec.tensorBytes = {50000};
            spec.startPs = {0, 1000 * US};
            spec.attributes = {{"FirstRto", first}};
            JobRun run(fabric, spec);
            RunJobs({&run});
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done, " << first);
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact, " << first);
            NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
            const uint64_t timeouts = run.agents[0]->GetCounters().timeouts;
            if (std::string(first) == "50ms")
            {
                NS_TEST_EXPECT_MSG_EQ(timeouts, 0, "waited");
                NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(timeouts, 0, "timed out");
                NS_TEST_EXPECT_MSG_GT(run.Reason(AtpProgram::RESEND_FLUSHED), 0, "flushed");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup atp-test
 * Two parameter servers: tensors alternate between them (tensor k to server k mod 2), each server
 * gets exactly its tensors' fragments as full aggregates, and the sums are exact.
 */
class AtpTwoServersTestCase : public TestCase
{
  public:
    AtpTwoServersTestCase()
        : TestCase("two parameter servers share a job's tensors")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(6);
        JobSpec spec;
        spec.hosts = {0, 1, 2, 3};
        spec.ps = {4, 5};
        spec.tensorBytes = {24800, 2480, 248, 4960};
        JobRun run(fabric, spec);
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "done");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact");
        const auto& trees = run.protocol->GetTrees();
        NS_TEST_EXPECT_MSG_EQ(trees[0].server->GetCounters().fullAggregates, 100 + 1, "0 and 2");
        NS_TEST_EXPECT_MSG_EQ(trees[1].server->GetCounters().fullAggregates, 10 + 20, "1 and 3");
        NS_TEST_EXPECT_MSG_EQ(run.protocol->GetSwitches()[0].program->GetNJobs(), 2, "two trees");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        Simulator::Destroy();
    }
};

/**
 * \ingroup atp-test
 * Set-ups ATP cannot run fail at install with a message naming the job and what to change.
 */
class AtpSetupErrorTestCase : public TestCase
{
  public:
    AtpSetupErrorTestCase()
        : TestCase("impossible set-ups fail at install, clearly")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(40);
        JobSpec s;
        s.hosts = {0, 1};
        s.ps = {};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): the job has 0 parameter servers; ATP needs 1..4 "
                              "(ps_hosts; its header's PS index has 2 bits)",
                              "no PS");
        s.ps = {1};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): parameter server 0 shares host 1 with another worker "
                              "or parameter server of the job (ATP binds one endpoint per job and "
                              "host)",
                              "PS on a worker");
        s.ps = {2};
        s.jobId = 5000;
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): job id 5000 is outside 1..4095 (ATP endpoints are "
                              "28672 + job id)",
                              "job id");
        s.jobId = 1;
        s.tiers = {};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): no switch would aggregate its gradients: ATP "
                              "aggregates at rack switches (the workers' and the parameter "
                              "server's, tier 'tor') but switch.ina_tiers allows []; add the rack "
                              "tier",
                              "no tier");
        s.tiers = {"tor"};
        s.hosts = Range(0, 32);
        s.ps = {33};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): 32 of its workers are under switch tor0; ATP's 5-bit "
                              "fanInDegree0 and bitmap allow 31 per switch",
                              "32 in a rack");
        s.hosts = {0, 1};
        s.ps = {2};
        s.attributes = {{"MaxWindow", "300"}, {"HashRange", "200"}};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): attribute MaxWindow is 300 slots but the hash range "
                              "has 200 aggregators; each slot of a job needs an aggregator of its "
                              "own",
                              "slots beyond the range");
        s.attributes = {{"HashRange", "30000"}};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): attribute HashRange is 30000 but the smallest ATP "
                              "pool on the job's switches has 20000 aggregators",
                              "range beyond the pool");
        s.attributes = {{"InitialWindow", "5"}, {"MinWindow", "12"}};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (atp): windows MinWindow 12 <= InitialWindow 5 <= MaxWindow "
                              "1200 do not hold",
                              "windows");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetSwitches()[0]->GetPipeline()->GetNPrograms(),
                              0,
                              "nothing installed by a refused job");
        s.attributes = {{"PoolSize", "8000"}};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, s), "", "fine alone");
        JobSpec t = s;
        t.jobId = 2;
        t.name = "j2";
        t.hosts = {3, 4};
        t.ps = {5};
        t.attributes = {{"PoolSize", "9000"}};
        NS_TEST_EXPECT_MSG_EQ(InstallError<JobRun>(fabric, t),
                              "job j2 (atp): switch tor0 already runs ATP with PoolSize 8000 "
                              "(installed by another job) but this job asks for 9000; ATP jobs "
                              "share one pool per switch and must agree on its size",
                              "pools must agree");
        t.attributes = {};
        JobRun ok(fabric, t);
        NS_TEST_EXPECT_MSG_EQ(ok.protocol->GetHashRange(), 8000, "joins the 8000 pool");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf<std::runtime_error>([&] {
                                  ok.protocol->CreateAgent(0);
                              }),
                              "job j2 (atp): an agent for worker 0 exists already; every rank "
                              "gets one agent (one endpoint on its host)",
                              "one agent per rank");
        Simulator::Destroy();
    }
};

/**
 * \ingroup atp-test
 * 16 jobs of 8 workers on a 4 x 36 leaf-spine, workers spread over the racks (two per rack:
 * level 1 at three leaves, two workers beside the PS, level 2 at the PS's leaf), 1 % loss on
 * every link: all complete, exact, nothing held. 1 MB + 100 kB per worker by default; 20 MB +
 * 2 MB with INASIM_LONG_TESTS=1.
 */
class AtpSixteenJobsTestCase : public TestCase
{
  public:
    explicit AtpSixteenJobsTestCase(uint64_t bytes)
        : TestCase("16 jobs x 8 workers, two levels, 1 % loss, " + std::to_string(bytes / 1000) +
                   " kB per tensor")
        , m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LeafSpine(4, 2, 36, 0.01, 23);
        std::vector<std::unique_ptr<JobRun>> runs;
        std::vector<JobRun*> ptrs;
        for (uint32_t j = 0; j < 16; ++j)
        {
            JobSpec s;
            s.jobId = j + 1;
            s.name = "j" + std::to_string(j + 1);
            for (uint32_t w = 0; w < 8; ++w)
            {
                s.hosts.push_back((w % 4) * 36 + (j * 8 + w) / 4);
            }
            s.ps = {(j % 4) * 36 + 32 + j / 4};
            s.tiers = {"leaf"};
            s.tensorBytes = {m_bytes, m_bytes / 10};
            s.seed = 200 + j;
            runs.push_back(std::make_unique<JobRun>(fabric, s));
            ptrs.push_back(runs.back().get());
        }
        RunJobs(ptrs, Seconds(30));
        for (JobRun* r : ptrs)
        {
            NS_TEST_ASSERT_MSG_EQ(r->Complete(), true, "done");
            NS_TEST_EXPECT_MSG_EQ(r->ValueErrors(), 0, "exact");
        }
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        Simulator::Destroy();
    }

    uint64_t m_bytes;
};

/**
 * \ingroup atp-test
 * The ATP protocol test suite.
 */
class AtpProtocolTestSuite : public InaTestSuite
{
  public:
    AtpProtocolTestSuite()
        : InaTestSuite("atp-protocol", Type::UNIT)
    {
        AddTestCase(new AtpStarTestCase);
        AddTestCase(new AtpCollisionTestCase);
        AddTestCase(new AtpLostResultTestCase);
        AddTestCase(new AtpTwoLevelTestCase);
        AddTestCase(new AtpPassWhenFullTestCase(0));
        AddTestCase(new AtpPassWhenFullTestCase(0.01));
        for (double loss : {0.0, 0.001, 0.01})
        {
            AddTestCase(new AtpLossTestCase(loss));
        }
        AddTestCase(new AtpManyJobsTestCase(0));
        AddTestCase(new AtpManyJobsTestCase(0.01));
        AddTestCase(new AtpWindowTestCase);
        AddTestCase(new AtpFirstRtoTestCase);
        AddTestCase(new AtpTwoServersTestCase);
        AddTestCase(new AtpSetupErrorTestCase);
        AddTestCase(new AtpSixteenJobsTestCase(1000000));
        const char* longTests = std::getenv("INASIM_LONG_TESTS");
        if (longTests != nullptr && std::string(longTests) == "1")
        {
            AddTestCase(new AtpSixteenJobsTestCase(20000000), TestCase::EXTENSIVE);
        }
    }
};

/// Static instance registering the suite.
AtpProtocolTestSuite g_atpProtocolTestSuite;

} // namespace
