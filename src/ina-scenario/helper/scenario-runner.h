/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_RUNNER_H
#define SCENARIO_RUNNER_H

#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-fabric.h"
#include "ns3/ina-flow-app.h"
#include "ns3/job-placement.h"
#include "ns3/scenario.h"
#include "ns3/training-job.h"

#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

class ScenarioFaults;

/**
 * \ingroup ina-scenario
 * Runs one validated Scenario: builds the topology and the fabric, installs what the scenario asks
 * for (plain traffic now; jobs as protocols register), runs the simulation with a progress line,
 * and writes the outputs of the user contract (summary.json, config.yaml, CSV tables).
 *
 * A run that cannot finish (stop_time reached, flows stuck) still writes summary.json, with
 * `completed: false` and the reason.
 */
class ScenarioRunner
{
  public:
    ScenarioRunner(const Scenario& scenario, const std::string& outDir);
    ~ScenarioRunner();

    /// Where progress lines and the final human summary go (stderr / stdout by default).
    void SetConsole(std::ostream* progress, std::ostream* summary);

    /**
     * Build the fabric and install the traffic and jobs, without running: everything Run()
     * refuses before the simulation starts is refused here, with the same ScenarioError
     * (`inasim-config check` calls this, so it rejects what `run` rejects). With an empty
     * output folder nothing is written (no pcap). Call Simulator::Destroy() afterwards if
     * the runner will not Run().
     */
    void Prepare();

    /**
     * Ask the running simulation to stop as soon as it can (at its next progress check, within
     * 10 us of simulated time) and write a partial summary marked `ended_by: interrupted`.
     * Async-signal-safe: meant for a SIGINT / SIGTERM handler. `signal` is named in the reason.
     */
    static void RequestStop(int signal);
    /// The signal given to RequestStop, 0 if none.
    static int GetStopSignal();

    /// Build, run and write. Returns 0 when everything completed, 1 when the run ended incomplete.
    /// Throws ScenarioError for a scenario that cannot be built (bad host ids, unknown protocol).
    int Run();

    /// The placement kind of a scenario's `placement`.
    static JobPlacement::Kind PlacementKind(ScenarioPlacement::Kind kind);

    /// The seed of job `index` (its placement draws from it, its parameter servers' from + 1).
    static uint64_t JobSeed(uint64_t scenarioSeed, size_t index)
    {
        return scenarioSeed * 1000003ULL + 7919ULL * (index + 1);
    }

  private:
    /// Why the simulation stopped, for the summary's `ended_by` and the reasons.
    enum class EndedBy
    {
        COMPLETED,   ///< everything finished
        NO_EVENTS,   ///< the event queue ran dry with work left (a transport gave up, a bug)
        STOP_TIME,   ///< `stop_time` reached
        NO_PROGRESS, ///< nothing finished for `limits.no_progress`
        GAVE_UP,     ///< every unfinished flow or job gave up (retries exhausted)
        INTERRUPTED, ///< RequestStop (Ctrl-C, SIGTERM)
    };

