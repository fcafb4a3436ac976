/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GRID_CONTROLLED_JOB_H
#define GRID_CONTROLLED_JOB_H

#include "ns3/aggregation-protocol.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * A job whose workers' rates GridController sets: GRID's data plane (GridProtocol, and the
 * baselines on it) and ATP paced at its rate model (AtpPacedProtocol). The controller owns the
 * when (a job starts or ends while others run, the routes converged around failed links) and the
 * sharing (max-min over what the jobs share, GridFairRates), and records every re-plan; a job
 * says what it puts on the fabric at its rate and installs the rate it is given. A re-plan is two
 * steps, so that every job is evaluated before any is changed: Prepare (and, if that finds the
 * job cut off, PrepareNew), then Apply.
 */
class GridControlledJob
{
  public:
    /// What a job puts on the shared resources per bit/s of its workers' common rate.
    struct Load
    {
        double ceilingBps = 0; //!< the most the job can take alone (its NICs, its PS ingress)
        double aloneBps = 0;   //!< its rate alone, given to a job that has not started yet
        /// per topology link direction (2l, 2l + 1), its capacity (0 for a failed link)
        std::vector<double> edgeCapacityBps;
        std::vector<std::pair<uint32_t, double>> edges; //!< (link direction, coefficient > 0)

        /// A switch's aggregation capacity used by the job.
        struct Switch
        {
            uint32_t node = 0;      //!< the switch
            double capacityBps = 0; //!< its C_s as the job plans with it
            double coefficient = 0; //!< the job's aggregation work per bit/s of its rate
        };

        std::vector<Switch> switches; //!< the switches it aggregates at
    };

    /// \return the job (its name in the re-plan records)
    virtual const JobContext& GetControlledContext() const = 0;

    /**
     * Evaluate the job on the routes that avoid `failedLinks`, keeping what it runs on (GRID: its
     * aggregation nodes), ready for Apply.
     * \param failedLinks per topology link, failed or not
     * \param[out] load what it puts on the fabric
     * \param[out] why if it cannot run as it is (a worker cut off from its node): the reason
     * \return whether it can
     */
    virtual bool Prepare(const std::vector<bool>& failedLinks, Load& load, std::string& why) = 0;

    /**
     * After Prepare failed: plan the job anew on the links that are up, ready for Apply.
     * \param failedLinks per topology link, failed or not
     * \param[out] load what the new plan puts on the fabric
     * \param[out] what the new plan, in words (for the re-plan record)
     * \param[out] whyNot if there is none: the reason
     * \return whether there is one
     */
    virtual bool PrepareNew(const std::vector<bool>& failedLinks,
                            Load& load,
                            std::string& what,
                            std::string& whyNot) = 0;

    /**
     * Install what Prepare or PrepareNew made ready, every worker at `rateBps`.
     * \param rateBps the job's rate, > 0
     */
    virtual void Apply(double rateBps) = 0;

    /**
     * End the job: it has no plan; every worker gives up with `why`.
     * \param why the reason
     */
    virtual void Abandon(const std::string& why) = 0;

  protected:
    /// Not deleted through this interface: the job is an ns-3 Object, counted by its Ptrs.
    ~GridControlledJob() = default;
};

} // namespace ns3

#endif /* GRID_CONTROLLED_JOB_H */
