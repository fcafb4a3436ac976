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
                            .SetParent<AtpParameterServer>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<GridParameterServer>();
    return tid;
}

GridParameterServer::GridParameterServer() = default;
GridParameterServer::~GridParameterServer() = default;

void
GridParameterServer::SetResultTargets(const std::vector<InaAddress>& targets)
{
    if (targets.empty())
    {
        throw std::invalid_argument("GridParameterServer: no result target (each aggregation "
                                    "node, switch or direct worker, needs one)");
    }
    m_targets = targets;
}

const std::vector<InaAddress>&
GridParameterServer::GetResultTargets() const
{
    return m_targets;
}

void
GridParameterServer::SendResult(InaPacket* p, uint32_t slot)
{
    NS_ABORT_MSG_IF(m_targets.empty(), "GridParameterServer: SetResultTargets was not called");
    // ATP's SendResult fills the result and sends it to m_config.resultGroup: point it at each
    // aggregation node in turn, the last one taking the original packet.
    InaPacketPool& pool = m_config.host->GetPool();
    for (std::size_t i = 0; i < m_targets.size(); ++i)
    {
        InaPacket* copy = i + 1 < m_targets.size() ? pool.Clone(p) : p;
        m_config.resultGroup = m_targets[i];
        AtpParameterServer::SendResult(copy, slot);
    }
}

} // namespace ns3
