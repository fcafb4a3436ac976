/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of the link models: exact serialization and arrival times, the output queue (backlog, tail
// drop, ECN), strict priority, the injection cap, loss, and that ns-3's PointToPointNetDevice gives
// the same timing.

#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ina-channel.h"
#include "ns3/ina-event.h"
#include "ns3/ina-net-device.h"
#include "ns3/ina-p2p-port.h"
#include "ns3/ina-test-suite.h"
#include "ns3/node.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/pointer.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <memory>
#include <vector>

using namespace ns3;

namespace
{

/// Records what arrives: (seq, time in ps, ecn).
class RecordingSink : public InaPacketSink
{
  public:
    struct Arrival
    {
        uint64_t seq;
        int64_t atPs;
        uint8_t ecn;
    };

    explicit RecordingSink(InaPacketPool* pool)
        : m_pool(pool)
    {
    }

    void Receive(InaPacket* p, uint32_t port) override
    {
        arrivals.push_back({p->seq, Simulator::Now().GetTimeStep(), p->ecn});
        m_pool->Free(p);
    }

    std::vector<Arrival> arrivals;

  private:
    InaPacketPool* m_pool;
};

/// Two InaNetDevices joined by an InaChannel; end 0 sends, end 1 records.
struct FastLink
{
    FastLink(uint64_t rateBps,
             int64_t delayPs,
             uint64_t capacity,
             uint64_t ecnThreshold,
             uint32_t classes = 1,
             Ptr<ErrorModel> loss = nullptr)
        : sink(&pool)
    {
        Ptr<InaChannel> ch = CreateObject<InaChannel>();
        ch->SetAttribute("Delay", TimeValue(TimeStep(delayPs)));
        for (int e = 0; e < 2; ++e)
        {
            dev[e] = CreateObject<InaNetDevice>();
            dev[e]->SetAttribute("DataRate", DataRateValue(DataRate(rateBps)));
            dev[e]->SetAttribute("QueueCapacity", UintegerValue(capacity));
            dev[e]->SetAttribute("EcnThreshold", UintegerValue(ecnThreshold));
            dev[e]->SetAttribute("PriorityClasses", UintegerValue(classes));
            node[e] = CreateObject<Node>();
            node[e]->AddDevice(dev[e]);
            dev[e]->Attach(ch);
        }
        if (loss)
        {
            dev[0]->SetAttribute("ErrorModel", PointerValue(loss));
        }
        dev[0]->InaPort::Attach(&sink, 0, &pool);
        dev[1]->InaPort::Attach(&sink, 0, &pool);
    }

    void SendAt(int64_t atPs, uint64_t seq, uint32_t bytes, uint8_t prio = 0, uint8_t ecn = 1)
    {
        Simulator::Schedule(TimeStep(atPs), MakeInaFunctorEvent([this, seq, bytes, prio, ecn]() {
                                InaPacket* p = pool.Alloc();
                                p->seq = seq;
                                p->wireBytes = bytes;
                                p->priority = prio;
                                p->ecn = ecn;
                                dev[0]->Send(p, 0);
                            }));
    }

    InaPacketPool pool;
    RecordingSink sink;
    Ptr<InaNetDevice> dev[2];
    Ptr<Node> node[2];
};

} // namespace

/**
 * 100 Gb/s serializes a byte in exactly 80 ps: three 182-B packets sent together arrive 14.56 ns
 * apart after the 1 us wire; one sent on an idle link later pays no queueing.
 */
class InaLinkTimingTestCase : public TestCase
{
  public:
    InaLinkTimingTestCase()
        : TestCase("serialization and arrival times are exact to the picosecond")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Time::GetResolution(), Time::PS, "inasim runs at ps resolution");
        FastLink link(100000000000ULL, 1000000, 1000000, 0);
        for (uint64_t s = 0; s < 3; ++s)
        {
            link.SendAt(0, s, 182);
        }
        link.SendAt(2000000, 3, 182);
        Simulator::Run();
        const auto& a = link.sink.arrivals;
        NS_TEST_ASSERT_MSG_EQ(a.size(), 4, "all delivered");
        NS_TEST_EXPECT_MSG_EQ(a[0].atPs, 14560 + 1000000, "first");
        NS_TEST_EXPECT_MSG_EQ(a[1].atPs, 2 * 14560 + 1000000, "second waits for the first");
        NS_TEST_EXPECT_MSG_EQ(a[2].atPs, 3 * 14560 + 1000000, "third");
        NS_TEST_EXPECT_MSG_EQ(a[3].atPs, 2000000 + 14560 + 1000000, "idle link: no wait");
        NS_TEST_EXPECT_MSG_EQ(link.dev[0]->GetCounters().rxPackets, 4, "hops counted at sender");
        NS_TEST_EXPECT_MSG_EQ(link.pool.GetInUse(), 0, "every packet returned to the pool");
        Simulator::Destroy();
    }
};

