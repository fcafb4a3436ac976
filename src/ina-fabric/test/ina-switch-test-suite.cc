/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of forwarding in built fabrics: per-hop timing through a switch, ECMP over every equal-cost
// path of a k=4 fat-tree (repeatable from the seed), multicast delivering exactly once, and routes
// pinned from outside.

#include "ina-fabric-test-packets.h"

#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <map>
#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::ina_fabric_test;

namespace
{

class CountingSink : public InaPacketSink
{
  public:
    CountingSink(InaPacketPool* pool, uint32_t host)
        : m_pool(pool)
        , m_host(host)
    {
    }

    void Receive(InaPacket* p, uint32_t port) override
    {
        received.push_back({p->seq, Simulator::Now().GetTimeStep()});
        m_pool->Free(p);
    }

    std::vector<std::pair<uint64_t, int64_t>> received;

  private:
    InaPacketPool* m_pool;
    uint32_t m_host;
};

/// Counts, per switch, how many packets it forwarded; used to see which paths flows took.
std::map<std::string, uint64_t>
ForwardedPerSwitch(Ptr<InaFabric> fabric)
{
    std::map<std::string, uint64_t> m;
    for (const auto& sw : fabric->GetSwitches())
    {
        m[sw->GetName()] = sw->GetCounters().forwarded;
    }
    return m;
}

std::map<std::string, uint64_t>
RunEcmp(uint64_t seed, uint32_t flows)
{
    InaFabricHelper helper;
    helper.SetEcmpSeed(seed);
    Ptr<InaFabric> fabric = helper.Build(InaTopology::FatTree(4, Gbps100(), Gbps100()));
    CountingSink sink(&fabric->GetPool(), 15);
    fabric->GetHost(15)->Bind(TEST_PORT, &sink);
    for (uint32_t f = 0; f < flows; ++f)
    {
        Simulator::Schedule(NanoSeconds(100 * f), &SendOne, fabric, 0, 15, f, f);
    }
    Simulator::Run();
    auto m = ForwardedPerSwitch(fabric);
    m["delivered"] = sink.received.size();
    Simulator::Destroy();
    return m;
}

} // namespace

/// host -> switch -> host: two serializations, two wire delays and the switch pipeline latency.
class InaSwitchHopTimingTestCase : public TestCase
{
  public:
    InaSwitchHopTimingTestCase()
        : TestCase("a packet through a star switch arrives at the hand-computed time")
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(2, Gbps100()));
        CountingSink sink(&fabric->GetPool(), 1);
        fabric->GetHost(1)->Bind(TEST_PORT, &sink);
        SendOne(fabric, 0, 1, 1, 0);
        Simulator::Run();
        int64_t latency = fabric->GetSwitch(2)->GetPipeline()->GetLatency().GetTimeStep();
        NS_TEST_ASSERT_MSG_EQ(sink.received.size(), 1, "delivered");
        NS_TEST_EXPECT_MSG_EQ(sink.received[0].second,
                              2 * (1000 * 80 + 1000000) + latency,
                              "2 x (serialization + wire) + pipeline latency");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetPacketHops(), 2, "two hops");
        Simulator::Destroy();
    }
};

/**
 * Host 0 (pod 0) to host 15 (pod 3) has (k/2)^2 = 4 shortest paths, one per core switch. 400 flows
 * must use both aggregation switches of pod 0 and all four cores; the same seed repeats the same
 * choices, another seed makes different ones.
 */
class InaSwitchEcmpTestCase : public TestCase
{
  public:
    InaSwitchEcmpTestCase()
        : TestCase("ECMP spreads flows over every equal-cost path of a k=4 fat-tree, per seed")
    {
    }

  private:
    void DoRun() override
    {
        auto a = RunEcmp(1, 400);
        NS_TEST_EXPECT_MSG_EQ(a["delivered"], 400, "all delivered");
        uint64_t viaCores = 0;
        for (const auto& [name, n] : a)
        {
            if (name.rfind("core", 0) == 0)
            {
                NS_TEST_EXPECT_MSG_GT(n, 50, "core " << name << " carries its share");
                viaCores += n;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(viaCores, 400, "every flow crosses exactly one core");
        NS_TEST_EXPECT_MSG_GT(a["agg0"], 100, "first aggregation switch of pod 0 used");
        NS_TEST_EXPECT_MSG_GT(a["agg1"], 100, "second aggregation switch of pod 0 used");
        auto b = RunEcmp(1, 400);
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "same seed, same paths");
        auto c = RunEcmp(2, 400);
        NS_TEST_EXPECT_MSG_EQ((a == c), false, "another seed, other paths");
    }
};

/// A group from a core switch to hosts in every pod: each member gets one copy, others none.
class InaSwitchMulticastTestCase : public TestCase
{
  public:
    InaSwitchMulticastTestCase()
        : TestCase("multicast reaches every member exactly once")
    {
    }

