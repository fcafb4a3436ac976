/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_AGENT_H
#define POOL_AGENT_H

#include "pool-protocol.h"

#include "ns3/aggregation-agent.h"
#include "ns3/event-id.h"
#include "ns3/ina-port.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * The worker side of ATP (ATP's released code, client/p4ml_manager.cc): a sliding window of
 * 62-value fragments, each sent to the job's parameter server through the aggregating switches and
 * completed by the parameter packet that comes back.
 *
 * Tensors handed to AllReduce form one stream of fragments numbered 1, 2, ... across tensors
 * (ATP's code restarts them per tensor; a number that keeps increasing means a stale resend never
 * meets a later tensor); a
 * tensor's last fragment is zero-padded and fragments never span tensors. Every worker hands the
 * same tensors in the same order, so equal numbers name the same fragment. The k-th tensor goes
 * to parameter server k mod P. Fragment s uses aggregator GetIndexTable()[(s - 1) mod MaxWindow].
 *
 * Window: the highest fragment sent is at most lastAck + W, lastAck being the highest fragment
 * with every parameter up to it in. W is kept in bytes; once per window (when the parameter of
 * the marker fragment arrives) it is halved if that parameter carries ECN and grows by
 * AdditiveIncrease otherwise; a timeout halves it at most once per window (LossDecrease); it
 * stays within [MinWindow, MaxWindow] packets. A fast retransmit is not taken for a loss: every
 * fragment that falls back to the PS completes after its successors, so out-of-order results are
 * ATP's normal reaction to pool contention, not a sign of congestion.
 *
 * Loss recovery, with the resend flag: the first out-of-order parameter resends the gap below it
 * at once (once per gap; when lastAck moves up to a further gap under results already in, that
 * gap is resent too); if nothing at all arrives for RTO the gap (or lastAck + 1) is resent.
 * RTO is FirstRto until the first parameter of a burst (the agent going from idle to busy) and
 * Rto after. One timer event per agent, re-armed lazily when it fires (about once per RTO while
 * busy): no event per packet.
 *
 * Duplicate and stale parameter packets are dropped (the server may answer a fragment several
 * times).
 */
class PoolAgent : public AggregationAgent, public InaPacketSink
{
  public:
    /// What the agent counted besides AggregationAgent::Stats.
    struct Counters
    {
        uint64_t fragments = 0;             //!< fragments completed
        uint64_t timeouts = 0;              //!< RTO expiries
        uint64_t fastRetransmits = 0;       //!< gaps resent on an out-of-order parameter
        uint64_t duplicateResults = 0;      //!< parameter packets for a done fragment
        uint64_t staleResults = 0;          //!< not a parameter packet of this job
        uint64_t ecnDecreases = 0;          //!< window halved on ECN
        uint64_t lossDecreases = 0;         //!< window halved on loss
        uint64_t increases = 0;             //!< additive increases
        uint64_t collidedResults = 0;       //!< parameters of fragments that collided
        uint64_t quantizationOverflows = 0; //!< values that saturated int32
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Called by PoolProtocol before Setup.
    void SetProtocol(Ptr<PoolProtocol> protocol);

    /// \return the counters
    const Counters& GetCounters() const;
    /// \return the window now, in packets
    uint32_t GetWindow() const;
    /// \return the window now, in bytes
    double GetWindowBytes() const;
    /// \return tensors handed and not yet returned
    uint32_t GetPendingTensors() const;
    /// \return highest fragment with every parameter up to it in
    uint64_t GetLastAck() const;

    /**
     * The job's trees changed under this worker (GRID's controller re-assigned its aggregation
     * nodes): take its header fields again from the protocol (GetWorkerRoute) and send every
     * fragment in flight again on the new route, as new fragments that the new tree aggregates
     * (counted as retransmissions).
     * \return the fragments sent again (0 once the agent gave up)
     */
    uint32_t Reroute();

    /**
     * The control plane ends this worker's part of the job (no aggregation node it can reach):
     * it gives up with `why` and sends nothing more.
     * \param why completes "worker R (host H) gave up: ..."
     */
    void Abandon(const std::string& why);

    /// Called by the parameter server for a packet of this worker that it had to aggregate.
    void NotePsFallback()
    {
        ++m_stats.psFallbackPackets;
    }

    // InaPacketSink: parameter packets.
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    void DoDispose() override;

    /**
     * \param seq a fragment
     * \return its aggregator index (ATP: the job's slot table; ESA may hash per fragment)
     */
    virtual uint16_t IndexOf(uint64_t seq) const;

    /**
     * Send fragment `seq` (again, with the resend flag, if `resend`).
     * \param seq the fragment
     * \param resend a retransmission
     */
    virtual void SendFragment(uint64_t seq, bool resend);

    /**
     * A packet of fragment `seq` toward the server of route `r`, as every fragment a worker sends
     * leaves: addressed (the route's flow, or the job's toward server `ps`), ECN-capable, ATP's
     * wire size, sent now, its header stamped with the route (PoolProtocol::WorkerRoute::Stamp).
     * The caller fills the rest of the header and its values.
     * \param seq the fragment
     * \param r its route
     * \param ps its parameter server
     * \return the packet, from the host's pool
     */
    InaPacket* NewFragment(uint64_t seq, const PoolProtocol::WorkerRoute& r, uint8_t ps);

    /// A tensor in the stream.
    struct Tensor
    {
        uint64_t id;                //!< tensor id
        uint64_t firstSeq;          //!< its first fragment
        uint64_t fragments;         //!< fragment count
        uint64_t elements;          //!< elements with values
        std::vector<float>* values; //!< gradient in, sum out; nullptr if virtual
        uint64_t done;              //!< fragments completed
        uint8_t ps;                 //!< its parameter server
    };

