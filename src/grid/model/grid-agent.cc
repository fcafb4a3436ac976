/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "grid-agent.h"

#include "grid-program.h"
#include "grid-protocol.h"

#include "ns3/ina-host.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("GridAgent");
NS_OBJECT_ENSURE_REGISTERED(GridAgent);

TypeId
GridAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::GridAgent")
                            .SetParent<PoolAgent>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<GridAgent>();
    return tid;
}

const GridAgent::GridCounters&
GridAgent::GetGridCounters() const
{
    return m_grid;
}

void
GridAgent::Receive(InaPacket* p, uint32_t port)
{
    const PoolHeader* h = p->Header<PoolHeader>();
    if ((h->flags & (GridProgram::FLAG_NOTICE | PoolHeader::FLAG_ACK)) !=
            GridProgram::FLAG_NOTICE ||
        p->protocol != GRID_PROTOCOL || p->jobId != GetContext().jobId)
    {
        PoolAgent::Receive(p, port);
        return;
    }
    const uint64_t seq = p->seq;
    GetHost()->GetPool().Free(p);
    ++m_grid.notices;
    if (seq == 0 || seq >= GetNextSeq() || IsDone(seq) || m_resent[seq & 0xffff] != 0)
    {
        ++m_grid.staleNotices;
        return;
    }
    HalveWindow();
    SendFragment(seq, false);
    ++m_grid.noticeResends;
}

uint16_t
GridAgent::IndexOf(uint64_t seq) const
{
    if (m_hashMode < 0)
    {
        Ptr<GridProtocol> grid = DynamicCast<GridProtocol>(m_protocol);
        m_hashMode = grid && grid->GetHashFragments() ? 1 : 0;
        m_range = m_protocol->GetHashRange();
    }
    if (m_hashMode == 0)
    {
        return PoolAgent::IndexOf(seq);
    }
    const uint32_t words[2] = {GetContext().jobId, static_cast<uint32_t>(seq)};
    uint8_t bytes[8];
    for (int w = 0; w < 2; ++w)
    {
        for (int b = 0; b < 4; ++b)
        {
            bytes[4 * w + b] = static_cast<uint8_t>(words[w] >> (8 * b));
        }
    }
    return static_cast<uint16_t>(PoolProtocol::Crc32(bytes, sizeof(bytes)) % m_range);
}

void
GridAgent::SendFragment(uint64_t seq, bool resend)
{
    if (m_resent.empty())
    {
        m_resent.assign(1u << 16, 0);
    }
    m_resent[seq & 0xffff] = resend ? 1 : 0;
    PoolAgent::SendFragment(seq, resend);
}

} // namespace ns3
