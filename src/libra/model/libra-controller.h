/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_CONTROLLER_H
#define LIBRA_CONTROLLER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ina-packet.h"
#include "ns3/ina-port.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class InaHost;

/**
 * \ingroup libra
 * The switch controller of Libra's detection-migration failover (paper Sec. 3.6, Figure 11): it
 * sends a heartbeat to the aggregating switch every HeartbeatPeriod and takes the switch for
 * failed once no heartbeat sent in the last HeartbeatTimeout has been answered; then it calls
 * the failure callback once (LibraProtocol migrates the job to its standby switch) and watches
 * whatever switch it is told to watch next.
 *
 * The paper gives no period or timeout. The defaults are BFD's (RFC 5880 Sec. 6.8.4: detection
 * after a multiplier of 3 intervals; RFC 7419 Sec. 3: 3.3 ms, the interval common in hardware),
 * the same 9.9 ms the fabric's routing takes to notice a failed link (InaFaultInjector's
 * DetectionDelay).
 *
 * The heartbeats are Libra packets in the data plane from the controller's host (the job's first
 * PS host) to the switch, answered by its program: a switch whose links are down cannot answer.
 * They run only while `busy` says a round is out (a simulation must be able to end); Wake starts
 * them again, the time of waking counting as a fresh answer.
 */
class LibraController : public Object, public InaPacketSink
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    LibraController();
    ~LibraController() override;

    /**
     * \param host the host the controller runs on
     * \param target the switch to watch
     * \param jobId the job whose packets the heartbeats are (the switch answers known jobs only)
     * \param flowId the heartbeats' flow id (one path)
     * \param busy whether a round is out (heartbeats pause when not)
     * \param onFailure called once, when the switch is taken for failed
     */
    void Setup(Ptr<InaHost> host,
               InaAddress target,
               uint32_t jobId,
               uint32_t flowId,
               Callback<bool> busy,
               Callback<void> onFailure);

    /// A round started: heartbeat if not already.
    void Wake();

    /// Watch another switch from now on (the standby, after a failover).
    void Watch(InaAddress target);

    /// \return the time the failure was detected (negative: not detected)
    Time GetDetectedAt() const
    {
        return m_detectedAt;
    }

    /// \return when the last heartbeat the failed switch answered was sent (negative: no failure)
    Time GetLastAnsweredBeforeFailure() const
    {
        return m_failedAnsweredAt;
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

    // InaPacketSink: heartbeat answers
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    void DoDispose() override;

  private:
    void Tick();

    Time m_period;  //!< HeartbeatPeriod
    Time m_timeout; //!< HeartbeatTimeout

    Ptr<InaHost> m_host;
    InaAddress m_target = INA_NO_ADDRESS;
    uint32_t m_jobId = 0;
    uint32_t m_flowId = 0;
    uint16_t m_endpoint = 0;
    Callback<bool> m_busy;
    Callback<void> m_onFailure;
    bool m_running = false;  //!< a Tick is scheduled
    bool m_failed = false;   //!< the failure was detected (the callback ran)
    uint32_t m_nextSeq = 0;  //!< the next heartbeat's number
    Time m_answeredSentAt;   //!< when the newest answered heartbeat was sent
    Time m_detectedAt;       //!< when the failure was detected
    Time m_failedAnsweredAt; //!< m_answeredSentAt at the detection
    uint64_t m_sent = 0;     //!< heartbeats sent
    uint64_t m_answered = 0; //!< heartbeats answered
    EventId m_tick;          //!< the next Tick
};

} // namespace ns3

#endif /* LIBRA_CONTROLLER_H */
