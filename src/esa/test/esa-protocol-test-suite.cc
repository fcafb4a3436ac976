/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// End-to-end tests of EsaProtocol on real fabrics: exactness with check_values on one rack and on
// two levels, jobs colliding on a small pool (preemptions and fallbacks, both exact, every
// aggregator freed), the worker's reminders (at the third later result, on a tail loss after
// RtoMin), loss from 0 to 1 % with 1 to 16 jobs (every job completes, no value error),
// the ablations, the priority's inputs (as attributes, and derived from a training job's workload:
// the worker and EsaJobProfile agree piece by piece), and set-up errors. INASIM_LONG_TESTS=1 adds
// 16 jobs of 1 MB at 1 % loss.

#include "../../ina-protocol-kit/test/protocol-test-fabric.h"
#include "../../ina-training/test/test-job-context.h"

#include "ns3/esa-agent.h"
#include "ns3/esa-parameter-server.h"
#include "ns3/esa-program.h"
#include "ns3/esa-protocol.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

using namespace ns3::tests;

using JobSpec = SmallJobSpec;

/// One ESA job. Tensor t is piece t of iteration 1, as WorkerApp numbers them (ESA maps pieces
/// to layers).
using JobRun = TypedJobRun<EsaProtocol, EsaAgent>;

/// ESA's jobs here take at most 5 simulated seconds unless a test says otherwise.
const JobsRunner RunJobs(5);

/// A small pool the jobs must share: 64 aggregators, windows of at most 32 fragments.
std::vector<std::pair<std::string, std::string>>
SmallPool(std::vector<std::pair<std::string, std::string>> more = {})
{
    std::vector<std::pair<std::string, std::string>> a{{"PoolSize", "64"},
                                                       {"MaxWindow", "32"},
                                                       {"InitialWindow", "32"},
                                                       {"MinWindow", "4"}};
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

/**
 * \ingroup esa-test
 * 8 workers and their PS in one rack, three tensors (1 MB, 10 kB and one 62-value fragment:
 * 4033 + 41 + 1 = 4075 fragments): every fragment completes in the switch and is multicast from
 * there (the PS sees nothing), every element within the bound, every aggregator free at the end.
 */
class EsaStarTestCase : public TestCase
{
  public:
    EsaStarTestCase()
        : TestCase("one rack: aggregated and multicast by the switch, exact, all freed")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(9);
        JobSpec s;
        s.hosts = Range(0, 8);
        s.ps = {8};
        s.tensorBytes = {1000000, 10000, 248};
        JobRun run(fabric, s);
        RunJobs({&run});
        NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
        NS_TEST_ASSERT_MSG_EQ(run.ValueErrors(), 0u, "exact");
        NS_TEST_ASSERT_MSG_EQ(run.Reason(EsaProgram::COMPLETED), 4075u, "every fragment here");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_packets"), 0, "nothing at the PS");
        NS_TEST_ASSERT_MSG_EQ(run.Counter("ps_results_sent"), 0, "no result from the PS");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetAggregatorsInUse(), 0u, "all freed");
        NS_TEST_ASSERT_MSG_EQ(run.Reason(EsaProgram::PREEMPTED), 0u, "nothing to preempt");
        Simulator::Destroy();
    }
};

/**
 * \ingroup esa-test
 * Two jobs of 4 workers on a pool of 64 aggregators, their workers starting 2 us apart (so
 * aggregators wait for stragglers), the second job far more urgent (ratio 4 against 0.25):
 * fragments collide, the urgent job preempts and the other falls back; both results are exact, and
 * every aggregator is free at the end (stuck partials are flushed by reminders).
 */
