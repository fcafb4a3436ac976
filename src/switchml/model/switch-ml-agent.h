/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_ML_AGENT_H
#define SWITCH_ML_AGENT_H

#include "switch-ml-protocol.h"

#include "ns3/aggregation-agent.h"
#include "ns3/event-impl.h"
#include "ns3/ina-port.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

struct SwitchMlHeader;

/**
 * \ingroup switchml
 * The worker side of SwitchML (Algorithm 4 of the paper): a window of s slots, each used by one
 * packet at a time; a returned result frees its slot for the next chunk.
 *
 * Tensors handed to AllReduce form one stream of k-element chunks, in the order handed (every
 * worker hands the same tensors in the same order, as the paper's all-reduce requires). Chunk g
 * of the stream belongs to slot g mod s, so slot i carries chunks i, i + s, i + 2s, ... and every
 * worker agrees with no coordination. A tensor's last chunk is zero-padded; chunks never span
 * tensors. A slot whose next chunk is not handed yet idles until it is. Each slot's version bit
 * flips at every phase and is never reset, across tensors too (a slot reused by the next tensor
 * must not look like its old phase).
 *
 * Block-exponent mode: before the first chunk of a tensor on a slot, that slot runs one
 * exponent-only phase announcing that chunk's exponent; every later phase carries one chunk's data
 * (scaled by the factor of the exponent agreed in the previous phase) and the exponent of the
 * slot's next chunk in the tensor. So the exchange costs one extra, header-only packet per slot and
 * tensor (at most s per tensor), the NSDI'21 bootstrap batch.
 *
 * A result is accepted only if its (idx, ver, off, data flag) is the slot's outstanding phase
 * (a guard against a late multicast copy after a unicast reply); anything else
 * is counted as stale and dropped.
 *
 * Retransmission: RTO after a slot's last send, with no backoff (paper, Section 5.5). Deadlines
 * are kept in a doubly linked list of slots in send order; since every deadline is send time +
 * RTO, the list is sorted, so re-arming a slot is an O(1) move to the tail and the earliest
 * deadline is the head. One ns-3 event per agent is pending at most, at the head's deadline; a
 * head that got its result before firing is skipped lazily (the event then re-arms for the new
 * head). In steady state with no loss the timer fires about once per RTO per worker.
 */
class SwitchMlAgent : public AggregationAgent, public InaPacketSink
{
  public:
    /// What the agent counted besides AggregationAgent::Stats.
    struct Counters
    {
        uint64_t timeouts = 0;              //!< timer expiries (each re-sends one packet)
        uint64_t staleResults = 0;          //!< results that were not the slot's outstanding phase
        uint64_t quantizationOverflows = 0; //!< elements whose scaled value did not fit int32
        uint64_t phases = 0;                //!< phases completed (results accepted)
        uint64_t exponentPhases = 0;        //!< of those, exponent-only
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchMlAgent();
    ~SwitchMlAgent() override;

    /// Called by SwitchMlProtocol before Setup.
    void SetProtocol(Ptr<SwitchMlProtocol> protocol);

    /// \return the counters
    const Counters& GetCounters() const;
    /// \return the window, 0 before the first AllReduce
    uint32_t GetWindow() const;
    /// \return tensors handed and not yet returned
    uint32_t GetPendingTensors() const;

    // InaPacketSink: results from the switch.
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    void DoDispose() override;

  private:
    /// Per-slot state. A slot not `busy` waits for chunk `chunk` to be handed.
    struct Slot
    {
        uint64_t chunk = 0;     //!< stream chunk of the current (or next) phase
        uint64_t tensorSeq = 0; //!< the tensor holding `chunk` (a lower bound while idle)
        int64_t deadlinePs = 0; //!< retransmission deadline while busy
        uint32_t prev = 0;      //!< timer list
        uint32_t next = 0;      //!< timer list
        int16_t emax = 0;       //!< agreed exponent of `chunk` (block mode)
        uint8_t ver = 0;        //!< version of the current (or next) phase
        bool busy = false;      //!< a phase is outstanding
        bool boot = false;      //!< the outstanding phase is exponent-only
        bool inList = false;    //!< in the timer list
    };

