/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of the reliable transport and the plain-traffic application: completion times to the
// picosecond on an idle star (one window, window-limited, fast retransmit, tail-loss probe, timeout
// with backoff), DCTCP's alpha and window cut, exact values over a lossy fabric, incast with ECN
// and with drops, the flow patterns, repeatability and the errors bad input gets.

#include "error-of.h"

#include "ns3/boolean.h"
#include "ns3/ecn-codepoints.h"
#include "ns3/ina-event.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-flow-app.h"
#include "ns3/ina-test-suite.h"
#include "ns3/ina-transport-profile.h"
#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"
#include "ns3/nstime.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

using namespace ns3;

namespace
{

constexpr int64_t D = 1000000; // 1 us wire delay, ps
constexpr int64_t S = 120000;  // 1500 B at 100 Gb/s, ps
constexpr int64_t A = 5120;    // a 64 B ACK at 100 Gb/s, ps
constexpr uint32_t MSS = 1436; // 1500 - 64

int64_t
Ser(uint32_t wireBytes)
{
    return static_cast<int64_t>(wireBytes) * 80; // ps per byte at 100 Gb/s
}

InaTopology::LinkSpec
Gbps100()
{
    return {100000000000ULL, D};
}

/// Sits in front of a receiver to lose or CE-mark chosen packets, once each, deterministically.
class Tamper : public InaPacketSink
{
  public:
    Tamper(InaPacketPool* pool, Ptr<InaTransportReceiver> rx)
        : m_pool(pool)
        , m_rx(rx)
    {
    }

    void Receive(InaPacket* p, uint32_t port) override
    {
        auto more = dropTimes.find(p->seq);
        if (dropOnce.erase(p->seq) != 0 || (more != dropTimes.end() && more->second-- > 0))
        {
            ++dropped;
            m_pool->Free(p);
            return;
        }
        if (markCe.count(p->seq) != 0)
        {
            p->ecn = INA_ECN_CE;
        }
        m_rx->Receive(p, port);
    }

    std::set<uint64_t> dropOnce;
    std::map<uint64_t, uint32_t> dropTimes; //!< seq -> how many of its copies to drop
    std::set<uint64_t> markCe;
    uint32_t dropped = 0;

  private:
    InaPacketPool* m_pool;
    Ptr<InaTransportReceiver> m_rx;
};

/// One flow from host 0 to host 1 of a 2-host star; data goes through a Tamper on port 2001.
struct StarPair
{
    Ptr<InaFabric> fabric;
    Ptr<InaTransportSender> tx;
    Ptr<InaTransportReceiver> rx;
    std::unique_ptr<Tamper> tamper;
    int64_t latency = 0;            //!< the switch pipeline's latency, ps
    std::vector<int64_t> ackedAt;   //!< sender callbacks, ps
    std::vector<uint32_t> ackedIdx; //!< their message indices
    std::vector<int64_t> rxAt;      //!< receiver callbacks, ps
    std::vector<std::vector<uint32_t>> rxValues;

    /// `profile`: an InaTransportProfile name for both ends; `delay`: each link's, ps.
    explicit StarPair(double lossRate = 0,
                      bool listen = true,
                      const std::string& profile = "ideal",
                      int64_t delay = D)
    {
        InaFabricHelper helper;
        helper.SetLossRate(lossRate);
        fabric = helper.Build(InaTopology::Star(2, {100000000000ULL, delay}));
        latency = fabric->GetSwitch(2)->GetPipeline()->GetLatency().GetTimeStep();
        ObjectFactory txFactory(InaTransportSender::GetTypeId().GetName());
        ObjectFactory rxFactory(InaTransportReceiver::GetTypeId().GetName());
        InaTransportProfile::Apply(profile, txFactory, rxFactory);
        rx = rxFactory.Create<InaTransportReceiver>();
        tamper = std::make_unique<Tamper>(&fabric->GetPool(), rx);
        if (listen)
        {
            Listen();
        }
        tx = txFactory.Create<InaTransportSender>();
        tx->Connect(fabric->GetHost(0), 1000, 1, 2001, 7, 0);
        tx->SetMessageAckedCallback(MakeBoundCallback(&StarPair::Acked, this));
        rx->SetMessageReceivedCallback(MakeBoundCallback(&StarPair::Received, this));
    }

    // Static, so MakeBoundCallback can bind this: ns-3 <= 3.35 Callbacks cannot wrap lambdas.
    static void Acked(StarPair* self, uint32_t i)
    {
        self->ackedAt.push_back(Simulator::Now().GetTimeStep());
        self->ackedIdx.push_back(i);
    }

    static void Received(StarPair* self, uint32_t, uint64_t, std::vector<uint32_t>& v)
    {
        self->rxAt.push_back(Simulator::Now().GetTimeStep());
        self->rxValues.push_back(std::move(v));
    }

    void Listen()
    {
        rx->Listen(fabric->GetHost(1), 2000, 7);
        fabric->GetHost(1)->Bind(2001, tamper.get());
    }

    /// The RTT of a lone packet of `wire` bytes on the idle star.
    int64_t Rtt(uint32_t wire) const
    {
        return 2 * Ser(wire) + 2 * A + 4 * D + 2 * latency;
    }
};

/// SRTT (RFC 6298) after the ACKs of packets 0..3 of a burst sent at t0: packet i's RTT is
/// (i + 2) S + `base`.
int64_t
SrttOfFirstFour(int64_t base)
{
    int64_t srtt = 2 * S + base;
    for (int64_t i = 1; i <= 3; ++i)
    {
        srtt += ((i + 2) * S + base - srtt) / 8;
    }
    return srtt;
}

std::vector<uint32_t>
Words(uint32_t n, uint32_t salt)
{
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        v[i] = (i * 2654435761u) ^ salt;
    }
    return v;
}

// Callback sinks are free/static functions bound with MakeBoundCallback: ns-3 <= 3.35
// Callbacks cannot wrap lambdas.

/// Receiver sink: keeps the messages, which must arrive in index order.
void
CollectInOrder(std::vector<std::vector<uint32_t>>* got,
               uint32_t i,
               uint64_t /* bytes */,
               std::vector<uint32_t>& v)
{
    NS_ABORT_MSG_UNLESS(i == got->size(), "out of order");
    got->push_back(std::move(v));
}

/// Receiver sink: keeps a copy of each message.
void
CollectCopy(std::vector<std::vector<uint32_t>>* got,
            uint32_t /* i */,
            uint64_t /* bytes */,
            std::vector<uint32_t>& v)
{
    got->push_back(v);
}

/// Sender sink: keeps the acknowledged message indices.
void
AppendAcked(std::vector<uint32_t>* acked, uint32_t i)
{
    acked->push_back(i);
}

/// Sender sink: sends the next 100000-byte message on each ack, 12 in all.
void
ChainNextMessage(std::vector<std::vector<uint32_t>>* sent, InaTransportSender* tx, uint32_t i)
{
    if (sent->size() < 12)
    {
        sent->push_back(Words(25000, 500 + i));
        tx->SendMessage(100000, sent->back());
    }
}

/// Sender sink: records when flow k's message was acknowledged, ps.
void
RecordAckTime(std::vector<int64_t>* done, uint32_t k, uint32_t /* i */)
{
    (*done)[k] = Simulator::Now().GetTimeStep();
}

} // namespace

/**
 * 20000 B = 13 full packets + one of 1332 B (1396 on the wire), all inside the 60000 B initial
 * window, leave back to back at t0. The switch port to host 1 is busy with packet 12 until
 * t0 + 14 S + D (it arrived at 13 S + D), and the short last packet, arriving at 13 S + S_last + D,
 * waits for it: it leaves the switch at t0 + 14 S + S_last + D and reaches host 1 after D and the
 * pipeline latency L. Its ACK returns after A + D + A + D + L.
 */
