/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_VALUE_BOOK_H
#define LIBRA_VALUE_BOOK_H

#include <cstdint>
#include <map>
#include <unordered_map>

namespace ns3
{

/**
 * \ingroup libra
 * The true sums a Libra job's results are checked against (check_values): for every round and
 * key, what the workers sent to the switch (hot) and to the parameter servers (cold), summed in
 * double precision, with the sum of magnitudes (the scale of the switch's log-domain error) and
 * the number of contributions.
 *
 * Workers record each pair as they send it (a worker's split of its pairs between switch and PS
 * is its own decision: a hot pair beyond the recirculation cap goes to the PS), and check their
 * results once the round is complete, when every worker has recorded. A round is dropped after
 * every worker has checked it (Release).
 */
class LibraValueBook
{
  public:
    /// The two halves of one key in one round.
    struct Entry
    {
        double hotSum = 0;  //!< sum of the values sent to the switch
        double hotAbs = 0;  //!< sum of their magnitudes
        uint32_t hotN = 0;  //!< contributions to the switch
        double coldSum = 0; //!< sum of the values sent to the PS
        uint32_t coldN = 0; //!< contributions to the PS
    };

    /// Keys of one round.
    using Round = std::unordered_map<uint32_t, Entry>;

    /**
     * \param workers workers that check every round
     */
    explicit LibraValueBook(uint32_t workers = 1)
        : m_workers(workers)
    {
    }

    /**
     * \param round the round
     * \param key a parameter key
     * \param value the value a worker sent
     * \param hot to the switch (true) or the PS (false)
     */
    void Add(uint32_t round, uint32_t key, float value, bool hot)
    {
        Entry& e = m_rounds[round][key];
        if (hot)
        {
            e.hotSum += value;
            e.hotAbs += value < 0 ? -static_cast<double>(value) : value;
            ++e.hotN;
        }
        else
        {
            e.coldSum += value;
            ++e.coldN;
        }
    }

    /**
     * \param round the round
     * \return its keys (an empty round when nobody recorded)
     */
    const Round& Get(uint32_t round)
    {
        return m_rounds[round];
    }

    /// One worker has checked `round`; the last one frees it.
    void Release(uint32_t round)
    {
        if (++m_released[round] >= m_workers)
        {
            m_rounds.erase(round);
            m_released.erase(round);
        }
    }

  private:
    uint32_t m_workers;                      //!< checks per round
    std::map<uint32_t, Round> m_rounds;      //!< round -> keys
    std::map<uint32_t, uint32_t> m_released; //!< round -> workers done checking
};

} // namespace ns3

#endif /* LIBRA_VALUE_BOOK_H */
