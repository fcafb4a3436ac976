/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_REASONS_H
#define POOL_REASONS_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-protocol-kit
 * What a switch program of a shared pool counts per packet (SwitchProgram::GetReasonCount), the
 * same for ATP, ESA and GRID; each program numbers its own reasons from N_REASONS on. A base of
 * PoolProgram, so AtpProgram::COMPLETED and EsaProgram::COMPLETED name the same counter.
 */
struct PoolReasons
{
    /// The reasons every pool program counts.
    enum Reason : uint32_t
    {
        ALLOCATED,           //!< a free aggregator taken
        ABSORBED,            //!< a contribution merged, the aggregate incomplete: dropped
        COMPLETED,           //!< an aggregate completed: forwarded
        COLLISION,           //!< aggregator held by another key
        DUPLICATE_REEMITTED, //!< no new bit, aggregate complete: re-sent to the PS
        DUPLICATE_DROPPED,   //!< no new bit, aggregate incomplete: dropped
        RESEND_FLUSHED,      //!< a resend found its aggregator: flushed to the PS and freed
        RESEND_PASSED,       //!< a resend found no aggregator of its key: forwarded untouched
        BYPASSED,            //!< level 2: edgeSwitchIdentifier 0 passed to the PS untouched;
                             //!< or (PassWhenFull) a fragment passed for lack of capacity
        ACK_FREED,           //!< a parameter (result) packet freed its aggregator
        ACK_PASSED,          //!< a parameter (result) packet whose key held no aggregator here
        NOT_AGGREGATED,      //!< a job (or a group) this switch does not aggregate: forwarded
        OVERFLOW_PASSED,     //!< a float payload (overflow flag): forwarded untouched
        BAD_PACKET,          //!< index beyond the pool, fan-in 0 or > 31, short payload: forwarded
        N_REASONS            //!< number of reasons
    };

    /**
     * \param resultWord how the program's counters call a parameter packet ("ack" in ATP's and
     *        GRID's, "result" in ESA's): ACK_FREED is "<word>_freed"
     * \param extra the program's own reasons, N_REASONS on
     * \return the names of every reason, in order
     */
    static std::vector<std::string> Names(const std::string& resultWord,
                                          const std::vector<std::string>& extra)
    {
        std::vector<std::string> names{"allocated",
                                       "absorbed",
                                       "completed",
                                       "collision",
                                       "duplicate_reemitted",
                                       "duplicate_dropped",
                                       "resend_flushed",
                                       "resend_passed",
                                       "bypassed",
                                       resultWord + "_freed",
                                       resultWord + "_passed",
                                       "not_aggregated",
                                       "overflow_passed",
                                       "bad_packet"};
        names.insert(names.end(), extra.begin(), extra.end());
        return names;
    }
};

} // namespace ns3

#endif /* POOL_REASONS_H */