/**
 * Capacity 1000 B, ECN above 300 B waiting, ten 200-B ECT packets at once. The first goes straight
 * to the wire; the next five queue (0, 200, 400, 600, 800 B already waiting when each arrives: the
 * last three of them are marked) and fill the queue to exactly 1000 B; the last four do not fit.
 */
class InaLinkQueueTestCase : public TestCase
{
  public:
    InaLinkQueueTestCase()
        : TestCase("FIFO backlog, tail drop and ECN marks on a hand-computed case")
    {
    }

  private:
    void DoRun() override
    {
        FastLink link(100000000000ULL, 1000, 1000, 300);
        for (uint64_t s = 0; s < 10; ++s)
        {
            link.SendAt(0, s, 200);
        }
        // 1 ps later the first packet is on the wire and five wait; 200 B take 16 ns, so once three
        // more have started (at 48 ns) two still wait.
        uint64_t backlogAt1ps = 0;
        uint64_t backlogAt48ns = 0;
        Simulator::Schedule(TimeStep(1), MakeInaFunctorEvent([&]() {
                                backlogAt1ps = link.dev[0]->GetBacklogBytes();
                            }));
        Simulator::Schedule(TimeStep(16000 * 3), MakeInaFunctorEvent([&]() {
                                backlogAt48ns = link.dev[0]->GetBacklogBytes();
                            }));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(backlogAt1ps, 1000, "backlog");
        NS_TEST_EXPECT_MSG_EQ(backlogAt48ns, 400, "backlog drains");
        const InaLinkCounters& c = link.dev[0]->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.txPackets, 6, "admitted");
        NS_TEST_EXPECT_MSG_EQ(c.drops, 4, "tail drops");
        NS_TEST_EXPECT_MSG_EQ(c.ecnMarks, 3, "marks");
        NS_TEST_EXPECT_MSG_EQ(c.peakBacklogBytes, 1000, "peak backlog");
        const auto& a = link.sink.arrivals;
        NS_TEST_ASSERT_MSG_EQ(a.size(), 6, "delivered");
        for (uint64_t s = 0; s < 6; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(a[s].seq, s, "order kept");
            NS_TEST_EXPECT_MSG_EQ(a[s].ecn, (s >= 3 ? 3 : 1), "CE exactly on packets 3, 4, 5");
        }
        Simulator::Destroy();
    }
};

/// With two classes, a high-priority packet overtakes low-priority packets that are still waiting.
class InaLinkPriorityTestCase : public TestCase
{
  public:
    InaLinkPriorityTestCase()
        : TestCase("strict priority serves class 0 first")
    {
    }

