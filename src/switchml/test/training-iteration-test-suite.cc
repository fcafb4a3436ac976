/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// A worker with a two-layer model on an idle fabric, aggregating with SwitchML, finishes its
// iterations at the times computed by hand from the compute times, the link and the pipeline.

#include "../../ina-training/test/test-job-context.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-test-suite.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"
#include "ns3/switch-ml-header.h"
#include "ns3/test.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

using namespace ns3;

/**
 * Two workers on a 100 Gb/s, 1 us star. Layer gradients of 128 B (32 floats: one SwitchML packet
 * each). Forward 1 + 3 us, backward 6 us (layer 1) then 2 us (layer 0).
 *
 * One packet's all-reduce on an idle star: the worker's 180-B packet serializes (180 x 80 ps) and
 * crosses the wire (1 us), the switch adds its pipeline latency L and multicasts the result, which
 * serializes and crosses back: A = 2 x (14.4 ns + 1 us) + L.
 *
 * Layer 1's gradient leaves at 4 + 6 = 10 us and is back at 10 us + A, before layer 0's leaves at
 * 12 us (A < 2 us); layer 0's is back at 12 us + A. So every iteration takes 12 us + A.
 */
class TrainingIterationOnFabricTestCase : public TestCase
{
  public:
    TrainingIterationOnFabricTestCase()
        : TestCase("a two-layer worker on an idle fabric iterates at the hand-computed time")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<InaFabric> fabric = tests::TestStar(2);
        JobContext ctx = tests::TestJobContext(fabric, "two-layers", {0, 1}, 3, true);
        ctx.inaTiers = {"tor"};
        ctx.flowIdBase = JobContext::FLOW_IDS_PER_JOB;
        ModelSpec model;
        model.name = "two-layers";
        model.layers.push_back({"l0", 128, 1000000, 2000000});
        model.layers.push_back({"l1", 128, 3000000, 6000000});
        ObjectFactory f(AggregationProtocolRegistry::Lookup("switchml"));
        Ptr<TrainingJob> job = CreateObject<TrainingJob>();
        job->SetAttribute("Iterations", UintegerValue(3));
        tests::RunJobToEnd(job, ctx, model, f.Create<AggregationProtocol>());

        const int64_t latency = fabric->GetSwitch(2)->GetPipeline()->GetLatency().GetTimeStep();
        const int64_t wire = SwitchMlHeader::WireBytes(32, false, true);
        const int64_t allReduce = 2 * (wire * 80 + 1000000) + latency;
        NS_TEST_ASSERT_MSG_EQ(job->IsCompleted(), true, "completed");
        for (const Time& t : job->GetIterationTimes())
        {
            NS_TEST_EXPECT_MSG_EQ(t.GetTimeStep(), 12000000 + allReduce, "iteration time");
        }
        NS_TEST_EXPECT_MSG_EQ(job->GetJct().GetTimeStep(), 3 * (12000000 + allReduce), "JCT");
        NS_TEST_EXPECT_MSG_EQ(job->GetValuesChecked(), 3 * 2 * 2 * 32, "every element checked");
        NS_TEST_EXPECT_MSG_EQ(job->GetValueErrors(), 0, "within the quantization bound");
        Simulator::Destroy();
    }
};

class TrainingIterationTestSuite : public InaTestSuite
{
  public:
    TrainingIterationTestSuite()
        : InaTestSuite("ina-training-iteration", Type::UNIT)
    {
        AddTestCase(new TrainingIterationOnFabricTestCase);
    }
};

static TrainingIterationTestSuite g_trainingIterationTestSuite;
