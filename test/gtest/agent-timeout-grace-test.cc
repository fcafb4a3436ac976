/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// AggregationAgent's give-up counter with a grace (SetTimeoutGrace): timeouts count towards
// MaxTimeouts only once nothing has been heard for the grace, measured from the last
// NoteReceived or NoteBurstStart. The pool agents (ATP, ESA, GRID and GRID's baselines) set it
// to their FirstRto; an agent without one counts every timeout, as before.

#include "ns3/aggregation-agent.h"
#include "ns3/aggregation-protocol.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <gtest/gtest.h>

using namespace ns3;

namespace
{

/// A protocol with nothing to install: only its MaxTimeouts Attribute is used.
class GraceTestProtocol : public AggregationProtocol
{
  private:
    void DoInstall() override
    {
    }

    Ptr<AggregationAgent> DoCreateAgent(uint32_t) override
    {
        return nullptr;
    }
};

/// An agent whose timeouts and receptions the test drives by hand.
class GraceTestAgent : public AggregationAgent
{
  public:
    using AggregationAgent::NoteBurstStart;
    using AggregationAgent::NoteReceived;
    using AggregationAgent::NoteTimeout;
    using AggregationAgent::SetTimeoutGrace;

  private:
    void DoSetup() override
    {
    }

    void DoAllReduce(uint64_t, uint64_t, std::vector<float>*) override
    {
    }
};

/// An agent of a protocol with MaxTimeouts 3, on host 0 of a one-host star.
Ptr<GraceTestAgent>
MakeAgent()
{
    Ptr<GraceTestProtocol> protocol = CreateObject<GraceTestProtocol>();
    protocol->SetAttribute("MaxTimeouts", UintegerValue(3));
    JobContext ctx;
    ctx.fabric = InaFabricHelper().Build(InaTopology::Star(1, {100000000000ULL, 1000000}));
    ctx.name = "j1";
    ctx.jobId = 1;
    ctx.workerHosts = {0};
    Ptr<GraceTestAgent> agent = CreateObject<GraceTestAgent>();
    agent->Setup(ctx, 0, protocol);
    return agent;
}

/// NoteTimeout at each of `atUs` (simulated us), after NoteBurstStart at 0; what each returned.
std::vector<bool>
TimeoutsAt(Ptr<GraceTestAgent> agent, const std::vector<int64_t>& atUs)
{
    std::vector<bool> gaveUp;
    agent->NoteBurstStart();
    for (int64_t us : atUs)
    {
        Simulator::Schedule(MicroSeconds(us), [agent, &gaveUp]() {
            gaveUp.push_back(agent->NoteTimeout());
        });
    }
    Simulator::Run();
    Simulator::Destroy();
    return gaveUp;
}

} // namespace

TEST(AgentTimeoutGrace, WithoutGraceEveryTimeoutCounts)
{
    Ptr<GraceTestAgent> agent = MakeAgent();
    EXPECT_EQ(TimeoutsAt(agent, {10, 20, 30}), (std::vector<bool>{false, false, true}));
    EXPECT_TRUE(agent->HasGivenUp());
    EXPECT_NE(agent->GetGiveUpReason().find("3 retransmission timeouts in a row"),
              std::string::npos)
        << agent->GetGiveUpReason();
    agent->Dispose();
}

TEST(AgentTimeoutGrace, TimeoutsCountOnlyAfterTheGraceOfSilence)
{
    Ptr<GraceTestAgent> agent = MakeAgent();
    agent->SetTimeoutGrace(MicroSeconds(100));
    // Five timeouts within the first 100 us of the burst do not count; the three after do.
    EXPECT_EQ(TimeoutsAt(agent, {10, 20, 30, 40, 99, 100, 110, 120}),
              (std::vector<bool>{false, false, false, false, false, false, false, true}));
    EXPECT_TRUE(agent->HasGivenUp());
    agent->Dispose();
}

TEST(AgentTimeoutGrace, ReceivingRestartsTheSilenceAndTheRow)
{
    Ptr<GraceTestAgent> agent = MakeAgent();
    agent->SetTimeoutGrace(MicroSeconds(100));
    std::vector<bool> gaveUp;
    agent->NoteBurstStart();
    auto timeout = [agent, &gaveUp]() {
        gaveUp.push_back(agent->NoteTimeout());
    };
    // Two counted timeouts, then a reception at 150 us: the row ends, and the next timeouts
    // count only from 250 us on.
    for (int64_t us : {100, 110})
    {
        Simulator::Schedule(MicroSeconds(us), timeout);
    }
    Simulator::Schedule(MicroSeconds(150), [agent]() {
        agent->NoteReceived();
    });
    for (int64_t us : {160, 240, 250, 260, 270})
    {
        Simulator::Schedule(MicroSeconds(us), timeout);
    }
    Simulator::Run();
    Simulator::Destroy();
    EXPECT_EQ(gaveUp, (std::vector<bool>{false, false, false, false, false, false, true}));
    EXPECT_TRUE(agent->HasGivenUp());
    agent->Dispose();
}
