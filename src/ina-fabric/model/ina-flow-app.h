/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_FLOW_APP_H
#define INA_FLOW_APP_H

#include "ns3/event-id.h"
#include "ns3/ina-fabric.h"
#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Plain traffic on a fabric, before (or beside) any protocol: a set of flows of FlowBytes each, in
 * one of three patterns over the chosen hosts, all starting at Start, each one message on its own
 * InaTransportSender / InaTransportReceiver pair. It records, per flow, when it started, when the
 * sender had every byte acknowledged (its finish; FCT = finish - start) and what the transport
 * counted on the way.
 *
 * Patterns (hosts h_0 .. h_{n-1}, in the order given):
 *  - permutation: h_i sends to h_{d(i)}, d a derangement (no one sends to itself) drawn from Seed;
 *    every host sends one flow and receives one;
 *  - incast: every chosen host except the destination sends to IncastDestination (by default
 *    h_0); the destination need not be among the chosen hosts;
 *  - all-to-all: every ordered pair (h_i, h_j), i != j: n (n - 1) flows.
 * Flow k (in that order) gets flow id FirstFlowId + k.
 *
 * \code
 *   Ptr<InaFlowApp> app = CreateObject<InaFlowApp>();
 *   app->SetAttribute("Pattern", StringValue("permutation"));
 *   app->SetAttribute("FlowBytes", UintegerValue(1000000));
 *   app->Install(fabric);
 *   Simulator::Run();
 *   app->GetMeanFct(); app->GetP99Fct(); app->WriteFlowsCsv(file);
 * \endcode
 */
class InaFlowApp : public Object
{
  public:
    enum Pattern
    {
        PERMUTATION,
        INCAST,
        ALL_TO_ALL
    };

    /// What happened to one flow.
    struct FlowRecord
    {
        uint32_t flowId;          //!< as carried in InaPacket::flowId
        uint32_t src;             //!< sending host
        uint32_t dst;             //!< receiving host
        uint64_t bytes;           //!< flow size
        Time start;               //!< when its message was handed to the transport
        bool completed;           //!< every byte acknowledged to the sender
        Time finish;              //!< when that happened (zero if not completed)
        Time fct;                 //!< finish - start (zero if not completed)
        bool received;            //!< the receiver had the whole flow
        Time receiverFinish;      //!< when it did (zero if not received)
        uint64_t retransmissions; //!< data packets the sender sent again
        uint64_t timeouts;        //!< retransmission timeouts
        uint64_t ecnReductions;   //!< windows cut for ECN
        uint64_t valueErrors;     //!< words that arrived different (CheckValues)
        bool failed;              //!< the sender gave up (MaxTimeouts consecutive timeouts)
    };

    static TypeId GetTypeId();
    InaFlowApp();
    ~InaFlowApp() override;

    /// The hosts that take part, by host index; an empty list (the default) means every host.
    void SetHosts(const std::vector<uint32_t>& hosts);
    /// An attribute of every InaTransportSender this application makes.
    void SetSenderAttribute(const std::string& name, const AttributeValue& value);
    /// An attribute of every InaTransportReceiver this application makes.
    void SetReceiverAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Create the flows on `fabric` and schedule their start. Call once, before Simulator::Run()
     * (or at least before Start).
     * \throws std::invalid_argument naming the attribute or host at fault: a host outside the
     * fabric or listed twice, fewer than two hosts, an incast with no sender, Start in the past,
     * CheckValues with FlowBytes not a multiple of 4, or a second Install.
     */
    void Install(Ptr<InaFabric> fabric);

