/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "compute-model.h"

#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(ComputeModel);

TypeId
ComputeModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::ComputeModel").SetParent<Object>().SetGroupName("InaTraining");
    return tid;
}

void
ComputeModel::DoDispose()
{
    m_event.Cancel();
    m_done = Callback<void>();
    Object::DoDispose();
}

void
ComputeModel::Attach(Ptr<WorkerApp> worker)
{
}

void
ComputeModel::StartLayer(Pass pass, uint32_t layer, uint32_t iteration, Callback<void> done)
{
    m_done = done;
    const Time t = pass == FORWARD ? ForwardTime(layer, iteration) : BackwardTime(layer, iteration);
    m_event = Simulator::Schedule(t, &ComputeModel::DefaultLayerDone, this);
}

void
ComputeModel::CancelLayer()
{
    m_event.Cancel();
}

void
ComputeModel::DefaultLayerDone()
{
    // A copy: `done` usually starts the next layer, which replaces m_done.
    Callback<void> done = m_done;
    done();
}

void
ComputeModel::CommunicationStarted(uint32_t iteration, uint32_t piece)
{
}

void
ComputeModel::CommunicationEnded(uint32_t iteration, uint32_t piece)
{
}

ComputeModel::Report
ComputeModel::GetReport() const
{
    return Report();
}

} // namespace ns3
