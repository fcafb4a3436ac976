/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_PROTOCOL_H
#define POOL_PROTOCOL_H

#include "pool-parameter-server.h"
#include "pool-program.h"

#include "ns3/aggregation-protocol.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class PoolAgent;

/**
 * \ingroup ina-protocol-kit
 * The host and control-plane side of a shared-pool protocol for one job, as ATP builds it (Lao et
 * al., "ATP: In-network Aggregation for Multi-tenant Learning", NSDI'21, Section 3): ATP, ESA and
 * GRID derive from it and name their own switch program, parameter server and agent
 * (CreateProgram, CreateServer, CreatePoolAgent). Many jobs of one protocol share its program, and
 * so one aggregator pool, per switch.
 *
 * Install() plans one aggregation tree per parameter server (ctx.psHosts, 1..4; fragments of the
 * k-th tensor a worker hands go to server k mod P), installs or joins the protocol's program at
 * every switch on those trees, creates the servers and the multicast group their parameter packets
 * take to the workers.
 *
 * A tree (ATP paper, Section 3.3; aggregation only at rack switches, routing fixed): the workers
 * are split into level-1 groups, at most 31 of at most 31 workers (the 5-bit fan-in degrees):
 * - all workers in the parameter server's rack: one group, aggregated by that rack switch alone
 *   (the single-level case of ATP's code);
 * - otherwise each other rack holding two or more workers is a group its rack switch aggregates
 *   (level 1); every other worker (alone in its rack, in the parameter server's rack, or in a
 *   rack whose tier may not aggregate) is a group of its own, with edgeSwitchIdentifier already
 *   set; the parameter server's rack switch aggregates the groups (level 2) when there are two
 *   or more and its tier may aggregate. Otherwise the server merges the groups' aggregates.
 * Interpretation (the sources are silent): a rack holding both workers and the parameter server
 * cannot be level 1 and level 2 of one fragment with one aggregator index, so its workers join
 * level 2 directly.
 *
 * Aggregator index of fragment s (ATP paper, Section 3.2, and ATP's code): slot (s - 1) mod
 * MaxWindow, and each slot mapped once to an index by CRC32 over (job id, slot, salt) mod
 * HashRange, the salt bumped until the job has not used the index: a job never collides with
 * itself, two jobs can.
 */
class PoolProtocol : public AggregationProtocol
{
  public:
    /// A level-1 group of one tree.
    struct Group
    {
        uint32_t rack = 0;           //!< the workers' rack switch (node index)
        bool aggregates = false;     //!< its rack switch aggregates it (level 1)
        uint32_t firstWorker = 0;    //!< flat index at the parameter server
        std::vector<uint32_t> ranks; //!< its workers, by bitmap0 position
    };

    /// The tree of one parameter server.
    struct Tree
    {
        uint8_t psIndex = 0;                     //!< PoolHeader::psIndex
        uint32_t psHost = 0;                     //!< the server's host
        uint32_t psRack = 0;                     //!< its rack switch
        bool level2 = false;                     //!< psRack aggregates the groups
        std::vector<Group> groups;               //!< by bitmap1 position
        InaAddress resultGroup = INA_NO_ADDRESS; //!< multicast group of the workers
        Ptr<PoolParameterServer> server;         //!< the server
    };

    /// The header fields of one worker's gradient packets towards one parameter server.
    struct WorkerRoute
    {
        InaAddress ps = INA_NO_ADDRESS; //!< the server's host
        uint32_t bitmap0 = 0;           //!< its position in its group
        uint32_t bitmap1 = 0;           //!< its group
        uint8_t fanIn0 = 0;             //!< its group's workers
        uint8_t fanIn1 = 0;             //!< the groups
        bool edge = false;              //!< no level-1 aggregation for it
        /// 0: the job's flow toward this server (flowIdBase + psIndex, shared by the workers);
        /// else a flow of the worker's own, for a protocol that pins each worker's path (GRID)
        uint32_t flowId = 0;
        /// PoolHeader::reserved of its gradients: 0, or GRID's plan epoch (a protocol that
        /// changes its trees under a running job tells stale packets from current ones by it)
        uint8_t epoch = 0;

        /// Write the worker's place in the tree into a header it sends: bitmaps, fan-ins and
        /// the edge flag (the other flags cleared).
        void Stamp(PoolHeader* h) const
        {
            h->bitmap0 = bitmap0;
            h->bitmap1 = bitmap1;
            h->fanInDegree0 = fanIn0;
            h->fanInDegree1 = fanIn1;
            h->flags = edge ? PoolHeader::FLAG_EDGE : 0;
        }
    };

    /// A switch running the program for this job.
    struct SwitchEntry
    {
        uint32_t node = 0;        //!< node index
        Ptr<PoolProgram> program; //!< its ATP program
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// Out of line: a member holds a Ptr to a class this header only declares.
    ~PoolProtocol() override;