  private:
    void DoRun() override
    {
        FastLink link(100000000000ULL, 1000000, 1000000, 0, 2);
        link.SendAt(0, 0, 1000, 1);
        link.SendAt(0, 1, 1000, 1);
        link.SendAt(0, 2, 1000, 1);
        link.SendAt(0, 3, 1000, 0);
        Simulator::Run();
        const auto& a = link.sink.arrivals;
        NS_TEST_ASSERT_MSG_EQ(a.size(), 4, "delivered");
        NS_TEST_EXPECT_MSG_EQ(a[0].seq, 0, "already on the wire");
        NS_TEST_EXPECT_MSG_EQ(a[1].seq, 3, "high priority overtakes");
        NS_TEST_EXPECT_MSG_EQ(a[1].atPs, 2 * 80000 + 1000000, "second slot");
        NS_TEST_EXPECT_MSG_EQ(a[2].seq, 1, "then the rest in order");
        NS_TEST_EXPECT_MSG_EQ(a[3].seq, 2, "then the rest in order");
        NS_TEST_EXPECT_MSG_EQ(a[3].atPs, 4 * 80000 + 1000000, "fourth slot");
        Simulator::Destroy();
    }
};

/**
 * The injection cap (a host NIC's pacer): at 100 Gb/s a 1000-B packet takes 80 ns, at a 10 Gb/s
 * cap its successor may start only 800 ns after it. Three packets sent together arrive 80 ns
 * apart without the cap and 800 ns apart with it, each still 80 ns + 1 us after its start; a cap
 * above the link rate changes nothing; removing the cap frees the next packets; with two
 * priority classes the pacer's gap ends with the best class waiting then.
 */
class InaLinkInjectionCapTestCase : public TestCase
{
  public:
    InaLinkInjectionCapTestCase()
        : TestCase("an injection cap paces packet starts at bytes over the cap, hand-computed")
    {
    }

  private:
    static std::vector<int64_t> Times(const std::vector<RecordingSink::Arrival>& a)
    {
        std::vector<int64_t> t;
        for (const auto& x : a)
        {
            t.push_back(x.atPs);
        }
        return t;
    }

    void DoRun() override
    {
        const int64_t us = 1000000;
        {
            FastLink link(100000000000ULL, us, 1000000, 0);
            for (uint64_t s = 0; s < 3; ++s)
            {
                link.SendAt(0, s, 1000);
            }
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ((Times(link.sink.arrivals) ==
                                   std::vector<int64_t>{us + 80000, us + 160000, us + 240000}),
                                  true,
                                  "no cap: back to back");
            Simulator::Destroy();
        }
        {
            FastLink link(100000000000ULL, us, 1000000, 0);
            link.dev[0]->SetInjectionRateCap(10000000000ULL);
            NS_TEST_EXPECT_MSG_EQ(link.dev[0]->GetInjectionRateCap(), 10000000000ULL, "set");
            for (uint64_t s = 0; s < 3; ++s)
            {
                link.SendAt(0, s, 1000);
            }
            uint64_t backlogAt1ps = 0;
            Simulator::Schedule(TimeStep(1), MakeInaFunctorEvent([&]() {
                                    backlogAt1ps = link.dev[0]->GetBacklogBytes();
                                }));
            // Removed at 5 us: the next two leave back to back again.
            Simulator::Schedule(TimeStep(5 * us), MakeInaFunctorEvent([&]() {
                                    link.dev[0]->SetInjectionRateCap(0);
                                }));
            link.SendAt(10 * us, 3, 1000);
            link.SendAt(10 * us, 4, 1000);
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(backlogAt1ps, 2000, "the paced packets wait in the queue");
            NS_TEST_EXPECT_MSG_EQ(
                (Times(link.sink.arrivals) == std::vector<int64_t>{us + 80000,
                                                                   us + 880000,
                                                                   us + 1680000,
                                                                   11 * us + 80000,
                                                                   11 * us + 160000}),
                true,
                "10 Gb/s cap: starts 800 ns apart, then uncapped");
            Simulator::Destroy();
        }
        {
            FastLink link(100000000000ULL, us, 1000000, 0);
            link.dev[0]->SetInjectionRateCap(200000000000ULL);
            for (uint64_t s = 0; s < 3; ++s)
            {
                link.SendAt(0, s, 1000);
            }
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ((Times(link.sink.arrivals) ==
                                   std::vector<int64_t>{us + 80000, us + 160000, us + 240000}),
                                  true,
                                  "a cap above the link rate changes nothing");
            Simulator::Destroy();
        }
        {
            // Priority mode: class 1's first packet starts at 0; the class-0 packet sent at 0
            // takes the slot the pacer opens at 800 ns, then class 1 at 1600 and 2400 ns.
            FastLink link(100000000000ULL, us, 1000000, 0, 2);
            link.dev[0]->SetInjectionRateCap(10000000000ULL);
            link.SendAt(0, 0, 1000, 1);
            link.SendAt(0, 1, 1000, 1);
            link.SendAt(0, 2, 1000, 1);
            link.SendAt(0, 3, 1000, 0);
            Simulator::Run();
            const auto& a = link.sink.arrivals;
            NS_TEST_ASSERT_MSG_EQ(a.size(), 4, "delivered");
            NS_TEST_EXPECT_MSG_EQ(a[0].seq, 0, "first on the wire");
            NS_TEST_EXPECT_MSG_EQ(a[1].seq, 3, "class 0 at the pacer's next slot");
            NS_TEST_EXPECT_MSG_EQ(a[2].seq, 1, "then class 1");
            NS_TEST_EXPECT_MSG_EQ(
                (Times(a) ==
                 std::vector<int64_t>{us + 80000, us + 880000, us + 1680000, us + 2480000}),
                true,
                "priority mode: starts 800 ns apart");
            Simulator::Destroy();
        }
    }
};

