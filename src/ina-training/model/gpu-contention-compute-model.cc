/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gpu-contention-compute-model.h"

#include "job-attribute-error.h"
#include "ring-all-reduce-protocol.h"
#include "thread-alloc-dp.h"
#include "training-job.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GpuContentionComputeModel");
NS_OBJECT_ENSURE_REGISTERED(GpuContentionComputeModel);

TypeId
GpuContentionComputeModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::GpuContentionComputeModel")
            .SetParent<ProfiledComputeModel>()
            .SetGroupName("InaTraining")
            .AddConstructor<GpuContentionComputeModel>()
            .AddAttribute("GpuThreads",
                          "Communication threads r of every all-reduce kernel under the fixed and "
                          "se policies (a stand-in for NCCL's choice); dp ignores it.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&GpuContentionComputeModel::m_threads),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("GpuThreadPolicy",
                          "How each tensor group's threads are chosen: fixed (GpuThreads), dp "
                          "(LIBRA's DP on the worker's fusion groups) or se (one all-reduce after "
                          "the backward pass, GpuThreads; needs FusionBytes >= the model's "
                          "gradient bytes).",
                          EnumValue(GpuContentionComputeModel::FIXED),
                          MakeEnumAccessor(&GpuContentionComputeModel::m_policy),
                          MakeEnumChecker(GpuContentionComputeModel::FIXED,
                                          "fixed",
                                          GpuContentionComputeModel::DP,
                                          "dp",
                                          GpuContentionComputeModel::SE,
                                          "se"))
            .AddAttribute("GpuParams",
                          "The contention curves: a parameter file (.yaml/.yml or .csv, "
                          "GpuContentionParams::Load; a relative path is taken from the current "
                          "folder) or empty for the ILLUSTRATIVE set (not fitted).",
                          StringValue(""),
                          MakeStringAccessor(&GpuContentionComputeModel::m_fileName),
                          MakeStringChecker());
    return tid;
}

GpuContentionComputeModel::GpuContentionComputeModel()
    : m_params(GpuContentionParams::Illustrative())
{
}

GpuContentionComputeModel::~GpuContentionComputeModel() = default;

void
GpuContentionComputeModel::DoDispose()
{
    m_event.Cancel();
    m_done = Callback<void>();
    m_host = nullptr;
    ProfiledComputeModel::DoDispose();
}

const char*
GpuContentionComputeModel::PolicyName(ThreadPolicy policy)
{
    switch (policy)
    {
    case FIXED:
        return "fixed";
    case DP:
        return "dp";
    case SE:
        return "se";
    }
    return "?";
}

ThreadAllocPlan
GpuContentionComputeModel::FusionGroups(const ModelSpec& model,
                                        const std::vector<WorkerApp::Piece>& plan,
                                        uint32_t threads,
                                        std::vector<uint32_t>* pieceGroup)
{
    const auto layers = static_cast<uint32_t>(model.layers.size());
    // A bucket is readied by its front-most layer; buckets come in backward order.
    std::vector<uint32_t> readyLayers;
    for (const WorkerApp::Piece& p : plan)
    {
        readyLayers.push_back(p.readyLayer);
    }
    std::sort(readyLayers.begin(), readyLayers.end(), std::greater<>());
    readyLayers.erase(std::unique(readyLayers.begin(), readyLayers.end()), readyLayers.end());

    std::vector<ThreadAllocPlan::Group> groups;
    uint32_t above = layers; // forward index of the previous bucket's ready layer
    for (uint32_t ready : readyLayers)
    {
        // forward layers [ready, above - 1] in backward indices
        groups.push_back({layers - above, layers - 1 - ready, threads});
        above = ready;
    }
    if (above > 0)
    {
        groups.push_back({layers - above, layers - 1, threads});
    }
    if (pieceGroup != nullptr)
    {
        pieceGroup->clear();
        for (const WorkerApp::Piece& p : plan)
        {
            const auto it = std::find(readyLayers.begin(), readyLayers.end(), p.readyLayer);
            pieceGroup->push_back(static_cast<uint32_t>(it - readyLayers.begin()));
        }
    }
    return ThreadAllocPlan(std::move(groups), layers);
}