    InaTopology BuildTopology() const;
    /// \param step reports a finished step of the build (set-up progress lines)
    void BuildFabric(const std::function<void(const std::string&)>& step);
    /// Refuse a `switch.ina_tiers` entry the topology has no tier for.
    void CheckInaTiers(const InaTopology& topo) const;
    /// The `switch` keys, each checked as the Pipeline Attribute it sets.
    void SetPipelineAttributes(InaFabricHelper& helper) const;
    /// `switch.aggregation.per_switch`, on the built fabric's named switches, then
    /// `planner.capacity_min`/`capacity_max`'s drawn C_s (ProgrammableDraw).
    void SetPerSwitchCapacities();
    void InstallTraffic();
    void InstallJobs();
    /// Job `i`'s protocol, with the job's params set on it, its worker and its compute model.
    Ptr<AggregationProtocol> CreateJobProtocol(std::size_t i, Ptr<TrainingJob> job);
    /// Each of job `i`'s params on the protocol, else the workers, else the compute model.
    void ApplyJobParams(std::size_t i,
                        ObjectFactory& protocolFactory,
                        const std::string& computeName,
                        Ptr<TrainingJob> job) const;
    /// The packet size of a protocol on host transports: the fabric's smallest link MTU.
    void SetTransportMtu(std::size_t i, ObjectFactory& protocolFactory) const;
    /// Job `i`'s model; `workloadKey` is the scenario key that chose it.
    ModelSpec JobModel(std::size_t i, std::string* workloadKey);
    /// Count the memory check_values needs for job `sj`, refusing what the machine lacks.
    void ReserveValueMemory(const ScenarioJob& sj,
                            const ModelSpec& model,
                            const std::string& workloadKey);
    /// Job `i`'s context: its hosts (marked in `used`) and parameter servers.
    JobContext PlaceJob(std::size_t i,
                        Ptr<AggregationProtocol> protocol,
                        const std::vector<std::string>& tiers,
                        std::vector<bool>& used) const;
    /// Set job `i` up on its hosts, blaming the scenario key at fault when it cannot be.
    void SetUpJob(std::size_t i,
                  Ptr<TrainingJob> job,
                  const JobContext& ctx,
                  const ModelSpec& model,
                  Ptr<AggregationProtocol> protocol,
                  const std::string& workloadKey) const;
    void ScheduleProgress();
    void OnProgressTick();
    double Progress() const;
    void WriteOutputs(double wallSeconds, uint64_t events);
    /// summary.json's `incomplete_reason`: what did not finish by `simPs`, and why.
    std::string IncompleteReason(int64_t simPs) const;
    /// Write jobs.csv and iterations.csv (when there are jobs); returns summary.json's `jobs`.
    nlohmann::ordered_json WriteJobTables() const;
    /// The human summary of a run, from its summary.json.
    void PrintSummary(std::ostream& o,
                      const nlohmann::ordered_json& summary,
                      const std::string& reason,
                      int64_t simPs,
                      double wallSeconds,
                      uint64_t events,
                      const InaLinkCounters& links) const;
    std::string SwitchesCsv() const;
    bool AllDone() const;
    /// Every flow and job either completed or can do nothing more (a flow that gave up).
    bool NothingLeft() const;
    /// A count that grows with every finished piece of work (flow bytes acknowledged, flows
    /// ended, jobs and traffic started, worker layers and tensors): see limits.no_progress.
    uint64_t ProgressCount() const;
    /// The ended_by token of summary.json.
    std::string EndedByName() const;
    /// Why the run stopped before everything completed, in words ("" when it completed).
    std::string EndReason() const;
    int64_t LastCompletionPs() const;
    std::string LinksCsv() const;

    Scenario m_scenario;
    std::string m_outDir;
    std::ostream* m_progressOut;
    std::ostream* m_summaryOut;
    Ptr<InaFabric> m_fabric;
    std::unique_ptr<ScenarioFaults> m_faults; //!< the scenario's events, once the fabric exists
    std::vector<Ptr<InaFlowApp>> m_traffic;
    std::vector<Ptr<TrainingJob>> m_jobs;
    int64_t m_progressIntervalPs = 0;
    uint64_t m_progressEvents = 0;
    double m_wallStart = 0;
    double m_lastPrint = 0;
    std::string m_timeseries;
    EndedBy m_endedBy = EndedBy::NO_EVENTS;
    uint64_t m_lastProgressCount = 0;
    int64_t m_lastProgressPs = 0;
    int64_t m_nextProgressCheckPs = 0;
    double m_valueBytes = 0; //!< memory the jobs' checked values need (check_values)
    /// The smallest link MTU of the fabric: the packet size of transports (flows, ring, ps), so
    /// that every ECMP path carries their packets.
    uint32_t m_transportMtu = 0;
};

} // namespace ns3

#endif /* SCENARIO_RUNNER_H */
