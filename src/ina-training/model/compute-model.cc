/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "compute-model.h"

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
ComputeModel::Attach(Ptr<WorkerApp> worker)
{
}

} // namespace ns3
