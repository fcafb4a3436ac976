/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "pipeline-pass.h"

#include <string>

namespace ns3
{

namespace
{

std::string
Lanes(const RegisterArray& a, uint32_t laneBegin, uint32_t laneCount)
{
    if (a.GetLanes() == 1)
    {
        return "";
    }
    if (laneCount == 1)
    {
        return " lane " + std::to_string(laneBegin);
    }
    return " lanes " + std::to_string(laneBegin) + "-" +
           std::to_string(static_cast<uint64_t>(laneBegin) + laneCount - 1);
}

std::string
Program(const std::string& name)
{
    return "program \"" + name + "\": ";
}

} // namespace

std::string
PipelinePass::Where() const
{
    std::string s = "pass " + std::to_string(m_passIndex);
    if (m_packet != nullptr)
    {
        s += " of packet uid " + std::to_string(m_uid);
    }
    return s;
}

void
PipelinePass::FailRange(const RegisterArray& a,
                        uint32_t index,
                        uint32_t laneBegin,
                        uint32_t laneCount) const
{
    throw PipelineViolation(Program(a.GetProgramName()) + "register array \"" + a.GetName() +
                            "\" accessed at index " + std::to_string(index) + " lanes " +
                            std::to_string(laneBegin) + " + " + std::to_string(laneCount) +
                            " but it has " + std::to_string(a.GetEntries()) + " entries and " +
                            std::to_string(a.GetLanes()) + " lanes (" + Where() + ")");
}

void
PipelinePass::FailBackward(const RegisterArray& a, uint32_t lane, uint32_t stage) const
{
    throw PipelineViolation(Program(a.GetProgramName()) + "register array \"" + a.GetName() + "\"" +
                            Lanes(a, lane, 1) + " is in stage " + std::to_string(stage) +
                            " but this pass already reached stage " + std::to_string(m_stage) +
                            " (" + Where() +
                            "); a packet moves forward through the stages, so going back "
                            "needs another pass (recirculate)");
}

void
PipelinePass::FailValues(const RegisterArray& a, uint32_t laneBegin, uint32_t laneCount) const
{
    throw PipelineViolation(
        Program(a.GetProgramName()) + "register array \"" + a.GetName() + "\"" +
        Lanes(a, laneBegin, laneCount) + " would bring the payload lanes touched in one pass to " +
        std::to_string(static_cast<uint64_t>(m_values) + laneCount) + " but ValuesPerPass is " +
        std::to_string(m_valuesPerPass) + " (" + Where() +
        "); spread the values over passes, or declare arrays that hold no packet values with "
        "payload = false");
}

void
PipelinePass::FailSecond(const RegisterArray& a, uint32_t lane) const
{
    throw PipelineViolation(Program(a.GetProgramName()) + "second access to register array \"" +
                            a.GetName() + "\"" + Lanes(a, lane, 1) + " (stage " +
                            std::to_string(a.GetStage(lane)) + ") in one pass (" + Where() +
                            "); a register array allows one read-modify-write per packet pass, "
                            "so another access needs another pass (recirculate)");
}

void
PipelinePass::FailTableBackward(const ExactMatchTable& t) const
{
    throw PipelineViolation(Program(t.GetProgramName()) + "table \"" + t.GetName() +
                            "\" is in stage " + std::to_string(t.GetStage()) +
                            " but this pass already reached stage " + std::to_string(m_stage) +
                            " (" + Where() +
                            "); a packet moves forward through the stages, so going back "
                            "needs another pass (recirculate)");
}

void
PipelinePass::FailTableSecond(const ExactMatchTable& t) const
{
    throw PipelineViolation(Program(t.GetProgramName()) + "second lookup in table \"" +
                            t.GetName() + "\" (stage " + std::to_string(t.GetStage()) +
                            ") in one pass (" + Where() +
                            "); a table allows one lookup per packet pass");
}

void
PipelinePass::FailRecirculateTwice() const
{
    throw PipelineViolation((m_program != nullptr ? Program(*m_program) : std::string()) +
                            "Recirculate() called twice in one pass (" + Where() + ")");
}

} // namespace ns3
