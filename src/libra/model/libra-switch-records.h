/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_SWITCH_RECORDS_H
#define LIBRA_SWITCH_RECORDS_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace ns3
{

/**
 * \ingroup libra
 * What the switch CPU (the paper's Libra_s) remembers of one job so that a retransmitted packet
 * is never applied twice (paper Sec. 3.6, Figure 10's repeat-write error): the pushes aggregated,
 * the done markers counted and the pulls served (a pull consumes one reader of each register
 * cell it reads, so it must not take effect twice either), per round. Every packet that takes
 * effect on the fast path is recorded (otherwise the check of a retransmission could not work);
 * a packet carrying the retransmit flag is looked up here before it may take effect.
 *
 * Pure logic, tested packet by packet against a reference model (test/gtest). Records of rounds
 * older than the previous one are dropped once a round completes (PruneBefore): a worker resends
 * a round's pushes only until it sends that round's done marker, so no retransmission of round
 * r - 2 can still arrive once round r has begun.
 */
class LibraSwitchRecords
{
  public:
    /// Largest worker rank + 1, push or pull sequence number + 1 and round + 1 the keys can hold.
    static constexpr uint32_t MAX_WORKERS = 1u << 16;
    static constexpr uint32_t MAX_SEQ = 1u << 24;
    static constexpr uint32_t MAX_ROUND = 1u << 24;

    /**
     * \param worker rank
     * \param round round
     * \param seq packet index in the worker's round
     * \return true when newly recorded, false when it was recorded already (a repeat)
     */
    bool RecordPush(uint32_t worker, uint32_t round, uint32_t seq)
    {
        return m_pushes.insert(PushKey(worker, round, seq)).second;
    }

    /// \return whether that push has taken effect
    bool HasPush(uint32_t worker, uint32_t round, uint32_t seq) const
    {
        return m_pushes.count(PushKey(worker, round, seq)) != 0;
    }

    /**
     * \param worker rank
     * \param round round
     * \param phase 0: the worker's pushes are in; 1: its pulls are answered
     * \return true when newly recorded, false for a repeat
     */
    bool RecordDone(uint32_t worker, uint32_t round, uint32_t phase = 0)
    {
        return m_dones.insert(DoneKey(worker, round, phase)).second;
    }

    /// \return whether the worker's done marker of that round and phase was counted
    bool HasDone(uint32_t worker, uint32_t round, uint32_t phase = 0) const
    {
        return m_dones.count(DoneKey(worker, round, phase)) != 0;
    }

    /**
     * \param worker rank
     * \param round round
     * \param seq pull index in the worker's round (the push packet whose ranks it reads)
     * \return true when newly recorded, false when that pull was served already (a repeat)
     */
    bool RecordPull(uint32_t worker, uint32_t round, uint32_t seq)
    {
        return m_pulls.insert(PushKey(worker, round, seq)).second;
    }

    /// \return whether that pull has been served
    bool HasPull(uint32_t worker, uint32_t round, uint32_t seq) const
    {
        return m_pulls.count(PushKey(worker, round, seq)) != 0;
    }

    /// Drop every record of rounds before `round`.
    void PruneBefore(uint32_t round)
    {
        Prune(m_pushes, round, 40);
        Prune(m_dones, round, 32);
        Prune(m_pulls, round, 40);
    }

    /// \return records held (pushes + dones + pulls)
    uint64_t GetSize() const
    {
        return m_pushes.size() + m_dones.size() + m_pulls.size();
    }

  private:
    static uint64_t PushKey(uint32_t worker, uint32_t round, uint32_t seq)
    {
        if (worker >= MAX_WORKERS || seq >= MAX_SEQ || round >= MAX_ROUND)
        {
            throw std::out_of_range("Libra switch records: worker " + std::to_string(worker) +
                                    ", round " + std::to_string(round) + " or push " +
                                    std::to_string(seq) + " beyond the record key's range");
        }
        return uint64_t{round} << 40 | uint64_t{worker} << 24 | seq;
    }

    static uint64_t DoneKey(uint32_t worker, uint32_t round, uint32_t phase)
    {
        return uint64_t{round} << 32 | uint64_t{worker} << 1 | (phase & 1U);
    }

    static void Prune(std::unordered_set<uint64_t>& s, uint32_t round, unsigned shift)
    {
        for (auto it = s.begin(); it != s.end();)
        {
            it = (*it >> shift) < round ? s.erase(it) : std::next(it);
        }
    }

    std::unordered_set<uint64_t> m_pushes; //!< (round, worker, seq) aggregated
    std::unordered_set<uint64_t> m_dones;  //!< (round, worker, phase) counted
    std::unordered_set<uint64_t> m_pulls;  //!< (round, worker, seq) served
};

} // namespace ns3

#endif /* LIBRA_SWITCH_RECORDS_H */
