/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Libra end to end on a star: training jobs whose sparse rounds go through the switch program
// (hot) and the sparse PS (cold), with every value checked; several jobs on one switch; a job the
// switch memory cannot hold; loss on every link; the sparse PS baseline (no hot keys).
#include "../../ina-fabric/test/error-of.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/double.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-fault-injector.h"
#include "ns3/ina-test-suite.h"
#include "ns3/libra-agent.h"
#include "ns3/libra-lns-adder.h"
#include "ns3/libra-program.h"
#include "ns3/libra-protocol.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <functional>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using Attrs = std::vector<std::pair<std::string, std::string>>;

/// A small sparse model: 200,000 rows, Zipf 1.0, 2,000 draws per worker and iteration, 3,000 hot
/// parameters in 16 registers (188 blocks), a 4-KB dense part.
Attrs
SmallModel()
{
    return {{"Workload", "custom"},
            {"Rows", "200000"},
            {"Exponent", "1.0"},
            {"AccessesPerIteration", "2000"},
            {"HotKeys", "3000"}};
}

Ptr<InaFabric>
Star(uint32_t hosts, double loss = 0)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    helper.SetLossRate(loss);
    return helper.Build(InaTopology::Star(hosts, {100000000000ULL, 1000000}));
}

/// Two leaves of five hosts (0-4, 5-9) and `spines` spines, 100 Gb/s links of 1 us.
Ptr<InaFabric>
TwoSpines(uint32_t spines = 2)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    const InaTopology::LinkSpec link{100000000000ULL, 1000000};
    return helper.Build(InaTopology::LeafSpine(2, spines, 5, link, link));
}

/// The failover attributes of the tests: exact adds, aggregating on spine0, standbys `standby`.
Attrs
FailoverModel(const std::string& standby)
{
    Attrs attrs = SmallModel();
    attrs.emplace_back("AddMode", "exact");
    attrs.emplace_back("Switch", "spine0");
    attrs.emplace_back("StandbySwitch", standby);
    attrs.emplace_back("MaxTimeouts", "100");
    return attrs;
}

/**
 * Switch `name` of each of `downs` fails at its time.
 * \return the injector (kept alive by the caller for the run)
 */
Ptr<InaFaultInjector>
SwitchesDown(Ptr<InaFabric> fabric, const std::vector<std::pair<std::string, Time>>& downs)
{
    Ptr<InaFaultInjector> faults = CreateObject<InaFaultInjector>();
    faults->SetFabric(fabric);
    for (const auto& [name, at] : downs)
    {
        faults->ScheduleSwitchDown(fabric->GetTopology().FindNode(name), at);
    }
    return faults;
}

/**
 * Every link of switch `name` starts losing `rate` of its packets at 10 us (fixed loss streams
 * from 1000 in link order): enough for the failover controller to take it for about to fail.
 * \return the injector (kept alive by the caller for the run)
 */
Ptr<InaFaultInjector>
LoseOnLinksOf(Ptr<InaFabric> fabric, const std::string& name, double rate)
{
    const InaTopology& topo = fabric->GetTopology();
    const uint32_t node = topo.FindNode(name);
    Ptr<InaFaultInjector> faults = CreateObject<InaFaultInjector>();
    faults->SetFabric(fabric);
    int64_t stream = 1000;
    for (uint32_t l = 0; l < topo.GetNLinks(); ++l)
    {
        if (topo.GetLink(l).a == node || topo.GetLink(l).b == node)
        {
            faults->ScheduleLinkLoss(l, rate, MicroSeconds(10), stream++);
        }
    }
    return faults;
}

/// A Libra training job on `fabric`: workers hosts[first .. first + n), the PS host `ps` (the
/// next host when not given), aggregating at the tiers `tiers`.
Ptr<TrainingJob>
MakeJob(Ptr<InaFabric> fabric,
        uint32_t jobId,
        uint32_t first,
        uint32_t n,
        uint32_t iterations,
        const Attrs& attrs,
        const std::string& protocol = "libra",
        uint32_t ps = UINT32_MAX,
        std::vector<std::string> tiers = {"tor"})
{
    JobContext ctx;
    ctx.fabric = fabric;
    ctx.jobId = jobId;
    ctx.name = "libra-" + std::to_string(jobId);
    for (uint32_t i = 0; i < n; ++i)
    {
        ctx.workerHosts.push_back(first + i);
    }
    ctx.psHosts = {ps == UINT32_MAX ? first + n : ps};
    ctx.inaTiers = std::move(tiers);
    ctx.seed = 11 + jobId;
    ctx.checkValues = true;
    ctx.flowIdBase = (jobId + 1) * JobContext::FLOW_IDS_PER_JOB;
    ObjectFactory f(AggregationProtocolRegistry::Lookup(protocol));
    for (const auto& [name, value] : attrs)
    {
        f.Set(name, StringValue(value));
    }
    Ptr<TrainingJob> job = CreateObject<TrainingJob>();
    job->SetAttribute("Iterations", UintegerValue(iterations));
    job->Setup(ctx, ModelZoo::TensorWorkload(4096), f.Create<AggregationProtocol>());
    return job;
}

