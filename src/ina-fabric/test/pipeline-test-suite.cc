/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Tests of the programmable-switch pipeline with a test-only SwitchProgram and a recording switch
// double, no topology: the fit check refuses programs that exceed SRAM, stateful ALUs, stages or
// register width, alone or together with installed programs; the per-pass access rules throw;
// register arithmetic is real and wraps like the hardware; recirculation costs exactly its
// serialisation and latency, is limited by the recirculation port's rate, and tail-drops when its
// queue is full.

#include "error-of.h"

#include "ns3/double.h"
#include "ns3/exact-match-table.h"
#include "ns3/ina-event.h"
#include "ns3/ina-test-suite.h"
#include "ns3/object-factory.h"
#include "ns3/pipeline-pass.h"
#include "ns3/pipeline-resources.h"
#include "ns3/pipeline.h"
#include "ns3/register-array.h"
#include "ns3/simulator.h"
#include "ns3/switch-program.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <climits>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The switch double: records what passes hand it, with the time, and frees the packets.
class RecordingActions : public InaSwitchActions
{
  public:
    struct Record
    {
        char action;     //!< 'F' forward, 'S' send on port, 'C' consume
        uint64_t uid;    //!< packet uid
        uint32_t port;   //!< SendOnPort's port
        int64_t timePs;  //!< simulated time of the hand-over
        uint32_t passes; //!< the packet's passes at that time
        uint64_t seq;    //!< the packet's seq
    };

    void Forward(InaPacket* p) override
    {
        Note('F', p, 0);
    }

    void SendOnPort(InaPacket* p, uint32_t port) override
    {
        Note('S', p, port);
    }

    void Consume(InaPacket* p) override
    {
        Note('C', p, 0);
    }

    InaPacketPool& GetPool() override
    {
        return pool;
    }

    InaAddress GetAddress() const override
    {
        return 42;
    }

    uint32_t GetNPorts() const override
    {
        return 8;
    }

    InaPacketPool pool;
    std::vector<Record> records;

  private:
    void Note(char action, InaPacket* p, uint32_t port)
    {
        records.push_back(
            Record{action, p->uid, port, Simulator::Now().GetPicoSeconds(), p->passes, p->seq});
        pool.Free(p);
    }
};

/// A switch program whose resources and pass logic each test supplies.
class TestProgram : public SwitchProgram
{
  public:
    using Declare = std::function<void(ResourceDemand&)>;
    using Body = std::function<void(TestProgram&, InaPacket*, PipelinePass&)>;

    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("ns3::PipelineTestProgram").SetParent<SwitchProgram>().SetGroupName("InaFabric");
        return tid;
    }

    TestProgram(std::string name, uint16_t protocol, Declare declare, Body body)
        : m_name(std::move(name))
        , m_protocol(protocol)
        , m_declare(std::move(declare))
        , m_body(std::move(body))
    {
    }

    void DeclareResources(ResourceDemand& demand) const override
    {
        if (m_declare)
        {
            m_declare(demand);
        }
    }

    uint16_t GetProtocolNumber() const override
    {
        return m_protocol;
    }

    std::string GetName() const override
    {
        return m_name;
    }

    bool IsAggregationWork(const InaPacket* p) const override
    {
        return work ? work(p) : SwitchProgram::IsAggregationWork(p);
    }

    bool FollowsAggregationQueue(const InaPacket* p) const override
    {
        return follow ? follow(p) : SwitchProgram::FollowsAggregationQueue(p);
    }

    void CheckConfig() override
    {
        if (!configError.empty())
        {
            throw std::invalid_argument(configError);
        }
    }

    using SwitchProgram::Consume;
    using SwitchProgram::CountReason;
    using SwitchProgram::Forward;
    using SwitchProgram::GetPool;
    using SwitchProgram::SendOnPort;
    using SwitchProgram::SetReasonNames;

    std::function<bool(const InaPacket*)> work;   //!< IsAggregationWork, when set
    std::function<bool(const InaPacket*)> follow; //!< FollowsAggregationQueue, when set
    std::string configError;                      //!< CheckConfig throws this when set
    std::string resolveOnInstall;   //!< InitializeState resolves this register name when set
    bool initialized = false;       //!< InitializeState ran
    std::vector<int64_t> passTimes; //!< time of every pass, ps
    std::vector<int32_t> outputs;   //!< whatever a body wants to keep

  private:
    void InitializeState() override
    {
        if (!resolveOnInstall.empty())
        {
            GetRegister(resolveOnInstall);
        }
        initialized = true;
    }

    void DoProcess(InaPacket* p, PipelinePass& pass) override
    {
        passTimes.push_back(Simulator::Now().GetPicoSeconds());
        m_body(*this, p, pass);
    }

    std::string m_name;
    uint16_t m_protocol;
    Declare m_declare;
    Body m_body;
};

/// A pipeline with default Attributes but those given.
Ptr<Pipeline>
MakePipeline(const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& attributes = {})
{
    ObjectFactory f;
    f.SetTypeId("ns3::Pipeline");
    for (const auto& [name, value] : attributes)
    {
        f.Set(name, *value);
    }
    return f.Create<Pipeline>();
}

Ptr<AttributeValue>
Uint(uint64_t v)
{
    return Create<UintegerValue>(v);
}

Ptr<TestProgram>
MakeProgram(const std::string& name,
            uint16_t protocol,
            TestProgram::Declare declare,
            TestProgram::Body body = nullptr)
{
    if (!body)
    {
        body = [](TestProgram& prog, InaPacket* p, PipelinePass&) {
            prog.Forward(p);
        };
    }
    return CreateObject<TestProgram>(name, protocol, std::move(declare), std::move(body));
}

/// \return what Install threw, or "" if it installed
std::string
InstallError(Ptr<Pipeline> pipeline, Ptr<SwitchProgram> program)
{
    try
    {
        pipeline->Install(program);
    }
    catch (const PipelineFitError& e)
    {
        return e.what();
    }
    return "";
}

InaPacket*
NewPacket(RecordingActions& sw, uint16_t protocol, uint32_t wireBytes = 180)
{
    InaPacket* p = sw.pool.Alloc();
    p->protocol = protocol;
    p->wireBytes = wireBytes;
    return p;
}

/// Runs one packet's first pass and returns the PipelineViolation text ("" if none).
std::string
ViolationOf(Ptr<Pipeline> pipeline, InaPacket* p)
{
    try
    {
        pipeline->Process(p, 0);
    }
    catch (const PipelineViolation& e)
    {
        return e.what();
    }
    return "";
}

/**
 * \ingroup ina-fabric-test
 * A program whose SRAM in one stage exceeds SramPerStage is refused with the stage, both sizes and
 * the arrays in that stage.
 */
class PipelineFitSramTestCase : public TestCase
{
  public:
    PipelineFitSramTestCase()
        : TestCase("a program that exceeds a stage's SRAM is refused with its reason")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Pipeline> pipeline = MakePipeline();
        // Stage 3: 2 lanes x 65536 x 4 B = 512 KiB plus 262144 x 4 B = 1 MiB: 1.5 MiB > 1.25 MiB,
        // with 3 of the 4 ALUs, so SRAM is the only reason.
        auto prog = MakeProgram("sram-hog", 7, [](ResourceDemand& d) {
            d.AddRegisterArray("agg", 65536, 32, 3, 2, 2);
            d.AddRegisterArray("big", 262144, 32, 3);
        });
        NS_TEST_EXPECT_MSG_EQ(
            InstallError(pipeline, prog),
            "program \"sram-hog\" does not fit: stage 3 needs 1572864 B (1.50 MiB) of SRAM but a "
            "stage has 1310720 B (1.25 MiB) (SramPerStage): register array \"agg\" of "
            "\"sram-hog\" lanes 0-1 uses 2 x 65536 x 32 bit = 524288 B, register array \"big\" of "
            "\"sram-hog\" uses 1 x 262144 x 32 bit = 1048576 B",
            "SRAM refusal");
        NS_TEST_EXPECT_MSG_EQ(prog->IsInstalled(), false, "a refused program is not installed");
        NS_TEST_EXPECT_MSG_EQ(pipeline->GetNPrograms(), 0, "nothing installed");