ThreadAllocPlan
GpuContentionComputeModel::ChooseThreads(ThreadPolicy policy,
                                         uint32_t fixedThreads,
                                         const GpuContentionModel& model,
                                         const std::vector<GpuContentionModel::Layer>& layers,
                                         const ThreadAllocPlan& groups)
{
    if (policy == DP)
    {
        // The paper's R, less the counts these parameters cannot run (no speed or rate left).
        ThreadAllocDp::Config config;
        std::vector<uint32_t> usable;
        for (uint32_t r : config.threads)
        {
            try
            {
                model.CheckThreads(r);
                usable.push_back(r);
            }
            catch (const std::invalid_argument&)
            {
            }
        }
        if (usable.empty())
        {
            throw JobAttributeError("GpuThreadPolicy",
                                    "dp: no thread count of R = {128, ..., 4096} "
                                    "leaves the parameters (" +
                                        model.GetParams().source + ") a positive speed and rate");
        }
        config.threads = usable;
        try
        {
            ThreadAllocDp dp(model, config);
            return dp.SolveFixedFusion(layers, groups).plan;
        }
        catch (const std::exception& e)
        {
            throw JobAttributeError("GpuThreadPolicy", std::string("dp: ") + e.what());
        }
    }
    try
    {
        model.CheckThreads(fixedThreads);
    }
    catch (const std::invalid_argument& e)
    {
        throw JobAttributeError("GpuThreads", e.what());
    }
    if (policy == SE && groups.GetGroupCount() != 1)
    {
        double bytes = 0;
        for (const auto& l : layers)
        {
            bytes += l.bytes;
        }
        throw JobAttributeError(
            "GpuThreadPolicy",
            "se (SE) all-reduces once, after the whole backward pass, but the "
            "worker's fusion makes " +
                std::to_string(groups.GetGroupCount()) +
                " groups; set FusionBytes to at least the model's gradient bytes (" +
                std::to_string(static_cast<uint64_t>(bytes)) + ")");
    }
    return groups.WithThreads(fixedThreads);
}

void
GpuContentionComputeModel::Configure(const GpuContentionParams& params,
                                     const std::vector<uint32_t>& pieceThreads,
                                     Ptr<InaHost> host)
{
    GpuContentionModel check(params, 1);
    for (uint32_t r : pieceThreads)
    {
        try
        {
            check.CheckThreads(r);
        }
        catch (const std::invalid_argument& e)
        {
            throw JobAttributeError("GpuThreads", e.what());
        }
    }
    m_params = params;
    m_pieceThreads = pieceThreads;
    m_host = host;
    m_layers = static_cast<uint32_t>(GetModel().layers.size());
    m_outstanding.assign(m_pieceThreads.size(), false);
    m_lastPs = Simulator::Now().GetTimeStep();
}

GpuContentionParams
GpuContentionComputeModel::LoadParams() const
{
    if (m_fileName.empty())
    {
        return GpuContentionParams::Illustrative();
    }
    try
    {
        return GpuContentionParams::Load(m_fileName);
    }
    catch (const std::exception& e)
    {
        throw JobAttributeError("GpuParams", e.what());
    }
}

std::vector<uint32_t>
GpuContentionComputeModel::PlanThreads(Ptr<WorkerApp> worker, const GpuContentionParams& params)
{
    TrainingJob* job = worker->GetJob();
    const auto nodes = static_cast<uint32_t>(job->GetContext().workerHosts.size());
    const ModelSpec& spec = GetModel();
    const bool ring = DynamicCast<RingAllReduceProtocol>(job->GetProtocol()) != nullptr;
    const GpuContentionModel::Collective collective =
        ring ? GpuContentionModel::RING : GpuContentionModel::IN_NETWORK;
    m_collective = ring ? "ring"
                        : "ina (a = ina_startup, c^ = c: an extrapolation, the paper covers "
                          "ring all-reduce only)";
    GpuContentionModel model(params, std::max<uint32_t>(nodes, 1), collective);
    std::vector<GpuContentionModel::Layer> layers;
    for (uint32_t l = static_cast<uint32_t>(spec.layers.size()); l-- > 0;)
    {
        layers.push_back(
            {BackwardTime(l, 0).GetSeconds(), static_cast<double>(spec.layers[l].gradientBytes)});
    }
    std::vector<uint32_t> pieceGroup;
    const ThreadAllocPlan groups = FusionGroups(spec, worker->GetPlan(), m_threads, &pieceGroup);
    m_plan = ChooseThreads(static_cast<ThreadPolicy>(m_policy), m_threads, model, layers, groups);
    std::vector<uint32_t> pieceThreads;
    for (uint32_t g : pieceGroup)
    {
        pieceThreads.push_back(m_plan.GetGroups()[g].threads);
    }
    m_predictedS = model.BackwardS(m_plan.Tasks(layers));
    return pieceThreads;
}

