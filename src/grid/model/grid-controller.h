/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_CONTROLLER_H
#define GRID_CONTROLLER_H

#include "grid-controlled-job.h"
#include "grid-fair-rates.h"

#include "ns3/ina-fabric.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * GRID's network controller at packet level (GRID paper, Sec. 3.4 step 1: it "calculates the
 * gradient routing policy and publishes the policy to workers and programmable switches") for
 * every job of GRID's data plane on one fabric (grid, and the baselines geryon and switchml-ps)
 * and every job of ATP paced at its rate model (atp-paced), re-planning them online: when a job
 * starts while others run, when a job ends while others run, and when the fabric's routing
 * converged around failed links (InaFabric's RoutesChanged, after InaFaultInjector's detection
 * delay). Each job is a GridControlledJob: it says what it puts on the fabric, the controller
 * shares, the job installs its rate.
 *
 * A re-plan (*interpretation*: the paper publishes one policy per task and says nothing of
 * several tasks or of failures); for GRID's data plane (GridProtocol::Prepare):
 * - each job keeps its aggregation nodes (its plan's assignment, made when it was installed)
 *   while it can reach them: changing a running job's tree costs every fragment in flight
 *   (GridProtocol::Reassign);
 * - its routes are computed again on the links that are up (GridProblem with failed links) and
 *   pinned again: workers' paths, aggregates' paths to the PS, results to direct workers, the
 *   switches' result multicast trees;
 * - the rates of the running jobs are the max-min fair share of what they share (GridFairRates:
 *   each switch's C_s, each link direction; each job's own NICs and PS ingress), installed as
 *   the workers' NIC caps (Pace). One job alone gets its plan's rate exactly.
 * atp-paced's placement is ATP's (its racks, the fabric's routes), so only its rate changes: its
 * load is its rate model's at its own rate alone (AtpPacedProtocol::Prepare).
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
    void AddJob(GridControlledJob* job, Time start);
    /// The job is gone (disposed): it is forgotten without a re-plan.
    void RemoveJob(GridControlledJob* job);
    /// The job's last worker is done (its protocol's NotifyJobEnded).
    void JobEnded(GridControlledJob* job);

    /// \return every re-plan so far
    const std::vector<Replan>& GetReplans() const;

  protected:
    void DoDispose() override;

  private:
    struct Entry
    {
        GridControlledJob* job = nullptr;
        bool started = false;
        bool ended = false;
    };

    /// A job prepared for a re-plan, its load on the controller's resources.
    struct Planned
    {
        GridControlledJob* job = nullptr;
        bool running = false;    //!< started, not ended
        double aloneBps = 0;     //!< its rate alone (a job not started yet gets it)
        GridFairRates::Job load; //!< what it puts on the shared resources
    };

    void JobStarted(GridControlledJob* job);
    /**
     * Map a job's load onto the resources: link directions 0 .. 2L-1 (added on the first call),
     * then switches by node (C_s the smallest any job plans with, should they differ).
     */
    static Planned Share(const Entry& e,
                         const GridControlledJob::Load& load,
                         std::vector<double>& capacity,
                         std::map<uint32_t, uint32_t>& switchResource);
    void RoutesChanged();
    /// Re-plan every job not ended (routes), the running ones' rates.
    void ReplanAll(const std::string& trigger);
    Entry* Find(GridControlledJob* job);
    /// \return whether some job other than `job` runs
    bool OthersRunning(const GridControlledJob* job) const;

    std::vector<Entry> m_jobs; //!< in the order they were added
    std::vector<Replan> m_replans;
};

} // namespace ns3

#endif /* GRID_CONTROLLER_H */
