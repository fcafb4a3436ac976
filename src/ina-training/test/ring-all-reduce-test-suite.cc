/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of the ring all-reduce baseline: the segment and chunk layout by hand, exact sums, the
// 2 (n - 1) / n bytes per worker and the bus-bandwidth bound on a non-blocking star, exactness
// under loss, a ring of one, several tensors in flight with ranks starting at different times,
// virtual payloads of odd sizes, a whole training job, and the errors bad input gets.

#include "host-baseline-rig.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/object-factory.h"
#include "ns3/ring-all-reduce-agent.h"
#include "ns3/ring-all-reduce-protocol.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::tests;

namespace
{

constexpr uint64_t MSS = 1436;      // payload of a 1500-byte packet after 64 bytes of headers
constexpr uint64_t ACK = 64;        // InaTransportReceiver::AckBytes
constexpr int64_t PS_PER_BYTE = 80; // 100 Gb/s

bool
LongTests()
{
    const char* v = std::getenv("INASIM_LONG_TESTS");
    return v != nullptr && std::string(v) == "1";
}

// Callback sinks are free/static functions bound with MakeBoundCallback: ns-3 <= 3.35
// Callbacks cannot wrap lambdas.

/// Done callback sink: counts completed ranks.
void
CountDone(uint32_t* done, uint64_t /* tensorId */)
{
    ++*done;
}

/// A ring job on a star (at least 2 hosts), ranks on hosts 0..n-1.
struct Ring : HostBaselineRig<RingAllReduceProtocol, RingAllReduceAgent>
{
    Ring(uint32_t n,
         bool values,
         double lossRate = 0,
         uint64_t chunkBytes = 0,
         const std::string& transport = "ideal")
        : HostBaselineRig(std::max<uint32_t>(n, 2), lossRate)
    {
        if (chunkBytes != 0)
        {
            protocol->SetAttribute("ChunkBytes", UintegerValue(chunkBytes));
        }
        protocol->SetAttribute("Transport", StringValue(transport));
        Install("ring-test", n, {}, 5, values);
    }
};

} // namespace

/// Segments as equal as whole values allow, chunks sized for the pipeline, bytes per rank.
class RingLayoutTestCase : public TestCase
{
  public:
    RingLayoutTestCase()
        : TestCase("segments and chunks of a tensor, by hand")
    {
    }