class EsaCollisionTestCase : public TestCase
{
  public:
    EsaCollisionTestCase(const std::string& mode)
        : TestCase("two jobs collide on a small pool (" + mode + "): both exact, all freed")
        , m_mode(mode)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(10);
        JobSpec a;
        a.jobId = 1;
        a.name = "a";
        a.hosts = Range(0, 4);
        a.ps = {8};
        a.tensorBytes = {200000};
        a.attributes = SmallPool(
            {{"Preemption", m_mode}, {"CommCompRatio", "0.25"}, {"PriorityScale", "1ms"}});
        JobSpec b = a;
        // Job ids 1 and 3: their slot tables share aggregators (CRC32 is linear, so on a pool of
        // 64 the tables of jobs 1 and 2 happen to be disjoint).
        b.jobId = 3;
        b.name = "b";
        b.hosts = Range(4, 4);
        b.ps = {9};
        b.seed = 8;
        b.attributes =
            SmallPool({{"Preemption", m_mode}, {"CommCompRatio", "4"}, {"PriorityScale", "1ms"}});
        // Workers of a job start apart, as stragglers do: aggregators wait, and collide.
        a.startPs = {0, 2 * US, 4 * US, 6 * US};
        b.startPs = {1 * US, 3 * US, 5 * US, 7 * US};
        JobRun ra(fabric, a);
        JobRun rb(fabric, b);
        RunJobs({&ra, &rb});
        NS_TEST_ASSERT_MSG_EQ(ra.Complete() && rb.Complete(), true, "both complete");
        NS_TEST_ASSERT_MSG_EQ(ra.ValueErrors(), 0u, "a exact");
        NS_TEST_ASSERT_MSG_EQ(rb.ValueErrors(), 0u, "b exact");
        NS_TEST_ASSERT_MSG_GT(ra.Reason(EsaProgram::COLLISION), 0u, "collisions happened");
        NS_TEST_ASSERT_MSG_GT(ra.Reason(EsaProgram::PREEMPTED), 0u, "preemptions happened");
        if (m_mode != "always")
        {
            NS_TEST_ASSERT_MSG_GT(ra.Reason(EsaProgram::FALLBACK), 0u, "fallbacks happened");
        }
        NS_TEST_ASSERT_MSG_GT(ra.Counter("ps_packets") + rb.Counter("ps_packets"),
                              0,
                              "the PSs completed what the switch could not");
        NS_TEST_ASSERT_MSG_EQ(ra.Reason(EsaProgram::DUPLICATE_CONTRIBUTION), 0u, "never twice");
        NS_TEST_ASSERT_MSG_EQ(fabric->GetAggregatorsInUse(), 0u, "all freed");
        Simulator::Destroy();
    }

    std::string m_mode;
};

/**
 * \ingroup esa-test
 * One job of 4 workers alone on a pool of 64 aggregators with a window of 32, its workers 2 us
 * apart (so aggregators wait for the straggler): with the default hash, ATP's (the paper's Section
 * 5.1: "the hash function is the same as ATP's"), the fragments a job has in flight hold distinct
 * aggregators, so nothing collides and the PS sees nothing. Hashing every sequence number on its
 * own (IndexHash=fragment) puts 32 fragments in flight on 64 aggregators and makes them collide.
 */
class EsaSelfCollisionTestCase : public TestCase
{
  public:
    EsaSelfCollisionTestCase()
        : TestCase("one job never collides with itself under the default hash")
    {
    }

  private:
    /// Run the job; return its switch's collisions.
    static uint64_t Collisions(const std::vector<std::pair<std::string, std::string>>& more,
                               bool& exact)
    {
        Ptr<InaFabric> fabric = Star(5);
        JobSpec a;
        a.hosts = Range(0, 4);
        a.ps = {4};
        a.tensorBytes = {200000};
        a.attributes = SmallPool(more);
        a.startPs = {0, 2 * US, 4 * US, 6 * US};
        JobRun ra(fabric, a);
        RunJobs({&ra});
        exact = ra.Complete() && ra.ValueErrors() == 0;
        const uint64_t c = ra.Reason(EsaProgram::COLLISION);
        Simulator::Destroy();
        return c;
    }

    void DoRun() override
    {
        bool exact = false;
        NS_TEST_ASSERT_MSG_EQ(Collisions({}, exact), 0u, "no self-collision by default");
        NS_TEST_ASSERT_MSG_EQ(exact, true, "complete and exact");
        NS_TEST_ASSERT_MSG_GT(Collisions({{"IndexHash", "fragment"}}, exact),
                              0u,
                              "per-fragment hashing collides with itself");
        NS_TEST_ASSERT_MSG_EQ(exact, true, "complete and exact all the same");
    }
};

/// Drops chosen results (the first copy of each) on their way into one worker's agent, and notes
/// when every result reached it (the last copy: a recovered one after a drop).
class ResultTap : public EndpointTap
{
  public:
    ResultTap(Ptr<InaHost> host, uint16_t endpoint, Ptr<EsaAgent> agent)
        : EndpointTap(host, endpoint, agent)
    {
    }

