/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-program.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchProgram");

NS_OBJECT_ENSURE_REGISTERED(SwitchProgram);

namespace
{
const char* const COUNTER_NAMES[] = {
    "packets",
    "passes",
    "recirculations",
    "recirculation_drops",
    "forwarded",
    "sent_on_port",
    "consumed",
};
static_assert(sizeof(COUNTER_NAMES) / sizeof(COUNTER_NAMES[0]) ==
                  static_cast<size_t>(SwitchProgram::Counter::N_COUNTERS),
              "one name per counter");

/**
 * The register array or table named `name` of a program, or std::invalid_argument naming the
 * ones it declared (or saying it is not installed yet, so it has none).
 * \param items the program's arrays or tables, in declaration order
 * \param name the name asked for
 * \param program the program's name
 * \param installed whether it is installed (has resolved its declaration)
 * \param kind "register array" or "table", for the message
 */
template<typename T>
T&
FindDeclared(const std::vector<std::unique_ptr<T>>& items,
             const std::string& name,
             const std::string& program,
             bool installed,
             const char* kind)
{
    for (const auto& item : items)
    {
        if (item->GetName() == name)
        {
            return *item;
        }
    }
    std::string declared;
    for (const auto& item : items)
    {
        declared += (declared.empty() ? "\"" : ", \"") + item->GetName() + "\"";
    }
    throw std::invalid_argument(
        "program \"" + program + "\" has no " + kind + " \"" + name + "\"" +
        (installed ? "; it declared " + (declared.empty() ? std::string("none") : declared)
                   : std::string("; it is not installed in a pipeline yet (resolve handles "
                                 "in InitializeState)")));
}
} // namespace

TypeId
SwitchProgram::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchProgram").SetParent<Object>().SetGroupName("InaFabric");
    return tid;
}

SwitchProgram::SwitchProgram()
{
    NS_LOG_FUNCTION(this);
}

SwitchProgram::~SwitchProgram()
{
    NS_LOG_FUNCTION(this);
}

void
SwitchProgram::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_registers.clear();
    m_tables.clear();
    m_actions = nullptr;
    m_pipeline = nullptr;
    m_pass = nullptr;
    Object::DoDispose();
}

void
SwitchProgram::CheckConfig()
{
}

const char*
SwitchProgram::GetCounterName(Counter c)
{
    const size_t i = static_cast<size_t>(c);
    return i < static_cast<size_t>(Counter::N_COUNTERS) ? COUNTER_NAMES[i] : "unknown";
}

void
SwitchProgram::Process(InaPacket* p, PipelinePass& pass)
{
    ++m_counts[static_cast<size_t>(Counter::PASSES)];
    if (pass.GetPassIndex() == 0)
    {
        ++m_counts[static_cast<size_t>(Counter::PACKETS)];
    }
    pass.m_program = &m_name;
    m_pass = &pass;

    // Leave no dangling pass pointer when DoProcess throws a violation.
    struct ResetPass
    {
        SwitchProgram* program;

        ~ResetPass()
        {
            program->m_pass = nullptr;
        }
    } reset{this};

    DoProcess(p, pass);

    const uint32_t endings = pass.m_endings + (pass.m_recirculate ? 1 : 0);
    if (endings != 1)
    {
        FailEndings(pass, endings);
    }
    if (pass.m_recirculate)
    {
        ++m_counts[static_cast<size_t>(Counter::RECIRCULATIONS)];
    }
}

void
SwitchProgram::FailEndings(const PipelinePass& pass, uint32_t endings) const
{
    std::string where = pass.Where();
    if (endings == 0)
    {
        throw PipelineViolation("program \"" + m_name + "\" ended " + where +
                                " without handing the packet to Forward, SendOnPort or Consume "
                                "or asking to Recirculate; every packet a pass receives must "
                                "leave it exactly once");
    }
    throw PipelineViolation("program \"" + m_name + "\" handed the packet of " + where + " on " +
                            std::to_string(endings) +
                            " times (Forward, SendOnPort, Consume, Recirculate); every packet a "
                            "pass receives must leave it exactly once (Clone it to send copies)");
}

void
SwitchProgram::FailNoSwitch() const
{
    throw std::logic_error("program \"" + m_name +
                           "\" sent a packet but its pipeline has no switch: call "
                           "Pipeline::SetActions first");
}

void
SwitchProgram::Forward(InaPacket* p)
{
    if (m_actions == nullptr)
    {
        FailNoSwitch();
    }
    ++m_counts[static_cast<size_t>(Counter::FORWARDED)];
    NoteEnding(p);
    m_actions->Forward(p);
}