  private:
    void DoRun() override
    {
        using Layout = RingAllReduceAgent::Layout;
        // 1001 values over 8 ranks: 126 in the first segment, 125 in the others.
        Layout l = Layout::Make(4 * 1001, 8, 256 * KIB, 16 * KIB, 4);
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(0), 504, "one value more");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(1), 500, "125 values");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(7), 500, "125 values");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentOffset(3), 4 * (126 + 2 * 125), "after three segments");
        NS_TEST_EXPECT_MSG_EQ(l.chunkBytes, 16 * KIB, "never below MinChunkBytes");
        NS_TEST_EXPECT_MSG_EQ(l.Chunks(0), 1, "one chunk");
        NS_TEST_EXPECT_MSG_EQ(l.BytesSentBy(0), 2 * 4004 - 500 - 500, "all but segments 1 and 2");
        NS_TEST_EXPECT_MSG_EQ(l.BytesSentBy(7), 2 * 4004 - 504 - 500, "all but segments 0 and 1");

        // Large segments: full chunks.
        l = Layout::Make(64 * MIB, 8, 256 * KIB, 16 * KIB, 4);
        NS_TEST_EXPECT_MSG_EQ(l.chunkBytes, 256 * KIB, "ChunkBytes");
        NS_TEST_EXPECT_MSG_EQ(l.Chunks(5), 32, "8 MiB / 256 KiB");
        NS_TEST_EXPECT_MSG_EQ(l.BytesSentBy(3), 14 * 8 * MIB, "2 (n - 1) / n of the tensor");

        // A 256 KiB segment is cut in 4 chunks of 64 KiB rather than sent whole.
        l = Layout::Make(MIB, 4, 256 * KIB, 16 * KIB, 4);
        NS_TEST_EXPECT_MSG_EQ(l.chunkBytes, 64 * KIB, "a quarter segment");
        NS_TEST_EXPECT_MSG_EQ(l.Chunks(2), 4, "four chunks");
        NS_TEST_EXPECT_MSG_EQ(l.ChunkOffset(2, 3), 512 * KIB + 192 * KIB, "segment 2, chunk 3");

        // 1000003 bytes (250000 values + 3 odd bytes) over 3 ranks.
        l = Layout::Make(1000003, 3, 256 * KIB, 16 * KIB, 4);
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(0), 333336, "83334 values");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(1), 333332, "83333 values");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(2), 333335, "83333 values and the odd bytes");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentOffset(2), 666668, "after 166667 values");
        NS_TEST_EXPECT_MSG_EQ(l.chunkBytes, 83336, "ceil(333336 / 4) rounded up to a value");
        NS_TEST_EXPECT_MSG_EQ(l.Chunks(0), 4, "four chunks");
        NS_TEST_EXPECT_MSG_EQ(l.ChunkBytes(0, 3), 333336 - 3 * 83336, "last chunk of segment 0");
        NS_TEST_EXPECT_MSG_EQ(l.ChunkBytes(2, 3), 333335 - 3 * 83336, "last chunk of segment 2");
        NS_TEST_EXPECT_MSG_EQ(l.BytesSentBy(0), 2000006 - 333332 - 333335, "rank 0");

        // Fewer values than ranks: empty segments have no chunk.
        l = Layout::Make(10, 4, 256 * KIB, 16 * KIB, 4);
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(0), 4, "one value");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(2), 0, "empty");
        NS_TEST_EXPECT_MSG_EQ(l.SegmentBytes(3), 2, "the odd bytes");
        NS_TEST_EXPECT_MSG_EQ(l.Chunks(2), 0, "no chunk");
        NS_TEST_EXPECT_MSG_EQ(l.Chunks(3), 1, "one chunk");
        NS_TEST_EXPECT_MSG_EQ(Layout::Make(100, 1, 256 * KIB, 16 * KIB, 4).BytesSentBy(0),
                              0,
                              "a ring of one sends nothing");
    }
};

/**
 * n workers all-reduce B bytes on an idle 100 Gb/s star. With B / n a multiple of 256 KiB every
 * chunk is 256 KiB: 183 packets (182 full of 1436 bytes and one of 792), 262144 + 183 x 64 wire
 * bytes. A rank sends 2 (n - 1) B / n chunks' worth and receives as many, whose ACKs share its
 * uplink; the bus-bandwidth bound is the time that uplink needs for both, and the all-reduce must
 * finish within 1 % of it.
 */
class RingBusBandwidthTestCase : public TestCase
{
  public:
    RingBusBandwidthTestCase(uint32_t n, uint64_t bytes)
        : TestCase("ring of " + std::to_string(n) + " on " + std::to_string(bytes / MIB) +
                   " MiB: exact, 2(n-1) of n segments per worker, at the bus-bandwidth bound")
        , m_n(n)
        , m_bytes(bytes)
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = m_n;
        const uint64_t bytes = m_bytes;
        Ring ring(n, true);
        const uint64_t tensor = 42;
        std::vector<std::vector<float>> values(n);
        for (uint32_t r = 0; r < n; ++r)
        {
            GradientValues::Fill(ring.Seed(), tensor, r, bytes / 4, values[r]);
            ring.agents[r]->AllReduce(tensor, bytes, &values[r]);
        }
        Simulator::Run();

        const uint64_t payload = 2 * (n - 1) * (bytes / n);
        const uint64_t chunks = payload / (256 * KIB);
        const uint64_t packetsPerChunk = (256 * KIB + MSS - 1) / MSS;
        NS_TEST_ASSERT_MSG_EQ(packetsPerChunk, 183, "packets per chunk");
        const uint64_t packets = chunks * packetsPerChunk;
        const uint64_t wire = payload + packets * HEADER;
        const int64_t bound = static_cast<int64_t>(wire + packets * ACK) * PS_PER_BYTE;