        // The same bytes fit exactly when the stage has them: 1.5 MiB per stage.
        Ptr<Pipeline> bigger = MakePipeline({{"SramPerStage", Uint(1572864)}});
        NS_TEST_EXPECT_MSG_EQ(
            InstallError(bigger,
                         MakeProgram("sram-hog",
                                     7,
                                     [](ResourceDemand& d) {
                                         d.AddRegisterArray("agg", 65536, 32, 3, 2, 2);
                                         d.AddRegisterArray("big", 262144, 32, 3);
                                     })),
            "",
            "fits at exactly the stage's SRAM");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * More register-array lanes in a stage than stateful ALUs is refused.
 */
class PipelineFitAluTestCase : public TestCase
{
  public:
    PipelineFitAluTestCase()
        : TestCase("a program that needs more stateful ALUs than a stage has is refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Pipeline> pipeline = MakePipeline();
        auto prog = MakeProgram("alu-hog", 7, [](ResourceDemand& d) {
            d.AddRegisterArray("v", 1024, 32, 2, 6, 6);
        });
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, prog),
                              "program \"alu-hog\" does not fit: stage 2 needs 6 stateful ALUs but "
                              "a stage has 4 (StatefulAlusPerStage): register array \"v\" of "
                              "\"alu-hog\" lanes 0-5 uses 6",
                              "ALU refusal");

        // Spread 4 per stage, the same 6 lanes fit (stages 2 and 3).
        auto spread = MakeProgram("alu-ok", 7, [](ResourceDemand& d) {
            d.AddRegisterArray("v", 1024, 32, 2, 6, 4);
        });
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, spread), "", "6 lanes at 4 per stage fit");
        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.stages[2].statefulAlus, 4, "stage 2 ALUs");
        NS_TEST_EXPECT_MSG_EQ(u.stages[3].statefulAlus, 2, "stage 3 ALUs");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Placements beyond the last stage are refused; several reasons are listed one per line.
 */
class PipelineFitStagesTestCase : public TestCase
{
  public:
    PipelineFitStagesTestCase()
        : TestCase("a program that needs more stages than the pipeline has is refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Pipeline> pipeline = MakePipeline();
        // 32 lanes at 4 per stage from stage 5 need stages 5..12.
        auto deep = MakeProgram("deep", 7, [](ResourceDemand& d) {
            d.AddRegisterArray("v", 1024, 32, 5, 32, 4);
        });
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, deep),
                              "program \"deep\" does not fit: register array \"v\" (32 lanes, 4 "
                              "per stage from stage 5) needs stages 5..12 but the pipeline has 12 "
                              "stages (0..11)",
                              "vector array past the last stage");

        auto deep2 = MakeProgram("deep2", 7, [](ResourceDemand& d) {
            d.AddRegisterArray("c", 16, 32, 12);
            d.AddTable("t", 16, 8, 8, 14);
        });
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, deep2),
                              "program \"deep2\" does not fit:\n"
                              "  register array \"c\" is placed at stage 12 but the pipeline has "
                              "12 stages (0..11)\n"
                              "  table \"t\" is placed at stage 14 but the pipeline has 12 stages "
                              "(0..11)",
                              "two reasons, one per line");

        // The same program fits a 16-stage pipeline.
        Ptr<Pipeline> longer = MakePipeline({{"Stages", Uint(16)}});
        NS_TEST_EXPECT_MSG_EQ(
            InstallError(longer,
                         MakeProgram("deep",
                                     7,
                                     [](ResourceDemand& d) {
                                         d.AddRegisterArray("v", 1024, 32, 5, 32, 4);
                                     })),
            "",
            "fits 16 stages");
        NS_TEST_EXPECT_MSG_EQ(longer->GetUsage().stagesUsed, 8, "stages 5..12");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Register widths above MaxRegisterWidth, and malformed declarations, are refused.
 */
class PipelineFitWidthTestCase : public TestCase
{
  public:
    PipelineFitWidthTestCase()
        : TestCase("a register array wider than MaxRegisterWidth is refused")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Pipeline> pipeline = MakePipeline();
        NS_TEST_EXPECT_MSG_EQ(
            InstallError(pipeline,
                         MakeProgram("wide",
                                     7,
                                     [](ResourceDemand& d) {
                                         d.AddRegisterArray("w", 16, 128, 0);
                                     })),
            "program \"wide\" does not fit: register array \"w\" is 128 bit wide but the "
            "pipeline's registers are at most 64 bit wide (MaxRegisterWidth)",
            "128-bit register");

        Ptr<Pipeline> narrow = MakePipeline({{"MaxRegisterWidth", Uint(32)}});
        NS_TEST_EXPECT_MSG_EQ(
            InstallError(narrow,
                         MakeProgram("wide",
                                     7,
                                     [](ResourceDemand& d) {
                                         d.AddRegisterArray("w", 16, 64, 0);
                                     })),
            "program \"wide\" does not fit: register array \"w\" is 64 bit wide but the "
            "pipeline's registers are at most 32 bit wide (MaxRegisterWidth)",
            "64-bit register on a 32-bit pipeline");

        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline,
                                           MakeProgram("bad",
                                                       7,
                                                       [](ResourceDemand& d) {
                                                           d.AddRegisterArray("z", 0, 32, 0);
                                                           d.AddRegisterArray("z", 4, 32, 0);
                                                           d.AddTable("t", 4, 65, 8, 0);
                                                       })),
                              "program \"bad\" does not fit:\n"
                              "  register array \"z\" has 0 entries; expected at least 1\n"
                              "  two resources are named \"z\"; names must be unique within a "
                              "program\n"
                              "  table \"t\" has 65-bit keys; expected 1 to 64 bit",
                              "malformed declarations");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * The check is over the sum of installed programs: two that fit alone do not fit together.
 */
class PipelineFitTogetherTestCase : public TestCase
{
  public:
    PipelineFitTogetherTestCase()
        : TestCase("two programs that fit alone but not together are refused")
    {
    }

  private:
    void DoRun() override
    {
        auto declareA = [](ResourceDemand& d) {
            d.AddRegisterArray("x", 262144, 32, 0);
        };
        auto declareB = [](ResourceDemand& d) {
            d.AddRegisterArray("y", 131072, 32, 0);
        };

        NS_TEST_EXPECT_MSG_EQ(InstallError(MakePipeline(), MakeProgram("b", 8, declareB)),
                              "",
                              "b alone fits");
        Ptr<Pipeline> pipeline = MakePipeline();
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, MakeProgram("a", 7, declareA)),
                              "",
                              "a alone fits");
        auto b = MakeProgram("b", 8, declareB);
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, b),
                              "program \"b\" does not fit beside \"a\": stage 0 needs 1572864 B "
                              "(1.50 MiB) of SRAM but a stage has 1310720 B (1.25 MiB) "
                              "(SramPerStage): register array \"x\" of \"a\" uses 1 x 262144 x 32 "
                              "bit = 1048576 B, register array \"y\" of \"b\" uses 1 x 131072 x 32 "
                              "bit = 524288 B",
                              "the sum does not fit");
        NS_TEST_EXPECT_MSG_EQ(pipeline->GetNPrograms(), 1, "only a is installed");
        NS_TEST_EXPECT_MSG_EQ(pipeline->HasProgramFor(8), false, "b's protocol is not handled");
        NS_TEST_EXPECT_MSG_EQ(pipeline->GetUsage().sramBytes, 1048576, "a's SRAM only");

        // Conflicts other than resources.
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, MakeProgram("c", 7, nullptr)),
                              "program \"c\" handles protocol 7, which the installed program "
                              "\"a\" already handles",
                              "protocol taken");
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, MakeProgram("a", 9, nullptr)),
                              "a program named \"a\" is already installed; names must be unique "
                              "per pipeline",
                              "name taken");
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, MakeProgram("z", 0, nullptr)),
                              "program \"z\" handles protocol 0, which is reserved for plain "
                              "forwarding; expected a protocol number of 1 or more",
                              "protocol 0");
        NS_TEST_EXPECT_MSG_EQ(InstallError(MakePipeline(), pipeline->GetProgramByIndex(0)),
                              "program \"a\" is already installed in a pipeline; install a new "
                              "instance per switch",
                              "one pipeline per program instance");
        auto badConfig = MakeProgram("cfg", 10, nullptr);
        badConfig->configError = "attribute PoolSize is 0; expected at least 1";
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, badConfig),
                              "program \"cfg\": attribute PoolSize is 0; expected at least 1",
                              "CheckConfig's reason");
        auto badName = MakeProgram("res", 11, [](ResourceDemand& d) {
            d.AddRegisterArray("r", 4, 32, 1);
        });
        badName->resolveOnInstall = "nope";
        NS_TEST_EXPECT_MSG_EQ(InstallError(pipeline, badName),
                              "program \"res\" failed to initialise: program \"res\" has no "
                              "register array \"nope\"; it declared \"r\"",
                              "unknown register name at install");
        NS_TEST_EXPECT_MSG_EQ(badName->IsInstalled(), false, "not left half-installed");
        Ptr<Pipeline> noRate =
            MakePipeline({{"RecirculationRate", Create<DataRateValue>(DataRate(0))}});
        NS_TEST_EXPECT_MSG_EQ(InstallError(noRate, MakeProgram("a", 7, declareA)),
                              "Pipeline attribute RecirculationRate is 0 bps; expected a positive "
                              "rate such as 100Gbps",
                              "unusable attribute");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Usage report of an accepted SwitchML-like program, counted by hand with 16 KiB SRAM blocks.
 */
