/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_CONTROLLER_H
#define LIBRA_CONTROLLER_H

#include "libra-job-state.h"
#include "libra-retx-queue.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ina-packet.h"
#include "ns3/ina-port.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{

class InaHost;
class LibraProgram;

/**
 * \ingroup libra
 * The switch controller of Libra's detection-migration failover (paper Sec. 3.6, Figure 11).
 *
 * Detection. It sends a heartbeat to the aggregating switch every HeartbeatPeriod. The switch
 * answers with its statistics (LibraProgram: the packets its ports sent and lost); the paper's
 * controller "uses these statistics along with the response delay to detect whether the switch is
 * about to fail (e.g. high packet loss rates ...)". Here a switch is about to fail (degraded) when
 * the share of its packets lost since the last judged answer, over at least LossMinPackets, is
 * above LossThreshold, or when an answer took longer than ResponseDelayThreshold (0: not judged).
 * A switch that answered no heartbeat sent in the last HeartbeatTimeout has failed. Each calls
 * its callback once per watched switch; Watch starts afresh on another.
 *
 * The paper gives no period, timeout or threshold. The period and timeout are BFD's (RFC 5880
 * Sec. 6.8.4: detection after a multiplier of 3 intervals; RFC 7419 Sec. 3: 3.3 ms, the interval
 * common in hardware), the same 9.9 ms the fabric's routing takes to notice a failed link
 * (InaFaultInjector's DetectionDelay). The loss threshold is ten times the paper's bound on loss
 * in data centres (below 1e-3, Sec. 3.6), so that the loss its Figure 18 studies (up to 0.1 %) is
 * normal.
 *
 * Migration. Migrate pulls the job's state (LibraJobState) from a switch that still answers
 * (STATE_PULL, one chunk of LibraHeader::STATE_CHUNK_BYTES per request, Window requests out, each
 * asked again after StateRto) and installs it on the standby (STATE_INSTALL, acknowledged chunk by
 * chunk), then LibraProgram::ImportJobState writes it there; the callback then re-routes the job.
 * A side that answers nothing for HeartbeatTimeout during the transfer has failed, as with
 * heartbeats, and the callback says which; a state pulled already stays with the controller for
 * another standby (Migrate with no source).
 *
 * The heartbeats and the transfer are Libra packets in the data plane from the controller's host
 * (the job's first PS host), answered by the switch programs: a switch whose links are down cannot
 * answer. Heartbeats run only while `busy` says a round is out (a simulation must be able to end);
 * Wake starts them again, the time of waking counting as a fresh answer.
 */
