/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_PARAMETER_SERVER_H
#define POOL_PARAMETER_SERVER_H

#include "pool-header.h"

#include "ns3/ina-host.h"
#include "ns3/ina-port.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class PoolAgent;

/**
 * \ingroup ina-protocol-kit
 * One parameter server of one ATP job (ATP's released code, server/ParameterServer.cc): it
 * completes what the switches could not. Every gradient packet that reaches it (a complete
 * in-network aggregate, a fragment that collided, a level-1 aggregate that collided at level 2, a
 * partial flushed by a resend, a resend that found no aggregator) is merged into the fragment's
 * slice; once every worker is recorded it sends one parameter packet, which the switches multicast
 * to the job's workers (freeing their aggregators on the way), and it answers every later packet of
 * that fragment again (the resend path: workers drop the extras).
 *
 * Dedup by bitmap: the server keeps one bit per worker and fragment, flattening the packet's
 * (edgeSwitchIdentifier, bitmap0, bitmap1) into workers with the job's group map (our
 * interpretation for two levels, which the single-level code does not have): edgeSwitchIdentifier 1
 * names whole groups in bitmap1, 0 names the workers of bitmap0 within the one group of bitmap1. A
 * packet carrying every worker overwrites the slice; a partial that shares any worker with what is
 * recorded is discarded whole (no subtraction), and a later resend brings that worker again.
 * Optionally (Config::supersetReplaces, not ATP's code) a partial whose workers include every
 * recorded one replaces the slice instead: a level-1 flush that absorbed a resend of a worker whose
 * original had collided is then not lost.
 *
 * State is a ring of fragments indexed by sequence number, sized from the workers' largest window
 * (no worker can be more than one window ahead of the slowest, so a fragment a window older than
 * the newest one seen is complete everywhere); no allocation per packet. Parameter packets reuse
 * the triggering packet and leave at once (the code's batching per receive burst is not modelled).
 */
class PoolParameterServer : public Object, public InaPacketSink
{
  public:
    /// A level-1 group of workers, in the server's flat worker numbering.
    struct Group
    {
        uint32_t firstWorker = 0; //!< flat index of its bitmap0 position 0
        uint32_t size = 0;        //!< workers (its fanInDegree0)
    };

    /// What the protocol tells the server.
    struct Config
    {
        std::string name;                        //!< for messages: "job j0 PS 0"
        uint32_t jobId = 0;                      //!< InaPacket::jobId
        uint16_t protocol = ATP_PROTOCOL;        //!< InaPacket::protocol of its packets
        uint8_t psIndex = 0;                     //!< PoolHeader::psIndex of its fragments
        Ptr<InaHost> host;                       //!< where it runs
        uint16_t endpoint = 0;                   //!< endpoint it binds (the job's ATP endpoint)
        InaAddress resultGroup = INA_NO_ADDRESS; //!< multicast group of the job's workers
        uint32_t resultFlowId = 0;               //!< flow id of its parameter packets
        bool checkValues = false;                //!< packets carry values
        uint32_t window = 1;                     //!< the workers' largest window, in fragments
        bool supersetReplaces = false;           //!< a partial holding every recorded worker
                                                 //!< replaces the slice (not ATP's code)
        std::vector<Group> groups;               //!< by bitmap1 position
        std::vector<uint32_t> rankOfWorker;      //!< flat worker index -> worker rank
    };

    /// What the server counted.
    struct Counters
    {
        uint64_t packets = 0;           //!< gradient packets merged or answered (not dropped)
        uint64_t fullAggregates = 0;    //!< of those, carrying every worker
        uint64_t partials = 0;          //!< carrying fewer: the PS aggregates them (fallback)
        uint64_t collisions = 0;        //!< with the collision flag
        uint64_t resends = 0;           //!< with the resend flag
        uint64_t overlapDiscarded = 0;  //!< partials sharing a recorded worker: discarded whole
        uint64_t supersetReplaced = 0;  //!< partials holding every recorded worker: replaced
        uint64_t fragments = 0;         //!< fragments completed
        uint64_t results = 0;           //!< parameter packets sent
        uint64_t stale = 0;             //!< for a fragment the ring no longer holds: dropped
        uint64_t malformed = 0;         //!< naming no worker of the job, or not ATP: dropped
        uint64_t evictedIncomplete = 0; //!< incomplete fragments overwritten (must stay 0)
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Size the state and bind the endpoint on the host. Throws std::invalid_argument on an
     * inconsistent configuration (no group, a group of 0 or more than 31 workers, more than 31
     * groups, a rank map of the wrong length).
     * \param config the configuration
     */
    void Setup(const Config& config);

    /**
     * The job's trees changed under the server (GRID's controller re-assigned its aggregation
     * nodes): the new groups and rank map (the same workers), checked as Setup checks them.
     * Completed fragments stay, to be answered again; the open ones are emptied, since their
     * partial sums were recorded by the old groups' worker numbering and the workers send those
     * fragments again (PoolAgent::Reroute).
     * \param groups the new groups, by bitmap1 position
     * \param rankOfWorker flat worker index -> worker rank
     * \return the open fragments emptied
     */
    uint32_t Regroup(const std::vector<Group>& groups, const std::vector<uint32_t>& rankOfWorker);

