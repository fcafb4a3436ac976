/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_PROTOCOL_H
#define LIBRA_PROTOCOL_H

#include "libra-cold-server.h"
#include "libra-controller.h"
#include "libra-layout.h"
#include "libra-lns-adder.h"
#include "libra-program.h"
#include "libra-rank-table.h"
#include "libra-value-book.h"

#include "ns3/aggregation-protocol.h"
#include "ns3/nstime.h"
#include "ns3/sparse-workload.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class LibraAgent;

/**
 * \ingroup libra
 * Libra (Pan et al., "Libra: In-network Gradient Aggregation for Speeding up Distributed Sparse
 * Deep Training") for one job: registered as protocol "libra"; "libra-ps" is the same job with no
 * hot parameters, the sparse parameter server without in-network aggregation (the paper's PS-lite
 * baseline on the same host stack, spec A.14.9).
 *
 * The job's sparse gradients come from a SparseWorkload named by the Workload attribute (the
 * paper's five models, LibraSparseModel: oa-like and se-like, its two industrial models, and
 * deeplight, lstm and ncf, sized after their own papers; custom: Rows, Exponent), with
 * AccessesPerIteration row draws per worker and iteration and Dim floats per row (key = row x Dim
 * + j, one 4-B parameter each), the model's unless set. The hot set is the HotKeys hottest
 * parameters, from the law's ranks (HotSet true-ranks) or identified on a SamplingRate sample of a
 * SampleIterations-long run (sampled, paper Sec. 3.3). The job's `workload` (tensor_bytes or a zoo
 * model) is its dense part (the DenseNet), aggregated by the same PS hosts.
 *
 * Install: the aggregating switch is the ToR of the first PS host (paper Sec. 6); a LibraProgram is
 * installed there (or joined: jobs share it, each with its own register range, and a job that does
 * not fit is refused naming the numbers); the workers' multicast group; one LibraColdServer per PS
 * host (keys range-partitioned); and a sharded PS for the dense tensors.
 */
