/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_CONTROLLER_H
#define GRID_CONTROLLER_H

#include "grid-fair-rates.h"
#include "grid-plan.h"

#include "ns3/ina-fabric.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class GridProtocol;

/**
 * \ingroup grid
 * GRID's network controller at packet level (GRID paper, Sec. 3.4 step 1: it "calculates the
 * gradient routing policy and publishes the policy to workers and programmable switches") for
 * every job of GRID's data plane on one fabric (grid, and the baselines geryon and switchml-ps),
 * re-planning them online: when a job starts while others run, when a job ends while others run,
 * and when the fabric's routing converged around failed links (InaFabric's RoutesChanged, after
 * InaFaultInjector's detection delay).
 *
 * A re-plan (*interpretation*: the paper publishes one policy per task and says nothing of
 * several tasks or of failures):
 * - each job keeps its aggregation nodes (its plan's assignment, made when it was installed)
 *   while it can reach them: changing a running job's tree costs every fragment in flight
 *   (GridProtocol::Reassign);
 * - its routes are computed again on the links that are up (GridProblem with failed links) and
 *   pinned again: workers' paths, aggregates' paths to the PS, results to direct workers, the
 *   switches' result multicast trees;
 * - the rates of the running jobs are the max-min fair share of what they share (GridFairRates:
 *   each switch's C_s, each link direction; each job's own NICs and PS ingress), installed as
 *   the workers' NIC caps (Pace). One job alone gets its plan's rate exactly.
 * A job whose workers can no longer reach an aggregation node (a failed switch, a cut link with
 * no way round) is planned anew without it (GridProtocol::PlanAgain: its own planner on the
 * links that are up; with no programmable switch left, every worker to the PS) and its new tree
 * installed under it (GridProtocol::Reassign, the next plan epoch); with no plan at all (a worker
 * that reaches neither the PS nor a switch that does) the job ends at once, every worker giving
 * up with the reason (GridProtocol::Abandon), and is reported as stranded.
 *
 * Each re-plan is recorded: the simulated time it applied, what triggered it, the wall time of
 * the computation, and the rate each running job got.
 */
class GridController : public Object
{
  public:
    /// One re-plan.
    struct Replan
    {
        Time at;                       //!< simulated time it applied
        std::string trigger;           //!< "start J", "end J", "routes: N links down"
        double wallS = 0;              //!< wall time of computing and installing it
        std::vector<std::string> jobs; //!< the running jobs it planned
        std::vector<double> rateBps;   //!< their rates, same order
        /// jobs with no route to their aggregation nodes and no new plan: ended, with why
        std::vector<std::string> stranded;
        /// jobs cut off from their aggregation nodes and planned anew: why, and the new nodes
        std::vector<std::string> reassigned;
    };

    static TypeId GetTypeId();

    /**
     * The controller of a fabric, made (and aggregated to it) on first use.
     * \param fabric the fabric
     * \return its controller
     */
    static Ptr<GridController> Of(Ptr<InaFabric> fabric);

    /**
     * A job installed on the fabric; it starts at `start` (its workers' start).
     * \param job the job's protocol (unregisters itself when disposed)
     * \param start when its workers start
     */
    void AddJob(GridProtocol* job, Time start);
    /// The job is gone (disposed): it is forgotten without a re-plan.
    void RemoveJob(GridProtocol* job);
    /// The job's last worker is done (GridProtocol::NotifyJobEnded).
    void JobEnded(GridProtocol* job);

    /// \return every re-plan so far
    const std::vector<Replan>& GetReplans() const;

  protected:
    void DoDispose() override;

  private:
    struct Entry
    {
        GridProtocol* job = nullptr;
        bool started = false;
        bool ended = false;
    };

    /// A job's streams on the routes of now.
    struct Planned
    {
        GridProtocol* job = nullptr;
        bool running = false;    //!< started, not ended
        GridPlan plan;           //!< its assignment on the routes of now, at its own rate
        GridFairRates::Job load; //!< what it puts on the shared resources
        bool reassign = false;   //!< `plan` is a new assignment (GridProtocol::Reassign)
    };

    void JobStarted(GridProtocol* job);
    /**
     * Evaluate one job's assignment on the routes that avoid `failed`, adding the resources it
     * uses (link directions 0 .. 2L-1 on the first call, then switches by node).
     * \param assignment the target of each worker (GridPlan::Assignment)
     * \return false, with `why`, if a stream has no route
     */
    bool PlanStreams(const Entry& e,
                     const std::vector<bool>& failed,
                     const std::vector<uint32_t>& assignment,
                     std::vector<double>& capacity,
                     std::map<uint32_t, uint32_t>& switchResource,
                     Planned& out,
                     std::string& why) const;
    void RoutesChanged();
    /// Re-plan every job not ended (routes), the running ones' rates.
    void ReplanAll(const std::string& trigger);
    Entry* Find(GridProtocol* job);
    /// \return "s2 3 workers, PS 2 direct": where a plan aggregates
    static std::string DescribeAssignment(const GridProtocol& job, const GridPlan& plan);
    /// \return whether some job other than `job` runs
    bool OthersRunning(const GridProtocol* job) const;

    std::vector<Entry> m_jobs; //!< in the order they were added
    std::vector<Replan> m_replans;
};

} // namespace ns3

#endif /* GRID_CONTROLLER_H */