    /// \return the tensor holding fragment `seq` (which must be outstanding)
    Tensor& TensorOf(uint64_t seq);

    /**
     * The packet of fragment `seq` of tensor `t` carries its values: a value buffer from the
     * packet pool if it has none, the fragment's elements quantised into it (lanes past the
     * tensor's end zero), overflows counted. For a tensor without values (virtual payload) it
     * does nothing.
     * \param p the packet
     * \param t the fragment's tensor
     * \param seq the fragment
     */
    void WriteValues(InaPacket* p, const Tensor& t, uint64_t seq);

    /**
     * \param seq a fragment about to be sent
     * \return the header's priority (ATP: 0; ESA: its packed priority)
     */
    virtual uint8_t PriorityOf(uint64_t seq);

    /// \return the timeout now: FirstRto before the burst's first parameter, Rto after (ESA:
    /// its own estimate)
    virtual int64_t RtoPs() const;

    /// \return whether an out-of-order parameter resends the gap below it (ATP: FastRetransmit;
    /// ESA replaces it with its duplicate-result threshold)
    virtual bool FastRetransmitEnabled() const;

    /// \return whether fragment `seq` has its parameter (every fragment up to lastAck has)
    bool IsDone(uint64_t seq) const;

    /// Halve the window now, not below MinWindow (GRID's collision notice).
    void HalveWindow();

    /// \return the next fragment to send for the first time
    uint64_t GetNextSeq() const
    {
        return m_nextSeq;
    }

    /// \return whether a parameter arrived since the agent last went from idle to busy
    bool GotFirst() const
    {
        return m_gotFirst;
    }

    Ptr<PoolProtocol> m_protocol; //!< the job's protocol
    Counters m_counters;          //!< counters

  private:
    void DoSetup() override;
    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override;
    void FinishEmptyTensor(uint64_t tensorId); //!< returns a tensor of no elements

    /// The burst's first parameter arrived at `nowPs`: the timer runs on Rto from now on.
    void NoteFirstResult(int64_t nowPs);
    /// Writes the sums parameter packet `p` of fragment `seq` carries into tensor `t`'s values
    /// (check values only).
    void TakeValues(const InaPacket* p, uint64_t seq, const Tensor& t) const;
    /// Fragment `seq` is done: moves lastAck over what is done in order, and resends a gap below
    /// a parameter that arrived out of order (FastRetransmit).
    void AdvanceAck(uint64_t seq);
    /// At the window's marker fragment `seq`: halve the window on ECN, else grow it additively.
    void AdjustWindow(uint64_t seq, bool ecn);
    /// Send new fragments while the window allows.
    void SendNew();
    /// Resend the not-done fragments of [from, to]; returns how many.
    uint32_t ResendRange(uint64_t from, uint64_t to);
    /// Resend the gap [lastAck + 1, above - 1] below a result that arrived out of order, once.
    void FastRetransmit(uint64_t above);
    /// Halve the window on a timeout (at most once per window of sends).
    void LossReaction();
    /// Recompute the window in packets from the bytes.
    void UpdateWindow();
    /// Make sure the timer is pending.
    void ArmTimer();
    /// Schedule the timer at `atPs`.
    void ScheduleTimer(int64_t atPs);
    /// The timer event.
    void OnTimer();

    // Fixed at set-up
    Ptr<InaHost> m_host;
    InaPacketPool* m_pool = nullptr;
    uint32_t m_jobId = 0;
    uint32_t m_flowId = 0;
    uint16_t m_endpoint = 0;
    uint32_t m_servers = 1;
    uint16_t m_protocolNumber = ATP_PROTOCOL;
    std::vector<PoolProtocol::WorkerRoute> m_routes; //!< per parameter server
    const std::vector<uint16_t>* m_indexTable = nullptr;
    uint32_t m_slots = 1;
    double m_factor = 1;
    double m_minBytes = 0;
    double m_maxBytes = 0;
    double m_increase = 0;
    bool m_lossDecrease = true;
    bool m_fastRetransmit = true;
    int64_t m_rtoPs = 0;
    int64_t m_firstRtoPs = 0;

    // Stream
    std::deque<Tensor> m_tensors;
    uint64_t m_tensorsHanded = 0; //!< tensors handed so far (PS choice)
    uint64_t m_endSeq = 0;        //!< last fragment handed
    uint64_t m_nextSeq = 1;       //!< next fragment to send for the first time
    uint64_t m_lastAck = 0;       //!< every fragment up to it done
    uint64_t m_highestResent = 0; //!< fast retransmit fires once per gap
    uint64_t m_outOfOrder = 0;    //!< fragments done above lastAck + 1
    std::vector<uint8_t> m_done;  //!< ring: fragment done (above lastAck)
    uint64_t m_ringMask = 0;      //!< ring size - 1
    uint32_t m_pending = 0;       //!< tensors not yet returned

    // Congestion control
    double m_cwnd = 0;         //!< bytes
    uint32_t m_window = 1;     //!< packets
    uint64_t m_marker = 0;     //!< fragment whose parameter adjusts the window
    uint64_t m_recoverSeq = 0; //!< no loss reaction until lastAck reaches it

    // Timer
    EventId m_timer;
    int64_t m_timerDuePs = 0;     //!< when the pending timer fires
    int64_t m_lastActivityPs = 0; //!< last arrival (or the start of the burst)
    bool m_gotFirst = false;      //!< a parameter arrived in this burst
};

} // namespace ns3

#endif /* POOL_AGENT_H */
