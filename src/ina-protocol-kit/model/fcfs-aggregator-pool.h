/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef FCFS_AGGREGATOR_POOL_H
#define FCFS_AGGREGATOR_POOL_H

#include "aggregator-occupancy.h"
#include "pool-header.h"
#include "pool-reasons.h"

#include "ns3/pipeline-pass.h"
#include "ns3/pipeline-resources.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * ATP's aggregator pool (ATP paper, Section 3.2 and 3.3), first come, first served, as one piece a
 * switch program owns: registers, one cell per aggregator, claimed by the job id + sequence number
 * of the fragment that finds it free, merged by the contributions of that fragment, freed by its
 * parameter packet or a resend. ATP and GRID both own one; each decides what a collision does
 * (ATP: on to the parameter server; GRID: a notice back to the worker).
 *
 * Registers (DeclareRegisters; pipeline stages from 0):
 * - "agtr_id" (stage 0): the key holding each aggregator, 0 when free;
 * - "bitmap" (32 bit, stage 1): the contributions so far (bitmap0 positions at level 1, bitmap1
 *   positions at level 2);
 * - "counter" (8 bit, stage 2): contributions that brought new bits;
 * - "ecn" (1 bit, stage 2): congestion seen by any contribution;
 * - "value" (stage 3 on): 31 lanes of 64-bit cells, each holding two of the 62 int32 values
 *   (ValueLanes), as in ATP's P4-16 code: one pass per packet.
 *
 * Gradient packet (Aggregate): claim the aggregator if free or already ours, else COLLISION;
 * merge the packet's bitmap, ECN and values (the first contribution overwrites, later ones add
 * with saturation); when the counter reaches the packet's fan-in, write the aggregate and the
 * union bitmap into the packet and set edgeSwitchIdentifier at level 1 (COMPLETED); the aggregator
 * stays held until the parameter packet comes back. Incomplete: ABSORBED. A contribution with no
 * new bit re-emits a complete aggregate (DUPLICATE_REEMITTED) and is dropped otherwise
 * (DUPLICATE_DROPPED).
 *
 * Resend (Flush): an aggregator held by the same key is read and freed, the packet leaves with
 * the union of bitmaps and the sum (its own values added if they brought new bits), even if
 * partial; edgeSwitchIdentifier is set only when the union is the whole group, so a level-2 switch
 * never merges a partial rack. A resend never allocates and is never tagged collision.
 *
 * Parameter packet (Release): frees the aggregator if it holds the packet's key.
 *
 * Passing fragment (Pass; a program's PassWhenFull, the switch's aggregation capacity exhausted):
 * the fragment claims a free aggregator with the PASSING bit in "bitmap" instead of contributor
 * bits, and every contribution of it (this one and the later ones, whatever Aggregate or Pass
 * they reach) leaves unaggregated for the parameter server (BYPASSED), so a fragment is aggregated
 * here whole or not at all; its parameter packet frees the aggregator as any other, and a resend
 * flushes nothing from it (never edgeSwitchIdentifier).
 */
class FcfsAggregatorPool
{
  public:
    /// The registers of the value lanes: 31 lanes of two int32 each.
    static constexpr uint32_t VALUE_LANES = PoolHeader::VALUES / 2;

    /// The "bitmap" bit of an aggregator held by a passing fragment (fan-ins are at most 31, so
    /// no contributor bit reaches it).
    static constexpr uint32_t PASSING = 1u << 31;

    /// What holds an aggregator, read by the control plane (Peek).
    enum class Holder : uint8_t
    {
        FREE,    //!< nothing
        SAME,    //!< the key asked about, aggregating
        PASSING, //!< the key asked about, passing (Pass)
        OTHER    //!< another key
    };

    /// The pool's registers, resolved by the program once installed.
    struct Registers
    {
        RegisterArray* id = nullptr;      //!< key holding each aggregator
        RegisterArray* bitmap = nullptr;  //!< contributions
        RegisterArray* counter = nullptr; //!< contributions with new bits
        RegisterArray* ecn = nullptr;     //!< congestion bit
        RegisterArray* value = nullptr;   //!< 31 lanes of value pairs
    };

    /// What became of a packet.
    struct Result
    {
        PoolReasons::Reason reason; //!< the counter it goes to
        bool allocated = false;     //!< it took a free aggregator
        uint32_t holder = 0;        //!< COLLISION: the key holding the aggregator
    };

    /**
     * Declare the registers of a pool of `size` aggregators laid out for `limits` (value lanes
     * per stage = its stateful ALUs per stage).
     * \param d the program's demand
     * \param size aggregators
     * \param limits the pipeline
     * \param idWidthBits width of "agtr_id" (32: the key; ESA packs more beside it)
     * \param counter declare "counter" (ESA keeps its count in "agtr_id")
     */
    static void DeclareRegisters(ResourceDemand& d,
                                 uint32_t size,
                                 const PipelineLimits& limits,
                                 uint32_t idWidthBits,
                                 bool counter);

    /// Use these registers, nothing held (the program being installed).
    void Bind(const Registers& regs);

    /**
     * A gradient packet at the level the switch aggregates for its job.
     * \param p the packet
     * \param pass its pass
     * \param h its header
     * \param level1 the switch aggregates a group's workers (bitmap0) rather than groups (bitmap1)
     * \return what became of it
     */
    Result Aggregate(InaPacket* p, PipelinePass& pass, PoolHeader* h, bool level1);
    /// A resend at that level: flush and free an aggregator of the same key (arguments as
    /// Aggregate).
    Result Flush(InaPacket* p, PipelinePass& pass, PoolHeader* h, bool level1);
    /// A parameter packet: free the aggregator of its key.
    Result Release(PipelinePass& pass, const PoolHeader* h);
    /**
     * A gradient of a fragment that passes this switch: claim the free aggregator (or find it
     * held by the same key) as passing; BYPASSED, or COLLISION if another key holds it.
     * \param pass its pass
     * \param h its header
     * \return what became of it
     */
    Result Pass(PipelinePass& pass, const PoolHeader* h);

    /**
     * Who holds an aggregator now, without a pass (a program deciding before its pipeline
     * whether a gradient is aggregation work).
     * \param index the aggregator
     * \param key the fragment asked about
     * \return the holder
     */
    Holder Peek(uint32_t index, uint32_t key) const;

    /**
     * The control plane frees every aggregator a job's fragments hold (their keys carry the job
     * id above the 16-bit sequence number, PoolHeader::Key), as when it takes the job off this
     * switch: a later packet of the job finds them free.
     * \param jobId the job
     * \return the aggregators freed
     */
    uint32_t FreeJob(uint32_t jobId);

    /// The registers were cleared behind the pool's back (a switch reboot): nothing is held.
    void ForgetHeld()
    {
        m_occupancy.AllFreed();
    }

    /// \return the registers
    const Registers& GetRegisters() const
    {
        return m_regs;
    }

    /// \return aggregators held now and their peak
    const AggregatorOccupancy& GetOccupancy() const
    {
        return m_occupancy;
    }

  private:
    Registers m_regs;                //!< resolved registers
    AggregatorOccupancy m_occupancy; //!< held now, peak
};

} // namespace ns3

#endif /* FCFS_AGGREGATOR_POOL_H */