    /// A tensor in the stream.
    struct Tensor
    {
        uint64_t id;                //!< tensor id
        uint64_t firstChunk;        //!< its first stream chunk
        uint64_t chunks;            //!< chunk count
        uint64_t elements;          //!< elements with values
        std::vector<float>* values; //!< gradient in, sum out; nullptr if virtual
        uint64_t done;              //!< chunks returned
    };

    void DoSetup() override;
    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override;
    void FinishEmptyTensor(uint64_t tensorId); //!< returns a tensor of no elements

    /// Fix the window and size the slot state (first AllReduce).
    void Configure();
    /// Start the phase for the slot's next chunk.
    void StartSlot(uint32_t s);
    /// Send (or re-send) the slot's outstanding phase and re-arm its deadline.
    void SendPhase(uint32_t s, bool retransmission);
    /// The tensor holding chunk `chunk`, searching from `seq`; updates `seq`.
    Tensor& TensorOf(uint64_t chunk, uint64_t& seq);
    /// Whether `p` is the result slot h->idx waits for: this job's, of the slot's outstanding
    /// phase (version, chunk, and exponent-only or not); anything else is stale.
    bool IsAwaitedResult(const InaPacket* p, const SwitchMlHeader* h) const;
    /// Writes the sums a data result `p` of slot `st` carries into tensor `t`'s values (check
    /// values only).
    void TakeValues(const InaPacket* p, const Slot& st, const Tensor& t) const;
    /// Slot `s`'s chunk of tensor `t` is back: counts it, moves the slot on, reports the tensor
    /// if that was its last chunk.
    void FinishChunk(uint32_t s, Tensor& t);
    /// Take slot `s` out of the timer list (if in it).
    void Unlink(uint32_t s);
    /// Give slot `s` the deadline nowPs + RTO, at the list's tail; start the timer if idle.
    void Arm(uint32_t s, int64_t nowPs);
    /// Schedule the timer event at atPs.
    void ScheduleTimer(int64_t atPs, int64_t nowPs);
    /// The timer event: re-send every expired slot, re-arm for the earliest deadline left.
    void OnTimer();

    Ptr<SwitchMlProtocol> m_protocol; //!< the job's protocol

    // Fixed at set-up / first AllReduce
    Ptr<InaHost> m_host;                      //!< this worker's host
    InaPacketPool* m_pool = nullptr;          //!< the fabric's packet pool
    InaAddress m_aggregator = INA_NO_ADDRESS; //!< first aggregating switch
    InaAddress m_self = INA_NO_ADDRESS;       //!< this host (the updates' origin)
    uint16_t m_wid = 0;                       //!< contributor id at m_aggregator
    uint16_t m_endpoint = 0;                  //!< the job's endpoint
    uint32_t m_flowId = 0;                    //!< this worker's flow (one path)
    uint32_t m_jobId = 0;                     //!< the job
    uint32_t m_workers = 0;                   //!< n, for the block factor
    uint32_t m_elements = 32;                 //!< elements per packet
    bool m_block = false;                     //!< block-exponent quantizer
    bool m_half = false;                      //!< float16 on the wire
    std::vector<float> m_halfScratch;         //!< float16: one packet's values as halves
    double m_factor = 1;                      //!< global factor f
    int64_t m_rtoPs = 0;                      //!< RTO in time steps
    uint32_t m_wireData = 0;                  //!< wire bytes with payload
    uint32_t m_wireBoot = 0;                  //!< wire bytes, exponent only
    uint32_t m_window = 0;                    //!< slots; 0 until the first AllReduce

    // Stream
    std::vector<Slot> m_slots;    //!< by slot index
    std::deque<Tensor> m_tensors; //!< not yet all returned, in stream order
    uint64_t m_frontSeq = 0;      //!< sequence number of m_tensors.front()
    uint64_t m_endChunk = 0;      //!< chunks handed so far
    uint32_t m_idle = 0;          //!< slots not busy
    uint32_t m_pending = 0;       //!< tensors not yet returned

    // Retransmission timer
    uint32_t m_head = 0;         //!< earliest deadline (m_window: none)
    uint32_t m_tail = 0;         //!< latest deadline
    Ptr<EventImpl> m_timer;      //!< the one reusable timer event
    bool m_timerPending = false; //!< m_timer is scheduled

    Counters m_counters; //!< what was counted
};

} // namespace ns3

#endif /* SWITCH_ML_AGENT_H */
