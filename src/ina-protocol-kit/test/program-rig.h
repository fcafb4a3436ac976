/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROGRAM_RIG_H
#define PROGRAM_RIG_H

// Shared by the switch-program test suites (SwitchML, ATP, ESA): a default (Tofino-like)
// pipeline whose switch is a RecordingSwitch, with one program installed; a packet handed to it
// runs to the end of its passes. Each suite derives its own rig (its jobs, its packets).

#include "../../ina-fabric/test/error-of.h"
#include "recording-switch.h"

#include "ns3/object-factory.h"
#include "ns3/pipeline.h"
#include "ns3/simulator.h"

#include <exception>
#include <string>

namespace ns3
{
namespace tests
{

template<class Program, typename H, InaAddress ADDRESS>
struct ProgramRig
{
    RecordingSwitch<H, ADDRESS> sw; //!< records what every pass hands the switch
    Ptr<Pipeline> pipeline;         //!< the pipeline, default limits
    Ptr<Program> program;           //!< the program under test

    /// \param factory makes the program (its TypeId and Attributes)
    explicit ProgramRig(const ObjectFactory& factory)
        : pipeline(CreateObject<Pipeline>())
    {
        pipeline->SetActions(&sw);
        program = factory.Create<Program>();
        program->SetPipelineLimits(pipeline->GetLimits());
        pipeline->Install(program);
    }

    ~ProgramRig()
    {
        pipeline->Dispose();
        Simulator::Destroy();
    }

    ProgramRig(const ProgramRig&) = delete;
    ProgramRig& operator=(const ProgramRig&) = delete;

    /**
     * Hand the pipeline a packet and run the simulator, so that a recirculated packet finishes.
     * \param p the packet (from sw.pool)
     * \param port the port it arrives on
     * \return the index in sw.records of the first record it made
     */
    size_t Process(InaPacket* p, uint32_t port = 0)
    {
        const size_t first = sw.records.size();
        pipeline->Process(p, port);
        Simulator::Run();
        return first;
    }

    /// \return the program's count of reason `r`
    uint64_t Reason(uint32_t r) const
    {
        return program->GetReasonCount(r);
    }
};

/**
 * \param program makes the program (its TypeId and Attributes)
 * \param pipeline makes the pipeline
 * \return what installing the program into the pipeline threw (PipelineFitError), or ""
 */
template<class Program, typename H, InaAddress ADDRESS>
std::string
InstallError(const ObjectFactory& program,
             const ObjectFactory& pipeline = ObjectFactory("ns3::Pipeline"))
{
    RecordingSwitch<H, ADDRESS> sw;
    Ptr<Pipeline> p = pipeline.Create<Pipeline>();
    p->SetActions(&sw);
    Ptr<Program> prog = program.Create<Program>();
    prog->SetPipelineLimits(p->GetLimits());
    std::string error;
    try
    {
        p->Install(prog);
    }
    catch (const PipelineFitError& e)
    {
        error = e.what();
    }
    p->Dispose();
    return error;
}

} // namespace tests
} // namespace ns3

#endif /* PROGRAM_RIG_H */