    /**
     * ATP's quantizer (Int32Quantizer): n / (2f) plus the float rounding of the result.
     * \param contributions n
     * \param maxAbsValue B
     * \return the bound
     */
    double ValueTolerance(uint32_t contributions, double maxAbsValue) const override;

    /// True: a job places ps_hosts parameter servers (1..4) for ATP.
    bool UsesParameterServers() const override;

    /// \return the job's counters: parameter-server merges, fallbacks, windows, timeouts, ...
    std::map<std::string, double> GetCounters() const override;

    /// \return one tree per parameter server, valid after Install
    const std::vector<Tree>& GetTrees() const;
    /// \return the switches running the program for this job
    const std::vector<SwitchEntry>& GetSwitches() const;
    /**
     * \param psIndex a parameter server
     * \param rank a worker
     * \return its header fields towards that server
     */
    const WorkerRoute& GetWorkerRoute(uint8_t psIndex, uint32_t rank) const;
    /// \return per slot ((s - 1) mod MaxWindow), the aggregator index
    const std::vector<uint16_t>& GetIndexTable() const;
    /// \return the hash range in use
    uint32_t GetHashRange() const;
    /// \return the host endpoint of the job's workers and servers
    uint16_t GetEndpoint() const;
    /// \return the parameter servers
    uint32_t GetNServers() const;
    /// \return InaPacket::protocol of the job's packets (ESA: its own program's number)
    uint16_t GetSwitchProtocol() const;

    /// \name Worker parameters (Attributes)
    /// @{
    uint32_t GetMaxWindow() const;
    uint32_t GetMinWindow() const;
    uint32_t GetInitialWindow() const;
    uint32_t GetAdditiveIncrease() const;
    bool GetLossDecrease() const;
    bool GetFastRetransmit() const;
    Time GetRto() const;
    Time GetFirstRto() const;
    double GetScalingFactor() const;
    /// @}

    /**
     * CRC-32 (IEEE 802.3, reflected, as zlib's crc32).
     * \param data bytes
     * \param n length
     * \return the CRC
     */
    static uint32_t Crc32(const uint8_t* data, size_t n);

    /**
     * ATP's slot-to-aggregator table: slot i gets CRC32(jobId, i, salt) mod range, the salt
     * (0, 1, ...) bumped until the index is not yet taken by an earlier slot. The three words are
     * hashed as 32-bit little-endian integers.
     * \param jobId the job
     * \param slots slots (<= range)
     * \param range hash range
     * \return the index of every slot, all distinct
     */
    static std::vector<uint16_t> SlotIndices(uint32_t jobId, uint32_t slots, uint32_t range);

  protected:
    /**
     * A protocol of the pool family says what it is once, here, rather than in an override per
     * protocol returning a constant.
     * \param switchProtocol InaPacket::protocol of the job's packets (its program's number)
     * \param label the protocol's short name in messages ("atp", "esa")
     */
    PoolProtocol(uint16_t switchProtocol, const std::string& label);

    void DoDispose() override;

    /// \return the program for a switch this job is the first to aggregate at (ESA: its own)
    virtual Ptr<PoolProgram> CreateProgram() const = 0;
    /// \return a parameter server for one tree, not yet set up
    virtual Ptr<PoolParameterServer> CreateServer() const = 0;
    /// \return an agent, not yet set up
    virtual Ptr<PoolAgent> CreatePoolAgent() const = 0;
    /// \return the protocol's short name in messages (ESA: "esa")
    const std::string& GetProtocolLabel() const;
    /**
     * \param typeName a PoolProgram's TypeId name
     * \return a factory of it with this job's PoolSize, if it sets one
     */
    ObjectFactory ProgramFactory(const std::string& typeName) const;
    /// Throws std::runtime_error("job NAME (atp): what").
    [[noreturn]] void Fail(const std::string& what) const;

    /// Plan the trees, install the programs, create the servers (ESA extends it).
    void DoInstall() override;

    /**
     * Plan the trees and every worker's route into m_trees and m_routes (ATP: rack switches;
     * GRID replaces it with its planner's assignment).
     */
    virtual void BuildTrees();

    /**
     * Install or join the program at every aggregating switch of m_trees and add the job's
     * entries there (PoolProgram::AddJob). Called again after the trees changed (GRID's
     * re-assignment, with the job's entries removed first): the switches the job used stay in
     * GetSwitches, the new ones are added, the aggregator indices stay.
     */
    void InstallPrograms();

    /// \return the workers' agents, by rank (empty before they are created)
    const std::vector<Ptr<PoolAgent>>& GetPoolAgents() const;

    /// Every worker's agent gives up with `why` (PoolAgent::Abandon): a control plane that has
    /// no plan left for the job (GRID's controller).
    void AbandonAgents(const std::string& why);

    /// Whether the job may aggregate at `node` (its tier is in ctx.inaTiers; a protocol may
    /// narrow it to a set of switches, AtpPacedProtocol's ProgrammableSwitches).
    virtual bool AllowedAt(uint32_t node) const;