    /// \name Results
    /// @{
    uint32_t GetNFlows() const;
    uint32_t GetNCompleted() const;
    /// One record per flow, in flow id order.
    std::vector<FlowRecord> GetFlowRecords() const;
    /// Mean FCT over the completed flows, rounded down to the picosecond; zero if none completed.
    Time GetMeanFct() const;
    /**
     * 99th-percentile FCT over the completed flows by the nearest-rank definition: the
     * ceil(0.99 n)-th smallest of the n FCTs (so the largest when n <= 100). Zero if none.
     */
    Time GetP99Fct() const;
    /// Retransmissions summed over all flows.
    uint64_t GetRetransmissions() const;
    /// 32-bit words compared with what was sent (CheckValues), and how many differed.
    uint64_t GetValuesChecked() const;
    uint64_t GetValueErrors() const;
    Ptr<InaTransportSender> GetSender(uint32_t flow) const;
    Ptr<InaTransportReceiver> GetReceiver(uint32_t flow) const;
    /**
     * One line per flow: flow_id,src,dst,bytes,start_s,finish_s,fct_s,completed,
     * receiver_finish_s,retransmissions,timeouts,ecn_reductions,value_errors,failed. Times are in
     * seconds with 12 decimals (exact picoseconds); empty for flows that did not finish.
     */
    void WriteFlowsCsv(std::ostream& os) const;
    /// @}

    /// \name The logic behind the patterns (pure, for tests and planners)
    /// @{
    /**
     * A uniformly drawn derangement of 0..n-1 (d[i] != i for all i): Fisher-Yates shuffles from
     * a 64-bit Mersenne Twister seeded with `seed`, redrawn until no point is fixed. Identical on
     * every platform. \throws std::invalid_argument if n < 2.
     */
    static std::vector<uint32_t> Derangement(uint32_t n, uint64_t seed);
    /**
     * The (src, dst) host pairs of `pattern` over `hosts`, in flow order. `incastDst` is the
     * incast destination (ignored otherwise). \throws std::invalid_argument as Install.
     */
    static std::vector<std::pair<uint32_t, uint32_t>> MakeFlowPairs(
        Pattern pattern,
        const std::vector<uint32_t>& hosts,
        uint64_t seed,
        uint32_t incastDst);
    /**
     * The nearest-rank p-th percentile (0 < p <= 100) of `values`: the ceil(p n / 100)-th
     * smallest. \throws std::invalid_argument if values is empty or p is out of range.
     */
    static int64_t NearestRankPercentile(std::vector<int64_t> values, uint32_t p);
    /// Pattern name as the Pattern attribute spells it.
    static std::string PatternName(Pattern pattern);
    /// @}

  protected:
    void DoDispose() override;

  private:
    struct Flow
    {
        uint32_t flowId;
        uint32_t src;
        uint32_t dst;
        Ptr<InaTransportSender> sender;
        Ptr<InaTransportReceiver> receiver;
        int64_t startPs = -1;
        int64_t finishPs = -1;
        int64_t receiverFinishPs = -1;
        uint64_t valuesChecked = 0;
        uint64_t valueErrors = 0;
    };

    void StartFlows();
    void OnAcked(uint32_t flow);
    void OnReceived(uint32_t flow, std::vector<uint32_t>& values);
    // Static, so MakeBoundCallback can bind (app, flow): ns-3 <= 3.35 Callbacks cannot wrap
    // lambdas nor bind extra arguments to a member function.
    static void AckedThunk(InaFlowApp* self, uint32_t flow, uint32_t message);
    static void ReceivedThunk(InaFlowApp* self,
                              uint32_t flow,
                              uint32_t message,
                              uint64_t bytes,
                              std::vector<uint32_t>& values);
    /// The word at `index` of flow `flowId`'s values (CheckValues): a hash of seed, flow, index.
    uint32_t ValueWord(uint32_t flowId, uint64_t index) const;
    std::vector<int64_t> CompletedFcts() const;

    // attributes
    Pattern m_pattern;
    uint64_t m_flowBytes;
    Time m_start;
    uint64_t m_seed;
    uint32_t m_incastDst;
    uint32_t m_firstFlowId;
    uint32_t m_jobId;
    bool m_checkValues;

    std::vector<uint32_t> m_hosts;
    ObjectFactory m_senderFactory;
    ObjectFactory m_receiverFactory;
    Ptr<InaFabric> m_fabric;
    std::vector<Flow> m_flows;
    bool m_installed = false;
    EventId m_startEvent;
};

} // namespace ns3

#endif /* INA_FLOW_APP_H */
