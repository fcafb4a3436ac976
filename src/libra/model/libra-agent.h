/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_AGENT_H
#define LIBRA_AGENT_H

#include "libra-layout.h"
#include "libra-retx-queue.h"

#include "ns3/aggregation-agent.h"
#include "ns3/ina-event.h"
#include "ns3/ina-port.h"
#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

class LibraProtocol;
class InaPacketPool;

/**
 * \ingroup libra
 * A Libra worker (paper Sec. 3.4 and 3.6, spec A.9). Each iteration's first tensor starts a
 * sparse round: the worker's rows of the job's SparseWorkload for that iteration become (key,
 * value) pairs; keys in the hot set (LibraRankTable) become ranks, packed by Algorithm 1 into
 * packets of at most 192 B and pushed to the aggregating switch; a pair that would need more
 * passes than the recirculation cap allows goes to the PS with the cold pairs (spec A.6.3). Cold
 * pairs are pushed, per key range, to the job's sparse PS shards over the reliable transport.
 *
 * Hot half: every push is acknowledged by the switch; once all are, the worker sends DONE; when
 * the switch has every worker's DONE it multicasts READY, and each worker pulls the parameters it
 * uses (paper Sec. 3.2), i.e. the ranks it pushed: one PULL per push packet, carrying that
 * packet's ranks (so it needs the same passes), answered by a RESULT to this worker alone with the
 * round's sums. Once every pull is answered the worker sends DONE of phase 1; the hot half is back
 * when the switch's READY of phase 1 says every worker's pulls are answered, so that no next-round
 * push lands in a cell another worker has still to read. Every packet the worker sends is
 * retransmitted with the retransmit flag until acknowledged (LibraRetxQueue); every READY and
 * RESULT it receives is acknowledged to the switch CPU.
 * Cold half: back when every shard's pull reply has arrived.
 *
 * All tensors (the job's dense part, the DenseNet) go to the same PS hosts through a sharded PS
 * agent; the round's first tensor is reported done once both halves and its dense part are back.
 * With check_values the worker checks every hot and cold value of the round (see LibraProtocol).
 */
class LibraAgent : public AggregationAgent, public InaPacketSink
{
  public:
    /// Per-agent counters.
    struct Counters
    {
        uint64_t rounds = 0;          //!< sparse rounds completed
        uint64_t hotPairs = 0;        //!< pairs pushed to the switch
        uint64_t coldPairs = 0;       //!< pairs pushed to the PS (fallback included)
        uint64_t fallbackPairs = 0;   //!< hot pairs sent to the PS because of the recirculation cap
        uint64_t hotPackets = 0;      //!< push packets (first transmissions)
        uint64_t collisions = 0;      //!< pairs sharing a register with an earlier pair of a packet
        uint64_t recirculations = 0;  //!< passes beyond the first, over the push packets
        uint64_t pulls = 0;           //!< pull packets (first transmissions)
        uint64_t resends = 0;         //!< hot-path packets sent again after a timeout
        uint64_t resultsReceived = 0; //!< RESULT packets that arrived (duplicates included)
        uint64_t replayedPackets = 0; //!< push packets sent again to a standby after a failover
        int64_t sparseBusyPs = 0;     //!< time with a sparse round outstanding
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LibraAgent();
    ~LibraAgent() override;

    /// \param protocol the job's protocol (before Setup)
    void SetProtocol(Ptr<LibraProtocol> protocol);

    /**
     * The flows to the cold PS shards and the dense agent (before Setup).
     * \param push per shard, the push flow
     * \param pull per shard, the pull flow
     * \param dense the sharded PS agent for the job's dense tensors
     */
    void SetPsFlows(std::vector<Ptr<InaTransportSender>> push,
                    std::vector<Ptr<InaTransportReceiver>> pull,
                    Ptr<AggregationAgent> dense);

    /// \return the counters
    const Counters& GetCounters() const
    {
        return m_counters;
    }

    /// Where a worker stands when its aggregating switch fails (LibraProtocol::Failover).
    enum class HotState
    {
        IDLE,    //!< no hot half outstanding (between rounds, or HotKeys 0)
        PENDING, //!< the round's pushes or pulls are not all answered
        RESULTS  //!< every pull answered, waiting for the READY of phase 1
    };

    /// \return where the worker stands, and its round in m_round's place
    HotState GetHotState(uint32_t* round) const;

    /// What LibraProtocol::Failover asks of a worker.
    enum class FailoverAction
    {
        READDRESS, //!< only send to the standby from now on
        REPLAY,    //!< and push and pull the current round's hot half again, from its start
        RELEASE    //!< and take the failover as the READY of phase 1 it was waiting for
    };

    /**
     * The switch failed and the controller moved the job to the standby: what the worker had in
     * flight is gone with the switch (its timers are dropped).
     * \param standby the standby switch's address
     * \param action what to do with the round in progress
     */
    void Failover(InaAddress standby, FailoverAction action);

    /**
     * The job cannot go on (its switch failed and no standby is left): stop sending and give up
     * with `why`, so that the run ends with the job not completed and the reason.
     * \param why the reason
     */
    void Abandon(const std::string& why);

    // InaPacketSink: packets from the switch
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    void DoDispose() override;

  private:
    void DoSetup() override;
    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override;

    /// Item kinds of the retransmission queue (top bits of an item id).
    enum Item : uint64_t
    {
        ITEM_PUSH = 1,
        ITEM_DONE = 2,
        ITEM_PULL = 3
    };

