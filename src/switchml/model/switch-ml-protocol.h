/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_ML_PROTOCOL_H
#define SWITCH_ML_PROTOCOL_H

#include "switch-ml-program.h"

#include "ns3/aggregation-protocol.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

class SwitchMlAgent;

/**
 * \ingroup switchml
 * SwitchML (Sapio et al., arXiv 1903.06701v1, and the NSDI'21 variant as Attributes) for one
 * job: registered as protocol "switchml".
 *
 * Install() builds the job's aggregation tree, installs (or joins) the SwitchMlProgram in each
 * of its switches' pipelines and makes the multicast group the root sends results on.
 *
 * The tree (ctx.inaTiers names the tiers allowed to aggregate):
 * - all workers under one rack (ToR/leaf) of an allowed tier: that switch alone, fan-in = the
 *   workers;
 * - otherwise the root is a switch of the lowest allowed tier above the racks that reaches every
 *   worker's rack by a purely upward path (a common ancestor: an agg of the pod, a core, a
 *   spine; several candidates are spread over jobs by job id). The racks of an allowed tier
 *   aggregate their own workers and send one partial per phase to the root (fan-in at the root =
 *   those racks, plus the workers of racks that may not aggregate, which send to the root
 *   directly). Switches between a rack and the root only forward. So a tree has one or two
 *   aggregation levels, as the paper's Section 6 sketches with H = 2.
 * - no allowed tier above racks that span, or no allowed tier at all: Install throws.
 * Results go down one multicast tree from the root to every worker (shortest paths; each link
 * carries one copy). Every flow (worker -> first switch, rack -> root) has a fixed flow id, so it
 * takes one path and stays in order (no resend overtakes a newer version).
 *
 * Pool: each aggregating switch gives the job a share of its SwitchML pool (SwitchMlProgram);
 * the job's window (slots per worker, the paper's s) is the smallest share on its tree, fixed when
 * its first worker starts.
 */
class SwitchMlProtocol : public AggregationProtocol
{
  public:
    /// How workers convert float gradients to int32.
    enum Quantizer
    {
        GLOBAL,        //!< one scaling factor for the whole model (2019 paper)
        BLOCK_EXPONENT //!< per-packet block exponent, exchanged one phase ahead (NSDI'21)
    };

    /// How elements travel between workers and switches.
    enum WireFormat
    {
        INT32,  //!< 4-B integers, converted on the workers (the paper's deployment)
        FLOAT16 //!< 2-B half floats, converted to and from int32 in the switch ("SwitchML (16)")
    };

    /// One aggregating switch of the job's tree.
    struct TreeSwitch
    {
        uint32_t node = 0;            //!< topology node index (= its address)
        bool isRoot = false;          //!< completes the aggregate
        uint32_t parent = 0;          //!< below the root: its parent switch's node
        uint16_t childId = 0;         //!< below the root: its contributor id at the parent
        uint32_t upFlowId = 0;        //!< below the root: the flow id of its partials
        uint32_t fanIn = 0;           //!< contributors here
        Ptr<SwitchMlProgram> program; //!< the program it runs
    };

    /// Where one worker sends its updates.
    struct WorkerRoute
    {
        InaAddress aggregator = INA_NO_ADDRESS; //!< its first aggregating switch
        uint16_t wid = 0;                       //!< its contributor id there
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    // Out of line: a member holds a Ptr to a class this header only declares.
    SwitchMlProtocol();
    ~SwitchMlProtocol() override;

    /**
     * The quantization bound (SwitchMlQuantizer): n / (2f) for the global factor f,
     * n^2 B / (2^31 - 1 - n) for block exponents, plus the float rounding of the result.
     * \param contributions n
     * \param maxAbsValue B
     * \return the bound
     */
    double ValueTolerance(uint32_t contributions, double maxAbsValue) const override;

    /// \return the job's SwitchML counters (window, tree, timeouts, stale results, ...)
    std::map<std::string, double> GetCounters() const override;

    /**
     * \return the most upward streams of the tree (workers to their first switch, racks'
     * partials to the root) that cross one link direction: what the automatic window divides
     * that link's rate by (TreeLinkLoad)
     */
    uint32_t GetMaxLinkStreams() const;

    /// \return the aggregating switches, root first
    const std::vector<TreeSwitch>& GetTree() const;
    /// \return the root's node index
    uint32_t GetRootNode() const;
    /**
     * \param rank a worker
     * \return where it sends its updates
     */
    const WorkerRoute& GetWorkerRoute(uint32_t rank) const;
    /**
     * Fix the job's window: the smallest share of the pool on its tree. It freezes the job's
     * shares at every switch of the tree (a job added later may no longer move them), so the
     * first agent to start calls it; later calls return the same window.
     * \return slots per worker
     */
    uint32_t FixWindow();
    /// \return the window FixWindow fixed (throws std::logic_error before that)
    uint32_t GetWindow() const;
    /// \return the window an automatic PoolSize asks for: the next power of two of BDP / packet
    uint32_t GetAutoPoolSize() const;
    /// \return 32 or 64
    uint32_t GetElementsPerPacket() const;
    /// \return the quantizer
    Quantizer GetQuantizer() const;
    WireFormat GetWireFormat() const;
    /// \return the global scaling factor in use (GLOBAL)
    double GetScalingFactor() const;
    /// \return the retransmission timeout
    Time GetRto() const;
    /// \return the host endpoint of the job's agents
    uint16_t GetEndpoint() const;
    /**
     * \param hasData with the payload, or the exponent-only packet
     * \return wire bytes of an update or result
     */
    uint32_t GetWireBytes(bool hasData) const;

