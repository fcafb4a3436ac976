/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_PROGRAM_H
#define SWITCH_PROGRAM_H

#include "exact-match-table.h"
#include "ina-packet-pool.h"
#include "ina-packet.h"
#include "ina-switch-actions.h"
#include "pipeline-pass.h"
#include "pipeline-resources.h"
#include "register-array.h"

#include "ns3/assert.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class Pipeline;

/**
 * \ingroup ina-fabric
 * The switch side of an in-network aggregation protocol (SwitchML, ATP, ESA, Libra, ...), run by a
 * Pipeline for the packets whose InaPacket::protocol equals GetProtocolNumber().
 *
 * Non-virtual interface in the manner of QueueDisc: Pipeline calls Process(), which keeps the
 * accounting and checks the invariants, and calls the private DoProcess() a protocol implements.
 * A protocol fills in:
 * - DeclareResources(): its register arrays and tables with their stage placement;
 * Pipeline::Install refuses the program when they do not fit beside the programs already installed;
 * - InitializeState(): called once installed; resolve register and table handles here
 *   (GetRegister/GetTable by name, kept as member pointers) and fill tables;
 * - DoProcess(): one pass of one packet. Registers and tables are reached through the pass, which
 *   enforces the hardware's per-pass rules. The packet must leave the pass exactly once: through
 *   Forward, SendOnPort or Consume, or by pass.Recirculate() for another pass. New packets
 * (results, partial aggregates) come from GetPool() and leave through the same calls.
 * - GetProtocolNumber(), GetName(), and optionally CheckConfig().
 *
 * Invariant, checked after every pass (a violation throws PipelineViolation):
 * the pass's packet was handed to exactly one of Forward, SendOnPort, Consume and Recirculate.
 * Hence passes = packets handed on by an action + recirculations.
 *
 * Protocol-specific events (slot collisions, stale versions, ...) are counted by reason: the
 * protocol names its reasons once (SetReasonNames, indexed by its own enum) and counts with
 * CountReason, an array increment.
 */
class SwitchProgram : public Object
{
  public:
    /// Counters every program keeps.
    enum class Counter : uint8_t
    {
        PACKETS,             //!< first passes
        PASSES,              //!< all passes
        RECIRCULATIONS,      //!< passes that asked for another pass
        RECIRCULATION_DROPS, //!< of those, dropped at the full recirculation queue
        FORWARDED,           //!< packets handed to Forward
        SENT_ON_PORT,        //!< packets handed to SendOnPort
        CONSUMED,            //!< packets handed to Consume
        N_COUNTERS           //!< number of counters
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    SwitchProgram();
    ~SwitchProgram() override;
    SwitchProgram(const SwitchProgram&) = delete;
    SwitchProgram& operator=(const SwitchProgram&) = delete;

    /**
     * Run one pass of one packet (called by Pipeline).
     * \param p the packet, equal to pass.GetPacket()
     * \param pass the pass context
     */
    void Process(InaPacket* p, PipelinePass& pass);

    /**
     * Declare the register arrays and tables the program needs.
     * \param demand to fill (its `program` field is set by the caller)
     */
    virtual void DeclareResources(ResourceDemand& demand) const = 0;

    /// \return the InaPacket::protocol value this program handles (not INA_PROTO_NONE)
    virtual uint16_t GetProtocolNumber() const = 0;

    /// \return a short name for messages and reports, e.g. "switchml"
    virtual std::string GetName() const = 0;

    /**
     * Reject impossible attribute combinations before install. Throw std::invalid_argument with a
     * message naming the attribute and what was expected; Pipeline::Install reports it as a
     * PipelineFitError. The default accepts everything.
     */
    virtual void CheckConfig();

    /**
     * Whether a packet arriving for this program is aggregation work: what a switch with an
     * aggregation capacity (Pipeline attribute AggregationCapacity, GRID's C_s) charges against
     * it and queues when it is busy. Called before the packet's first pass, only on such switches.
     * A protocol answers from the headers (a gradient it will fold into its registers: yes; a
     * result, a packet passing through, a control packet: no), without touching registers.
     * The default counts every packet of the protocol.
     * \param p the packet
     * \return true when it is aggregation work
     */
    virtual bool IsAggregationWork(const InaPacket* p) const;