class InaTransportOneWindowTestCase : public TestCase
{
  public:
    InaTransportOneWindowTestCase()
        : TestCase("a message inside the initial window completes at the hand-computed time")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f;
        const int64_t t0 = 10000000; // 10 us
        const std::vector<uint32_t> values = Words(5000, 1);
        Ptr<InaTransportSender> tx = f.tx;
        Simulator::Schedule(TimeStep(t0), MakeInaFunctorEvent([tx, values]() {
                                tx->SendMessage(20000, values);
                            }));
        Simulator::Run();

        const int64_t sLast = Ser(20000 - 13 * MSS + 64);
        NS_TEST_ASSERT_MSG_EQ(sLast, 111680, "last packet 1396 B on the wire");
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, "one message acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0] - t0,
                              14 * S + sLast + 2 * A + 4 * D + 2 * f.latency,
                              "FCT");
        NS_TEST_ASSERT_MSG_EQ(f.rxAt.size(), 1, "one message received");
        NS_TEST_EXPECT_MSG_EQ(f.rxAt[0] - t0,
                              14 * S + sLast + 2 * D + f.latency,
                              "receiver completion");
        NS_TEST_EXPECT_MSG_EQ((f.rxValues[0] == values), true, "values arrive in order");
        const auto& s = f.tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.dataPacketsSent, 14, "14 packets");
        NS_TEST_EXPECT_MSG_EQ(s.wireBytesSent, 13 * 1500 + 1396, "wire bytes");
        NS_TEST_EXPECT_MSG_EQ(s.payloadBytesAcked, 20000, "payload acknowledged");
        NS_TEST_EXPECT_MSG_EQ(s.retransmissions, 0, "no retransmission");
        NS_TEST_EXPECT_MSG_EQ(s.probes, 0, "no probe");
        NS_TEST_EXPECT_MSG_EQ(s.acksReceived, 14, "one ACK per packet");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetCwnd(), 60000.0 + 20896, "slow start adds acked bytes");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetBytesInFlight(), 0, "nothing in flight");
        NS_TEST_EXPECT_MSG_EQ(f.tx->IsIdle(), true, "idle");
        const auto& r = f.rx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(r.packetsReceived, 14, "receiver packets");
        NS_TEST_EXPECT_MSG_EQ(r.acksSent, 14, "receiver ACKs");
        NS_TEST_EXPECT_MSG_EQ(r.payloadBytes, 20000, "receiver bytes");
        NS_TEST_EXPECT_MSG_EQ(f.rx->GetCumulativeAck(), 14, "cumulative position");
        Simulator::Destroy();
    }
};

/**
 * 41 full packets: 40 fill the 60000 B window; the 41st leaves when the first ACK opens the
 * window (t0 + RTT of one packet) or, if the NIC is still busy with the 40, at t0 + 40 S.
 */
class InaTransportWindowLimitedTestCase : public TestCase
{
  public:
    InaTransportWindowLimitedTestCase()
        : TestCase("the packet beyond the initial window waits for the first ACK")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f;
        f.tx->SendMessage(41 * MSS);
        Simulator::Run();
        const int64_t rtt = f.Rtt(1500);
        const int64_t start41 = std::max(rtt, 40 * S);
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, "acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0], start41 + rtt, "FCT");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetStats().dataPacketsSent, 41, "no extra packet");
        Simulator::Destroy();
    }
};

/**
 * 10 packets; packet 2 is lost once. The ACKs of 3, 4 and 5 show three later packets arrived, so
 * at the ACK of 5 (t0 + 7 S + 2 A + 4 D + 2 L) packet 2 is resent; its ACK completes the message
 * one lone-packet RTT later. The window is halved once, from 60000 + 4 x 1500 (ACKs 0, 1, 3, 4 grew
 * it in slow start; ACK 5 reveals the loss before it can) to 33000, stays frozen through recovery,
 * and takes one congestion-avoidance step on the final ACK.
 */
class InaTransportFastRetransmitTestCase : public TestCase
{
  public:
    InaTransportFastRetransmitTestCase()
        : TestCase("a lost packet is resent at the third later ACK (fast retransmit)")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f;
        f.tamper->dropOnce = {2};
        const std::vector<uint32_t> values = Words(10 * MSS / 4, 2);
        f.tx->SendMessage(10 * MSS, values);
        Simulator::Run();
        const int64_t ack5 = 7 * S + 2 * A + 4 * D + 2 * f.latency;
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, "acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0], ack5 + f.Rtt(1500), "FCT");
        NS_TEST_EXPECT_MSG_EQ((f.rxValues.at(0) == values), true, "values intact");
        const auto& s = f.tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.lossesDetected, 1, "one loss detected");
        NS_TEST_EXPECT_MSG_EQ(s.retransmissions, 1, "one retransmission");
        NS_TEST_EXPECT_MSG_EQ(s.lossReductions, 1, "one window cut");
        NS_TEST_EXPECT_MSG_EQ(s.timeouts, 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ(s.probes, 0, "no probe");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetSsthresh(), 33000.0, "ssthresh = cwnd / 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(f.tx->GetCwnd(),
                                  33000.0 + 1500.0 * 1500 / 33000,
                                  1e-9,
                                  "one additive step after recovery");
        Simulator::Destroy();
    }
};

/**
 * 5 packets; the last is lost once. Nothing after it can reveal the loss, so the probe timer
 * (2 SRTT after the ACK of packet 3) resends it. SRTT follows RFC 6298 over the four samples,
 * packet i's RTT being (i + 2) S + 2 A + 4 D + 2 L (all left at t0).
 */
class InaTransportTailLossProbeTestCase : public TestCase
{
  public:
    InaTransportTailLossProbeTestCase()
        : TestCase("a lost tail is resent by the probe after 2 SRTT, not after an RTO")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f;
        f.tamper->dropOnce = {4};
        f.tx->SendMessage(5 * MSS);
        Simulator::Run();
        const int64_t base = 2 * A + 4 * D + 2 * f.latency;
        const int64_t srtt = SrttOfFirstFour(base);
        const int64_t probeAt = 5 * S + base + 2 * srtt;
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, "acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0], probeAt + f.Rtt(1500), "FCT");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetSrtt().GetTimeStep(),
                              srtt + (f.Rtt(1500) - srtt) / 8,
                              "SRTT after the probe's sample");
        const auto& s = f.tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.probes, 1, "one probe");
        NS_TEST_EXPECT_MSG_EQ(s.retransmissions, 1, "the probe is the retransmission");
        NS_TEST_EXPECT_MSG_EQ(s.timeouts, 0, "no timeout");
        Simulator::Destroy();
    }
};

/**
 * Nobody listens at host 1 until 1.5 ms, so the first two copies are dropped there. With no RTT
 * sample the timeout is InitialRto (1 ms), doubled after each expiry: resends at 1 ms and at 3 ms;
 * the second gets through and its ACK comes back one lone-packet RTT later.
 */
class InaTransportTimeoutBackoffTestCase : public TestCase
{
  public:
    InaTransportTimeoutBackoffTestCase()
        : TestCase("the retransmission timeout fires and backs off exponentially")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f(0, false);
        f.tx->SendMessage(100);
        StarPair* pf = &f;
        Simulator::Schedule(MicroSeconds(1500), MakeInaFunctorEvent([pf]() {
                                pf->Listen();
                            }));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, "acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0], 3000000000LL + f.Rtt(164), "FCT");
        const auto& s = f.tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.timeouts, 2, "two timeouts");
        NS_TEST_EXPECT_MSG_EQ(s.retransmissions, 2, "two retransmissions");
        NS_TEST_EXPECT_MSG_EQ(s.dataPacketsSent, 3, "three copies");
        NS_TEST_EXPECT_MSG_EQ(f.fabric->GetHost(1)->GetUnboundDrops(), 2, "two dropped unbound");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetRto().GetTimeStep(),
                              std::max<int64_t>(200000000, f.Rtt(164) + 4 * (f.Rtt(164) / 2)),
                              "backoff reset by the ACK; RTO from the first sample");
        Simulator::Destroy();
    }
};