class LibraProtocol : public AggregationProtocol
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    // Out of line: a member holds a Ptr to a class this header only declares.
    LibraProtocol();
    ~LibraProtocol() override;

    bool UsesParameterServers() const override;
    std::map<std::string, double> GetCounters() const override;

    /**
     * The bound on one hot value's error relative to the sum of the magnitudes of its n
     * contributions: ((1 + d)^(n-1) - 1) with d the per-add bound of the LNS tables
     * (LibraLnsAdder::PerAddErrorBound), or 2 (n - 1) eps for exact float adds.
     * \param n contributions
     * \return the bound
     */
    double HotRelativeTolerance(uint32_t n) const;

    /// \return the layout (K, m, cap, placement, packing)
    const LibraLayout& GetLayout() const
    {
        return *m_layout;
    }

    /// \return the workers' key <-> rank table
    const LibraRankTable& GetRankTable() const
    {
        return m_rankTable;
    }

    /// \return the sparse workload
    const SparseWorkload& GetWorkload() const
    {
        return *m_workload;
    }

    /// \return floats per row
    uint32_t GetDim() const
    {
        return m_dim;
    }

    /// \return K (0: every pair is cold)
    uint32_t GetHotKeys() const
    {
        return m_hotKeys;
    }

    /// \return the aggregating switch's address (INA_NO_ADDRESS without hot keys)
    InaAddress GetSwitchAddress() const
    {
        return m_switchAddress;
    }

    /// \return the program on the aggregating switch (nullptr without hot keys); the standby's
    /// after a failover
    Ptr<LibraProgram> GetProgram() const
    {
        return m_program;
    }

    /// \return the program pre-installed on the first standby switch (nullptr without
    /// StandbySwitch)
    Ptr<LibraProgram> GetStandbyProgram() const
    {
        return m_standbys.empty() ? nullptr : m_standbys.front().program;
    }

    /// \return the programs pre-installed on the standby switches, in StandbySwitch's order
    std::vector<Ptr<LibraProgram>> GetStandbyPrograms() const;

    /// \return the failover controller (nullptr without StandbySwitch)
    Ptr<LibraController> GetController() const
    {
        return m_controller;
    }

    /// A worker started a sparse round (the controller heartbeats while rounds are out).
    void NoteRoundStarted();

    /// \return the workers' endpoint
    uint16_t GetEndpoint() const;

    /// \return register blocks of the job, ceil(K / m)
    uint32_t GetBlocks() const;

    /// \return hot packets a worker keeps in flight
    uint32_t GetWindow() const
    {
        return m_window;
    }

    /// \return the workers' retransmission timeout
    Time GetRto() const
    {
        return m_rto;
    }

    /// \return recirculations a push may need (beyond them, pairs go to the PS)
    uint32_t GetMaxRecirculations() const
    {
        return m_maxRecirculations;
    }

    /// \return the PS shards
    uint32_t GetNShards() const;

    /**
     * \param key a parameter key
     * \return its shard (range partition, as PS-lite)
     */
    uint32_t ShardOf(uint32_t key) const;

    /// \return the true sums (check_values)
    LibraValueBook& GetBook()
    {
        return m_book;
    }

    /**
     * \param iteration an iteration
     * \return the tensor id the sparse values of that iteration are drawn under (GradientValues)
     */
    static uint64_t SparseTensorId(uint32_t iteration)
    {
        return (uint64_t{1} << 62) | iteration;
    }

    /// Value checks of one worker's round (hot and cold), for the job's summary.
    void NoteChecks(uint64_t hotChecked,
                    uint64_t hotErrors,
                    double worstHotRelative,
                    uint64_t coldChecked,
                    uint64_t coldErrors);

    /// \return hot + cold values checked (the job adds them to its value check)
    uint64_t GetOwnValuesChecked() const override
    {
        return m_hotChecked + m_coldChecked;
    }

    /// \return hot + cold values wrong
    uint64_t GetOwnValueErrors() const override
    {
        return m_hotErrors + m_coldErrors;
    }

  protected:
    void DoDispose() override;

    /// \return false to aggregate nothing in the network (LibraSparsePsProtocol): HotKeys is 0
    virtual bool AggregatesInNetwork() const;

  private:
    void DoInstall() override;
    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override;
    /// The job's sparse workload, its hot keys in rank order and their switch layout.
    void BuildWorkload();
    /// GetCounters' failover part: heartbeats, moves, the last move's outage and state.
    void AddFailoverCounters(std::map<std::string, double>& m) const;
    /// Dim and AccessesPerIteration left at 0: the named model's (LibraSparseModel)
    void ResolveShape();
    /// \return the workload law's rows and Zipf exponent: the named model's (the exponent
    ///         solved for its skew unless Exponent is set), or Rows and Exponent
    std::pair<uint32_t, double> ResolveLaw() const;
    /// \return the keys of the HotKeys / Dim hottest rows (HotSet), hottest row first; a
    ///         sampled hot set's precision is kept for the counters
    std::vector<uint32_t> HotKeysInRankOrder();
    /// \return the switch layout's configuration for `hotKeys` keys (Placement, Packing)
    LibraLayout::Config LayoutConfig(uint32_t hotKeys) const;
    void InstallSwitch();
    /**
     * Install (or join) the Libra program on a switch and add this job to it.
     * \param node the switch's topology node
     * \param role what the switch is to the job, for messages
     * \param group set to the workers' multicast group rooted at the switch
     * \return the program
     */
    Ptr<LibraProgram> InstallProgramOn(uint32_t node, const std::string& role, InaAddress* group);
    /// \return the node named by the attribute `key` (value `name`), checked to be a switch
    uint32_t SwitchNode(const std::string& key, const std::string& name) const;
    void InstallController();
    /// A standby to move to: the first of StandbySwitch's list not left or failed (nullptr: none).
    struct Standby;
    Standby* NextStandby();
    /// The controller found the switch about to fail: pull its state to the next standby.
    void OnDegraded();
    /// The state pulled from the switch is installed on the standby, or a side failed.
    void OnMigrated(LibraController::MigrationResult result);
    /// The controller took the switch for failed (no answers): move the job to the next standby.
    void OnFailure();
    /// Move the job to the next standby without the failed switch's state (Figure 11's failure
    /// that strikes before it could be pulled): the round in progress is pushed again.
    void HardFailover();
    /// Point the job (its workers, the controller) at `to`.
    void MoveTo(Standby& to);
    /// No standby is left: the job ends, its workers giving up with `why`.
    void EndJob(const std::string& why);
    /// \return whether a worker has a sparse round out
    bool AnyRoundOut() const;
    void InstallServers();
    [[noreturn]] void Fail(const std::string& what) const;

    // Attributes
    std::string m_workloadName;
    uint32_t m_rows;
    double m_exponent;
    double m_exponentUsed = 0; //!< the workload's Zipf s, given or fitted
    /// HotSet sampled: the hot set's precision against the whole run's (Fig. 15); -1: not sampled
    double m_hotSetPrecision = -1;
    uint32_t m_dim;
    uint32_t m_accesses;
    uint64_t m_workloadSeed;
    uint32_t m_hotKeys;
    std::string m_hotSetSource;
    double m_samplingRate;
    uint32_t m_sampleIterations;
    uint32_t m_registers;
    uint32_t m_pairsPerPacket;
    std::string m_placement;
    std::string m_packing;
    uint32_t m_maxRecirculations;
    std::string m_addMode;
    double m_memoryShare;
    uint32_t m_window;
    Time m_rto;
    std::string m_switchName;
    std::string m_standbyName;
    Time m_heartbeatPeriod;
    Time m_heartbeatTimeout;
    double m_lossThreshold;
    Time m_delayThreshold;

    // installed
    std::unique_ptr<SparseWorkload> m_workload;
    std::unique_ptr<LibraLayout> m_layout;
    LibraRankTable m_rankTable;
    uint64_t m_totalKeys = 0;
    Ptr<LibraProgram> m_program;
    InaAddress m_switchAddress = INA_NO_ADDRESS;
    InaAddress m_group = INA_NO_ADDRESS;

    /// A switch the job may move to (StandbySwitch), Libra installed in advance.
    struct Standby
    {
        std::string name;                    //!< topology node name
        Ptr<LibraProgram> program;           //!< pre-installed
        InaAddress address = INA_NO_ADDRESS; //!< the switch
        InaAddress group = INA_NO_ADDRESS;   //!< the workers' multicast group rooted there
        bool used = false;                   //!< the job moved there (or tried to) already
    };

    std::string m_currentName; //!< the aggregating switch's name, for messages
    std::vector<Standby> m_standbys;
    Standby* m_migratingTo = nullptr; //!< the standby a migration is installing on
    Ptr<LibraController> m_controller;
    uint32_t m_failovers = 0;  //!< moves to a standby
    uint32_t m_migrations = 0; //!< of which with the state pulled (live)
    Time m_failoverAt;         //!< when the job last moved
    Time m_failoverTime;       //!< the last move's outage: detection or last answer to move
    Time m_suspectAt;          //!< when the switch was found about to fail
    Time m_migrationTime; //!< the last migration: found about to fail to the standby taking over
    uint32_t m_replayedRound = 0;
    bool m_replayed = false; //!< a round was pushed again on a standby
    bool m_ended = false;    //!< no standby was left: the job ended
    std::vector<Ptr<LibraColdServer>> m_servers;
    std::vector<std::vector<Ptr<InaTransportSender>>> m_coldPush;   //!< [worker][shard]
    std::vector<std::vector<Ptr<InaTransportReceiver>>> m_coldPull; //!< [worker][shard]
    Ptr<AggregationProtocol> m_dense;
    std::vector<Ptr<LibraAgent>> m_agents;
    LibraValueBook m_book;
    uint64_t m_hotChecked = 0;
    uint64_t m_hotErrors = 0;
    double m_worstHotRelative = 0;
    uint64_t m_coldChecked = 0;
    uint64_t m_coldErrors = 0;
};

} // namespace ns3

#endif /* LIBRA_PROTOCOL_H */