        std::vector<double> expected(bytes / 4);
        for (uint64_t i = 0; i < expected.size(); ++i)
        {
            expected[i] = GradientValues::TrueSum(ring.Seed(), tensor, n, i);
        }
        for (uint32_t r = 0; r < n; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(ring.doneIds[r].size(), 1, "rank " << r << " completed");
            uint64_t errors = 0;
            for (uint64_t i = 0; i < expected.size(); ++i)
            {
                errors += static_cast<double>(values[r][i]) != expected[i];
            }
            NS_TEST_EXPECT_MSG_EQ(errors, 0, "rank " << r << " holds the exact sum");
            const InaTransportSender::Stats& s = ring.agents[r]->GetSender()->GetStats();
            NS_TEST_EXPECT_MSG_EQ(s.payloadBytesAcked, payload, "rank " << r << " payload");
            NS_TEST_EXPECT_MSG_EQ(s.dataPacketsSent, packets, "rank " << r << " packets");
            NS_TEST_EXPECT_MSG_EQ(s.wireBytesSent, wire, "rank " << r << " wire bytes");
            NS_TEST_EXPECT_MSG_EQ(s.retransmissions, 0, "rank " << r << " lost nothing");
            const AggregationAgent::Stats& a = ring.agents[r]->GetStats();
            NS_TEST_EXPECT_MSG_EQ(a.wireBytesSent, wire, "agent stats: wire bytes");
            NS_TEST_EXPECT_MSG_EQ(a.packetsSent, packets, "agent stats: packets");
            NS_TEST_EXPECT_MSG_EQ(a.payloadBytes, bytes, "agent stats: tensor bytes");
            NS_TEST_EXPECT_MSG_EQ(a.psFallbackPackets, 0, "no parameter server");
            const int64_t t = ring.doneAt[r][0];
            NS_TEST_EXPECT_MSG_GT_OR_EQ(t, bound, "rank " << r << ": not faster than its link");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(t,
                                        bound + bound / 100,
                                        "rank " << r << " finished at " << t
                                                << " ps, bus-bandwidth bound " << bound << " ps");
        }
        Simulator::Destroy();
    }

    uint32_t m_n;
    uint64_t m_bytes;
};

/// 1 % loss on every link direction: retransmissions happen, the sums stay exact.
class RingLossTestCase : public TestCase
{
  public:
    RingLossTestCase()
        : TestCase("ring all-reduce under 1 % loss is exact on every host transport")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        const uint64_t bytes = MIB + 4 * 37;
        for (const std::string transport : {"ideal", "tcp", "rdma"})
        {
            Ring ring(n, true, 0.01, 0, transport);
            ring.AllReduceAll({7}, {bytes});
            Simulator::Run();
            uint64_t retransmissions = 0;
            uint64_t goBacks = 0;
            for (uint32_t r = 0; r < n; ++r)
            {
                NS_TEST_ASSERT_MSG_EQ(ring.doneIds[r].size(),
                                      1,
                                      transport << ": rank " << r << " completed");
                NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ring.Seed(), 7, n, ring.values[r][0]),
                                      0,
                                      transport << ": rank " << r);
                const InaTransportSender::Stats& tx = ring.agents[r]->GetSender()->GetStats();
                retransmissions += ring.agents[r]->GetStats().retransmissions;
                goBacks += tx.goBacks;
                NS_TEST_EXPECT_MSG_EQ(ring.agents[r]->GetStats().retransmissions,
                                      tx.retransmissions,
                                      transport << ": agent stats follow the transport");
            }
            NS_TEST_EXPECT_MSG_GT(retransmissions, 0, transport << ": the loss was felt");
            // The profile reached the flows: only go-back-N goes back, tcp's RTO floor is Linux's.
            NS_TEST_EXPECT_MSG_EQ((goBacks > 0), (transport == "rdma"), transport << ": go-backs");
            if (transport == "tcp")
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(ring.agents[0]->GetSender()->GetRto(),
                                            MilliSeconds(200),
                                            "tcp: MinRto 200 ms");
            }
            Simulator::Destroy();
        }
    }
};

