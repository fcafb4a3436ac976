/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_PROGRAM_H
#define LIBRA_PROGRAM_H

#include "libra-header.h"
#include "libra-job-state.h"
#include "libra-lns-adder.h"
#include "libra-switch-records.h"

#include "ns3/ina-event.h"
#include "ns3/nstime.h"
#include "ns3/switch-program.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class InaPort;

/**
 * \ingroup libra
 * Libra's switch program (the paper's Libra_p in the pipeline and Libra_s on the switch CPU),
 * shared by every Libra job whose hot parameters this switch aggregates.
 *
 * Memory. One register array "libra_hot" of m lanes (lane = register id) and S cells per lane,
 * S = MemoryShare x 20 MiB / (4 B x m): Principle 1's memory condition decides how many hot
 * parameters the switch holds for all its jobs together. A job takes ceil(K / m) consecutive cells
 * of every lane (its register range): rank r of the job sits in lane r mod m, cell base + r div m
 * (the heat layout of Algorithm 1's Sec. 3.4). AddJob refuses a job that does not fit beside the
 * others, naming every number. A cell is a 64-bit register pair, one stateful ALU: the float32
 * sum in its low half and, in its high half, how many workers have pushed the parameter in this
 * round and not yet pulled it (its readers). With AddMode lns-approx the seven log-domain tables
 * of Sec. 3.5 (408.5 KiB) sit in stages 0..3 as exact-match tables filled with LibraLnsAdder's
 * entries, and the registers from stage 4; a one-lane counter "libra_done" follows the registers
 * (the stage after them: the 9th with m = 16, as the paper's 9 stages).
 *
 * A round of one job (spec A.9's SyncRound, with the per-worker pulls of Sec. 3.2: a worker pulls
 * the parameters it uses, i.e. the ranks it pushed):
 * - PUSH: each pair (rank, value) is added into its register cell through the adder (the LNS
 *   tables by default) and the cell's readers go up by one. A pass serves one pair per register,
 *   in lane (stage) order; a packet with two pairs of one register recirculates (the pipeline
 *   charges the recirculation port) and its second pass serves the rest. Then the packet becomes
 *   the worker's PUSH_ACK.
 * - DONE (phase 0): counted in libra_done; the N-th of a round resets the counter and is
 *   multicast to the job's workers as READY: every push of the round is in, so every cell holds
 *   its round's sum.
 * - PULL: the ranks of one of the worker's pushes, served pass by pass as the push was; each read
 *   writes the sum into the packet and takes one reader off the cell, and the last reader zeroes
 *   it, so the registers are clean for the next round without any extra pass. The packet goes
 *   back to that worker only, as a RESULT. A worker's result traffic is thus its own pushes' size,
 *   whatever the number of hot parameters.
 * - DONE (phase 1): the worker's pulls are answered; the N-th is multicast as READY of phase 1:
 *   every cell of the round has been read by all its readers, so it is zero, and the workers may
 *   push the next round. Without this barrier a fast worker's next pushes would land in cells a
 *   slow worker has still to read (a synchronous round's price; the paper's asynchronous workers
 *   read running values and have none).
 * Reliability (Sec. 3.6): PUSH_ACK/DONE_ACK come from the pipeline; a packet with the retransmit
 * flag goes to the CPU, which after CpuDelay either answers from its records (the push was
 * aggregated, the done counted, the pull served: ACK or resend the held result) or re-injects it
 * into the pipeline to take effect. READY and RESULT copies stay on the CPU until their addressees
 * have acknowledged them, and are resent (unicast) to the missing workers every SwitchRto.
 *
 * Failover (Sec. 3.6, Figure 11): a HEARTBEAT is answered with the switch's statistics, the
 * packets its ports sent and lost (SetStatisticsPorts), from which the controller tells a switch
 * that is about to fail. The controller's first STATE_PULL of a job freezes the job here (its
 * packets are dropped from then on, unacknowledged, so that the workers resend them to the
 * standby) and takes a snapshot of its state (LibraJobState); each STATE_PULL is answered by the
 * CPU, after CpuDelay, with one chunk of it. STATE_INSTALL chunks (a standby receiving the state)
 * are acknowledged by the CPU; ImportJobState writes the state into the registers and the CPU.
 *
 * Values are float32 bit patterns in the cells' low halves.
 */
