/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_PROTOCOL_H
#define GRID_PROTOCOL_H

#include "grid-controlled-job.h"
#include "grid-controller-membership.h"
#include "grid-plan.h"
#include "grid-planner.h"
#include "grid-problem.h"

#include "ns3/pool-protocol.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class GridAgent;

/**
 * \ingroup grid
 * GRID's data plane (doc/grid.rst, "Data plane") for one job, driven by GridPlanner: registered
 * as protocol "grid". GRID's switches work like ATP's (hashed aggregator units, fan-in from the
 * control plane, the aggregate to the PS on completion, a window per worker), so this is
 * PoolProtocol with GRID's assignment in place of ATP's rack trees:
 * - BuildTrees: a GridProblem of the job (its workers, its PS ctx.psHosts[0], the switches of the
 *   tiers in ctx.inaTiers with capacity SwitchCapacity), solved by GridPlanner; each switch of
 *   the plan with a fan-in is one level-1 group aggregated at that switch (any tier), each worker
 *   the plan sends to the PS is a group of its own (count 1); there is no level 2;
 * - GridProgram at each aggregating switch (its own protocol number): gradients addressed to the
 *   switch, collision notices instead of ATP's fallback, results multicast by the switch;
 * - GridParameterServer: one result per aggregation node;
 * - GridAgent: ATP's worker plus the notice reaction (halve, send the fragment again).
 *
 * Routes follow the plan: each worker's gradients take a flow of their own (GetWorkerFlowId),
 * pinned (SetFlowRoute) at every switch of its planned path to its aggregation node; the
 * aggregates of switch j take a flow of their own (FlowIdBase + n + 8 + j) pinned along the
 * plan's switch-to-PS path. Pace (default): each worker's NIC injects at its planned rate.
 * Aggregator units: ATP's slot table by default (a job never collides with itself, jobs can);
 * HashFragments = true hashes every fragment, Hash(frag_id) mod M as the paper writes (a job's
 * fragments in flight can then collide with one another, spec B.10.5).
 */