/**
 * Nobody ever listens: with MaxTimeouts = 2 the timer expires at 1 ms (timeout, resend), 3 ms
 * (timeout, resend) and 7 ms, when the flow gives up. Nothing is scheduled after that, so the
 * simulation ends at 7 ms instead of retrying forever.
 */
class InaTransportGiveUpTestCase : public TestCase
{
  public:
    InaTransportGiveUpTestCase()
        : TestCase("a flow that never gets through gives up after MaxTimeouts")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f(0, false);
        f.tx->SetAttribute("MaxTimeouts", UintegerValue(2)); // read at expiry, not at Connect
        f.tx->SendMessage(100);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now().GetTimeStep(), 7000000000LL, "ends at 7 ms");
        NS_TEST_EXPECT_MSG_EQ(f.tx->IsFailed(), true, "failed");
        NS_TEST_EXPECT_MSG_EQ(f.tx->IsIdle(), false, "not idle: nothing was acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt.size(), 0, "no completion");
        const auto& s = f.tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.timeouts, 2, "two timeouts");
        NS_TEST_EXPECT_MSG_EQ(s.dataPacketsSent, 3, "three copies");
        NS_TEST_EXPECT_MSG_EQ(s.messagesAbandoned, 1, "the message is abandoned");
        NS_TEST_EXPECT_MSG_EQ(f.tx->SendMessage(10), 1, "later messages keep their indices");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetStats().messagesAbandoned, 2, "and are abandoned");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetStats().dataPacketsSent, 3, "without sending");
        Simulator::Destroy();
    }
};

/**
 * 20 packets, packets 0 and 1 arrive CE-marked. ACK 0 closes DCTCP's first observation window
 * (alpha = 15/16 x 1 + 1/16 x 1 = 1) and cuts cwnd to 60000 (1 - 1/2) = 30000; ACK 1's echo falls
 * in the same window and cuts nothing. ACK 19 closes the second window (1500 of 28500 bytes marked)
 * and, out of CWR, adds Mtu^2 / cwnd.
 */
class InaTransportDctcpTestCase : public TestCase
{
  public:
    InaTransportDctcpTestCase()
        : TestCase("DCTCP: alpha per window, one cwnd cut per window of marks")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f;
        f.tamper->markCe = {0, 1};
        f.tx->SendMessage(20 * MSS);
        Simulator::Run();
        const double g = 1.0 / 16;
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, "acknowledged");
        const auto& s = f.tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.ecnEchoes, 2, "two echoes");
        NS_TEST_EXPECT_MSG_EQ(s.ecnReductions, 1, "one cut per window");
        NS_TEST_EXPECT_MSG_EQ(f.rx->GetStats().ceMarked, 2, "receiver saw two CE");
        NS_TEST_EXPECT_MSG_EQ_TOL(f.tx->GetAlpha(),
                                  (1 - g) * 1.0 + g * (1500.0 / 28500),
                                  1e-12,
                                  "alpha");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetSsthresh(), 30000.0, "ssthresh = cut window");
        NS_TEST_EXPECT_MSG_EQ_TOL(f.tx->GetCwnd(), 30075.0, 1e-9, "cwnd");
        Simulator::Destroy();
    }
};

/**
 * Two flows between the same two hosts over links losing 1% of packets: flow A queues 30
 * messages of awkward sizes at once, flow B sends 12, each when the previous is acknowledged.
 * Every message arrives once, in order, with its values exact.
 */
class InaTransportMessagesUnderLossTestCase : public TestCase
{
  public:
    InaTransportMessagesUnderLossTestCase()
        : TestCase("many messages on a flow survive 1% loss exactly and in order")
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        helper.SetLossRate(0.01);
        Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(2, Gbps100()));
        Ptr<InaHost> h0 = fabric->GetHost(0);
        Ptr<InaHost> h1 = fabric->GetHost(1);

        const uint32_t sizesA[] = {0, 4, 1432, 1436, 1440, 2872, 100000, 64, 40000, 8};
        std::vector<std::vector<uint32_t>> sentA;
        std::vector<std::vector<uint32_t>> gotA;
        std::vector<uint32_t> ackedA;
        Ptr<InaTransportReceiver> rxA = CreateObject<InaTransportReceiver>();
        rxA->Listen(h1, h1->AllocateEndpoint(), 1);
        rxA->SetMessageReceivedCallback(MakeBoundCallback(&CollectInOrder, &gotA));
        Ptr<InaTransportSender> txA = CreateObject<InaTransportSender>();
        txA->Connect(h0, h0->AllocateEndpoint(), 1, rxA->GetLocalPort(), 1, 0);
        txA->SetMessageAckedCallback(MakeBoundCallback(&AppendAcked, &ackedA));
        for (uint32_t m = 0; m < 30; ++m)
        {
            sentA.push_back(Words(sizesA[m % 10] / 4, 100 + m));
            NS_TEST_EXPECT_MSG_EQ(txA->SendMessage(sizesA[m % 10], sentA.back()), m, "index");
        }

        // Flow B: host 1 -> host 0, the reverse direction, chained from its callback.
        std::vector<std::vector<uint32_t>> sentB;
        std::vector<std::vector<uint32_t>> gotB;
        Ptr<InaTransportReceiver> rxB = CreateObject<InaTransportReceiver>();
        rxB->Listen(h0, h0->AllocateEndpoint(), 2);
        rxB->SetMessageReceivedCallback(MakeBoundCallback(&CollectCopy, &gotB));
        Ptr<InaTransportSender> txB = CreateObject<InaTransportSender>();
        txB->Connect(h1, h1->AllocateEndpoint(), 0, rxB->GetLocalPort(), 2, 0);
        InaTransportSender* pB = PeekPointer(txB);
        txB->SetMessageAckedCallback(MakeBoundCallback(&ChainNextMessage, &sentB, pB));
        sentB.push_back(Words(25000, 499));
        txB->SendMessage(100000, sentB.back());
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(gotA.size(), 30, "flow A: every message received");
        NS_TEST_ASSERT_MSG_EQ(ackedA.size(), 30, "flow A: every message acknowledged");
        for (uint32_t m = 0; m < 30; ++m)
        {
            NS_TEST_EXPECT_MSG_EQ((gotA[m] == sentA[m]), true, "flow A message " << m);
            NS_TEST_EXPECT_MSG_EQ(ackedA[m], m, "flow A acknowledged in order");
        }
        NS_TEST_ASSERT_MSG_EQ(gotB.size(), 12, "flow B: every message received");
        for (uint32_t m = 0; m < 12; ++m)
        {
            NS_TEST_EXPECT_MSG_EQ((gotB[m] == sentB[m]), true, "flow B message " << m);
        }
        NS_TEST_EXPECT_MSG_GT(fabric->GetTotalLinkCounters().lost, 0, "the links lost packets");
        NS_TEST_EXPECT_MSG_GT(txA->GetStats().retransmissions + txB->GetStats().retransmissions,
                              0,
                              "and the senders repaired them");
        NS_TEST_EXPECT_MSG_EQ(txA->GetBytesInFlight() + txB->GetBytesInFlight(), 0, "all done");
        Simulator::Destroy();
    }
};

