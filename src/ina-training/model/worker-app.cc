/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "worker-app.h"

#include "gradient-values.h"
#include "job-attribute-error.h"
#include "training-job.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/ina-split-mix.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WorkerApp");
NS_OBJECT_ENSURE_REGISTERED(WorkerApp);

namespace
{
/// Keeps the jitter's draws apart from other users of the job's seed (gradient values, placement).
constexpr uint64_t JITTER_SALT = 0x4a49545445520000ULL; // "JITTER"
} // namespace

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
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute(
                "SendOrder",
                "The order the pieces of an iteration are handed to the agent, the same at every "
                "worker: backward (as the backward pass makes them ready) or bytescheduler "
                "(whenever the sender is free, the ready piece of the front-most layer, one piece "
                "at a time, planned with the model's backward times and the job's slowest worker "
                "link; the ESA paper's layer-2 partition 1, layer 1, layer-2 partition 2).",
                EnumValue(static_cast<int>(JobContext::SendOrder::BACKWARD)),
                MakeEnumAccessor(&WorkerApp::m_sendOrder),
                MakeEnumChecker(static_cast<int>(JobContext::SendOrder::BACKWARD),
                                "backward",
                                static_cast<int>(JobContext::SendOrder::BYTESCHEDULER),
                                "bytescheduler"))
            .AddAttribute("SendJitter",
                          "Sender jitter: a piece is handed U(0, SendJitter) after it is ready "
                          "and the piece before it was handed (the ESA paper: 300us; 0: none).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&WorkerApp::m_jitter),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("JitterScope",
                          "Which draws SendJitter takes: partition (one per worker and piece) or "
                          "iteration (one per worker and iteration, before its first piece).",
                          EnumValue(WorkerApp::PARTITION),
                          MakeEnumAccessor(&WorkerApp::m_jitterScope),
                          MakeEnumChecker(WorkerApp::PARTITION,
                                          "partition",
                                          WorkerApp::ITERATION,
                                          "iteration"))
            .AddAttribute("OverlapForward",
                          "The next iteration's forward pass of a layer starts as soon as that "
                          "layer's aggregated gradients are back and the layer before it is done "
                          "(false: once every gradient is back).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&WorkerApp::m_overlap),
                          MakeBooleanChecker());
    return tid;
}

void
WorkerApp::DoDispose()
{
    m_agent = nullptr;
    if (m_compute)
    {
        m_compute->Dispose(); // it may hold an event and this worker's callbacks
    }
    m_compute = nullptr;
    m_forwardCb = Callback<void>();
    m_backwardCb = Callback<void>();
    m_values.clear();
    Application::DoDispose();
}