/// Loss from an ns-3 ErrorModel: everything lost at rate 1, some at rate 0.5, all counted.
class InaLinkLossTestCase : public TestCase
{
  public:
    InaLinkLossTestCase()
        : TestCase("random loss through an ns-3 ErrorModel is counted and frees the packets")
    {
    }

  private:
    void DoRun() override
    {
        for (double rate : {1.0, 0.5})
        {
            auto em = CreateObject<RateErrorModel>();
            em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
            em->SetAttribute("ErrorRate", DoubleValue(rate));
            em->AssignStreams(7);
            FastLink link(100000000000ULL, 1000, 1000000, 0, 1, em);
            for (uint64_t s = 0; s < 200; ++s)
            {
                link.SendAt(0, s, 100);
            }
            Simulator::Run();
            const InaLinkCounters& c = link.dev[0]->GetCounters();
            NS_TEST_EXPECT_MSG_EQ(c.lost + c.rxPackets, 200, "every packet lost or delivered");
            NS_TEST_EXPECT_MSG_EQ(link.sink.arrivals.size(), c.rxPackets, "delivered = counted");
            if (rate == 1.0)
            {
                NS_TEST_EXPECT_MSG_EQ(c.lost, 200, "all lost");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(c.lost, 60, "about half lost");
                NS_TEST_EXPECT_MSG_LT(c.lost, 140, "about half lost");
            }
            NS_TEST_EXPECT_MSG_EQ(link.pool.GetInUse(), 0, "lost packets freed");
            Simulator::Destroy();
        }
    }
};

/**
 * The same sends through ns-3's PointToPointNetDevice (InaP2pPort) arrive at the same picoseconds,
 * and admission (capacity, ECN) follows the same rule.
 */
