/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of the sharded parameter-server baseline: exact sums and hand-counted shards, packets and
// bytes with one server, the split of shards between two servers, exactness under loss, tensors of
// several sizes in flight with workers starting at different times, a whole training job, and the
// errors bad input gets.

#include "host-baseline-rig.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/enum.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/object-factory.h"
#include "ns3/parameter-server-app.h"
#include "ns3/sharded-ps-agent.h"
#include "ns3/sharded-ps-protocol.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

// Callback sinks are free/static functions bound with MakeBoundCallback: ns-3 <= 3.35
// Callbacks cannot wrap lambdas.

/// Done callback sink: keeps the latest completion time, ps.
void
KeepLatestDone(int64_t* last, uint64_t /* tensorId */)
{
    *last = std::max(*last, Simulator::Now().GetTimeStep());
}

/// A PS job on a star: workers on hosts 0..n-1, servers on hosts n..n+s-1.
struct Ps : HostBaselineRig<ShardedPsProtocol, ShardedPsAgent>
{
    Ps(uint32_t n,
       uint32_t s,
       bool values,
       uint64_t shardBytes = 0,
       const std::string& placement = "hash",
       double lossRate = 0)
        : HostBaselineRig(n + s, lossRate)
    {
        if (shardBytes != 0)
        {
            protocol->SetAttribute("ShardBytes", UintegerValue(shardBytes));
        }
        protocol->SetAttribute("Placement", StringValue(placement));
        std::vector<uint32_t> servers;
        for (uint32_t p = 0; p < s; ++p)
        {
            servers.push_back(n + p);
        }
        Install("ps-test", n, servers, 3, values);
    }
};

} // namespace

/**
 * Four workers, one server, 1 MiB shards. Tensor 1 (3 MiB + 8 bytes) makes 3 full shards
 * of 731 packets (730 of 1436 bytes and one of 296) and one of 8 bytes; tensor 2 (1000 bytes) one
 * shard of one packet: 2195 packets per worker each way, 5 shards at the server.
 */
class PsOneServerTestCase : public TestCase
{
  public:
    PsOneServerTestCase()
        : TestCase("one server: exact sums, shards, packets and bytes by hand")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        Ps ps(n, 1, true, MIB);
        const std::vector<uint64_t> ids = {1, 2};
        const std::vector<uint64_t> sizes = {3 * MIB + 8, 1000};
        ps.AllReduceAll(ids, sizes);
        Simulator::Run();
        const uint64_t payload = sizes[0] + sizes[1];
        const uint64_t packets = 3 * 731 + 1 + 1;
        const uint64_t wire = payload + packets * HEADER;
        for (uint32_t w = 0; w < n; ++w)
        {
            NS_TEST_EXPECT_MSG_EQ(ps.doneIds[w].size(), 2, "worker " << w << " completed both");
            for (uint32_t t = 0; t < 2; ++t)
            {
                NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ps.Seed(), ids[t], n, ps.values[w][t]),
                                      0,
                                      "worker " << w << " tensor " << ids[t]);
            }
            const AggregationAgent::Stats& s = ps.agents[w]->GetStats();
            NS_TEST_EXPECT_MSG_EQ(s.packetsSent, packets, "worker " << w << " push packets");
            NS_TEST_EXPECT_MSG_EQ(s.wireBytesSent, wire, "worker " << w << " push wire bytes");
            NS_TEST_EXPECT_MSG_EQ(s.psFallbackPackets, 0, "not an INA fallback");
            NS_TEST_EXPECT_MSG_EQ(ps.agents[w]->GetPushSender(0)->GetStats().payloadBytesAcked,
                                  payload,
                                  "every byte pushed once");
            NS_TEST_EXPECT_MSG_EQ(ps.agents[w]->GetPullReceiver(0)->GetStats().payloadBytes,
                                  payload,
                                  "every byte pulled once");
            NS_TEST_EXPECT_MSG_EQ(ps.agents[w]->GetOutstandingTensors(), 0, "nothing left");
        }
        const ParameterServerApp::Stats st = ps.protocol->GetServer(0)->GetStats();
        NS_TEST_EXPECT_MSG_EQ(st.shardsReduced, 5, "4 + 1 shards");
        NS_TEST_EXPECT_MSG_EQ(st.pushesReceived, 4 * 5, "from every worker");
        NS_TEST_EXPECT_MSG_EQ(st.bytesReceived, 4 * payload, "every worker's tensors");
        NS_TEST_EXPECT_MSG_EQ(st.packetsSent, 4 * packets, "the sums to every worker");
        NS_TEST_EXPECT_MSG_EQ(st.wireBytesSent, 4 * wire, "pull wire bytes");
        NS_TEST_EXPECT_MSG_EQ(ps.protocol->GetServer(0)->GetPendingShards(), 0, "nothing pending");
        auto counters = ps.protocol->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(counters["ps_servers"], 1, "one server");
        NS_TEST_EXPECT_MSG_EQ(counters["ps_shards_reduced"], 5, "counter");
        NS_TEST_EXPECT_MSG_EQ(counters["ps_wire_bytes_sent"], 4.0 * wire, "counter");
        Simulator::Destroy();
    }
};