    /**
     * Whether a packet that is not aggregation work (IsAggregationWork just said so) keeps its
     * place behind the work waiting in the aggregation queue: it costs the capacity nothing but
     * starts its pass only when the work ahead of it has started. For a gradient a full switch
     * passes on (ATP's PassWhenFull): it takes the pipeline after the gradients that arrived
     * before it, as a switch processes its ingress in order, instead of overtaking them and
     * reordering the job's fragments. Called right after IsAggregationWork returned false, only
     * on switches with an aggregation capacity. The default: no (results, transit and control
     * packets run at once).
     * \param p the packet
     * \return true when it waits behind the queued work
     */
    virtual bool FollowsAggregationQueue(const InaPacket* p) const;

    /**
     * Aggregators (slots) holding a partial aggregate now, and the most ever held at once; a
     * program without aggregators keeps 0. Reported per switch in summary.json
     * (peak_aggregators_in_use) and sampled into timeseries.csv.
     */
    virtual uint64_t GetAggregatorsInUse() const;
    virtual uint64_t GetPeakAggregatorsInUse() const;

    /**
     * The switch failed or rebooted: its data-plane state is lost (InaFaultInjector). Every
     * register array goes back to 0 and the program forgets what it kept beside its registers
     * (DoResetState); the tables, which the control plane fills (jobs, routes), stay as the
     * controller reinstalls them. Counters are kept: they are the run's record, not switch state.
     */
    void ResetState();

    /// \return whether a pipeline has installed this program
    /**
     * The pipeline this program will be laid out for (stages, SRAM, ALUs, lanes per pass). A
     * program whose layout depends on the pipeline (how many slots fit, which stage holds what)
     * is told before Install, since DeclareResources runs at Install.
     */
    void SetPipelineLimits(const PipelineLimits& limits);

    const PipelineLimits& GetPipelineLimits() const
    {
        return m_pipelineLimits;
    }

    bool IsInstalled() const
    {
        return m_pipeline != nullptr;
    }

    /// \return the pipeline it is installed in, or nullptr
    Pipeline* GetPipeline() const
    {
        return m_pipeline;
    }

    /**
     * A declared register array, by name. Resolve once (in InitializeState), not per packet.
     * Throws std::invalid_argument when there is no such array or the program is not installed.
     * \param name declared name
     * \return the array
     */
    RegisterArray& GetRegister(const std::string& name) const;

    /**
     * A declared table, by name. Resolve once (in InitializeState), not per packet.
     * Throws std::invalid_argument when there is no such table or the program is not installed.
     * \param name declared name
     * \return the table
     */
    ExactMatchTable& GetTable(const std::string& name) const;

    /**
     * \param c a counter
     * \return its value
     */
    uint64_t GetCount(Counter c) const
    {
        return m_counts[static_cast<size_t>(c)];
    }

    /**
     * \param c a counter
     * \return its name in reports, e.g. "recirculation_drops"
     */
    static const char* GetCounterName(Counter c);

    /// \return the protocol's reason names, indexed by its reason enum
    const std::vector<std::string>& GetReasonNames() const
    {
        return m_reasonNames;
    }

    /**
     * \param reason index (the protocol's enum value)
     * \return the count; throws std::out_of_range for an unknown index
     */
    uint64_t GetReasonCount(uint32_t reason) const;

    /**
     * \param name a reason name
     * \return the count; throws std::invalid_argument for an unknown name
     */
    uint64_t GetReasonCount(const std::string& name) const;

    /**
     * All counters for a report: the Counter values by name, then the protocol's reasons.
     * \param names filled with the names
     * \param values filled with the values, same order
     */
    void GetCounters(std::vector<std::string>& names, std::vector<uint64_t>& values) const;

  protected:
    void DoDispose() override;

    /**
     * Hand a packet to the switch's forwarding (unicast by dst, or a multicast group).
     * \param p the packet; ownership passes to the switch
     */
    void Forward(InaPacket* p);

