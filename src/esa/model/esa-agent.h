/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_AGENT_H
#define ESA_AGENT_H

#include "esa-header.h"
#include "esa-rto-estimator.h"

#include "ns3/pool-agent.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class EsaProtocol;

/**
 * \ingroup esa
 * The worker side of ESA (ESA paper 5.1 and 5.3; spec B4.1, B4.2): ATP's worker (PoolAgent: the
 * stream of 62-value fragments, the sliding window and its ECN-driven congestion control, the
 * quantizer) with ESA's changes:
 * - every fragment carries the priority of its tensor (EsaPriority, equation 1), computed when
 *   the tensor's first fragment is sent from the job's remaining time, the tensor's layer and the
 *   communication-to-computation ratio (EsaProtocol: the job profile or its attributes);
 * - the aggregator index is hashed per fragment, hash(job, seq) (ESA 5.1; EsaProtocol::IndexOf);
 * - nothing is ever sent to the switches twice: where ATP resends a fragment (timeout), ESA sends
 *   a reminder to the parameter server (EsaHeader::WORKER_REMINDER, full size: it carries the
 *   worker's own contribution, the retransmission Section 5.1 sends to the PS), and so it does when
 *   DupAckThreshold results of later fragments arrived while the next expected one is missing
 *   ("three gradient fragments with larger sequence number than the expected", 5.1); ATP's fast
 *   retransmit is off;
 * - the timeout is TCP-style (EsaRtoEstimator: samples from a fragment's send to its result, not
 *   taken for fragments reminded about; RtoMin 1 ms; doubled on every expiry), ATP's FirstRto
 *   until the first result of a burst;
 * - a PULL from the parameter server is answered with the result if the worker has it (a cache of
 *   the last results, at least twice the largest window), else with the worker's own contribution
 *   (EsaHeader::CONTRIBUTION, a retransmission to the server, never through an aggregator), also
 *   for a fragment handed but not sent yet (a worker behind the others), which is then never
 *   sent to the switch; a fragment not handed yet cannot be answered (the server pulls again);
 * - a PULL for a fragment at least MaxWindow beyond the one the worker expects proves that the
 *   expected result was delivered to another worker (whose window let it send that fragment only
 *   after the result) and lost on its way here (Section 5.3, Case 2): the worker reminds at once,
 *   and again every DupAckThreshold such pulls (addition: its full window brings no later
 *   result to count, and the others go on through the server until the result is gone from the
 *   server's ring and their caches; the timeout alone left such a worker behind for good).
 */
class EsaAgent : public PoolAgent
{
  public:
    /// What ESA's part of the agent counted.
    struct EsaCounters
    {
        uint64_t timeoutReminders = 0; //!< reminders sent on a timeout
        uint64_t dupAckReminders = 0;  //!< reminders sent on duplicate results
        uint64_t pullsAnswered = 0;    //!< pulls answered with the worker's contribution
        uint64_t pullsFromCache = 0;   //!< pulls answered with a cached result
        uint64_t pullsIgnored = 0;     //!< pulls for a fragment neither outstanding nor cached
        uint64_t sendsSkipped = 0;     //!< fragments pulled before their first send: not sent
        uint64_t stallReminders = 0;   //!< reminders because lastAck did not move for the timeout
        uint64_t aheadReminders = 0;   //!< reminders because the job was queried beyond the window
        uint64_t rttSamples = 0;       //!< samples taken for the timeout
        uint64_t clampedLow = 0;       //!< tensors whose priority was raised to 1
        uint64_t clampedHigh = 0;      //!< tensors whose priority was lowered to 255
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    // InaPacketSink: results and pulls.
    void Receive(InaPacket* p, uint32_t port) override;

    /// \return ESA's counters
    const EsaCounters& GetEsaCounters() const;
    /// \return the reminder timeout now, in time steps
    int64_t GetEsaRtoPs() const;
    /// \return the priority of the last tensor that started sending (0 before any)
    uint8_t GetLastPriority() const;