/// \return the job's counter `name`; NaN when it has none (every check on it then fails)
double
Counter(Ptr<TrainingJob> job, const std::string& name)
{
    const std::map<std::string, double> counters = job->GetProtocol()->GetCounters();
    const auto it = counters.find(name);
    return it == counters.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

uint64_t
Reason(Ptr<LibraProgram> program, const std::string& name)
{
    return program->GetReasonCount(name);
}

} // namespace

/**
 * Four workers, three iterations, LNS add. Every round: each hot pair is added once (the switch's
 * pairs_aggregated equals the hot pairs the workers sent), every worker pulls once per push packet
 * and gets exactly those results back (none of the other workers' keys), the pipeline
 * recirculated exactly the passes the workers' Analyse predicted (pushes and their pulls alike),
 * the registers and their readers are back to zero after the last round (the last pull of a cell
 * resets it), and every hot value is within the tables' stated bound of the true sum and every
 * cold value exact.
 */
class LibraEndToEndTestCase : public TestCase
{
  public:
    LibraEndToEndTestCase(std::string mode)
        : TestCase("libra end to end, AddMode " + mode + ": every value checked, every pair once")
        , m_mode(std::move(mode))
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(5);
        Attrs attrs = SmallModel();
        attrs.emplace_back("AddMode", m_mode);
        Ptr<TrainingJob> job = MakeJob(fabric, 1, 0, 4, 3, attrs);
        job->Start();
        Simulator::Run();
        Ptr<LibraProtocol> protocol = DynamicCast<LibraProtocol>(job->GetProtocol());
        Ptr<LibraProgram> program = protocol->GetProgram();
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "every iteration completed");
        const double hotPairs = Counter(job, "hot_pairs");
        NS_TEST_EXPECT_MSG_GT(hotPairs, 0, "hot pairs went to the switch");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "cold_pairs"), 0, "cold pairs went to the PS");
        NS_TEST_EXPECT_MSG_EQ(Reason(program, "pairs_aggregated"),
                              static_cast<uint64_t>(hotPairs),
                              "every hot pair added exactly once");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "pull_packets"),
                              Counter(job, "hot_packets"),
                              "one pull per push packet");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "results_received"),
                              Counter(job, "pull_packets"),
                              "every pull answered once, to its worker only");
        NS_TEST_EXPECT_MSG_EQ(Reason(program, "unpushed_reads"),
                              0,
                              "no cell read beyond its pushes");
        NS_TEST_EXPECT_MSG_EQ(Reason(program, "rounds_completed"), 3, "three rounds");
        uint64_t predicted = 0;
        for (uint32_t r = 0; r < 4; ++r)
        {
            predicted += DynamicCast<LibraAgent>(job->GetWorkers()[r]->GetAgent())
                             ->GetCounters()
                             .recirculations;
        }
        NS_TEST_EXPECT_MSG_EQ(program->GetPipeline()->GetUsage().recirculations,
                              2 * predicted,
                              "the pipeline recirculated the passes the workers predicted, for "
                              "each push and again for its pull");
        for (uint32_t rank = 0; rank < protocol->GetHotKeys(); ++rank)
        {
            if (program->ReadHot(1, rank) != 0.0f || program->ReadReaders(1, rank) != 0)
            {
                NS_TEST_EXPECT_MSG_EQ(program->ReadHot(1, rank), 0.0f, "registers reset by pulls");
                NS_TEST_EXPECT_MSG_EQ(program->ReadReaders(1, rank), 0, "every reader pulled");
                break;
            }
        }
        NS_TEST_EXPECT_MSG_GT(Counter(job, "hot_values_checked"), 0, "hot values checked");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_value_errors"), 0, "hot values within bound");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "cold_values_checked"), 0, "cold values checked");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "cold_value_errors"), 0, "cold values exact");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "dense values and the sparse ones");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(Counter(job, "hot_worst_relative_error"),
                                    protocol->HotRelativeTolerance(4),
                                    "worst error within the 4-contribution bound");
        if (m_mode == "lns-approx")
        {
            // The log-domain add is not exact: some error must show (a bound that is never
            // approached would say nothing).
            NS_TEST_EXPECT_MSG_GT(Counter(job, "hot_worst_relative_error"), 0, "LNS rounding");
        }
        Simulator::Destroy();
    }

    std::string m_mode;
};