/// Across a k = 4 fat-tree (16 hosts, paths of up to 6 hops, ECMP) the ring is still exact.
class RingFatTreeTestCase : public TestCase
{
  public:
    RingFatTreeTestCase()
        : TestCase("ring all-reduce across a fat-tree is exact")
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        Ptr<InaFabric> fabric = helper.Build(
            InaTopology::FatTree(4, {100000000000ULL, 1000000}, {100000000000ULL, 1000000}));
        Ptr<RingAllReduceProtocol> protocol = CreateObject<RingAllReduceProtocol>();
        JobContext ctx;
        ctx.fabric = fabric;
        ctx.jobId = 3;
        ctx.name = "fat-tree";
        ctx.workerHosts = {0, 5, 10, 15, 1, 6, 11, 12}; // alternating pods
        ctx.seed = 8;
        ctx.checkValues = true;
        ctx.flowIdBase = 100;
        protocol->Install(ctx);
        const uint32_t n = ctx.workerHosts.size();
        const uint64_t bytes = MIB + 4 * 5;
        std::vector<std::vector<float>> values(n);
        uint32_t done = 0;
        std::vector<Ptr<AggregationAgent>> agents;
        for (uint32_t r = 0; r < n; ++r)
        {
            agents.push_back(protocol->CreateAgent(r));
            agents[r]->SetDoneCallback(MakeBoundCallback(&CountDone, &done));
            GradientValues::Fill(ctx.seed, 77, r, bytes / 4, values[r]);
            agents[r]->AllReduce(77, bytes, &values[r]);
        }
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(done, n, "every rank completed");
        for (uint32_t r = 0; r < n; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ctx.seed, 77, n, values[r]), 0, "rank " << r);
        }
        Simulator::Destroy();
    }
};

/// A ring of one has nothing to exchange: done at once (not inside AllReduce), values unchanged.
class RingOfOneTestCase : public TestCase
{
  public:
    RingOfOneTestCase()
        : TestCase("a ring of one completes at once with its own values")
    {
    }

  private:
    void DoRun() override
    {
        Ring ring(1, true);
        std::vector<float> values;
        GradientValues::Fill(ring.Seed(), 3, 0, 1000, values);
        const std::vector<float> original = values;
        ring.agents[0]->AllReduce(3, 4000, &values);
        ring.agents[0]->AllReduce(4, 0, nullptr);
        NS_TEST_EXPECT_MSG_EQ(ring.doneIds[0].size(), 0, "not called back from inside AllReduce");
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(ring.doneIds[0].size(), 2, "both completed");
        NS_TEST_EXPECT_MSG_EQ(ring.doneIds[0][0], 3, "in order");
        NS_TEST_EXPECT_MSG_EQ(ring.doneIds[0][1], 4, "in order");
        NS_TEST_EXPECT_MSG_EQ(ring.doneAt[0][0], 0, "at once");
        NS_TEST_EXPECT_MSG_EQ((values == original), true, "unchanged");
        NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ring.Seed(), 3, 1, values), 0, "the sum of one");
        NS_TEST_EXPECT_MSG_EQ((ring.agents[0]->GetSender() == nullptr), true, "no flow");
        Simulator::Destroy();
    }
};

/**
 * Four tensors (one empty, one smaller than a value per rank) handed to every rank at once, the
 * ranks starting at different times, so chunks reach ranks that have not started yet. Every rank
 * completes them in the order handed, each exact.
 */
class RingSeveralTensorsTestCase : public TestCase
{
  public:
    RingSeveralTensorsTestCase()
        : TestCase("several tensors in flight, ranks starting at different times, all exact")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t n = 4;
        Ring ring(n, true);
        const std::vector<uint64_t> ids = {10, 11, 12, 13, 14};
        const std::vector<uint64_t> sizes = {MIB, 4004, 0, 256 * KIB + 12, 8};
        uint32_t maxInbox = 0;
        ring.AllReduceAt(ids, sizes, {30, 0, 90, 60}, [&ring, &maxInbox](uint32_t r) {
            maxInbox = std::max(maxInbox, ring.agents[r]->GetInboxMessages());
        });
        Simulator::Run();
        NS_TEST_EXPECT_MSG_GT(maxInbox, 0, "chunks arrived before a rank's own AllReduce");
        for (uint32_t r = 0; r < n; ++r)
        {
            NS_TEST_EXPECT_MSG_EQ((ring.doneIds[r] == ids), true, "rank " << r << ": FIFO order");
            for (uint32_t t = 0; t < ids.size(); ++t)
            {
                NS_TEST_EXPECT_MSG_EQ(ring.values[r][t].size(), sizes[t] / 4, "size kept");
                NS_TEST_EXPECT_MSG_EQ(TrueSumErrors(ring.Seed(), ids[t], n, ring.values[r][t]),
                                      0,
                                      "rank " << r << " tensor " << ids[t]);
            }
            NS_TEST_EXPECT_MSG_EQ(ring.agents[r]->GetQueuedTensors(), 0, "nothing left");
            NS_TEST_EXPECT_MSG_EQ(ring.agents[r]->GetInboxMessages(), 0, "inbox drained");
        }
        Simulator::Destroy();
    }
};

