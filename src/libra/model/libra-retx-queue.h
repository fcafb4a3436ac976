/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_RETX_QUEUE_H
#define LIBRA_RETX_QUEUE_H

#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * The sender's side of Libra's per-packet reliability (paper Sec. 3.6): every packet is
 * acknowledged by its receiver; a packet not acknowledged within the timeout is sent again with the
 * same sequence number and the retransmit flag. Pure logic over integer times (picoseconds), so it
 * is tested without a simulator; the owner schedules one event at GetNextDeadline().
 *
 * Items are named by a 64-bit id (the owner's sequence number). The timeout is fixed (no backoff:
 * the spec's default; the loss rates of the paper are below 10^-3). Sent() arms an item,
 * Acked() disarms it (an ACK for an unknown or already acknowledged item is counted as a
 * duplicate and ignored), Expired(now) returns the items due for a resend and re-arms them.
 * Deadlines are kept in a FIFO because every item's deadline is its last send plus the same
 * timeout, so the FIFO is in deadline order; entries of acknowledged or re-armed items are skipped
 * lazily.
 */
class LibraRetxQueue
{
  public:
    /// \param timeoutPs the retransmission timeout (> 0)
    explicit LibraRetxQueue(int64_t timeoutPs = 1)
        : m_timeoutPs(timeoutPs)
    {
    }

    /// \param timeoutPs the retransmission timeout (> 0)
    void SetTimeout(int64_t timeoutPs)
    {
        m_timeoutPs = timeoutPs;
    }

    /// \return the timeout
    int64_t GetTimeout() const
    {
        return m_timeoutPs;
    }

    /**
     * An item was sent (first time or again) at `nowPs`.
     * \param id the item
     * \param nowPs the time
     */
    void Sent(uint64_t id, int64_t nowPs)
    {
        const int64_t deadline = nowPs + m_timeoutPs;
        m_pending[id] = deadline;
        m_fifo.push_back({id, deadline});
    }

    /**
     * \param id the item
     * \return true when it was outstanding (now acknowledged), false for a duplicate ACK
     */
    bool Acked(uint64_t id)
    {
        auto it = m_pending.find(id);
        if (it == m_pending.end())
        {
            ++m_duplicateAcks;
            return false;
        }
        m_pending.erase(it);
        Trim();
        return true;
    }

    /**
     * The items whose deadline is at or before `nowPs`, in the order they were sent; each is
     * re-armed as sent again at `nowPs` (the caller resends them all).
     * \param nowPs the time
     * \param out filled with the ids (cleared first)
     */
    void Expired(int64_t nowPs, std::vector<uint64_t>& out)
    {
        out.clear();
        while (!m_fifo.empty() && m_fifo.front().deadline <= nowPs)
        {
            const Entry e = m_fifo.front();
            m_fifo.pop_front();
            auto it = m_pending.find(e.id);
            if (it != m_pending.end() && it->second == e.deadline)
            {
                out.push_back(e.id);
            }
        }
        for (uint64_t id : out)
        {
            Sent(id, nowPs);
        }
        m_resends += out.size();
    }

    /// \return whether the item is outstanding
    bool IsPending(uint64_t id) const
    {
        return m_pending.count(id) != 0;
    }

    /// \return the outstanding items
    uint64_t GetPending() const
    {
        return m_pending.size();
    }

    /// \return the earliest deadline of an outstanding item, or -1 when none
    int64_t GetNextDeadline()
    {
        Trim();
        return m_fifo.empty() ? -1 : m_fifo.front().deadline;
    }

    /// \return items handed out by Expired so far
    uint64_t GetResends() const
    {
        return m_resends;
    }

    /// \return ACKs for items that were not outstanding
    uint64_t GetDuplicateAcks() const
    {
        return m_duplicateAcks;
    }

  private:
    /// One arming of an item.
    struct Entry
    {
        uint64_t id;      //!< the item
        int64_t deadline; //!< when it expires
    };

  public:
    /// Forget every item (a failover: they were sent to a switch that is gone).
    void Clear()
    {
        m_pending.clear();
        m_fifo.clear();
    }

  private:
    /// Drop stale entries from the FIFO's head.
    void Trim()
    {
        while (!m_fifo.empty())
        {
            auto it = m_pending.find(m_fifo.front().id);
            if (it != m_pending.end() && it->second == m_fifo.front().deadline)
            {
                return;
            }
            m_fifo.pop_front();
        }
    }

    int64_t m_timeoutPs;                             //!< the timeout
    std::unordered_map<uint64_t, int64_t> m_pending; //!< outstanding item -> its deadline
    std::deque<Entry> m_fifo;                        //!< armings in deadline order
    uint64_t m_resends = 0;                          //!< items expired
    uint64_t m_duplicateAcks = 0;                    //!< ACKs of non-outstanding items
};

} // namespace ns3

#endif /* LIBRA_RETX_QUEUE_H */