/**
 * Two jobs share the switch's Libra program, each with its own register range, and both come
 * out exact; a third job that the switch's Libra memory cannot hold is refused with a message
 * naming the numbers.
 */
class LibraMultiJobTestCase : public TestCase
{
  public:
    LibraMultiJobTestCase()
        : TestCase("two libra jobs share the switch; a third that does not fit is refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(12);
        // MemoryShare 0.0006 of 20 MiB = 3,145 keys of 4 B: 196 cells in each of 16 registers.
        // A job of 1,500 hot keys takes 94 cells: two fit (188), a third (282) does not.
        Attrs attrs = SmallModel();
        attrs.emplace_back("MemoryShare", "0.0006");
        attrs[4].second = "1500";
        Ptr<TrainingJob> a = MakeJob(fabric, 1, 0, 3, 2, attrs);
        Ptr<TrainingJob> b = MakeJob(fabric, 2, 4, 3, 2, attrs);
        bool refused = false;
        std::string what;
        try
        {
            MakeJob(fabric, 3, 8, 3, 2, attrs);
        }
        catch (const std::runtime_error& e)
        {
            refused = true;
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "the third job is refused");
        NS_TEST_EXPECT_MSG_NE(what.find("switch memory cannot hold its 1500 hot parameters"),
                              std::string::npos,
                              what);
        NS_TEST_EXPECT_MSG_NE(what.find("libra-1 1500, libra-2 1500"), std::string::npos, what);
        a->Start();
        b->Start();
        Simulator::Run();
        Ptr<LibraProgram> program = DynamicCast<LibraProtocol>(a->GetProtocol())->GetProgram();
        NS_TEST_EXPECT_MSG_EQ(program,
                              DynamicCast<LibraProtocol>(b->GetProtocol())->GetProgram(),
                              "one program per switch");
        for (const auto& job : {a, b})
        {
            NS_TEST_EXPECT_MSG_EQ(job->IsCompleted(), true, "completed");
            NS_TEST_EXPECT_MSG_GT(Counter(job, "hot_values_checked"), 0, "checked");
            NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_value_errors"), 0, "hot within bound");
            NS_TEST_EXPECT_MSG_EQ(Counter(job, "cold_value_errors"), 0, "cold exact");
        }
        Simulator::Destroy();
    }
};

/**
 * 1 % loss on every link direction: pushes, ACKs, DONEs, READYs, pulls and results get lost; the
 * workers resend, the switch CPU answers repeats from its records and resends held results. Every
 * value is still within bound (a push added twice would not be), and repeats were absorbed.
 */
class LibraLossTestCase : public TestCase
{
  public:
    LibraLossTestCase()
        : TestCase("libra under 1 % loss on every link: nothing lost, nothing added twice")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(5, 0.01);
        Attrs attrs = SmallModel();
        attrs.emplace_back("AddMode", "exact");
        Ptr<TrainingJob> job = MakeJob(fabric, 1, 0, 4, 3, attrs);
        job->Start();
        Simulator::Run();
        Ptr<LibraProgram> program = DynamicCast<LibraProtocol>(job->GetProtocol())->GetProgram();
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed despite loss");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "hot_resends"), 0, "workers resent lost packets");
        NS_TEST_EXPECT_MSG_GT(Reason(program, "retx_to_cpu"), 0, "resends went to the CPU");
        NS_TEST_EXPECT_MSG_GT(Reason(program, "repeats_absorbed"), 0, "repeats not re-applied");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "hot_values_checked"), 0, "checked");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_value_errors"), 0, "nothing lost or doubled");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "cold_value_errors"), 0, "cold exact");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "dense exact");
        NS_TEST_EXPECT_MSG_EQ(program->GetHeldCopies(), 0, "every held result acknowledged");
        NS_TEST_EXPECT_MSG_EQ(Reason(program, "unpushed_reads"),
                              0,
                              "no pull took effect twice (a cell read beyond its readers)");
        for (uint32_t rank = 0; rank < DynamicCast<LibraProtocol>(job->GetProtocol())->GetHotKeys();
             ++rank)
        {
            if (program->ReadReaders(1, rank) != 0 || program->ReadHot(1, rank) != 0.0f)
            {
                NS_TEST_EXPECT_MSG_EQ(program->ReadReaders(1, rank),
                                      0,
                                      "registers clean at the end");
                break;
            }
        }
        Simulator::Destroy();
    }
};