class LibraProgram : public SwitchProgram
{
  public:
    /// Protocol events counted by reason.
    enum Reason : uint8_t
    {
        UNKNOWN_JOB,      //!< a packet of a job this switch does not aggregate
        BAD_PACKET,       //!< a rank, block or worker out of range, or a malformed payload
        PAIRS_AGGREGATED, //!< pairs added into registers
        RETX_TO_CPU,      //!< retransmitted packets handed to the CPU
        REPEATS_ABSORBED, //!< retransmissions the records answered (not applied again)
        RESULTS_SENT,     //!< pulls served (RESULT packets sent to their worker)
        UNPUSHED_READS,   //!< pulled cells no worker had pushed to (or pulled too often)
        CPU_RESENDS,      //!< held copies resent by the CPU after a timeout or a repeat pull
        ROUNDS_COMPLETED, //!< rounds whose pushes were all in (READY multicasts of phase 0)
        FROZEN_DROPS,     //!< packets of a job whose state was pulled away (failover)
        STATE_CHUNKS,     //!< chunks of state sent to the controller or received from it
        N_REASONS         //!< number of reasons
    };

    /// What AddJob needs to know of a job.
    struct JobConfig
    {
        uint32_t jobId = 0;                      //!< InaPacket::jobId
        std::string name;                        //!< for messages
        uint32_t hotKeys = 0;                    //!< K
        uint32_t workers = 0;                    //!< N
        InaAddress group = INA_NO_ADDRESS;       //!< multicast group of the workers
        std::vector<InaAddress> workerAddresses; //!< by rank
        uint16_t endpoint = 0;                   //!< the workers' Libra endpoint
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LibraProgram();

    void DeclareResources(ResourceDemand& demand) const override;
    uint16_t GetProtocolNumber() const override;
    std::string GetName() const override;
    void CheckConfig() override;
    uint64_t GetAggregatorsInUse() const override;
    uint64_t GetPeakAggregatorsInUse() const override;

    /**
     * Control plane: give a job its register range (before its first packet).
     * \param cfg the job
     * \throws std::runtime_error naming the switch memory and every job's keys when the range does
     *         not fit beside the jobs already here, or when the job id is taken
     */
    void AddJob(const JobConfig& cfg);

    /// \return m
    uint32_t GetRegisters() const
    {
        return m_registers;
    }

    /// \return cells per lane (S)
    uint32_t GetSlotsPerRegister() const;

    /// \return hot parameters the switch can hold for all its jobs: S x m
    uint64_t GetCapacityKeys() const;

    /// \return hot parameters granted to jobs so far
    uint64_t GetUsedKeys() const;

    /// \return the float add in use
    LibraLnsAdder::Mode GetAddMode() const
    {
        return LibraLnsAdder::ParseMode(m_addModeName);
    }

    /**
     * \param jobId a job
     * \return its register blocks, ceil(K / m) (throws std::invalid_argument for an unknown job)
     */
    uint32_t GetBlocks(uint32_t jobId) const;

    /**
     * Control plane read of a job's register cell, as the float it holds.
     * \param jobId the job
     * \param rank a rank of the job
     * \return the cell's value
     */
    float ReadHot(uint32_t jobId, uint32_t rank) const;

    /**
     * Control plane read of a job's register cell's readers: workers that pushed the parameter in
     * the current round and have not pulled it yet.
     * \param jobId the job
     * \param rank a rank of the job
     * \return the readers left
     */
    uint32_t ReadReaders(uint32_t jobId, uint32_t rank) const;

    /// \return READY/RESULT copies the CPU holds now
    uint64_t GetHeldCopies() const
    {
        return m_held.size();
    }

    /// \return records the CPU holds now, over all jobs
    uint64_t GetRecords() const;