    std::set<uint64_t> drop;               //!< results to drop once
    std::set<uint64_t> dropped;            //!< results dropped
    std::map<uint64_t, int64_t> arrivedPs; //!< when each result last reached the agent

  private:
    bool Pass(const InaPacket* p) override
    {
        if ((p->Header<PoolHeader>()->flags & PoolHeader::FLAG_ACK) == 0)
        {
            return true;
        }
        if (drop.count(p->seq) != 0 && dropped.insert(p->seq).second)
        {
            return false;
        }
        arrivedPs[p->seq] = Simulator::Now().GetTimeStep();
        return true;
    }
};

/// Notes when each worker reminder reaching a parameter server was sent, by fragment.
class ReminderTap : public EndpointTap
{
  public:
    ReminderTap(Ptr<InaHost> host, uint16_t endpoint, Ptr<PoolParameterServer> server)
        : EndpointTap(host, endpoint, server)
    {
    }

    std::map<uint64_t, std::vector<int64_t>> sentPs; //!< send times of the reminders, by fragment

  private:
    bool Pass(const InaPacket* p) override
    {
        const PoolHeader* h = p->Header<PoolHeader>();
        if (EsaHeader::GetKind(h) == EsaHeader::CONTROL &&
            h->reserved == EsaHeader::WORKER_REMINDER)
        {
            sentPs[p->seq].push_back(p->sentPs);
        }
        return true;
    }
};

/**
 * \ingroup esa-test
 * The worker's side of loss recovery (Sections 5.1, 5.3 and 6): 8 workers and their PS in one
 * rack, 100 fragments, every one in flight at once; worker 3 misses chosen results.
 * - Results 10 and 20 lost (Case 2, twice): worker 3 reminds its PS about 10 at the instant the
 *   third result above it arrives ("three gradient fragments with larger sequence number than the
 *   expected"), and about 20 only when 10's recovered result arrives: a reminder covers the
 *   expected fragment, the first of the window, alone, so the second gap waits for the first. No
 *   timeout, nobody else reminds.
 * - The last result lost (a tail loss: nothing follows it to count): worker 3 reminds when its
 *   timeout expires, exactly RtoMin (the paper's 1 ms) after the last result it received; the
 *   PS, which never saw the fragment (the switch completed it), queries the other workers, whose
 *   caches hold the result (Case 2).
 */
class EsaWorkerReminderTestCase : public TestCase
{
  public:
    EsaWorkerReminderTestCase()
        : TestCase("a worker reminds at the third later result, about the expected fragment "
                   "alone; a tail loss waits RtoMin")
    {
    }