/**
 * libra-ps (HotKeys ignored): the sparse PS baseline. No program on the switch, every pair cold and
 * exact.
 */
class LibraSparsePsTestCase : public TestCase
{
  public:
    LibraSparsePsTestCase()
        : TestCase("libra-ps, the sparse PS baseline: no switch program, every pair cold and exact")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = Star(5);
        Ptr<TrainingJob> job = MakeJob(fabric, 1, 0, 4, 2, SmallModel(), "libra-ps");
        job->Start();
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetSwitch(5)->GetPipeline()->GetNPrograms(), 0, "no program");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_pairs"), 0, "nothing hot");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "cold_values_checked"), 0, "checked");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "cold_value_errors"), 0, "exact");
        Simulator::Destroy();
    }
};

/**
 * The sampled hot set (paper Sec. 3.3) and its precision (Fig. 15): a sample of the whole run is
 * the whole run, precision 1; a 5 % sample (one iteration of twenty) finds part of the hot set
 * and a 50 % one more, not all; with the law's hot set (the default) there is no precision to
 * report.
 */
class LibraSampledHotSetTestCase : public TestCase
{
  public:
    LibraSampledHotSetTestCase()
        : TestCase("libra sampled hot set: its precision against the whole run (Fig. 15)")
    {
    }

  private:
    /// \return the counters of a 2-iteration job with HotSet `source` sampled at `rate`
    std::map<std::string, double> Run(const std::string& source, const std::string& rate)
    {
        Ptr<InaFabric> fabric = Star(5);
        Attrs attrs = SmallModel();
        attrs.emplace_back("HotSet", source);
        attrs.emplace_back("SamplingRate", rate);
        attrs.emplace_back("SampleIterations", "20");
        Ptr<TrainingJob> job = MakeJob(fabric, 1, 0, 4, 2, attrs);
        job->Start();
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(job->IsCompleted(), true, "completed");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_value_errors"), 0, "hot values right");
        std::map<std::string, double> counters = job->GetProtocol()->GetCounters();
        Simulator::Destroy();
        return counters;
    }

    void DoRun() override
    {
        const auto whole = Run("sampled", "1");
        NS_TEST_EXPECT_MSG_EQ(whole.at("hot_set_precision"), 1.0, "the whole run is its own H_g");
        const auto small = Run("sampled", "0.05");
        const auto half = Run("sampled", "0.5");
        NS_TEST_EXPECT_MSG_GT(small.at("hot_set_precision"), 0.0, "a 5 % sample finds some");
        NS_TEST_EXPECT_MSG_GT(half.at("hot_set_precision"),
                              small.at("hot_set_precision"),
                              "a larger sample finds more");
        NS_TEST_EXPECT_MSG_LT(half.at("hot_set_precision"), 1.0, "but not all");
        const auto law = Run("true-ranks", "0.05");
        NS_TEST_EXPECT_MSG_EQ(law.count("hot_set_precision"), 0, "nothing sampled, no precision");
    }
};

/**
 * A failover test: after the run, the job's values and the standby it ended on.
 */
class LibraFailoverCase : public TestCase
{
  public:
    /// \param name the test's name
    explicit LibraFailoverCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * The job ended on `standby`, which aggregated, took no pull twice (a pull taking effect
     * twice reads a cell with no readers left) and is clean at the end (every cell read by all
     * its readers); every hot, cold and dense value is right.
     */
    void ExpectExactOn(Ptr<TrainingJob> job, Ptr<LibraProgram> standby)
    {
        NS_TEST_EXPECT_MSG_GT(Reason(standby, "pairs_aggregated"), 0, "the standby aggregated");
        NS_TEST_EXPECT_MSG_EQ(Reason(standby, "unpushed_reads"), 0, "no pull took effect twice");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "hot_values_checked"), 0, "checked");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_value_errors"), 0, "hot values exact");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "cold_value_errors"), 0, "cold exact");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "dense exact");
        const uint32_t hotKeys = DynamicCast<LibraProtocol>(job->GetProtocol())->GetHotKeys();
        for (uint32_t rank = 0; rank < hotKeys; ++rank)
        {
            if (standby->ReadReaders(1, rank) != 0 || standby->ReadHot(1, rank) != 0.0f)
            {
                NS_TEST_EXPECT_MSG_EQ(standby->ReadReaders(1, rank), 0, "standby clean at the end");
                break;
            }
        }
    }
};