namespace
{

/**
 * The pieces of one iteration in the order the backward pass makes them ready: layers from the
 * back join a fusion bucket until it holds fusionBytes (or the first layer is added), and each
 * bucket is cut into pieces of partitionBytes (0: one piece).
 */
std::vector<WorkerApp::Piece>
FuseAndPartition(const ModelSpec& model, uint64_t fusionBytes, uint64_t partitionBytes)
{
    // A segment is one layer's bytes in the fusion bucket, in the order they were added (back to
    // front), so a piece's layers are those of the segments it overlaps.
    struct Segment
    {
        uint32_t layer;
        uint64_t bytes;
    };

    std::vector<WorkerApp::Piece> ready;
    std::vector<Segment> bucket;
    uint64_t bucketBytes = 0;
    for (auto layer = static_cast<uint32_t>(model.layers.size()); layer-- > 0;)
    {
        bucket.push_back({layer, model.layers[layer].gradientBytes});
        bucketBytes += model.layers[layer].gradientBytes;
        if (layer != 0 && bucketBytes < fusionBytes)
        {
            continue;
        }
        uint64_t offset = 0;
        std::size_t seg = 0;
        uint64_t segStart = 0;
        while (offset < bucketBytes)
        {
            const uint64_t left = bucketBytes - offset;
            const uint64_t len = partitionBytes == 0 ? left : std::min(left, partitionBytes);
            while (segStart + bucket[seg].bytes <= offset)
            {
                segStart += bucket[seg++].bytes;
            }
            // Segments overlapping [offset, offset + len): seg and on, while they start before
            // its end. Empty segments hold nothing, so they are not the piece's layers.
            WorkerApp::Piece p{len, 0, 0, layer, static_cast<uint32_t>(ready.size())};
            p.backLayer = bucket[seg].layer;
            p.frontLayer = bucket[seg].layer;
            uint64_t start = segStart;
            for (std::size_t s = seg; s < bucket.size() && start < offset + len; ++s)
            {
                if (bucket[s].bytes > 0)
                {
                    p.frontLayer = bucket[s].layer;
                }
                start += bucket[s].bytes;
            }
            ready.push_back(p);
            offset += len;
        }
        bucket.clear();
        bucketBytes = 0;
    }
    return ready;
}

/**
 * The ByteScheduler-style sender with the profiled times: the backward pass readies a layer's
 * pieces at the end of that layer (in that order when several end at one instant); the sender,
 * idle, takes a piece the moment one is ready; when it finishes one (bytes at the line rate) it
 * takes the ready piece of the front-most layer, ties to the first ready. A piece readied at the
 * instant the sender frees is a candidate. Returns `ready` in the order the sender takes them.
 */
std::vector<WorkerApp::Piece>
ByteSchedulerOrder(const ModelSpec& model,
                   const std::vector<WorkerApp::Piece>& ready,
                   double rateBps)
{
    std::vector<WorkerApp::Piece> out;
    std::vector<uint32_t> pending;
    int64_t busyUntil = std::numeric_limits<int64_t>::min();
    auto dispatch = [&](int64_t at) {
        auto best = pending.begin();
        for (auto it = pending.begin(); it != pending.end(); ++it)
        {
            const WorkerApp::Piece& c = ready[*it];
            const WorkerApp::Piece& b = ready[*best];
            if (c.frontLayer < b.frontLayer ||
                (c.frontLayer == b.frontLayer && c.readyIndex < b.readyIndex))
            {
                best = it;
            }
        }
        const WorkerApp::Piece& p = ready[*best];
        out.push_back(p);
        busyUntil = at + std::llround(static_cast<double>(p.bytes) * 8.0 / rateBps * 1e12);
        pending.erase(best);
    };
    int64_t now = 0;
    std::size_t next = 0;
    for (auto layer = static_cast<uint32_t>(model.layers.size()); layer-- > 0;)
    {
        now += model.layers[layer].backwardPs;
        if (next == ready.size() || ready[next].readyLayer != layer)
        {
            continue;
        }
        while (!pending.empty() && busyUntil < now)
        {
            dispatch(busyUntil);
        }
        while (next < ready.size() && ready[next].readyLayer == layer)
        {
            pending.push_back(next++);
        }
        if (busyUntil <= now)
        {
            dispatch(now);
        }
    }
    while (!pending.empty())
    {
        dispatch(busyUntil);
    }
    return out;
}

} // namespace

std::vector<WorkerApp::Piece>
WorkerApp::PlanIteration(const ModelSpec& model,
                         uint64_t fusionBytes,
                         uint64_t partitionBytes,
                         JobContext::SendOrder order,
                         double rateBps)
{
    if (model.layers.empty())
    {
        throw std::invalid_argument("model '" + model.name + "' has no layers");
    }
    // Two checks, so that the refusal is exact and nothing unbounded is allocated. Before
    // planning: the bytes over the partition size are a lower bound of the count (each fusion
    // bucket may add one piece more), so a plan is only made when it holds at most MAX_PIECES
    // plus one piece a layer. After planning: the count itself.
    const uint64_t totalBytes = model.TotalBytes();
    const uint64_t atLeast =
        partitionBytes == 0 ? 0 : totalBytes / partitionBytes + (totalBytes % partitionBytes != 0);
    const auto refuse = [&](uint64_t pieces, const char* orMore) {
        throw JobAttributeError(
            "PartitionBytes",
            std::to_string(partitionBytes) + " B partitions cut an iteration's " +
                std::to_string(totalBytes) + " B of gradients into " + std::to_string(pieces) +
                orMore + " pieces; a worker hands at most " + std::to_string(MAX_PIECES) +
                " per iteration; use larger partitions");
    };
    if (atLeast > MAX_PIECES)
    {
        refuse(atLeast, " or more");
    }
    std::vector<Piece> ready = FuseAndPartition(model, fusionBytes, partitionBytes);
    if (ready.size() > MAX_PIECES)
    {
        refuse(ready.size(), "");
    }
    if (order == JobContext::SendOrder::BACKWARD)
    {
        return ready;
    }
    if (!(rateBps > 0) || !std::isfinite(rateBps))
    {
        throw std::invalid_argument("SendOrder bytescheduler needs the workers' line rate; got " +
                                    std::to_string(rateBps) + " bit/s");
    }
    return ByteSchedulerOrder(model, ready, rateBps);
}

