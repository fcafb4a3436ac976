/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "training-job.h"

#include "gpu-contention-compute-model.h"
#include "gradient-values.h"
#include "profiled-compute-model.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingJob");
NS_OBJECT_ENSURE_REGISTERED(TrainingJob);

TypeId
TrainingJob::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TrainingJob")
                            .SetParent<Object>()
                            .SetGroupName("InaTraining")
                            .AddConstructor<TrainingJob>()
                            .AddAttribute("Iterations",
                                          "Training iterations every worker runs.",
                                          UintegerValue(3),
                                          MakeUintegerAccessor(&TrainingJob::m_iterations),
                                          MakeUintegerChecker<uint32_t>(1, MAX_ITERATIONS))
                            .AddAttribute("Start",
                                          "When the workers start their first iteration.",
                                          TimeValue(Seconds(0)),
                                          MakeTimeAccessor(&TrainingJob::m_start),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

TrainingJob::TrainingJob()
{
    m_workerFactory.SetTypeId(WorkerApp::GetTypeId());
    m_computeFactory.SetTypeId(ProfiledComputeModel::GetTypeId());
}

TrainingJob::~TrainingJob() = default;

void
TrainingJob::DoDispose()
{
    m_workers.clear();
    if (m_protocol != nullptr)
    {
        // The job made its protocol (ScenarioRunner, the fuzz target) or was given it, and is its
        // last user. The protocol and its agents hold each other (and, through their contexts,
        // the fabric): only an explicit Dispose breaks that cycle, so without it every
        // simulation of a program that runs many leaked its whole fabric (1.5 MB for 7 hosts).
        m_protocol->Dispose();
    }
    m_protocol = nullptr;
    m_ctx.fabric = nullptr;
    Object::DoDispose();
}

void
TrainingJob::SetWorkerAttribute(const std::string& name, const AttributeValue& value)
{
    m_workerFactory.Set(name, value);
}

void
TrainingJob::SetComputeModel(const std::string& typeId)
{
    m_computeFactory.SetTypeId(typeId);
}

void
TrainingJob::SetComputeModelAttribute(const std::string& name, const AttributeValue& value)
{
    m_computeFactory.Set(name, value);
}

std::string
TrainingJob::ComputeModelTypeName(const std::string& name)
{
    if (name == "profiled")
    {
        return ProfiledComputeModel::GetTypeId().GetName();
    }
    if (name == "gpu-contention")
    {
        return GpuContentionComputeModel::GetTypeId().GetName();
    }
    throw std::invalid_argument("unknown compute model '" + name +
                                "' (known: profiled, gpu-contention)");
}

void
TrainingJob::Setup(const JobContext& ctx, const ModelSpec& model, Ptr<AggregationProtocol> protocol)
{
    m_ctx = ctx;
    m_model = model;
    m_protocol = protocol;
    m_finishedPerIteration.assign(m_iterations, 0);
    m_iterationEndPs.assign(m_iterations, -1);
    // The workers are created first: their Attributes are part of the workload the protocol is
    // told about. Every worker comes from the same factory, so the first speaks for all.
    std::vector<Ptr<WorkerApp>> workers;
    for (uint32_t rank = 0; rank < ctx.workerHosts.size(); ++rank)
    {
        workers.push_back(m_workerFactory.Create<WorkerApp>());
    }
    Ptr<WorkerApp> probe = workers.empty() ? m_workerFactory.Create<WorkerApp>() : workers[0];
    m_ctx.model = std::make_shared<const ModelSpec>(model);
    m_ctx.iterations = m_iterations;
    m_ctx.fusionBytes = probe->GetFusionBytes();
    m_ctx.partitionBytes = probe->GetPartitionBytes();
    m_ctx.sendOrder = probe->GetSendOrder();
    m_ctx.startPs = m_start.GetTimeStep();
    m_protocol->Install(m_ctx);
    for (uint32_t rank = 0; rank < workers.size(); ++rank)
    {
        Ptr<WorkerApp> w = workers[rank];
        Ptr<ComputeModel> compute = m_computeFactory.Create<ComputeModel>();
        if (auto profiled = DynamicCast<ProfiledComputeModel>(compute))
        {
            profiled->SetModel(model);
        }
        w->Setup(this, rank, model, m_iterations, m_protocol->CreateAgent(rank), compute);
        w->SetIterationCallback(MakeCallback(&TrainingJob::OnIterationDone, this));
        ctx.fabric->GetNodes().Get(ctx.workerHosts[rank])->AddApplication(w);
        m_workers.push_back(w);
    }
}

void
TrainingJob::Start()
{
    for (const auto& w : m_workers)
    {
        // Node::AddApplication already scheduled StartApplication at the app's start time (0);
        // the start time is set here, before the simulation runs, so it takes effect.
        w->SetStartTime(m_start);
    }
}

void
TrainingJob::OnIterationDone(uint32_t rank, uint32_t iteration)
{
    if (++m_finishedPerIteration.at(iteration) == m_workers.size())
    {
        m_iterationEndPs[iteration] = Simulator::Now().GetTimeStep();
        if (iteration + 1 == m_finishedPerIteration.size())
        {
            m_protocol->NotifyJobEnded();
        }
    }
}

const std::vector<double>&
TrainingJob::ExpectedSum(uint64_t tensorId, std::size_t count)
{
    auto it = m_expected.find(tensorId);
    if (it == m_expected.end())
    {
        Expected e;
        e.sum.resize(count);
        uint32_t n = m_workers.size();
        for (std::size_t i = 0; i < count; ++i)
        {
            e.sum[i] = GradientValues::TrueSum(m_ctx.seed, tensorId, n, i);
        }
        e.checksLeft = n;
        it = m_expected.emplace(tensorId, std::move(e)).first;
    }
    return it->second.sum;
}

void
TrainingJob::CheckValues(uint32_t rank, uint64_t tensorId, const std::vector<float>& values)
{
    const std::vector<double>& expected = ExpectedSum(tensorId, values.size());
    double tol = m_protocol->ValueTolerance(m_workers.size(), GradientValues::RANGE);
    uint64_t errors = 0;
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        // NaN compares false, so it counts as an error too.
        if (!(std::fabs(values[i] - expected[i]) <= tol))
        {
            ++errors;
        }
    }
    if (values.size() != expected.size())
    {
        errors += 1;
    }
    m_valuesChecked += values.size();
    m_valueErrors += errors;
    auto it = m_expected.find(tensorId);
    if (--it->second.checksLeft == 0)
    {
        m_expected.erase(it);
    }
}