/**
 * Failover (paper Sec. 3.6, Figure 11): a job aggregating on spine0 of a leaf-spine, with spine1
 * as its standby; spine0 fails in the middle of the second round. The controller's heartbeats go
 * unanswered, it takes spine0 for failed after HeartbeatTimeout, the job moves to spine1 and the
 * round that spine0's registers held (lost with it) is pushed and pulled again there: the job
 * completes with every value right, nothing added twice (a repeat would break the hot bound and
 * leave readers in the cells), and the standby's registers clean at the end.
 */
class LibraFailoverTestCase : public LibraFailoverCase
{
  public:
    LibraFailoverTestCase()
        : LibraFailoverCase(
              "libra failover: the switch fails mid-round, the job completes exact on the "
              "standby")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = TwoSpines();
        Ptr<TrainingJob> job =
            MakeJob(fabric, 1, 0, 4, 3, FailoverModel("spine1"), "libra", 5, {"spine"});
        Ptr<LibraProtocol> protocol = DynamicCast<LibraProtocol>(job->GetProtocol());
        Ptr<LibraProgram> primary = protocol->GetProgram();
        Ptr<LibraProgram> standby = protocol->GetStandbyProgram();
        NS_TEST_ASSERT_MSG_NE(standby, nullptr, "the standby runs Libra from the start");
        NS_TEST_ASSERT_MSG_NE(primary, standby, "on another switch");

        // A round takes about 27 us here (no computation): the second is under way at 40 us
        // when spine0 fails. That it was mid-round is asserted below (a round replayed).
        Ptr<InaFaultInjector> faults = SwitchesDown(fabric, {{"spine0", MicroSeconds(40)}});
        job->Start();
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed on the standby");
        NS_TEST_EXPECT_MSG_EQ(protocol->GetProgram(), standby, "the job moved to the standby");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failovers"), 1, "one failover");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_replayed_packets"),
                              0,
                              "the failure struck mid-round: the round was pushed again");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_replayed_round"), 1, "the second round");
        // The controller sees the outage from its last answered heartbeat: at least the
        // timeout, at most a period more (it checks once per period); simulated time.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(Counter(job, "failover_time_s"),
                                    9.9e-3 - 1e-12,
                                    "detection time");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(Counter(job, "failover_time_s"),
                                    9.9e-3 + 3.3e-3,
                                    "within a period of the timeout");
        ExpectExactOn(job, standby);
        Simulator::Destroy();
    }
};

/**
 * Failover with the state pulled (paper Sec. 3.6, Figure 11): spine0's links start losing 5 % of
 * their packets, which its heartbeat answers show (the share its ports lost, above the 1 %
 * LossThreshold), so the controller takes it for about to fail while it still answers: it pulls
 * the job's registers, records and held copies from spine0 (the job freezes there) and installs
 * them on spine1, then re-routes the job. Nothing is pushed again: the standby resumes the round
 * in progress from the migrated cells (some of them mid-round), the workers' unacknowledged
 * packets reach it as retransmissions that the migrated records sort out, and every value is
 * right.
 */