void
GpuContentionComputeModel::Attach(Ptr<WorkerApp> worker)
{
    TrainingJob* job = worker->GetJob();
    // Every worker of a job has the same model, plan and attributes: the first one's choice
    // serves all, so a large job runs the DP once.
    Ptr<GpuContentionComputeModel> first;
    if (!job->GetWorkers().empty())
    {
        first = DynamicCast<GpuContentionComputeModel>(job->GetWorkers()[0]->GetComputeModel());
    }
    GpuContentionParams params;
    std::vector<uint32_t> pieceThreads;
    if (first)
    {
        params = first->m_params;
        m_plan = first->m_plan;
        pieceThreads = first->m_pieceThreads;
        m_collective = first->m_collective;
        m_predictedS = first->m_predictedS;
    }
    else
    {
        try
        {
            params = LoadParams();
            pieceThreads = PlanThreads(worker, params);
        }
        catch (const std::invalid_argument& e)
        {
            // A scenario reports runtime errors with the job's key; logic errors would escape it.
            throw JobAttributeError("ComputeModel", std::string("gpu-contention: ") + e.what());
        }
    }
    Ptr<InaHost> host = worker->GetAgent()->GetHost();
    if (!host->SetInjectionRateCap(0))
    {
        throw JobAttributeError("ComputeModel",
                                "gpu-contention paces the host's NIC (LIBRA's "
                                "injection cap), which the p2p link model has not: use link: "
                                "fast");
    }
    Configure(params, pieceThreads, host);
}

template<typename T>
T&
GpuContentionComputeModel::At(std::vector<T>& v, uint32_t i)
{
    if (v.size() <= i)
    {
        v.resize(i + 1, T());
    }
    return v[i];
}

void
GpuContentionComputeModel::Advance()
{
    const int64_t now = Simulator::Now().GetTimeStep();
    const int64_t dt = now - m_lastPs;
    if (dt > 0)
    {
        if (m_running)
        {
            m_workPs = std::max(0.0, m_workPs - static_cast<double>(dt) * m_speed);
        }
        if (m_resident > 0)
        {
            m_residentPs += dt;
            m_capBitPs += static_cast<double>(dt) * static_cast<double>(m_capBps);
            At(m_residentS, m_commIteration) += static_cast<double>(dt) * 1e-12;
        }
    }
    m_lastPs = now;
}

void
GpuContentionComputeModel::Reschedule()
{
    m_event.Cancel();
    m_event = Simulator::Schedule(TimeStep(std::llround(m_workPs / m_speed)),
                                  &GpuContentionComputeModel::LayerDone,
                                  this);
}

void
GpuContentionComputeModel::UpdateCap()
{
    uint64_t cap = 0;
    if (m_resident > 0)
    {
        const GpuContentionParams::RateCurve& curve =
            m_computing ? m_params.overlapped : m_params.alone;
        cap = static_cast<uint64_t>(std::llround(curve.Rate(m_resident) * 8.0));
    }
    if (cap != m_capBps)
    {
        m_capBps = cap;
        if (m_host)
        {
            m_host->SetInjectionRateCap(cap);
        }
    }
}

void
GpuContentionComputeModel::UpdateResident()
{
    const uint32_t r = m_outstandingCount == 0 ? 0 : m_pieceThreads[m_oldest];
    if (r != m_resident)
    {
        m_resident = r;
        m_speed = m_params.ComputeSpeed(r);
        if (m_running)
        {
            Reschedule();
        }
    }
    UpdateCap();
}

void
GpuContentionComputeModel::StartLayer(Pass pass,
                                      uint32_t layer,
                                      uint32_t iteration,
                                      Callback<void> done)
{
    Advance();
    const int64_t now = Simulator::Now().GetTimeStep();
    m_done = done;
    m_pass = pass;
    m_layer = layer;
    m_layerIteration = iteration;
    ++m_layerSeq;
    const Time t = pass == FORWARD ? ForwardTime(layer, iteration) : BackwardTime(layer, iteration);
    m_standalonePs = t.GetTimeStep();
    m_workPs = static_cast<double>(m_standalonePs);
    m_layerStartPs = now;
    m_running = true;
    m_computing = true;
    if (pass == BACKWARD && layer + 1 == m_layers)
    {
        m_statIteration = iteration;
        m_backwardStartPs = now;
        m_backwardComputed = false;
        m_piecesEnded = 0;
    }
    Reschedule();
    UpdateCap();
}

void
GpuContentionComputeModel::CancelLayer()
{
    m_event.Cancel();
    m_running = false;
    m_computing = false;
}

