/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATP_PACED_PROTOCOL_H
#define ATP_PACED_PROTOCOL_H

#include "grid-controlled-job.h"
#include "grid-controller-membership.h"
#include "grid-problem.h"

#include "ns3/atp-protocol.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * ATP as a baseline of GRID's evaluation, at packet level, registered as protocol "atp-paced".
 * GRID's paper compares schemes by the sending rate each gives its workers (Sec. 3.1, 6.1, 6.3),
 * and its issue's ATP-style baseline aggregates at the worker's rack switch. So this is ATP's data
 * plane with one level (Level2 false: a rack of two or more workers aggregated at its own switch
 * if that one is programmable, every other worker straight to the PS, ATP's fallback path, in the
 * same job) and a full switch passing fragments on (PassWhenFull true, GRID paper Sec. 3.1: a
 * switch whose capacity is exhausted "will directly transfer the gradients to the PS"), every
 * worker's NIC capped at the rate of GRID's fluid model of ATP restricted to the same placement
 * (GridBaselines::Atp with AtpReach::RACK, the switches' capacities and the links), as GRID's
 * workers are at their plan's rate (GridProtocol's Pace) and switchml-ps's and geryon's at
 * theirs. With ProgrammableSwitches (the paper's scenario (b)) only those rack switches aggregate.
 * Protocol "atp" is ATP unpaced, its window alone setting each worker's rate.
 *
 * Where the paper's own model of ATP differs, kept and reported (counter paper_model_rate_bps):
 * it aggregates at the first programmable switch on a worker's route, beyond the rack when the
 * rack's is not programmable, and lets a later programmable switch absorb what a full one passes
 * (Fig. 1: S3); ATP's one-level data plane does neither (the PS merges what is passed), so its
 * rate is the rack model's. On Fig. 1 the two are equal (2.4375 Gb/s: the link s1 -> S3 binds
 * either way).
 *
 * Online, as GRID's jobs (GridController): when a job of the controller starts or ends while
 * others run, the workers are re-paced at the max-min fair share of what the running jobs share.
 */
class AtpPacedProtocol : public AtpProtocol, public GridControlledJob
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AtpPacedProtocol();

    /// \return ATP's counters plus plan_rate_bps, the rate every worker is paced at (alone on
    ///         the fabric), and paper_model_rate_bps, the paper's model of ATP's rate
    std::map<std::string, double> GetCounters() const override;

    /// \return the rate every worker's NIC is capped at, bit/s (valid after Install; a re-plan
    ///         changes it)
    double GetPacedRateBps() const;

    /// Tells the controller, which re-plans the jobs still running.
    void NotifyJobEnded() override;

    /// \name GridController's re-plans (GridControlledJob)
    /// @{
    const JobContext& GetControlledContext() const override;
    /**
     * The rate model on the routes of now: the job's rate alone (its ceiling), and its loads at
     * that rate per bit/s (GridBaselines::AtpAt at the racks), which on links a smaller share can
     * only lower (a rack switch then aggregates a larger part of each worker's stream).
     * \return false, with `why`, if a worker has no route to the PS
     */
    bool Prepare(const std::vector<bool>& failedLinks, Load& load, std::string& why) override;
    /// False: ATP's placement (its racks, the fabric's routes) has no other plan.
    bool PrepareNew(const std::vector<bool>& failedLinks,
                    Load& load,
                    std::string& what,
                    std::string& whyNot) override;
    /// Every worker's NIC capped at `rateBps`.
    void Apply(double rateBps) override;
    /// Every worker gives up with `why`.
    void Abandon(const std::string& why) override;
    /// @}

  protected:
    void DoInstall() override;
    /// ATP's rule (the node's tier in the job's tiers), and the node in ProgrammableSwitches if
    /// that is set.
    bool AllowedAt(uint32_t node) const override;
    /// True with ProgrammableSwitches: a draw with none of the job's racks in it sends every
    /// worker to the PS, ATP's fallback path, rather than refusing the job.
    bool MayAggregateNowhere() const override;

  protected:
    void DoDispose() override;

  private:
    /// \param failedLinks per topology link, failed or not (empty: none)
    /// \return the job's problem on its programmable set, on the links that are up
    GridProblem BuildProblem(const std::vector<bool>& failedLinks) const;
    /// Caps every worker's NIC at m_rateBps.
    void PaceWorkers();

    std::vector<GridProblem::ProgrammableSwitch> m_set; //!< the job's programmable switches
    GridControllerMembership m_control;                 //!< its GridController, once installed
    double m_rateBps = 0;        //!< GridBaselines::Atp's rate for the job, at its racks
    double m_paperRateBps = 0;   //!< GridBaselines::Atp's rate, first programmable on the route
    std::string m_programmable;  //!< ProgrammableSwitches ("": every switch of the job's tiers)
    std::vector<bool> m_allowed; //!< per node: in the job's programmable set (DoInstall)
};

} // namespace ns3

#endif /* ATP_PACED_PROTOCOL_H */