/**
 * Host 0 sends 40 packets to host 1 (flow A) and 40 to host 2 (flow B) at t0. A's window goes to
 * the NIC at once (39 x 1500 B wait); B may add packets while the backlog stays within
 * NicQueueLimit = 65536 B: 4 of them (backlog 64500), then it waits at the gate, which wakes it
 * when the NIC has drained towards 32768 B. The NIC never idles, so the 80 packets leave back to
 * back as without the gate and B's last one leaves at t0 + 80 S: its FCT is 81 S + 2 A + 4 D + 2 L
 * either way, while the NIC's peak backlog is 64500 B instead of 118500 B.
 */
class InaTransportNicGateTestCase : public TestCase
{
  public:
    InaTransportNicGateTestCase()
        : TestCase("the NIC gate bounds the host's queue without idling the NIC")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t nicLimit : {65536u, 0u})
        {
            InaFabricHelper helper;
            Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(3, Gbps100()));
            const int64_t latency = fabric->GetSwitch(3)->GetPipeline()->GetLatency().GetTimeStep();
            Ptr<InaHost> h0 = fabric->GetHost(0);
            std::vector<int64_t> done(2, -1);
            std::vector<Ptr<InaTransportSender>> tx;
            std::vector<Ptr<InaTransportReceiver>> rx;
            for (uint32_t k = 0; k < 2; ++k)
            {
                Ptr<InaHost> dst = fabric->GetHost(1 + k);
                rx.push_back(CreateObject<InaTransportReceiver>());
                rx[k]->Listen(dst, 2000, 10 + k);
                tx.push_back(CreateObject<InaTransportSender>());
                tx[k]->SetAttribute("NicQueueLimit", UintegerValue(nicLimit));
                tx[k]->Connect(h0, 1000 + k, 1 + k, 2000, 10 + k, 0);
                tx[k]->SetMessageAckedCallback(MakeBoundCallback(&RecordAckTime, &done, k));
                tx[k]->SendMessage(40 * MSS);
            }
            Simulator::Run();
            const int64_t rtt = 2 * A + 4 * D + 2 * latency;
            NS_TEST_EXPECT_MSG_EQ(done[0], 41 * S + rtt, "flow A, nicLimit " << nicLimit);
            NS_TEST_EXPECT_MSG_EQ(done[1], 81 * S + rtt, "flow B, nicLimit " << nicLimit);
            NS_TEST_EXPECT_MSG_EQ(h0->GetPort()->GetCounters().peakBacklogBytes,
                                  (nicLimit != 0 ? 64500 : 118500),
                                  "peak NIC backlog, nicLimit " << nicLimit);
            NS_TEST_EXPECT_MSG_EQ(tx[0]->GetStats().nicWaits, 0, "A never waited");
            NS_TEST_EXPECT_MSG_EQ((tx[1]->GetStats().nicWaits > 0), (nicLimit != 0), "B waited");
            for (uint32_t k = 0; k < 2; ++k)
            {
                tx[k]->Dispose();
                rx[k]->Dispose();
            }
            Simulator::Destroy();
        }
    }
};

namespace
{

struct AppRun
{
    std::vector<InaFlowApp::FlowRecord> flows;
    InaLinkCounters links;
    uint64_t valuesChecked = 0;
    uint64_t valueErrors = 0;
    uint64_t ecnReductions = 0;
    uint64_t lossReductions = 0;
    uint64_t timeouts = 0;
    uint32_t completed = 0;
    int64_t meanFct = 0;
    int64_t p99Fct = 0;
    std::string csv;
};

AppRun
RunApp(uint32_t hosts,
       const std::string& pattern,
       uint64_t flowBytes,
       uint64_t seed,
       double lossRate,
       uint64_t queueBytes,
       uint64_t ecnBytes,
       bool checkValues,
       const std::vector<uint32_t>& chosen = {})
{
    InaFabricHelper helper;
    helper.SetLossRate(lossRate);
    helper.SetQueue(queueBytes, ecnBytes);
    Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(hosts, Gbps100()));
    Ptr<InaFlowApp> app = CreateObject<InaFlowApp>();
    app->SetAttribute("Pattern", StringValue(pattern));
    app->SetAttribute("FlowBytes", UintegerValue(flowBytes));
    app->SetAttribute("Seed", UintegerValue(seed));
    app->SetAttribute("CheckValues", BooleanValue(checkValues));
    app->SetAttribute("Start", TimeValue(MicroSeconds(5)));
    app->SetHosts(chosen);
    app->Install(fabric);
    Simulator::Run();
    AppRun r;
    r.flows = app->GetFlowRecords();
    r.links = fabric->GetTotalLinkCounters();
    r.valuesChecked = app->GetValuesChecked();
    r.valueErrors = app->GetValueErrors();
    for (uint32_t i = 0; i < app->GetNFlows(); ++i)
    {
        r.ecnReductions += app->GetSender(i)->GetStats().ecnReductions;
        r.lossReductions += app->GetSender(i)->GetStats().lossReductions;
        r.timeouts += app->GetSender(i)->GetStats().timeouts;
    }
    r.completed = app->GetNCompleted();
    r.meanFct = app->GetMeanFct().GetTimeStep();
    r.p99Fct = app->GetP99Fct().GetTimeStep();
    std::ostringstream os;
    app->WriteFlowsCsv(os);
    r.csv = os.str();
    app->Dispose();
    Simulator::Destroy();
    return r;
}

uint64_t
Sum(const std::vector<InaFlowApp::FlowRecord>& flows, uint64_t InaFlowApp::FlowRecord::*field)
{
    uint64_t s = 0;
    for (const auto& f : flows)
    {
        s += f.*field;
    }
    return s;
}

} // namespace

/// The application's record of a lone flow matches the transport's hand-computed FCT.
class InaFlowAppSingleFlowTestCase : public TestCase
{
  public:
    InaFlowAppSingleFlowTestCase()
        : TestCase("InaFlowApp records a lone flow's FCT to the picosecond")
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(2, Gbps100()));
        const int64_t latency = fabric->GetSwitch(2)->GetPipeline()->GetLatency().GetTimeStep();
        Ptr<InaFlowApp> app = CreateObject<InaFlowApp>();
        app->SetAttribute("Pattern", StringValue("incast"));
        app->SetAttribute("IncastDestination", UintegerValue(0));
        app->SetAttribute("FlowBytes", UintegerValue(20000));
        app->SetAttribute("Start", TimeValue(MicroSeconds(3)));
        app->SetAttribute("FirstFlowId", UintegerValue(40));
        app->Install(fabric);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(app->GetNFlows(), 1, "one flow");
        NS_TEST_ASSERT_MSG_EQ(app->GetNCompleted(), 1, "completed");
        const auto r = app->GetFlowRecords().at(0);
        const int64_t fct = 14 * S + 111680 + 2 * A + 4 * D + 2 * latency; // as above
        NS_TEST_EXPECT_MSG_EQ(r.flowId, 40, "flow id");
        NS_TEST_EXPECT_MSG_EQ(r.src, 1, "src");
        NS_TEST_EXPECT_MSG_EQ(r.dst, 0, "dst");
        NS_TEST_EXPECT_MSG_EQ(r.bytes, 20000, "bytes");
        NS_TEST_EXPECT_MSG_EQ(r.start.GetTimeStep(), 3000000, "start");
        NS_TEST_EXPECT_MSG_EQ(r.fct.GetTimeStep(), fct, "FCT");
        NS_TEST_EXPECT_MSG_EQ(r.finish.GetTimeStep(), 3000000 + fct, "finish");
        NS_TEST_EXPECT_MSG_EQ(app->GetMeanFct().GetTimeStep(), fct, "mean of one");
        NS_TEST_EXPECT_MSG_EQ(app->GetP99Fct().GetTimeStep(), fct, "p99 of one");
        std::ostringstream os;
        app->WriteFlowsCsv(os);
        auto sec = [](int64_t ps) {
            char b[64];
            std::snprintf(b,
                          sizeof(b),
                          "%lld.%012lld",
                          static_cast<long long>(ps / 1000000000000LL),
                          static_cast<long long>(ps % 1000000000000LL));
            return std::string(b);
        };
        NS_TEST_EXPECT_MSG_EQ(sec(3000000), "0.000003000000", "seconds with 12 decimals");
        std::ostringstream want;
        want << "flow_id,src,dst,bytes,start_s,finish_s,fct_s,completed,receiver_finish_s,"
                "retransmissions,timeouts,ecn_reductions,value_errors,failed\n"
             << "40,1,0,20000," << sec(3000000) << ',' << sec(3000000 + fct) << ',' << sec(fct)
             << ",true," << sec(3000000 + 14 * S + 111680 + 2 * D + latency) << ",0,0,0,0,false\n";
        NS_TEST_EXPECT_MSG_EQ(os.str(), want.str(), "CSV");
        app->Dispose();
        Simulator::Destroy();
    }
};

