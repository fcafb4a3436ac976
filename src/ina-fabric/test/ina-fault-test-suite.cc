/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of InaFaultInjector: a down link drops what is sent into it and what was on it (counted
// as fault drops, not as queue drops or random loss), a failed switch drops everything, and the
// routing stops hashing flows onto a dead link a detection delay after it failed and uses it again
// a detection delay after it came back.

#include "ina-fabric-test-packets.h"

#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-fault-injector.h"
#include "ns3/ina-test-suite.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <vector>

using namespace ns3;
using namespace ns3::ina_fabric_test;

namespace
{

class FaultSink : public InaPacketSink
{
  public:
    explicit FaultSink(InaPacketPool* pool)
        : m_pool(pool)
    {
    }

    void Receive(InaPacket* p, uint32_t port) override
    {
        seqs.push_back(p->seq);
        m_pool->Free(p);
    }

    std::vector<uint64_t> seqs;

  private:
    InaPacketPool* m_pool;
};

/**
 * A fabric of `topology` with a FaultSink at TEST_PORT of host `sinkHost` and a fault injector on
 * it, detecting changes after `detection` (the injector's default if zero).
 */
struct FaultRig
{
    FaultRig(const InaTopology& topology, uint32_t sinkHost, Time detection = Time(0))
        : fabric(InaFabricHelper().Build(topology))
        , sink(&fabric->GetPool())
        , faults(CreateObject<InaFaultInjector>())
    {
        fabric->GetHost(sinkHost)->Bind(TEST_PORT, &sink);
        if (!detection.IsZero())
        {
            faults->SetAttribute("DetectionDelay", TimeValue(detection));
        }
        faults->SetFabric(fabric);
    }

    Ptr<InaFabric> fabric;
    FaultSink sink;
    Ptr<InaFaultInjector> faults;
};

uint32_t
LinkBetween(const InaTopology& topo, const std::string& a, const std::string& b)
{
    const uint32_t na = topo.FindNode(a);
    return topo.Neighbors(na).at(topo.PortTo(na, topo.FindNode(b))).second;
}

} // namespace

/**
 * Star of 2 hosts. Packet 0 is on the wire towards h1 when that link fails at 1.5 us; packet 1 is
 * sent into the dead link; packet 2 after it came back. Only packet 2 arrives, and the two lost
 * are fault drops, not queue drops or random loss.
 */
class InaFaultLinkDownTestCase : public TestCase
{
  public:
    InaFaultLinkDownTestCase()
        : TestCase("a down link loses what is on it and what is sent into it, as fault drops")
    {
    }

  private:
    void DoRun() override
    {
        FaultRig rig(InaTopology::Star(2, Gbps100()), 1);
        const uint32_t link = LinkBetween(rig.fabric->GetTopology(), "tor0", "h1");
        SendOne(rig.fabric, 0, 1, 1, 0);
        rig.faults->ScheduleLinkDown(link, NanoSeconds(1500));
        Simulator::Schedule(MicroSeconds(3), &SendOne, rig.fabric, 0, 1, 1, 1);
        rig.faults->ScheduleLinkUp(link, MicroSeconds(10));
        Simulator::Schedule(MicroSeconds(11), &SendOne, rig.fabric, 0, 1, 1, 2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rig.sink.seqs.size(), 1, "one packet arrived");
        NS_TEST_EXPECT_MSG_EQ(rig.sink.seqs[0], 2, "the one sent after the link came back");
        NS_TEST_EXPECT_MSG_EQ(rig.faults->GetFaultDrops(), 2, "the other two are fault drops");
        const InaLinkCounters c = rig.fabric->GetTotalLinkCounters();
        NS_TEST_EXPECT_MSG_EQ(c.drops + c.lost, 0, "no queue drop, no random loss");
        NS_TEST_EXPECT_MSG_EQ(rig.faults->GetLinksDown(), 0, "the link is up at the end");
        rig.faults->Dispose();
        Simulator::Destroy();
    }
};

/**
 * Leaf-spine, 2 leaves x 2 spines, a host on each leaf. leaf0-spine0 fails at 0 and comes back at
 * 40 us, with a 10 us detection delay. Flows of batch A (sent at 1 us, before detection) that hash
 * onto spine0 are lost, the others arrive; every flow of batch B (20 us, failure known) arrives
 * through spine1; batch C (60 us, repair known) uses spine0 again.
 */
class InaFaultRerouteTestCase : public TestCase
{
  public:
    InaFaultRerouteTestCase()
        : TestCase("ECMP avoids a dead link a detection delay after it fails, and uses it again")
    {
    }

  private:
    void DoRun() override
    {
        FaultRig rig(InaTopology::LeafSpine(2, 2, 1, Gbps100(), Gbps100()), 1, MicroSeconds(10));
        const InaTopology& topo = rig.fabric->GetTopology();
        const uint32_t link = LinkBetween(topo, "leaf0", "spine0");
        Ptr<InaSwitch> spine0 = rig.fabric->GetSwitch(topo.FindNode("spine0"));
        rig.faults->ScheduleLinkDown(link, Seconds(0));
        rig.faults->ScheduleLinkUp(link, MicroSeconds(40));
        constexpr uint32_t FLOWS = 64;
        for (uint32_t f = 0; f < FLOWS; ++f)
        {
            Simulator::Schedule(MicroSeconds(1) + NanoSeconds(100 * f),
                                &SendOne,
                                rig.fabric,
                                0,
                                1,
                                f,
                                f);
            Simulator::Schedule(MicroSeconds(20) + NanoSeconds(100 * f),
                                &SendOne,
                                rig.fabric,
                                0,
                                1,
                                f,
                                FLOWS + f);
        }
        uint64_t spine0AfterB = 0;
        Simulator::Schedule(MicroSeconds(59), [&]() {
            spine0AfterB = spine0->GetCounters().received;
        });
        for (uint32_t f = 0; f < FLOWS; ++f)
        {
            Simulator::Schedule(MicroSeconds(60) + NanoSeconds(100 * f),
                                &SendOne,
                                rig.fabric,
                                0,
                                1,
                                f,
                                2 * FLOWS + f);
        }
        Simulator::Run();
        uint32_t a = 0;
        uint32_t b = 0;
        uint32_t c = 0;
        for (uint64_t s : rig.sink.seqs)
        {
            (s < FLOWS ? a : s < 2 * FLOWS ? b : c)++;
        }
        NS_TEST_EXPECT_MSG_GT(a, 0, "before detection, flows on spine1 arrive");
        NS_TEST_EXPECT_MSG_LT(a, FLOWS, "before detection, flows hashed onto spine0 are lost");
        NS_TEST_EXPECT_MSG_EQ(rig.faults->GetFaultDrops(), FLOWS - a, "those are fault drops");
        NS_TEST_EXPECT_MSG_EQ(b, FLOWS, "once detected, every flow goes through spine1");
        NS_TEST_EXPECT_MSG_EQ(spine0AfterB, 0, "spine0 saw nothing while the link was down");
        NS_TEST_EXPECT_MSG_EQ(c, FLOWS, "after the repair every flow arrives");
        NS_TEST_EXPECT_MSG_GT(spine0->GetCounters().received, 0, "and spine0 carries some again");
        NS_TEST_EXPECT_MSG_EQ(rig.faults->GetReroutes(), 2, "converged twice: failure, repair");
        rig.faults->Dispose();
        Simulator::Destroy();
    }
};

/// A failed switch drops everything through it; back up, it forwards again.
class InaFaultSwitchDownTestCase : public TestCase
{
  public:
    InaFaultSwitchDownTestCase()
        : TestCase("a failed switch drops everything; after its reboot it forwards again")
    {
    }

  private:
    void DoRun() override
    {
        FaultRig rig(InaTopology::Star(3, Gbps100()), 2);
        const uint32_t tor = rig.fabric->GetTopology().FindNode("tor0");
        rig.faults->ScheduleSwitchDown(tor, MicroSeconds(1));
        rig.faults->ScheduleSwitchUp(tor, MicroSeconds(20));
        for (uint32_t i = 0; i < 10; ++i)
        {
            Simulator::Schedule(MicroSeconds(2 + i), &SendOne, rig.fabric, i % 2, 2, i, i);
        }
        Simulator::Schedule(MicroSeconds(30), &SendOne, rig.fabric, 0, 2, 99, 99);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(rig.sink.seqs.size(), 1, "only the packet after the reboot arrived");
        NS_TEST_EXPECT_MSG_EQ(rig.sink.seqs[0], 99, "the packet after the reboot");
        NS_TEST_EXPECT_MSG_EQ(rig.faults->GetFaultDrops(),
                              10,
                              "all ten sent meanwhile: fault drops");
        NS_TEST_EXPECT_MSG_EQ(rig.fabric->GetSwitch(tor)->GetCounters().received,
                              1,
                              "the dead switch received none of them");
        rig.faults->Dispose();
        Simulator::Destroy();
    }
};

class InaFaultTestSuite : public InaTestSuite
{
  public:
    InaFaultTestSuite()
        : InaTestSuite("ina-fault", Type::UNIT)
    {
        AddTestCase(new InaFaultLinkDownTestCase);
        AddTestCase(new InaFaultRerouteTestCase);
        AddTestCase(new InaFaultSwitchDownTestCase);
    }
};

static InaFaultTestSuite g_inaFaultTestSuite;
