/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-nic-gate.h"

#include "ina-event.h"
#include "ina-transport-sender.h"
#include "ina-wire-time.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaNicGate");
NS_OBJECT_ENSURE_REGISTERED(InaNicGate);

TypeId
InaNicGate::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaNicGate")
                            .SetParent<Object>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaNicGate>();
    return tid;
}

InaNicGate::InaNicGate()
    : m_event(new InaEvent<InaNicGate, &InaNicGate::OnWake>(this), false)
{
}

InaNicGate::~InaNicGate()
{
    m_event->Cancel();
}

void
InaNicGate::DoDispose()
{
    m_event->Cancel();
    m_waiting.clear();
    m_host = nullptr;
    Object::DoDispose();
}

Ptr<InaNicGate>
InaNicGate::For(Ptr<InaHost> host)
{
    Ptr<InaNicGate> gate = host->GetObject<InaNicGate>();
    if (!gate)
    {
        gate = CreateObject<InaNicGate>();
        gate->m_host = PeekPointer(host);
        host->AggregateObject(gate);
    }
    return gate;
}

bool
InaNicGate::HasRoom(uint32_t wireBytes, uint64_t limitBytes) const
{
    const uint64_t backlog = m_host->GetPort()->GetBacklogBytes();
    return backlog == 0 || backlog + wireBytes <= limitBytes;
}

void
InaNicGate::Wait(InaTransportSender* sender, uint64_t drainToBytes)
{
    ++m_waits;
    m_waiting.push_back(sender);
    m_drainTo = m_waiting.size() == 1 ? drainToBytes : std::min(m_drainTo, drainToBytes);
    Schedule();
}

void
InaNicGate::Remove(InaTransportSender* sender)
{
    m_waiting.erase(std::remove(m_waiting.begin(), m_waiting.end(), sender), m_waiting.end());
}

void
InaNicGate::Schedule()
{
    if (m_pending || m_waiting.empty())
    {
        return;
    }
    InaPort* nic = m_host->GetPort();
    const uint64_t backlog = nic->GetBacklogBytes();
    const uint64_t excess = backlog > m_drainTo ? backlog - m_drainTo : 0;
    // The backlog shrinks at line rate (in packet steps, so this may be early; OnWake re-checks).
    const uint64_t rate = nic->GetRateBps();
    const int64_t delayPs = InaSerializationPs(excess, rate);
    m_pending = true;
    Simulator::Schedule(TimeStep(delayPs), m_event);
}

void
InaNicGate::OnWake()
{
    m_pending = true; // senders waiting again below must not schedule: this ends with Schedule()
    // One round over the waiters, in order. A sender the NIC refuses at once goes back to the
    // front: the NIC is full, and those behind it keep their turn for the next wake-up.
    for (std::size_t n = m_waiting.size(); n > 0 && !m_waiting.empty(); --n)
    {
        InaTransportSender* s = m_waiting.front();
        m_waiting.pop_front();
        if (!s->OnNicReady())
        {
            m_waiting.pop_back(); // it waited again, at the back
            m_waiting.push_front(s);
            break;
        }
    }
    m_drainTo = std::numeric_limits<uint64_t>::max();
    for (InaTransportSender* s : m_waiting)
    {
        m_drainTo = std::min(m_drainTo, s->GetNicDrainTo());
    }
    m_pending = false;
    Schedule();
}

uint64_t
InaNicGate::GetWaits() const
{
    return m_waits;
}

} // namespace ns3
