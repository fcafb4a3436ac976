/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TREE_LINK_LOAD_H
#define TREE_LINK_LOAD_H

#include "ns3/ina-fabric.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * How many of one job's upward aggregation streams (a worker to its first aggregating switch, a
 * rack's partial aggregates to the next level, a group to its parameter server) cross each link
 * direction, and the rate each of them can count on.
 *
 * A self-clocked window sized to a stream's bandwidth-delay product (SwitchML's pool, paper
 * Section 3.6; ATP's first window) assumes the stream has its links to itself. In a two-level tree
 * the partials of several racks can converge on one link before the level that merges them: the
 * aggregation switch between the ToRs of a pod and a core root forwards the partials of all the
 * pod's racks on its one link to that core. Those streams advance together (a slot or fragment
 * completes at the root only when every rack's partial has arrived), so each gets the link's rate
 * over their number, and a window of that share times the round trip keeps their sum within the
 * link's bandwidth-delay product instead of piling it into the link's queue.
 *
 * Paths are the ones the switches take: InaRoutingTable::SelectPort with the stream's flow id and
 * the fabric's ECMP seed.
 */
class TreeLinkLoad
{
  public:
    explicit TreeLinkLoad(Ptr<const InaFabric> fabric);

    /// Count a stream from node `from` to node `to` (host or switch) with flow id `flowId`.
    void AddStream(uint32_t from, uint32_t to, uint32_t flowId);

    /// The smallest link rate over its number of streams along that stream's path, bits/s.
    double ShareBps(uint32_t from, uint32_t to, uint32_t flowId) const;

    /// The most streams any link direction carries (1 when nothing is shared, 0 when empty).
    uint32_t GetMaxStreams() const;

  private:
    /// (link index, direction) of each hop: direction 0 from Link::a to Link::b, 1 back.
    std::vector<std::pair<uint32_t, uint32_t>> Path(uint32_t from,
                                                    uint32_t to,
                                                    uint32_t flowId) const;

    Ptr<const InaFabric> m_fabric;
    std::unordered_map<uint64_t, uint32_t> m_streams; //!< 2 * link + direction -> streams
};

} // namespace ns3

#endif /* TREE_LINK_LOAD_H */