class InaLinkP2pEquivalenceTestCase : public TestCase
{
  public:
    InaLinkP2pEquivalenceTestCase()
        : TestCase("link p2p gives the fast link's arrival times, drops and marks")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<RecordingSink::Arrival> fast;
        InaLinkCounters fastCounters;
        {
            FastLink link(100000000000ULL, 1000000, 1000, 300);
            for (uint64_t s = 0; s < 10; ++s)
            {
                link.SendAt(0, s, 200);
            }
            link.SendAt(5000000, 10, 1500);
            link.SendAt(6000000, 11, 1501); // one byte above the default MTU: dropped
            Simulator::Run();
            fast = link.sink.arrivals;
            fastCounters = link.dev[0]->GetCounters();
            Simulator::Destroy();
        }
        InaPacketPool pool;
        RecordingSink sink(&pool);
        Ptr<PointToPointChannel> ch = CreateObject<PointToPointChannel>();
        ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        std::unique_ptr<InaP2pPort> port[2];
        for (int e = 0; e < 2; ++e)
        {
            Ptr<Node> node = CreateObject<Node>();
            Ptr<PointToPointNetDevice> dev = CreateObject<PointToPointNetDevice>();
            dev->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
            dev->SetQueue(CreateObject<DropTailQueue<Packet>>());
            node->AddDevice(dev);
            dev->Attach(ch);
            port[e] = std::make_unique<InaP2pPort>(dev, 1000, 300);
            port[e]->Attach(&sink, 0, &pool);
        }
        port[0]->SetPeer(port[1].get());
        port[1]->SetPeer(port[0].get());
        auto sendAt = [&](int64_t at, uint64_t seq, uint32_t bytes) {
            Simulator::Schedule(TimeStep(at), MakeInaFunctorEvent([&, seq, bytes]() {
                                    InaPacket* p = pool.Alloc();
                                    p->seq = seq;
                                    p->wireBytes = bytes;
                                    p->ecn = 1;
                                    port[0]->Send(p, 0);
                                }));
        };
        for (uint64_t s = 0; s < 10; ++s)
        {
            sendAt(0, s, 200);
        }
        sendAt(5000000, 10, 1500);
        sendAt(6000000, 11, 1501);
        Simulator::Run();
        const auto& p2p = sink.arrivals;
        NS_TEST_ASSERT_MSG_EQ(p2p.size(), fast.size(), "same deliveries");
        for (std::size_t i = 0; i < fast.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(p2p[i].seq, fast[i].seq, "same order");
            NS_TEST_EXPECT_MSG_EQ(p2p[i].atPs, fast[i].atPs, "same arrival time");
            NS_TEST_EXPECT_MSG_EQ(p2p[i].ecn, fast[i].ecn, "same marks");
        }
        const InaLinkCounters& c = port[0]->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.drops, fastCounters.drops, "same drops");
        NS_TEST_EXPECT_MSG_EQ(fastCounters.oversize, 1, "the packet above the MTU");
        NS_TEST_EXPECT_MSG_EQ(c.oversize, fastCounters.oversize, "same MTU drops");
        NS_TEST_EXPECT_MSG_EQ(c.ecnMarks, fastCounters.ecnMarks, "same marks");
        NS_TEST_EXPECT_MSG_EQ(c.rxPackets, fastCounters.rxPackets, "same hops");
        NS_TEST_EXPECT_MSG_EQ(pool.GetInUse(), 0, "no leaks");
        Simulator::Destroy();
    }
};

/**
 * The link MTU (InaNetDevice::Mtu): packets up to it pass, a larger one is dropped at Send and
 * counted as oversize (not as a queue drop), in FIFO and in priority mode.
 */
class InaLinkMtuTestCase : public TestCase
{
  public:
    InaLinkMtuTestCase()
        : TestCase("packets above the link MTU are dropped and counted")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t classes : {1u, 2u})
        {
            FastLink link(100000000000ULL, 1000000, 1000000, 0, classes);
            NS_TEST_EXPECT_MSG_EQ(link.dev[0]->GetMtu(), 1500, "default MTU");
            link.dev[0]->SetAttribute("Mtu", UintegerValue(9000));
            link.SendAt(0, 0, 9000);
            link.SendAt(0, 1, 9001);
            link.SendAt(0, 2, 64);
            Simulator::Run();
            const InaLinkCounters& c = link.dev[0]->GetCounters();
            NS_TEST_ASSERT_MSG_EQ(link.sink.arrivals.size(), 2, "the two that fit");
            NS_TEST_EXPECT_MSG_EQ(link.sink.arrivals[0].seq, 0, "9000 B at a 9000 B MTU");
            NS_TEST_EXPECT_MSG_EQ(link.sink.arrivals[1].seq, 2, "64 B");
            NS_TEST_EXPECT_MSG_EQ(c.oversize, 1, "9001 B dropped for the MTU");
            NS_TEST_EXPECT_MSG_EQ(c.drops, 0, "not a queue drop");
            NS_TEST_EXPECT_MSG_EQ(c.txPackets, 2, "not sent");
            NS_TEST_EXPECT_MSG_EQ(link.pool.GetInUse(), 0, "freed");
            Simulator::Destroy();
        }
    }
};

