/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fcfs-aggregator-pool.h"

#include "value-lanes.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// One stage's read of a cell that is then cleared (a resend's flush).
uint64_t
TakeAndClear(PipelinePass& pass, RegisterArray& reg, uint32_t index)
{
    return pass.ReadModifyWrite(reg, index, 0, [](uint64_t& cell) {
        const uint64_t old = cell;
        cell = 0;
        return old;
    });
}

/// Stage 0 of a gradient: first come, first served; returns the holder before (0: claimed now).
uint64_t
ClaimIfFree(PipelinePass& pass, RegisterArray& id, uint32_t index, uint32_t key)
{
    return pass.ReadModifyWrite(id, index, 0, [key](uint64_t& cell) {
        const uint64_t old = cell;
        if (old == 0)
        {
            cell = key;
        }
        return old;
    });
}

/// Stage 0 of a resend or a parameter packet: free the aggregator if `key` holds it.
uint64_t
FreeIfHeld(PipelinePass& pass, RegisterArray& id, uint32_t index, uint32_t key)
{
    return pass.ReadModifyWrite(id, index, 0, [key](uint64_t& cell) {
        const uint64_t old = cell;
        if (old == key)
        {
            cell = 0;
        }
        return old;
    });
}

/**
 * The value stages of one pass at aggregator `index`: the first contribution overwrites the
 * cells, a later new one adds into them (and reads the sum out when it completes), a repeat of a
 * complete aggregate reads the sum out.
 */
void
PassValues(PipelinePass& pass,
           RegisterArray& value,
           uint32_t index,
           int32_t* v,
           bool fresh,
           bool first,
           bool complete)
{
    if (fresh && first)
    {
        ValueLanes::Overwrite(pass, value, index, FcfsAggregatorPool::VALUE_LANES, v);
    }
    else if (fresh)
    {
        ValueLanes::Accumulate(pass, value, index, FcfsAggregatorPool::VALUE_LANES, v, complete);
    }
    else
    {
        ValueLanes::ReadOut(pass, value, index, FcfsAggregatorPool::VALUE_LANES, v);
    }
}

} // namespace

void
FcfsAggregatorPool::DeclareRegisters(ResourceDemand& d,
                                     uint32_t size,
                                     const PipelineLimits& limits,
                                     uint32_t idWidthBits,
                                     bool counter)
{
    d.AddRegisterArray("agtr_id", size, idWidthBits, 0).payload = false;
    d.AddRegisterArray("bitmap", size, 32, 1).payload = false;
    if (counter)
    {
        d.AddRegisterArray("counter", size, 8, 2).payload = false;
    }
    d.AddRegisterArray("ecn", size, 1, 2).payload = false;
    d.AddRegisterArray("value",
                       size,
                       64,
                       3,
                       VALUE_LANES,
                       std::max<uint32_t>(1, limits.statefulAlusPerStage));
}

void
FcfsAggregatorPool::Bind(const Registers& regs)
{
    m_regs = regs;
    m_occupancy.Reset();
}

// Longer than 80 lines on purpose: one pass through the pool's stages in their order (claim,
// bitmap, counter and ECN, values), each register touched once, as the pipeline requires; split,
// the stage order would be spread over functions that must be called in sequence anyway.
FcfsAggregatorPool::Result
FcfsAggregatorPool::Aggregate(InaPacket* p, PipelinePass& pass, PoolHeader* h, bool level1)
{
    uint32_t& field = level1 ? h->bitmap0 : h->bitmap1;
    const uint32_t fanIn = level1 ? h->fanInDegree0 : h->fanInDegree1;
    const uint32_t index = h->aggregatorIndex;
    const uint32_t key = h->jobIdAndSeq;

    // Stage 0: first come, first served.
    const uint64_t holder = ClaimIfFree(pass, *m_regs.id, index, key);
    if (holder != 0 && holder != key)
    {
        return Result{PoolReasons::COLLISION, false, static_cast<uint32_t>(holder)};
    }
    Result r{PoolReasons::ABSORBED, holder == 0, 0};
    if (r.allocated)
    {
        m_occupancy.Taken();
    }

    // Stage 1: contributions (none to a passing fragment).
    const uint32_t mine = field;
    const auto before = static_cast<uint32_t>(
        pass.ReadModifyWrite(*m_regs.bitmap, index, 0, [mine](uint64_t& cell) {
            const uint64_t old = cell;
            if ((old & PASSING) == 0)
            {
                cell = old | mine;
            }
            return old;
        }));
    if ((before & PASSING) != 0)
    {
        return Result{PoolReasons::BYPASSED, false, 0};
    }
    const uint32_t fresh = mine & ~before;

    // Stage 2: counter and congestion.
    const auto count = static_cast<uint32_t>(
        pass.ReadModifyWrite(*m_regs.counter, index, 0, [fresh](uint64_t& cell) {
            if (fresh != 0)
            {
                ++cell;
            }
            return cell & 0xff;
        }));
    const bool ecnIn = h->CongestionSeen(p);
    const bool ecnBefore = pass.ReadModifyWrite(*m_regs.ecn, index, 0, [ecnIn](uint64_t& cell) {
        const uint64_t old = cell;
        cell = old | (ecnIn ? 1 : 0);
        return old;
    }) != 0;
    const bool complete = count == fanIn;

    // Stages 3..: the values. Virtual payloads skip the arithmetic, not the decisions.
    if (p->values != nullptr && (fresh != 0 || complete))
    {
        PassValues(pass,
                   *m_regs.value,
                   index,
                   p->values->AsInt32(),
                   fresh != 0,
                   before == 0,
                   complete);
    }

    if (!complete)
    {
        r.reason = fresh != 0 ? PoolReasons::ABSORBED : PoolReasons::DUPLICATE_DROPPED;
        return r;
    }
    field = before | mine;
    if (ecnBefore || ecnIn)
    {
        h->flags |= PoolHeader::FLAG_ECN;
    }
    if (level1)
    {
        h->flags |= PoolHeader::FLAG_EDGE;
    }
    r.reason = fresh == 0 ? PoolReasons::DUPLICATE_REEMITTED : PoolReasons::COMPLETED;
    return r;
}