/**
 * Four workers push 16 MiB each to one server: its link is the bottleneck. Every 256 KiB shard is
 * 183 packets (182 of 1436 bytes and one of 792), 64 shards per worker; the server's downlink
 * carries the four workers' pushes and the ACKs of its four pull flows. With small shards the
 * pulls overlap the pushes, so the all-reduce ends within 5 % of that link's time.
 */
class PsBoundTestCase : public TestCase
{
  public:
    PsBoundTestCase()
        : TestCase("one server: the all-reduce takes its link's time for n tensors")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t bytes = 16 * MIB;
        Ps ps(n, 1, false);
        int64_t last = 0;
        for (uint32_t w = 0; w < n; ++w)
        {
            ps.agents[w]->SetDoneCallback(MakeBoundCallback(&KeepLatestDone, &last));
            ps.agents[w]->AllReduce(1, bytes, nullptr);
        }
        Simulator::Run();
        const uint64_t packets = 64 * 183;
        const int64_t bound =
            static_cast<int64_t>(n * (bytes + packets * HEADER) + n * packets * 64) * 80;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(last, bound, "not faster than the server's link");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(last,
                                    bound + bound / 20,
                                    "finished at " << last << " ps, server link bound " << bound);
        NS_TEST_EXPECT_MSG_EQ(ps.protocol->GetServer(0)->GetStats().shardsReduced, 64, "shards");
        Simulator::Destroy();
    }
};

/**
 * Two servers. Round-robin: a tensor of 8 shards puts 4 on each. Hash: the servers get the shards
 * ServerOf names, which for these 24 keys are not all on one server. Sums exact either way.
 */
