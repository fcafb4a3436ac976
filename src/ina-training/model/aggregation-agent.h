/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_AGENT_H
#define AGGREGATION_AGENT_H

#include "aggregation-protocol.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * The host side of a protocol, one per worker: the one interface a WorkerApp talks to. Give it a
 * tensor, get a callback when the tensor is back aggregated over every worker of the job.
 *
 * A worker may hand several tensors before the first comes back (wait-free back-propagation hands
 * each layer's gradient as its backward pass ends); the agent decides how they share the network
 * (in order, interleaved, prioritised), and reports each on completion, in any order.
 *
 * Values: with the job's checkValues, `values` holds bytes/4 floats, this worker's gradient, and
 * on completion must hold the aggregated sum. Without it `values` is nullptr and payloads are
 * virtual: the agent moves only sizes.
 */
class AggregationAgent : public Object
{
  public:
    typedef Callback<void, uint64_t> DoneCallback; //!< argument: the tensor id

    /// Counters every agent keeps, for summary.json.
    struct Stats
    {
        uint64_t tensors = 0;           //!< tensors all-reduced
        uint64_t payloadBytes = 0;      //!< tensor bytes handed to AllReduce
        uint64_t wireBytesSent = 0;     //!< bytes this host put on the wire for the job
        uint64_t packetsSent = 0;       //!< packets this host sent for the job
        uint64_t retransmissions = 0;   //!< packets sent again
        uint64_t psFallbackPackets = 0; //!< packets that went to a parameter server instead of
                                        //!< being aggregated in the network
    };

    static TypeId GetTypeId();

    /// Called by the protocol before the first AllReduce.
    void Setup(const JobContext& ctx, uint32_t rank, Ptr<AggregationProtocol> protocol);
    void SetDoneCallback(DoneCallback cb);

    /**
     * Aggregate tensor `tensorId` (unique within the job; the same id at every worker names the
     * same tensor) of `bytes` bytes. Ownership of `values` stays with the caller, who keeps it
     * alive until the callback.
     */
    void AllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values);

    const Stats& GetStats() const;
    /// Tensor bytes of the aggregated results this worker has taken so far (protocols that
    /// report them: NoteResultBytes); what the progress line's percent done counts.
    uint64_t GetResultBytes() const;
    /// True once the agent gave up (NoteTimeout, GiveUp, or a transport flow of its own that
    /// failed): it stops retransmitting, and its job cannot complete any more.
    bool HasGivenUp() const;
    /// Why it gave up, naming the worker ("" while it has not).
    std::string GetGiveUpReason() const;
    uint32_t GetRank() const;
    const JobContext& GetContext() const;
    Ptr<InaHost> GetHost() const;

  protected:
    void DoDispose() override;
    /// Simulator::Now() in picoseconds; cheaper through the host during an arrival (InaHost).
    int64_t NowPs() const;
    /// Subclasses report a finished tensor here (values, if any, already hold the sum).
    void NotifyDone(uint64_t tensorId);

    /**
     * Subclasses call this when a retransmission timer expired and they are about to send again.
     * Returns true when that made MaxTimeouts (the protocol's Attribute) timeouts in a row with
     * nothing received in between: the agent has then given up, and the caller must not send
     * or re-arm its timer, so a job on a fabric that cannot deliver ends instead of retrying
     * forever.
     */
    bool NoteTimeout();
    /**
     * NoteTimeout for agents whose timers expire per packet: counts at most one timeout per
     * `gapPs` (their retransmission timeout), however many packets expire in it, since a window
     * sent one packet after another expires one after another and is one silence. Returns false
     * without counting within `gapPs` of the last counted one.
     */
    bool NoteTimeoutAtMostEvery(int64_t gapPs);
    /// Subclasses call this when something for this worker arrived: the row of timeouts ends,
    /// and the silence SetTimeoutGrace measures starts again.
    void NoteReceived();

    /**
     * Timeouts count towards MaxTimeouts only once nothing has been received for `grace`
     * (NoteReceived, or the start of a burst: NoteBurstStart); earlier ones return false from
     * NoteTimeout without counting. For agents whose peers may stay silent that long for a
     * reason other than a dead fabric: a pool worker that lost its whole burst resends only when
     * its first-result timeout (FirstRto) expires, so until the silence has lasted that long the
     * others cannot tell such a peer from a fabric that delivers nothing. 0 (the default): every
     * timeout counts.
     */
    void SetTimeoutGrace(Time grace);
    /// Subclasses call this when they start sending after being idle: the silence that
    /// SetTimeoutGrace measures starts now.
    void NoteBurstStart();

    /// Subclasses call this when a fresh piece of an aggregated result (`bytes` of tensor, a
    /// packet's payload) arrived.
    void NoteResultBytes(uint64_t bytes)
    {
        m_resultBytes += bytes;
    }

    /// Give up for another reason (`why` completes "worker R (host H) gave up: ...").
    void GiveUp(const std::string& why);

    /**
     * Take the host's packets for `endpoint` (InaHost::Bind) into `sink`, the agent itself; the
     * agent's DoDispose gives the endpoint back. For agents with an endpoint of their own (the
     * in-network protocols'), called once from DoSetup.
     * \param endpoint the port
     * \param sink the agent
     */
    void BindEndpoint(uint16_t endpoint, InaPacketSink* sink);

    Stats m_stats;

  private:
    /// Agents on the reliable transport (ring, PS) say here whether one of their flows gave up
    /// (InaTransportSender::IsFailed, after the flow's MaxTimeouts).
    virtual bool FlowFailed() const;

    virtual void DoSetup() = 0;
    virtual void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) = 0;

    JobContext m_ctx;
    uint32_t m_rank = 0;
    Ptr<AggregationProtocol> m_protocol;
    Ptr<InaHost> m_host;
    uint16_t m_endpoint = 0; //!< BindEndpoint's port
    bool m_bound = false;    //!< BindEndpoint was called
    DoneCallback m_done;
    uint32_t m_timeoutsInARow = 0;
    int64_t m_timeoutGracePs = 0;        //!< SetTimeoutGrace
    int64_t m_lastHeardPs = 0;           //!< last NoteReceived or NoteBurstStart
    int64_t m_lastCountedTimeoutPs = -1; //!< NoteTimeoutAtMostEvery's last count (-1: none)
    uint64_t m_resultBytes = 0;
    bool m_gaveUp = false;
    std::string m_giveUpReason;
};

} // namespace ns3

#endif /* AGGREGATION_AGENT_H */
