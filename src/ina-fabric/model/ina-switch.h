/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_SWITCH_H
#define INA_SWITCH_H

#include "ina-port.h"
#include "ina-routing-table.h"
#include "ina-switch-actions.h"

#include "ns3/object.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class Pipeline;

/// What InaSwitch::SelectPort returns when no route leads to the destination.
constexpr uint16_t INA_NO_PORT = 0xffff;

/**
 * \ingroup ina-fabric
 * A switch with no IP stack: it forwards on InaPacket::dst by a table computed from the topology
 * (ECMP over equal-cost next hops, chosen by a seeded flow hash), replicates to multicast groups,
 * and hands packets of a protocol to its pipeline, where the protocol's switch program runs.
 *
 * Routes can be pinned from outside, per flow or per (job, destination), because a planner such as
 * GRID's chooses paths and aggregation points itself. Overrides cost nothing until one is set.
 */
class alignas(64) InaSwitch final : public Object, public InaPacketSink, public InaSwitchActions
{
  public:
    static TypeId GetTypeId();
    InaSwitch();
    ~InaSwitch() override;

    /// \name Set-up (by InaFabricHelper)
    /// @{
    void SetIdentity(InaAddress address, const std::string& name, const std::string& tier);
    void AddPort(InaPort* port);
    void SetRouting(const InaRoutingTable* routes, uint64_t ecmpSeed);
    void SetPool(InaPacketPool* pool);
    void SetPipeline(Ptr<Pipeline> pipeline);
    /// @}

    Ptr<Pipeline> GetPipeline() const;
    InaPort* GetPort(uint32_t i) const;
    const std::string& GetName() const;
    const std::string& GetTier() const;

    /// \name Routes set from outside (planners, tests)
    /// @{
    /// Replicate packets addressed to `group | INA_MULTICAST_BIT` on these ports.
    void SetMulticastGroup(uint32_t group, const std::vector<uint16_t>& ports);
    /// Send every packet of flow `flowId` out of `port`, whatever its destination.
    void SetFlowRoute(uint32_t flowId, uint16_t port);
    /// Send packets of job `jobId` for `dst` out of `port`.
    void SetJobRoute(uint32_t jobId, InaAddress dst, uint16_t port);
    void ClearRouteOverrides();
    /// The port the table (with overrides) picks for a unicast packet; for tests and planners.
    uint16_t SelectPort(const InaPacket* p) const;
    /// @}

    // InaPacketSink
    void Receive(InaPacket* p, uint32_t port) override;

    // InaSwitchActions
    void Forward(InaPacket* p) override;
    void SendOnPort(InaPacket* p, uint32_t port) override;
    void Consume(InaPacket* p) override;
    InaPacketPool& GetPool() override;
    InaAddress GetAddress() const override;
    uint32_t GetNPorts() const override;

    struct Counters
    {
        uint64_t received = 0;        //!< packets that arrived on any port
        uint64_t forwarded = 0;       //!< unicast packets sent out by the table
        uint64_t multicastCopies = 0; //!< packets sent out by multicast replication
        uint64_t consumed = 0;        //!< packets a program absorbed
        uint64_t noRoute = 0;         //!< dropped: no route or unknown multicast group
    };

    const Counters& GetCounters() const;

  protected:
    void DoDispose() override;

  private:
    static uint64_t JobRouteKey(uint32_t jobId, InaAddress dst);
    void UpdateHostRule();

    /// The port the host rule picks for host `dst` (the rule is valid and dst a host).
    uint16_t RulePort(const InaPacket* p) const
    {
        // Same choice as the table (the rule was checked against it), without its loads.
        const uint32_t below = p->dst - m_ruleDownLo;
        if (below < m_ruleDownCount)
        {
            return static_cast<uint16_t>(m_ruleDownBase + below / m_ruleDownDiv);
        }
        if (m_ruleUpCount == 1)
        {
            return m_ruleUpFirst;
        }
        return static_cast<uint16_t>(m_ruleUpFirst +
                                     InaRoutingTable::EcmpHash(p->flowId, m_address, m_ecmpSeed) %
                                         m_ruleUpCount);
    }

    uint16_t SelectPortSlow(const InaPacket* p) const; //!< overrides, then rule, then table
    void SendOut(InaPacket* p, uint32_t port); //!< hand `p` to port `port`, after the latency

    // The fields every forwarded packet reads come first, in the two cache lines the class starts
    // with (it is aligned to one): after Object (32 B) and the two interfaces' vtable pointers,
    // line 0 holds the two counters a hop bumps and line 1 everything forwarding reads, the host
    // rule included. Once the fabric outgrows the caches, the cost of a hop is mostly the lines
    // it misses (docs/performance.md).
    uint64_t m_received = 0;               //!< Counters::received
    uint64_t m_forwarded = 0;              //!< Counters::forwarded
    InaPort* const* m_portArray = nullptr; //!< m_ports.data()
    Pipeline* m_pipelineRaw = nullptr;     //!< m_pipeline, without the Ptr
    int64_t m_latencyPs = 0;
    uint64_t m_ecmpSeed = 0;
    InaAddress m_address = INA_NO_ADDRESS;
    /// Destinations below this take the host rule at once: the number of hosts when the rule is
    /// valid and no route is overridden, else 0 (SelectPortSlow decides).
    uint32_t m_fastHosts = 0;
    // The host rule (InaRoutingTable::HostRule), as the fast path reads it.
    uint32_t m_ruleDownLo = 0;
    uint32_t m_ruleDownCount = 0; //!< downHi - downLo
    uint32_t m_ruleDownDiv = 1;
    uint16_t m_ruleDownBase = 0;
    uint16_t m_ruleUpFirst = 0;
    uint16_t m_ruleUpCount = 0;
    /// Every port is an InaNetDevice: SendOut calls its Send without the vtable, whose pointer
    /// sits on a line of the device the send would not otherwise read (docs/performance.md).
    bool m_devicePorts = false;

    // cold
    mutable Counters m_counters; //!< the rest; received and forwarded copied in by GetCounters
    bool m_ruleValid = false;
    bool m_hasOverrides = false;
    uint32_t m_nHosts = 0; //!< destinations below this are hosts
    InaPacketPool* m_pool = nullptr;
    const InaRoutingTable* m_routes = nullptr;

    std::string m_name;
    std::string m_tier;
    std::vector<InaPort*> m_ports;
    Ptr<Pipeline> m_pipeline;

    std::vector<std::vector<uint16_t>> m_multicast;
    std::unordered_map<uint32_t, uint16_t> m_flowRoutes;
    std::unordered_map<uint64_t, uint16_t> m_jobRoutes;
};

} // namespace ns3

#endif /* INA_SWITCH_H */