    /**
     * Fallback packets are counted in the agent of the worker they carry (the lowest one).
     * \param rank a worker
     * \param agent its agent (must outlive the server, or be reset to nullptr)
     */
    void SetAgent(uint32_t rank, PoolAgent* agent);

    // InaPacketSink: gradient packets of the job.
    void Receive(InaPacket* p, uint32_t port) override;

    /// \return the counters
    const Counters& GetCounters() const;
    /// \return fragments with some but not every worker recorded
    uint32_t GetOpenFragments() const;
    /// \return the configuration
    const Config& GetConfig() const;
    /// \return workers of the job
    uint32_t GetNWorkers() const;

  protected:
    void DoDispose() override;

    /**
     * A fragment is complete: send `p` (the packet that completed it or repeated it, header kept)
     * as its parameter packet. ATP sends one copy to the workers' multicast group.
     * \param p the packet to turn into the parameter packet
     * \param slot the fragment's ring slot
     */
    virtual void SendResult(InaPacket* p, uint32_t slot);

    /**
     * The workers a packet carries, into m_scratch.
     * \param h its header
     * \return how many, or 0 when the bitmaps name none of the job's workers or one outside it
     */
    uint32_t Decode(const PoolHeader* h);

    /**
     * Makes `slot` fragment `seq`'s: a newer fragment takes the slot over from an older one.
     * \return false when the slot holds a newer fragment (`seq` is stale)
     */
    bool ClaimSlot(uint32_t slot, uint64_t seq);

    /// Empties `slot`: no worker recorded, no flags (its sequence number stays).
    void EmptySlot(uint32_t slot);

    /**
     * Records a partial sum of `k` workers (in m_scratch) for `slot`: added when it shares no
     * worker with what is recorded, taken instead when it holds all of that (SupersetReplaces),
     * discarded otherwise. Counts the fallback at the agent of its lowest worker.
     */
    void TakePartial(const InaPacket* p, uint32_t slot, uint32_t k, bool hasValues);

    /// \return the slot's values (checkValues)
    int32_t* SlotValues(uint32_t slot)
    {
        return m_values.data() + static_cast<size_t>(slot) * PoolHeader::VALUES;
    }

    /// \name The fragment ring, for subclasses (ESA's reminders and pulls)
    /// @{
    /// \return the ring slot of fragment `seq`
    uint32_t SlotOf(uint64_t seq) const
    {
        return static_cast<uint32_t>(seq & m_ringMask);
    }

    /// \return the fragment a slot holds (0: none)
    uint64_t SlotSeq(uint32_t slot) const
    {
        return m_seq[slot];
    }

    /// \return workers recorded in a slot
    uint32_t SlotCount(uint32_t slot) const
    {
        return m_count[slot];
    }

    /// \return a slot's worker bits: MaskWords() words, flat worker w is bit w % 64 of word w / 64
    const uint64_t* SlotMask(uint32_t slot) const
    {
        return m_mask.data() + static_cast<size_t>(slot) * m_words;
    }

    /// \return 64-bit words per worker bitmap
    uint32_t MaskWords() const
    {
        return m_words;
    }

    /// \return whether a slot holds values (checkValues)
    bool SlotFilled(uint32_t slot) const
    {
        return (m_flags[slot] & FILLED) != 0;
    }

    /// @}

    Config m_config;   //!< the configuration
    Counters m_counts; //!< the counters

  private:
    /**
     * \param name the server's name, for messages
     * \param groups groups by bitmap1 position
     * \param rankOfWorker the rank map
     * \return the workers the groups hold; throws std::invalid_argument when inconsistent
     */
    static uint32_t CheckGroups(const std::string& name,
                                const std::vector<Group>& groups,
                                const std::vector<uint32_t>& rankOfWorker);

    /// Per-slot flags.
    static constexpr uint8_t COLLIDED = 1; //!< the fragment ever collided
    static constexpr uint8_t FILLED = 2;   //!< the slot holds values

    uint32_t m_workers = 0;           //!< n
    uint32_t m_words = 0;             //!< 64-bit words per worker bitmap
    uint64_t m_ringMask = 0;          //!< ring size - 1
    std::vector<uint64_t> m_seq;      //!< per slot: its fragment (0: empty)
    std::vector<uint32_t> m_count;    //!< per slot: workers recorded
    std::vector<uint8_t> m_flags;     //!< per slot: COLLIDED, FILLED
    std::vector<uint64_t> m_mask;     //!< per slot: m_words words of worker bits
    std::vector<int32_t> m_values;    //!< per slot: 62 sums (checkValues)
    std::vector<uint64_t> m_scratch;  //!< the workers of the packet being handled
    std::vector<PoolAgent*> m_agents; //!< by rank
    bool m_bound = false;             //!< endpoint bound
};

} // namespace ns3

#endif /* POOL_PARAMETER_SERVER_H */
