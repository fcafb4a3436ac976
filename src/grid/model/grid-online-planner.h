/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_ONLINE_PLANNER_H
#define GRID_ONLINE_PLANNER_H

#include "grid-planner.h"
#include "grid-problem.h"
#include "grid-scheme-rates.h"

#include "ns3/ina-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * Jobs that start and end on one fabric, at planner level (fluid, no packets): every time a job
 * starts or ends, the plans of all running jobs are computed again, and each job sends at its
 * plan's rate until the next such event. GRID's control plane computes a policy per training task
 * (GRID paper, Sec. 3.4, "published only once"); with several tasks on one fabric, a task's start
 * or end changes what the others may use, so this is where they are re-planned.
 *
 * Re-planning (*Interpretation*: the paper plans one task and says nothing about several): the
 * running jobs are planned one after another in the order they started (ties: the order they
 * were added), each on what the jobs before it leave: the switches' capacities C_s minus the
 * aggregation load of earlier plans (a switch with nothing left is not programmable for this job)
 * and every directed link's rate minus their load. A job's scheme decides how it is planned:
 * GRID (GridPlanner), or the fluid baselines ATP, SwitchML and Geryon (GridBaselines), so every
 * scheme sees the same capacities. A job with nothing left on its path gets rate 0 and waits for
 * the next event.
 *
 * Work: a job ends when each of its workers has sent `bitsPerWorker` (its iterations' gradients)
 * at the rates it was given; compute time is not modelled at this level.
 *
 * Each re-plan's wall time is measured (steady clock) and reported; everything else depends only
 * on the inputs and the planner's seed.
 */
class GridOnlinePlanner
{
  public:
    /// How a job is planned.
    enum class Scheme : uint8_t
    {
        GRID,     //!< GridPlanner (LP, rounding, repair)
        ATP,      //!< GridBaselines::Atp
        SWITCHML, //!< GridBaselines::SwitchMl
        GERYON    //!< GridBaselines::Geryon
    };

    /**
     * \param name grid, atp, switchml or geryon
     * \return the scheme; throws std::invalid_argument naming the four otherwise
     */
    static Scheme ParseScheme(const std::string& name);
    /// \return the scheme's name as ParseScheme reads it
    static std::string SchemeName(Scheme scheme);

    /// One job.
    struct Job
    {
        std::string name;              //!< for reports
        Scheme scheme = Scheme::GRID;  //!< how it is planned
        std::vector<uint32_t> workers; //!< worker hosts, distinct
        uint32_t ps = 0;               //!< its parameter server host
        double startS = 0;             //!< when it starts (s)
        double bitsPerWorker = 0;      //!< what each worker sends before the job ends (> 0)
        double psIngressBps = 0;       //!< B_alpha; 0: the PS's link
    };

    /// One re-plan.
    struct Replan
    {
        double timeS = 0;            //!< when
        std::string trigger;         //!< "start NAME" or "end NAME" (several joined by ", ")
        std::vector<uint32_t> jobs;  //!< the running jobs, in planning order (job indices)
        std::vector<double> rateBps; //!< each one's common worker rate, same order
        double wallS = 0;            //!< wall time of planning them all
    };

    /// A job's outcome.
    struct JobResult
    {
        double startS = 0;          //!< when it started
        double endS = -1;           //!< when it ended; -1 if it never could (rate 0 for ever)
        GridSchemeRates firstRates; //!< its metrics (Sec. 6.1) under its first plan
        double lpBoundBps = 0;      //!< GRID: lambda~ of its first plan; 0 for the baselines
        double minRateBps = 0;      //!< the lowest rate any plan gave it while it ran
        double maxRateBps = 0;      //!< the highest
        uint32_t plans = 0;         //!< how many plans it was given
    };

    /**
     * \param topology the fabric (copied)
     * \param programmable the switches that can aggregate and their capacities C_s
     * \param options GridPlanner's options (for GRID jobs); options.linkRows also decides whether
     *        the baselines see link rates
     * \param pathSeed the routes' ECMP tie-break seed
     */
    GridOnlinePlanner(const InaTopology& topology,
                      const std::vector<GridProblem::ProgrammableSwitch>& programmable,
                      const GridPlanner::Options& options,
                      uint64_t pathSeed = 0);

    /**
     * Add a job. Throws std::invalid_argument for bitsPerWorker <= 0, a negative start, or a
     * host that another job already uses (as worker or PS); GridProblem checks the rest when the
     * job is first planned.
     * \param job the job
     * \return its index
     */
    uint32_t AddJob(const Job& job);

    /// Run every job to its end (or until no running job can move). Call once.
    void Run();

    const std::vector<Replan>& GetReplans() const
    {
        return m_replans;
    }

    const std::vector<JobResult>& GetResults() const
    {
        return m_results;
    }

    const Job& GetJob(uint32_t i) const
    {
        return m_jobs.at(i);
    }

    uint32_t GetNJobs() const
    {
        return static_cast<uint32_t>(m_jobs.size());
    }

    /// What one job's plan uses, and its rates.
    struct Allocation
    {
        GridSchemeRates rates;         //!< lambda and the Sec. 6.1 metrics
        double lpBoundBps = 0;         //!< GRID's lambda~ (0 for baselines)
        std::vector<double> edgeBps;   //!< load per directed edge
        std::vector<double> switchBps; //!< aggregation load per switch of the problem
    };

    /**
     * Plan one job on a problem (its capacities already residual).
     * \param problem the job's problem
     * \param scheme how
     * \param options GridPlanner's options
     * \return the allocation
     */
    static Allocation Allocate(const GridProblem& problem,
                               Scheme scheme,
                               const GridPlanner::Options& options);

  private:
    /// Plan every running job in start order on the capacities they leave each other.
    void ReplanAll(double now, const std::string& trigger);

    InaTopology m_topology;
    std::vector<GridProblem::ProgrammableSwitch> m_programmable;
    GridPlanner::Options m_options;
    uint64_t m_pathSeed;
    std::vector<Job> m_jobs;
    std::vector<JobResult> m_results;
    std::vector<Replan> m_replans;
    std::vector<bool> m_running;
    std::vector<double> m_rateBps;       //!< current rate per job
    std::vector<double> m_remainingBits; //!< per job, per worker
    bool m_ran = false;
};

} // namespace ns3

#endif /* GRID_ONLINE_PLANNER_H */