    /// Whether a tree in which no switch aggregates is the job's to run rather than an error
    /// (false: the rack tier is missing from switch.ina_tiers, which the error says). True for a
    /// protocol given a set of switches, none of which happens to be a rack of the job's
    /// (AtpPacedProtocol in the GRID paper's scenario (b)): every worker goes to the PS.
    virtual bool MayAggregateNowhere() const;

    /**
     * Add worker `rank`, whose packets no switch aggregates, to the last of `groups` if that is
     * such a group with room, else to a new one: the parameter server reads each worker of such
     * a group by its bit of bitmap0, as it reads a switch's, so the pool header's 5-bit
     * fanInDegree1 bounds MAX_FAN_IN groups of MAX_FAN_IN direct workers, not MAX_FAN_IN workers.
     * \param groups a tree's groups, by bitmap1 position
     * \param rack the rack switch recorded for a new group
     * \param rank the worker
     * \return whether a new group was opened
     */
    static bool AddDirectWorker(std::vector<Group>& groups, uint32_t rack, uint32_t rank);

    std::vector<Tree> m_trees;                      //!< by PS index
    std::vector<std::vector<WorkerRoute>> m_routes; //!< [ps][rank]

  private:
    const uint16_t m_switchProtocol; //!< GetSwitchProtocol()
    const std::string m_label;       //!< GetProtocolLabel()

    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override;

    /// Check the attributes and the job's hosts.
    void CheckSetup() const;
    /// Fix the hash range and the slot table.
    void BuildIndexTable();
    /// Create and set up the parameter servers.
    void CreateServers();

    /// The parameter servers' counters, summed over the job's servers, into `c`.
    void AddServerCounters(std::map<std::string, double>* c) const;
    /// The agents' counters, summed over the workers, and the mean window, into `c`.
    void AddAgentCounters(std::map<std::string, double>* c) const;

    /// Tree t's level-1 groups: a rack's two or more workers aggregate at the rack switch where
    /// allowed (not at the PS's own rack with Level2), any other worker is a group of its own.
    std::vector<Group> GroupWorkers(const Tree& t,
                                    const std::map<uint32_t, std::vector<uint32_t>>& byRack) const;
    /// Checks tree t's fan-ins against the header's fields, numbers its groups' first workers,
    /// and throws if no switch of it would aggregate.
    void CheckTree(Tree& t) const;
    /// Every worker's route towards tree t's parameter server.
    void RouteWorkers(const Tree& t);

    /// An aggregation point of the job: a switch, a tree, its role there and its group bit.
    struct Point
    {
        uint32_t node;
        uint8_t psIndex;
        PoolProgram::Role role;
        uint32_t groupBit;
    };

    /// The aggregation points of m_trees, switches in first-use order.
    std::vector<Point> AggregationPoints() const;
    /// Adds the switches of `points` the job does not use yet to m_switches, with the program
    /// another job installed there (checked to agree) or none yet.
    void JoinSwitches(const std::vector<Point>& points);
    /// Throws unless every switch from m_switches[known] on holds the job's hash range.
    void CheckPoolsHoldRange(std::size_t known) const;
    /// Installs a new program at every switch of m_switches that has none.
    void InstallMissingPrograms();

    // Attributes
    uint32_t m_poolSize;         //!< pool of programs this job creates (0: program default)
    uint64_t m_switchMemory;     //!< INA memory of a switch, bytes (0: m_poolSize decides)
    uint32_t m_hashRange;        //!< 0: the smallest pool on the trees
    bool m_level2;               //!< aggregate the racks again at the PS's rack switch
    bool m_passWhenFull;         //!< programs pass a fragment their capacity cannot take
    uint32_t m_maxWindow;        //!< slots A = largest window, packets
    uint32_t m_minWindow;        //!< smallest window, packets
    uint32_t m_initialWindow;    //!< first window, packets
    uint32_t m_additiveIncrease; //!< bytes added per window without ECN
    bool m_lossDecrease;         //!< halve on loss too
    bool m_fastRetransmit;       //!< resend a gap on the first out-of-order parameter
    Time m_rto;                  //!< timeout once a parameter of the burst has arrived
    Time m_firstRto;             //!< timeout before that
    double m_scalingFactor;      //!< float -> int32 factor
    bool m_supersetReplaces;     //!< PS: a superset partial replaces the slice

    // Installed state
    std::vector<SwitchEntry> m_switches;  //!< aggregating switches
    std::vector<uint16_t> m_indexTable;   //!< per slot
    uint32_t m_range = 0;                 //!< hash range in use
    uint16_t m_endpoint = 0;              //!< host endpoint
    std::vector<Ptr<PoolAgent>> m_agents; //!< for the counters
};

} // namespace ns3

#endif /* POOL_PROTOCOL_H */