const JobContext&
TrainingJob::GetContext() const
{
    return m_ctx;
}

const ModelSpec&
TrainingJob::GetModel() const
{
    return m_model;
}

Ptr<AggregationProtocol>
TrainingJob::GetProtocol() const
{
    return m_protocol;
}

const std::vector<Ptr<WorkerApp>>&
TrainingJob::GetWorkers() const
{
    return m_workers;
}

uint32_t
TrainingJob::GetIterations() const
{
    return m_iterations;
}

uint32_t
TrainingJob::GetIterationsDone() const
{
    uint32_t done = 0;
    while (done < m_iterations && m_iterationEndPs[done] >= 0)
    {
        ++done;
    }
    return done;
}

uint64_t
TrainingJob::GetProgressSteps() const
{
    uint64_t steps = 0;
    for (const auto& w : m_workers)
    {
        steps += w->GetProgressSteps();
    }
    return steps;
}

double
TrainingJob::GetProgressFraction() const
{
    if (m_iterations == 0)
    {
        return 1.0;
    }
    const double byIterations = static_cast<double>(GetIterationsDone()) / m_iterations;
    const double total = m_ctx.model ? static_cast<double>(m_iterations) *
                                           static_cast<double>(m_ctx.model->TotalBytes()) *
                                           static_cast<double>(m_workers.size())
                                     : 0.0;
    if (total <= 0)
    {
        return byIterations;
    }
    double taken = 0;
    for (const auto& w : m_workers)
    {
        if (Ptr<AggregationAgent> a = w->GetAgent())
        {
            taken += static_cast<double>(a->GetResultBytes());
        }
    }
    // Padding of a tensor's last packet can make the bytes reach the total a packet early: only
    // the iterations say the job is done.
    return std::max(byIterations, std::min(0.999, taken / total));
}