class LibraController : public Object, public InaPacketSink
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * Give `tid`, the TypeId of an object that creates a controller (LibraProtocol), an Attribute
     * with the name, help text, default and checker of one of the controller's, kept through
     * `accessor`: a job sets the controller's parameters among its own params, and the two
     * declarations cannot drift apart.
     * \param tid the TypeId being built
     * \param name an Attribute of ns3::LibraController
     * \param accessor where the creating object keeps the value
     */
    static void ForwardAttribute(TypeId tid,
                                 const std::string& name,
                                 Ptr<const AttributeAccessor> accessor);

    LibraController();
    ~LibraController() override;

    /// How a migration ended.
    enum class MigrationResult
    {
        INSTALLED,     //!< the state is on the target
        SOURCE_FAILED, //!< the source stopped answering before all of the state was pulled
        TARGET_FAILED  //!< the target stopped answering; the state stays with the controller
    };

    /**
     * \param host the host the controller runs on
     * \param target the switch to watch
     * \param jobId the job whose packets the heartbeats are (the switch answers known jobs only)
     * \param flowId the heartbeats' flow id (one path)
     * \param busy whether a round is out (heartbeats pause when not)
     * \param onFailure called once per watched switch, when it answered nothing for
     *        HeartbeatTimeout
     * \param onDegraded called once per watched switch, when its answers say it is about to fail
     */
    void Setup(Ptr<InaHost> host,
               InaAddress target,
               uint32_t jobId,
               uint32_t flowId,
               Callback<bool> busy,
               Callback<void> onFailure,
               Callback<void> onDegraded);

    /// A round started: heartbeat if not already.
    void Wake();

    /// Watch another switch from now on (the standby, after a failover).
    void Watch(InaAddress target);

    /**
     * Move the job's state to `to` (see the class comment).
     * \param from the switch to pull it from (nullptr: the state the controller holds from an
     *        earlier migration whose target failed)
     * \param fromAddress its address
     * \param to the standby to install it on
     * \param toAddress its address
     * \param done called once with the result
     */
    void Migrate(Ptr<LibraProgram> from,
                 InaAddress fromAddress,
                 Ptr<LibraProgram> to,
                 InaAddress toAddress,
                 Callback<void, MigrationResult> done);

    /// \return whether a migration is under way
    bool IsMigrating() const
    {
        return m_phase != Phase::IDLE;
    }

    /// Stop a migration under way (its callback is not called) and drop any state held.
    void AbortMigration();

    /// \return whether the controller holds a pulled state (a migration whose target failed)
    bool HoldsState() const
    {
        return m_state != nullptr;
    }

    /// \return the time the last failure was detected (negative: none)
    Time GetDetectedAt() const
    {
        return m_detectedAt;
    }

    /// \return when the last heartbeat the failed switch answered was sent (negative: no failure)
    Time GetLastAnsweredBeforeFailure() const
    {
        return m_failedAnsweredAt;
    }

    /// \return the loss rate that made the last degraded switch suspect (0: none)
    double GetDegradedLossRate() const
    {
        return m_degradedLoss;
    }

    /// \return heartbeats sent
    uint64_t GetHeartbeatsSent() const
    {
        return m_sent;
    }

    /// \return heartbeats answered
    uint64_t GetHeartbeatsAnswered() const
    {
        return m_answered;
    }

    /// \return bytes of state installed on standbys, over all migrations
    uint64_t GetStateBytesMoved() const
    {
        return m_stateBytes;
    }

    /// \return state chunk requests and installs sent again after StateRto
    uint64_t GetStateResends() const
    {
        return m_stateResends;
    }

    /// \return cells of a round in progress in the last state pulled (what the standby resumes)
    uint64_t GetLastStateLiveCells() const
    {
        return m_lastLiveCells;
    }

    /// \return the heartbeat period
    Time GetPeriod() const
    {
        return m_period;
    }

    /// \return the heartbeat timeout
    Time GetTimeout() const
    {
        return m_timeout;
    }

    // InaPacketSink: heartbeat answers and state chunks
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    void DoDispose() override;

  private:
    /// Where a migration is.
    enum class Phase
    {
        IDLE,
        PULL,   //!< asking the source for chunks
        INSTALL //!< sending chunks to the target
    };

    void Tick();
    /// A heartbeat answer's statistics: is the switch about to fail?
    void Judge(const InaPacket* p);
    InaPacket* NewPacket(InaAddress dst, uint8_t type, uint32_t seq);
    /// Send STATE_PULL or STATE_INSTALL requests up to the window.
    void SendChunks();
    void SendChunk(uint32_t seq, bool again);
    void OnStateTimer();
    void ArmStateTimer();
    void StartInstall();
    void EndMigration(MigrationResult r);
    void DropState();

    Time m_period;             //!< HeartbeatPeriod
    Time m_timeout;            //!< HeartbeatTimeout
    double m_lossThreshold;    //!< LossThreshold
    uint64_t m_lossMinPackets; //!< LossMinPackets
    Time m_delayThreshold;     //!< ResponseDelayThreshold
    Time m_stateRto;           //!< StateRto
    uint32_t m_window;         //!< Window

    Ptr<InaHost> m_host;
    InaAddress m_target = INA_NO_ADDRESS;
    uint32_t m_jobId = 0;
    uint32_t m_flowId = 0;
    uint16_t m_endpoint = 0;
    Callback<bool> m_busy;
    Callback<void> m_onFailure;
    Callback<void> m_onDegraded;
    bool m_running = false;  //!< a Tick is scheduled
    bool m_failed = false;   //!< the watched switch was taken for failed
    bool m_degraded = false; //!< the watched switch was taken for about to fail
    uint32_t m_nextSeq = 0;  //!< the next heartbeat's number
    Time m_answeredSentAt;   //!< when the newest answered heartbeat was sent
    Time m_detectedAt;       //!< when the last failure was detected
    Time m_failedAnsweredAt; //!< m_answeredSentAt at that detection
    bool m_haveBase = false; //!< m_baseSent/m_baseLost hold a judged answer of the target
    uint64_t m_baseSent = 0; //!< the target's packets sent at the last judged answer
    uint64_t m_baseLost = 0; //!< and lost
    double m_degradedLoss = 0;
    uint64_t m_sent = 0;     //!< heartbeats sent
    uint64_t m_answered = 0; //!< heartbeats answered
    EventId m_tick;          //!< the next Tick

    // the migration under way
    Phase m_phase = Phase::IDLE;
    Ptr<LibraProgram> m_from;
    InaAddress m_fromAddress = INA_NO_ADDRESS;
    Ptr<LibraProgram> m_to;
    InaAddress m_toAddress = INA_NO_ADDRESS;
    Callback<void, MigrationResult> m_done;
    std::unique_ptr<LibraJobState> m_state; //!< pulled, not installed yet
    uint32_t m_chunks = 0;                  //!< chunks of the state (0: not known yet)
    std::vector<bool> m_have;               //!< per chunk: pulled / acknowledged
    uint32_t m_haveCount = 0;
    uint32_t m_nextChunk = 0; //!< the next chunk not yet sent
    LibraRetxQueue m_retx;    //!< chunks out
    Time m_lastProgress;      //!< last chunk answered (or the phase's start)
    EventId m_stateTimer;
    std::vector<uint64_t> m_expired; //!< scratch
    uint64_t m_stateBytes = 0;
    uint64_t m_stateResends = 0;
    uint64_t m_lastLiveCells = 0;
};

} // namespace ns3

#endif /* LIBRA_CONTROLLER_H */
