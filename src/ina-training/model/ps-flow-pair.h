/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PS_FLOW_PAIR_H
#define PS_FLOW_PAIR_H

#include "ns3/ina-host.h"
#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"
#include "ns3/object-factory.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-training
 * The two reliable flows between a worker and one parameter-server shard: the worker's pushes,
 * received at the server, and the server's answers, received at the worker. The sharded PS
 * (ShardedPsProtocol) and Libra's cold shards open them the same way, each end on a new endpoint
 * of its host.
 */
struct PsFlowPair
{
    Ptr<InaTransportSender> push;     //!< at the worker
    Ptr<InaTransportReceiver> pushRx; //!< at the server
    Ptr<InaTransportSender> pull;     //!< at the server: its answers
    Ptr<InaTransportReceiver> pullRx; //!< at the worker

    /**
     * Open both flows: the pushes as flow `flowId`, the answers as `flowId` + 1, both of job
     * `jobId`. Endpoints are taken in a fixed order (the server's receiver, the worker's, then
     * the worker's sender, the server's), so a fabric's endpoint numbers do not depend on who
     * opens them.
     * \param worker the worker's host
     * \param server the server's host
     * \param flowId the push flow's id
     * \param jobId InaPacket::jobId of their packets
     * \param senders makes the two senders (the transport's settings)
     * \param receivers makes the two receivers
     * \return the flows
     * \throws std::invalid_argument if a sender refuses its connection (InaTransportSender::
     *         Connect)
     */
    static PsFlowPair Open(Ptr<InaHost> worker,
                           Ptr<InaHost> server,
                           uint32_t flowId,
                           uint32_t jobId,
                           const ObjectFactory& senders,
                           const ObjectFactory& receivers);
};

} // namespace ns3

#endif /* PS_FLOW_PAIR_H */
