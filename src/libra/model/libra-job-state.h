/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_JOB_STATE_H
#define LIBRA_JOB_STATE_H

#include "libra-header.h"
#include "libra-switch-records.h"

#include "ns3/ina-packet.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * The aggregation state of one job on a Libra switch, as the failover controller pulls it from a
 * switch that is about to fail and installs it on a standby (paper Sec. 3.6, Figure 11: "the
 * switch states (a.k.a aggregation results) are passively pulled by the controller ... sends the
 * states to this switch. The selected switch then uses the migrated states to resume the
 * training"). It is everything the job's packets depend on, in the pipeline and on the switch
 * CPU (Libra_s), so that the standby carries on where the old switch stopped:
 * - the job's register range (sum and readers of every cell), in the layout both switches share
 *   (the layout is fixed in advance, which is why the standby can take the cells as they are);
 * - the round's DONE counter;
 * - the CPU's records (pushes aggregated, DONEs counted, pulls served), so that a push the old
 *   switch aggregated and the worker resends to the standby is not added twice;
 * - the READY and RESULT copies the CPU holds until acknowledged, so that a served pull's result
 *   is not lost with the old switch.
 *
 * The held packets belong to the state (they are the fabric's pool's) until ImportJobState takes
 * them; whoever drops a state frees them.
 */
struct LibraJobState
{
    /// A READY or RESULT copy the switch CPU holds, with its identity and acknowledgements.
    struct HeldCopy
    {
        InaPacket* copy = nullptr; //!< the packet as sent
        std::vector<bool> acked;   //!< a READY's acknowledgements by rank (empty: a RESULT)
        uint32_t to = 0;           //!< a RESULT's addressee
        uint32_t missing = 0;      //!< addressees that have not acknowledged
        uint32_t round = 0;        //!< its round
        uint32_t worker = 0;       //!< its addressee, or the READY marker
        uint32_t seq = 0;          //!< the pull's number, or the READY's phase marker
    };

    /// Bytes one register cell takes in the transfer: the 64-bit pair (sum, readers).
    static constexpr uint64_t CELL_BYTES = 8;
    /// Bytes a record takes: the 64-bit key the CPU keeps.
    static constexpr uint64_t RECORD_BYTES = 8;
    /// Bytes a held copy takes beside its packet: round, worker, sequence, acknowledgements.
    static constexpr uint64_t HELD_META_BYTES = 16;

    uint32_t registers = 0;        //!< m
    uint32_t blocks = 0;           //!< cells per lane of the job
    std::vector<uint64_t> cells;   //!< cell (block b, lane l) at b x m + l
    uint64_t doneCount = 0;        //!< the job's cell of libra_done
    LibraSwitchRecords records;    //!< Libra_s's records of the job
    uint32_t lastPrunedRound = 0;  //!< records before this round are gone
    std::vector<HeldCopy> held;    //!< the CPU's copies of the job
    uint64_t cellsWithReaders = 0; //!< cells of a round in progress (pushed, not all read)

    /// \return the bytes the state takes on the wire (what the controller moves)
    uint64_t GetBytes() const
    {
        uint64_t bytes = cells.size() * CELL_BYTES + 8 + records.GetSize() * RECORD_BYTES;
        for (const HeldCopy& h : held)
        {
            bytes += HELD_META_BYTES + (h.copy != nullptr ? h.copy->wireBytes : 0);
        }
        return bytes;
    }

    /// \return the STATE (or STATE_INSTALL) packets the state takes, of
    /// LibraHeader::STATE_CHUNK_BYTES each
    uint64_t GetChunks() const
    {
        return (GetBytes() + LibraHeader::STATE_CHUNK_BYTES - 1) / LibraHeader::STATE_CHUNK_BYTES;
    }

    /// \param seq a chunk's number, below GetChunks()
    /// \return the bytes of state that chunk carries (the last one may be short)
    uint32_t GetChunkBytes(uint32_t seq) const
    {
        return static_cast<uint32_t>(
            std::min<uint64_t>(LibraHeader::STATE_CHUNK_BYTES,
                               GetBytes() - uint64_t{seq} * LibraHeader::STATE_CHUNK_BYTES));
    }
};

} // namespace ns3

#endif /* LIBRA_JOB_STATE_H */
