/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_PROTOCOL_H
#define ESA_PROTOCOL_H

#include "esa-job-profile.h"
#include "esa-preemption-policy.h"
#include "esa-priority.h"

#include "ns3/pool-protocol.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class EsaAgent;
class EsaProgram;

/**
 * \ingroup esa
 * ESA (Wang et al., INFOCOM'23, Sec. 4-5) for one job:
 * registered as protocol "esa". ESA is ATP with a different allocation policy, so this is
 * PoolProtocol with ESA's parts: the same aggregation trees (one or two levels, up to four
 * parameter servers), window and congestion control, quantizer and job table, and
 * - EsaProgram at every aggregating switch (its own protocol number, so ESA jobs share a pool of
 *   their own): preemption by priority, multicast at completion, reminders;
 * - EsaParameterServer: ATP's server plus reminders and pulls;
 * - EsaAgent: ATP's worker plus priorities, per-fragment hashing, reminders instead of resends,
 *   answers to pulls.
 *
 * The priority's inputs (EsaPriority): the paper's interface gets the layer, the remaining time
 * and the communication-to-computation ratio from the training framework with every tensor.
 * Here they come from the job's workload in the JobContext (model, iterations, the workers'
 * fusion, partitioning and send order, filled by TrainingJob) through EsaJobProfile: each
 * tensor's layer, L_j, the ratio (one iteration's bytes at the workers' line rate over its
 * computation) and the remaining time at each push. The Attributes Layers, TensorLayers and
 * CommCompRatio override them one by one; without a model in the context (a protocol installed
 * on its own) and without them every tensor is layer 1 of 1 with ratio 1, and the remaining time
 * is the bytes the worker still has to all-reduce at its line rate.
 */
class EsaProtocol : public PoolProtocol
{
  public:
    /// How the aggregator index of a fragment is chosen.
    enum IndexHash
    {
        FRAGMENT, //!< CRC32(job id, sequence number) mod the hash range: self-collisions
        SLOT      //!< ATP's hash (ESA 5.1: "the same as ATP's"): never collides with itself
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EsaProtocol();
    /// Out of line: a member holds a Ptr to a class this header only declares.
    ~EsaProtocol() override;

    /// \return the job's counters: ATP's plus reminders, pulls, evictions seen, clamps, ...
    std::map<std::string, double> GetCounters() const override;

    /**
     * The aggregator index of fragment `seq` (workers and parameter servers agree on it).
     * \param seq a fragment
     * \return the index
     */
    uint16_t IndexOf(uint64_t seq) const;

    /**
     * The layer of a tensor: TensorLayers if given, else the job profile's (the piece's front-most
     * layer), else 1. Pieces beyond either list take its last entry.
     * \param piece the tensor's position in its iteration (WorkerApp::TensorId's low 32 bits)
     * \return l, 1 = the front layer
     */
    uint32_t LayerOf(uint32_t piece) const;

    /// \return L_j: Layers if given, else the model's layers, else 1
    uint32_t GetLayers() const;
    /// \return Comm_j / Comp_j: CommCompRatio if given, else the job profile's, else 1
    double GetCommCompRatio() const;
    /// \return the job's profile, derived from its context at Install (nullptr: no model known)
    const EsaJobProfile* GetProfile() const;
    /// \return what stands for T_j
    EsaPriority::TimeSource GetTimeSource() const;
    /// \return the packing scale S, seconds
    double GetPriorityScale() const;
    /// \return T_j for PriorityTimeSource fixed, seconds
    double GetFixedTime() const;
    /// \return results a worker must see above the expected one before it reminds (0: never)
    uint32_t GetDupAckThreshold() const;
    /// \return RTO_min
    Time GetRtoMin() const;
    /// \return the reminder timeout's back-off ceiling
    Time GetRtoMax() const;
    /// \return the collision policy
    EsaPreemptionMode GetPreemptionMode() const;

  protected:
    void DoInstall() override;
    void DoDispose() override;
    Ptr<PoolProgram> CreateProgram() const override;
    Ptr<PoolParameterServer> CreateServer() const override;
    Ptr<PoolAgent> CreatePoolAgent() const override;

  private:
    /// Check ESA's attributes; throws like Fail.
    void CheckEsa();
    /// CheckEsa's TensorLayers (the layer of each piece) against Layers and the job's model.
    void ReadTensorLayers();
    /// Tell every program and server where ESA's packets go.
    void ConfigureEsa();
    /// ConfigureEsa for one parameter server's tree: its switches' routes and its server.
    void ConfigureTree(const Tree& t);
    /// \return the ESA program at switch `node` of the job (Fail if none, or not ESA's)
    Ptr<EsaProgram> ProgramAt(uint32_t node) const;

    // Attributes
    int m_mode;                 //!< collision policy (an EsaPreemptionMode)
    double m_probability;       //!< RANDOM: preemption probability
    int m_source;               //!< T_j (an EsaPriority::TimeSource)
    Time m_scale;               //!< packing scale S
    Time m_fixedTime;           //!< T_j for FIXED
    uint32_t m_layers;          //!< L_j (0: not given)
    std::string m_tensorLayers; //!< layer per tensor of an iteration
    double m_ratio;             //!< Comm / Comp (0: not given)
    uint32_t m_dupAckThreshold; //!< worker and PS duplicate threshold
    Time m_rtoMin;              //!< RTO_min
    Time m_rtoMax;              //!< back-off ceiling
    IndexHash m_hash;           //!< aggregator index choice

    // Installed state
    std::vector<uint32_t> m_pieceLayers;            //!< parsed TensorLayers
    std::unique_ptr<EsaJobProfile> m_profile;       //!< from the context's workload, if known
    double m_profileRatio = 0;                      //!< its Comm / Comp (0: none)
    uint32_t m_range = 1;                           //!< hash range
    mutable std::vector<Ptr<EsaAgent>> m_esaAgents; //!< for the counters
};

} // namespace ns3

#endif /* ESA_PROTOCOL_H */