  protected:
    void DoDispose() override;
    uint16_t IndexOf(uint64_t seq) const override;
    void SendFragment(uint64_t seq, bool resend) override;
    uint8_t PriorityOf(uint64_t seq) override;
    int64_t RtoPs() const override;
    bool FastRetransmitEnabled() const override;

  private:
    /// Read the protocol's ESA settings and size the rings (first use).
    void Configure();
    /// Send a reminder for `seq` to its parameter server.
    void SendReminder(uint64_t seq);
    /// Answer a parameter server's pull (reuses the packet): with the cached result, with the
    /// fragment's contribution if it is still outstanding, else not at all.
    void AnswerPull(InaPacket* p);
    /// \return whether fragment `seq` is handed and not done (sent or not)
    bool CanAnswerPull(uint64_t seq);
    /// AnswerPull from the result cache's `slot`.
    void WriteCachedResult(InaPacket* p, uint32_t slot);
    /// AnswerPull with the worker's own contribution to `seq`; \return its PS index
    uint8_t WriteContribution(InaPacket* p, uint64_t seq);
    /// Keep a result (values too with checkValues) for pulls and early delivery.
    void CacheResult(uint64_t seq, const InaPacket* p);
    /// Hand a result that arrived before its fragment was sent to ATP's receive path.
    void DeliverEarly(uint64_t seq);
    /// Remind about lastAck + 1 when the server queries a fragment beyond this worker's window.
    void NoteQueryAhead(uint64_t seq);
    /// Remind about lastAck + 1 when it has not moved for the timeout.
    void CheckStall(int64_t now);

    EsaProtocol* m_esa = nullptr; //!< the protocol, as ESA
    bool m_configured = false;    //!< Configure() ran

    // Per fragment, rings indexed by seq & m_mask
    uint64_t m_mask = 0;                //!< ring size - 1
    std::vector<int64_t> m_sentPs;      //!< first send time
    std::vector<uint64_t> m_reminded;   //!< the fragment reminded about (Karn: no sample)
    std::vector<uint64_t> m_pulled;     //!< pulled before its first send: never sent to the switch
    std::vector<uint64_t> m_cacheSeq;   //!< the fragment whose result a cache slot holds
    std::vector<int32_t> m_cacheValues; //!< 62 values per slot (checkValues)
    bool m_cacheValuesOn = false;       //!< values are cached

    // Timeout
    EsaRtoEstimator m_rto{1, 1, 1}; //!< the reminder timeout
    int64_t m_firstRtoPs = 0;       //!< ATP's FirstRto
    uint64_t m_timeoutsSeen = 0;    //!< PoolAgent's timeout count when last looked at
    uint64_t m_stallFor = 0;        //!< lastAck + 1 when last looked at
    int64_t m_stallSincePs = 0;     //!< since when it has been missing (or last reminded)
    int64_t m_stallRtoPs = 0;       //!< the stall guard: RtoMin, doubled per reminder for it
    int64_t m_rtoMinPs = 0;         //!< RtoMin
    int64_t m_rtoMaxPs = 0;         //!< RtoMax

    // Duplicate results
    uint32_t m_dupThreshold = 3; //!< results above the expected one that trigger a reminder
    uint64_t m_dupFor = 0;       //!< the expected fragment being counted against
    uint32_t m_dupCount = 0;     //!< results above it
    uint64_t m_highestDone = 0;  //!< the highest fragment with its result
    uint64_t m_aheadFor = 0;     //!< the expected fragment queries beyond the window count against
    uint32_t m_aheadCount = 0;   //!< such queries since the last reminder about it

    // Priority of the tensor being sent
    uint64_t m_prioFirstSeq = 0; //!< first fragment of the tensor it belongs to
    uint8_t m_prio = 0;          //!< its priority
    int64_t m_startPs = -1;      //!< first send (attained service)
    double m_rateBps = 0;        //!< the worker's link rate

    EsaCounters m_esaCounts; //!< ESA's counters
};

} // namespace ns3

#endif /* ESA_AGENT_H */
