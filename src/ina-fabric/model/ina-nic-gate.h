/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_NIC_GATE_H
#define INA_NIC_GATE_H

#include "ns3/event-impl.h"
#include "ns3/ina-host.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>

namespace ns3
{

class InaTransportSender;

/**
 * \ingroup ina-fabric
 * Back-pressure from a host's NIC queue to the transport senders on that host, as Linux's TCP small
 * queues and fq qdisc give a real host: a sender hands the NIC a packet only while the NIC's
 * backlog is under the sender's NicQueueLimit (an empty NIC always takes one), and otherwise waits
 * here. A real host never drops its own packets at its NIC; without this, 63 flows of an all-to-all
 * starting with a 60 KB window each would pour 3.8 MB into a 1 MB NIC queue and lose most of it.
 *
 * Waiting senders are woken in round-robin order once the backlog has drained to half the smallest
 * limit among them, so a wake-up admits many packets and the flows share the NIC fairly. One
 * reusable event per host; nothing is scheduled while no sender waits.
 *
 * One gate per host, aggregated to it on first use (For()).
 */
class InaNicGate : public Object
{
  public:
    static TypeId GetTypeId();
    InaNicGate();
    ~InaNicGate() override;

    /// The host's gate, created and aggregated to the host the first time it is asked for.
    static Ptr<InaNicGate> For(Ptr<InaHost> host);

    /// True if the NIC takes `wireBytes` more now under `limitBytes` of backlog.
    bool HasRoom(uint32_t wireBytes, uint64_t limitBytes) const;
    /**
     * Queue `sender` to be woken (InaTransportSender::OnNicReady) once the backlog has drained to
     * `drainToBytes`. A sender already waiting keeps its place.
     */
    void Wait(InaTransportSender* sender, uint64_t drainToBytes);
    /// Forget `sender` (it is going away).
    void Remove(InaTransportSender* sender);

    /// Times the gate held a sender back.
    uint64_t GetWaits() const;

  protected:
    void DoDispose() override;

  private:
    void Schedule();
    void OnWake();

    InaHost* m_host = nullptr;
    std::deque<InaTransportSender*> m_waiting;
    uint64_t m_drainTo = 0;
    bool m_pending = false;
    Ptr<EventImpl> m_event;
    uint64_t m_waits = 0;
};

} // namespace ns3

#endif /* INA_NIC_GATE_H */