/// 1% loss on every link of an 8-host star: every flow of a permutation completes, values exact.
class InaFlowAppLossTestCase : public TestCase
{
  public:
    InaFlowAppLossTestCase()
        : TestCase("a permutation over 1% loss completes with exact values")
    {
    }

  private:
    void DoRun() override
    {
        AppRun r = RunApp(8, "permutation", 1000000, 1, 0.01, 1000000, 0, true);
        NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 8, "8 flows");
        NS_TEST_EXPECT_MSG_EQ(r.completed, 8, "all completed");
        for (const auto& f : r.flows)
        {
            NS_TEST_EXPECT_MSG_EQ(f.received, true, "flow " << f.flowId << " received");
        }
        NS_TEST_EXPECT_MSG_EQ(r.valuesChecked, 8 * 250000, "every word checked");
        NS_TEST_EXPECT_MSG_EQ(r.valueErrors, 0, "no word differs");
        NS_TEST_EXPECT_MSG_GT(r.links.lost, 0, "packets were lost");
        NS_TEST_EXPECT_MSG_GT(Sum(r.flows, &InaFlowApp::FlowRecord::retransmissions),
                              0,
                              "and retransmitted");
    }
};

/**
 * 8 senders into one host of a 9-host star with 100 KB port queues. With a 30 KB ECN threshold
 * the queue marks and DCTCP cuts windows; without it the queue overflows and losses are repaired.
 * Either way every flow completes, and the bottleneck stays busy: the last flow ends within 1.25x
 * of 8 MB at line rate.
 */
class InaFlowAppIncastTestCase : public TestCase
{
  public:
    InaFlowAppIncastTestCase()
        : TestCase("incast of 8: ECN marks cut windows; without ECN, drops are recovered")
    {
    }

  private:
    void DoRun() override
    {
        // 1 MB = 697 packets (696 full, one of 536 B + 64): the bottleneck's wire time for 8.
        const int64_t ideal = 8 * (696 * S + Ser(1000000 - 696 * MSS + 64));
        for (bool ecn : {true, false})
        {
            AppRun r = RunApp(9, "incast", 1000000, 1, 0, 100000, ecn ? 30000 : 0, !ecn);
            NS_TEST_ASSERT_MSG_EQ(r.flows.size(), 8, "8 senders");
            NS_TEST_EXPECT_MSG_EQ(r.completed, 8, "all completed, ecn=" << ecn);
            int64_t last = 0;
            for (const auto& f : r.flows)
            {
                NS_TEST_EXPECT_MSG_EQ(f.dst, 0, "into host 0");
                last = std::max(last, f.fct.GetTimeStep());
            }
            NS_TEST_EXPECT_MSG_LT(last, ideal * 5 / 4, "bottleneck kept busy, ecn=" << ecn);
            if (ecn)
            {
                NS_TEST_EXPECT_MSG_GT(r.links.ecnMarks, 0, "the queue marked");
                NS_TEST_EXPECT_MSG_GT(r.ecnReductions, 0, "and windows were cut");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(r.links.ecnMarks, 0, "no marking");
                NS_TEST_EXPECT_MSG_GT(r.links.drops, 0, "the queue overflowed");
                NS_TEST_EXPECT_MSG_GT(Sum(r.flows, &InaFlowApp::FlowRecord::retransmissions),
                                      0,
                                      "drops were retransmitted");
                NS_TEST_EXPECT_MSG_EQ(r.valuesChecked, 8 * 250000, "every word checked");
                NS_TEST_EXPECT_MSG_EQ(r.valueErrors, 0, "and exact");
            }
        }
    }
};

/// Who talks to whom: permutation, incast and all-to-all, on all hosts or a list.
class InaFlowAppPatternsTestCase : public TestCase
{
  public:
    InaFlowAppPatternsTestCase()
        : TestCase("permutation: one out and one in per host; all-to-all: n(n-1) flows")
    {
    }

  private:
    void DoRun() override
    {
        AppRun p = RunApp(8, "permutation", 30000, 3, 0, 1000000, 0, false);
        NS_TEST_ASSERT_MSG_EQ(p.flows.size(), 8, "one flow per host");
        std::vector<int> out(8, 0);
        std::vector<int> in(8, 0);
        for (uint32_t i = 0; i < p.flows.size(); ++i)
        {
            const auto& f = p.flows[i];
            NS_TEST_EXPECT_MSG_EQ(f.flowId, i + 1, "flow ids from FirstFlowId");
            NS_TEST_EXPECT_MSG_EQ(f.src, i, "flow i leaves host i");
            NS_TEST_EXPECT_MSG_NE(f.src, f.dst, "nobody sends to itself");
            NS_TEST_EXPECT_MSG_EQ(f.completed, true, "completed");
            ++out[f.src];
            ++in[f.dst];
        }
        for (uint32_t h = 0; h < 8; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(out[h], 1, "host " << h << " sends one flow");
            NS_TEST_EXPECT_MSG_EQ(in[h], 1, "host " << h << " receives one flow");
        }
        NS_TEST_EXPECT_MSG_EQ(p.completed, 8, "all completed");

        AppRun sub = RunApp(8, "permutation", 30000, 3, 0, 1000000, 0, false, {6, 2, 5});
        NS_TEST_ASSERT_MSG_EQ(sub.flows.size(), 3, "one flow per chosen host");
        std::set<uint32_t> dsts;
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sub.flows[i].src, (std::vector<uint32_t>{6, 2, 5}[i]), "src");
            NS_TEST_EXPECT_MSG_NE(sub.flows[i].src, sub.flows[i].dst, "no self");
            dsts.insert(sub.flows[i].dst);
        }
        NS_TEST_EXPECT_MSG_EQ((dsts == std::set<uint32_t>{2, 5, 6}), true, "chosen hosts only");

        AppRun a = RunApp(4, "all-to-all", 30000, 1, 0, 1000000, 0, false);
        NS_TEST_ASSERT_MSG_EQ(a.flows.size(), 12, "4 x 3 flows");
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        for (const auto& f : a.flows)
        {
            NS_TEST_EXPECT_MSG_NE(f.src, f.dst, "no self");
            pairs.insert({f.src, f.dst});
        }
        NS_TEST_EXPECT_MSG_EQ(pairs.size(), 12, "every ordered pair once");
        NS_TEST_EXPECT_MSG_EQ(a.completed, 12, "all completed");
        NS_TEST_EXPECT_MSG_GT(a.p99Fct, 0, "p99 defined");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(a.p99Fct, a.meanFct, "p99 >= mean");

        AppRun i = RunApp(6, "incast", 30000, 1, 0, 1000000, 0, false, {3, 1, 4});
        NS_TEST_ASSERT_MSG_EQ(i.flows.size(), 2, "the chosen hosts but the first send");
        NS_TEST_EXPECT_MSG_EQ(i.flows[0].src, 1, "src");
        NS_TEST_EXPECT_MSG_EQ(i.flows[0].dst, 3, "into the first chosen host");
        NS_TEST_EXPECT_MSG_EQ(i.flows[1].src, 4, "src");
        NS_TEST_EXPECT_MSG_EQ(i.flows[1].dst, 3, "into the first chosen host");
    }
};

