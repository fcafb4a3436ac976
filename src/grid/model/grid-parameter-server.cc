/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-parameter-server.h"

#include "ns3/ina-host.h"
#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GridParameterServer");
NS_OBJECT_ENSURE_REGISTERED(GridParameterServer);

TypeId
GridParameterServer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GridParameterServer")
                            .SetParent<PoolParameterServer>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<GridParameterServer>();
    return tid;
}

void
GridParameterServer::SetResultTargets(const std::vector<InaAddress>& targets,
                                      const std::vector<uint32_t>& flows)
{
    if (targets.empty())
    {
        throw std::invalid_argument("GridParameterServer: no result target (each aggregation "
                                    "node, switch or direct worker, needs one)");
    }
    if (!flows.empty() && flows.size() != targets.size())
    {
        throw std::invalid_argument("GridParameterServer: " + std::to_string(flows.size()) +
                                    " result flows for " + std::to_string(targets.size()) +
                                    " targets");
    }
    m_targets = targets;
    m_flows = flows;
    m_flows.resize(targets.size(), 0);
}

const std::vector<InaAddress>&
GridParameterServer::GetResultTargets() const
{
    return m_targets;
}

void
GridParameterServer::SetEpoch(uint8_t epoch)
{
    m_epoch = epoch;
}

uint64_t
GridParameterServer::GetStaleEpochDrops() const
{
    return m_staleEpoch;
}

void
GridParameterServer::Receive(InaPacket* p, uint32_t port)
{
    const PoolHeader* h = p->Header<PoolHeader>();
    if (p->protocol == m_config.protocol && p->jobId == m_config.jobId &&
        (h->flags & PoolHeader::FLAG_ACK) == 0 && h->reserved != m_epoch)
    {
        ++m_staleEpoch;
        m_config.host->GetPool().Free(p);
        return;
    }
    PoolParameterServer::Receive(p, port);
}

void
GridParameterServer::SendResult(InaPacket* p, uint32_t slot)
{
    NS_ABORT_MSG_IF(m_targets.empty(), "GridParameterServer: SetResultTargets was not called");
    // ATP's SendResult fills the result and sends it to m_config.resultGroup: point it at each
    // aggregation node in turn, the last one taking the original packet.
    InaPacketPool& pool = m_config.host->GetPool();
    if (m_jobResultFlow == 0)
    {
        m_jobResultFlow = m_config.resultFlowId;
    }
    for (std::size_t i = 0; i < m_targets.size(); ++i)
    {
        InaPacket* copy = i + 1 < m_targets.size() ? pool.Clone(p) : p;
        m_config.resultGroup = m_targets[i];
        m_config.resultFlowId = m_flows[i] != 0 ? m_flows[i] : m_jobResultFlow;
        PoolParameterServer::SendResult(copy, slot);
    }
}

} // namespace ns3