FcfsAggregatorPool::Result
FcfsAggregatorPool::Flush(InaPacket* p, PipelinePass& pass, PoolHeader* h, bool level1)
{
    uint32_t& field = level1 ? h->bitmap0 : h->bitmap1;
    const uint32_t fanIn = level1 ? h->fanInDegree0 : h->fanInDegree1;
    const uint32_t index = h->aggregatorIndex;

    // Stage 0: a resend frees an aggregator of its own key and never allocates.
    if (FreeIfHeld(pass, *m_regs.id, index, h->jobIdAndSeq) != h->jobIdAndSeq)
    {
        return Result{PoolReasons::RESEND_PASSED};
    }
    m_occupancy.Freed();

    const uint32_t mine = field;
    const auto taken = static_cast<uint32_t>(TakeAndClear(pass, *m_regs.bitmap, index));
    // A passing fragment's aggregator holds no contribution: the resend leaves with its own.
    const bool passing = (taken & PASSING) != 0;
    const uint32_t before = taken & ~PASSING;
    const uint32_t fresh = mine & ~before;
    const auto held = static_cast<uint32_t>(TakeAndClear(pass, *m_regs.counter, index));
    const bool ecnIn = h->CongestionSeen(p);
    // ATP's code leaves a stale ECN bit here; the simulator clears it (ATP's next fragment at
    // this aggregator would otherwise inherit a congestion mark it never saw).
    const bool ecnBefore = TakeAndClear(pass, *m_regs.ecn, index) != 0;
    if (p->values != nullptr && before != 0)
    {
        int32_t* v = p->values->AsInt32();
        if (fresh != 0)
        {
            ValueLanes::AddInto(pass, *m_regs.value, index, VALUE_LANES, v);
        }
        else
        {
            ValueLanes::ReadOut(pass, *m_regs.value, index, VALUE_LANES, v);
        }
    }
    field = before | mine;
    if (ecnBefore || ecnIn)
    {
        h->flags |= PoolHeader::FLAG_ECN;
    }
    // A rack flushed whole is a level-1 aggregate; a partial one must not be merged at level 2.
    if (level1 && !passing && held + (fresh != 0 ? 1 : 0) == fanIn)
    {
        h->flags |= PoolHeader::FLAG_EDGE;
    }
    return Result{PoolReasons::RESEND_FLUSHED};
}

FcfsAggregatorPool::Result
FcfsAggregatorPool::Pass(PipelinePass& pass, const PoolHeader* h)
{
    const uint32_t index = h->aggregatorIndex;
    const uint32_t key = h->jobIdAndSeq;
    const uint64_t holder = ClaimIfFree(pass, *m_regs.id, index, key);
    if (holder != 0 && holder != key)
    {
        return Result{PoolReasons::COLLISION, false, static_cast<uint32_t>(holder)};
    }
    if (holder == 0)
    {
        m_occupancy.Taken();
    }
    pass.ReadModifyWrite(*m_regs.bitmap, index, 0, [](uint64_t& cell) {
        cell |= PASSING;
        return cell;
    });
    return Result{PoolReasons::BYPASSED, holder == 0, 0};
}

FcfsAggregatorPool::Holder
FcfsAggregatorPool::Peek(uint32_t index, uint32_t key) const
{
    const uint64_t holder = m_regs.id->ControlRead(index);
    if (holder == 0)
    {
        return Holder::FREE;
    }
    if (holder != key)
    {
        return Holder::OTHER;
    }
    return (m_regs.bitmap->ControlRead(index) & PASSING) != 0 ? Holder::PASSING : Holder::SAME;
}

uint32_t
FcfsAggregatorPool::FreeJob(uint32_t jobId)
{
    uint32_t freed = 0;
    for (uint32_t index = 0; index < m_regs.id->GetEntries(); ++index)
    {
        const uint64_t holder = m_regs.id->ControlRead(index);
        if (holder == 0 || PoolHeader::JobOfKey(static_cast<uint32_t>(holder)) != jobId)
        {
            continue;
        }
        m_regs.id->ControlWrite(index, 0, 0);
        m_regs.bitmap->ControlWrite(index, 0, 0);
        if (m_regs.counter != nullptr)
        {
            m_regs.counter->ControlWrite(index, 0, 0);
        }
        m_regs.ecn->ControlWrite(index, 0, 0);
        m_occupancy.Freed();
        ++freed;
    }
    return freed;
}

FcfsAggregatorPool::Result
FcfsAggregatorPool::Release(PipelinePass& pass, const PoolHeader* h)
{
    const uint32_t index = h->aggregatorIndex;
    // An ACK of a fragment that collided carries an index another key holds: it frees nothing.
    if (FreeIfHeld(pass, *m_regs.id, index, h->jobIdAndSeq) != h->jobIdAndSeq)
    {
        return Result{PoolReasons::ACK_PASSED};
    }
    m_occupancy.Freed();
    pass.Write(*m_regs.bitmap, index, 0, 0);
    pass.Write(*m_regs.counter, index, 0, 0);
    pass.Write(*m_regs.ecn, index, 0, 0);
    return Result{PoolReasons::ACK_FREED};
}

} // namespace ns3