  protected:
    void DoDispose() override;

  private:
    void DoInstall() override;
    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override;

    /// Checks the attributes against each other and the job's `workers`; sets the switch pool
    /// from SwitchMemory and the global scaling factor.
    void CheckAttributes(uint32_t workers);
    /// Checks that every worker is on a host of the fabric, one worker per host.
    void CheckWorkerHosts() const;

    /// Something that sends upward while the tree is built: a worker or an aggregating switch.
    struct Contributor
    {
        uint32_t node = 0;     //!< its topology node
        bool isSwitch = false; //!< m_tree[index], or else the worker of rank index
        uint32_t index = 0;    //!< tree index or rank
    };

    /// Choose the aggregating switches and every worker's route.
    void BuildTree();
    /// \return the topology's switch tiers, bottom-up, for messages
    std::string SwitchTierNames() const;
    /// \return whether the node's tier may aggregate (ctx.inaTiers)
    bool IsAggregationTier(uint32_t node) const;
    /// \return whether `to` is above `from` and a shortest path climbs one tier per hop
    bool IsUpwardPath(uint32_t from, uint32_t to) const;
    /// The root: a switch of the lowest allowed tier above `racks` that every rack reaches going
    /// up, spread over jobs by job id; throws when there is none.
    uint32_t ChooseRoot(const std::set<uint32_t>& racks, uint32_t rackLevel) const;
    /// Racks of an allowed tier take their workers; \return what goes on up
    std::vector<Contributor> AggregateRacks(const std::vector<Contributor>& workers,
                                            const std::vector<uint32_t>& rackOf,
                                            const std::set<uint32_t>& racks);
    /// Switches of `tier` below the root take two or more of `up` each; \return what goes on up
    std::vector<Contributor> AggregateAt(const std::string& tier,
                                         const std::vector<Contributor>& up);
    /// Make `children` the contributors of m_tree[parent], numbering them from 0.
    void Attach(size_t parent, std::vector<Contributor> children);
    /// \return the tree indices from the aggregating switch `first` up to the root
    std::vector<size_t> PathToRoot(uint32_t first) const;
    /// The BDP-derived window.
    void ComputeAutoPoolSize();
    /// Install or join the program at every tree switch; make the result group.
    void InstallPrograms();
    /// The SwitchML program at `ts`: the one another job installed (if it agrees with this job's
    /// attributes), or a new one sized for this job's fan-in (at least `defaultFanIn`).
    Ptr<SwitchMlProgram> ProgramAt(const TreeSwitch& ts, uint32_t defaultFanIn);
    /// Throws unless `program`, installed at `where` by another job, has this job's
    /// ElementsPerPacket, Quantizer and SwitchPoolSize.
    void CheckShared(Ptr<SwitchMlProgram> program, const std::string& where) const;
    /// Throws std::runtime_error("job NAME (switchml): what").
    [[noreturn]] void Fail(const std::string& what) const;

    // Attributes
    uint32_t m_elements;       //!< elements per packet
    Quantizer m_quantizer;     //!< float conversion
    WireFormat m_wireFormat;   //!< element format on the wire
    double m_scalingFactor;    //!< global f; 0: from the paper's Theorem 2
    double m_maxAbsGradient;   //!< B of Theorem 2
    uint32_t m_poolSize;       //!< slots asked per switch; 0: automatic
    uint32_t m_switchPoolSize; //!< pool of a program this job creates; 0: the program default
    uint64_t m_switchMemory;   //!< INA memory of a switch, bytes (0: m_switchPoolSize decides)
    Time m_rto;                //!< retransmission timeout

    // Installed state
    std::vector<TreeSwitch> m_tree;           //!< root first
    std::vector<WorkerRoute> m_routes;        //!< by rank
    uint32_t m_autoPool = 0;                  //!< BDP-derived window
    uint32_t m_maxStreams = 0;                //!< most of the tree's streams on one link
    uint32_t m_levels = 0;                    //!< most aggregating switches on a worker's path
    uint32_t m_window = 0;                    //!< fixed by the first GetWindow
    double m_factor = 0;                      //!< global factor in use
    uint16_t m_endpoint = 0;                  //!< host endpoint
    InaAddress m_group = INA_NO_ADDRESS;      //!< result multicast group
    std::vector<Ptr<SwitchMlAgent>> m_agents; //!< for the counters
    std::vector<bool> m_agentCreated;         //!< by rank
};

} // namespace ns3

#endif /* SWITCH_ML_PROTOCOL_H */