class PipelineUsageTestCase : public TestCase
{
  public:
    PipelineUsageTestCase()
        : TestCase("resource use is reported per stage, per program and in JSON")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Pipeline> pipeline = MakePipeline();
        auto prog = MakeProgram("switchml", 3, [](ResourceDemand& d) {
            d.AddRegisterArray("count", 1024, 16, 0).payload = false; // 2 KiB -> 1 block
            d.AddRegisterArray("seen", 1024, 64, 0).payload = false;  // 8 KiB -> 1 block
            d.AddRegisterArray("values", 1024, 32, 1, 32, 4);         // 4 KiB -> 1 block per lane
            d.AddTable("exp", 256, 8, 32, 9);                         // 1280 B -> 1 block
        });
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "fits");
        NS_TEST_EXPECT_MSG_EQ(prog->initialized, true, "InitializeState ran");
        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.stagesUsed, 10, "stages 0..9");
        NS_TEST_EXPECT_MSG_EQ(u.sramBytes, 8 * 65536 + 3 * 16384, "SRAM in blocks");
        NS_TEST_EXPECT_MSG_EQ(u.statefulAlus, 34, "32 value lanes + count + seen");
        NS_TEST_EXPECT_MSG_EQ(u.tables, 1, "one table");
        NS_TEST_EXPECT_MSG_EQ(u.stages[0].sramBytes, 32768, "stage 0 SRAM");
        NS_TEST_EXPECT_MSG_EQ(u.stages[0].statefulAlus, 2, "stage 0 ALUs");
        NS_TEST_EXPECT_MSG_EQ(u.stages[1].sramBytes, 65536, "stage 1 SRAM");
        NS_TEST_EXPECT_MSG_EQ(u.stages[8].statefulAlus, 4, "stage 8 ALUs");
        NS_TEST_EXPECT_MSG_EQ(u.stages[9].tables, 1, "stage 9 table");
        NS_TEST_EXPECT_MSG_EQ(u.stages[9].sramBytes, 16384, "stage 9 SRAM");
        NS_TEST_EXPECT_MSG_EQ(u.stages[10].sramBytes, 0, "stage 10 empty");
        NS_TEST_ASSERT_MSG_EQ(u.programs.size(), 1, "one program");
        NS_TEST_EXPECT_MSG_EQ(u.programs[0].protocol, 3, "protocol");
        NS_TEST_EXPECT_MSG_EQ(u.programs[0].registerArrays[2].lastStage, 8, "values end at 8");
        NS_TEST_EXPECT_MSG_EQ(u.programs[0].registerArrays[2].sramBytes, 524288, "32 blocks");

        nlohmann::json j = u.ToJson();
        NS_TEST_EXPECT_MSG_EQ(j["stages"]["used"].get<uint64_t>(), 10, "json stages used");
        NS_TEST_EXPECT_MSG_EQ(j["stages"]["available"].get<uint64_t>(), 12, "json stages");
        NS_TEST_EXPECT_MSG_EQ(j["sram_bytes"]["used"].get<uint64_t>(), 573440, "json SRAM used");
        NS_TEST_EXPECT_MSG_EQ(j["sram_bytes"]["available"].get<uint64_t>(),
                              15728640,
                              "json SRAM available: 12 x 1.25 MiB");
        NS_TEST_EXPECT_MSG_EQ(j["stateful_alus"]["available"].get<uint64_t>(), 48, "12 x 4");
        NS_TEST_EXPECT_MSG_EQ(j["programs"][0]["name"].get<std::string>(), "switchml", "name");
        NS_TEST_EXPECT_MSG_EQ(j["programs"][0]["counters"]["packets"].get<uint64_t>(),
                              0,
                              "program counters present");
        NS_TEST_EXPECT_MSG_EQ(j["per_stage"][1]["stateful_alus"].get<uint64_t>(), 4, "per stage");
        NS_TEST_EXPECT_MSG_EQ(j["config"]["latency_ps"].get<int64_t>(), 400000, "latency");

        // Defaults, as documented.
        PipelineLimits l = pipeline->GetLimits();
        NS_TEST_EXPECT_MSG_EQ(l.stages, 12, "Stages");
        NS_TEST_EXPECT_MSG_EQ(l.sramPerStageBytes, 1310720, "SramPerStage");
        NS_TEST_EXPECT_MSG_EQ(l.sramBlockBytes, 16384, "SramBlockBytes");
        NS_TEST_EXPECT_MSG_EQ(l.statefulAlusPerStage, 4, "StatefulAlusPerStage");
        NS_TEST_EXPECT_MSG_EQ(l.tablesPerStage, 16, "TablesPerStage");
        NS_TEST_EXPECT_MSG_EQ(l.maxRegisterWidthBits, 64, "MaxRegisterWidth");
        NS_TEST_EXPECT_MSG_EQ(l.valuesPerPass, 32, "ValuesPerPass");
        NS_TEST_EXPECT_MSG_EQ(pipeline->GetLatency(), NanoSeconds(400), "Latency");
        NS_TEST_EXPECT_MSG_EQ(j["config"]["recirculation_rate_bps"].get<uint64_t>(),
                              100000000000ULL,
                              "RecirculationRate");
        NS_TEST_EXPECT_MSG_EQ(j["config"]["recirculation_latency_ps"].get<int64_t>(),
                              1000000,
                              "RecirculationLatency");
        NS_TEST_EXPECT_MSG_EQ(j["config"]["recirculation_queue_bytes"].get<uint64_t>(),
                              1048576,
                              "RecirculationQueueBytes");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * A second access to a register array lane in one pass throws; other lanes and the next pass are
 * fine.
 */
