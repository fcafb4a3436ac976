/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_PROTOCOL_H
#define AGGREGATION_PROTOCOL_H

#include "model-zoo.h"

#include "ns3/ina-fabric.h"
#include "ns3/object.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class AggregationAgent;

/**
 * \ingroup ina-training
 * What a job tells its protocol when it installs it.
 *
 * The workload fields (model, iterations, the workers' fusion, partitioning and send order) are
 * filled by TrainingJob from its model and its workers' Attributes, so a protocol can replay how
 * every worker will hand its gradients (WorkerApp::PlanIteration). A protocol installed without a
 * TrainingJob (unit tests, benchmarks of the bare protocol) sees them empty: model nullptr,
 * iterations 0.
 */
struct JobContext
{
    /// The order in which a worker hands the pieces of an iteration's gradients to its agent.
    enum class SendOrder : uint8_t
    {
        BACKWARD,     //!< as the backward pass makes them ready (wait-free back-propagation)
        BYTESCHEDULER //!< front layers first whenever the sender is free (ByteScheduler-style)
    };

    Ptr<InaFabric> fabric;
    uint32_t jobId = 0;                //!< InaPacket::jobId of every packet of the job (>= 1)
    std::string name;                  //!< the job's name, for messages
    std::vector<uint32_t> workerHosts; //!< host index of each worker, by rank
    std::vector<uint32_t> psHosts;     //!< host index of each parameter server
    std::vector<std::string> inaTiers; //!< switch tiers allowed to aggregate (scenario)
    uint64_t seed = 1;                 //!< the job's random seed
    bool checkValues = false;          //!< agents carry real values
    uint32_t flowIdBase = 0;           //!< the job owns flow ids [base, base + FLOW_IDS_PER_JOB)
    /// When the job's first worker starts (ps): a control plane that re-plans as jobs start
    /// (GRID's) schedules itself by it
    int64_t startPs = 0;
    static constexpr uint32_t FLOW_IDS_PER_JOB = 1u << 20;

    std::shared_ptr<const ModelSpec> model;    //!< the job's model (nullptr: not known)
    uint32_t iterations = 0;                   //!< iterations every worker runs (0: not known)
    uint64_t fusionBytes = 0;                  //!< the workers' FusionBytes
    uint64_t partitionBytes = 0;               //!< the workers' PartitionBytes
    SendOrder sendOrder = SendOrder::BACKWARD; //!< the workers' SendOrder

    /// \return whether switches of `tier` may aggregate for this job (inaTiers)
    bool AllowsTier(const std::string& tier) const
    {
        return std::find(inaTiers.begin(), inaTiers.end(), tier) != inaTiers.end();
    }
};

/**
 * \ingroup ina-training
 * One all-reduce protocol for one job: what it installs in the network (switch programs, parameter
 * servers) and the host agent it gives each worker. A protocol is an ns-3 Object chosen by TypeId
 * name and configured by its Attributes; the scenario's `protocol:` is a short name registered
 * with AggregationProtocolRegistry in the protocol's own source file, so adding a protocol touches
 * no other file.
 *
 * Call order: Install(ctx) once, then CreateAgent(rank) for every worker.
 */
class AggregationProtocol : public Object
{
  public:
    static TypeId GetTypeId();
    AggregationProtocol();
    ~AggregationProtocol() override;

    /// Install the job's network side (PS applications, switch programs). Throws
    /// std::runtime_error naming what does not fit or is missing.
    void Install(const JobContext& ctx);
    /// The agent of worker `rank`, already set up (ready for AllReduce).
    Ptr<AggregationAgent> CreateAgent(uint32_t rank);

    /**
     * Largest acceptable |aggregate - true sum| for one element, for the exactness check, given
     * the number of contributions and the largest |contribution|. Float summation by default; an
     * integer in-network protocol states its quantization bound.
     */
    virtual double ValueTolerance(uint32_t contributions, double maxAbsValue) const;

    /// Whether the job must place `ps_hosts` parameter servers for this protocol.
    virtual bool UsesParameterServers() const;

    /// Protocol-wide counters for summary.json (e.g. ps_fallback_packets), name -> value.
    virtual std::map<std::string, double> GetCounters() const;

    /**
     * Values the protocol checked itself, beyond the tensors the workers hand it (a sparse
     * protocol's key-value results, which TrainingJob cannot recompute), and those found wrong.
     * TrainingJob adds them to its value check. 0 by default.
     */
    virtual uint64_t GetOwnValuesChecked() const;
    virtual uint64_t GetOwnValueErrors() const;

    const JobContext& GetContext() const;

    /**
     * The job is over: its last worker has every aggregate of its last iteration back (called at
     * that moment, once, by TrainingJob and AllReduceRunner). A control plane that re-plans as
     * jobs end (GRID's) gives what the job held to the others; by default nothing happens.
     */
    virtual void NotifyJobEnded();

    /// The MaxTimeouts Attribute: retransmission timeouts in a row, with nothing received in
    /// between, after which an agent gives up (AggregationAgent::NoteTimeout); 0 = never.
    uint32_t GetMaxTimeouts() const;

  protected:
    void DoDispose() override;

  private:
    virtual void DoInstall() = 0;
    virtual Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) = 0;

    JobContext m_ctx;
    bool m_installed = false;
    uint32_t m_maxTimeouts;
};

} // namespace ns3

#endif /* AGGREGATION_PROTOCOL_H */