  private:
    void DoRun() override
    {
        for (const bool tail : {false, true})
        {
            Ptr<InaFabric> fabric = Star(9);
            JobRun run(fabric, OneRack(8, 100));
            const uint16_t endpoint = run.protocol->GetEndpoint();
            ResultTap results(fabric->GetHost(3), endpoint, run.agents[3]);
            const PoolProtocol::Tree& tree = run.protocol->GetTrees().at(0);
            ReminderTap reminders(fabric->GetHost(tree.psHost), endpoint, tree.server);
            results.drop = tail ? std::set<uint64_t>{100} : std::set<uint64_t>{10, 20};
            RunJobs({&run});
            const std::string where = tail ? "tail" : "10 and 20";
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "every worker done, " << where);
            NS_TEST_EXPECT_MSG_EQ(run.ValueErrors(), 0, "exact, " << where);
            NS_TEST_ASSERT_MSG_EQ(results.dropped.size(), results.drop.size(), "dropped");
            const EsaAgent::EsaCounters& w3 = run.agents[3]->GetEsaCounters();
            const auto& ps = DynamicCast<EsaParameterServer>(tree.server)->GetEsaCounters();
            uint64_t othersReminders = 0;
            for (uint32_t r = 0; r < 8; ++r)
            {
                const EsaAgent::EsaCounters& c = run.agents[r]->GetEsaCounters();
                othersReminders += r == 3 ? 0
                                          : c.dupAckReminders + c.timeoutReminders +
                                                c.stallReminders + c.aheadReminders;
            }
            NS_TEST_EXPECT_MSG_EQ(othersReminders, 0, "only worker 3 reminds, " << where);
            NS_TEST_EXPECT_MSG_EQ(w3.stallReminders + w3.aheadReminders, 0, where);
            if (!tail)
            {
                NS_TEST_EXPECT_MSG_EQ(w3.dupAckReminders, 2, "one per gap");
                NS_TEST_EXPECT_MSG_EQ(w3.timeoutReminders, 0, "no timeout");
                NS_TEST_EXPECT_MSG_EQ(ps.workerReminders, 2, "both reach the PS");
                NS_TEST_ASSERT_MSG_EQ(reminders.sentPs[10].size(), 1, "one about 10");
                NS_TEST_ASSERT_MSG_EQ(reminders.sentPs[20].size(), 1, "one about 20");
                NS_TEST_EXPECT_MSG_EQ(reminders.sentPs[10][0],
                                      results.arrivedPs[13],
                                      "10 is reminded about at the third result above it");
                NS_TEST_EXPECT_MSG_GT(reminders.sentPs[10][0],
                                      results.arrivedPs[12],
                                      "not at the second");
                NS_TEST_EXPECT_MSG_EQ(reminders.sentPs[20][0],
                                      results.arrivedPs[10],
                                      "20 waits until 10's recovered result is in");
                NS_TEST_EXPECT_MSG_GT(results.arrivedPs[10],
                                      results.arrivedPs[23],
                                      "which came after the third result above 20");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(w3.dupAckReminders, 0, "nothing above the tail");
                NS_TEST_EXPECT_MSG_EQ(w3.timeoutReminders, 1, "the timeout reminds");
                NS_TEST_EXPECT_MSG_EQ(ps.pulls, 7, "the PS queries the 7 others (Case 2)");
                NS_TEST_EXPECT_MSG_GT(ps.cachedResults, 0, "they answer from their caches");
                NS_TEST_ASSERT_MSG_EQ(reminders.sentPs[100].size(), 1, "one about 100");
                NS_TEST_EXPECT_MSG_EQ(reminders.sentPs[100][0] - results.arrivedPs[99],
                                      1000 * US,
                                      "RtoMin after the last result received");
                NS_TEST_EXPECT_MSG_GT(run.FinishPs(3) - run.FinishPs(0), 1000 * US, "late");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup esa-test
 * Independent random loss on every link, `jobs` jobs of 4 workers each with its PS on one switch
 * (jobs start 2 us apart and their workers 0.7 us apart, on a pool of 256 aggregators so they
 * collide): every
 * job completes and every element is exact.
 */
class EsaLossTestCase : public TestCase
{
  public:
    EsaLossTestCase(double loss, uint32_t jobs, uint64_t bytes)
        : TestCase("loss " + std::to_string(loss * 100).substr(0, 4) + " %, " +
                   std::to_string(jobs) + " jobs of " + std::to_string(bytes / 1000) +
                   " kB: all complete, exact")
        , m_loss(loss)
        , m_jobs(jobs)
        , m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(5 * m_jobs, m_loss, 11);
        std::vector<std::unique_ptr<JobRun>> runs;
        std::vector<JobRun*> ptrs;
        for (uint32_t j = 0; j < m_jobs; ++j)
        {
            JobSpec s;
            s.jobId = j + 1;
            s.name = "j" + std::to_string(j);
            s.hosts = Range(5 * j, 4);
            s.ps = {5 * j + 4};
            s.tensorBytes = {m_bytes, 6200};
            s.seed = 100 + j;
            s.attributes = {{"PoolSize", "256"},
                            {"MaxWindow", "128"},
                            {"InitialWindow", "128"},
                            {"CommCompRatio", j % 2 == 0 ? "2" : "0.5"},
                            {"Layers", "2"},
                            {"TensorLayers", "2,1"}};
            for (uint32_t r = 0; r < 4; ++r)
            {
                s.startPs.push_back(2 * US * j + 700000 * r); // stragglers 0.7 us apart
            }
            runs.push_back(std::make_unique<JobRun>(fabric, s));
            ptrs.push_back(runs.back().get());
        }
        RunJobs(ptrs, Seconds(30));
        for (uint32_t j = 0; j < m_jobs; ++j)
        {
            NS_TEST_ASSERT_MSG_EQ(runs[j]->Complete(), true, "job " << j << " complete");
            NS_TEST_ASSERT_MSG_EQ(runs[j]->ValueErrors(), 0u, "job " << j << " exact");
        }
        if (m_loss >= 0.01)
        {
            NS_TEST_ASSERT_MSG_GT(runs[0]->Counter("ps_reminders"), 0, "reminders at work");
        }
        Simulator::Destroy();
    }

    double m_loss;
    uint32_t m_jobs;
    uint64_t m_bytes;
};

/**
 * \ingroup esa-test
 * Two levels on a leaf-spine (2 spines, 4 leaves of 4 hosts): a job of 6 workers over two racks
 * and its PS in a third, with a second job on the same racks, 0.1 % loss: the racks aggregate at
 * level 1, the PS's rack at level 2, both exact.
 */
class EsaTwoLevelTestCase : public TestCase
{
  public:
    EsaTwoLevelTestCase()
        : TestCase("two levels on a leaf-spine, two jobs, 0.1 % loss: exact")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = LeafSpine(4, 2, 4, 0.001, 5);
        JobSpec a;
        a.hosts = {0, 1, 2, 4, 5, 6};
        a.ps = {8};
        a.tiers = {"leaf"};
        a.tensorBytes = {120000};
        a.attributes = {{"PoolSize", "128"}, {"MaxWindow", "64"}, {"InitialWindow", "64"}};
        JobSpec b = a;
        b.jobId = 2;
        b.name = "j2";
        b.hosts = {3, 7, 12, 13};
        b.ps = {9};
        b.seed = 9;
        b.startPs.assign(4, US);
        JobRun ra(fabric, a);
        JobRun rb(fabric, b);
        NS_TEST_ASSERT_MSG_EQ(ra.protocol->GetTrees()[0].level2, true, "a two-level tree");
        RunJobs({&ra, &rb});
        NS_TEST_ASSERT_MSG_EQ(ra.Complete() && rb.Complete(), true, "both complete");
        NS_TEST_ASSERT_MSG_EQ(ra.ValueErrors(), 0u, "a exact");
        NS_TEST_ASSERT_MSG_EQ(rb.ValueErrors(), 0u, "b exact");
        NS_TEST_ASSERT_MSG_GT(ra.Reason(EsaProgram::LEVEL1_DONE), 0u, "level-1 aggregates");
        Simulator::Destroy();
    }
};

/**
 * \ingroup esa-test
 * The priority's inputs reach the packets: with a fixed T of 1 ms, two layers and a ratio of 2,
 * the first tensor (layer 2) gets round(64 ms x 1000/s x 2/2 x 2) = 128 and the second (layer 1)
 * 256, clamped to 255 (and counted).
 */
class EsaPriorityInputsTestCase : public TestCase
{
  public:
    EsaPriorityInputsTestCase()
        : TestCase("the priority's attributes: fixed time, layers, ratio, clamping")
    {
    }