double
WorkerApp::PlanRateBps(const JobContext& ctx)
{
    if (!ctx.fabric || ctx.workerHosts.empty())
    {
        return 0;
    }
    const InaTopology& topo = ctx.fabric->GetTopology();
    uint64_t rate = std::numeric_limits<uint64_t>::max();
    for (uint32_t host : ctx.workerHosts)
    {
        for (const auto& [peer, link] : topo.Neighbors(host))
        {
            rate = std::min(rate, topo.GetLink(link).rateBps);
        }
    }
    return rate == std::numeric_limits<uint64_t>::max() ? 0.0 : static_cast<double>(rate);
}

std::vector<WorkerApp::Piece>
WorkerApp::PlanIteration(const JobContext& ctx)
{
    if (!ctx.model)
    {
        throw std::invalid_argument("job '" + ctx.name + "' has no model in its context");
    }
    return PlanIteration(*ctx.model,
                         ctx.fusionBytes,
                         ctx.partitionBytes,
                         ctx.sendOrder,
                         PlanRateBps(ctx));
}

int64_t
WorkerApp::JitterDraw(uint64_t seed,
                      uint32_t rank,
                      uint32_t iteration,
                      uint32_t piece,
                      int64_t maxSteps)
{
    if (maxSteps <= 0)
    {
        return 0;
    }
    const uint64_t h = InaSplitMix64(InaSplitMix64(InaSplitMix64(seed ^ JITTER_SALT) ^ rank) ^
                                     (static_cast<uint64_t>(iteration) << 32 | piece));
    const unsigned __int128 scaled =
        static_cast<unsigned __int128>(h) * (static_cast<uint64_t>(maxSteps) + 1);
    return static_cast<int64_t>(scaled >> 64);
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
    m_seed = job->GetContext().seed;
    m_checkValues = job->GetContext().checkValues;
    m_agent->SetDoneCallback(MakeCallback(&WorkerApp::OnTensorDone, this));
    m_forwardCb = MakeCallback(&WorkerApp::ForwardLayerDone, this);
    m_backwardCb = MakeCallback(&WorkerApp::BackwardLayerDone, this);
    try
    {
        m_plan = PlanIteration(m_model,
                               m_fusionBytes,
                               m_partitionBytes,
                               GetSendOrder(),
                               PlanRateBps(job->GetContext()));
    }
    catch (const std::invalid_argument& e)
    {
        NS_ABORT_MSG("WorkerApp " << rank << " of job " << job->GetContext().name << ": "
                                  << e.what());
    }
    const std::size_t layers = m_model.layers.size();
    m_readyAt.assign(layers, {});
    m_layerPieces.assign(layers, 0);
    for (uint32_t p = 0; p < m_plan.size(); ++p)
    {
        m_readyAt[m_plan[p].readyLayer].push_back(p);
        for (uint32_t l = m_plan[p].frontLayer; l <= m_plan[p].backLayer; ++l)
        {
            ++m_layerPieces[l];
        }
    }
    m_layerPending.assign(layers, 0);
    m_ready.assign(m_plan.size(), false);
    // Last: the model may look at the plan.
    m_compute->Attach(this);
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
    m_iterationsDone = 0;
    if (m_iterations > 0)
    {
        BeginForward(0);
    }
}

void
WorkerApp::StopApplication()
{
    m_compute->CancelLayer();
    m_handEvent.Cancel();
}

void
WorkerApp::BeginForward(uint32_t iteration)
{
    m_fwdIteration = iteration;
    m_fwdLayer = 0;
    m_fwdActive = true;
    TryForward();
}

void
WorkerApp::TryForward()
{
    if (!m_fwdActive || m_computing)
    {
        return;
    }
    if (m_fwdLayer == m_model.layers.size())
    {
        // Every layer's gradients of the previous iteration are back, so it is complete.
        m_fwdActive = false;
        m_iteration = m_fwdIteration;
        m_backwardDone = false;
        m_nextHand = 0;
        m_piecesBack = 0;
        std::fill(m_ready.begin(), m_ready.end(), false);
        m_layerPending = m_layerPieces;
        BackwardLayer(m_model.layers.size() - 1);
        return;
    }
    if (m_layerPending[m_fwdLayer] > 0)
    {
        return; // OnTensorDone resumes it
    }
    m_computing = true;
    m_compute->StartLayer(ComputeModel::FORWARD, m_fwdLayer, m_fwdIteration, m_forwardCb);
}

void
WorkerApp::ForwardLayerDone()
{
    m_computing = false;
    ++m_progressSteps;
    ++m_fwdLayer;
    TryForward();
}

void
WorkerApp::BackwardLayer(uint32_t layer)
{
    // Called when the backward pass reaches `layer`: it computes, then its gradient is ready.
    m_computing = true;
    m_bwdLayer = layer;
    m_compute->StartLayer(ComputeModel::BACKWARD, layer, m_iteration, m_backwardCb);
}