/// Without values a tensor need not be whole values: 1000003 bytes over 3 ranks, by hand.
class RingVirtualPayloadTestCase : public TestCase
{
  public:
    RingVirtualPayloadTestCase()
        : TestCase("virtual payloads of an odd size move exactly the segments' bytes")
    {
    }

  private:
    void DoRun() override
    {
        Ring ring(3, false);
        for (uint32_t r = 0; r < 3; ++r)
        {
            ring.agents[r]->AllReduce(1, 1000003, nullptr);
        }
        Simulator::Run();
        // Segments 333336, 333332, 333335 bytes; rank r sends all but segments r + 1 and r + 2.
        const std::vector<uint64_t> sent = {2000006 - 333332 - 333335,
                                            2000006 - 333335 - 333336,
                                            2000006 - 333336 - 333332};
        for (uint32_t r = 0; r < 3; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(ring.doneIds[r].size(), 1, "rank " << r << " completed");
            NS_TEST_EXPECT_MSG_EQ(ring.agents[r]->GetSender()->GetStats().payloadBytesAcked,
                                  sent[r],
                                  "rank " << r);
        }
        Simulator::Destroy();
    }
};

/// What the progress line counts (AggregationAgent::GetResultBytes) grows during one long
/// all-reduce, not only at its end, and adds up to the tensor at every rank.
class RingResultBytesTestCase : public TestCase
{
  public:
    RingResultBytesTestCase()
        : TestCase("result bytes move with the work and add up to the tensor")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t bytes = 8 * MIB;
        Ring ring(4, false);
        for (uint32_t r = 0; r < 4; ++r)
        {
            ring.agents[r]->AllReduce(1, bytes, nullptr);
        }
        // 2 (n - 1) / n of 8 MiB at 100 Gb/s takes about 1 ms; a quarter of that is mid-way.
        Simulator::Stop(MicroSeconds(250));
        Simulator::Run();
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(ring.doneIds[r].size(), 0, "rank " << r << " still running");
            NS_TEST_EXPECT_MSG_GT(ring.agents[r]->GetResultBytes(), 0, "rank " << r << " moved");
            NS_TEST_EXPECT_MSG_LT(ring.agents[r]->GetResultBytes(), bytes / 2, "rank " << r);
        }
        Simulator::Run();
        for (uint32_t r = 0; r < 4; ++r)
        {
            NS_TEST_ASSERT_MSG_EQ(ring.doneIds[r].size(), 1, "rank " << r << " completed");
            // Each chunk counts n / (2 (n - 1)) of its bytes, rounded down: at most a byte short
            // per chunk received.
            NS_TEST_EXPECT_MSG_LT_OR_EQ(ring.agents[r]->GetResultBytes(), bytes, "rank " << r);
            NS_TEST_EXPECT_MSG_GT(ring.agents[r]->GetResultBytes(), bytes - 1024, "rank " << r);
        }
        Simulator::Destroy();
    }
};

/// The protocol under a TrainingJob: three iterations of a two-layer model, every value checked.
class RingTrainingJobTestCase : public HostBaselineTestCase
{
  public:
    RingTrainingJobTestCase()
        : HostBaselineTestCase("a training job over the ring completes with exact aggregates")
    {
    }