  private:
    void DoRun() override
    {
        for (int tensors = 1; tensors <= 2; ++tensors)
        {
            Ptr<InaFabric> fabric = Star(3);
            JobSpec s;
            s.hosts = {0, 1};
            s.ps = {2};
            s.tensorBytes = std::vector<uint64_t>(tensors, 2480);
            s.attributes = {{"PriorityTimeSource", "fixed"},
                            {"FixedTime", "1ms"},
                            {"Layers", "2"},
                            {"TensorLayers", "2,1"},
                            {"CommCompRatio", "2"}};
            JobRun run(fabric, s);
            RunJobs({&run});
            NS_TEST_ASSERT_MSG_EQ(run.Complete(), true, "complete");
            const int expectPriority = tensors == 1 ? 128 : 255;
            const double expectClamps = tensors == 1 ? 0 : 2;
            NS_TEST_ASSERT_MSG_EQ(+run.agents[0]->GetLastPriority(),
                                  expectPriority,
                                  "the last tensor's priority");
            NS_TEST_ASSERT_MSG_EQ(run.Counter("priority_clamped_high"),
                                  expectClamps,
                                  "one clamp per worker for layer 1");
            Simulator::Destroy();
        }
    }
};

/**
 * \ingroup esa-test
 * Set-ups that cannot work fail at install with a message naming the attribute.
 */
class EsaSetupErrorTestCase : public TestCase
{
  public:
    EsaSetupErrorTestCase()
        : TestCase("impossible set-ups fail at install, clearly")
    {
    }