void
WorkerApp::BackwardLayerDone()
{
    BackwardLayerComputed(m_bwdLayer);
}

void
WorkerApp::BackwardLayerComputed(uint32_t layer)
{
    m_computing = false;
    ++m_progressSteps;
    for (uint32_t p : m_readyAt[layer])
    {
        m_ready[p] = true;
    }
    Pump();
    if (layer > 0)
    {
        BackwardLayer(layer - 1);
        return;
    }
    m_backwardDone = true;
    if (m_overlap && m_iteration + 1 < m_iterations)
    {
        BeginForward(m_iteration + 1);
    }
    MaybeFinishIteration();
}

void
WorkerApp::Pump()
{
    while (!m_stageBusy && m_nextHand < m_plan.size() && m_ready[m_nextHand])
    {
        const int64_t maxSteps = m_jitter.GetTimeStep();
        int64_t delay = 0;
        if (maxSteps > 0)
        {
            if (m_jitterScope == PARTITION)
            {
                delay = JitterDraw(m_seed, m_rank, m_iteration, m_nextHand, maxSteps);
            }
            else if (m_nextHand == 0)
            {
                delay = JitterDraw(m_seed, m_rank, m_iteration, ITERATION_DRAW, maxSteps);
            }
        }
        if (delay > 0)
        {
            m_stageBusy = true;
            m_handEvent = Simulator::Schedule(TimeStep(delay), &WorkerApp::HandDelayed, this);
            return;
        }
        Hand(m_nextHand++);
    }
}

void
WorkerApp::HandDelayed()
{
    m_stageBusy = false;
    Hand(m_nextHand++);
    Pump();
}

void
WorkerApp::Hand(uint32_t piece)
{
    const uint64_t bytes = m_plan[piece].bytes;
    const uint64_t id = TensorId(m_iteration, piece);
    std::vector<float>* values = nullptr;
    if (m_checkValues)
    {
        NS_ABORT_MSG_IF(bytes % 4 != 0, "WorkerApp: check_values needs 4-byte gradients");
        auto v = std::make_unique<std::vector<float>>();
        GradientValues::Fill(m_seed, id, m_rank, bytes / 4, *v);
        values = v.get();
        m_values[id] = std::move(v);
    }
    if (m_outstanding++ == 0)
    {
        m_busySincePs = Simulator::Now().GetTimeStep();
    }
    m_compute->CommunicationStarted(m_iteration, piece);
    m_agent->AllReduce(id, bytes, values);
}

void
WorkerApp::OnTensorDone(uint64_t tensorId)
{
    const auto piece = static_cast<uint32_t>(tensorId & 0xffffffffULL);
    NS_ABORT_MSG_IF(m_outstanding == 0 || (tensorId >> 32) != m_iteration || piece >= m_plan.size(),
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
    // Before anything that may start a layer, so the layer sees the kernel gone.
    m_compute->CommunicationEnded(m_iteration, piece);
    for (uint32_t l = m_plan[piece].frontLayer; l <= m_plan[piece].backLayer; ++l)
    {
        --m_layerPending[l];
    }
    ++m_piecesBack;
    ++m_progressSteps;
    MaybeFinishIteration();
    TryForward();
}

void
WorkerApp::MaybeFinishIteration()
{
    if (!m_backwardDone || m_piecesBack < m_plan.size() || m_iterationsDone > m_iteration)
    {
        return;
    }
    m_iterationsDone = m_iteration + 1;
    if (!m_iterationCb.IsNull())
    {
        m_iterationCb(m_rank, m_iteration);
    }
    if (!m_overlap && m_iterationsDone < m_iterations)
    {
        BeginForward(m_iterationsDone);
    }
}

uint32_t
WorkerApp::GetRank() const
{
    return m_rank;
}

TrainingJob*
WorkerApp::GetJob() const
{
    return m_job;
}

Ptr<ComputeModel>
WorkerApp::GetComputeModel() const
{
    return m_compute;
}

uint32_t
WorkerApp::GetIterationsDone() const
{
    return m_iterationsDone;
}

uint64_t
WorkerApp::GetProgressSteps() const
{
    return m_progressSteps;
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

const std::vector<WorkerApp::Piece>&
WorkerApp::GetPlan() const
{
    return m_plan;
}

uint64_t
WorkerApp::GetFusionBytes() const
{
    return m_fusionBytes;
}

uint64_t
WorkerApp::GetPartitionBytes() const
{
    return m_partitionBytes;
}

JobContext::SendOrder
WorkerApp::GetSendOrder() const
{
    return static_cast<JobContext::SendOrder>(m_sendOrder);
}

} // namespace ns3