class PipelineSecondAccessTestCase : public TestCase
{
  public:
    PipelineSecondAccessTestCase()
        : TestCase("a second access to a register array in one pass is refused")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline();
        pipeline->SetActions(&sw);
        int32_t in[4] = {1, 2, 3, 4};
        auto declare = [](ResourceDemand& d) {
            d.AddRegisterArray("a", 8, 32, 0, 4, 4);
            d.AddRegisterArray("s", 8, 32, 1).payload = false;
        };
        // Lanes 0-1 then 2-3 of one index: different physical arrays, allowed. Then lane 1 again.
        auto prog = MakeProgram("p",
                                5,
                                declare,
                                [&in](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
                                    RegisterArray& a = prog.GetRegister("a");
                                    pass.RmwAdd(a, 3, 0, 2, in, nullptr);
                                    pass.RmwAdd(a, 3, 2, 2, in + 2, nullptr);
                                    if (p->seq == 1)
                                    {
                                        pass.Read(a, 5, 1);
                                    }
                                    prog.Forward(p);
                                });
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");
        InaPacket* p = NewPacket(sw, 5);
        p->seq = 1;
        const uint64_t uid = p->uid;
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"p\": second access to register array \"a\" lane 1 "
                              "(stage 0) in one pass (pass 0 of packet uid " +
                                  std::to_string(uid) +
                                  "); a register array allows one read-modify-write per packet "
                                  "pass, so another access needs another pass (recirculate)",
                              "second access to lane 1");
        sw.pool.Free(p);

        // The next packet (a new pass) may access the same lanes again.
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, NewPacket(sw, 5)), "", "next pass is fine");
        NS_TEST_EXPECT_MSG_EQ(sw.records.size(), 1, "forwarded");
        RegisterArray& a = prog->GetRegister("a");
        NS_TEST_EXPECT_MSG_EQ(a.ControlRead(3, 3), 8, "lane 3 got 4 twice");

        // A read then a write of a scalar array is two accesses too.
        auto declareQ = [](ResourceDemand& d) {
            d.AddRegisterArray("s", 8, 32, 1).payload = false;
        };
        auto scalar =
            MakeProgram("q", 6, declareQ, [](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
                RegisterArray& s = prog.GetRegister("s");
                uint64_t v = pass.Read(s, 0);
                pass.Write(s, 0, 0, v + 1);
                prog.Forward(p);
            });
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, scalar), "", "installs beside p");
        p = NewPacket(sw, 6);
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"q\": second access to register array \"s\" (stage 1) in "
                              "one pass (pass 0 of packet uid " +
                                  std::to_string(p->uid) +
                                  "); a register array allows one read-modify-write per packet "
                                  "pass, so another access needs another pass (recirculate)",
                              "read then write");
        sw.pool.Free(p);
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Going back to an earlier stage in one pass throws, for arrays and tables.
 */
class PipelineStageOrderTestCase : public TestCase
{
  public:
    PipelineStageOrderTestCase()
        : TestCase("an access to an earlier stage in the same pass is refused")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline();
        pipeline->SetActions(&sw);
        auto declare = [](ResourceDemand& d) {
            d.AddRegisterArray("early", 8, 32, 2).payload = false;
            d.AddRegisterArray("same", 8, 32, 5).payload = false;
            d.AddRegisterArray("late", 8, 32, 5).payload = false;
            d.AddTable("t", 8, 8, 8, 3);
        };
        auto prog =
            MakeProgram("p", 5, declare, [](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
                // Same stage in either order is allowed.
                pass.Read(prog.GetRegister("late"), 0);
                pass.Read(prog.GetRegister("same"), 0);
                if (p->seq == 1)
                {
                    pass.Read(prog.GetRegister("early"), 0);
                }
                else if (p->seq == 2)
                {
                    pass.Lookup(prog.GetTable("t"), 1, nullptr);
                }
                prog.Forward(p);
            });
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");
        InaPacket* p = NewPacket(sw, 5);
        p->seq = 1;
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"p\": register array \"early\" is in stage 2 but this pass "
                              "already reached stage 5 (pass 0 of packet uid " +
                                  std::to_string(p->uid) +
                                  "); a packet moves forward through the stages, so going back "
                                  "needs another pass (recirculate)",
                              "backward register access");
        sw.pool.Free(p);
        p = NewPacket(sw, 5);
        p->seq = 2;
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"p\": table \"t\" is in stage 3 but this pass already "
                              "reached stage 5 (pass 0 of packet uid " +
                                  std::to_string(p->uid) +
                                  "); a packet moves forward through the stages, so going back "
                                  "needs another pass (recirculate)",
                              "backward table lookup");
        sw.pool.Free(p);
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, NewPacket(sw, 5)), "", "forward order is fine");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * More payload lanes in one pass than ValuesPerPass throws; metadata arrays do not count.
 */
class PipelineValuesPerPassTestCase : public TestCase
{
  public:
    PipelineValuesPerPassTestCase()
        : TestCase("touching more than ValuesPerPass payload lanes in one pass is refused")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline();
        pipeline->SetActions(&sw);
        auto declare = [](ResourceDemand& d) {
            d.AddRegisterArray("v", 16, 32, 0, 32, 4);          // stages 0..7
            d.AddRegisterArray("m", 16, 32, 8).payload = false; // stage 8
            d.AddRegisterArray("w", 16, 32, 9, 4, 4);           // stage 9
        };
        auto prog =
            MakeProgram("p", 5, declare, [](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
                int32_t in[32] = {};
                pass.RmwAdd(prog.GetRegister("v"), 0, 0, 32, in, nullptr);
                pass.Read(prog.GetRegister("m"), 0);
                prog.outputs.push_back(static_cast<int32_t>(pass.GetValuesTouched()));
                if (p->seq == 1)
                {
                    pass.RmwAdd(prog.GetRegister("w"), 0, 0, 1, in, nullptr);
                }
                prog.Forward(p);
            });
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, NewPacket(sw, 5)), "", "32 values + metadata");
        NS_TEST_EXPECT_MSG_EQ(prog->outputs.at(0), 32, "metadata not counted");
        InaPacket* p = NewPacket(sw, 5);
        p->seq = 1;
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"p\": register array \"w\" lane 0 would bring the payload "
                              "lanes touched in one pass to 33 but ValuesPerPass is 32 (pass 0 of "
                              "packet uid " +
                                  std::to_string(p->uid) +
                                  "); spread the values over passes, or declare arrays that hold "
                                  "no packet values with payload = false",
                              "33rd value");
        sw.pool.Free(p);
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Registers are real storage: contributions add up, and cells wrap at their width.
 */
class PipelineRegisterArithmeticTestCase : public TestCase
{
  public:
    PipelineRegisterArithmeticTestCase()
        : TestCase("register arithmetic sums contributions and wraps like the hardware")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline();
        pipeline->SetActions(&sw);
        auto declare = [](ResourceDemand& d) {
            d.AddRegisterArray("agg", 8, 32, 0, 4, 4);
            d.AddRegisterArray("b8", 8, 8, 1).payload = false;
            d.AddRegisterArray("w64", 8, 64, 2).payload = false;
            d.AddRegisterArray("swap", 8, 32, 3, 4, 4);
        };
        auto prog =
            MakeProgram("sum", 5, declare, [](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
                int32_t out[4];
                pass.RmwAdd(prog.GetRegister("agg"),
                            static_cast<uint32_t>(p->seq),
                            0,
                            4,
                            p->values->AsInt32(),
                            out);
                prog.outputs.insert(prog.outputs.end(), out, out + 4);
                // An 8-bit counter adding 200 per packet; its output is the old value.
                uint64_t old = pass.ReadModifyWrite(prog.GetRegister("b8"), 0, 0, [](uint64_t& c) {
                    uint64_t before = c;
                    c += 200;
                    return before;
                });
                prog.outputs.push_back(static_cast<int32_t>(old));
                pass.ReadModifyWrite(prog.GetRegister("w64"), 0, 0, [](uint64_t& c) {
                    c -= 1;
                });
                int32_t old4[4];
                pass.WriteLanes(prog.GetRegister("swap"), 0, 0, 4, p->values->AsInt32(), old4);
                prog.outputs.insert(prog.outputs.end(), old4, old4 + 4);
                prog.Consume(p);
            });
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");