bool
TrainingJob::HasGivenUp() const
{
    return !GetGiveUpReason().empty();
}

std::string
TrainingJob::GetGiveUpReason() const
{
    for (const auto& w : m_workers)
    {
        if (w->GetAgent() && w->GetAgent()->HasGivenUp())
        {
            return w->GetAgent()->GetGiveUpReason();
        }
    }
    return "";
}

bool
TrainingJob::IsCompleted() const
{
    return GetIterationsDone() == m_iterations;
}

std::vector<Time>
TrainingJob::GetIterationTimes() const
{
    std::vector<Time> times;
    int64_t prev = m_start.GetTimeStep();
    for (uint32_t i = 0; i < GetIterationsDone(); ++i)
    {
        times.push_back(TimeStep(m_iterationEndPs[i] - prev));
        prev = m_iterationEndPs[i];
    }
    return times;
}

Time
TrainingJob::GetJct() const
{
    if (!IsCompleted())
    {
        return Time(0);
    }
    return TimeStep(m_iterationEndPs.back() - m_start.GetTimeStep());
}

Time
TrainingJob::GetStartTime() const
{
    return m_start;
}

double
TrainingJob::GetAggregationThroughputGbps() const
{
    double sum = 0;
    uint32_t n = 0;
    for (const auto& w : m_workers)
    {
        double s = w->GetCommunicationTime().GetSeconds();
        if (s > 0)
        {
            sum += w->GetAgent()->GetStats().payloadBytes * 8.0 / s / 1e9;
            ++n;
        }
    }
    return n == 0 ? 0.0 : sum / n;
}

uint64_t
TrainingJob::GetValuesChecked() const
{
    return m_valuesChecked + (m_protocol ? m_protocol->GetOwnValuesChecked() : 0);
}

uint64_t
TrainingJob::GetValueErrors() const
{
    return m_valueErrors + (m_protocol ? m_protocol->GetOwnValueErrors() : 0);
}

AggregationAgent::Stats
TrainingJob::GetAgentStats() const
{
    AggregationAgent::Stats t;
    for (const auto& w : m_workers)
    {
        const AggregationAgent::Stats& s = w->GetAgent()->GetStats();
        t.tensors += s.tensors;
        t.payloadBytes += s.payloadBytes;
        t.wireBytesSent += s.wireBytesSent;
        t.packetsSent += s.packetsSent;
        t.retransmissions += s.retransmissions;
        t.psFallbackPackets += s.psFallbackPackets;
    }
    return t;
}

ComputeModel::Report
TrainingJob::GetComputeReport() const
{
    ComputeModel::Report out;
    if (m_workers.empty())
    {
        return out;
    }
    std::vector<ComputeModel::Report> all;
    for (const auto& w : m_workers)
    {
        all.push_back(w->GetComputeModel()->GetReport());
    }
    out.line = all[0].line;
    out.text = all[0].text;
    // Every worker's model is of the same type, so names come in the same order.
    out.values = all[0].values;
    for (std::size_t k = 0; k < out.values.size(); ++k)
    {
        double sum = 0;
        for (const auto& r : all)
        {
            sum += r.values.at(k).second;
        }
        out.values[k].second = sum / all.size();
    }
    for (std::size_t k = 0; k < all[0].perIteration.size(); ++k)
    {
        std::vector<double> sum;
        std::vector<uint32_t> count;
        for (const auto& r : all)
        {
            const std::vector<double>& v = r.perIteration.at(k).second;
            sum.resize(std::max(sum.size(), v.size()), 0.0);
            count.resize(sum.size(), 0);
            for (std::size_t i = 0; i < v.size(); ++i)
            {
                sum[i] += v[i];
                ++count[i];
            }
        }
        for (std::size_t i = 0; i < sum.size(); ++i)
        {
            sum[i] /= count[i];
        }
        out.perIteration.emplace_back(all[0].perIteration[k].first, std::move(sum));
    }
    return out;
}

} // namespace ns3