class GridProtocol : public PoolProtocol, public GridControlledJob
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    GridProtocol();
    /// Out of line: a member holds a Ptr to a class this header only declares.
    ~GridProtocol() override;

    /// \return ATP's counters plus GRID's: plan, notices
    std::map<std::string, double> GetCounters() const override;

    /// \return the plan installed (valid after Install)
    const GridPlan& GetPlan() const;

    /**
     * \param rank a worker
     * \return the node it sends its gradients to: its aggregation switch, or the PS host
     */
    uint32_t GetAggregationNode(uint32_t rank) const;

    /// \return the flow id of switch j's aggregates (j as in GridPlan::switches)
    uint32_t GetAggregateFlowId(uint32_t j) const;

    /// \return the flow id of worker `rank`'s gradients (pinned along its planned path)
    uint32_t GetWorkerFlowId(uint32_t rank) const;

    /// \return the flow id of collision notices
    uint32_t GetNoticeFlowId() const;

    /// \return whether fragments hash to units one by one (HashFragments)
    bool GetHashFragments() const;

    /// \return the flow id of the results the PS returns to direct worker `rank`
    uint32_t GetResultFlowId(uint32_t rank) const;

    /// \return the flow id of the results the PS returns to plan switch j (pinned along j's
    /// aggregate path reversed)
    uint32_t GetSwitchResultFlowId(uint32_t j) const;

    /**
     * The job's planning problem on the links that are up (GridController's re-plans).
     * \param failedLinks per topology link, failed or not (empty: none)
     * \return the problem, with the programmable switches and capacities planned at install
     */
    GridProblem BuildProblem(const std::vector<bool>& failedLinks) const;

    /**
     * Install a re-plan (GridController): the same aggregation nodes, routes on the links that
     * are up, every stream at `rateBps`: paths pinned again, the switches' result multicast
     * trees laid again, the NICs paced at the rate (Pace).
     * \param plan the job's assignment evaluated on the routes of now (GridPlanner::MakePlan)
     * \param rateBps the job's rate, > 0
     * \throws std::logic_error if the plan moves a worker or the rate is not > 0
     */
    void ApplyReplan(const GridPlan& plan, double rateBps);

    /**
     * Plan the job anew on the links that are up, as at install (GridController, when its
     * aggregation nodes can no longer be reached: a failed switch, a cut with no way round). The
     * failed elements are unreachable targets, so the plan avoids them; with no programmable
     * switch left every worker goes to the PS (the PS fallback).
     * \param failedLinks per topology link, failed or not
     * \param[out] plan the new plan
     * \param[out] why when there is none: a worker that reaches neither the PS nor a switch that
     *             does, the planner's error, a plan that moves nothing, one the 5-bit fan-ins
     *             cannot carry (CheckTrees), or a job already at its last epoch (MAX_EPOCH)
     * \return whether there is a plan
     */
    bool PlanAgain(const std::vector<bool>& failedLinks, GridPlan& plan, std::string& why) const;

    /**
     * Install a new assignment under the running job (GridController): the next plan epoch; the
     * job is taken off every switch it used (entries and held aggregators, GridProgram::
     * RemoveGridJob), the new tree's programs, routes, result multicast trees and paces are
     * installed, the PS regrouped (open fragments emptied, completed ones kept) and told the
     * epoch, and every worker sends its fragments in flight again on the new tree
     * (PoolAgent::Reroute). Packets of the old epoch still on their way are dropped where they
     * arrive (GridProgram, GridParameterServer), so no sum mixes the two numberings.
     * \param plan a plan from PlanAgain
     * \param rateBps the job's rate, > 0
     * \throws std::logic_error if CheckTrees refuses the plan, the rate is not > 0 or the job is
     *         at MAX_EPOCH
     */
    void Reassign(const GridPlan& plan, double rateBps);

    /**
     * End the job: no plan reaches every worker (GridController); every worker gives up with
     * `why` and the job ends incomplete with that reason.
     * \param why the reason
     */
    void Abandon(const std::string& why) override;

    /// \name GridController's re-plans (GridControlledJob)
    /// @{
    const JobContext& GetControlledContext() const override;
    /// The job's assignment evaluated on the routes of now (BuildProblem, GridPlanner::MakePlan):
    /// its streams per link direction and its fan-in per switch; `why` names a stream with no
    /// route (an aggregation node out of reach).
    bool Prepare(const std::vector<bool>& failedLinks, Load& load, std::string& why) override;
    /// PlanAgain, evaluated as Prepare; `what` names its nodes ("s2 3 workers, PS 2 direct").
    bool PrepareNew(const std::vector<bool>& failedLinks,
                    Load& load,
                    std::string& what,
                    std::string& whyNot) override;
    /// ApplyReplan, or Reassign after PrepareNew.
    void Apply(double rateBps) override;
    /// @}

    /**
     * \param plan a plan of this job
     * \return "" if the data plane can carry it, else why not (a switch with more than 31
     *         workers, more than 31 groups at the PS: switches, and direct workers 31 to a
     *         group)
     */
    std::string CheckTrees(const GridPlan& plan) const;

    /// The last plan epoch: it rides in PoolHeader::reserved's 8 bits and never wraps, so a job
    /// is moved to a new tree at most MAX_EPOCH times (PlanAgain then ends it).
    static constexpr uint8_t MAX_EPOCH = 255;

    /// \return the plan epoch (0 at install, one more per Reassign)
    uint8_t GetEpoch() const;

    /// Tells the controller, which re-plans the jobs still running.
    void NotifyJobEnded() override;

  protected:
    /**
     * The job's policy (GRID: the planner's LP and rounding). The baselines that run on GRID's
     * data plane replace it (GeryonProtocol, SwitchMlPsProtocol).
     * \param problem the job on its fabric
     * \param options the planner's Attributes
     * \return the plan: every worker's node, path and rate
     */
    virtual GridPlan PlanJob(const GridProblem& problem, const GridPlanner::Options& options) const;

    /**
     * For the baselines that run on GRID's data plane with a policy of their own (PlanJob).
     * \param label the protocol's short name in messages
     * \param needsProgrammableSwitches whether the policy needs switches that can aggregate
     *        (Geryon's does not)
     * \param followsFabricRoutes whether the plan's paths are the fabric's routes (GridProblem's),
     *        so that GridController can evaluate and re-route the job on the routes of the moment
     *        (Geryon's paths are its own schedule: false)
     */
    GridProtocol(const std::string& label,
                 bool needsProgrammableSwitches,
                 bool followsFabricRoutes);

    /// \return whether the policy needs switches that can aggregate (the constructor)
    bool NeedsProgrammableSwitches() const;
    /// \return whether the plan's paths are the fabric's routes (the constructor)
    bool FollowsFabricRoutes() const;

    void DoInstall() override;
    void DoDispose() override;
    void BuildTrees() override;
    Ptr<PoolProgram> CreateProgram() const override;
    Ptr<PoolParameterServer> CreateServer() const override;
    Ptr<PoolAgent> CreatePoolAgent() const override;

  private:
    const bool m_needsProgrammableSwitches; //!< NeedsProgrammableSwitches()
    const bool m_followsFabricRoutes;       //!< FollowsFabricRoutes()

    /// \return the planner's options from the Attributes
    GridPlanner::Options PlannerOptions() const;
    /// Every stream of m_plan at one rate (a re-plan's share).
    void SetPlanRate(double rateBps);
    /// Lay m_plan out as the job's tree: groups, aggregation nodes, workers' header fields.
    void LayTrees();
    /// Program the switches, pin the routes, tell the server where results go.
    void ConfigureGrid();
    /// Pin every path of m_plan: workers to their nodes, results to direct workers, aggregates.
    void PinRoutes();
    /// Cap every worker's NIC at its planned rate (if Pace).
    void PaceWorkers();
    /// \return the hosts of plan switch j's workers
    std::vector<uint32_t> Members(uint32_t j) const;
    /// \return the programmable switches of the job's tiers with the C_s it plans with
    /// (GridJobSwitches: SwitchCapacity, each one's pipeline's, or line rate)
    std::vector<GridProblem::ProgrammableSwitch> Programmable() const;
    /**
     * An assignment of the job evaluated on the routes that avoid `failedLinks`, into m_prepared.
     * \return false, with `why`, if a stream has no route
     */
    bool PrepareAssignment(const std::vector<bool>& failedLinks,
                           const std::vector<uint32_t>& assignment,
                           Load& load,
                           std::string& why);
    /// \return "s2 3 workers, PS 2 direct": where a plan aggregates
    std::string DescribeAssignment(const GridPlan& plan) const;

    // Attributes
    double m_switchCapacity;    //!< C_s in bit/s (0: the sum of the switch's port rates)
    std::string m_programmable; //!< ProgrammableSwitches: names, comma-separated ("": the tiers')
    double m_psIngress;         //!< B_alpha in bit/s (0: the PS's host link)
    uint32_t m_trials;          //!< planner roundings
    uint64_t m_seed;            //!< planner seed
    bool m_linkRows;            //!< planner link rows
    bool m_resultRows;          //!< the planner counts the results on the links too
    bool m_hashFragments;       //!< unit = CRC32(job, fragment) mod range, not ATP's slot table
    bool m_pace;                //!< workers' NICs capped at their planned rates

    // Installed state
    GridPlan m_plan;                                  //!< the plan
    std::vector<int32_t> m_groupSwitch;               //!< per group: plan switch entry (-1: PS)
    std::vector<uint32_t> m_aggNode;                  //!< per rank: aggregation node
    std::vector<InaAddress> m_resultGroups;           //!< per plan switch: its result group
    GridControllerMembership m_control;               //!< its GridController, once installed
    uint8_t m_epoch = 0;                              //!< plan epoch (Reassign)
    uint32_t m_reassignments = 0;                     //!< Reassign calls
    GridPlan m_prepared;                              //!< Prepare's or PrepareNew's plan
    bool m_preparedNew = false;                       //!< m_prepared is PrepareNew's
    mutable std::vector<Ptr<GridAgent>> m_gridAgents; //!< for the counters
};

} // namespace ns3

#endif /* GRID_PROTOCOL_H */
