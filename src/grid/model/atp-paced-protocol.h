/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ATP_PACED_PROTOCOL_H
#define ATP_PACED_PROTOCOL_H

#include "grid-problem.h"

#include "ns3/atp-protocol.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup grid
 * ATP as GRID's evaluation runs it, at packet level, registered as protocol "atp-paced". GRID's
 * paper compares schemes by the sending rate each gives its workers (Sec. 3.1, 6.1, 6.3): its
 * ATP sends every gradient along the default route, the first programmable switch with capacity
 * left aggregates it, and a switch whose capacity is exhausted "will directly transfer the
 * gradients to the PS"; each worker sends at the common rate that placement sustains (Fig. 1:
 * 9/4 + 0.75/4 = 2.4375 Gb/s). So this is ATP's data plane with one level (Level2 false) and a
 * full switch passing fragments on (PassWhenFull true), and every worker's NIC capped at the rate
 * of GRID's model of ATP on the job's fabric (GridBaselines::Atp, with the switches' capacities
 * and the links), as GRID's workers are at their plan's rate (GridProtocol's Pace) and
 * switchml-ps's and geryon's at theirs. Protocol "atp" is ATP unpaced, its window alone setting
 * each worker's rate.
 *
 * One difference from the model, kept: what a full switch passes is merged by the PS at packet
 * level, where the model lets a later programmable switch with spare capacity absorb it (Fig. 1:
 * S3); the rates are the same when the PS's ingress has room for the passed gradients, as in
 * Fig. 1 (7.875 of 9 Gb/s). The rate is the job's alone on the fabric: no re-plan when other jobs
 * start or end (GridController re-plans GRID's data plane only).
 */
class AtpPacedProtocol : public AtpProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    AtpPacedProtocol();

    /// \return ATP's counters plus plan_rate_bps, the rate every worker is paced at
    std::map<std::string, double> GetCounters() const override;

    /// \return the rate every worker's NIC is capped at, bit/s (valid after Install)
    double GetPacedRateBps() const;

  protected:
    void DoInstall() override;
    /// ATP's rule (the node's tier in the job's tiers), and the node in ProgrammableSwitches if
    /// that is set.
    bool AllowedAt(uint32_t node) const override;

  private:
    /**
     * GRID's model of ATP aggregates a worker at the first programmable switch on its route;
     * ATP's data plane (Level2 false) only at the worker's rack switch. Refuses (Fail) a job
     * where the two differ: the paced rate would be another placement's.
     * \param problem the job's problem on the programmable set
     */
    void CheckFirstSwitchIsTheRack(const GridProblem& problem) const;

    double m_rateBps = 0;        //!< GridBaselines::Atp's rate for the job
    std::string m_programmable;  //!< ProgrammableSwitches ("": every switch of the job's tiers)
    std::vector<bool> m_allowed; //!< per node: in the job's programmable set (DoInstall)
};

} // namespace ns3

#endif /* ATP_PACED_PROTOCOL_H */
