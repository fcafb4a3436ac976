/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// End-to-end tests of GridProtocol on real fabrics: on GRID's Fig. 1 network the switches the
// planner picks are the ones that aggregate, fragment for fragment, and the sums are exact; exact
// at 1 % loss; two jobs on a small shared pool collide, the switch sends notices, the workers
// resend, the sums stay exact; several jobs on a leaf-spine with loss; Geryon with more direct
// workers than the pool header's fan-in; set-up errors.

#include "../../ina-protocol-kit/test/program-rig.h"
#include "../../ina-protocol-kit/test/protocol-test-fabric.h"

#include "ns3/atp-agent.h"
#include "ns3/atp-paced-protocol.h"
#include "ns3/atp-program.h"
#include "ns3/grid-agent.h"
#include "ns3/grid-controller.h"
#include "ns3/grid-parameter-server.h"
#include "ns3/grid-program.h"
#include "ns3/grid-protocol.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-fault-injector.h"
#include "ns3/ina-net-device.h"
#include "ns3/ina-switch.h"
#include "ns3/ina-test-suite.h"
#include "ns3/pipeline.h"
#include "ns3/pool-header.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using namespace ns3::tests;

/// GRID's Fig. 1 wiring (topologies/grid-fig1.topo): 3 Gb/s links, the PS's link 9 Gb/s.
const char* FIG1 = R"(# inasim topology v1
defaults rate=3Gbps delay=1us
switch s1..s3 tier=tor
host w1..w4 attach=s1
host w5..w6 attach=s2
host w7..w8 attach=s3
host ps attach=s3 rate=9Gbps
link s1 s3
link s1 s2
link s2 s3
)";

Ptr<InaFabric>
Fig1(double loss = 0, int64_t stream = 0)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    helper.SetLossRate(loss);
    helper.SetStreamBase(stream);
    return helper.Build(InaTopology::FromString(FIG1, "fig1"));
}

/// Fig. 1 with only s1 programmable: its tier renamed "agg", the job's tiers {"agg"}.
Ptr<InaFabric>
Fig1OnlyS1()
{
    std::string text = FIG1;
    text.replace(text.find("switch s1..s3 tier=tor"),
                 std::string("switch s1..s3 tier=tor").size(),
                 "switch s1 tier=agg\nswitch s2..s3 tier=tor");
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    return helper.Build(InaTopology::FromString(text, "fig1-s1"));
}

/// One GRID job and its counters.
class JobRun : public TypedJobRun<GridProtocol, GridAgent>
{
  public:
    JobRun(Ptr<InaFabric> fabric, const AllReduceRunner::Spec& spec)
        : TypedJobRun(fabric, "grid", spec)
    {
    }
};

/// The 8 workers and the PS of Fig. 1, C_s = 9 Gb/s as in the paper's example.
AllReduceRunner::Spec
Fig1Job(Ptr<InaFabric> fabric)
{
    const InaTopology& t = fabric->GetTopology();
    AllReduceRunner::Spec s;
    s.hosts = Nodes(t, {"w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8"});
    s.ps = {t.FindNode("ps")};
    s.tiers = {"tor"};
    s.tensorBytes = {100000}; // 25000 floats: 404 fragments of 62
    s.attributes = {{"SwitchCapacity", "9e9"}};
    return s;
}

/**
 * \ingroup grid-test
 * Fig. 1: the plan (grid.rst) is s1 {w1, w3, w4}, s2 {w2, w5, w6}, s3 {w7, w8}, nothing direct.
 * Each of the three switches completes all 404 fragments and no other aggregation happens; s1
 * forwards w2's 404 gradients toward s2 untouched (w2 is routed s1 -> s2); the PS completes 404
 * fragments from 3 x 404 aggregates and returns 3 x 404 results, one per switch, which each
 * switch multicasts; the sums are exact and every unit is free at the end.
 */
class GridFig1TestCase : public TestCase
{
  public:
    GridFig1TestCase()
        : TestCase("Fig. 1: the planned switches aggregate, exact, one result per switch")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Fig1();
        const InaTopology& t = fabric->GetTopology();
        const uint32_t s1 = t.FindNode("s1");
        const uint32_t s2 = t.FindNode("s2");
        const uint32_t s3 = t.FindNode("s3");
        JobRun run(fabric, Fig1Job(fabric));
        const GridPlan& plan = run.protocol->GetPlan();
        NS_TEST_ASSERT_MSG_EQ(plan.directWorkers, 0u, "nothing direct");
        const std::vector<uint32_t> expect{s1, s2, s1, s1, s2, s2, s3, s3};
        for (uint32_t r = 0; r < 8; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(run.protocol->GetAggregationNode(r), expect[r], "worker " << r);
            NS_TEST_ASSERT_MSG_EQ(plan.workers[r].node, expect[r], "plan of worker " << r);
        }
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        for (uint32_t s : {s1, s2, s3})
        {
            NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s, GridProgram::COMPLETED),
                                  404u,
                                  "completed at " << s);
            NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s, GridProgram::RESULT_MULTICAST),
                                  404u,
                                  "one result per fragment at " << s);
            NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s, GridProgram::COLLISION), 0u, "no collision");
        }
        NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s1, GridProgram::READDRESSED),
                              3u * 404,
                              "s1: 3 workers");
        NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s2, GridProgram::READDRESSED),
                              3u * 404,
                              "s2: 3 workers");
        NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s3, GridProgram::READDRESSED),
                              2u * 404,
                              "s3: 2 workers");
        NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s1, GridProgram::NOT_AGGREGATED), 404u, "w2 via s1");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_fragments"), 404, "fragments at the PS");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_packets"), 3 * 404, "three aggregates each");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_results_sent"), 3 * 404, "one result per switch");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("collision_notices"), 0, "no notice");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetAggregatorsInUse(), 0u, "all freed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * Fig. 1 with only s1 programmable (its tier renamed): s1 can aggregate at most three workers at
 * 3 Gb/s (C_s = 9 Gb/s), so the plan sends the others straight to the PS. Each aggregation node
 * gets one packet and returns one result per fragment (unicast to the direct workers), the sums
 * are exact, and only s1 runs the program.
 */
class GridDirectWorkersTestCase : public TestCase
{
  public:
    GridDirectWorkersTestCase()
        : TestCase("direct workers: PS aggregates them, unicast results, exact")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Fig1OnlyS1();
        AllReduceRunner::Spec s = Fig1Job(fabric);
        s.tiers = {"agg"};
        JobRun run(fabric, s);
        const GridPlan& plan = run.protocol->GetPlan();
        const uint32_t s1 = fabric->GetTopology().FindNode("s1");
        const uint32_t ps = fabric->GetTopology().FindNode("ps");
        NS_TEST_ASSERT_MSG_GT(plan.directWorkers, 0u, "some workers direct");
        NS_TEST_ASSERT_MSG_EQ(plan.psFanIn, plan.directWorkers + 1, "s1 plus the direct ones");
        uint32_t atS1 = 0;
        for (uint32_t r = 0; r < 8; ++r)
        {
            const uint32_t node = run.protocol->GetAggregationNode(r);
            NS_TEST_ASSERT_MSG_EQ((node == s1 || node == ps), true, "s1 or the PS");
            atS1 += node == s1 ? 1 : 0;
        }
        NS_TEST_ASSERT_MSG_EQ(atS1 + plan.directWorkers, 8u, "every worker placed");
        NS_TEST_ASSERT_MSG_EQ(run.protocol->GetSwitches().size(), 1u, "one program");
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s1, GridProgram::COMPLETED), 404u, "s1 completes all");
        NS_TEST_ASSERT_MSG_EQ(run.ReasonAt(s1, GridProgram::READDRESSED),
                              atS1 * 404u,
                              "s1 workers");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_packets"), plan.psFanIn * 404.0, "one per node");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_results_sent"), plan.psFanIn * 404.0, "one per node");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_fragments"), 404, "fragments");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetAggregatorsInUse(), 0u, "all freed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * The plan in the data plane (GRID paper, Sec. 3.3: the policy gives each worker its aggregation
 * node, path and sending rate): with only s1 programmable the plan's common rate is below the
 * 3 Gb/s links. Every worker's NIC is capped at its planned rate, every switch of its planned
 * path sends its flow on toward the next node of that path, and the job runs at the planned rate:
 * each worker's gradient bits on the wire over the job's time, between 0.9 of the rate (the
 * first and last round trips) and the rate itself (the cap). With Pace false no cap is set.
 */
