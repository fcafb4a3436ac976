/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_PARAMETER_SERVER_H
#define ESA_PARAMETER_SERVER_H

#include "esa-header.h"
#include "esa-rto-estimator.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/pool-parameter-server.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup esa
 * One parameter server of one ESA job (ESA paper 5.1 and 5.3; spec B4.3): ATP's server
 * (PoolParameterServer: the ring of fragments, the per-worker bitmap, the merge that discards a
 * partial overlapping what is recorded) completing what the switches could not: fragments that
 * lost a collision, partial aggregates evicted by a preemption or flushed by a reminder, and the
 * workers' own contributions it pulls. A contribution is counted at most once: every worker's bit
 * is set by exactly one packet whose other workers were all new, so a partial that overlaps is
 * discarded whole and its new workers are pulled again.
 *
 * ESA's additions:
 * - reminders (EsaHeader::REMINDER) to every aggregating switch of the job's tree for an open
 *   entry: when its entry has received nothing for the reminder timeout (then together with a
 *   pull of every worker still missing) (EsaRtoEstimator: RFC 6298,
 *   a sample is entry creation to completion, at least RtoMin; backed off on every expiry), when
 *   DupAckThreshold fragments with larger sequence numbers arrived after it opened (or was last
 *   reminded; "dupACK", counted per entry as the paper's Section 5.1 says), or when a worker
 * reminds it (at most once per timeout);
 * - pulls (interpretation, spec B4.3: the paper's "selective retransmission" and "query packets to
 *   all workers", merged): once a reminder's answer is back (the switch's partial, or empty), or
 *   when a partial was discarded for overlapping, every worker not yet recorded gets a PULL; it
 *   answers with the result if it has it (case 2a of the paper: the PS then multicasts it) or with
 *   its own contribution (cases 1, 3, 4, 5, and 2b when nobody has the result);
 * - a worker's reminder carries that worker's contribution (its retransmission to the server,
 *   Section 5.1), merged as a pulled one; the pulls it brings skip the workers recorded;
 * - a worker reminder for a fragment already complete here is answered with the result, unicast;
 * - every other packet of a complete fragment (a late partial evicted from a leftover aggregator)
 *   is dropped instead of answered again as ATP does.
 * The timers use one event per server, re-armed lazily: no event per packet.
 */
class EsaParameterServer : public PoolParameterServer
{
  public:
    /// What the ESA protocol adds to ATP's configuration.
    struct EsaConfig
    {
        std::vector<InaAddress> switches;     //!< the aggregating switches of this server's tree
        std::vector<InaAddress> workers;      //!< host of each worker, by rank
        Callback<uint16_t, uint64_t> indexOf; //!< a fragment's aggregator index
        uint32_t controlFlowId = 0;           //!< flow id of reminders and pulls
        int64_t rtoMinPs = 0;                 //!< RTO_min
        int64_t rtoMaxPs = 0;                 //!< the back-off ceiling
        uint32_t dupAckThreshold = 3;         //!< arrivals above an open entry (0: off)
    };

    /// What ESA's part of the server counted.
    struct EsaCounters
    {
        uint64_t reminders = 0;         //!< reminder packets sent (one per switch)
        uint64_t timeoutReminders = 0;  //!< reminder rounds on a timeout
        uint64_t dupAckReminders = 0;   //!< reminder rounds on duplicate arrivals
        uint64_t workerReminders = 0;   //!< worker reminders received
        uint64_t flushAnswers = 0;      //!< reminders back with a partial
        uint64_t flushMisses = 0;       //!< reminders back empty
        uint64_t pulls = 0;             //!< PULL messages sent
        uint64_t contributions = 0;     //!< contributions received
        uint64_t cachedResults = 0;     //!< results received from a worker's cache
        uint64_t resultsResent = 0;     //!< results unicast to a worker that reminded
        uint64_t lateAfterComplete = 0; //!< packets of a complete fragment, dropped
        uint64_t timerExpiries = 0;     //!< reminder timer expiries with an overdue entry
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EsaParameterServer();
    ~EsaParameterServer() override;

    /**
     * ESA's part of the configuration; call after Setup. Throws std::invalid_argument without a
     * switch, with a worker list that does not match the job, without an index function, or with
     * RtoMin not in (0, RtoMax].
     * \param config the configuration
     */
    void SetEsaConfig(const EsaConfig& config);

    // InaPacketSink
    void Receive(InaPacket* p, uint32_t port) override;

    /// \return ESA's counters
    const EsaCounters& GetEsaCounters() const;
    /// \return entries open now (some workers recorded or reminded, not complete)
    uint32_t GetOpenEntries() const;
    /// \return the reminder timeout now, in time steps
    int64_t GetRtoPs() const;

  protected:
    void DoDispose() override;
    void SendResult(InaPacket* p, uint32_t slot) override;

  private:
    /// ESA's state of one ring slot.
    struct Entry
    {
        uint64_t seq = 0;        //!< its fragment (0: none)
        int64_t createdPs = 0;   //!< entry set-up
        int64_t lastPs = 0;      //!< last activity
        int64_t remindedPs = -1; //!< last reminder round (-1: none)
        int64_t answeredPs = -1; //!< last reminder answer (-1: none)
        int64_t pulledPs = -1;   //!< last pull sent together with a reminder (-1: none)
        uint32_t dups = 0;       //!< arrivals of larger fragments since it opened or reminded
        bool open = false;       //!< waiting for workers
        bool done = false;       //!< result sent
        bool listed = false;     //!< in m_open
    };

    /**
     * The entry of fragment `seq`, set up if new.
     * \param seq the fragment
     * \param activity a packet that may bring contributions (restarts the entry's timeout)
     * \return the entry; nullptr when the ring holds a newer fragment
     */
    Entry* Track(uint64_t seq, bool activity);
    /// Count an arrival towards the duplicate threshold of every open entry below it.
    void DupAck(uint64_t seq);
    /// Send a reminder for `seq` to every aggregating switch.
    void RemindSwitches(uint64_t seq, Entry& e);
    /// Send a PULL to every worker not recorded for `seq`.
    void Pull(uint64_t seq);
    /// A worker's reminder.
    void OnWorkerReminder(InaPacket* p);
    /// After a reminder's answer or a merge: pull what is missing if the entry is still open.
    void AfterMerge(uint64_t seq, bool pull);
    /// \return whether the ring's slot for `seq` holds it complete
    bool IsComplete(uint64_t seq) const;
    /// A control packet from this server: header, addresses, size.
    InaPacket* NewControl(uint64_t seq, InaAddress dst, EsaHeader::Kind kind, uint8_t control);
    /// Make sure the timer is pending for the earliest deadline.
    void ArmTimer(int64_t dueAtPs);
    /// The timer: remind (and pull) for overdue entries.
    void OnTimer();

    EsaConfig m_esa;                //!< ESA's configuration
    EsaCounters m_esaCounts;        //!< ESA's counters
    std::vector<Entry> m_entries;   //!< per ring slot
    std::vector<uint64_t> m_open;   //!< fragments with an open entry (lazily pruned)
    EsaRtoEstimator m_rto{1, 1, 1}; //!< reminder timeout
    EventId m_timer;                //!< the one timer event
    int64_t m_timerDuePs = 0;       //!< when it fires
    uint32_t m_groups = 0;          //!< level-1 groups of the tree
    bool m_configured = false;      //!< SetEsaConfig called
};

} // namespace ns3

#endif /* ESA_PARAMETER_SERVER_H */