        const int32_t contributions[3][4] = {{1, 2, 3, 4},
                                             {10, 20, 30, 40},
                                             {-100, 0, INT32_MAX, 5}};
        for (const auto& c : contributions)
        {
            InaPacket* p = NewPacket(sw, 5);
            p->seq = 6; // slot index
            p->values = sw.pool.AllocValues(4);
            std::copy(c, c + 4, p->values->AsInt32());
            pipeline->Process(p, 0);
        }
        NS_TEST_ASSERT_MSG_EQ(prog->outputs.size(), 27, "9 outputs per packet");
        const std::vector<int32_t> expected = {
            // packet 1: sums, old 8-bit counter, old swap contents
            1,
            2,
            3,
            4,
            0,
            0,
            0,
            0,
            0,
            // packet 2
            11,
            22,
            33,
            44,
            200,
            1,
            2,
            3,
            4,
            // packet 3: 33 + INT32_MAX wraps to INT32_MIN + 32; 400 mod 256 = 144
            -89,
            22,
            INT32_MIN + 32,
            49,
            144,
            10,
            20,
            30,
            40};
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(prog->outputs[i], expected[i], "output " << i);
        }
        RegisterArray& agg = prog->GetRegister("agg");
        NS_TEST_EXPECT_MSG_EQ(agg.ControlRead(6, 2), 0x80000020ULL, "32-bit pattern");
        NS_TEST_EXPECT_MSG_EQ(agg.ToSigned(agg.ControlRead(6, 2)), INT32_MIN + 32LL, "signed");
        NS_TEST_EXPECT_MSG_EQ(agg.ControlRead(5, 2), 0, "other slots untouched");
        RegisterArray& b8 = prog->GetRegister("b8");
        NS_TEST_EXPECT_MSG_EQ(b8.ControlRead(0), 88, "600 mod 256");
        NS_TEST_EXPECT_MSG_EQ(b8.ToSigned(144), -112, "8-bit two's complement");
        NS_TEST_EXPECT_MSG_EQ(prog->GetRegister("w64").ControlRead(0),
                              0xfffffffffffffffdULL,
                              "64-bit 0 - 3");
        NS_TEST_EXPECT_MSG_EQ(sw.records.size(), 3, "all consumed");
        NS_TEST_EXPECT_MSG_EQ(sw.records[2].action, 'C', "consumed");
        NS_TEST_EXPECT_MSG_EQ(prog->GetCount(SwitchProgram::Counter::CONSUMED), 3, "counted");
        NS_TEST_EXPECT_MSG_EQ(sw.pool.GetInUse(), 0, "no packet leaked");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Tables: control-plane entries are found by the data path, once per pass.
 */
class PipelineTableTestCase : public TestCase
{
  public:
    PipelineTableTestCase()
        : TestCase("exact-match tables answer one lookup per pass")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline();
        pipeline->SetActions(&sw);
        auto declare = [](ResourceDemand& d) {
            d.AddTable("log", 4, 16, 32, 1);
            d.AddTable("wide", 4, 48, 8, 2);
        };
        auto prog =
            MakeProgram("lut", 5, declare, [](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
                uint64_t v = 0;
                bool hit = pass.Lookup(prog.GetTable("log"), p->seq, &v);
                prog.outputs.push_back(hit ? static_cast<int32_t>(v) : -1);
                hit = pass.Lookup(prog.GetTable("wide"), p->seq << 20, &v);
                prog.outputs.push_back(hit ? static_cast<int32_t>(v) : -1);
                if (p->seq == 9)
                {
                    pass.Lookup(prog.GetTable("wide"), 0, nullptr);
                }
                prog.Forward(p);
            });
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");
        ExactMatchTable& log = prog->GetTable("log");
        ExactMatchTable& wide = prog->GetTable("wide");
        log.Insert(3, 300);
        log.Insert(4, 400);
        log.Insert(3, 333); // replaces
        wide.Insert(3ULL << 20, 7);
        wide.Insert(9ULL << 20, 9);
        NS_TEST_EXPECT_MSG_EQ(log.GetSize(), 2, "replace keeps the size");

        for (uint64_t key : {3, 4, 5})
        {
            InaPacket* p = NewPacket(sw, 5);
            p->seq = key;
            pipeline->Process(p, 0);
        }
        const std::vector<int32_t> expected = {333, 7, 400, -1, -1, -1};
        NS_TEST_ASSERT_MSG_EQ(prog->outputs.size(), expected.size(), "two lookups per packet");
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(prog->outputs[i], expected[i], "lookup " << i);
        }
        InaPacket* p = NewPacket(sw, 5);
        p->seq = 9;
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"lut\": second lookup in table \"wide\" (stage 2) in one "
                              "pass (pass 0 of packet uid " +
                                  std::to_string(p->uid) +
                                  "); a table allows one lookup per packet pass",
                              "second lookup");
        sw.pool.Free(p);

        std::string error;
        try
        {
            log.Insert(1 << 16, 1);
        }
        catch (const std::invalid_argument& e)
        {
            error = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(error,
                              "table \"log\" of \"lut\": key 65536 does not fit in 16 bit",
                              "key too wide");
        log.Insert(5, 1);
        log.Insert(6, 1);
        error.clear();
        try
        {
            log.Insert(7, 1);
        }
        catch (const std::length_error& e)
        {
            error = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(error,
                              "table \"log\" of \"lut\" is full: it was declared with 4 entries",
                              "capacity");
        NS_TEST_EXPECT_MSG_EQ(log.Remove(5), true, "removed");
        NS_TEST_EXPECT_MSG_EQ(log.ControlLookup(5, nullptr), false, "gone");
        Simulator::Destroy();
    }
};

/// Injects a packet of `protocol` into `pipeline` (from a scheduled event).
void
Inject(Ptr<Pipeline> pipeline,
       RecordingActions* sw,
       uint16_t protocol,
       uint32_t bytes,
       uint64_t seq)
{
    InaPacket* p = NewPacket(*sw, protocol, bytes);
    p->seq = seq;
    pipeline->Process(p, 2);
}

/// Trace sink counting recirculation drops.
void
CountDrop(uint64_t* n, const InaPacket*)
{
    ++*n;
}

/// A program that asks for `p->seq` passes in all.
Ptr<TestProgram>
PassesProgram(const std::string& name)
{
    return MakeProgram(name, 5, nullptr, [](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
        if (pass.GetPassIndex() + 1 < p->seq)
        {
            pass.Recirculate();
            return;
        }
        prog.Forward(p);
    });
}

/**
 * \ingroup ina-fabric-test
 * A recirculated packet starts its next pass exactly S + R after the previous one, where
 * S = 180 B at 100 Gb/s = 14.4 ns and R = 1 us; the switch then adds Latency.
 */
class PipelineRecirculationLatencyTestCase : public TestCase
{
  public:
    PipelineRecirculationLatencyTestCase()
        : TestCase("recirculation adds its serialisation and latency")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(Time::GetResolution(), Time::PS, "picosecond resolution");
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline();
        pipeline->SetActions(&sw);
        Ptr<TestProgram> prog = PassesProgram("recirc");
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");

        Simulator::Schedule(MicroSeconds(5), &Inject, pipeline, &sw, 5, 180, 1);
        Simulator::Schedule(MicroSeconds(10), &Inject, pipeline, &sw, 5, 180, 2);
        Simulator::Schedule(MicroSeconds(20), &Inject, pipeline, &sw, 5, 180, 3);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(sw.records.size(), 3, "three packets out");
        NS_TEST_EXPECT_MSG_EQ(sw.records[0].timePs, 5000000, "one pass: no delay in the pipeline");
        NS_TEST_EXPECT_MSG_EQ(sw.records[0].passes, 1, "one pass");
        NS_TEST_EXPECT_MSG_EQ(sw.records[1].timePs, 10000000 + 14400 + 1000000, "t0 + S + R");
        NS_TEST_EXPECT_MSG_EQ(sw.records[1].passes, 2, "two passes");
        NS_TEST_EXPECT_MSG_EQ(sw.records[2].timePs,
                              20000000 + 2 * (14400 + 1000000),
                              "t0 + 2 (S + R)");
        NS_TEST_EXPECT_MSG_EQ(sw.records[2].passes, 3, "three passes");
        const std::vector<int64_t> passTimes =
            {5000000, 10000000, 11014400, 20000000, 21014400, 22028800};
        NS_TEST_EXPECT_MSG_EQ((prog->passTimes == passTimes), true, "every pass at its time");
        // What the switch adds on the way out.
        NS_TEST_EXPECT_MSG_EQ(pipeline->GetLatency().GetPicoSeconds(), 400000, "Latency");

        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.packets, 3, "packets");
        NS_TEST_EXPECT_MSG_EQ(u.passes, 6, "passes");
        NS_TEST_EXPECT_MSG_EQ(u.recirculations, 3, "recirculations");
        NS_TEST_EXPECT_MSG_EQ(u.recirculatedPackets, 2, "recirculated packets");
        NS_TEST_EXPECT_MSG_EQ(u.recirculationDrops, 0, "no drops");
        NS_TEST_EXPECT_MSG_EQ(prog->GetCount(SwitchProgram::Counter::PASSES), 6, "program passes");
        NS_TEST_EXPECT_MSG_EQ(prog->GetCount(SwitchProgram::Counter::RECIRCULATIONS),
                              3,
                              "program recirculations");
        NS_TEST_EXPECT_MSG_EQ(pipeline->GetRecirculationPackets(), 0, "path empty");
        NS_TEST_EXPECT_MSG_EQ(sw.pool.GetInUse(), 0, "no packet leaked");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Packets recirculated back to back leave the recirculation port one serialisation time apart
 * (1500 B at 100 Gb/s: 120 ns), and come back R after that.
 */