/**
 * An ECN threshold above 32 bits (the device keeps a 32-bit copy on the line a send reads, and
 * the full value for thresholds that do not fit): 66,200 packets of 65,000 B sent at once into a
 * 10 GB queue with the threshold at 2^32 + 1,000,000 B. Packet i (from 0) finds (i - 1) x 65,000 B
 * waiting (packet 0 goes straight to the wire), so packets 66,093 to 66,199 are marked: 107. A
 * threshold cut to 32 bits would have marked from 66,078 on: 122.
 */
class InaLinkWideEcnThresholdTestCase : public TestCase
{
  public:
    InaLinkWideEcnThresholdTestCase()
        : TestCase("an ECN threshold above 4 GiB marks exactly above it")
    {
    }

  private:
    void DoRun() override
    {
        const uint64_t threshold = (uint64_t{1} << 32) + 1000000;
        FastLink link(100000000000ULL, 1000000, 10000000000ULL, threshold);
        link.dev[0]->SetAttribute("Mtu", UintegerValue(65000));
        UintegerValue read;
        link.dev[0]->GetAttribute("EcnThreshold", read);
        NS_TEST_EXPECT_MSG_EQ(read.Get(), threshold, "the attribute reads back in full");
        Simulator::Schedule(TimeStep(0), MakeInaFunctorEvent([&link]() {
                                for (uint64_t s = 0; s < 66200; ++s)
                                {
                                    InaPacket* p = link.pool.Alloc();
                                    p->seq = s;
                                    p->wireBytes = 65000;
                                    p->ecn = 1;
                                    link.dev[0]->Send(p, 0);
                                }
                            }));
        Simulator::Run();
        const InaLinkCounters& c = link.dev[0]->GetCounters();
        NS_TEST_EXPECT_MSG_EQ(c.txPackets, 66200, "all admitted");
        NS_TEST_EXPECT_MSG_EQ(c.txBytes, 66200ULL * 65000, "their bytes");
        NS_TEST_EXPECT_MSG_EQ(c.ecnMarks, 107, "marked above 2^32 + 1,000,000 B only");
        const auto& a = link.sink.arrivals;
        NS_TEST_ASSERT_MSG_EQ(a.size(), 66200, "delivered");
        NS_TEST_EXPECT_MSG_EQ(a[66092].ecn, 1, "the last one below the threshold");
        NS_TEST_EXPECT_MSG_EQ(a[66093].ecn, 3, "the first one above it");
        Simulator::Destroy();
    }
};

class InaLinkTestSuite : public InaTestSuite
{
  public:
    InaLinkTestSuite()
        : InaTestSuite("ina-link", Type::UNIT)
    {
        AddTestCase(new InaLinkTimingTestCase);
        AddTestCase(new InaLinkQueueTestCase);
        AddTestCase(new InaLinkPriorityTestCase);
        AddTestCase(new InaLinkInjectionCapTestCase);
        AddTestCase(new InaLinkLossTestCase);
        AddTestCase(new InaLinkP2pEquivalenceTestCase);
        AddTestCase(new InaLinkMtuTestCase);
        AddTestCase(new InaLinkWideEcnThresholdTestCase);
    }
};

static InaLinkTestSuite g_inaLinkTestSuite;