  private:
    void DoRun() override
    {
        const std::vector<uint32_t> members{1, 2, 5, 8, 9, 14};
        const std::set<uint32_t> memberSet(members.begin(), members.end());
        InaFabricHelper helper;
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FatTree(4, Gbps100(), Gbps100()));
        const InaTopology& topo = fabric->GetTopology();
        uint32_t core = topo.NodesInTier("core").at(0);
        InaAddress group = fabric->CreateMulticastGroup(core, members);
        std::vector<std::unique_ptr<CountingSink>> sinks;
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            sinks.push_back(std::make_unique<CountingSink>(&fabric->GetPool(), h));
            fabric->GetHost(h)->Bind(TEST_PORT, sinks.back().get());
        }
        // The root emits the packet, as a switch program emits an aggregated result.
        Simulator::Schedule(NanoSeconds(10), MakeInaFunctorEvent([fabric, core, group]() {
                                InaPacket* p = fabric->GetPool().Alloc();
                                p->dst = group;
                                p->dstPort = TEST_PORT;
                                p->wireBytes = 1000;
                                fabric->GetSwitch(core)->Forward(p);
                            }));
        Simulator::Run();
        for (uint32_t h = 0; h < topo.GetNHosts(); ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(sinks[h]->received.size(),
                                  memberSet.count(h),
                                  "host " << h << " receives once iff a member");
        }
        NS_TEST_EXPECT_MSG_EQ(fabric->GetPool().GetInUse(), 0, "no copies leaked");
        Simulator::Destroy();
    }
};

/// A flow route set from outside overrides ECMP at that switch.
class InaSwitchPinnedRouteTestCase : public TestCase
{
  public:
    InaSwitchPinnedRouteTestCase()
        : TestCase("routes pinned per flow and per job override the table")
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        Ptr<InaFabric> fabric = helper.Build(InaTopology::FatTree(4, Gbps100(), Gbps100()));
        const InaTopology& topo = fabric->GetTopology();
        uint32_t tor0 = topo.RackOf(0);
        uint32_t agg1 = topo.NodesInTier("agg").at(1);
        Ptr<InaSwitch> tor = fabric->GetSwitch(tor0);
        tor->SetFlowRoute(77, topo.PortTo(tor0, agg1));
        tor->SetJobRoute(5, 15, topo.PortTo(tor0, agg1));
        CountingSink sink(&fabric->GetPool(), 15);
        fabric->GetHost(15)->Bind(TEST_PORT, &sink);
        for (uint32_t i = 0; i < 20; ++i)
        {
            Simulator::Schedule(NanoSeconds(50 * i), &SendOne, fabric, 0, 15, 77, i);
        }
        Simulator::Schedule(MicroSeconds(2), MakeInaFunctorEvent([fabric]() {
                                for (uint32_t i = 0; i < 20; ++i)
                                {
                                    InaPacket* p = fabric->GetPool().Alloc();
                                    p->dst = 15;
                                    p->flowId = 1000 + i;
                                    p->jobId = 5;
                                    p->dstPort = TEST_PORT;
                                    p->wireBytes = 1000;
                                    fabric->GetHost(0)->Send(p);
                                }
                            }));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(sink.received.size(), 40, "delivered");
        NS_TEST_EXPECT_MSG_EQ(fabric->GetSwitch(agg1)->GetCounters().forwarded,
                              40,
                              "all went through the pinned aggregation switch");
        NS_TEST_EXPECT_MSG_EQ(
            fabric->GetSwitch(topo.NodesInTier("agg").at(0))->GetCounters().forwarded,
            0,
            "none through the other");
        Simulator::Destroy();
    }
};

class InaSwitchTestSuite : public InaTestSuite
{
  public:
    InaSwitchTestSuite()
        : InaTestSuite("ina-switch", Type::UNIT)
    {
        AddTestCase(new InaSwitchHopTimingTestCase);
        AddTestCase(new InaSwitchEcmpTestCase);
        AddTestCase(new InaSwitchMulticastTestCase);
        AddTestCase(new InaSwitchPinnedRouteTestCase);
    }
};

static InaSwitchTestSuite g_inaSwitchTestSuite;