class PipelineRecirculationBandwidthTestCase : public TestCase
{
  public:
    PipelineRecirculationBandwidthTestCase()
        : TestCase("recirculation is limited by the recirculation port's rate")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline();
        pipeline->SetActions(&sw);
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, PassesProgram("recirc")), "", "installs");
        const int n = 5;
        for (int i = 0; i < n; ++i)
        {
            Simulator::Schedule(MicroSeconds(2), &Inject, pipeline, &sw, 5, 1500, 2);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sw.records.size(), n, "all out");
        for (int i = 0; i < n; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sw.records[i].timePs,
                                  2000000 + (i + 1) * 120000 + 1000000,
                                  "packet " << i << " serialised after the ones ahead of it");
        }
        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.peakRecirculationQueueBytes, 7500, "all five queued at once");

        // At 25 Gb/s the spacing is 480 ns. (Destroy resets simulated time to 0.)
        Simulator::Destroy();
        RecordingActions sw25;
        Ptr<Pipeline> slow =
            MakePipeline({{"RecirculationRate", Create<DataRateValue>(DataRate("25Gbps"))},
                          {"RecirculationLatency", Create<TimeValue>(NanoSeconds(500))}});
        slow->SetActions(&sw25);
        NS_TEST_ASSERT_MSG_EQ(InstallError(slow, PassesProgram("recirc")), "", "installs");
        Simulator::Schedule(MicroSeconds(1), &Inject, slow, &sw25, 5, 1500, 2);
        Simulator::Schedule(MicroSeconds(1), &Inject, slow, &sw25, 5, 1500, 2);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sw25.records.size(), 2, "both out");
        NS_TEST_EXPECT_MSG_EQ(sw25.records[0].timePs, 1000000 + 480000 + 500000, "first");
        NS_TEST_EXPECT_MSG_EQ(sw25.records[1].timePs, 1000000 + 960000 + 500000, "second");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * A full recirculation queue tail-drops and counts; bytes leave the queue when their serialisation
 * ends, not when the packet comes back.
 */
class PipelineRecirculationDropTestCase : public TestCase
{
  public:
    PipelineRecirculationDropTestCase()
        : TestCase("a full recirculation queue drops and counts")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline({{"RecirculationQueueBytes", Uint(400)}});
        pipeline->SetActions(&sw);
        Ptr<TestProgram> prog = PassesProgram("recirc");
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");
        uint64_t drops = 0;
        NS_TEST_ASSERT_MSG_EQ(
            pipeline->TraceConnectWithoutContext("RecirculationDrop",
                                                 MakeBoundCallback(&CountDrop, &drops)),
            true,
            "trace source exists");

        // 180 + 180 fit in 400 B, the third does not.
        for (int i = 0; i < 3; ++i)
        {
            Simulator::Schedule(MicroSeconds(1), &Inject, pipeline, &sw, 5, 180, 2);
        }
        // At t0 + 2 S + 1 ps both have been serialised (they are on the loopback): the queue is
        // empty again, so this one is accepted and serialised at once.
        Simulator::Schedule(PicoSeconds(1000000 + 28801), &Inject, pipeline, &sw, 5, 180, 2);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(sw.records.size(), 3, "three out");
        NS_TEST_EXPECT_MSG_EQ(sw.records[0].timePs, 1000000 + 14400 + 1000000, "first");
        NS_TEST_EXPECT_MSG_EQ(sw.records[1].timePs, 1000000 + 28800 + 1000000, "second");
        NS_TEST_EXPECT_MSG_EQ(sw.records[2].timePs,
                              1000000 + 28801 + 14400 + 1000000,
                              "accepted once the queue drained");
        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.recirculationDrops, 1, "one drop");
        NS_TEST_EXPECT_MSG_EQ(u.recirculations, 3, "three accepted");
        NS_TEST_EXPECT_MSG_EQ(u.peakRecirculationQueueBytes, 360, "peak");
        NS_TEST_EXPECT_MSG_EQ(drops, 1, "trace fired");
        NS_TEST_EXPECT_MSG_EQ(prog->GetCount(SwitchProgram::Counter::RECIRCULATION_DROPS),
                              1,
                              "program counts its drop");
        NS_TEST_EXPECT_MSG_EQ(sw.pool.GetInUse(), 0, "the dropped packet went back to the pool");
        Simulator::Destroy();
    }
};

/// Trace sink keeping the time (ps) and wire bytes of every aggregation start.
void
NoteStart(std::vector<std::pair<int64_t, uint32_t>>* starts, const InaPacket* p)
{
    starts->emplace_back(Simulator::Now().GetPicoSeconds(), p->wireBytes);
}

/// A program for which only packets with an even seq are aggregation work; it forwards all.
Ptr<TestProgram>
EvenSeqWorkProgram()
{
    Ptr<TestProgram> prog = MakeProgram("agg", 5, nullptr);
    prog->work = [](const InaPacket* p) {
        return p->seq % 2 == 0;
    };
    return prog;
}

/**
 * \ingroup ina-fabric-test
 * With AggregationCapacity set, aggregation work passes one FIFO server: 20 packets of 1250 B
 * arriving together at 10 Gb/s start their passes exactly 1 us apart; packets that are not work
 * (odd seq) pass at once, also while the server is busy. The measured rate equals the capacity
 * (the server never idles while work waits) and, from the trace, no window of starts carries more
 * than the capacity allows plus one packet. The queue's peak and the wait are counted; the summary
 * reports them under "aggregation".
 */