  private:
    void DoRun() override
    {
        const JobContext ctx = TestJobContext(TestStar(4), "ring-job", {3, 1, 0, 2}, 9, true);
        Ptr<TrainingJob> job = RunTwoLayerJob(ctx, "ring", 3);
        ExpectTwoLayerJobExact(job, 4, 3);
        const AggregationAgent::Stats s = job->GetAgentStats();
        NS_TEST_EXPECT_MSG_EQ(s.tensors, 4 * 3 * 2, "two tensors per iteration per worker");
        NS_TEST_EXPECT_MSG_GT(s.wireBytesSent, 4 * 3 * 2 * 3 * 1600004 / 4, "at least 2(n-1)/n");
        Simulator::Destroy();
    }
};

/// Bad configuration is refused at Install with the job, the attribute and the value.
class RingErrorsTestCase : public HostBaselineTestCase
{
  public:
    RingErrorsTestCase()
        : HostBaselineTestCase("bad configuration is refused with a clear message")
    {
    }

  private:
    void DoRun() override
    {
        ExpectRegistered<RingAllReduceProtocol>("ring",
                                                "ns3::RingAllReduceProtocol",
                                                false,
                                                "no parameter servers");
        Ptr<InaFabric> fabric = TestStar(4);
        auto install = [fabric](std::vector<uint32_t> hosts,
                                const std::string& attr,
                                uint64_t value) -> std::string {
            Ptr<RingAllReduceProtocol> p = CreateObject<RingAllReduceProtocol>();
            if (!attr.empty())
            {
                p->SetAttribute(attr, UintegerValue(value));
            }
            return InstallError(p, TestJobContext(fabric, "j0", hosts));
        };
        std::string e = install({0, 1}, "ChunkBytes", 1002);
        NS_TEST_EXPECT_MSG_EQ(e,
                              "job 'j0' (protocol ring): ChunkBytes must be a positive multiple "
                              "of 4 (whole 32-bit values), got 1002",
                              e);
        e = install({0, 1}, "MinChunkBytes", 1024 * 1024);
        NS_TEST_EXPECT_MSG_EQ(e,
                              "job 'j0' (protocol ring): MinChunkBytes must be a positive "
                              "multiple of 4 no larger than ChunkBytes (262144), got 1048576",
                              e);
        e = install({0, 9}, "", 0);
        NS_TEST_EXPECT_MSG_EQ(e,
                              "job 'j0' (protocol ring): worker 1 is on host 9, but the fabric "
                              "has hosts 0..3",
                              e);
        e = install({}, "", 0);
        NS_TEST_EXPECT_MSG_EQ(
            e,
            "job 'j0' (protocol ring): a ring needs at least one worker, got none",
            e);
        e = install({0, 1}, "Mtu", 60);
        const bool named = e.find("job 'j0' (protocol ring): InaTransportSender") == 0 &&
                           e.find("Mtu (60) must exceed HeaderBytes (64)") != std::string::npos;
        NS_TEST_EXPECT_MSG_EQ(named, true, e);
        Simulator::Destroy();
    }
};

class RingAllReduceTestSuite : public InaTestSuite
{
  public:
    RingAllReduceTestSuite()
        : InaTestSuite("ina-ring-all-reduce", TestSuite::Type::UNIT)
    {
        AddTestCase(new RingLayoutTestCase);
        AddTestCase(new RingResultBytesTestCase);
        AddTestCase(new RingBusBandwidthTestCase(2, 8 * MIB));
        AddTestCase(new RingBusBandwidthTestCase(4, 8 * MIB));
        AddTestCase(new RingBusBandwidthTestCase(8, 8 * MIB));
        if (LongTests())
        {
            AddTestCase(new RingBusBandwidthTestCase(8, 64 * MIB));
            AddTestCase(new RingBusBandwidthTestCase(16, 64 * MIB));
        }
        AddTestCase(new RingLossTestCase);
        AddTestCase(new RingFatTreeTestCase);
        AddTestCase(new RingOfOneTestCase);
        AddTestCase(new RingSeveralTensorsTestCase);
        AddTestCase(new RingVirtualPayloadTestCase);
        AddTestCase(new RingTrainingJobTestCase);
        AddTestCase(new RingErrorsTestCase);
    }
};

static RingAllReduceTestSuite g_ringAllReduceTestSuite;
