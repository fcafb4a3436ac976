/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "worker-app.h"

#include "gradient-values.h"
#include "training-job.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkerApp");
NS_OBJECT_ENSURE_REGISTERED(WorkerApp);

TypeId
WorkerApp::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WorkerApp")
            .SetParent<Application>()
            .SetGroupName("InaTraining")
            .AddConstructor<WorkerApp>()
            .AddAttribute("FusionBytes",
                          "Tensor fusion: gradients of consecutive layers are handed to the agent "
                          "together once at least this many bytes are ready (0: each layer alone).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkerApp::m_fusionBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PartitionBytes",
                          "Tensor partitioning: a fused tensor larger than this is handed as "
                          "pieces of at most this many bytes (0: never split).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WorkerApp::m_partitionBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

WorkerApp::WorkerApp() = default;
WorkerApp::~WorkerApp() = default;

void
WorkerApp::DoDispose()
{
    m_agent = nullptr;
    m_compute = nullptr;
    m_values.clear();
    Application::DoDispose();
}

void
WorkerApp::Setup(TrainingJob* job,
                 uint32_t rank,
                 const ModelSpec& model,
                 uint32_t iterations,
                 Ptr<AggregationAgent> agent,
                 Ptr<ComputeModel> compute)
{
    m_job = job;
    m_rank = rank;
    m_model = model;
    m_iterations = iterations;
    m_agent = agent;
    m_compute = compute;
    m_agent->SetDoneCallback(MakeCallback(&WorkerApp::OnTensorDone, this));
    m_compute->Attach(this);
    NS_ABORT_MSG_IF(m_model.layers.empty(),
                    "WorkerApp: model " << m_model.name << " has no layers");
}

void
WorkerApp::SetIterationCallback(IterationCallback cb)
{
    m_iterationCb = cb;
}

uint64_t
WorkerApp::TensorId(uint32_t iteration, uint32_t piece)
{
    return (static_cast<uint64_t>(iteration) << 32) | piece;
}

void
WorkerApp::StartApplication()
{
    m_iteration = 0;
    StartIteration();
}

void
WorkerApp::StopApplication()
{
    m_event.Cancel();
}

void
WorkerApp::StartIteration()
{
    if (m_iteration >= m_iterations)
    {
        return;
    }
    m_piece = 0;
    m_bucketBytes = 0;
    m_backwardDone = false;
    ForwardLayer(0);
}

void
WorkerApp::ForwardLayer(uint32_t layer)
{
    if (layer == m_model.layers.size())
    {
        BackwardLayer(m_model.layers.size() - 1);
        return;
    }
    m_event = Simulator::Schedule(m_compute->ForwardTime(layer, m_iteration),
                                  &WorkerApp::ForwardLayer,
                                  this,
                                  layer + 1);
}

void
WorkerApp::BackwardLayer(uint32_t layer)
{
    // Called when the backward pass reaches `layer`: it computes, then its gradient is ready.
    Time t = m_compute->BackwardTime(layer, m_iteration);
    m_event = Simulator::Schedule(t, &WorkerApp::BackwardLayerComputed, this, layer);
}

void
WorkerApp::BackwardLayerComputed(uint32_t layer)
{
    m_bucketBytes += m_model.layers[layer].gradientBytes;
    if (layer == 0 || m_bucketBytes >= m_fusionBytes)
    {
        FlushBucket();
    }
    if (layer == 0)
    {
        m_backwardDone = true;
        MaybeFinishIteration();
    }
    else
    {
        BackwardLayer(layer - 1);
    }
}

void
WorkerApp::FlushBucket()
{
    uint64_t left = m_bucketBytes;
    m_bucketBytes = 0;
    while (left > 0)
    {
        uint64_t bytes = m_partitionBytes == 0 ? left : std::min(left, m_partitionBytes);
        left -= bytes;
        uint64_t id = TensorId(m_iteration, m_piece++);
        std::vector<float>* values = nullptr;
        if (m_job->GetContext().checkValues)
        {
            NS_ABORT_MSG_IF(bytes % 4 != 0, "WorkerApp: check_values needs 4-byte gradients");
            auto v = std::make_unique<std::vector<float>>();
            GradientValues::Fill(m_job->GetContext().seed, id, m_rank, bytes / 4, *v);
            values = v.get();
            m_values[id] = std::move(v);
        }
        if (m_outstanding++ == 0)
        {
            m_busySincePs = Simulator::Now().GetTimeStep();
        }
        m_agent->AllReduce(id, bytes, values);
    }
}

void
WorkerApp::OnTensorDone(uint64_t tensorId)
{
    NS_ABORT_MSG_IF(m_outstanding == 0,
                    "WorkerApp " << m_rank << ": the agent returned tensor " << tensorId
                                 << " that was not outstanding");
    auto it = m_values.find(tensorId);
    if (it != m_values.end())
    {
        m_job->CheckValues(m_rank, tensorId, *it->second);
        m_values.erase(it);
    }
    if (--m_outstanding == 0)
    {
        m_busyPs += Simulator::Now().GetTimeStep() - m_busySincePs;
    }
    MaybeFinishIteration();
}

void
WorkerApp::MaybeFinishIteration()
{
    if (!m_backwardDone || m_outstanding > 0)
    {
        return;
    }
    uint32_t done = m_iteration++;
    if (!m_iterationCb.IsNull())
    {
        m_iterationCb(m_rank, done);
    }
    StartIteration();
}

uint32_t
WorkerApp::GetRank() const
{
    return m_rank;
}

uint32_t
WorkerApp::GetIterationsDone() const
{
    return m_iteration;
}

Time
WorkerApp::GetCommunicationTime() const
{
    return TimeStep(m_busyPs);
}

uint32_t
WorkerApp::GetOutstandingTensors() const
{
    return m_outstanding;
}

Ptr<AggregationAgent>
WorkerApp::GetAgent() const
{
    return m_agent;
}

} // namespace ns3