class PipelineAggregationCapacityTestCase : public TestCase
{
  public:
    PipelineAggregationCapacityTestCase()
        : TestCase("an aggregation capacity paces aggregation work and only it")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline =
            MakePipeline({{"AggregationCapacity", Create<DataRateValue>(DataRate("10Gbps"))}});
        pipeline->SetActions(&sw);
        Ptr<TestProgram> prog = EvenSeqWorkProgram();
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");
        NS_TEST_ASSERT_MSG_EQ(pipeline->HasAggregationCapacity(), true, "limited");
        std::vector<std::pair<int64_t, uint32_t>> starts;
        NS_TEST_ASSERT_MSG_EQ(
            pipeline->TraceConnectWithoutContext("AggregationStart",
                                                 MakeBoundCallback(&NoteStart, &starts)),
            true,
            "trace source exists");
        const int n = 20;
        for (int i = 0; i < n; ++i)
        {
            Simulator::Schedule(MicroSeconds(1), &Inject, pipeline, &sw, 5, 1250, 2 * i);
        }
        // Transit (odd seq) while the server is busy: not delayed.
        Simulator::Schedule(NanoSeconds(3500), &Inject, pipeline, &sw, 5, 1250, 1);
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(sw.records.size(), n + 1, "all out");
        NS_TEST_ASSERT_MSG_EQ(starts.size(), n, "one start per work packet");
        int w = 0;
        bool transitSeen = false;
        for (const auto& r : sw.records)
        {
            if (r.timePs == 3500000)
            {
                transitSeen = true; // the odd packet, handed over at its arrival
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(r.timePs,
                                  1000000 + w * 1000000,
                                  "work packet " << w << " starts 1 us after the one ahead");
            ++w;
        }
        NS_TEST_EXPECT_MSG_EQ(transitSeen, true, "the transit packet was not queued");
        // Any window [start i, start j] carries at most C * (t_j - t_i) + one packet.
        for (size_t i = 0; i < starts.size(); ++i)
        {
            uint64_t bits = 0;
            for (size_t j = i; j < starts.size(); ++j)
            {
                bits += 8ULL * starts[j].second;
                const double allowed =
                    10e9 * (starts[j].first - starts[i].first) * 1e-12 + 8.0 * 1250;
                NS_TEST_EXPECT_MSG_EQ((bits <= allowed + 1e-6), true, "window " << i << ".." << j);
            }
        }
        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.aggregationPackets, n, "work served");
        NS_TEST_EXPECT_MSG_EQ(u.aggregationBytes, n * 1250, "work bytes");
        NS_TEST_EXPECT_MSG_EQ(u.aggregationQueuedPackets, n - 1, "all but the first waited");
        NS_TEST_EXPECT_MSG_EQ(u.peakAggregationQueuePackets, n - 1, "peak packets");
        NS_TEST_EXPECT_MSG_EQ(u.peakAggregationQueueBytes, (n - 1) * 1250, "peak bytes");
        NS_TEST_EXPECT_MSG_EQ(u.aggregationDrops, 0, "no drops");
        NS_TEST_EXPECT_MSG_EQ(u.aggregationSpanPs, n * 1000000, "span: 20 services back to back");
        NS_TEST_EXPECT_MSG_EQ_TOL(u.MeasuredAggregationBps(), 10e9, 1e-3, "measured = capacity");
        NS_TEST_EXPECT_MSG_EQ(u.aggregationWaitPs,
                              static_cast<int64_t>(n) * (n - 1) / 2 * 1000000,
                              "waits 0 + 1 + ... + 19 us");
        NS_TEST_EXPECT_MSG_EQ(u.packets, n + 1, "every packet had its first pass");
        const auto j = u.ToJson();
        NS_TEST_EXPECT_MSG_EQ(j.contains("aggregation"), true, "reported");
        NS_TEST_EXPECT_MSG_EQ(j["aggregation"]["capacity_bps"].get<uint64_t>(), 10000000000ULL, "");
        NS_TEST_EXPECT_MSG_EQ(j["aggregation"]["peak_queue_packets"].get<uint64_t>(), n - 1, "");
        Simulator::Destroy();

        // Unset (the default): no wait at all, and no "aggregation" in the report.
        RecordingActions sw2;
        Ptr<Pipeline> free = MakePipeline();
        free->SetActions(&sw2);
        NS_TEST_ASSERT_MSG_EQ(InstallError(free, EvenSeqWorkProgram()), "", "installs");
        for (int i = 0; i < 4; ++i)
        {
            Simulator::Schedule(MicroSeconds(1), &Inject, free, &sw2, 5, 1250, 2 * i);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sw2.records.size(), 4, "all out");
        for (const auto& r : sw2.records)
        {
            NS_TEST_EXPECT_MSG_EQ(r.timePs, 1000000, "line rate: no wait");
        }
        NS_TEST_EXPECT_MSG_EQ(free->GetUsage().ToJson().contains("aggregation"), false, "silent");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * A packet that is not work but follows the aggregation queue (FollowsAggregationQueue: seq 1 and
 * 3) keeps its place: at 10 Gb/s, three work packets of 1250 B arriving at 1 us start at 1, 2 and
 * 3 us; the follower behind them starts right after the third, at 3 us (no service of its own),
 * and the work arriving after it still starts at 4 us, after the follower. It is no work: the
 * served packets, bytes, peak queue and span count the four work packets only. A follower that
 * finds nothing queued, and a packet that does not follow, pass at once.
 */
class PipelineAggregationFollowerTestCase : public TestCase
{
  public:
    PipelineAggregationFollowerTestCase()
        : TestCase("a packet that follows the aggregation queue keeps its place at no cost")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline =
            MakePipeline({{"AggregationCapacity", Create<DataRateValue>(DataRate("10Gbps"))}});
        pipeline->SetActions(&sw);
        Ptr<TestProgram> prog = EvenSeqWorkProgram();
        prog->follow = [](const InaPacket* p) {
            return p->seq == 1 || p->seq == 3;
        };
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");
        // The follower seq 3 finds nothing queued; then three work packets, the follower seq 1,
        // one more work packet and a packet that does not follow (seq 5).
        Simulator::Schedule(NanoSeconds(500), &Inject, pipeline, &sw, 5, 1250, 3);
        for (uint32_t seq : {0, 2, 4, 1, 6, 5})
        {
            Simulator::Schedule(MicroSeconds(1), &Inject, pipeline, &sw, 5, 1250, seq);
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sw.records.size(), 7, "all out");
        const std::vector<std::pair<uint32_t, int64_t>> expected = {{3, 500000},
                                                                    {0, 1000000},
                                                                    {5, 1000000},
                                                                    {2, 2000000},
                                                                    {4, 3000000},
                                                                    {1, 3000000},
                                                                    {6, 4000000}};
        for (size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sw.records[i].seq, expected[i].first, "order, place " << i);
            NS_TEST_EXPECT_MSG_EQ(sw.records[i].timePs,
                                  expected[i].second,
                                  "time of seq " << expected[i].first);
        }
        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.aggregationPackets, 4, "the followers are no work");
        NS_TEST_EXPECT_MSG_EQ(u.aggregationBytes, 4 * 1250, "work bytes");
        NS_TEST_EXPECT_MSG_EQ(u.peakAggregationQueueBytes, 3 * 1250, "only work waits in bytes");
        // Seq 2, 4 and 6 waited at once with the follower seq 1 among them: three, not four.
        NS_TEST_EXPECT_MSG_EQ(u.peakAggregationQueuePackets, 3, "only work waits in packets");
        NS_TEST_EXPECT_MSG_EQ(u.aggregationSpanPs, 4000000, "four services back to back");
        NS_TEST_EXPECT_MSG_EQ(u.packets, 7, "every packet had its first pass");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * Work that finds AggregationQueueBytes full is dropped, counted and traced, and returned to the
 * pool; in packets per second the service time ignores the size; setting both capacities is
 * refused at install, naming both attributes.
 */
class PipelineAggregationQueueTestCase : public TestCase
{
  public:
    PipelineAggregationQueueTestCase()
        : TestCase("a full aggregation queue drops; capacity in packets per second")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline(
            {{"AggregationCapacityPps", Uint(1000000)}, {"AggregationQueueBytes", Uint(3000)}});
        pipeline->SetActions(&sw);
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, EvenSeqWorkProgram()), "", "installs");
        uint64_t drops = 0;
        NS_TEST_ASSERT_MSG_EQ(
            pipeline->TraceConnectWithoutContext("AggregationDrop",
                                                 MakeBoundCallback(&CountDrop, &drops)),
            true,
            "trace source exists");
        // The first is served at once; 1250 + 1250 wait (2500 <= 3000); the fourth and fifth
        // would make 3750: dropped. A small one (400 B) still fits beside the two.
        for (int i = 0; i < 5; ++i)
        {
            Simulator::Schedule(MicroSeconds(1), &Inject, pipeline, &sw, 5, 1250, 0);
        }
        Simulator::Schedule(MicroSeconds(1), &Inject, pipeline, &sw, 5, 400, 0);
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sw.records.size(), 4, "four served");
        for (int i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(sw.records[i].timePs,
                                  1000000 + i * 1000000,
                                  "1 Mpps: 1 us per packet whatever its size");
        }
        PipelineUsage u = pipeline->GetUsage();
        NS_TEST_EXPECT_MSG_EQ(u.aggregationDrops, 2, "two dropped");
        NS_TEST_EXPECT_MSG_EQ(drops, 2, "trace fired");
        NS_TEST_EXPECT_MSG_EQ(u.peakAggregationQueueBytes, 2900, "1250 + 1250 + 400");
        NS_TEST_EXPECT_MSG_EQ(u.packets, 4, "dropped work never took a pass");
        NS_TEST_EXPECT_MSG_EQ_TOL(u.MeasuredAggregationPps(), 1e6, 1e-3, "measured = capacity");
        NS_TEST_EXPECT_MSG_EQ(sw.pool.GetInUse(), 0, "dropped packets went back to the pool");
        Simulator::Destroy();

        Ptr<Pipeline> both =
            MakePipeline({{"AggregationCapacityPps", Uint(1000000)},
                          {"AggregationCapacity", Create<DataRateValue>(DataRate("9Gbps"))}});
        const std::string err = InstallError(both, EvenSeqWorkProgram());
        NS_TEST_EXPECT_MSG_EQ(
            (err.find("AggregationCapacity (9000000000 bps)") != std::string::npos &&
             err.find("AggregationCapacityPps (1000000") != std::string::npos),
            true,
            "both named: " << err);
        NS_TEST_EXPECT_MSG_EQ(tests::Throws<PipelineFitError>([] {
                                  MakePipeline()->SetAggregationCapacity(1, 1);
                              }),
                              true,
                              "SetAggregationCapacity refuses both");
    }
};