    /**
     * The switch's ports, whose counters a HEARTBEAT's answer reports (packets sent, and lost on
     * the wire or dropped at the queue): the statistics the controller judges the switch by.
     * \param ports the switch's ports (they outlive the program)
     */
    void SetStatisticsPorts(std::vector<const InaPort*> ports);

    /// \return whether the job's state was pulled away (its packets are dropped here)
    bool IsFrozen(uint32_t jobId) const;

    /**
     * Hand the frozen job's state to the controller (once every chunk reached it).
     * \param jobId a job frozen by a STATE_PULL
     * \return its state (nullptr when not frozen or taken already)
     */
    std::unique_ptr<LibraJobState> TakeFrozenState(uint32_t jobId);

    /**
     * Control plane: install a job's state pulled from another switch (the standby resumes it).
     * The held copies move here and are resent after SwitchRto to whoever has not acknowledged.
     * \param jobId the job (added with the same hot keys)
     * \param state the state; its held copies are taken
     * \throws std::invalid_argument when the job is unknown or its layout differs
     */
    void ImportJobState(uint32_t jobId, LibraJobState& state);

  protected:
    void DoDispose() override;

  private:
    /// A job's state in the program.
    struct Job
    {
        JobConfig cfg;                              //!< as added
        uint32_t base = 0;                          //!< first cell of its range
        uint32_t blocks = 0;                        //!< ceil(K / m)
        uint32_t index = 0;                         //!< cell of libra_done
        LibraSwitchRecords records;                 //!< Libra_s records
        uint32_t lastPrunedRound = 0;               //!< records before this round are gone
        bool frozen = false;                        //!< its state was pulled away (failover)
        std::unique_ptr<LibraJobState> frozenState; //!< the state, until the controller takes it
    };

    /// A READY or RESULT copy on the CPU, kept until its addressees acknowledged it.
    struct Held
    {
        InaPacket* copy = nullptr; //!< the packet as sent
        /// A READY's acknowledgements by rank; empty for a RESULT, which has the one addressee
        /// `to` (one per pull: no per-packet allocation for it).
        std::vector<bool> acked;
        uint32_t to = 0;        //!< a RESULT's addressee
        uint32_t missing = 0;   //!< addressees that have not acknowledged
        int64_t deadlinePs = 0; //!< next resend

        /// Whether worker \p w is an addressee that has not acknowledged.
        bool Waits(uint32_t w) const
        {
            return acked.empty() ? (w == to && missing > 0) : !acked[w];
        }
    };

    /// A held copy's identity: (job index, round, addressee) and the pull's sequence number.
    using HeldId = std::pair<uint64_t, uint32_t>;
    /// HeldId's addressee of a READY (multicast to every worker).
    static constexpr uint32_t ALL_WORKERS = 0xffff;
    /// HeldId's sequence number of a READY of phase 0 (phase 1: one less).
    static constexpr uint32_t READY_SEQ = 0xffffffffU;
    /// Phases of a round's DONE/READY: pushes in, pulls answered.
    static constexpr uint32_t PHASES = 2;
    /// Bit position of the readers count in a hot cell (the register pair's high half).
    static constexpr unsigned READERS_SHIFT = 32;

    void DoProcess(InaPacket* p, PipelinePass& pass) override;
    void InitializeState() override;
    void DoResetState() override;

    void ProcessPush(InaPacket* p, PipelinePass& pass, Job& job);
    void ProcessDone(InaPacket* p, PipelinePass& pass, Job& job);
    void ProcessPull(InaPacket* p, PipelinePass& pass, Job& job);
    void ProcessAck(InaPacket* p, Job& job);
    /// \return the job of a packet addressed to this switch, or nullptr after counting and
    ///         consuming one of an unknown job, with header fields out of range, or of a frozen
    ///         job (all but the controller's heartbeats and state pulls)
    Job* Admit(InaPacket* p, PipelinePass& pass);
    /// A controller's heartbeat: answered with the ports' sent and lost packets and the CPU's
    /// held copies.
    void AnswerHeartbeat(InaPacket* p);

