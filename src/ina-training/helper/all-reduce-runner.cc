/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "all-reduce-runner.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/gradient-values.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/worker-app.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

AllReduceRunner::AllReduceRunner(Ptr<InaFabric> fabric,
                                 const std::string& protocol,
                                 const Spec& spec)
    : m_spec(spec)
{
    const std::string typeId = AggregationProtocolRegistry::Has(protocol)
                                   ? AggregationProtocolRegistry::Lookup(protocol)
                                   : protocol;
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(typeId, &tid))
    {
        throw std::invalid_argument("AllReduceRunner: no protocol '" + protocol + "'");
    }
    ObjectFactory f(typeId);
    for (const auto& [name, value] : spec.attributes)
    {
        TypeId::AttributeInformation info;
        if (!tid.LookupAttributeByName(name, &info))
        {
            throw std::invalid_argument("AllReduceRunner: protocol '" + protocol +
                                        "' has no attribute '" + name + "'");
        }
        f.Set(name, StringValue(value));
    }
    m_protocol = f.Create<AggregationProtocol>();
    if (!m_protocol)
    {
        throw std::invalid_argument("AllReduceRunner: '" + protocol +
                                    "' is not an AggregationProtocol");
    }
    JobContext ctx;
    ctx.fabric = fabric;
    ctx.jobId = spec.jobId;
    ctx.name = spec.name;
    ctx.workerHosts = spec.hosts;
    ctx.psHosts = spec.ps;
    ctx.inaTiers = spec.tiers;
    ctx.seed = spec.seed;
    ctx.checkValues = spec.values;
    ctx.flowIdBase = spec.jobId * JobContext::FLOW_IDS_PER_JOB;
    // The earliest worker's start (a rank without a start time starts at 0).
    if (!spec.startPs.empty() && spec.startPs.size() >= spec.hosts.size())
    {
        ctx.startPs = *std::min_element(spec.startPs.begin(), spec.startPs.end());
    }
    m_protocol->Install(ctx);
    const uint32_t n = spec.hosts.size();
    m_values.resize(n);
    m_done.assign(n, 0);
    m_finishPs.assign(n, 0);
    for (uint32_t r = 0; r < n; ++r)
    {
        m_agents.push_back(m_protocol->CreateAgent(r));
        m_agents[r]->SetDoneCallback(MakeBoundCallback(&AllReduceRunner::DoneThunk, this, r));
        m_values[r].resize(spec.tensorBytes.size());
    }
}

AllReduceRunner::~AllReduceRunner()
{
    // The runner made the protocol and is its last user. The protocol and its agents hold each
    // other (and, through their contexts, the fabric), so only an explicit Dispose breaks that
    // cycle, as TrainingJob::DoDispose does for scenario runs; without it every test case built
    // on a runner leaked its whole fabric (LeakSanitizer: 15 MB and more per protocol suite).
    if (m_protocol)
    {
        m_protocol->Dispose();
    }
}

void
AllReduceRunner::Start()
{
    for (uint32_t r = 0; r < m_agents.size(); ++r)
    {
        const int64_t at = r < m_spec.startPs.size() ? m_spec.startPs[r] : 0;
        Simulator::Schedule(PicoSeconds(at), &AllReduceRunner::StartThunk, this, r);
    }
}

void
AllReduceRunner::RunAll(const std::vector<AllReduceRunner*>& runs, Time limit)
{
    for (AllReduceRunner* r : runs)
    {
        r->Start();
    }
    Simulator::Stop(limit);
    Simulator::Run();
}

bool
AllReduceRunner::Complete() const
{
    for (uint32_t d : m_done)
    {
        if (d != m_spec.tensorBytes.size())
        {
            return false;
        }
    }
    return true;
}