class LibraLiveMigrationTestCase : public LibraFailoverCase
{
  public:
    LibraLiveMigrationTestCase()
        : LibraFailoverCase(
              "libra failover: a switch about to fail has its state pulled to the standby "
              "mid-round, the job completes exact without replay")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = TwoSpines();
        Ptr<TrainingJob> job =
            MakeJob(fabric, 1, 0, 4, 60, FailoverModel("spine1"), "libra", 5, {"spine"});
        Ptr<LibraProtocol> protocol = DynamicCast<LibraProtocol>(job->GetProtocol());
        Ptr<LibraProgram> primary = protocol->GetProgram();
        Ptr<LibraProgram> standby = protocol->GetStandbyProgram();
        Ptr<InaFaultInjector> faults = LoseOnLinksOf(fabric, "spine0", 0.05);
        job->Start();
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed on the standby");
        NS_TEST_EXPECT_MSG_EQ(protocol->GetProgram(), standby, "the job moved to the standby");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failovers"), 1, "one failover");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_migrations"), 1, "with the state pulled");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_suspect_loss"), 0.01, "judged by its loss");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_replayed_packets"), 0, "nothing pushed again");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_state_live_cells"),
                              0,
                              "the state was of a round in progress: the standby did not start "
                              "empty");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_state_bytes"),
                              8.0 * protocol->GetHotKeys(),
                              "every cell and more moved");
        NS_TEST_EXPECT_MSG_EQ(primary->IsFrozen(1), true, "the job is frozen on spine0");
        NS_TEST_EXPECT_MSG_GT(Reason(primary, "frozen_drops"), 0, "packets that missed the move");
        ExpectExactOn(job, standby);
        Simulator::Destroy();
    }
};

/**
 * The heartbeat answer's delay is judged too (the paper's "response delay"): with a
 * ResponseDelayThreshold of 1 us, shorter than the 4 us round trip over two 1-us links, the first
 * judged answer makes spine0 suspect although it loses nothing; its state moves to spine1 and the
 * job completes there exact.
 */
class LibraResponseDelayTestCase : public LibraFailoverCase
{
  public:
    LibraResponseDelayTestCase()
        : LibraFailoverCase("libra failover: a slow heartbeat answer makes the switch suspect")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = TwoSpines();
        Attrs attrs = FailoverModel("spine1");
        attrs.emplace_back("ResponseDelayThreshold", "1us");
        Ptr<TrainingJob> job = MakeJob(fabric, 1, 0, 4, 3, attrs, "libra", 5, {"spine"});
        Ptr<LibraProtocol> protocol = DynamicCast<LibraProtocol>(job->GetProtocol());
        job->Start();
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed on the standby");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_migrations"), 1, "state pulled");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_suspect_loss"), 0, "not for its loss");
        ExpectExactOn(job, protocol->GetStandbyProgram());
        Simulator::Destroy();
    }
};

/**
 * Two failures in one run: spine0 fails mid-round, the job moves to spine1 (the round pushed
 * again, spine0's registers being lost), then spine1 fails mid-round too and the job moves to
 * spine2, the next standby of the list. It completes with every value right. No link loses
 * anything, so no switch is ever taken for about to fail (no migration).
 */
class LibraTwoFailuresTestCase : public LibraFailoverCase
{
  public:
    LibraTwoFailuresTestCase()
        : LibraFailoverCase(
              "libra failover: two switches fail in one run, the job completes exact on "
              "the second standby")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = TwoSpines(3);
        Ptr<TrainingJob> job =
            MakeJob(fabric, 1, 0, 4, 12, FailoverModel("spine1, spine2"), "libra", 5, {"spine"});
        Ptr<LibraProtocol> protocol = DynamicCast<LibraProtocol>(job->GetProtocol());
        const std::vector<Ptr<LibraProgram>> standbys = protocol->GetStandbyPrograms();
        NS_TEST_ASSERT_MSG_EQ(standbys.size(), 2, "two standbys, Libra on both from the start");
        // spine0 fails in the second round; spine1 takes over at 9.9 ms (the heartbeat
        // timeout) and fails 60 us later, while a round is out on it (asserted below: two
        // rounds replayed, the second after 9.9 ms).
        Ptr<InaFaultInjector> faults =
            SwitchesDown(fabric, {{"spine0", MicroSeconds(40)}, {"spine1", MicroSeconds(9960)}});
        job->Start();
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed on the second standby");
        NS_TEST_EXPECT_MSG_EQ(protocol->GetProgram(), standbys[1], "the job is on spine2");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failovers"), 2, "two failovers");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_migrations"), 0, "no switch was suspect");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(Counter(job, "failover_at_s"),
                                    19.8e-3 - 1e-12,
                                    "the second one: a heartbeat timeout after the first");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_replayed_round"), 1, "a later round replayed");
        NS_TEST_EXPECT_MSG_GT(Reason(standbys[0], "pairs_aggregated"), 0, "spine1 aggregated");
        ExpectExactOn(job, standbys[1]);
        Simulator::Destroy();
    }
};

