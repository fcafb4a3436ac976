/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_PARAMETER_SERVER_H
#define GRID_PARAMETER_SERVER_H

#include "ns3/pool-parameter-server.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * GRID's parameter server (doc/grid.rst, "Data plane"): ATP's (PoolParameterServer: one ring
 * slot per fragment, worker bitmaps so a switch's aggregate and a worker's own contribution are
 * never counted twice, the sum completed from aggregates, flushes and direct workers), except
 * that a completed fragment is returned once per aggregation node: one copy addressed to each
 * aggregating switch (which frees its unit and multicasts it to its workers) and one unicast to
 * each worker the PS aggregates itself.
 */
class GridParameterServer : public PoolParameterServer
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Where the results go: one address per aggregation node (a switch's node or a direct
     * worker's host). Throws std::invalid_argument when empty or when `flows` is neither empty
     * nor as long.
     * \param targets the addresses
     * \param flows per target the flow id of its results (0: the job's result flow); a direct
     *        worker's results take a flow pinned along its planned path, reversed
     */
    void SetResultTargets(const std::vector<InaAddress>& targets,
                          const std::vector<uint32_t>& flows = {});

    /// \return the result targets
    const std::vector<InaAddress>& GetResultTargets() const;

    /**
     * The job's plan epoch from now on (GridController's re-assignment; 0 at install): a gradient
     * sent under another epoch numbers its workers by groups that are gone, and is dropped.
     * \param epoch PoolHeader::reserved of the current tree's gradients
     */
    void SetEpoch(uint8_t epoch);

    /// \return gradients dropped for a stale epoch
    uint64_t GetStaleEpochDrops() const;

    /// Gradients of the current epoch go to ATP's server; others are dropped.
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    void SendResult(InaPacket* p, uint32_t slot) override;

  private:
    uint8_t m_epoch = 0;               //!< the current plan epoch
    uint64_t m_staleEpoch = 0;         //!< gradients dropped for another epoch
    std::vector<InaAddress> m_targets; //!< one per aggregation node
    std::vector<uint32_t> m_flows;     //!< per target: its results' flow id (0: the job's)
    uint32_t m_jobResultFlow = 0;      //!< the job's result flow id (read at the first result)
};

} // namespace ns3

#endif /* GRID_PARAMETER_SERVER_H */