class GridPacingTestCase : public TestCase
{
  public:
    GridPacingTestCase()
        : TestCase("the plan in the data plane: NIC caps, pinned paths, the planned rate")
    {
    }

  private:
    void DoRun() override
    {
        for (bool pace : {true, false})
        {
            Ptr<InaFabric> fabric = Fig1OnlyS1();
            const InaTopology& t = fabric->GetTopology();
            AllReduceRunner::Spec s = Fig1Job(fabric);
            s.tiers = {"agg"};
            s.values = false;
            s.tensorBytes = {1000000}; // 4033 fragments
            s.attributes.emplace_back("Pace", pace ? "true" : "false");
            JobRun run(fabric, s);
            const GridPlan& plan = run.protocol->GetPlan();
            NS_TEST_ASSERT_MSG_LT(plan.achievedBps, 2.9e9, "a plan below line rate");
            NS_TEST_ASSERT_MSG_GT(plan.achievedBps, 0.5e9, "a plan that moves");
            for (uint32_t r = 0; r < 8; ++r)
            {
                const GridPlan::WorkerRoute& w = plan.workers.at(r);
                auto* nic = dynamic_cast<InaNetDevice*>(fabric->GetHost(s.hosts[r])->GetPort());
                NS_TEST_ASSERT_MSG_NE(nic, nullptr, "a NIC");
                const uint64_t cap = pace ? static_cast<uint64_t>(w.rateBps) : 0;
                NS_TEST_ASSERT_MSG_EQ(nic->GetInjectionRateCap(),
                                      cap,
                                      "worker " << r << "'s NIC at its planned rate");
                InaPacket probe{};
                probe.flowId = run.protocol->GetWorkerFlowId(r);
                probe.dst = w.path.back();
                probe.jobId = s.jobId;
                for (std::size_t i = 1; i + 1 < w.path.size(); ++i)
                {
                    NS_TEST_ASSERT_MSG_EQ(fabric->GetSwitch(w.path[i])->SelectPort(&probe),
                                          t.PortTo(w.path[i], w.path[i + 1]),
                                          "worker " << r << " follows its path at hop " << i);
                }
            }
            AllReduceRunner::RunAll({&run}, Seconds(5));
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
            if (pace)
            {
                const double bits = 4033.0 * PoolHeader::WIRE_BYTES * 8;
                const double rate = bits / (run.LastFinishPs() * 1e-12);
                NS_TEST_ASSERT_MSG_LT_OR_EQ(rate, plan.achievedBps, "never above the plan");
                NS_TEST_ASSERT_MSG_GT(rate, 0.9 * plan.achievedBps, "at the plan's rate");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup grid-test
 * A case run at a loss rate on every link direction, its losses drawn from the random streams
 * from `stream` on (each instance its own, so that the cases do not share draws).
 */
class LossyTestCase : public TestCase
{
  protected:
    LossyTestCase(const std::string& name, double loss, int64_t stream)
        : TestCase(name)
        , m_loss(loss)
        , m_stream(stream)
    {
    }

    /// Fig. 1 at this case's loss.
    Ptr<InaFabric> LossyFig1() const
    {
        return Fig1(m_loss, m_stream);
    }

    double m_loss;
    int64_t m_stream;
};

/**
 * \ingroup grid-test
 * Fig. 1 with loss on every link direction: every tensor comes back exact (ATP's timeouts and
 * resends, the PS's bitmaps against double counting).
 */
class GridLossTestCase : public LossyTestCase
{
  public:
    GridLossTestCase(double loss, int64_t stream)
        : LossyTestCase("Fig. 1, loss " + std::to_string(loss) + ": complete and exact",
                        loss,
                        stream)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LossyFig1();
        AllReduceRunner::Spec s = Fig1Job(fabric);
        s.tensorBytes = {100000, 50000};
        JobRun run(fabric, s);
        AllReduceRunner::RunAll({&run}, Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_EQ((run.Counter("ps_fragments") >= 404 + 202), true, "every fragment");
        if (m_loss > 0)
        {
            NS_TEST_ASSERT_MSG_GT(run.Counter("timeouts") + run.Counter("fast_retransmits"),
                                  0,
                                  "losses were recovered");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * Two GRID jobs on the same Fig. 1 workers and PS share every switch's pool of 64 units, hashing
 * onto 40 of them with windows of 32: at least 24 of each job's slots share a unit with the other
 * job's (jobs 1 and 2 on the full 64 would not: CRC32 is linear, and their slot tables split the
 * 64 units exactly). A collision drops the gradient and sends its worker a
 * notice; the worker halves its window and sends the fragment again; both jobs come back exact,
 * every notice arrived (without loss) and was answered with a resend or found its fragment done or
 * already resent, and every unit is free. With 1 % loss the same, less the notices lost.
 */
class GridCollisionTestCase : public LossyTestCase
{
  public:
    GridCollisionTestCase(double loss, int64_t stream)
        : LossyTestCase("two jobs on a small pool, loss " + std::to_string(loss) +
                            ": notices, resends, exact",
                        loss,
                        stream)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LossyFig1();
        AllReduceRunner::Spec a = Fig1Job(fabric);
        a.attributes.insert(a.attributes.end(),
                            {{"PoolSize", "64"},
                             {"HashRange", "40"},
                             {"MaxWindow", "32"},
                             {"InitialWindow", "32"},
                             {"MinWindow", "4"}});
        a.tensorBytes = {200000};
        a.startPs = {0, 2 * US, 4 * US, 6 * US, 1 * US, 3 * US, 5 * US, 7 * US};
        AllReduceRunner::Spec b = a;
        b.jobId = 2;
        b.name = "j2";
        b.seed = 8;
        JobRun ra(fabric, a);
        JobRun rb(fabric, b);
        // The paper's rate synchronisation (Sec. 5.2): a worker that gets a notice halves its
        // window. Sampled every microsecond while the jobs run; the windows start at their
        // maximum, so without loss and ECN only a notice can take one below it.
        uint32_t smallest = UINT32_MAX;
        std::function<void()> sample = [&]() {
            for (const JobRun* r : {&ra, &rb})
            {
                for (const Ptr<GridAgent>& agent : r->agents)
                {
                    smallest = std::min(smallest, agent->GetWindow());
                }
            }
            if (!ra.Complete() || !rb.Complete())
            {
                Simulator::Schedule(MicroSeconds(1), sample);
            }
        };
        Simulator::Schedule(MicroSeconds(1), sample);
        AllReduceRunner::RunAll({&ra, &rb}, Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(ra.Complete() && rb.Complete(), true, "both complete");
        NS_TEST_ASSERT_MSG_EQ(ra.ValueErrors(), 0u, "a exact");
        NS_TEST_ASSERT_MSG_EQ(rb.ValueErrors(), 0u, "b exact");
        if (m_loss == 0)
        {
            NS_TEST_ASSERT_MSG_EQ(ra.Counter("ecn_decreases") + rb.Counter("ecn_decreases") +
                                      ra.Counter("loss_decreases") + rb.Counter("loss_decreases"),
                                  0,
                                  "no window halved by ECN or loss");
            NS_TEST_ASSERT_MSG_LT(smallest, 32u, "a notice halved a window");
        }
        // Both jobs share each switch's program: its counters cover both.
        const uint64_t sent = ra.Reason(GridProgram::NOTICE_SENT);
        NS_TEST_ASSERT_MSG_GT(sent, 0u, "collisions sent notices");
        NS_TEST_ASSERT_MSG_EQ(ra.Reason(GridProgram::COLLISION), sent, "one notice per collision");
        const double got = ra.Counter("collision_notices") + rb.Counter("collision_notices");
        if (m_loss == 0)
        {
            NS_TEST_ASSERT_MSG_EQ(got, static_cast<double>(sent), "every notice arrived");
        }
        else
        {
            NS_TEST_ASSERT_MSG_EQ((got <= sent), true, "no notice made up");
        }
        NS_TEST_ASSERT_MSG_EQ(ra.Counter("notice_resends") + rb.Counter("notice_resends") +
                                  ra.Counter("stale_notices") + rb.Counter("stale_notices"),
                              got,
                              "each notice resent or stale");
        NS_TEST_ASSERT_MSG_GT(ra.Counter("notice_resends") + rb.Counter("notice_resends"),
                              0,
                              "fragments resent");
        NS_TEST_ASSERT_MSG_EQ(ra.Counter("ps_collision_packets") +
                                  rb.Counter("ps_collision_packets"),
                              0,
                              "no ATP fallback: collided gradients never reach the PS");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetAggregatorsInUse(), 0u, "all freed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * One Fig. 1 job hashing every fragment to a unit (HashFragments, the paper's Hash(frag_id)) on
 * 64 units with windows of 32: its own fragments in flight collide. Every collision is a notice
 * (none lost without loss), the workers resend, the sums are exact and every unit is free.
 */
class GridFragmentHashTestCase : public LossyTestCase
{
  public:
    GridFragmentHashTestCase(double loss, int64_t stream)
        : LossyTestCase("one job, per-fragment hash, loss " + std::to_string(loss) +
                            ": self-collisions, exact",
                        loss,
                        stream)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LossyFig1();
        AllReduceRunner::Spec s = Fig1Job(fabric);
        s.attributes.insert(s.attributes.end(),
                            {{"HashFragments", "true"},
                             {"PoolSize", "64"},
                             {"MaxWindow", "32"},
                             {"InitialWindow", "32"},
                             {"MinWindow", "4"}});
        s.tensorBytes = {200000};
        JobRun run(fabric, s);
        AllReduceRunner::RunAll({&run}, Seconds(20));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        const uint64_t sent = run.Reason(GridProgram::NOTICE_SENT);
        NS_TEST_ASSERT_MSG_GT(sent, 0u, "its own fragments collided");
        if (m_loss == 0)
        {
            NS_TEST_ASSERT_MSG_EQ(run.Counter("collision_notices"),
                                  static_cast<double>(sent),
                                  "every notice arrived");
        }
        NS_TEST_ASSERT_MSG_GT(run.Counter("notice_resends"), 0, "fragments resent");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetAggregatorsInUse(), 0u, "all freed");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * Four jobs of four workers (one per leaf) with their own PS on a 4-leaf, 2-spine fabric where
 * leaves and spines may aggregate, at `loss`: every job completes exact; the switches that
 * complete fragments are exactly the plan's aggregating switches, and those with fan-in
 * complete at least every fragment (404) when there is no loss.
 */
class GridLeafSpineTestCase : public TestCase
{
  public:
    explicit GridLeafSpineTestCase(double loss)
        : TestCase("four jobs on a leaf-spine, loss " + std::to_string(loss) + ": exact")
        , m_loss(loss)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LeafSpine(4, 2, 5, m_loss, 3);
        std::vector<JobRun*> runs;
        std::vector<AllReduceRunner*> all;
        for (uint32_t j = 0; j < 4; ++j)
        {
            AllReduceRunner::Spec s;
            s.jobId = j + 1;
            s.name = "j" + std::to_string(j + 1);
            for (uint32_t l = 0; l < 4; ++l)
            {
                s.hosts.push_back(l * 5 + j);
            }
            s.ps = {((j + 1) % 4) * 5 + 4};
            s.tiers = {"leaf", "spine"};
            s.tensorBytes = {100000};
            s.seed = 11 + j;
            runs.push_back(new JobRun(fabric, s));
            all.push_back(runs.back());
        }
        AllReduceRunner::RunAll(all, Seconds(20));
        for (JobRun* r : runs)
        {
            NS_TEST_ASSERT_MSG_EQ(r->Complete(), true, r->GetSpec().name << " complete");
            NS_TEST_ASSERT_MSG_EQ(r->ValueErrors(), 0u, r->GetSpec().name << " exact");
            const GridPlan& plan = r->protocol->GetPlan();
            uint32_t aggregating = 0;
            for (const GridPlan::SwitchRoute& sw : plan.switches)
            {
                if (sw.fanIn == 0)
                {
                    continue;
                }
                ++aggregating;
                NS_TEST_ASSERT_MSG_EQ(r->protocol->GetAggregationNode(sw.workers[0]),
                                      sw.node,
                                      "planned node");
            }
            NS_TEST_ASSERT_MSG_EQ(r->protocol->GetSwitches().size(),
                                  aggregating,
                                  "a program exactly at the planned switches");
            NS_TEST_ASSERT_MSG_EQ((r->Counter("ps_fragments") >= 404), true, "every fragment");
        }
        NS_TEST_ASSERT_MSG_EQ(fabric->GetAggregatorsInUse(), 0u, "all freed");
        for (JobRun* r : runs)
        {
            delete r;
        }
        Simulator::Destroy();
    }

    double m_loss;
};

/// One rack, two jobs of three workers and a PS each on s1 (C_s = 9 Gb/s, 3 Gb/s links): alone a
/// job aggregates at s1 at its NICs' 3 Gb/s; together they share s1's 9 Gb/s, 1.5 Gb/s each.
const char* TWO_JOBS = R"(# inasim topology v1
defaults rate=3Gbps delay=1us
switch s1 tier=tor
host a1..a3 attach=s1
host b1..b3 attach=s1
host pa attach=s1
host pb attach=s1
)";

/// The NIC cap of a host (0: none).
uint64_t
NicCap(Ptr<InaFabric> fabric, uint32_t host)
{
    return dynamic_cast<InaNetDevice*>(fabric->GetHost(host)->GetPort())->GetInjectionRateCap();
}

/**
 * \ingroup grid-test
 * Online re-planning (GridController) of two jobs of one protocol on the one rack of TWO_JOBS
 * (s1 aggregating at most 9 Gb/s): j1 runs alone at 3 Gb/s; j2 starts at 200 us on the same
 * switch, and the controller re-plans both at that instant: s1's 9 Gb/s shared max-min, 1.5 Gb/s
 * each, installed as the workers' NIC caps; when j2 ends (j1 still running) j1 is re-planned
 * alone and gets 3 Gb/s again. Both jobs exact; both re-plans recorded with their trigger, time,
 * rates and wall time. A protocol's case says how its jobs are made (Run).
 */
class TwoJobsReplanTestCase : public TestCase
{
  protected:
    /// \param name the case's name
    explicit TwoJobsReplanTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /// \return a job of the protocol, set up from `spec` and checked before the run
    virtual std::unique_ptr<AllReduceRunner> Make(Ptr<InaFabric> fabric,
                                                  const AllReduceRunner::Spec& spec) = 0;
    /// \return the job attributes every job of the protocol takes
    virtual std::vector<std::pair<std::string, std::string>> Attributes() const = 0;
    /// Set s1's capacity where the protocol takes it from the switch (atp-paced).
    virtual void SetUpFabric(Ptr<InaFabric> fabric) const = 0;

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        helper.SetQueue(1000000, 0);
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FromString(TWO_JOBS, "two-jobs"));
        SetUpFabric(fabric);
        const InaTopology& t = fabric->GetTopology();
        AllReduceRunner::Spec a;
        a.hosts = {t.FindNode("a1"), t.FindNode("a2"), t.FindNode("a3")};
        a.ps = {t.FindNode("pa")};
        a.tensorBytes = {2000000};
        a.attributes = Attributes();
        AllReduceRunner::Spec b = a;
        b.jobId = 2;
        b.name = "j2";
        b.hosts = {t.FindNode("b1"), t.FindNode("b2"), t.FindNode("b3")};
        b.ps = {t.FindNode("pb")};
        b.tensorBytes = {200000};
        b.startPs = {200000000, 200000000, 200000000}; // 200 us
        b.seed = 8;
        std::unique_ptr<AllReduceRunner> ja = Make(fabric, a);
        std::unique_ptr<AllReduceRunner> jb = Make(fabric, b);
        NS_TEST_ASSERT_MSG_EQ(NicCap(fabric, a.hosts[0]), 3000000000u, "j1 paced at its rate");
        uint64_t capA = 0;
        uint64_t capB = 0;
        Simulator::Schedule(MicroSeconds(200) + NanoSeconds(1), MakeInaFunctorEvent([&]() {
                                capA = NicCap(fabric, a.hosts[2]);
                                capB = NicCap(fabric, b.hosts[0]);
                            }));
        AllReduceRunner::RunAll({ja.get(), jb.get()}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(ja->Complete() && jb->Complete(), true, "both complete");
        NS_TEST_ASSERT_MSG_EQ(ja->ValueErrors() + jb->ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_EQ(capA, 1500000000u, "j1 at its share while j2 runs");
        NS_TEST_ASSERT_MSG_EQ(capB, 1500000000u, "j2 at its share");
        NS_TEST_ASSERT_MSG_EQ(NicCap(fabric, a.hosts[0]), 3000000000u, "j1 back at 3 Gb/s");
        NS_TEST_ASSERT_MSG_GT(ja->LastFinishPs(), jb->LastFinishPs(), "j2 ended first");
        const auto& replans = GridController::Of(fabric)->GetReplans();
        NS_TEST_ASSERT_MSG_EQ(replans.size(), 2u, "one re-plan at j2's start, one at its end");
        NS_TEST_ASSERT_MSG_EQ(replans[0].at, MicroSeconds(200), "at j2's start");
        NS_TEST_ASSERT_MSG_EQ(replans[0].trigger, "start j2", "trigger");
        NS_TEST_ASSERT_MSG_EQ(replans[0].rateBps.size(), 2u, "both jobs planned");
        NS_TEST_EXPECT_MSG_EQ_TOL(replans[0].rateBps[0], 1.5e9, 1, "j1's share");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(replans[0].wallS, 0.0, "its wall time recorded");
        NS_TEST_ASSERT_MSG_EQ(replans[1].at.GetPicoSeconds(), jb->LastFinishPs(), "at j2's end");
        NS_TEST_ASSERT_MSG_EQ(replans[1].trigger, "end j2", "trigger");
        NS_TEST_ASSERT_MSG_EQ(replans[1].jobs.size(), 1u, "j1 alone");
        NS_TEST_EXPECT_MSG_EQ_TOL(replans[1].rateBps.at(0), 3e9, 1, "j1's own rate");
        // j1 sent 2 MB: alone at 3 Gb/s from 0 to 200 us and after j2, at 1.5 Gb/s meanwhile,
        // so it ends later than its wire time alone at 3 Gb/s (6.6 ms).
        const double wireS = 8065.0 * PoolHeader::WIRE_BYTES * 8 / 3e9;
        NS_TEST_ASSERT_MSG_GT(ja->LastFinishPs() * 1e-12, wireS, "j1 slowed while sharing");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * TwoJobsReplanTestCase with GRID (C_s 9 Gb/s as the planner's SwitchCapacity): j1's plan is
 * 3 Gb/s at s1. With LinkRows false (the paper's LP) the plans count no link streams, and the
 * re-plan shares s1 alone (it once read the streams of links the plan did not count).
 */
class GridReplanJobsTestCase : public TwoJobsReplanTestCase
{
  public:
    /// \param linkRows GRID's LinkRows
    explicit GridReplanJobsTestCase(bool linkRows)
        : TwoJobsReplanTestCase(std::string("re-plan") + (linkRows ? "" : " (LinkRows false)") +
                                ": a second job starts, then ends: rates 3, 1.5, 3 Gbps, exact")
        , m_linkRows(linkRows)
    {
    }

  private:
    std::unique_ptr<AllReduceRunner> Make(Ptr<InaFabric> fabric,
                                          const AllReduceRunner::Spec& spec) override
    {
        auto job = std::make_unique<JobRun>(fabric, spec);
        NS_TEST_EXPECT_MSG_EQ(job->protocol->GetPlan().achievedBps, 3e9, "alone: 3 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(job->protocol->GetAggregationNode(0),
                              fabric->GetTopology().FindNode("s1"),
                              "at s1");
        return job;
    }

    std::vector<std::pair<std::string, std::string>> Attributes() const override
    {
        return {{"SwitchCapacity", "9e9"}, {"LinkRows", m_linkRows ? "true" : "false"}};
    }

    void SetUpFabric(Ptr<InaFabric> /* fabric */) const override
    {
    }

    bool m_linkRows;
};

/**
 * \ingroup grid-test
 * TwoJobsReplanTestCase with atp-paced, re-planned by GRID's controller as GRID's jobs are
 * (s1's pipeline aggregating at most 9 Gb/s, which the rate model takes): alone j1's model gives
 * 3 Gb/s (s1 takes its 3 workers' 9 Gb/s whole). Before atp-paced joined the controller its
 * workers stayed at 3 Gb/s throughout.
 */
class AtpPacedReplanJobsTestCase : public TwoJobsReplanTestCase
{
  public:
    AtpPacedReplanJobsTestCase()
        : TwoJobsReplanTestCase("atp-paced re-plan: a second job starts, then ends: 3, 1.5, 3 "
                                "Gbps, exact")
    {
    }

  private:
    std::unique_ptr<AllReduceRunner> Make(Ptr<InaFabric> fabric,
                                          const AllReduceRunner::Spec& spec) override
    {
        auto job =
            std::make_unique<TypedJobRun<AtpPacedProtocol, AtpAgent>>(fabric, "atp-paced", spec);
        NS_TEST_EXPECT_MSG_EQ_TOL(job->protocol->GetPacedRateBps(), 3e9, 1, "alone: 3 Gb/s");
        return job;
    }

    std::vector<std::pair<std::string, std::string>> Attributes() const override
    {
        return {{"Level2", "false"}, {"PassWhenFull", "true"}};
    }

    void SetUpFabric(Ptr<InaFabric> fabric) const override
    {
        fabric->GetSwitch(fabric->GetTopology().FindNode("s1"))
            ->GetPipeline()
            ->SetAggregationCapacity(9000000000ULL, 0);
    }
};

/**
 * \ingroup grid-test
 * A link of a planned path fails for good (Fig. 1, s1-s2, which w2's gradients cross toward s2
 * and its results cross back): once the routing has detected it (InaFaultInjector's detection
 * delay) the controller re-plans the job around it: w2's gradients pinned s1 -> s3 -> s2, s2's
 * results to w2 multicast the same way back, and every worker paced at the new common rate
 * (s1 -> s3 now carries s1's aggregate and w2's stream: 3 / 2 = 1.5 Gb/s). The job completes,
 * exact.
 */
class GridReplanLinkDownTestCase : public TestCase
{
  public:
    GridReplanLinkDownTestCase()
        : TestCase("re-plan: a planned link fails, the job is routed around it, exact")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Fig1();
        const InaTopology& t = fabric->GetTopology();
        const uint32_t s1 = t.FindNode("s1");
        const uint32_t s2 = t.FindNode("s2");
        const uint32_t s3 = t.FindNode("s3");
        uint32_t link = t.GetNLinks();
        for (uint32_t l = 0; l < t.GetNLinks(); ++l)
        {
            const InaTopology::Link& k = t.GetLink(l);
            link = ((k.a == s1 && k.b == s2) || (k.a == s2 && k.b == s1)) ? l : link;
        }
        AllReduceRunner::Spec s = Fig1Job(fabric);
        s.tensorBytes = {1000000};
        JobRun run(fabric, s);
        NS_TEST_ASSERT_MSG_EQ(run.protocol->GetPlan().workers.at(1).path.size(), 3u, "w2 s1 s2");
        Ptr<InaFaultInjector> faults = CreateObject<InaFaultInjector>();
        faults->SetFabric(fabric);
        faults->ScheduleLinkDown(link, MicroSeconds(100));
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_GT(faults->GetFaultDrops(), 0u, "packets were lost on the link");
        const auto& replans = GridController::Of(fabric)->GetReplans();
        NS_TEST_ASSERT_MSG_EQ(replans.size(), 1u, "one re-plan, when the routing converged");
        if (!replans.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(replans[0].trigger, "routes: 1 links down", "trigger");
            NS_TEST_ASSERT_MSG_GT(replans[0].at, MicroSeconds(100), "after the detection delay");
            NS_TEST_ASSERT_MSG_EQ(replans[0].stranded.size(), 0u, "nobody stranded");
            NS_TEST_ASSERT_MSG_EQ(replans[0].rateBps.at(0), 1.5e9, "s1 -> s3 shared by two");
        }
        const GridPlan& plan = run.protocol->GetPlan();
        const std::vector<uint32_t> around{s.hosts[1], s1, s3, s2};
        NS_TEST_ASSERT_MSG_EQ((plan.workers.at(1).path == around), true, "w2 via s3");
        InaPacket probe{};
        probe.flowId = run.protocol->GetWorkerFlowId(1);
        probe.dst = s2;
        probe.jobId = s.jobId;
        NS_TEST_ASSERT_MSG_EQ(fabric->GetSwitch(s1)->SelectPort(&probe),
                              t.PortTo(s1, s3),
                              "w2's flow pinned toward s3 at s1");
        for (uint32_t r = 0; r < 8; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(NicCap(fabric, s.hosts[r]), 1500000000u, "paced at the re-plan");
        }
        Simulator::Destroy();
    }
};

/// Two leaves of three workers and a third leaf with the PS under two spines (10 Gb/s links);
/// GRID's jobs below aggregate at tier agg: the tiers of spines a1 and a2 say which may.
std::string
TwoSpines(const std::string& a1Tier, const std::string& a2Tier)
{
    return "# inasim topology v1\n"
           "defaults rate=10Gbps delay=1us\n"
           "switch l1..l3 tier=tor\n"
           "switch a1 tier=" +
           a1Tier + "\nswitch a2 tier=" + a2Tier +
           "\nhost w1..w3 attach=l1\nhost w4..w6 attach=l2\nhost ps attach=l3\n"
           "link l1 a1\nlink l1 a2\nlink l2 a1\nlink l2 a2\nlink l3 a1\nlink l3 a2\n";
}

/// The six workers and the PS of TwoSpines, aggregating at tier agg.
AllReduceRunner::Spec
SpineJob(Ptr<InaFabric> fabric)
{
    const InaTopology& t = fabric->GetTopology();
    AllReduceRunner::Spec s;
    s.hosts = Nodes(t, {"w1", "w2", "w3", "w4", "w5", "w6"});
    s.ps = {t.FindNode("ps")};
    s.tiers = {"agg"};
    s.tensorBytes = {1000000};
    return s;
}

/// A GRID job on TwoSpines whose switch `fail(run)` fails at 100 us, run to its end.
struct SpineFailure
{
    Ptr<InaFabric> fabric;
    AllReduceRunner::Spec spec;
    std::unique_ptr<JobRun> run;
    uint32_t failed = 0;

    SpineFailure(const std::string& a1Tier,
                 const std::string& a2Tier,
                 const std::function<uint32_t(const JobRun&)>& fail)
    {
        InaFabricHelper helper;
        helper.SetQueue(1000000, 0);
        fabric = helper.Build(InaTopology::FromString(TwoSpines(a1Tier, a2Tier), "spines"));
        spec = SpineJob(fabric);
        run = std::make_unique<JobRun>(fabric, spec);
        failed = fail(*run);
    }

    void Run()
    {
        Ptr<InaFaultInjector> faults = CreateObject<InaFaultInjector>();
        faults->SetFabric(fabric);
        faults->ScheduleSwitchDown(failed, MicroSeconds(100));
        AllReduceRunner::RunAll({run.get()}, Seconds(5));
    }
};

/**
 * \ingroup grid-test
 * A switch that aggregates for a running job fails for good (GRID's online setting with a
 * failure; GridController): once the routing has detected it, the controller finds the job cut
 * off from it and plans the job anew without it. Here both spines aggregate at first (each leaf's
 * workers split over the two uplinks); the one worker 0 uses fails at 100 us, mid-all-reduce, and
 * the job is moved to the other (epoch 1): the fragments in flight are sent again on the new
 * tree, what was sent to the old one is dropped where it arrives, and the job completes exact.
 */
class GridSwitchFailReassignTestCase : public TestCase
{
  public:
    GridSwitchFailReassignTestCase()
        : TestCase("switch failure: the job is planned anew without the switch, exact")
    {
    }

  private:
    void DoRun() override
    {
        SpineFailure f("agg", "agg", [](const JobRun& r) {
            return r.protocol->GetAggregationNode(0);
        });
        const JobRun& run = *f.run;
        const AllReduceRunner::Spec& s = f.spec;
        const uint32_t failed = f.failed;
        NS_TEST_ASSERT_MSG_EQ(f.fabric->GetTopology().GetTier(failed),
                              "agg",
                              "worker 0 aggregates at a spine");
        f.Run();
        const Ptr<InaFabric> fabric = f.fabric;
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        const auto& replans = GridController::Of(fabric)->GetReplans();
        NS_TEST_ASSERT_MSG_EQ(replans.size(), 1u, "one re-plan, when the routing converged");
        if (!replans.empty())
        {
            NS_TEST_ASSERT_MSG_GT(replans[0].at, MicroSeconds(100), "after the detection delay");
            NS_TEST_ASSERT_MSG_EQ(replans[0].reassigned.size(), 1u, "the job moved");
            NS_TEST_ASSERT_MSG_EQ(replans[0].stranded.size(),
                                  0u,
                                  (replans[0].stranded.empty() ? "" : replans[0].stranded[0]));
        }
        NS_TEST_ASSERT_MSG_EQ(+run.protocol->GetEpoch(), 1, "one re-assignment");
        for (uint32_t r = 0; r < s.hosts.size(); ++r)
        {
            NS_TEST_ASSERT_MSG_NE(run.protocol->GetAggregationNode(r), failed, "off the failed");
        }
        NS_TEST_ASSERT_MSG_GT(run.Counter("reassignments"), 0, "counted");
        NS_TEST_ASSERT_MSG_GT(run.Sum(&AggregationAgent::Stats::retransmissions),
                              0u,
                              "the fragments in flight were sent again");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * The PS fallback: only a1 may aggregate (a2 is a plain spine), and the plan has worker 0 there;
 * a1 fails at 100 us, and with no
 * programmable switch left the controller's new plan sends every worker to the PS (six direct
 * streams, unicast results along each path reversed). The job completes exact.
 */
class GridSwitchFailPsFallbackTestCase : public TestCase
{
  public:
    GridSwitchFailPsFallbackTestCase()
        : TestCase("switch failure, no switch left: every worker falls back to the PS, exact")
    {
    }

  private:
    void DoRun() override
    {
        SpineFailure f("agg", "spine", [](const JobRun& r) {
            return r.protocol->GetContext().fabric->GetTopology().FindNode("a1");
        });
        const JobRun& run = *f.run;
        const AllReduceRunner::Spec& s = f.spec;
        NS_TEST_ASSERT_MSG_EQ(run.protocol->GetAggregationNode(0),
                              f.failed,
                              "aggregated at a1 at first");
        f.Run();
        const Ptr<InaFabric> fabric = f.fabric;
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_EQ(run.protocol->GetPlan().directWorkers, 6u, "all to the PS");
        for (uint32_t r = 0; r < s.hosts.size(); ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(run.protocol->GetAggregationNode(r), s.ps[0], "direct");
        }
        const auto& replans = GridController::Of(fabric)->GetReplans();
        NS_TEST_ASSERT_MSG_EQ(replans.size(), 1u, "one re-plan");
        if (!replans.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(replans[0].reassigned.size(), 1u, "the job moved");
            NS_TEST_ASSERT_MSG_EQ(replans[0].rateBps.at(0), 10e9 / 6, "PS ingress / 6 streams");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * No plan at all: on Fig. 1, s2 fails at 100 us, and w5 and w6 (attached to s2 only) reach
 * neither the PS nor any switch. The controller ends the job at its re-plan with the reason: every
 * worker gives up with it (not by its timeouts), and the job is incomplete.
 */
class GridSwitchFailNoPlanTestCase : public TestCase
{
  public:
    GridSwitchFailNoPlanTestCase()
        : TestCase("switch failure, workers cut off: the job ends with the reason")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Fig1();
        const InaTopology& t = fabric->GetTopology();
        JobRun run(fabric, Fig1Job(fabric));
        Ptr<InaFaultInjector> faults = CreateObject<InaFaultInjector>();
        faults->SetFabric(fabric);
        faults->ScheduleSwitchDown(t.FindNode("s2"), MicroSeconds(100));
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), false, "incomplete");
        const auto& replans = GridController::Of(fabric)->GetReplans();
        NS_TEST_ASSERT_MSG_EQ(replans.size(), 1u, "one re-plan");
        if (!replans.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(replans[0].stranded.size(), 1u, "the job ended");
            NS_TEST_ASSERT_MSG_EQ(replans[0].reassigned.size(), 0u, "not moved");
        }
        for (uint32_t r = 0; r < 8; ++r)
        {
            Ptr<AggregationAgent> agent = run.GetAgent(r);
            NS_TEST_ASSERT_MSG_EQ(agent->HasGivenUp(), true, "every worker gave up");
            const std::string why = agent->GetGiveUpReason();
            NS_TEST_ASSERT_MSG_NE(why.find("reaches neither the PS nor"), std::string::npos, why);
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * ATP as GRID's paper evaluates it (protocol atp-paced) on Fig. 1, C_s = 9 Gb/s in every
 * switch's pipeline, the links marking ECN at 100 kB: every worker's NIC is capped at the rate of
 * GRID's model of ATP, 9/4 + 0.75/4 = 2.4375 Gb/s (the paper's 2.43). s1 gets 4 x 2.4375 =
 * 9.75 Gb/s of gradients for 9 Gb/s of capacity and passes its excess on, whole fragments, every
 * other fragment completing there with its capacity spent on those alone; nothing comes back out
 * of order (no resend), the sums are exact, no aggregator stays held, and the job runs at the
 * paced rate: each worker's gradient bits on the wire over the job's time between 0.95 of it and
 * the rate itself. Without Level2 false and PassWhenFull true the job is refused, as the rate
 * model is of that ATP.
 */
class AtpPacedFig1TestCase : public TestCase
{
  public:
    AtpPacedFig1TestCase()
        : TestCase("atp-paced on Fig. 1: paced at GRID's ATP rate, s1 passes its excess, exact")
    {
    }

  private:
    using Run = TypedJobRun<AtpPacedProtocol, AtpAgent>;

    static Ptr<InaFabric> Fabric()
    {
        InaFabricHelper helper;
        helper.SetQueue(1000000, 100000);
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FromString(FIG1, "fig1"));
        for (const char* s : {"s1", "s2", "s3"})
        {
            fabric->GetSwitch(fabric->GetTopology().FindNode(s))
                ->GetPipeline()
                ->SetAggregationCapacity(9000000000ULL, 0);
        }
        return fabric;
    }

    void DoRun() override
    {
        Ptr<InaFabric> fabric = Fabric();
        const uint32_t s1 = fabric->GetTopology().FindNode("s1");
        AllReduceRunner::Spec s = Fig1Job(fabric);
        s.tensorBytes = {1000000}; // 4033 fragments
        s.attributes = {{"Level2", "false"}, {"PassWhenFull", "true"}};
        Run run(fabric, "atp-paced", s);
        const double rate = run.protocol->GetPacedRateBps();
        NS_TEST_ASSERT_MSG_EQ_TOL(rate, 2.4375e9, 1e3, "GRID's model of ATP: 9/4 + 0.75/4 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(run.Counter("plan_rate_bps"), rate, "reported");
        for (uint32_t r = 0; r < 8; ++r)
        {
            auto* nic = dynamic_cast<InaNetDevice*>(fabric->GetHost(s.hosts[r])->GetPort());
            NS_TEST_ASSERT_MSG_NE(nic, nullptr, "a NIC");
            NS_TEST_EXPECT_MSG_EQ(nic->GetInjectionRateCap(),
                                  static_cast<uint64_t>(rate),
                                  "worker " << r << " paced");
        }
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        NS_TEST_EXPECT_MSG_EQ(run.Sum(&AggregationAgent::Stats::retransmissions), 0, "no resend");
        const uint64_t passed = run.ReasonAt(s1, AtpProgram::BYPASSED);
        const uint64_t completed = run.ReasonAt(s1, AtpProgram::COMPLETED);
        NS_TEST_EXPECT_MSG_GT(passed, 0u, "s1 passes its excess");
        NS_TEST_EXPECT_MSG_EQ(passed % 4, 0u, "whole fragments");
        NS_TEST_EXPECT_MSG_EQ(completed + passed / 4, 4033u, "or they complete at s1");
        const PipelineUsage usage = fabric->GetSwitch(s1)->GetPipeline()->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(usage.aggregationPackets, 4 * completed, "capacity on those only");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(usage.MeasuredAggregationBps(), 9e9, "C_s held");
        const double bits = 4033.0 * PoolHeader::WIRE_BYTES * 8;
        const double achieved = bits / (run.LastFinishPs() * 1e-12);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(achieved, rate, "never above the pace");
        NS_TEST_EXPECT_MSG_GT(achieved, 0.95 * rate, "at the paced rate");
        Simulator::Destroy();

        Ptr<InaFabric> other = Fabric();
        AllReduceRunner::Spec refused = Fig1Job(other);
        refused.attributes = {{"PassWhenFull", "true"}};
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] {
                                  Run r(other, "atp-paced", refused);
                              }),
                              "job j1 (atp-paced): the workers are paced at the rate of GRID's "
                              "model of ATP (one level of aggregation, a full switch passing "
                              "gradients on to the PS, GRID paper Sec. 3.1), so the job needs "
                              "params Level2: false and PassWhenFull: true",
                              "Level2 left true");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * Geryon beyond the pool header's 31: 40 workers behind one switch, every one a direct stream to
 * the PS (Geryon aggregates nowhere). The PS tells the direct workers apart 31 to a group (each
 * one bit of its group's bitmap0), so the job installs (it used to be refused: 40 streams into
 * the 5-bit fanInDegree1), completes exactly, and the PS takes one packet and returns one result
 * per worker and fragment.
 */
class GeryonManyWorkersTestCase : public TestCase
{
  public:
    GeryonManyWorkersTestCase()
        : TestCase("geryon with 40 direct workers: two groups at the PS, exact")
    {
    }

  private:
    static constexpr uint32_t kWorkers = PoolHeader::MAX_FAN_IN + 9;

    void DoRun() override
    {
        const std::string text = "# inasim topology v1\n"
                                 "defaults rate=10Gbps delay=1us\n"
                                 "switch tor0..tor1 tier=tor\n"
                                 "switch spine0 tier=spine\n"
                                 "host w0..w" +
                                 std::to_string(kWorkers - 1) +
                                 " attach=tor0\n"
                                 "host ps attach=tor1 rate=100Gbps\n"
                                 "link tor0 spine0 rate=400Gbps\n"
                                 "link tor1 spine0 rate=400Gbps\n";
        InaFabricHelper helper;
        helper.SetQueue(1000000, 0);
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FromString(text, "geryon-40"));
        const InaTopology& t = fabric->GetTopology();
        AllReduceRunner::Spec s;
        for (uint32_t i = 0; i < kWorkers; ++i)
        {
            s.hosts.push_back(t.FindNode("w" + std::to_string(i)));
        }
        s.ps = {t.FindNode("ps")};
        s.tensorBytes = {100000}; // 404 fragments
        TypedJobRun<GridProtocol, GridAgent> run(fabric, "geryon", s);
        const GridPlan& plan = run.protocol->GetPlan();
        NS_TEST_ASSERT_MSG_EQ(plan.directWorkers, kWorkers, "every worker direct");
        NS_TEST_ASSERT_MSG_EQ(plan.psFanIn, kWorkers, "one stream each into the PS");
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_fragments"), 404, "fragments at the PS");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_packets"), kWorkers * 404.0, "one per worker");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_results_sent"), kWorkers * 404.0, "one per worker");
        // The header's limit moves to 31 groups of 31: a plan beyond is refused at install.
        GridPlan wide = plan;
        wide.directWorkers = PoolHeader::MAX_FAN_IN * PoolHeader::MAX_FAN_IN;
        NS_TEST_EXPECT_MSG_EQ(run.protocol->CheckTrees(wide), "", "961 direct workers fit");
        ++wide.directWorkers;
        NS_TEST_EXPECT_MSG_EQ(run.protocol->CheckTrees(wide),
                              "the plan has 32 groups at the PS (0 aggregating switches, 962 "
                              "direct workers 31 to a group); the 5-bit fanInDegree1 and bitmap "
                              "allow 31: use fewer workers (jobs.N.workers)",
                              "962 do not");
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * atp-paced with a set of programmable switches (ProgrammableSwitches, the GRID paper's scenario
 * (b)) and more unaggregated workers than the pool header's 31: 21 racks of 2 workers, only tor0
 * programmable. tor0 aggregates its rack (the only level-1 group); the other 40 workers are no
 * switch's, so they share the PS's remaining groups 31 to one (they used to be 41 groups and the
 * job was refused). The rate model plans with tor0 alone, every sum is exact, and no other switch
 * runs a program. Refused: a switch name that is none. A set holding only the spine, where the
 * paper's model would aggregate every worker, installs no program: ATP aggregates at racks only,
 * so every worker goes to the PS (it used to be refused), paced at the PS's 100 Gb/s over 42.
 */
class AtpPacedProgrammableSetTestCase : public TestCase
{
  public:
    AtpPacedProgrammableSetTestCase()
        : TestCase("atp-paced on a set of switches, 40 unaggregated workers: exact")
    {
    }

  private:
    void DoRun() override
    {
        const char* text = "# inasim topology v1\n"
                           "defaults rate=10Gbps delay=1us\n"
                           "switch tor0..tor21 tier=tor\n"
                           "switch spine0 tier=spine\n"
                           "host w0..w41 attach=tor0..tor20\n"
                           "host ps attach=tor21 rate=100Gbps\n"
                           "link tor0..tor21 spine0 rate=400Gbps\n";
        InaFabricHelper helper;
        helper.SetQueue(1000000, 100000);
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FromString(text, "atp-set"));
        const InaTopology& t = fabric->GetTopology();
        AllReduceRunner::Spec s;
        for (uint32_t i = 0; i < 42; ++i)
        {
            s.hosts.push_back(t.FindNode("w" + std::to_string(i)));
        }
        s.ps = {t.FindNode("ps")};
        s.tensorBytes = {100000}; // 404 fragments
        s.attributes = {{"Level2", "false"},
                        {"PassWhenFull", "true"},
                        {"ProgrammableSwitches", "tor0"}};
        TypedJobRun<AtpPacedProtocol, AtpAgent> run(fabric, "atp-paced", s);
        NS_TEST_ASSERT_MSG_EQ(run.protocol->GetSwitches().size(), 1u, "a program at tor0 only");
        NS_TEST_ASSERT_MSG_EQ(run.protocol->GetSwitches()[0].node, t.FindNode("tor0"), "tor0");
        // The model: tor0's aggregate and 40 direct streams share the PS's 100 Gb/s.
        NS_TEST_ASSERT_MSG_EQ_TOL(run.protocol->GetPacedRateBps(), 100e9 / 41, 1e3, "paced");
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_EQ(run.Reason(AtpProgram::COMPLETED), 404u, "tor0 completes each");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        Simulator::Destroy();

        Ptr<InaFabric> other = helper.Build(InaTopology::FromString(text, "atp-set"));
        s.attributes.back().second = "tor0, spine7";
        std::string error = ErrorOf([&] {
            TypedJobRun<AtpPacedProtocol, AtpAgent> r(other, "atp-paced", s);
        });
        NS_TEST_EXPECT_MSG_EQ(error,
                              "ProgrammableSwitches: 'spine7' is not a switch of the topology",
                              "an unknown switch is named");
        Simulator::Destroy();

        // Only the spine: the paper's model would aggregate there, ATP's data plane cannot, so
        // the job runs as ATP's fallback path, every worker a stream into the PS.
        Ptr<InaFabric> third = helper.Build(InaTopology::FromString(text, "atp-set"));
        s.tiers = {"tor", "spine"};
        s.attributes.back().second = "spine0";
        TypedJobRun<AtpPacedProtocol, AtpAgent> spine(third, "atp-paced", s);
        NS_TEST_EXPECT_MSG_EQ(spine.protocol->GetSwitches().size(), 0u, "no program anywhere");
        NS_TEST_EXPECT_MSG_EQ_TOL(spine.protocol->GetPacedRateBps(), 100e9 / 42, 1e3, "direct");
        NS_TEST_EXPECT_MSG_EQ_TOL(spine.Counter("paper_model_rate_bps"),
                                  10e9,
                                  1e3,
                                  "the paper's model: spine0 aggregates all, the NICs bind");
        Simulator::Destroy();
    }
};

/// The rack baseline's fabric: 12 workers on tor0..tor3 (3 each), the PS on tor4 at 10 Gb/s,
/// every ToR on spine0 at 40 Gb/s (each switch aggregating up to 100 Gb/s, set by the test).
const char* RACKS = R"(# inasim topology v1
defaults rate=10Gbps delay=1us
switch tor0..tor4 tier=tor
switch spine0 tier=spine
host w0..w11 attach=tor0..tor3
host ps attach=tor4
link tor0..tor4 spine0 rate=40Gbps
)";

/**
 * \ingroup grid-test
 * The issue's ATP-style baseline (atp-paced): a worker whose rack switch is programmable
 * aggregates there, a worker whose rack switch is not goes straight to the PS, in one job. Of the
 * racks tor0..tor3 (3 workers each) only tor0 and tor2 are in ProgrammableSwitches, with spine0,
 * which every route crosses: the paper's model of ATP would aggregate tor1's and tor3's six
 * workers there (3 streams into the PS's 10 Gb/s: 3.33 Gb/s), ATP's one-level data plane does
 * not (2 aggregates and 6 direct streams: 1.25 Gb/s, the rate the workers are paced at). Counted
 * per switch: only tor0 and tor2 aggregate (3 gradients per fragment each, all of them without
 * loss), no other switch aggregates a packet, the PS merges 2 aggregates and 6 gradients per
 * fragment; the sums are exact at `loss` on every link direction. The old atp-paced refused the set
 * (its model's first programmable switch for tor1 was spine0).
 */
class AtpPacedRackBaselineTestCase : public LossyTestCase
{
  public:
    AtpPacedRackBaselineTestCase(double loss, int64_t stream)
        : LossyTestCase("atp-paced, rack switches some programmable, loss " + std::to_string(loss) +
                            ": aggregates at those only, exact",
                        loss,
                        stream)
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        helper.SetQueue(1000000, 100000);
        helper.SetLossRate(m_loss);
        helper.SetStreamBase(m_stream);
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FromString(RACKS, "atp-racks"));
        const InaTopology& t = fabric->GetTopology();
        for (const char* name : {"tor0", "tor1", "tor2", "tor3", "tor4", "spine0"})
        {
            // A capacity far above the job's load, so that each pipeline counts its work.
            fabric->GetSwitch(t.FindNode(name))
                ->GetPipeline()
                ->SetAggregationCapacity(100000000000ULL, 0);
        }
        AllReduceRunner::Spec s;
        for (uint32_t i = 0; i < 12; ++i)
        {
            s.hosts.push_back(t.FindNode("w" + std::to_string(i)));
        }
        s.ps = {t.FindNode("ps")};
        s.tiers = {"tor", "spine"};
        s.tensorBytes = {100000}; // 404 fragments
        s.attributes = {{"Level2", "false"},
                        {"PassWhenFull", "true"},
                        {"ProgrammableSwitches", "tor0, tor2, spine0"}};
        TypedJobRun<AtpPacedProtocol, AtpAgent> run(fabric, "atp-paced", s);
        NS_TEST_ASSERT_MSG_EQ_TOL(run.protocol->GetPacedRateBps(), 10e9 / 8, 1e3, "racks");
        NS_TEST_ASSERT_MSG_EQ_TOL(run.Counter("paper_model_rate_bps"), 10e9 / 3, 1e3, "spine");
        AllReduceRunner::RunAll({&run}, Seconds(5));
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetAggregatorsInUse(), 0, "nothing left held");
        for (const char* name : {"tor0", "tor1", "tor2", "tor3", "tor4", "spine0"})
        {
            const bool racks = std::string(name) == "tor0" || std::string(name) == "tor2";
            const uint64_t aggregated =
                fabric->GetSwitch(t.FindNode(name))->GetPipeline()->GetUsage().aggregationPackets;
            if (!racks)
            {
                NS_TEST_EXPECT_MSG_EQ(aggregated, 0u, name << " aggregates nothing");
            }
            else if (m_loss == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(aggregated, 3 * 404u, name << ": its rack, every packet");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(aggregated, 0u, name << " aggregates its rack");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(run.protocol->GetSwitches().size(), 2u, "programs at two racks");
        if (m_loss == 0)
        {
            NS_TEST_EXPECT_MSG_EQ(run.Reason(AtpProgram::COMPLETED), 2 * 404u, "at tor0, tor2");
            NS_TEST_EXPECT_MSG_EQ(run.Counter("ps_packets"), 8 * 404.0, "2 aggregates, 6 direct");
        }
        else
        {
            NS_TEST_EXPECT_MSG_GT(run.Sum(&AggregationAgent::Stats::retransmissions),
                                  0u,
                                  "losses were recovered");
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup grid-test
 * Set-up errors name the job and what is expected.
 */
class GridSetupErrorTestCase : public TestCase
{
  public:
    GridSetupErrorTestCase()
        : TestCase("set-up errors name what is wrong")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Fig1();
        AllReduceRunner::Spec s = Fig1Job(fabric);
        s.ps = {fabric->GetTopology().FindNode("ps"), fabric->GetTopology().FindNode("w8")};
        s.hosts.pop_back();
        NS_TEST_ASSERT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (grid): the job has 2 parameter servers; GRID plans for "
                              "exactly one (ps_hosts: 1)",
                              "two PSs");
        s = Fig1Job(fabric);
        s.tiers = {"spine"};
        NS_TEST_ASSERT_MSG_EQ(InstallError<JobRun>(fabric, s),
                              "job j1 (grid): no switch of the topology is in switch.ina_tiers "
                              "[spine]; GRID needs at least one programmable switch",
                              "no programmable switch");
        Simulator::Destroy();
    }
};

/// \ingroup grid-test
class GridProtocolTestSuite : public InaTestSuite
{
  public:
    GridProtocolTestSuite()
        : InaTestSuite("grid-protocol", TestSuite::Type::UNIT)
    {
        AddTestCase(new GridFig1TestCase);
        AddTestCase(new GridDirectWorkersTestCase);
        AddTestCase(new GridPacingTestCase);
        AddTestCase(new GridLossTestCase(0, 0));
        AddTestCase(new GridLossTestCase(0.01, 5));
        AddTestCase(new GridCollisionTestCase(0, 0));
        AddTestCase(new GridCollisionTestCase(0.01, 9));
        AddTestCase(new GridFragmentHashTestCase(0, 0));
        AddTestCase(new GridFragmentHashTestCase(0.01, 13));
        AddTestCase(new GridLeafSpineTestCase(0));
        AddTestCase(new GridLeafSpineTestCase(0.01));
        AddTestCase(new GridSetupErrorTestCase);
        AddTestCase(new GridReplanJobsTestCase(true));
        AddTestCase(new GridReplanJobsTestCase(false));
        AddTestCase(new AtpPacedReplanJobsTestCase);
        AddTestCase(new GridReplanLinkDownTestCase);
        AddTestCase(new GridSwitchFailReassignTestCase);
        AddTestCase(new GridSwitchFailPsFallbackTestCase);
        AddTestCase(new GridSwitchFailNoPlanTestCase);
        AddTestCase(new AtpPacedFig1TestCase);
        AddTestCase(new GeryonManyWorkersTestCase);
        AddTestCase(new AtpPacedProgrammableSetTestCase);
        AddTestCase(new AtpPacedRackBaselineTestCase(0, 0));
        AddTestCase(new AtpPacedRackBaselineTestCase(0.01, 17));
    }
};

static GridProtocolTestSuite g_gridProtocolTestSuite;

} // namespace