class PsTwoServersTestCase : public TestCase
{
  public:
    PsTwoServersTestCase()
        : TestCase("two servers split the shards between them, sums exact")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        for (const std::string placement : {"round-robin", "hash"})
        {
            Ps ps(n, 2, true, 64 * KIB, placement);
            const std::vector<uint64_t> ids =
                placement == "hash" ? std::vector<uint64_t>{1, 2, 3} : std::vector<uint64_t>{5};
            ps.AllReduceAll(ids, std::vector<uint64_t>(ids.size(), 512 * KIB));
            Simulator::Run();
            for (uint32_t w = 0; w < n; ++w)
            {
                NS_TEST_EXPECT_MSG_EQ(ps.doneIds[w].size(), ids.size(), placement << ": completed");
                for (uint32_t t = 0; t < ids.size(); ++t)
                {
                    NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ps.Seed(), ids[t], n, ps.values[w][t]),
                                          0,
                                          placement << ": worker " << w << " tensor " << ids[t]);
                }
            }
            const uint64_t s0 = ps.protocol->GetServer(0)->GetStats().shardsReduced;
            const uint64_t s1 = ps.protocol->GetServer(1)->GetStats().shardsReduced;
            if (placement == "round-robin")
            {
                NS_TEST_EXPECT_MSG_EQ(s0, 4, "half the shards");
                NS_TEST_EXPECT_MSG_EQ(s1, 4, "half the shards");
                for (uint32_t k = 0; k + 1 < 8; ++k)
                {
                    NS_TEST_EXPECT_MSG_NE(
                        ShardedPsProtocol::ServerOf(5, k, 2, ShardedPsProtocol::ROUND_ROBIN),
                        ShardedPsProtocol::ServerOf(5, k + 1, 2, ShardedPsProtocol::ROUND_ROBIN),
                        "consecutive shards, consecutive servers");
                }
            }
            else
            {
                uint64_t on0 = 0;
                for (uint64_t id : ids)
                {
                    for (uint32_t k = 0; k < 8; ++k)
                    {
                        on0 += ShardedPsProtocol::ServerOf(id, k, 2, ShardedPsProtocol::HASH) == 0;
                    }
                }
                NS_TEST_EXPECT_MSG_EQ(s0, on0, "server 0 reduced the shards it owns");
                NS_TEST_EXPECT_MSG_EQ(s1, 24 - on0, "server 1 the others");
                NS_TEST_EXPECT_MSG_GT(s0, 0, "both servers used");
                NS_TEST_EXPECT_MSG_GT(s1, 0, "both servers used");
                // Each server's pushes: 4 workers x its shards, 64 KiB each.
                NS_TEST_EXPECT_MSG_EQ(ps.protocol->GetServer(0)->GetStats().bytesReceived,
                                      4 * on0 * 64 * KIB,
                                      "server 0 bytes in");
            }
            Simulator::Destroy();
        }
    }
};

/// 1 % loss on every link direction, two servers: still exact.
class PsLossTestCase : public TestCase
{
  public:
    PsLossTestCase()
        : TestCase("sharded PS under 1 % loss is still exact")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        Ps ps(n, 2, true, 128 * KIB, "hash", 0.01);
        ps.AllReduceAll({9}, {MIB + 44});
        Simulator::Run();
        uint64_t retransmissions = 0;
        for (uint32_t w = 0; w < n; ++w)
        {
            NS_TEST_ASSERT_MSG_EQ(ps.doneIds[w].size(), 1, "worker " << w << " completed");
            NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ps.Seed(), 9, n, ps.values[w][0]),
                                  0,
                                  "worker " << w);
            retransmissions += ps.agents[w]->GetStats().retransmissions;
        }
        retransmissions += ps.protocol->GetCounters()["ps_retransmissions"];
        NS_TEST_EXPECT_MSG_GT(retransmissions, 0, "the loss was felt");
        Simulator::Destroy();
    }
};

/**
 * Tensors of several sizes (one empty, one under a packet) handed by workers that start at
 * different times; every worker completes every tensor, exact. A job of one worker round-trips.
 */
class PsSeveralTensorsTestCase : public TestCase
{
  public:
    PsSeveralTensorsTestCase()
        : TestCase("several tensors in flight, workers starting at different times, all exact")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 3;
        Ps ps(n, 2, true, 256 * KIB);
        const std::vector<uint64_t> ids = {20, 21, 22, 23};
        const std::vector<uint64_t> sizes = {MIB + 12, 0, 100, 300 * KIB};
        ps.AllReduceAt(ids, sizes, {40, 0, 15});
        Simulator::Run();
        for (uint32_t w = 0; w < n; ++w)
        {
            NS_TEST_EXPECT_MSG_EQ(ps.doneIds[w].size(), ids.size(), "worker " << w);
            for (uint32_t t = 0; t < ids.size(); ++t)
            {
                NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ps.Seed(), ids[t], n, ps.values[w][t]),
                                      0,
                                      "worker " << w << " tensor " << ids[t]);
            }
        }
        Simulator::Destroy();

        Ps one(1, 1, true);
        std::vector<float> v;
        GradientValues::Fill(one.Seed(), 1, 0, 1000, v);
        const std::vector<float> original = v;
        one.agents[0]->AllReduce(1, 4000, &v);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(one.doneIds[0].size(), 1, "one worker completes");
        NS_TEST_EXPECT_MSG_EQ((v == original), true, "with its own values");
        NS_TEST_EXPECT_MSG_EQ(one.protocol->GetServer(0)->GetStats().shardsReduced,
                              1,
                              "via the server");
        Simulator::Destroy();
    }
};

