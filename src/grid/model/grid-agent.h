/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_AGENT_H
#define GRID_AGENT_H

#include "ns3/pool-agent.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * GRID's worker (doc/grid.rst, "Data plane"): ATP's (PoolAgent: fragment stream, window with +1 MTU
 * per window of results, loss recovery by timeout and fast retransmit) sending to the
 * aggregation node the planner chose, plus the reaction to a collision notice from a switch:
 * halve the window and send the named fragment again, as a first send (not a resend), so it can
 * claim the unit once it is free and be aggregated there.
 *
 * A notice is answered only if the fragment's last send was a first send: once a resend (timeout
 * or fast retransmit, ATP's FLAG_RESEND) followed it, the contribution is on its way to the PS
 * (a resend is flushed or passed, never held), and a first send after it could claim a unit
 * after the fragment completed and hold it forever. Fragments in flight are fewer than MaxWindow
 * <= 2^16, so seq mod 2^16 names them.
 *
 * The plan's rate (GridPlan::WorkerRoute::rateBps) caps the worker's NIC (GridProtocol's Pace);
 * the window still applies below it.
 */
class GridAgent : public PoolAgent
{
  public:
    /// What the agent counted besides PoolAgent's counters.
    struct GridCounters
    {
        uint64_t notices = 0;       //!< collision notices received
        uint64_t noticeResends = 0; //!< fragments sent again for a notice
        uint64_t staleNotices = 0;  //!< notices for fragments already done
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \return GRID's counters
    const GridCounters& GetGridCounters() const;

    // InaPacketSink: results and collision notices.
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    /// Records whether the last send of `seq` was a resend, then sends as ATP does.
    void SendFragment(uint64_t seq, bool resend) override;

    /// ATP's slot table, or CRC32(job id, low 32 bits of seq) mod the hash range (HashFragments).
    uint16_t IndexOf(uint64_t seq) const override;

  private:
    GridCounters m_grid;           //!< counters
    mutable int m_hashMode = -1;   //!< -1: not read yet, 0: slot table, 1: per fragment
    mutable uint32_t m_range = 1;  //!< hash range (per fragment)
    std::vector<uint8_t> m_resent; //!< by seq mod 2^16: the last send was a resend
};

} // namespace ns3

#endif /* GRID_AGENT_H */
