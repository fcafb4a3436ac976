/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_PROGRAM_H
#define ESA_PROGRAM_H

#include "esa-coin.h"
#include "esa-header.h"
#include "esa-preemption-policy.h"

#include "ns3/aggregator-occupancy.h"
#include "ns3/pool-program.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup esa
 * The switch side of ESA (ESA paper 5.2 and 6): a shared pool of aggregators, job table and
 * two-level roles as ATP's (PoolProgram), with ESA's allocation: a fragment that finds its
 * aggregator held by another fragment preempts it if its priority is higher
 * (EsaPreemptionPolicy), the partial aggregate it evicts going to the evicted job's parameter
 * server; otherwise it goes to its own parameter server and the incumbent's priority halves. A
 * completed aggregate is multicast by the switch straight to the job's workers (at the top level)
 * and the aggregator is freed at once; a reminder from a parameter server flushes the aggregator of
 * its key.
 *
 * Registers (the pool is ATP's, one cell per aggregator):
 * - "agtr_id" (64 bit, stage 0): the key (job id + sequence number, low 32 bits, 0 = free), the
 *   priority (8 bits), the contributions so far (8 bits) and the parameter server index of the
 *   holder (2 bits). Interpretation: the paper's per-aggregator counter and priority sit beside the
 *   key in one 64-bit cell, so one stateful-ALU action decides allocate / aggregate / preempt /
 *   fall back, counts, and frees the aggregator when the count reaches the fan-in, all in one pass
 *   (ATP's separate "counter" register is not declared);
 * - "bitmap" (32 bit, stage 1), "ecn" (1 bit, stage 2), "value" (31 lanes of two int32 from stage
 *   3): as ATP's; a preemption swaps the packet's values with the aggregator's in the same access
 *   (the paper's "packet swapping", Section 6).
 *
 * Pass costs (spec C2): one pass per packet, plus one recirculation (the paper's resubmit: the
 * metadata of the evicted fragment cannot be written back into the packet in the pass that read
 * it) for every preemption and every reminder that flushes. The state changes happen in the first
 * pass; the second only rebuilds the evicted fragment's header and addresses it to its own job's
 * parameter server (found through the job table), so a packet arriving between the two passes sees
 * a consistent aggregator.
 *
 * Per packet (ESA kinds in EsaHeader): a parameter server's result (FLAG_ACK) frees the
 * aggregator if it still holds the result's fragment (leftover contributions, spec B3 6) and goes
 * on to the workers; a reminder addressed to this switch flushes its key's aggregator (returning
 * the partial to the parameter server, or empty bitmaps when another key holds it); control
 * messages, evicted partials and other switches' reminders pass through. Gradient fragments at the
 * level this switch aggregates for the job (as ATP: level 1 for a workers' rack, level 2 at the
 * parameter server's rack) are aggregated:
 * - allocate / aggregate: merged; at the fan-in the packet becomes the result: at the top level
 *   (level 2, or the only level) multicast to the workers with FLAG_ACK; below it (level 1 under a
 *   level-2 switch) sent on towards the parameter server as the group's aggregate
 *   (edgeSwitchIdentifier set), as ATP does;
 * - preempt: the aggregator takes the fragment; the packet leaves, after its second pass, as the
 *   evicted fragment (kind EVICTED, its key, bitmaps, full sequence number) to its own parameter
 *   server;
 * - fall back: the packet goes on unchanged, marked collision, to its own parameter server.
 *
 * Sequence numbers: the key holds the low 16 bits, as ATP's header does. The simulator keeps each
 * aggregator's full fragment number beside the registers (the hosts recover it from their windows,
 * spec B1.2) and treats an aggregator whose key matches but whose full number is older as a stale
 * holder, evicted whatever its priority (counted, and the parameter server drops it as stale): a
 * leftover aggregator can then never absorb a fragment 65,536 sequence numbers later.
 */
class EsaProgram : public PoolProgram
{
  public:
    /// Events counted per switch, after ATP's (SwitchProgram::GetReasonCount).
    enum EsaReason : uint32_t
    {
        PREEMPTED = PoolReasons::N_REASONS, //!< a collision won by the contender: holder evicted
        FALLBACK,                           //!< a collision lost by the contender: to its PS
        DOWNGRADED,                         //!< of those, the holder's priority lowered
        FALLBACK_TIE, //!< of those (ESA's policy), the contender's priority equal to the holder's
        EVICTED_SENT, //!< evicted partials sent (second pass)
        LEVEL1_DONE,  //!< a level-1 aggregate sent on to level 2
        REMINDER_FLUSHED,       //!< a reminder found its key: flushed and freed
        REMINDER_MISSED,        //!< a reminder found another key or none: sent back empty
        STALE_HOLDER,           //!< an aggregator holding an old fragment of the same key
        DUPLICATE_CONTRIBUTION, //!< a contribution whose bit was set (must stay 0)
        PASSED,                 //!< control messages, evicted partials, others' reminders
        NO_ROUTE,               //!< a job entry without SetJobRoute: forwarded, not aggregated
        N_ESA_REASONS           //!< number of reasons
    };

    /// Where ESA sends what it produces for one (job, parameter server) at this switch.
    struct JobRoute
    {
        InaAddress ps = INA_NO_ADDRESS;          //!< the parameter server
        InaAddress resultGroup = INA_NO_ADDRESS; //!< the workers' multicast group
        uint16_t endpoint = 0;                   //!< the job's host endpoint
        uint32_t psFlowId = 0;                   //!< flow id of packets to the parameter server
        uint32_t resultFlowId = 0;               //!< flow id of the multicast results
        bool top = true; //!< completes the aggregate (level 2, or the job's only level)
    };

    /// Bit layout of an "agtr_id" cell.
    static constexpr uint64_t KEY_MASK = 0xffffffffULL; //!< key: bits 0-31
    static constexpr unsigned PRIORITY_SHIFT = 32;      //!< priority: bits 32-39
    static constexpr unsigned COUNT_SHIFT = 40;         //!< contributions: bits 40-47
    static constexpr unsigned PS_SHIFT = 48;            //!< PS index: bits 48-49

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EsaProgram();

    /**
     * Tell the switch where one (job, parameter server) it aggregates for sends its results,
     * partials and evicted fragments. Call after AddJob. Throws std::runtime_error for a pair that
     * is not installed here, or a top level without a multicast group.
     * \param jobId the job
     * \param psIndex its parameter server
     * \param route the addresses
     */
    void SetJobRoute(uint32_t jobId, uint8_t psIndex, const JobRoute& route);

    /// \return the collision policy
    EsaPreemptionMode GetPreemptionMode() const;
    /// \return the preemption probability of the RANDOM policy
    double GetPreemptProbability() const;

    /// \name Control-plane reads of an aggregator (tests, reports)
    /// @{
    uint32_t ReadKey(uint32_t index) const;
    uint8_t ReadPriority(uint32_t index) const;
    uint32_t ReadCount(uint32_t index) const;

    /// @}

    /**
     * \param key the key (0 = free)
     * \param priority the priority
     * \param count contributions
     * \param psIndex the holder's parameter server
     * \return an "agtr_id" cell
     */
    static constexpr uint64_t PackCell(uint32_t key,
                                       uint8_t priority,
                                       uint32_t count,
                                       uint8_t psIndex)
    {
        return key == 0 ? 0
                        : (static_cast<uint64_t>(key) |
                           (static_cast<uint64_t>(priority) << PRIORITY_SHIFT) |
                           (static_cast<uint64_t>(count & 0xff) << COUNT_SHIFT) |
                           (static_cast<uint64_t>(psIndex & 3) << PS_SHIFT));
    }

  private:
    ResourceDemand Demand(uint32_t poolSize, const PipelineLimits& limits) const override;
    void InitializePool() override;
    void DoResetState() override;
    const AggregatorOccupancy& GetOccupancy() const override;
    void DoProcess(InaPacket* p, PipelinePass& pass) override;

    using Action = EsaPreemptionPolicy::Action;

    /// What stage 0 decided for a gradient fragment.
    struct Claim
    {
        EsaPreemptionPolicy::Decision decision; //!< allocate, aggregate, preempt or fall back
        bool complete;                          //!< the fragment's fan-in is reached
        bool staleHolder;                       //!< the holder is an older fragment of the key
        uint64_t before;                        //!< the "agtr_id" cell before the packet
    };

    /// A gradient fragment at the level this switch aggregates.
    void Aggregate(InaPacket* p,
                   PipelinePass& pass,
                   PoolHeader* h,
                   const JobConfig& job,
                   const JobRoute& route);
    /// Stage 0: decide (policy), count, and free at the fan-in, in one action on the key's cell.
    Claim ClaimAggregator(const InaPacket* p,
                          PipelinePass& pass,
                          const PoolHeader* h,
                          uint32_t fanIn);
    /// A collision lost: on to the parameter server, the holder's priority perhaps downgraded.
    void FallBack(InaPacket* p, PoolHeader* h, const Claim& claim);
    /// Stage 1: the contributors' bitmap. \return the bitmap before the packet
    uint32_t RecordContributors(PipelinePass& pass,
                                uint32_t index,
                                Action action,
                                uint32_t mine,
                                bool complete);
    /// Stage 2: the congestion bit. \return the bit before the packet
    bool RecordCongestion(PipelinePass& pass,
                          uint32_t index,
                          Action action,
                          bool ecnIn,
                          bool complete);
    /// Stages 3..: add, swap (preemption) or write the values, when the packet carries them.
    void UpdateValues(InaPacket* p,
                      PipelinePass& pass,
                      uint32_t index,
                      Action action,
                      bool complete);
    /// A preemption: the packet leaves with the holder's partial, recirculated to its server.
    void Evict(InaPacket* p,
               PipelinePass& pass,
               PoolHeader* h,
               const Claim& claim,
               uint32_t oldBitmap,
               bool ecnBefore);
    /// A reminder for this switch: flush the aggregator of its key.
    void Remind(InaPacket* p, PipelinePass& pass, PoolHeader* h, const JobConfig& job);
    /// A parameter server's result: free a leftover aggregator of its key, forward.
    void PassResult(InaPacket* p, PipelinePass& pass, PoolHeader* h);
    /// The second pass of an evicted partial or a flushed reminder.
    void SecondPass(InaPacket* p, PipelinePass& pass, PoolHeader* h);
    /// Turn a complete aggregate into the job's result (top) or the group's aggregate (level 1).
    void Complete(InaPacket* p,
                  PoolHeader* h,
                  const JobConfig& job,
                  const JobRoute& route,
                  bool ecn);
    /// Write an aggregator's bitmap into a packet as the fields of the job's level here.
    static void SetContributors(PoolHeader* h, const JobConfig& job, uint32_t bitmap);

    // Attributes
    int m_mode;           //!< collision policy (an EsaPreemptionMode)
    double m_probability; //!< RANDOM: preemption probability
    uint64_t m_coinSeed;  //!< RANDOM: the coin's seed

    // Installed state
    RegisterArray* m_meta = nullptr;       //!< "agtr_id"
    RegisterArray* m_bitmap = nullptr;     //!< "bitmap"
    RegisterArray* m_ecn = nullptr;        //!< "ecn"
    RegisterArray* m_value = nullptr;      //!< "value"
    std::vector<JobRoute> m_routes;        //!< by job table entry
    std::vector<bool> m_routed;            //!< SetJobRoute called, by entry
    std::vector<uint64_t> m_seqOf;         //!< per aggregator: the holder's full fragment number
    std::unique_ptr<EsaCoin> m_coin;       //!< RANDOM's coin
    InaAddress m_address = INA_NO_ADDRESS; //!< this switch, cached on first use
    AggregatorOccupancy m_occupancy;       //!< aggregators held, peak
};

} // namespace ns3

#endif /* ESA_PROGRAM_H */