    static uint64_t ItemId(Item kind, uint32_t round, uint32_t seq)
    {
        return static_cast<uint64_t>(kind) << 60 | uint64_t{round} << 24 | seq;
    }

    /// A round's pairs, as StartRound sorts them.
    struct RoundPairs
    {
        std::vector<uint32_t> hotRanks;               //!< the hot pairs' ranks
        std::vector<uint32_t> hotBits;                //!< their values' float bits
        std::vector<uint32_t> hotKeys;                //!< their keys
        std::vector<std::vector<uint32_t>> coldWords; //!< per shard: key, bits, 0 (checked)
        std::vector<uint64_t> coldPairs;              //!< per shard: cold pairs
    };

    void StartRound(uint32_t iteration);
    /// \return the round's pairs: every key of the rows the worker draws, hot or cold
    RoundPairs DrawPairs(uint32_t iteration);
    /// One cold pair for its shard (and the value book when values are checked).
    void AddCold(RoundPairs& pairs, uint32_t iteration, uint32_t key, float v);
    /// The hot pairs packed into push packets (Algorithm 1), the pairs over the recirculation
    /// cap moved to the cold pairs.
    void PackHotPairs(RoundPairs& pairs, uint32_t iteration);
    /// The hot half's state for a new round.
    void ResetHotHalf();
    void SendPushes();
    void SendPush(uint32_t seq, bool retx);
    void SendDone(uint32_t phase, bool retx);
    void BeginPushes();
    void ResultsIn();
    void StartPulls();
    void SendPulls();
    void SendPull(uint32_t seq, bool retx);
    void SendAck(uint8_t type, uint32_t round, uint32_t seq);
    /// Count and send `p`, item `kind` number `seq` of the round: a first send is timed for
    /// its retransmission, a retransmission counted; the timer is armed either way.
    void SendTracked(InaPacket* p, Item kind, uint32_t seq, bool retx);
    InaPacket* NewPacket(uint8_t type, uint32_t round, uint32_t seq, bool retx);
    /// A packet of this round carrying the (rank, value) words of push packet `seq`.
    InaPacket* NewPairsPacket(uint8_t type, uint32_t seq, bool retx);
    void OnResult(InaPacket* p);

    void ColdReply(uint32_t shard, uint64_t bytes, std::vector<uint32_t>& words);
    static void ColdThunk(LibraAgent* self,
                          uint32_t shard,
                          uint32_t msg,
                          uint64_t bytes,
                          std::vector<uint32_t>& words);
    static void DenseThunk(LibraAgent* self, uint64_t tensorId);
    void DenseDone(uint64_t tensorId);
    void MaybeFinish();
    void ArmTimer();
    void OnTimer();
    bool FlowFailed() const override;
    void RefreshStats();

    Ptr<LibraProtocol> m_protocol;
    Ptr<InaHost> m_host;
    InaPacketPool* m_pool = nullptr;
    InaAddress m_switch = INA_NO_ADDRESS; //!< the aggregating switch
    uint16_t m_endpoint = 0;
    uint32_t m_flowId = 0;
    uint32_t m_workers = 0;
    bool m_hotEnabled = true; //!< false: every pair is cold (HotKeys 0)
    uint32_t m_registers = 0; //!< m (0 without hot keys)
    uint32_t m_window = 0;    //!< hot packets in flight
    bool m_check = false;

    std::vector<Ptr<InaTransportSender>> m_coldPush;
    std::vector<Ptr<InaTransportReceiver>> m_coldPull;
    Ptr<AggregationAgent> m_dense;
    AggregationAgent::Stats m_ownStats; //!< this agent's own traffic (the dense agent's is added)

    // the round in progress
    bool m_active = false;
    uint32_t m_round = 0;
    uint64_t m_roundTensor = 0;      //!< the iteration's first tensor
    bool m_roundTensorDense = false; //!< its dense part is back
    int64_t m_roundStartPs = 0;
    std::vector<uint32_t> m_pushWords; //!< all push packets' (rank, value) words
    std::vector<uint32_t> m_pushBegin; //!< packet p is pairs [begin[p], begin[p + 1])
    uint32_t m_nextPush = 0;
    uint32_t m_pushAcked = 0;
    std::vector<bool> m_pushDone;
    bool m_doneSent = false;
    bool m_doneAcked = false;
    bool m_resultsIn = false; //!< every pull of the round answered (and checked)
    bool m_ready = false;
    std::vector<uint32_t> m_pushKeys; //!< with check_values: the key of each pushed pair
    uint32_t m_nextPull = 0;
    std::vector<bool> m_havePull;        //!< pull p (of push packet p) answered
    std::vector<uint32_t> m_resultWords; //!< the sum pulled for each pushed pair
    uint32_t m_pullsHave = 0;
    bool m_hotBack = false;
    uint32_t m_coldReplies = 0;
    bool m_coldBack = false;
    uint64_t m_coldPairsThisRound = 0;

    LibraRetxQueue m_retx;
    Ptr<EventImpl> m_timer;
    bool m_timerPending = false;
    std::vector<uint64_t> m_expired; //!< scratch
    LibraPacking m_packing;          //!< reused
    std::vector<uint32_t> m_passOf;  //!< scratch

    Counters m_counters;
};

} // namespace ns3

#endif /* LIBRA_AGENT_H */
