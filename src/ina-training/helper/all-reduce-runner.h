/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ALL_REDUCE_RUNNER_H
#define ALL_REDUCE_RUNNER_H

#include "ns3/aggregation-agent.h"
#include "ns3/aggregation-protocol.h"
#include "ns3/ina-fabric.h"
#include "ns3/nstime.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * One job's all-reduces driven straight through its agents, without the DNN worker model: a list
 * of tensors handed to every worker (all at once, or each when the previous came back), real
 * gradient values if asked, and what came back checked against the true sums. For protocol tests
 * and micro-benchmarks ("one 100 MB all-reduce over 64 workers with protocol P"), where WorkerApp's
 * layers and compute times would be in the way.
 *
 * Tensor t has id TensorId(t); rank r's values are GradientValues(seed, id, r), so the true sum of
 * every element is known without storing anyone's tensor.
 */
class AllReduceRunner
{
  public:
    /// What to run.
    struct Spec
    {
        uint32_t jobId = 1;
        std::string name = "j1";
        std::vector<uint32_t> hosts; //!< worker hosts, by rank
        std::vector<uint32_t> ps;    //!< parameter-server hosts (protocols that use them)
        std::vector<std::string> tiers{"tor"};
        std::vector<std::pair<std::string, std::string>> attributes; //!< protocol Attributes
        std::vector<uint64_t> tensorBytes{1000000};
        bool values = true;           //!< carry and check real values
        bool sequential = false;      //!< hand each tensor when the previous one came back
        std::vector<int64_t> startPs; //!< per rank (missing: 0)
        uint64_t seed = 7;
    };

    /**
     * Creates the protocol (a TypeId name or a name registered with AggregationProtocolRegistry),
     * sets its Attributes, installs it on `fabric` and creates every worker's agent. Throws what
     * the protocol's set-up throws (std::runtime_error naming what does not fit), and
     * std::invalid_argument for an unknown protocol or Attribute.
     */
    AllReduceRunner(Ptr<InaFabric> fabric, const std::string& protocol, const Spec& spec);
    virtual ~AllReduceRunner();
    AllReduceRunner(const AllReduceRunner&) = delete;
    AllReduceRunner& operator=(const AllReduceRunner&) = delete;

    /// Schedule every worker's first hand-over at its start time.
    void Start();
    /// Start every run, then run the simulation until it is idle or `limit` has passed.
    static void RunAll(const std::vector<AllReduceRunner*>& runs, Time limit);

    /// Every worker got every tensor back.
    bool Complete() const;
    /// Elements outside the protocol's ValueTolerance, over every worker and tensor (a tensor
    /// that came back with the wrong length counts all its elements); `maxError` gets the worst.
    uint64_t ValueErrors(double* maxError = nullptr) const;
    /// When worker `rank` got its last tensor back (ps).
    int64_t FinishPs(uint32_t rank) const;
    /// When the last worker got its last tensor back (ps).
    int64_t LastFinishPs() const;
    /// A statistic summed over every worker's agent.
    uint64_t Sum(uint64_t AggregationAgent::Stats::*field) const;

    Ptr<AggregationProtocol> GetProtocol() const;
    Ptr<AggregationAgent> GetAgent(uint32_t rank) const;
    uint32_t GetNWorkers() const;
    const Spec& GetSpec() const;

    /// Dispose of the agents and the protocol (they hold each other): for a program that runs
    /// several simulations in one process. Not done by the destructor, so a run can be dropped
    /// while its protocol stays installed.
    void Dispose();

    /// The id of tensor `t` of the spec's list: WorkerApp::TensorId(1, t), piece t of a first
    /// iteration.
    static uint64_t TensorId(size_t t);

  private:
    void Hand(uint32_t rank, size_t t);
    void HandFirst(uint32_t rank);
    void OnDone(uint32_t rank, uint64_t id);
    // Static, so MakeBoundCallback can bind them: ns-3 <= 3.35 Callbacks cannot wrap lambdas.
    static void DoneThunk(AllReduceRunner* self, uint32_t rank, uint64_t id);
    static void StartThunk(AllReduceRunner* self, uint32_t rank);

    Spec m_spec;
    Ptr<AggregationProtocol> m_protocol;
    std::vector<Ptr<AggregationAgent>> m_agents;
    std::vector<std::vector<std::vector<float>>> m_values; //!< [rank][tensor]
    std::vector<uint32_t> m_done;
    bool m_endNotified = false; //!< NotifyJobEnded called
    std::vector<int64_t> m_finishPs;
};

} // namespace ns3

#endif /* ALL_REDUCE_RUNNER_H */