/// The protocol under a TrainingJob, looked up by its scenario name.
class PsTrainingJobTestCase : public HostBaselineTestCase
{
  public:
    PsTrainingJobTestCase()
        : HostBaselineTestCase("a training job over sharded PS completes with exact aggregates")
    {
    }

  private:
    void DoRun() override
    {
        JobContext ctx = TestJobContext(TestStar(6), "ps-job", {0, 2, 4, 5}, 4, true);
        ctx.jobId = 2;
        ctx.psHosts = {3, 1};
        ctx.flowIdBase = 1u << 20;
        Ptr<TrainingJob> job = RunTwoLayerJob(ctx, "ps", 3);
        ExpectTwoLayerJobExact(job, 4, 3);
        // Shards per iteration with the default 256 KiB: 2 (400000 B) + 5 (1200004 B).
        auto counters = job->GetProtocol()->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(counters["ps_shards_reduced"], 3 * 7, "seven shards per iteration");
        Simulator::Destroy();
    }
};

/// Bad configuration is refused at Install with the job, the attribute and the value.
class PsErrorsTestCase : public HostBaselineTestCase
{
  public:
    PsErrorsTestCase()
        : HostBaselineTestCase("bad configuration is refused with a clear message")
    {
    }

  private:
    void DoRun() override
    {
        ExpectRegistered<ShardedPsProtocol>("ps",
                                            "ns3::ShardedPsProtocol",
                                            true,
                                            "the job must place ps_hosts");
        Ptr<InaFabric> fabric = TestStar(4);
        auto install = [fabric](std::vector<uint32_t> ps, uint64_t shardBytes) -> std::string {
            Ptr<ShardedPsProtocol> p = CreateObject<ShardedPsProtocol>();
            p->SetAttribute("ShardBytes", UintegerValue(shardBytes));
            JobContext ctx = TestJobContext(fabric, "j1", {0, 1});
            ctx.psHosts = ps;
            return InstallError(p, ctx);
        };
        std::string e = install({}, MIB);
        NS_TEST_EXPECT_MSG_EQ(e,
                              "job 'j1' (protocol ps): needs at least one parameter server "
                              "(ps_hosts), got none",
                              e);
        e = install({2, 7}, MIB);
        NS_TEST_EXPECT_MSG_EQ(e,
                              "job 'j1' (protocol ps): parameter server 1 is on host 7, but the "
                              "fabric has hosts 0..3",
                              e);
        e = install({2}, 6);
        NS_TEST_EXPECT_MSG_EQ(e,
                              "job 'j1' (protocol ps): ShardBytes must be a positive multiple of "
                              "4 (whole 32-bit values), got 6",
                              e);
        Simulator::Destroy();
    }
};

class ShardedPsTestSuite : public InaTestSuite
{
  public:
    ShardedPsTestSuite()
        : InaTestSuite("ina-sharded-ps", TestSuite::Type::UNIT)
    {
        AddTestCase(new PsOneServerTestCase);
        AddTestCase(new PsBoundTestCase);
        AddTestCase(new PsTwoServersTestCase);
        AddTestCase(new PsLossTestCase);
        AddTestCase(new PsSeveralTensorsTestCase);
        AddTestCase(new PsTrainingJobTestCase);
        AddTestCase(new PsErrorsTestCase);
    }
};

static ShardedPsTestSuite g_shardedPsTestSuite;