  private:
    void DoRun() override
    {
        auto contains = [](const std::string& s, const std::string& part) {
            return s.find(part) != std::string::npos;
        };
        JobSpec s;
        s.hosts = {0, 1};
        s.ps = {2};
        {
            Ptr<InaFabric> fabric = Star(6);
            JobSpec bad = s;
            bad.attributes = {{"Layers", "2"}, {"TensorLayers", "2,x"}};
            const std::string e = InstallError<JobRun>(fabric, bad);
            NS_TEST_ASSERT_MSG_EQ(contains(e, "TensorLayers is '2,x'"), true, e);
            bad.attributes = {{"Layers", "2"}, {"TensorLayers", "2,1,"}};
            const std::string trailing = InstallError<JobRun>(fabric, bad);
            NS_TEST_ASSERT_MSG_EQ(
                contains(trailing,
                         "TensorLayers: '2,1,': item 3 of the comma-separated list is empty"),
                true,
                trailing);
            bad.attributes = {{"Layers", "2"}, {"TensorLayers", "3,1"}};
            const std::string f = InstallError<JobRun>(fabric, bad);
            NS_TEST_ASSERT_MSG_EQ(contains(f, "TensorLayers names layer 3 but Layers is 2"),
                                  true,
                                  f);
            bad.attributes = {{"PriorityScale", "0s"}};
            NS_TEST_ASSERT_MSG_EQ(contains(InstallError<JobRun>(fabric, bad), "PriorityScale"),
                                  true,
                                  "");
            Simulator::Destroy();
        }
        {
            Ptr<InaFabric> fabric = Star(6);
            JobSpec a = s;
            a.attributes = {{"Preemption", "always"}};
            JobRun first(fabric, a);
            JobSpec b = s;
            b.jobId = 2;
            b.hosts = {3, 4};
            b.ps = {5};
            const std::string e = InstallError<JobRun>(fabric, b);
            NS_TEST_ASSERT_MSG_EQ(contains(e, "must agree on Preemption"), true, e);
            Simulator::Destroy();
        }
    }
};

/// A worker's hand-off to its agent.
struct HandOff
{
    uint64_t id;
    uint64_t bytes;
    int64_t at; //!< ps
};

/// Records every hand-off and returns the tensor 1 us later (values untouched: not checked).
class RecordingAgent : public AggregationAgent
{
  public:
    std::vector<HandOff>* handed = nullptr;

  private:
    void DoSetup() override
    {
    }

    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override
    {
        handed->push_back({tensorId, bytes, Simulator::Now().GetTimeStep()});
        Simulator::Schedule(MicroSeconds(1), MakeInaFunctorEvent([this, tensorId]() {
                                NotifyDone(tensorId);
                            }));
    }
};

/// The recording agents' protocol.
class RecordingProtocol : public AggregationProtocol
{
  public:
    std::vector<std::vector<HandOff>> handed; //!< per rank

