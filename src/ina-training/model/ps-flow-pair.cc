/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ps-flow-pair.h"

namespace ns3
{

PsFlowPair
PsFlowPair::Open(Ptr<InaHost> worker,
                 Ptr<InaHost> server,
                 uint32_t flowId,
                 uint32_t jobId,
                 const ObjectFactory& senders,
                 const ObjectFactory& receivers)
{
    PsFlowPair f;
    f.pushRx = receivers.Create<InaTransportReceiver>();
    f.pushRx->Listen(server, server->AllocateEndpoint(), flowId);
    f.pullRx = receivers.Create<InaTransportReceiver>();
    f.pullRx->Listen(worker, worker->AllocateEndpoint(), flowId + 1);
    f.push = senders.Create<InaTransportSender>();
    f.push->Connect(worker,
                    worker->AllocateEndpoint(),
                    server->GetAddress(),
                    f.pushRx->GetLocalPort(),
                    flowId,
                    jobId);
    f.pull = senders.Create<InaTransportSender>();
    f.pull->Connect(server,
                    server->AllocateEndpoint(),
                    worker->GetAddress(),
                    f.pullRx->GetLocalPort(),
                    flowId + 1,
                    jobId);
    return f;
}

} // namespace ns3