    /**
     * Send a packet out of one port, bypassing the forwarding table.
     * \param p the packet; ownership passes to the switch
     * \param port the port
     */
    void SendOnPort(InaPacket* p, uint32_t port);

    /**
     * End a packet in the switch (aggregated into registers, or dropped by the protocol's logic).
     * \param p the packet; ownership passes to the switch, which returns it to the pool
     */
    void Consume(InaPacket* p);

    /// \return the pool to allocate new packets from
    InaPacketPool& GetPool() const;

    /// \return the switch's address
    InaAddress GetSwitchAddress() const;

    /// \return the switch's number of ports
    uint32_t GetNPorts() const;

    /**
     * Name the protocol's reasons, in the order of its reason enum. Call once, in the constructor.
     * \param names reason names for reports, e.g. {"slot_collision", "stale_version"}
     */
    void SetReasonNames(std::vector<std::string> names);

    /**
     * Count a protocol event.
     * \param reason the protocol's enum value (or index)
     * \param n how many
     */
    template<typename E>
    void CountReason(E reason, uint64_t n = 1)
    {
        const size_t i = static_cast<size_t>(reason);
        NS_ASSERT_MSG(i < m_reasonCounts.size(), "reason index beyond SetReasonNames");
        m_reasonCounts[i] += n;
    }

  private:
    friend class Pipeline;

    /**
     * One pass of one packet: the protocol's switch logic.
     * \param p the packet
     * \param pass the pass context
     */
    virtual void DoProcess(InaPacket* p, PipelinePass& pass) = 0;

    /// Called once installed: resolve handles, fill tables, set initial register contents.
    virtual void InitializeState() = 0;

    /// ResetState's part for what the program keeps beside its registers (occupancy, copies
    /// held for resending): forget it. Registers are already 0. The default keeps nothing.
    virtual void DoResetState();

    /**
     * Create the storage for `demand` and attach to a pipeline (called by Pipeline::Install).
     * \param pipeline the pipeline
     * \param actions the switch, or nullptr until it is set
     * \param demand the accepted demand
     */
    void Attach(Pipeline* pipeline, InaSwitchActions* actions, const ResourceDemand& demand);

    /// Undo Attach (an InitializeState that threw).
    void Detach();

    /// \param actions the switch the program sends through
    void SetSwitchActions(InaSwitchActions* actions)
    {
        m_actions = actions;
    }

    /// Called by Pipeline when the recirculation queue dropped one of this program's packets.
    void NotifyRecirculationDrop()
    {
        ++m_counts[static_cast<size_t>(Counter::RECIRCULATION_DROPS)];
    }

    /// Count the pass's own packet leaving through an action.
    void NoteEnding(const InaPacket* p)
    {
        if (m_pass != nullptr && p == m_pass->m_packet)
        {
            ++m_pass->m_endings;
        }
    }

    /// Throws the PipelineViolation for a pass that did not end its packet exactly once.
    [[noreturn]] void FailEndings(const PipelinePass& pass, uint32_t endings) const;

    /// Throws std::logic_error when no switch is attached.
    [[noreturn]] void FailNoSwitch() const;

    Pipeline* m_pipeline = nullptr;                          //!< where installed
    InaSwitchActions* m_actions = nullptr;                   //!< the switch
    PipelineLimits m_pipelineLimits;                         //!< layout target
    std::string m_name;                                      //!< GetName(), cached at install
    PipelinePass* m_pass = nullptr;                          //!< the pass running now, if any
    std::vector<std::unique_ptr<RegisterArray>> m_registers; //!< storage, declaration order
    std::vector<std::unique_ptr<ExactMatchTable>> m_tables;  //!< storage, declaration order
    std::array<uint64_t, static_cast<size_t>(Counter::N_COUNTERS)> m_counts{}; //!< counters
    std::vector<std::string> m_reasonNames; //!< protocol reason names
    std::vector<uint64_t> m_reasonCounts;   //!< protocol reason counts
};

} // namespace ns3

#endif /* SWITCH_PROGRAM_H */