  private:
    void DoInstall() override
    {
        handed.assign(GetContext().workerHosts.size(), {});
    }

    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override
    {
        Ptr<RecordingAgent> a = CreateObject<RecordingAgent>();
        a->handed = &handed[rank];
        return a;
    }
};

/**
 * Three layers: l0 4960 B (forward 1 us, backward 2 us), l1 2480 B (1 us, 3 us), l2 7440 B (1 us,
 * 4 us); PartitionBytes 2480, so six 2480-B pieces: three of l2 ready at 3 + 4 = 7 us, one of l1
 * at 10 us, two of l0 at 12 us.
 */
ModelSpec
ThreeLayers()
{
    ModelSpec m;
    m.name = "three-layers";
    m.layers.push_back({"l0", 4960, 1000000, 2000000});
    m.layers.push_back({"l1", 2480, 1000000, 3000000});
    m.layers.push_back({"l2", 7440, 1000000, 4000000});
    return m;
}

JobContext
TrainingContext(Ptr<InaFabric> fabric)
{
    JobContext ctx = TestJobContext(fabric, "j1", {0, 1}, 5, true);
    ctx.psHosts = {2};
    ctx.inaTiers = {"tor"};
    ctx.flowIdBase = JobContext::FLOW_IDS_PER_JOB;
    return ctx;
}

Ptr<TrainingJob>
ThreeLayerJob(uint32_t iterations)
{
    Ptr<TrainingJob> job = CreateObject<TrainingJob>();
    job->SetAttribute("Iterations", UintegerValue(iterations));
    job->SetWorkerAttribute("PartitionBytes", UintegerValue(2480));
    job->SetWorkerAttribute("SendOrder", StringValue("bytescheduler"));
    return job;
}

/**
 * \ingroup esa-test
 * EsaJobProfile replays the worker's hand-offs piece by piece. On a 1 Gb/s star a piece takes
 * 19.84 us, so the ByteScheduler-style order is l2's first piece (ready at 7 us, the sender idle),
 * then, once it is sent, the front-most ready pieces: l0's two, l1's, l2's other two. The worker
 * hands the first at 7 us and the rest at 12 us, when l0 is ready: at forward (3 us) + backward
 * (9 us) - the backward still to run, which the profile says is 5 us for the first and 0 after.
 */
class EsaProfileAgreesWithWorkerTestCase : public TestCase
{
  public:
    EsaProfileAgreesWithWorkerTestCase()
        : TestCase("the job profile and the worker agree piece by piece")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = TestStar(3, 1000000000ULL);
        Ptr<RecordingProtocol> protocol = CreateObject<RecordingProtocol>();
        Ptr<TrainingJob> job = ThreeLayerJob(2);
        RunJobToEnd(job, TrainingContext(fabric), ThreeLayers(), protocol);
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        const EsaJobProfile profile = EsaJobProfile::FromContext(protocol->GetContext());
        const auto& pieces = profile.GetPieces();
        const uint32_t layers[6] = {3, 1, 1, 2, 3, 3};
        const int64_t computeLeft[6] = {5 * US, 0, 0, 0, 0, 0};
        NS_TEST_ASSERT_MSG_EQ(pieces.size(), 6, "six pieces");
        for (uint32_t r = 0; r < 2; ++r)
        {
            const std::vector<HandOff>& h = protocol->handed[r];
            NS_TEST_ASSERT_MSG_EQ(h.size(), 12, "six pieces, twice");
            for (uint32_t p = 0; p < 6; ++p)
            {
                NS_TEST_EXPECT_MSG_EQ(h[p].id, WorkerApp::TensorId(0, p), "handed in order");
                NS_TEST_EXPECT_MSG_EQ(h[p].bytes, pieces[p].bytes, "bytes of piece " << p);
                NS_TEST_EXPECT_MSG_EQ(pieces[p].layer, layers[p], "layer of piece " << p);
                NS_TEST_EXPECT_MSG_EQ(pieces[p].computePs, computeLeft[p], "piece " << p);
                NS_TEST_EXPECT_MSG_EQ(h[p].at,
                                      12 * US - pieces[p].computePs,
                                      "handed when the profile says, piece " << p);
                NS_TEST_EXPECT_MSG_EQ(h[6 + p].id, WorkerApp::TensorId(1, p), "iteration 1");
                NS_TEST_EXPECT_MSG_EQ(h[6 + p].bytes, pieces[p].bytes, "iteration 1");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * \ingroup esa-test
 * Without Layers, TensorLayers or CommCompRatio, ESA takes them from the training job's workload.
 * At 100 Gb/s a piece takes 0.1984 us and the sender keeps up with the backward pass, so the
 * pieces go in backward order: layers 3, 3, 3, 2, 1, 1. Comm / Comp: 14,880 B at 100 Gb/s =
 * 1.1904 us over 3 + 9 us of computation = 0.0992. The last tensor (iteration 1 of 2, piece 5:
 * layer 1) has T = 2480 B at 100 Gb/s = 0.1984 us, so P = (1 / 0.1984 us) (3 / 1) 0.0992 =
 * 1.5e6 / s; with PriorityScale 100 us its priority is 150. The attributes override one by one.
 */
class EsaPriorityFromWorkloadTestCase : public TestCase
{
  public:
    EsaPriorityFromWorkloadTestCase()
        : TestCase("the priority's inputs come from the job's model unless given")
    {
    }

  private:
    static Ptr<EsaProtocol> Install(std::vector<std::pair<std::string, std::string>> attributes,
                                    Ptr<TrainingJob>* job,
                                    std::string* error)
    {
        Ptr<InaFabric> fabric = TestStar(3);
        ObjectFactory f("ns3::EsaProtocol");
        for (const auto& [name, value] : attributes)
        {
            f.Set(name, StringValue(value));
        }
        Ptr<EsaProtocol> protocol = f.Create<EsaProtocol>();
        *job = ThreeLayerJob(2);
        *error = ErrorOf([&] {
            (*job)->Setup(TrainingContext(fabric), ThreeLayers(), protocol);
        });
        return protocol;
    }

    void DoRun() override
    {
        Ptr<TrainingJob> job;
        std::string error;
        Ptr<EsaProtocol> p = Install({{"PriorityScale", "100us"}}, &job, &error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "installs");
        NS_TEST_ASSERT_MSG_EQ((p->GetProfile() != nullptr), true, "a profile from the context");
        const EsaJobProfile own = EsaJobProfile::FromContext(job->GetContext());
        const uint32_t layers[6] = {3, 3, 3, 2, 1, 1};
        NS_TEST_EXPECT_MSG_EQ(p->GetLayers(), 3, "L_j from the model");
        for (uint32_t piece = 0; piece < 6; ++piece)
        {
            NS_TEST_EXPECT_MSG_EQ(p->LayerOf(piece), layers[piece], "piece " << piece);
            NS_TEST_EXPECT_MSG_EQ(p->LayerOf(piece), own.LayerOf(piece), "as the profile");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(p->GetCommCompRatio(), 0.0992, 1e-12, "Comm / Comp");
        NS_TEST_EXPECT_MSG_EQ_TOL(p->GetCommCompRatio(),
                                  own.CommCompRatio(100e9),
                                  1e-15,
                                  "as the profile");
        job->Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "exact");
        NS_TEST_EXPECT_MSG_EQ(job->GetValuesChecked(), 2 * 2 * 14880 / 4, "every value checked");
        const auto agent = DynamicCast<EsaAgent>(job->GetWorkers()[0]->GetAgent());
        NS_TEST_EXPECT_MSG_EQ(+agent->GetLastPriority(), 150, "the last tensor's priority");
        Simulator::Destroy();

        p = Install({{"TensorLayers", "1"}, {"CommCompRatio", "2"}}, &job, &error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "installs");
        NS_TEST_EXPECT_MSG_EQ(p->GetLayers(), 3, "L_j still the model's");
        NS_TEST_EXPECT_MSG_EQ(p->LayerOf(0), 1, "TensorLayers overrides");
        NS_TEST_EXPECT_MSG_EQ(p->GetCommCompRatio(), 2, "CommCompRatio overrides");
        Simulator::Destroy();

        p = Install({{"Layers", "5"}}, &job, &error);
        NS_TEST_ASSERT_MSG_EQ(error, "", "installs");
        NS_TEST_EXPECT_MSG_EQ(p->GetLayers(), 5, "Layers overrides");
        NS_TEST_EXPECT_MSG_EQ(p->LayerOf(0), 3, "the pieces' layers still the model's");
        Simulator::Destroy();

        p = Install({{"Layers", "2"}}, &job, &error);
        NS_TEST_EXPECT_MSG_NE(error.find("attribute Layers is 2 but the model 'three-layers' "
                                         "hands a piece of layer 3"),
                              std::string::npos,
                              error);
        Simulator::Destroy();
    }
};

/**
 * \ingroup esa-test
 * The test suite.
 */
class EsaProtocolTestSuite : public InaTestSuite
{
  public:
    EsaProtocolTestSuite()
        : InaTestSuite("esa-protocol", TestSuite::Type::UNIT)
    {
        AddTestCase(new EsaStarTestCase);
        AddTestCase(new EsaCollisionTestCase("priority"));
        AddTestCase(new EsaCollisionTestCase("always"));
        AddTestCase(new EsaCollisionTestCase("random"));
        AddTestCase(new EsaSelfCollisionTestCase);
        AddTestCase(new EsaWorkerReminderTestCase);
        AddTestCase(new EsaLossTestCase(0, 1, 100000));
        AddTestCase(new EsaLossTestCase(0.001, 4, 100000));
        AddTestCase(new EsaLossTestCase(0.01, 4, 100000));
        AddTestCase(new EsaTwoLevelTestCase);
        AddTestCase(new EsaPriorityInputsTestCase);
        AddTestCase(new EsaSetupErrorTestCase);
        AddTestCase(new EsaProfileAgreesWithWorkerTestCase);
        AddTestCase(new EsaPriorityFromWorkloadTestCase);
        if (std::getenv("INASIM_LONG_TESTS") != nullptr)
        {
            AddTestCase(new EsaLossTestCase(0.01, 16, 1000000));
        }
    }
};

/// Static variable for test initialization
static EsaProtocolTestSuite g_esaProtocolTestSuite;

} // namespace