/**
 * All-to-all among 9 hosts with 100 KB port queues: each host starts 8 flows of 60 KB windows
 * (480 KB). The NIC gate admits data only while a host's queue is under NicQueueLimit (64 KB), so
 * no host drops its own packets; with the gate off the senders' NICs overflow.
 */
class InaFlowAppNoSelfDropTestCase : public TestCase
{
  public:
    InaFlowAppNoSelfDropTestCase()
        : TestCase("hosts never drop their own packets at their NIC")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t nicLimit : {65536u, 0u})
        {
            InaFabricHelper helper;
            helper.SetQueue(100000, 0);
            Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(9, Gbps100()));
            Ptr<InaFlowApp> app = CreateObject<InaFlowApp>();
            app->SetAttribute("Pattern", StringValue("all-to-all"));
            app->SetAttribute("FlowBytes", UintegerValue(200000));
            app->SetSenderAttribute("NicQueueLimit", UintegerValue(nicLimit));
            app->Install(fabric);
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(app->GetNCompleted(), 72, "all 72 flows completed");
            uint64_t nicDrops = 0;
            uint64_t peak = 0;
            for (uint32_t h = 0; h < 9; ++h)
            {
                nicDrops += fabric->GetHost(h)->GetPort()->GetCounters().drops;
                peak =
                    std::max(peak, fabric->GetHost(h)->GetPort()->GetCounters().peakBacklogBytes);
            }
            if (nicLimit != 0)
            {
                NS_TEST_EXPECT_MSG_EQ(nicDrops, 0, "no drop at a sender's NIC");
                // Data stops at the limit; ACKs the host's receivers send are never held back.
                NS_TEST_EXPECT_MSG_LT(peak, 100000, "NIC backlog below its capacity");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(nicDrops, 0, "without the gate the NICs overflow");
            }
            app->Dispose();
            Simulator::Destroy();
        }
    }
};

/// The same seed repeats every FCT to the picosecond; another seed draws another permutation.
class InaFlowAppDeterminismTestCase : public TestCase
{
  public:
    InaFlowAppDeterminismTestCase()
        : TestCase("the same seed gives identical FCTs")
    {
    }

  private:
    void DoRun() override
    {
        AppRun a = RunApp(8, "permutation", 300000, 7, 0.01, 1000000, 0, false);
        AppRun b = RunApp(8, "permutation", 300000, 7, 0.01, 1000000, 0, false);
        NS_TEST_ASSERT_MSG_EQ(a.flows.size(), b.flows.size(), "same flows");
        for (uint32_t i = 0; i < a.flows.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(a.flows[i].dst, b.flows[i].dst, "same pairs");
            NS_TEST_EXPECT_MSG_EQ(a.flows[i].fct, b.flows[i].fct, "same FCT, flow " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(a.csv, b.csv, "byte-identical CSV");
        NS_TEST_EXPECT_MSG_GT(Sum(a.flows, &InaFlowApp::FlowRecord::retransmissions),
                              0,
                              "the runs did lose packets");
        AppRun c = RunApp(8, "permutation", 300000, 8, 0.01, 1000000, 0, false);
        bool differs = false;
        for (uint32_t i = 0; i < a.flows.size(); ++i)
        {
            differs = differs || a.flows[i].dst != c.flows[i].dst;
        }
        NS_TEST_EXPECT_MSG_EQ(differs, true, "seed 8 draws another derangement than seed 7");
    }
};

namespace
{

bool
Contains(const std::string& s, const std::string& part)
{
    return s.find(part) != std::string::npos;
}
} // namespace

/// Bad configuration is refused with a message that says what was expected.
class InaFlowAppErrorsTestCase : public TestCase
{
  public:
    InaFlowAppErrorsTestCase()
        : TestCase("bad configuration is refused with a clear message")
    {
    }

  private:
    void DoRun() override
    {
        InaFabricHelper helper;
        Ptr<InaFabric> fabric = helper.Build(InaTopology::Star(4, Gbps100()));
        auto install = [fabric](const std::vector<uint32_t>& hosts,
                                const std::string& pattern,
                                uint64_t bytes,
                                bool check) {
            Ptr<InaFlowApp> app = CreateObject<InaFlowApp>();
            app->SetAttribute("Pattern", StringValue(pattern));
            app->SetAttribute("FlowBytes", UintegerValue(bytes));
            app->SetAttribute("CheckValues", BooleanValue(check));
            app->SetHosts(hosts);
            return tests::ErrorOf<std::invalid_argument>([&]() {
                app->Install(fabric);
            });
        };
        std::string e = install({0, 9}, "permutation", 100, false);
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "host 9, but the fabric has hosts 0..3"), true, e);
        e = install({1, 1}, "permutation", 100, false);
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "host 1 twice"), true, e);
        e = install({2}, "permutation", 100, false);
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "at least 2 hosts"), true, e);
        e = install({2}, "incast", 100, false);
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "has no sender"), true, e);
        e = install({}, "all-to-all", 102, true);
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "FlowBytes must be a multiple of 4, got 102"), true, e);

        Ptr<InaTransportSender> tx = CreateObject<InaTransportSender>();
        e = tests::ErrorOf<std::invalid_argument>([tx]() {
            tx->SendMessage(10);
        });
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "SendMessage before Connect"), true, e);
        tx->SetAttribute("Mtu", UintegerValue(66));
        e = tests::ErrorOf<std::invalid_argument>([tx, fabric]() {
            tx->Connect(fabric->GetHost(0), 5000, 1, 5001, 9, 0);
        });
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "Mtu (66) must exceed HeaderBytes (64)"), true, e);
        tx->SetAttribute("Mtu", UintegerValue(1500));
        tx->Connect(fabric->GetHost(0), 5000, 1, 5001, 9, 0);
        e = tests::ErrorOf<std::invalid_argument>([tx]() {
            tx->SendMessage(10, {1, 2});
        });
        NS_TEST_EXPECT_MSG_EQ(Contains(e, "10 bytes cannot carry 2 32-bit values"), true, e);
        tx->Dispose();
        Simulator::Destroy();
    }
};

/**
 * Linux TCP (profile tcp), 5 packets; the last is lost, and so is its probe. The probe leaves
 * ProbeMinTimeout (10 ms, more than 2 SRTT here) after the ACK of packet 3; with it lost nothing
 * is left but the retransmission timeout, which the probe armed at MinRto = 200 ms (SRTT +
 * 4 RTTVAR is microseconds): the message waits the minimum RTO for its tail, as a Gloo or NCCL
 * message over TCP does. The same losses cost the ideal profile 2 SRTT + 200 us.
 */