void
SwitchProgram::SendOnPort(InaPacket* p, uint32_t port)
{
    if (m_actions == nullptr)
    {
        FailNoSwitch();
    }
    ++m_counts[static_cast<size_t>(Counter::SENT_ON_PORT)];
    NoteEnding(p);
    m_actions->SendOnPort(p, port);
}

void
SwitchProgram::Consume(InaPacket* p)
{
    if (m_actions == nullptr)
    {
        FailNoSwitch();
    }
    ++m_counts[static_cast<size_t>(Counter::CONSUMED)];
    NoteEnding(p);
    m_actions->Consume(p);
}

InaPacketPool&
SwitchProgram::GetPool() const
{
    if (m_actions == nullptr)
    {
        FailNoSwitch();
    }
    return m_actions->GetPool();
}

InaAddress
SwitchProgram::GetSwitchAddress() const
{
    if (m_actions == nullptr)
    {
        FailNoSwitch();
    }
    return m_actions->GetAddress();
}

uint32_t
SwitchProgram::GetNPorts() const
{
    if (m_actions == nullptr)
    {
        FailNoSwitch();
    }
    return m_actions->GetNPorts();
}

void
SwitchProgram::SetReasonNames(std::vector<std::string> names)
{
    m_reasonNames = std::move(names);
    m_reasonCounts.assign(m_reasonNames.size(), 0);
}

uint64_t
SwitchProgram::GetReasonCount(uint32_t reason) const
{
    if (reason >= m_reasonCounts.size())
    {
        throw std::out_of_range("program \"" + GetName() + "\" has no reason with index " +
                                std::to_string(reason) + "; it names " +
                                std::to_string(m_reasonCounts.size()) + " reasons");
    }
    return m_reasonCounts[reason];
}

uint64_t
SwitchProgram::GetReasonCount(const std::string& name) const
{
    for (size_t i = 0; i < m_reasonNames.size(); ++i)
    {
        if (m_reasonNames[i] == name)
        {
            return m_reasonCounts[i];
        }
    }
    throw std::invalid_argument("program \"" + GetName() + "\" has no reason named \"" + name +
                                "\"");
}

void
SwitchProgram::GetCounters(std::vector<std::string>& names, std::vector<uint64_t>& values) const
{
    names.clear();
    values.clear();
    for (size_t i = 0; i < static_cast<size_t>(Counter::N_COUNTERS); ++i)
    {
        names.emplace_back(COUNTER_NAMES[i]);
        values.push_back(m_counts[i]);
    }
    for (size_t i = 0; i < m_reasonNames.size(); ++i)
    {
        names.push_back(m_reasonNames[i]);
        values.push_back(m_reasonCounts[i]);
    }
}

void
SwitchProgram::ResetState()
{
    for (const auto& r : m_registers)
    {
        r->ControlFill(0);
    }
    DoResetState();
}

void
SwitchProgram::DoResetState()
{
}

RegisterArray&
SwitchProgram::GetRegister(const std::string& name) const
{
    return FindDeclared(m_registers, name, GetName(), IsInstalled(), "register array");
}

ExactMatchTable&
SwitchProgram::GetTable(const std::string& name) const
{
    return FindDeclared(m_tables, name, GetName(), IsInstalled(), "table");
}

void
SwitchProgram::Attach(Pipeline* pipeline, InaSwitchActions* actions, const ResourceDemand& demand)
{
    NS_LOG_FUNCTION(this << pipeline << actions);
    m_name = demand.program;
    m_registers.clear();
    m_tables.clear();
    for (const RegisterArrayDecl& d : demand.registerArrays)
    {
        m_registers.push_back(std::make_unique<RegisterArray>(d, m_name));
    }
    for (const TableDecl& d : demand.tables)
    {
        m_tables.push_back(std::make_unique<ExactMatchTable>(d, m_name));
    }
    m_pipeline = pipeline;
    m_actions = actions;
}

void
SwitchProgram::Detach()
{
    m_registers.clear();
    m_tables.clear();
    m_pipeline = nullptr;
    m_actions = nullptr;
}

bool
SwitchProgram::IsAggregationWork(const InaPacket* /* p */) const
{
    return true;
}

bool
SwitchProgram::FollowsAggregationQueue(const InaPacket* /* p */) const
{
    return false;
}

uint64_t
SwitchProgram::GetAggregatorsInUse() const
{
    return 0;
}

uint64_t
SwitchProgram::GetPeakAggregatorsInUse() const
{
    return 0;
}

void
SwitchProgram::SetPipelineLimits(const PipelineLimits& limits)
{
    if (IsInstalled())
    {
        throw std::logic_error(GetName() + ": SetPipelineLimits after Install");
    }
    m_pipelineLimits = limits;
}

} // namespace ns3