void
GpuContentionComputeModel::LayerDone()
{
    Advance();
    const int64_t now = Simulator::Now().GetTimeStep();
    m_running = false;
    m_workPs = 0;
    At(m_slowdownS, m_layerIteration) +=
        static_cast<double>(now - m_layerStartPs - m_standalonePs) * 1e-12;
    if (m_pass == BACKWARD && m_layer == 0 && m_backwardStartPs >= 0)
    {
        At(m_backwardComputeS, m_statIteration) =
            static_cast<double>(now - m_backwardStartPs) * 1e-12;
        m_backwardComputed = true;
        MaybeBackwardEnd();
    }
    // WorkerApp hands what a backward layer readied and then starts the next backward layer at
    // the same instant: those pieces' first packets see a GPU that is still computing.
    m_computing = m_pass == BACKWARD && m_layer > 0;
    UpdateCap();
    const uint64_t seq = m_layerSeq;
    Callback<void> done = m_done; // `done` usually starts the next layer, replacing m_done
    done();
    if (m_layerSeq == seq)
    {
        m_computing = false;
        UpdateCap();
    }
}

void
GpuContentionComputeModel::MaybeBackwardEnd()
{
    if (m_backwardComputed && m_backwardStartPs >= 0 && m_piecesEnded == m_pieceThreads.size())
    {
        At(m_backwardS, m_statIteration) =
            static_cast<double>(Simulator::Now().GetTimeStep() - m_backwardStartPs) * 1e-12;
        m_backwardStartPs = -1;
    }
}

void
GpuContentionComputeModel::CommunicationStarted(uint32_t iteration, uint32_t piece)
{
    NS_ABORT_MSG_IF(piece >= m_outstanding.size(),
                    "GpuContentionComputeModel: piece " << piece << " of " << m_outstanding.size());
    Advance();
    if (iteration != m_commIteration)
    {
        NS_ABORT_MSG_IF(m_outstandingCount != 0,
                        "GpuContentionComputeModel: iteration "
                            << iteration << " communicates while " << m_outstandingCount
                            << " pieces of iteration " << m_commIteration << " are outstanding");
        m_commIteration = iteration;
    }
    NS_ABORT_MSG_IF(m_outstanding[piece],
                    "GpuContentionComputeModel: piece " << piece << " handed twice");
    m_outstanding[piece] = true;
    if (m_outstandingCount++ == 0 || piece < m_oldest)
    {
        m_oldest = piece;
    }
    UpdateResident();
}

void
GpuContentionComputeModel::CommunicationEnded(uint32_t iteration, uint32_t piece)
{
    NS_ABORT_MSG_IF(iteration != m_commIteration || piece >= m_outstanding.size() ||
                        !m_outstanding[piece],
                    "GpuContentionComputeModel: piece " << piece << " of iteration " << iteration
                                                        << " ended but was not outstanding");
    Advance();
    m_outstanding[piece] = false;
    if (--m_outstandingCount > 0)
    {
        while (!m_outstanding[m_oldest])
        {
            ++m_oldest;
        }
    }
    if (iteration == m_statIteration)
    {
        ++m_piecesEnded;
        MaybeBackwardEnd();
    }
    UpdateResident();
}

ComputeModel::Report
GpuContentionComputeModel::GetReport() const
{
    Report r;
    const std::string params = m_fileName.empty()
                                   ? "ILLUSTRATIVE (inasim spec C.6; the paper publishes no fits)"
                                   : m_fileName;
    const char* policy = PolicyName(static_cast<ThreadPolicy>(m_policy));
    r.line = std::string("gpu-contention: parameters ") +
             (m_fileName.empty() ? "ILLUSTRATIVE" : m_fileName) + ", policy " + policy +
             ", threads per group " + m_plan.ThreadsString() + ", collective " +
             m_collective.substr(0, m_collective.find(' '));
    r.text = {{"model", "gpu-contention"},
              {"params", params},
              {"params_values", m_params.Summary()},
              {"policy", policy},
              {"collective", m_collective},
              {"threads", m_plan.ThreadsString()},
              {"groups_layers", m_plan.LayersString()}};
    r.values = {{"groups", static_cast<double>(m_plan.GetGroupCount())},
                {"predicted_backward_s", m_predictedS},
                {"mean_injection_cap_gbps",
                 m_residentPs > 0 ? m_capBitPs / static_cast<double>(m_residentPs) / 1e9 : 0.0}};
    r.perIteration = {{"backward_s", m_backwardS},
                      {"backward_compute_s", m_backwardComputeS},
                      {"compute_slowdown_s", m_slowdownS},
                      {"kernel_resident_s", m_residentS}};
    return r;
}

uint32_t
GpuContentionComputeModel::GetResidentThreads() const
{
    return m_resident;
}

double
GpuContentionComputeModel::GetComputeSpeed() const
{
    return m_speed;
}

uint64_t
GpuContentionComputeModel::GetInjectionCapBps() const
{
    return m_capBps;
}

const ThreadAllocPlan&
GpuContentionComputeModel::GetThreadPlan() const
{
    return m_plan;
}

const GpuContentionParams&
GpuContentionComputeModel::GetParams() const
{
    return m_params;
}

} // namespace ns3