/**
 * The standby fails while the state is installed on it (paper Sec. 3.6, Figure 11, the case its
 * text leaves open): spine0 loses 5 % of its packets, so its state is pulled (the job frozen
 * there), and spine1, the first standby, fails the moment the controller starts installing it.
 * spine1 answers no install chunk; after a heartbeat timeout without progress the controller takes
 * it for failed and installs the state it holds on spine2, the next standby, and the job resumes
 * there from the pulled state: nothing pushed again, every value right, spine1 never aggregated.
 * With no second standby the job ends, naming both switches. spine1 is struck from inside the run
 * (a watcher sees the controller holding the pulled state while migrating, i.e. installing), so
 * the case does not depend on when the loss is noticed.
 */
class LibraStandbyFailsDuringInstallTestCase : public LibraFailoverCase
{
  public:
    /// \param standbys the StandbySwitch list: "spine1, spine2" or "spine1" (none left after it)
    explicit LibraStandbyFailsDuringInstallTestCase(std::string standbys)
        : LibraFailoverCase("libra failover: the standby fails while the state is installed on "
                            "it (StandbySwitch " +
                            standbys + ")")
        , m_standbys(std::move(standbys))
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = TwoSpines(3);
        Ptr<TrainingJob> job =
            MakeJob(fabric, 1, 0, 4, 60, FailoverModel(m_standbys), "libra", 5, {"spine"});
        Ptr<LibraProtocol> protocol = DynamicCast<LibraProtocol>(job->GetProtocol());
        const std::vector<Ptr<LibraProgram>> standbys = protocol->GetStandbyPrograms();
        Ptr<LibraController> controller = protocol->GetController();
        const uint32_t spine1 = fabric->GetTopology().FindNode("spine1");
        Ptr<InaFaultInjector> faults = LoseOnLinksOf(fabric, "spine0", 0.05);
        // The watcher looks every 100 ns of simulated time until it strikes or the run is past
        // any migration of this job (50 ms); the install of this state takes microseconds.
        Time struckAt(-1);
        std::function<void()> watch = [&]() {
            if (controller->IsMigrating() && controller->HoldsState())
            {
                struckAt = Simulator::Now();
                faults->ScheduleSwitchDown(spine1, Simulator::Now());
                return;
            }
            if (Simulator::Now() < MilliSeconds(50))
            {
                Simulator::Schedule(NanoSeconds(100), MakeInaFunctorEvent(watch));
            }
        };
        Simulator::Schedule(NanoSeconds(100), MakeInaFunctorEvent(watch));
        job->Start();
        Simulator::Run();

        NS_TEST_ASSERT_MSG_GT(struckAt, Time(0), "spine1 failed during the install");
        NS_TEST_EXPECT_MSG_EQ(Reason(standbys[0], "pairs_aggregated"),
                              0,
                              "spine1 never aggregated");
        if (standbys.size() == 1)
        {
            NS_TEST_EXPECT_MSG_EQ(job->IsCompleted(), false, "not completed");
            const std::string why = job->GetGiveUpReason();
            NS_TEST_EXPECT_MSG_NE(why.find("the state of switch spine0 was pulled, but standby "
                                           "spine1 failed while it was installed and no standby "
                                           "is left"),
                                  std::string::npos,
                                  why);
            NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_no_standby_left"), 1, "none left");
            NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_value_errors"), 0, "what was checked is right");
            Simulator::Destroy();
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed on the second standby");
        NS_TEST_EXPECT_MSG_EQ(protocol->GetProgram(), standbys[1], "the job is on spine2");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failovers"), 1, "one move, spine0 to spine2");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_migrations"), 1, "with the state pulled");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_replayed_packets"), 0, "nothing pushed again");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_state_resends"),
                              0,
                              "install chunks to spine1 went unanswered and were sent again");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_at_s"),
                              struckAt.GetSeconds() + 9.9e-3 - 1e-12,
                              "spine2 took over a heartbeat timeout after spine1 stopped");
        NS_TEST_EXPECT_MSG_GT(Counter(job, "failover_state_live_cells"),
                              0,
                              "the state installed on spine2 was of a round in progress");
        ExpectExactOn(job, standbys[1]);
        Simulator::Destroy();
    }

    std::string m_standbys; //!< the StandbySwitch list
};

/**
 * A second failure with no standby left ends the job cleanly: its workers give up naming the
 * failed switch (the run then ends with completed: false and that reason), instead of
 * retransmitting into a dead switch until MaxTimeouts.
 */