    /// A retransmission reaches the CPU: answer it from the records or re-inject it.
    void CpuCheck(InaPacket* p);
    /// A STATE_PULL reaches the CPU: freeze the job (the first time) and answer with the chunk.
    void CpuStatePull(InaPacket* p);
    /// A STATE_INSTALL chunk reaches the CPU: acknowledge it.
    void CpuStateInstall(InaPacket* p);
    /// Stop serving `job` and move its state into job.frozenState.
    void Freeze(Job& job);
    /// Free the held copies of a state (a reboot, a disposal).
    void FreeState(LibraJobState& state);
    /// Rewrite `p` into an acknowledgement of type `type` back to its sender.
    void MakeAck(InaPacket* p, LibraHeader::Type type);
    /**
     * Which pairs of a push or pull packet this pass serves: a pass serves one pair per register,
     * the pair's pass being the number of earlier pairs of its register (LibraLayout::Analyse's
     * rule). Fills m_serve with (lane, pair) in stage order.
     * \param p a push or pull: header pairs, (rank, value) words in values
     * \param job the job (ranks must be below its K)
     * \param pass this pass's index
     * \return the passes the packet needs, or 0 for a malformed packet (no pairs, fewer words
     *         than pairs, a rank out of range), which is counted and consumed (DropMalformed)
     */
    uint32_t PlanPasses(InaPacket* p, const Job& job, uint32_t pass);
    /// Count a malformed push or pull (BAD_PACKET) and consume it. \return 0, the passes it needs
    uint32_t DropMalformed(InaPacket* p);
    /// Keep a copy of a READY (to == ALL_WORKERS) or of a worker's RESULT until acknowledged.
    void Hold(const Job& job, const InaPacket* p, HeldId key, uint32_t to);
    /// Send a held copy to one worker.
    void Resend(const Job& job, const Held& h, uint32_t worker);
    /// The CPU's resend timer.
    void OnCpuTimer();
    void ArmCpuTimer();

    /// \return the held-copy id of (job, round, addressee, seq)
    static HeldId MakeHeldId(uint32_t jobIndex, uint32_t round, uint32_t worker, uint32_t seq)
    {
        return {uint64_t{jobIndex} << 40 | uint64_t{round & 0xffffffU} << 16 | worker, seq};
    }

    /// \return the job of `jobId`, or nullptr
    Job* FindJob(uint32_t jobId);

    // Attributes
    uint32_t m_registers;      //!< m
    double m_memoryShare;      //!< c
    uint32_t m_maxJobs;        //!< cells of libra_done
    Time m_cpuDelay;           //!< CPU path latency for retransmissions
    Time m_switchRto;          //!< resend timeout of held copies
    std::string m_addModeName; //!< AddMode

    LibraLnsAdder m_adder;                              //!< the float add
    RegisterArray* m_hot = nullptr;                     //!< libra_hot
    RegisterArray* m_done = nullptr;                    //!< libra_done
    ExactMatchTable* m_jobTable = nullptr;              //!< jobId -> index
    std::vector<Job> m_jobs;                            //!< by index
    uint32_t m_nextBase = 0;                            //!< first free cell
    InaAddress m_address = INA_NO_ADDRESS;              //!< the switch
    std::map<HeldId, Held> m_held;                      //!< CPU copies
    std::deque<std::pair<int64_t, HeldId>> m_heldFifo;  //!< (deadline, key), deadline order
    bool m_cpuTimerPending = false;                     //!< OnCpuTimer scheduled
    uint64_t m_peakHeld = 0;                            //!< most copies held at once
    std::vector<uint32_t> m_passOf;                     //!< scratch: pass of each pair
    std::vector<uint32_t> m_laneCount;                  //!< scratch: pairs per lane so far
    std::vector<std::pair<uint32_t, uint32_t>> m_serve; //!< scratch: (lane, pair) this pass
    std::vector<const InaPort*> m_statPorts;            //!< the switch's ports (heartbeats)
};

} // namespace ns3

#endif /* LIBRA_PROGRAM_H */