class InaTransportTcpTailLossRtoTestCase : public TestCase
{
  public:
    InaTransportTcpTailLossRtoTestCase()
        : TestCase("tcp: a tail loss whose probe is lost too waits the 200 ms minimum RTO")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string profile : {"tcp", "ideal"})
        {
            StarPair f(0, true, profile);
            f.tamper->dropTimes[4] = 2;
            f.tx->SendMessage(5 * MSS);
            Simulator::Run();
            const int64_t base = 2 * A + 4 * D + 2 * f.latency;
            const int64_t srtt = SrttOfFirstFour(base);
            const int64_t ack3 = 5 * S + base;
            const bool tcp = profile == "tcp";
            const int64_t probeAt = ack3 + (tcp ? 10000000000LL : 2 * srtt);
            const int64_t rto = tcp ? 200000000000LL : 200000000LL;
            NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, profile << ": acknowledged");
            NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0], probeAt + rto + f.Rtt(1500), profile << ": FCT");
            const auto& s = f.tx->GetStats();
            NS_TEST_EXPECT_MSG_EQ(s.probes, 1, profile << ": one probe");
            NS_TEST_EXPECT_MSG_EQ(s.timeouts, 1, profile << ": one timeout");
            NS_TEST_EXPECT_MSG_EQ(s.retransmissions, 2, profile << ": probe and RTO resend");
            NS_TEST_EXPECT_MSG_EQ(f.tamper->dropped, 2, profile << ": two copies lost");
            Simulator::Destroy();
        }
    }
};

/**
 * Linux TCP over links losing 1 % of packets: 100 messages of 20 packets, each sent when the one
 * before is acknowledged, so every message ends in a tail. Every retransmission timeout waits at
 * least MinRto (200 ms), so the run lasts at least as many times 200 ms as there were timeouts,
 * and with the ideal transport's 200 us the same losses cost three orders of magnitude less.
 */
class InaTransportTcpLossyFlowTestCase : public TestCase
{
  public:
    InaTransportTcpLossyFlowTestCase()
        : TestCase("tcp at 1% loss: every timeout costs the 200 ms minimum RTO")
    {
    }

  private:
    void DoRun() override
    {
        for (const std::string profile : {"tcp", "ideal"})
        {
            StarPair f(0.01, true, profile);
            uint32_t sent = 1;
            f.tx->SetMessageAckedCallback(
                MakeBoundCallback(&ChainMessages, &sent, PeekPointer(f.tx)));
            f.tx->SendMessage(20 * MSS);
            Simulator::Run();
            const auto& s = f.tx->GetStats();
            NS_TEST_ASSERT_MSG_EQ(s.messagesAcked, 100, profile << ": all messages");
            NS_TEST_ASSERT_MSG_GT(s.retransmissions, 0, profile << ": losses happened");
            const int64_t minRto = profile == "tcp" ? 200000000000LL : 200000000LL;
            NS_TEST_EXPECT_MSG_GT_OR_EQ(Simulator::Now().GetTimeStep(),
                                        static_cast<int64_t>(s.timeouts) * minRto,
                                        profile << ": each timeout waited MinRto");
            if (profile == "tcp")
            {
                NS_TEST_EXPECT_MSG_GT(s.timeouts, 0, "tcp: some tail needed the RTO");
            }
            Simulator::Destroy();
        }
    }

    /// Sends the next 20-packet message on each ack, 100 in all.
    static void ChainMessages(uint32_t* sent, InaTransportSender* tx, uint32_t /* i */)
    {
        if (*sent < 100)
        {
            ++*sent;
            tx->SendMessage(20 * MSS);
        }
    }
};

/**
 * RDMA (profile rdma: go-back-N, no window): 10 packets leave back to back; packet 2 is lost.
 * Packet 3 reaches the receiver after the hole: it is dropped and NAKed (cumulative position 2);
 * 4 to 9 are dropped silently. The NAK reaches the sender at 5 S + 2 A + 4 D + 2 L (packet 3's
 * arrival plus the way back), and the sender resends the whole window from 2: 8 packets, the
 * last of which is acknowledged 9 S + 2 A + 4 D + 2 L later.
 */
class InaTransportGoBackNTestCase : public TestCase
{
  public:
    InaTransportGoBackNTestCase()
        : TestCase("rdma: a loss makes go-back-N resend the window from the hole")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f(0, true, "rdma");
        f.tamper->dropOnce = {2};
        const std::vector<uint32_t> values = Words(10 * MSS / 4, 3);
        f.tx->SendMessage(10 * MSS, values);
        Simulator::Run();
        const int64_t way = 2 * A + 4 * D + 2 * f.latency;
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 1, "acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0], (5 * S + way) + (9 * S + way), "FCT");
        NS_TEST_EXPECT_MSG_EQ((f.rxValues.at(0) == values), true, "values intact");
        const auto& s = f.tx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(s.naks, 1, "one NAK");
        NS_TEST_EXPECT_MSG_EQ(s.goBacks, 1, "one go-back");
        NS_TEST_EXPECT_MSG_EQ(s.retransmissions, 8, "packets 2..9 resent");
        NS_TEST_EXPECT_MSG_EQ(s.dataPacketsSent, 18, "10 + 8");
        NS_TEST_EXPECT_MSG_EQ(s.timeouts, 0, "no timeout");
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetCwnd(), 4294967295.0, "no window reaction");
        const auto& r = f.rx->GetStats();
        NS_TEST_EXPECT_MSG_EQ(r.outOfOrderDrops, 7, "3..9 dropped after the hole");
        NS_TEST_EXPECT_MSG_EQ(r.naksSent, 1, "one NAK per hole");
        NS_TEST_EXPECT_MSG_EQ(r.packetsReceived, 10, "each packet taken once");
        Simulator::Destroy();
    }
};

/**
 * Linux TCP's slow start on a path whose RTT (about 4 ms: 1 ms links) dwarfs a window's
 * serialization: the window is 10 packets in the first RTT and doubles every RTT (each ACK adds
 * the bytes it acknowledges) until MaxWindow; sampled in the middle of each RTT.
 */
class InaTransportSlowStartTestCase : public TestCase
{
  public:
    InaTransportSlowStartTestCase()
        : TestCase("tcp: slow start doubles the window every RTT")
    {
    }