class LibraNoStandbyLeftTestCase : public TestCase
{
  public:
    LibraNoStandbyLeftTestCase()
        : TestCase("libra failover: a failure with no standby left ends the job with the reason")
    {
    }

  private:
    void DoRun() override
    {
        // Three spines, so that the cold and dense traffic still has spine2 when both Libra
        // switches are gone (and the simulation ends with the flows done).
        Ptr<InaFabric> fabric = TwoSpines(3);
        Ptr<TrainingJob> job =
            MakeJob(fabric, 1, 0, 4, 12, FailoverModel("spine1"), "libra", 5, {"spine"});
        Ptr<InaFaultInjector> faults =
            SwitchesDown(fabric, {{"spine0", MicroSeconds(40)}, {"spine1", MicroSeconds(9960)}});
        job->Start();
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(job->IsCompleted(), false, "not completed");
        NS_TEST_EXPECT_MSG_EQ(job->HasGivenUp(), true, "given up");
        const std::string why = job->GetGiveUpReason();
        NS_TEST_EXPECT_MSG_NE(why.find("its aggregating switch spine1 failed and no standby "
                                       "switch is left"),
                              std::string::npos,
                              why);
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failovers"), 1, "the first one");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "failover_no_standby_left"), 1, "then none left");
        NS_TEST_EXPECT_MSG_EQ(Counter(job, "hot_value_errors"), 0, "what was checked is right");
        Simulator::Destroy();
    }
};

/**
 * A failover the workers could not live through is refused when the job is set up: MaxTimeouts x
 * Rto shorter than the detection; so are a standby the topology does not have and a standby list
 * with an empty item.
 */
class LibraFailoverConfigTestCase : public TestCase
{
  public:
    LibraFailoverConfigTestCase()
        : TestCase("libra failover: a give-up shorter than the detection is refused, naming keys")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = TwoSpines();
        Attrs attrs = SmallModel();
        attrs.emplace_back("Switch", "spine0");
        attrs.emplace_back("StandbySwitch", "spine1");
        // The message a job with these attributes is refused with ("" if it is not).
        auto refusal = [&fabric](uint32_t jobId, const Attrs& a) {
            return tests::ErrorOf<std::runtime_error>([&] {
                MakeJob(fabric, jobId, 0, 4, 1, a, "libra", 5, {"spine"});
            });
        };
        std::string what = refusal(1, attrs);
        NS_TEST_EXPECT_MSG_NE(what.find("MaxTimeouts 15 x Rto 200 us gives up before the failover"),
                              std::string::npos,
                              what);
        NS_TEST_EXPECT_MSG_NE(what.find("raise MaxTimeouts to at least 67"),
                              std::string::npos,
                              what);
        attrs.back().second = "leaf9";
        what = refusal(2, attrs);
        NS_TEST_EXPECT_MSG_NE(what.find("StandbySwitch leaf9: the topology has no node"),
                              std::string::npos,
                              what);
        attrs.back().second = "spine1,,spine0";
        what = refusal(3, attrs);
        NS_TEST_EXPECT_MSG_NE(
            what.find(
                "StandbySwitch: 'spine1,,spine0': item 2 of the comma-separated list is empty"),
            std::string::npos,
            what);
        Simulator::Destroy();
    }
};

class LibraProtocolTestSuite : public InaTestSuite
{
  public:
    LibraProtocolTestSuite()
        : InaTestSuite("libra-protocol", Type::UNIT)
    {
        AddTestCase(new LibraEndToEndTestCase("lns-approx"));
        AddTestCase(new LibraEndToEndTestCase("exact"));
        AddTestCase(new LibraMultiJobTestCase);
        AddTestCase(new LibraLossTestCase);
        AddTestCase(new LibraSparsePsTestCase);
        AddTestCase(new LibraSampledHotSetTestCase);
        AddTestCase(new LibraFailoverTestCase);
        AddTestCase(new LibraLiveMigrationTestCase);
        AddTestCase(new LibraResponseDelayTestCase);
        AddTestCase(new LibraTwoFailuresTestCase);
        AddTestCase(new LibraStandbyFailsDuringInstallTestCase("spine1, spine2"));
        AddTestCase(new LibraStandbyFailsDuringInstallTestCase("spine1"));
        AddTestCase(new LibraNoStandbyLeftTestCase);
        AddTestCase(new LibraFailoverConfigTestCase);
    }
};

static LibraProtocolTestSuite g_libraProtocolTestSuite;
