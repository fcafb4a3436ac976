/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_PREEMPTION_POLICY_H
#define ESA_PREEMPTION_POLICY_H

#include "ns3/enum.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup esa
 * Who gets an aggregator that a gradient fragment finds held by another fragment.
 */
enum class EsaPreemptionMode : uint8_t
{
    PRIORITY, //!< ESA: the contender preempts iff its priority is strictly higher
    ALWAYS,   //!< the paper's Straw1 ablation: every collision preempts
    RANDOM    //!< the paper's Straw2 ablation: a collision preempts with a probability (0.5)
};

/**
 * \ingroup esa
 * The names of EsaPreemptionMode in an Attribute: the protocol's Preemption and the program's
 * it sets must accept the same names.
 * \return the checker of an EnumValue holding an EsaPreemptionMode
 */
inline Ptr<const AttributeChecker>
MakeEsaPreemptionModeChecker()
{
    return MakeEnumChecker(static_cast<int>(EsaPreemptionMode::PRIORITY),
                           "priority",
                           static_cast<int>(EsaPreemptionMode::ALWAYS),
                           "always",
                           static_cast<int>(EsaPreemptionMode::RANDOM),
                           "random");
}

/**
 * \ingroup esa
 * ESA's allocation decision for one gradient fragment at one aggregator (ESA paper, Section 5.2;
 * its Figure 5 pseudocode is lost, so the order of the checks follows the prose): pure logic, the
 * switch program applies it to its registers.
 *
 * An aggregator is held by a key (job id + sequence number, 0 = empty) with a priority (0 when
 * empty). A data fragment with key k and priority q arriving at it:
 * 1. empty: ALLOCATE; the aggregator takes k and q;
 * 2. held by k: AGGREGATE; the aggregator's priority becomes q ("priority renewal": a fragment
 *    still being fed gets back what downgrades took, spec B3 2d, an interpretation);
 * 3. held by another key with priority a:
 *    - PRIORITY: q > a: PREEMPT (the aggregator takes k and q, its partial aggregate goes to its
 * own job's parameter server); q <= a: FALLBACK (the fragment goes to its own job's parameter
 *      server) and the incumbent is downgraded to a >> 1 (ESA 5.4; a tie favours the incumbent,
 *      "higher or equal" in 5.2). Downgrades happen only here, so an incumbent that keeps fending
 *      off contenders reaches 0 within eight of them and then loses to anyone;
 *    - ALWAYS: PREEMPT;
 *    - RANDOM: PREEMPT when the switch's coin says so, else FALLBACK with no downgrade (the
 *      straw-men schedule nothing by priority).
 *
 * A reminder for key k (ESA 5.1) flushes the aggregator only if it holds k: another key's
 * aggregate must not be touched (spec B7.2).
 */
class EsaPreemptionPolicy
{
  public:
    /// What a data fragment does at its aggregator.
    enum class Action : uint8_t
    {
        ALLOCATE,  //!< empty: taken
        AGGREGATE, //!< held by the same key: merged
        PREEMPT,   //!< held by another key: evicted to its parameter server, taken
        FALLBACK   //!< held by another key: the fragment goes to its own parameter server
    };

    /// The decision and the aggregator's priority afterwards.
    struct Decision
    {
        Action action;    //!< what happens
        uint8_t priority; //!< the aggregator's priority after the packet
    };

    /**
     * \param holderKey the aggregator's key, 0 when empty
     * \param holderPriority its priority (ignored when empty)
     * \param key the fragment's key (not 0)
     * \param priority the fragment's priority
     * \param mode the policy
     * \param coin RANDOM: whether this collision preempts (ignored otherwise)
     * \return the decision
     */
    static constexpr Decision OnData(uint32_t holderKey,
                                     uint8_t holderPriority,
                                     uint32_t key,
                                     uint8_t priority,
                                     EsaPreemptionMode mode,
                                     bool coin)
    {
        if (holderKey == 0)
        {
            return {Action::ALLOCATE, priority};
        }
        if (holderKey == key)
        {
            return {Action::AGGREGATE, priority};
        }
        switch (mode)
        {
        case EsaPreemptionMode::ALWAYS:
            return {Action::PREEMPT, priority};
        case EsaPreemptionMode::RANDOM:
            return coin ? Decision{Action::PREEMPT, priority}
                        : Decision{Action::FALLBACK, holderPriority};
        case EsaPreemptionMode::PRIORITY:
        default:
            return priority > holderPriority
                       ? Decision{Action::PREEMPT, priority}
                       : Decision{Action::FALLBACK, static_cast<uint8_t>(holderPriority >> 1)};
        }
    }

    /**
     * \param holderKey the aggregator's key, 0 when empty
     * \param key the reminder's key
     * \return whether the reminder flushes (and frees) the aggregator
     */
    static constexpr bool ReminderHits(uint32_t holderKey, uint32_t key)
    {
        return key != 0 && holderKey == key;
    }
};

} // namespace ns3

#endif /* ESA_PREEMPTION_POLICY_H */