  private:
    void DoRun() override
    {
        const int64_t delay = 1000000000; // 1 ms
        StarPair f(0, true, "tcp", delay);
        f.tx->SendMessage(3000 * MSS);
        const int64_t rtt = 2 * Ser(1500) + 2 * A + 4 * delay + 2 * f.latency;
        std::vector<double> cwnd;
        for (int k = 0; k < 8; ++k)
        {
            Simulator::Schedule(TimeStep(k * rtt + rtt / 2),
                                MakeBoundCallback(&InaTransportSlowStartTestCase::Sample,
                                                  PeekPointer(f.tx),
                                                  &cwnd));
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(cwnd.size(), 8, "eight samples");
        for (int k = 0; k < 8; ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(cwnd[k], 15000.0 * (1 << k), "RTT " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(f.tx->GetStats().retransmissions, 0, "no loss");
        Simulator::Destroy();
    }

    static void Sample(InaTransportSender* tx, std::vector<double>* out)
    {
        out->push_back(tx->GetCwnd());
    }
};

/**
 * MessageOverhead: the host's software takes 50 us per message, one message after the other.
 * Two one-packet messages queued at t0 leave at 50 us and 100 us; each is acknowledged one
 * lone-packet RTT later.
 */
class InaTransportMessageOverheadTestCase : public TestCase
{
  public:
    InaTransportMessageOverheadTestCase()
        : TestCase("a per-message software overhead is spent message after message")
    {
    }

  private:
    void DoRun() override
    {
        StarPair f;
        f.tx->SetAttribute("MessageOverhead", TimeValue(MicroSeconds(50)));
        f.tx->SendMessage(100);
        f.tx->SendMessage(100);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(f.ackedAt.size(), 2, "both acknowledged");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[0], 50000000 + f.Rtt(164), "first after 50 us");
        NS_TEST_EXPECT_MSG_EQ(f.ackedAt[1], 100000000 + f.Rtt(164), "second after 100 us");
        Simulator::Destroy();
    }
};

/// A message source for InaTransportMessageSourceTestCase: hands out `sizes` with their values
/// one at a time, each said to be queued at t0, and keeps the most messages the sender ever held
/// (taken and not yet acknowledged: `acked` is the flow's list of acknowledgements).
struct ListSource
{
    std::vector<uint32_t> sizes;
    std::vector<std::vector<uint32_t>> values;
    const std::vector<int64_t>* acked = nullptr;
    uint32_t next = 0;
    uint32_t mostHeld = 0;

    static bool Next(ListSource* self, uint64_t& bytes, std::vector<uint32_t>& v, Time& queued)
    {
        if (self->next == self->sizes.size())
        {
            return false;
        }
        bytes = self->sizes[self->next];
        v = self->values[self->next];
        queued = Time(0);
        ++self->next;
        self->mostHeld =
            std::max(self->mostHeld, self->next - static_cast<uint32_t>(self->acked->size()));
        return true;
    }
};

/**
 * A flow that takes its messages from a source (SetMessageSource) sends exactly what it sends when
 * every message is queued with SendMessage at once: the same acknowledgement and delivery times
 * to the picosecond and the same values, under 1 % loss and with a per-message overhead; and it
 * holds only the messages it has started (a window's worth), not every message ready.
 */
class InaTransportMessageSourceTestCase : public TestCase
{
  public:
    InaTransportMessageSourceTestCase()
        : TestCase("messages taken from a source leave as if all were queued at once")
    {
    }

  private:
    struct Outcome
    {
        std::vector<int64_t> ackedAt;
        std::vector<int64_t> rxAt;
        std::vector<std::vector<uint32_t>> rxValues;
        uint64_t retransmissions = 0;
        uint32_t mostHeld = 0;
    };

    static Outcome Run(bool fromSource,
                       double loss,
                       Time overhead,
                       const std::vector<uint32_t>& sizes,
                       bool withValues)
    {
        StarPair f(loss);
        f.tx->SetAttribute("MessageOverhead", TimeValue(overhead));
        ListSource src;
        src.sizes = sizes;
        src.acked = &f.ackedAt;
        for (uint32_t m = 0; m < sizes.size(); ++m)
        {
            src.values.push_back(withValues ? Words(sizes[m] / 4, m) : std::vector<uint32_t>());
        }
        if (fromSource)
        {
            f.tx->SetMessageSource(MakeBoundCallback(&ListSource::Next, &src));
            f.tx->Wake();
        }
        else
        {
            for (uint32_t m = 0; m < sizes.size(); ++m)
            {
                f.tx->SendMessage(sizes[m], src.values[m]);
            }
        }
        Simulator::Run();
        Outcome o;
        o.ackedAt = f.ackedAt;
        o.rxAt = f.rxAt;
        o.rxValues = f.rxValues;
        o.retransmissions = f.tx->GetStats().retransmissions;
        o.mostHeld = src.mostHeld;
        Simulator::Destroy();
        return o;
    }

    void DoRun() override
    {
        std::vector<uint32_t> sizes;
        const uint32_t pattern[] = {0, 4, 1432, 1436, 1440, 2872, 100000, 64, 40000, 8};
        for (uint32_t m = 0; m < 200; ++m)
        {
            sizes.push_back(pattern[m % 10]);
        }
        const Outcome queued = Run(false, 0.01, MicroSeconds(2), sizes, true);
        const Outcome pulled = Run(true, 0.01, MicroSeconds(2), sizes, true);
        NS_TEST_ASSERT_MSG_EQ(queued.rxAt.size(), sizes.size(), "every message delivered");
        NS_TEST_EXPECT_MSG_GT(queued.retransmissions, 0, "the loss cost retransmissions");
        NS_TEST_EXPECT_MSG_EQ((pulled.ackedAt == queued.ackedAt), true, "same ACK times");
        NS_TEST_EXPECT_MSG_EQ((pulled.rxAt == queued.rxAt), true, "same delivery times");
        NS_TEST_EXPECT_MSG_EQ((pulled.rxValues == queued.rxValues), true, "same values");
        NS_TEST_EXPECT_MSG_EQ(pulled.retransmissions, queued.retransmissions, "same resends");

        // 20,000 one-packet messages (164 wire bytes each), no loss: the sender holds at most
        // its window's worth (MaxWindow / 164, and the one it is about to start).
        const std::vector<uint32_t> small(20000, 100);
        const Outcome many = Run(true, 0, Time(0), small, false);
        NS_TEST_ASSERT_MSG_EQ(many.rxAt.size(), small.size(), "every small message delivered");
        UintegerValue maxWindow;
        Ptr<InaTransportSender> probe = CreateObject<InaTransportSender>();
        probe->GetAttribute("MaxWindow", maxWindow);
        NS_TEST_EXPECT_MSG_LT_OR_EQ(many.mostHeld,
                                    maxWindow.Get() / 164 + 1,
                                    "held messages bounded by the window");
        NS_TEST_EXPECT_MSG_LT(many.mostHeld, small.size() / 4, "far fewer than were ready");
    }
};

/// An unknown profile name is an error that lists the names there are.
class InaTransportProfileErrorTestCase : public TestCase
{
  public:
    InaTransportProfileErrorTestCase()
        : TestCase("an unknown transport profile is refused with the known names")
    {
    }

  private:
    void DoRun() override
    {
        ObjectFactory tx(InaTransportSender::GetTypeId().GetName());
        ObjectFactory rx(InaTransportReceiver::GetTypeId().GetName());
        std::string what;
        try
        {
            InaTransportProfile::Apply("udp", tx, rx);
        }
        catch (const std::invalid_argument& e)
        {
            what = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(what,
                              "unknown transport 'udp' (expected one of: ideal, tcp, dctcp, rdma)",
                              "error");
    }
};

class InaTransportTestSuite : public InaTestSuite
{
  public:
    InaTransportTestSuite()
        : InaTestSuite("ina-transport", TestSuite::Type::UNIT)
    {
        AddTestCase(new InaTransportOneWindowTestCase);
        AddTestCase(new InaTransportWindowLimitedTestCase);
        AddTestCase(new InaTransportFastRetransmitTestCase);
        AddTestCase(new InaTransportTailLossProbeTestCase);
        AddTestCase(new InaTransportTimeoutBackoffTestCase);
        AddTestCase(new InaTransportGiveUpTestCase);
        AddTestCase(new InaTransportDctcpTestCase);
        AddTestCase(new InaTransportMessagesUnderLossTestCase);
        AddTestCase(new InaTransportNicGateTestCase);
        AddTestCase(new InaTransportTcpTailLossRtoTestCase);
        AddTestCase(new InaTransportTcpLossyFlowTestCase);
        AddTestCase(new InaTransportGoBackNTestCase);
        AddTestCase(new InaTransportSlowStartTestCase);
        AddTestCase(new InaTransportMessageOverheadTestCase);
        AddTestCase(new InaTransportMessageSourceTestCase);
        AddTestCase(new InaTransportProfileErrorTestCase);
        AddTestCase(new InaFlowAppSingleFlowTestCase);
        AddTestCase(new InaFlowAppLossTestCase);
        AddTestCase(new InaFlowAppIncastTestCase);
        AddTestCase(new InaFlowAppPatternsTestCase);
        AddTestCase(new InaFlowAppNoSelfDropTestCase);
        AddTestCase(new InaFlowAppDeterminismTestCase);
        AddTestCase(new InaFlowAppErrorsTestCase);
    }
};

static InaTransportTestSuite g_inaTransportTestSuite;
