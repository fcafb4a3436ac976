/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef TRAINING_JOB_H
#define TRAINING_JOB_H

#include "aggregation-protocol.h"
#include "model-zoo.h"
#include "worker-app.h"

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * A data-parallel training job: its workers (one WorkerApp per worker host), the protocol that
 * aggregates their gradients, the workload, and what it measured. Several jobs share one fabric.
 *
 * \code
 *   Ptr<TrainingJob> job = CreateObject<TrainingJob>();
 *   job->SetAttribute("Iterations", UintegerValue(3));
 *   job->Setup(ctx, ModelZoo::Default().Get("resnet50"), protocol);
 *   job->Start();   // at the Start attribute's time
 * \endcode
 */
class TrainingJob : public Object
{
  public:
    /**
     * Iterations a job may run. The job keeps a record per iteration from the start (workers
     * finished, end time) and the outputs a row per iteration; a mistyped count of billions
     * died of std::bad_alloc while the job was set up. A million iterations of a packet-level
     * all-reduce is far beyond any run one would simulate.
     */
    static constexpr uint32_t MAX_ITERATIONS = 1000000;

    static TypeId GetTypeId();
    TrainingJob();
    ~TrainingJob() override;

    /// Worker attributes (FusionBytes, PartitionBytes, SendOrder, SendJitter, JitterScope,
    /// OverlapForward) and the compute model, before Setup.
    void SetWorkerAttribute(const std::string& name, const AttributeValue& value);
    /// The workers' compute model by TypeId name (default ns3::ProfiledComputeModel); before
    /// SetComputeModelAttribute.
    void SetComputeModel(const std::string& typeId);
    /// An Attribute of every worker's compute model (e.g. GpuThreads), before Setup.
    void SetComputeModelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * The compute model a scenario names (job param ComputeModel).
     * \param name profiled (ProfiledComputeModel) or gpu-contention (GpuContentionComputeModel)
     * \return its TypeId name
     * \throws std::invalid_argument listing the names if there is no such model
     */
    static std::string ComputeModelTypeName(const std::string& name);

    /**
     * Installs the protocol and creates every worker and its agent. The protocol gets `ctx` with
     * the workload filled in (JobContext::model, iterations, fusionBytes, partitionBytes,
     * sendOrder: this job's, whatever `ctx` held), so GetContext() returns that.
     */
    void Setup(const JobContext& ctx, const ModelSpec& model, Ptr<AggregationProtocol> protocol);
    /// Schedules the workers to start at the Start attribute.
    void Start();

    const JobContext& GetContext() const;
    const ModelSpec& GetModel() const;
    Ptr<AggregationProtocol> GetProtocol() const;
    const std::vector<Ptr<WorkerApp>>& GetWorkers() const;

    /// Compare a worker's returned aggregate with the true sum; counts checks and errors.
    void CheckValues(uint32_t rank, uint64_t tensorId, const std::vector<float>& values);

    bool IsCompleted() const;
    /// True once one of its workers' agents gave up (AggregationAgent::HasGivenUp): the job
    /// cannot complete any more.
    bool HasGivenUp() const;
    /// The first giving-up agent's reason, by rank ("" if none gave up).
    std::string GetGiveUpReason() const;
    uint32_t GetIterations() const;
    /// Iterations every worker has finished.
    uint32_t GetIterationsDone() const;
    /// Sum of the workers' WorkerApp::GetProgressSteps(): grows while the job moves.
    uint64_t GetProgressSteps() const;
    /**
     * How much of the job is done, in [0, 1]: the aggregated bytes its workers have taken over
     * all they will take (iterations x the model's bytes x workers), where the protocol reports
     * them (AggregationAgent::NoteResultBytes), so that one long all-reduce moves it too; never
     * less than the share of iterations done.
     */
    double GetProgressFraction() const;
    /// Per iteration: from the end of the previous one (the job's start for the first) to the
    /// moment its last worker finished it (had every piece of its gradients back aggregated; with
    /// OverlapForward the next iteration's forward pass may have begun before).
    std::vector<Time> GetIterationTimes() const;
    /// Job completion time: start to the end of the last iteration (zero while incomplete).
    Time GetJct() const;
    Time GetStartTime() const;
    /// Gradient bytes each worker all-reduced, over the time its agent had tensors outstanding,
    /// averaged over workers, in Gb/s.
    double GetAggregationThroughputGbps() const;
    uint64_t GetValuesChecked() const;
    uint64_t GetValueErrors() const;
    /// Sum of every agent's stats.
    AggregationAgent::Stats GetAgentStats() const;
    /// What the workers' compute models measured: the first worker's line and text, values
    /// averaged over the workers, per-iteration values averaged iteration by iteration.
    ComputeModel::Report GetComputeReport() const;

  protected:
    void DoDispose() override;

  private:
    void OnIterationDone(uint32_t rank, uint32_t iteration);
    const std::vector<double>& ExpectedSum(uint64_t tensorId, std::size_t count);

    // configured
    uint32_t m_iterations;
    Time m_start;
    ObjectFactory m_workerFactory;
    ObjectFactory m_computeFactory;

    // set up
    JobContext m_ctx;
    ModelSpec m_model;
    Ptr<AggregationProtocol> m_protocol;
    std::vector<Ptr<WorkerApp>> m_workers;

    // measured
    std::vector<uint32_t> m_finishedPerIteration;
    std::vector<int64_t> m_iterationEndPs;
    uint64_t m_valuesChecked = 0;
    uint64_t m_valueErrors = 0;

    struct Expected
    {
        std::vector<double> sum;
        uint32_t checksLeft;
    };

    std::map<uint64_t, Expected> m_expected;
};

} // namespace ns3

#endif /* TRAINING_JOB_H */
