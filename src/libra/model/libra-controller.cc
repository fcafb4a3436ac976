/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-controller.h"

#include "libra-header.h"

#include "ns3/ina-host.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LibraController");
NS_OBJECT_ENSURE_REGISTERED(LibraController);

TypeId
LibraController::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LibraController")
            .SetParent<Object>()
            .SetGroupName("Libra")
            .AddConstructor<LibraController>()
            .AddAttribute("HeartbeatPeriod",
                          "time between two heartbeats to the aggregating switch (the paper gives "
                          "none; BFD's 3.3 ms, RFC 7419 Sec. 3)",
                          TimeValue(MicroSeconds(3300)),
                          MakeTimeAccessor(&LibraController::m_period),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("HeartbeatTimeout",
                          "the switch is taken for failed when no heartbeat sent this long ago or "
                          "later has been answered (the paper gives none; BFD's 3 x 3.3 ms, RFC "
                          "5880 Sec. 6.8.4)",
                          TimeValue(MicroSeconds(9900)),
                          MakeTimeAccessor(&LibraController::m_timeout),
                          MakeTimeChecker(PicoSeconds(1)));
    return tid;
}

LibraController::LibraController()
    : m_period(MicroSeconds(3300))
    , m_timeout(MicroSeconds(9900))
    , m_detectedAt(-1)
    , m_failedAnsweredAt(-1)
{
}

LibraController::~LibraController() = default;

void
LibraController::DoDispose()
{
    Simulator::Cancel(m_tick);
    if (m_host && m_endpoint != 0)
    {
        m_host->Unbind(m_endpoint);
    }
    m_host = nullptr;
    m_busy = MakeNullCallback<bool>();
    m_onFailure = MakeNullCallback<void>();
    Object::DoDispose();
}

void
LibraController::Setup(Ptr<InaHost> host,
                       InaAddress target,
                       uint32_t jobId,
                       uint32_t flowId,
                       Callback<bool> busy,
                       Callback<void> onFailure)
{
    if (m_timeout < m_period)
    {
        throw std::invalid_argument(
            "HeartbeatTimeout " + std::to_string(m_timeout.GetMicroSeconds()) +
            " us is shorter than HeartbeatPeriod " + std::to_string(m_period.GetMicroSeconds()) +
            " us: every switch would be taken for failed between two "
            "heartbeats");
    }
    m_host = host;
    m_target = target;
    m_jobId = jobId;
    m_flowId = flowId;
    m_busy = busy;
    m_onFailure = onFailure;
    m_endpoint = m_host->AllocateEndpoint();
    m_host->Bind(m_endpoint, this);
}

void
LibraController::Wake()
{
    if (m_running)
    {
        return;
    }
    m_running = true;
    m_answeredSentAt = Simulator::Now();
    Tick();
}

void
LibraController::Watch(InaAddress target)
{
    m_target = target;
    m_answeredSentAt = Simulator::Now();
}

void
LibraController::Tick()
{
    if (!m_busy())
    {
        m_running = false;
        return;
    }
    const Time now = Simulator::Now();
    if (!m_failed && now - m_answeredSentAt >= m_timeout)
    {
        m_failed = true;
        m_detectedAt = now;
        m_failedAnsweredAt = m_answeredSentAt;
        NS_LOG_INFO("switch " << m_target << " answered no heartbeat since "
                              << m_answeredSentAt.As(Time::US) << ": failed");
        m_onFailure();
    }
    InaPacket* p = m_host->GetPool().Alloc();
    p->dst = m_target;
    p->flowId = m_flowId;
    p->jobId = m_jobId;
    p->srcPort = m_endpoint;
    p->dstPort = m_endpoint;
    p->protocol = LIBRA_PROTOCOL;
    p->wireBytes = LibraHeader::MIN_FRAME_BYTES;
    p->sentPs = now.GetTimeStep();
    LibraHeader* h = p->Header<LibraHeader>();
    std::memset(h, 0, sizeof(LibraHeader));
    h->type = LibraHeader::HEARTBEAT;
    h->seq = m_nextSeq++;
    ++m_sent;
    m_host->Send(p);
    m_tick = Simulator::Schedule(m_period, &LibraController::Tick, this);
}

void
LibraController::Receive(InaPacket* p, uint32_t /* port */)
{
    const LibraHeader* h = p->Header<LibraHeader>();
    if (p->protocol == LIBRA_PROTOCOL && h->type == LibraHeader::HEARTBEAT_ACK &&
        p->jobId == m_jobId && p->sentPs >= m_answeredSentAt.GetTimeStep())
    {
        ++m_answered;
        m_answeredSentAt = TimeStep(p->sentPs);
    }
    m_host->GetPool().Free(p);
}

} // namespace ns3