/**
 * \ingroup ina-fabric-test
 * The per-pass invariant (the packet leaves exactly once), MaxPasses, packets with no program,
 * and reason counters.
 */
class PipelineProgramContractTestCase : public TestCase
{
  public:
    PipelineProgramContractTestCase()
        : TestCase("a pass must end its packet exactly once; unknown protocols are forwarded")
    {
    }

  private:
    void DoRun() override
    {
        RecordingActions sw;
        Ptr<Pipeline> pipeline = MakePipeline({{"MaxPasses", Uint(3)}});
        pipeline->SetActions(&sw);
        enum class Reason
        {
            ODD,
            EVEN
        };
        auto prog = MakeProgram("lazy",
                                5,
                                nullptr,
                                [](TestProgram& prog, InaPacket* p, PipelinePass& pass) {
                                    switch (p->seq)
                                    {
                                    case 0: // forgets the packet
                                        break;
                                    case 1: // sends it twice
                                        prog.Forward(p);
                                        pass.Recirculate();
                                        break;
                                    case 2: // recirculates for ever
                                        pass.Recirculate();
                                        break;
                                    default:
                                        prog.CountReason(p->seq % 2 ? Reason::ODD : Reason::EVEN);
                                        prog.SendOnPort(p, 3);
                                    }
                                });
        prog->SetReasonNames({"odd", "even"});
        NS_TEST_ASSERT_MSG_EQ(InstallError(pipeline, prog), "", "installs");

        InaPacket* p = NewPacket(sw, 5);
        p->seq = 0;
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"lazy\" ended pass 0 of packet uid " +
                                  std::to_string(p->uid) +
                                  " without handing the packet to Forward, SendOnPort or Consume "
                                  "or asking to Recirculate; every packet a pass receives must "
                                  "leave it exactly once",
                              "packet not ended");
        sw.pool.Free(p);
        p = NewPacket(sw, 5);
        p->seq = 1;
        const uint64_t uid = p->uid;
        NS_TEST_EXPECT_MSG_EQ(ViolationOf(pipeline, p),
                              "program \"lazy\" handed the packet of pass 0 of packet uid " +
                                  std::to_string(uid) +
                                  " on 2 times (Forward, SendOnPort, Consume, Recirculate); every "
                                  "packet a pass receives must leave it exactly once (Clone it to "
                                  "send copies)",
                              "packet ended twice");

        std::string loop;
        Simulator::Schedule(
            MicroSeconds(1),
            MakeInaFunctorEvent([&]() {
                InaPacket* q = NewPacket(sw, 5);
                q->seq = 2;
                loop =
                    "program \"lazy\" asked for pass 4 of packet uid " + std::to_string(q->uid) +
                    " but MaxPasses is 3; a program that recirculates without end is a bug (raise "
                    "the Pipeline attribute MaxPasses if it is not)";
                pipeline->Process(q, 0);
            }));
        std::string thrown;
        try
        {
            Simulator::Run();
        }
        catch (const PipelineViolation& e)
        {
            thrown = e.what();
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, loop, "MaxPasses");
        Simulator::Destroy();

        for (uint64_t seq : {3, 4, 5})
        {
            p = NewPacket(sw, 5);
            p->seq = seq;
            pipeline->Process(p, 0);
        }
        NS_TEST_EXPECT_MSG_EQ(prog->GetReasonCount("odd"), 2, "odd reasons");
        NS_TEST_EXPECT_MSG_EQ(prog->GetReasonCount(1), 1, "even reasons");
        NS_TEST_EXPECT_MSG_EQ(prog->GetCount(SwitchProgram::Counter::SENT_ON_PORT), 3, "sent");
        NS_TEST_EXPECT_MSG_EQ(sw.records.back().action, 'S', "sent on a port");
        NS_TEST_EXPECT_MSG_EQ(sw.records.back().port, 3, "port 3");

        // No program for protocol 9, and protocol 0: forwarded unchanged.
        const size_t before = sw.records.size();
        pipeline->Process(NewPacket(sw, 9), 0);
        pipeline->Process(NewPacket(sw, INA_PROTO_NONE), 0);
        NS_TEST_EXPECT_MSG_EQ(sw.records.size(), before + 2, "both forwarded");
        NS_TEST_EXPECT_MSG_EQ(sw.records.back().action, 'F', "forwarded");
        NS_TEST_EXPECT_MSG_EQ(sw.records.back().passes, 0, "no pass taken");
        NS_TEST_EXPECT_MSG_EQ(pipeline->GetUsage().unhandledPackets, 2, "counted");
        std::vector<std::string> names;
        std::vector<uint64_t> values;
        prog->GetCounters(names, values);
        NS_TEST_ASSERT_MSG_EQ(names.size(), 9, "7 counters + 2 reasons");
        NS_TEST_EXPECT_MSG_EQ(names[7], "odd", "reason after counters");
        NS_TEST_EXPECT_MSG_EQ(values[7], 2, "its value");
        Simulator::Destroy();
    }
};

/**
 * \ingroup ina-fabric-test
 * The pipeline test suite.
 */
class PipelineTestSuite : public InaTestSuite
{
  public:
    PipelineTestSuite()
        : InaTestSuite("ina-pipeline", Type::UNIT)
    {
        AddTestCase(new PipelineFitSramTestCase, TestCase::QUICK);
        AddTestCase(new PipelineFitAluTestCase, TestCase::QUICK);
        AddTestCase(new PipelineFitStagesTestCase, TestCase::QUICK);
        AddTestCase(new PipelineFitWidthTestCase, TestCase::QUICK);
        AddTestCase(new PipelineFitTogetherTestCase, TestCase::QUICK);
        AddTestCase(new PipelineUsageTestCase, TestCase::QUICK);
        AddTestCase(new PipelineSecondAccessTestCase, TestCase::QUICK);
        AddTestCase(new PipelineStageOrderTestCase, TestCase::QUICK);
        AddTestCase(new PipelineValuesPerPassTestCase, TestCase::QUICK);
        AddTestCase(new PipelineRegisterArithmeticTestCase, TestCase::QUICK);
        AddTestCase(new PipelineTableTestCase, TestCase::QUICK);
        AddTestCase(new PipelineRecirculationLatencyTestCase, TestCase::QUICK);
        AddTestCase(new PipelineRecirculationBandwidthTestCase, TestCase::QUICK);
        AddTestCase(new PipelineRecirculationDropTestCase, TestCase::QUICK);
        AddTestCase(new PipelineProgramContractTestCase, TestCase::QUICK);
        AddTestCase(new PipelineAggregationCapacityTestCase, TestCase::QUICK);
        AddTestCase(new PipelineAggregationQueueTestCase, TestCase::QUICK);
        AddTestCase(new PipelineAggregationFollowerTestCase, TestCase::QUICK);
    }
};

/// Static instance registering the suite.
PipelineTestSuite g_pipelineTestSuite;

} // namespace