uint64_t
AllReduceRunner::ValueErrors(double* maxError) const
{
    const uint32_t n = m_agents.size();
    const double tol = m_protocol->ValueTolerance(n, GradientValues::RANGE);
    uint64_t errors = 0;
    double worst = 0;
    for (size_t t = 0; t < m_spec.tensorBytes.size(); ++t)
    {
        const size_t count = m_spec.tensorBytes[t] / 4;
        std::vector<double> expect(count);
        for (size_t i = 0; i < count; ++i)
        {
            expect[i] = GradientValues::TrueSum(m_spec.seed, TensorId(t), n, i);
        }
        for (uint32_t r = 0; r < n; ++r)
        {
            const std::vector<float>& v = m_values[r][t];
            if (v.size() != count)
            {
                errors += count;
                continue;
            }
            for (size_t i = 0; i < count; ++i)
            {
                const double e = std::fabs(v[i] - expect[i]);
                worst = std::max(worst, std::isnan(e) ? 1e300 : e);
                errors += e <= tol ? 0 : 1;
            }
        }
    }
    if (maxError != nullptr)
    {
        *maxError = worst;
    }
    return errors;
}

int64_t
AllReduceRunner::FinishPs(uint32_t rank) const
{
    return m_finishPs.at(rank);
}

int64_t
AllReduceRunner::LastFinishPs() const
{
    return m_finishPs.empty() ? 0 : *std::max_element(m_finishPs.begin(), m_finishPs.end());
}

uint64_t
AllReduceRunner::Sum(uint64_t AggregationAgent::Stats::*field) const
{
    uint64_t s = 0;
    for (const auto& a : m_agents)
    {
        s += a->GetStats().*field;
    }
    return s;
}

Ptr<AggregationProtocol>
AllReduceRunner::GetProtocol() const
{
    return m_protocol;
}

Ptr<AggregationAgent>
AllReduceRunner::GetAgent(uint32_t rank) const
{
    return m_agents.at(rank);
}

uint32_t
AllReduceRunner::GetNWorkers() const
{
    return m_agents.size();
}

const AllReduceRunner::Spec&
AllReduceRunner::GetSpec() const
{
    return m_spec;
}

void
AllReduceRunner::Dispose()
{
    for (auto& a : m_agents)
    {
        a->Dispose();
    }
    m_protocol->Dispose();
}

uint64_t
AllReduceRunner::TensorId(size_t t)
{
    // Numbered as WorkerApp numbers the pieces of its first iteration, so a protocol that reads
    // tensor ids (ESA maps them to the job's layers) sees what a training run would give it.
    return WorkerApp::TensorId(1, static_cast<uint32_t>(t));
}

void
AllReduceRunner::Hand(uint32_t rank, size_t t)
{
    const uint64_t bytes = m_spec.tensorBytes[t];
    std::vector<float>* v = nullptr;
    if (m_spec.values)
    {
        GradientValues::Fill(m_spec.seed, TensorId(t), rank, bytes / 4, m_values[rank][t]);
        v = &m_values[rank][t];
    }
    m_agents[rank]->AllReduce(TensorId(t), bytes, v);
}

void
AllReduceRunner::HandFirst(uint32_t rank)
{
    const size_t count = m_spec.sequential ? 1 : m_spec.tensorBytes.size();
    for (size_t t = 0; t < count; ++t)
    {
        Hand(rank, t);
    }
}

void
AllReduceRunner::StartThunk(AllReduceRunner* self, uint32_t rank)
{
    self->HandFirst(rank);
}

void
AllReduceRunner::DoneThunk(AllReduceRunner* self, uint32_t rank, uint64_t id)
{
    self->OnDone(rank, id);
}

void
AllReduceRunner::OnDone(uint32_t rank, uint64_t id)
{
    ++m_done[rank];
    m_finishPs[rank] = Simulator::Now().GetPicoSeconds();
    if (Complete() && !m_endNotified)
    {
        m_endNotified = true;
        m_protocol->NotifyJobEnded();
    }
    const size_t t = id & 0xffffffffULL;
    if (m_spec.sequential && t + 1 < m_spec.tensorBytes.size())
    {
        Hand(rank, t + 1);
    }
}

} // namespace ns3
