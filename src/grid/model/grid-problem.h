/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_PROBLEM_H
#define GRID_PROBLEM_H

#include "ns3/ina-routing-table.h"
#include "ns3/ina-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * The input of GRID's planner (Fang et al., Sec. 4.1; inasim spec B.4 step 1): one job's workers
 * and parameter server (PS) on a topology, the programmable switches with their aggregation
 * capacities C_s, each worker's maximum rate T_n (its NIC: the rate of its host link), the PS
 * ingress bandwidth B_alpha (by default the rate of the PS's host link), the capacity of every
 * directed edge (a full-duplex link gives one edge each way at the link's rate) and a fixed route
 * between any two nodes.
 *
 * Aggregation nodes ("targets") are numbered 0 .. S-1 for the programmable switches, in the order
 * given, and S for the PS.
 *
 * Routes: the shortest path (hop count) with a fixed ECMP tie-break, built from
 * InaRoutingTable::NextHops: at every node toward `dst` the path takes
 * NextHops(node, dst)[EcmpHash(PathFlowId(src, dst), node, pathSeed) % size], i.e. what
 * InaRoutingTable::SelectPort gives a flow with that id, so the data plane can reproduce every
 * route with SelectPort or install it with PathPorts. The routes the planner uses (worker to
 * each target, switch to PS) are computed once here.
 *
 * Directed edge ids: 2 * link for the link's a -> b direction, 2 * link + 1 for b -> a.
 */
class GridProblem
{
  public:
    struct ProgrammableSwitch
    {
        uint32_t node = 0;      //!< a switch of the topology
        double capacityBps = 0; //!< C_s: aggregation capacity (sum of input rates), > 0
    };

    /**
     * \param topology the network (copied)
     * \param workers host nodes of the workers, distinct, in the job's rank order
     * \param ps host node of the PS, not a worker
     * \param programmable the switches that can aggregate, distinct
     * \param psIngressBps B_alpha; 0 means the rate of the PS's host link
     * \param pathSeed the ECMP tie-break seed of every route
     * \throws std::invalid_argument naming what is wrong: no workers, a worker or the PS not a
     * host or out of range, a repeated worker, the PS among the workers, a programmable node
     * that is a host or out of range or repeated, a capacity <= 0 or not finite, a negative or
     * non-finite B_alpha.
     * \param failedLinks per topology link, whether it has failed (empty: none): routes avoid
     * failed links (InaRoutingTable with failed links, as the fabric's routing converges around
     * them), their edges have capacity 0, and a target no route reaches is unreachable
     * (Reaches, SwitchReachesPs)
     */
    GridProblem(const InaTopology& topology,
                const std::vector<uint32_t>& workers,
                uint32_t ps,
                const std::vector<ProgrammableSwitch>& programmable,
                double psIngressBps = 0,
                uint64_t pathSeed = 0,
                const std::vector<bool>& failedLinks = {});

    const InaTopology& GetTopology() const
    {
        return m_routing.GetTopology();
    }

    const InaRoutingTable& GetRouting() const
    {
        return m_routing;
    }

    uint32_t GetNWorkers() const
    {
        return static_cast<uint32_t>(m_workers.size());
    }

    /// Node of worker i.
    uint32_t GetWorker(uint32_t i) const
    {
        return m_workers.at(i);
    }

    /// T_n of worker i: the rate of its host link.
    double GetWorkerRateBps(uint32_t i) const
    {
        return m_workerRate.at(i);
    }

    /// min over workers of T_n: no common rate can exceed it.
    double GetMinWorkerRateBps() const
    {
        return m_minWorkerRate;
    }

    uint32_t GetPs() const
    {
        return m_ps;
    }

    double GetPsIngressBps() const
    {
        return m_psIngress;
    }

    uint32_t GetNSwitches() const
    {
        return static_cast<uint32_t>(m_switches.size());
    }

    uint32_t GetSwitchNode(uint32_t j) const
    {
        return m_switches.at(j).node;
    }

    double GetSwitchCapacityBps(uint32_t j) const
    {
        return m_switches.at(j).capacityBps;
    }

    /// The target index of the PS (== GetNSwitches()).
    uint32_t GetPsTarget() const
    {
        return static_cast<uint32_t>(m_switches.size());
    }

    /// Node of target a (a switch for a < S, the PS for a == S).
    uint32_t GetTargetNode(uint32_t a) const;

    /// Switch index of a node, or -1 if it is not programmable.
    int32_t GetSwitchIndex(uint32_t node) const
    {
        return m_switchIndex.at(node);
    }

    uint32_t GetNEdges() const
    {
        return static_cast<uint32_t>(m_edgeCapacity.size());
    }

    double GetEdgeCapacityBps(uint32_t edge) const
    {
        return m_edgeCapacity.at(edge);
    }

    /**
     * Set what is left of a directed edge for this job (online re-planning: other jobs' plans
     * already use the rest). The routes do not change.
     * \param edge a directed edge (2 * link, or 2 * link + 1 for b -> a)
     * \param bps its capacity, >= 0 and finite
     * \throws std::invalid_argument for an unknown edge or a bad capacity
     */
    void SetEdgeCapacityBps(uint32_t edge, double bps);

    /// The node an edge leaves.
    uint32_t GetEdgeFrom(uint32_t edge) const;
    /// The node an edge enters.
    uint32_t GetEdgeTo(uint32_t edge) const;
    /// "a->b" with node names, for messages.
    std::string EdgeName(uint32_t edge) const;

    /**
     * Limit every aggregation node's fan-in to what the data plane can count: at most `maxFanIn`
     * workers per switch, and at most `maxFanIn` groups at the PS (PsGroups: each aggregating
     * switch one, the direct workers `maxFanIn` to a group). The paper's model has no such
     * limit; a data plane does (GRID's pool header carries 5-bit fan-in degrees and 32-bit
     * bitmaps), so a plan above it could not be installed.
     * \param maxFanIn the limit, or 0 for none (the default)
     */
    void SetMaxFanIn(uint32_t maxFanIn)
    {
        m_maxFanIn = maxFanIn;
    }

    /// The fan-in limit of every aggregation node, 0 if there is none.
    uint32_t GetMaxFanIn() const
    {
        return m_maxFanIn;
    }

    /// Whether `count` contributors fit an aggregation node's fan-in limit.
    bool FanInFits(uint32_t count) const
    {
        return m_maxFanIn == 0 || count <= m_maxFanIn;
    }

    /**
     * The PS's fan-in as the data plane counts it: one group per aggregating switch, and the
     * direct workers packed `maxFanIn` to a group (a direct worker is one bit of its group's
     * bitmap, as a worker is under its switch, so a group of them needs no switch). Without a
     * limit every stream counts.
     * \param direct workers sending straight to the PS
     * \param switches aggregating switches (each sends one aggregate stream)
     * \return the groups the PS tells apart
     */
    uint32_t PsGroups(uint32_t direct, uint32_t switches) const
    {
        return PsGroups(direct, switches, m_maxFanIn);
    }

    /**
     * PsGroups under a given limit: what a data plane checks a plan against (GridProtocol, whose
     * pool header counts PoolHeader::MAX_FAN_IN to a group) without its problem.
     * \param direct workers sending straight to the PS
     * \param switches aggregating switches
     * \param maxFanIn the limit, or 0 for none
     * \return the groups the PS tells apart
     */
    static uint32_t PsGroups(uint32_t direct, uint32_t switches, uint32_t maxFanIn)
    {
        if (maxFanIn == 0)
        {
            return direct + switches;
        }
        return switches + (direct + maxFanIn - 1) / maxFanIn;
    }

    /**
     * Count the results the data plane sends back as well as the gradients (an extension: the
     * paper's model counts no link at all, Sec. 4.1 "we assume the link bandwidth is
     * sufficient"; off by default). A direct worker's results come back along its path reversed,
     * a switch's from the PS along its aggregate's path reversed, and each switch multicasts them
     * to its workers on the tree InaRoutingTable::MulticastTree lays from it with `multicastSeed`
     * (what InaFabric::CreateMulticastGroup lays with the fabric's ECMP seed). Stream counting
     * (GridPlanner::Evaluate) loads each directed edge with those streams too, and the LP's link
     * rows with the first two (the multicast trees depend on the assignment, so the LP leaves
     * them out and stays a relaxation).
     * \param count whether to count them
     * \param multicastSeed the ECMP seed of the result multicast trees
     */
    void SetCountResults(bool count, uint64_t multicastSeed = 0)
    {
        m_countResults = count;
        m_multicastSeed = multicastSeed;
    }

    /// Whether the results are counted on the links (SetCountResults).
    bool CountsResults() const
    {
        return m_countResults;
    }

    /**
     * The directed edges of the tree that multicasts a switch's results to its workers.
     * \param root the switch
     * \param memberHosts its workers' hosts, in worker order (the tree depends on it)
     * \return every edge of the tree once, away from the root
     */
    std::vector<uint32_t> MulticastEdges(uint32_t root,
                                         const std::vector<uint32_t>& memberHosts) const;

    /// The edge into the PS (its host link, toward the PS).
    uint32_t GetPsEdge() const
    {
        return m_psEdge;
    }

    /// Whether worker i has a route to target a (always, unless links failed).
    bool Reaches(uint32_t i, uint32_t a) const
    {
        return m_workerReaches.at(static_cast<std::size_t>(i) * (m_switches.size() + 1) + a);
    }

    /// Whether switch j has a route to the PS (always, unless links failed).
    bool SwitchReachesPs(uint32_t j) const
    {
        return m_switchReaches.at(j);
    }

    /// Route (directed edges) of worker i to target a (empty if it does not reach it).
    const std::vector<uint32_t>& GetWorkerPath(uint32_t i, uint32_t a) const
    {
        return m_workerPaths.at(static_cast<std::size_t>(i) * (m_switches.size() + 1) + a);
    }

    /// Route (directed edges) of switch j's aggregate to the PS.
    const std::vector<uint32_t>& GetSwitchPath(uint32_t j) const
    {
        return m_switchPaths.at(j);
    }

    /**
     * The fixed route from src to dst as directed edges (empty when src == dst).
     * \throws std::runtime_error naming both nodes if no route joins them (failed links)
     */
    std::vector<uint32_t> RouteEdges(uint32_t src, uint32_t dst) const;
    /// The same route as nodes, src first and dst last.
    std::vector<uint32_t> RouteNodes(uint32_t src, uint32_t dst) const;

    /// The flow id of the route src -> dst in the ECMP tie-break: (src << 16) | dst.
    static uint32_t PathFlowId(uint32_t src, uint32_t dst)
    {
        return (src << 16) | (dst & 0xffffu);
    }

    uint64_t GetPathSeed() const
    {
        return m_pathSeed;
    }

  private:
    /// Whether the fixed route from src reaches dst over links that are up.
    bool Connected(uint32_t src, uint32_t dst) const;

    // The constructor's steps, in order; each throws std::invalid_argument naming what is wrong.
    /// Checks the topology's size, the workers and the PS; takes the workers' NIC rates.
    void SetWorkers(const InaTopology& topo);
    /// Checks the programmable switches and indexes them by node.
    void SetSwitches(const InaTopology& topo);
    /// Takes every directed edge's capacity (0 where `failedLinks` says down) and the PS ingress.
    void SetCapacities(const InaTopology& topo,
                       const std::vector<bool>& failedLinks,
                       double psIngressBps);
    /// Routes every worker to every target and every switch to the PS, where links allow.
    void SetPaths();

    InaRoutingTable m_routing;
    std::vector<uint32_t> m_workers;
    std::vector<double> m_workerRate;
    double m_minWorkerRate = 0;
    uint32_t m_ps = 0;
    double m_psIngress = 0;
    std::vector<ProgrammableSwitch> m_switches;
    std::vector<int32_t> m_switchIndex; //!< per node
    std::vector<double> m_edgeCapacity; //!< per directed edge
    uint32_t m_psEdge = 0;
    uint64_t m_pathSeed = 0;
    uint32_t m_maxFanIn = 0;                          //!< per aggregation node; 0: no limit
    bool m_countResults = false;                      //!< SetCountResults
    uint64_t m_multicastSeed = 0;                     //!< of the result multicast trees
    std::vector<std::vector<uint32_t>> m_workerPaths; //!< [i * (S + 1) + a]
    std::vector<std::vector<uint32_t>> m_switchPaths; //!< [j]
    std::vector<bool> m_workerReaches;                //!< [i * (S + 1) + a]
    std::vector<bool> m_switchReaches;                //!< [j]
};

} // namespace ns3

#endif /* GRID_PROBLEM_H */
