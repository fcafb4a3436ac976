/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-controller.h"

#include "libra-header.h"
#include "libra-layout.h"
#include "libra-program.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/ina-host.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
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
                          "5880 Sec. 6.8.4); likewise a side of a state transfer that answers "
                          "nothing this long",
                          TimeValue(MicroSeconds(9900)),
                          MakeTimeAccessor(&LibraController::m_timeout),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("LossThreshold",
                          "the switch is about to fail when more than this share of the packets "
                          "its ports sent since the last judged heartbeat answer was lost (ten "
                          "times the paper's data-centre loss bound of 1e-3, Sec. 3.6); 1: never",
                          DoubleValue(0.01),
                          MakeDoubleAccessor(&LibraController::m_lossThreshold),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("LossMinPackets",
                          "packets a loss share is judged over: answers are pooled until the "
                          "switch sent this many (at the threshold 1 %, 10 losses)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&LibraController::m_lossMinPackets),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ResponseDelayThreshold",
                          "the switch is about to fail when a heartbeat's answer takes longer "
                          "than this (the paper's response delay, no value given); 0: not judged",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&LibraController::m_delayThreshold),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("StateRto",
                          "a state chunk not answered this long is asked for (or sent) again",
                          TimeValue(MicroSeconds(200)),
                          MakeTimeAccessor(&LibraController::m_stateRto),
                          MakeTimeChecker(PicoSeconds(1)))
            .AddAttribute("Window",
                          "state chunks out at once",
                          UintegerValue(64),
                          MakeUintegerAccessor(&LibraController::m_window),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

void
LibraController::ForwardAttribute(TypeId tid,
                                  const std::string& name,
                                  Ptr<const AttributeAccessor> accessor)
{
    TypeId::AttributeInformation info;
    if (!GetTypeId().LookupAttributeByName(name, &info))
    {
        NS_FATAL_ERROR("LibraController has no Attribute " << name << " to forward");
    }
    tid.AddAttribute(name,
                     "the failover controller's (ns3::LibraController): " + info.help,
                     *info.initialValue,
                     accessor,
                     info.checker);
}

LibraController::LibraController()
    : m_period(MicroSeconds(3300))
    , m_timeout(MicroSeconds(9900))
    , m_lossThreshold(0.01)
    , m_lossMinPackets(1000)
    , m_delayThreshold(0)
    , m_stateRto(MicroSeconds(200))
    , m_window(64)
    , m_detectedAt(-1)
    , m_failedAnsweredAt(-1)
{
}

LibraController::~LibraController() = default;

void
LibraController::DoDispose()
{
    Simulator::Cancel(m_tick);
    Simulator::Cancel(m_stateTimer);
    DropState();
    if (m_host && m_endpoint != 0)
    {
        m_host->Unbind(m_endpoint);
    }
    m_host = nullptr;
    m_from = nullptr;
    m_to = nullptr;
    m_busy = MakeNullCallback<bool>();
    m_onFailure = MakeNullCallback<void>();
    m_onDegraded = MakeNullCallback<void>();
    m_done = MakeNullCallback<void, MigrationResult>();
    Object::DoDispose();
}

void
LibraController::Setup(Ptr<InaHost> host,
                       InaAddress target,
                       uint32_t jobId,
                       uint32_t flowId,
                       Callback<bool> busy,
                       Callback<void> onFailure,
                       Callback<void> onDegraded)
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
    m_onDegraded = onDegraded;
    m_endpoint = m_host->AllocateEndpoint();
    m_host->Bind(m_endpoint, this);
    m_retx.SetTimeout(m_stateRto.GetTimeStep());
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
    m_failed = false;
    m_degraded = false;
    m_haveBase = false;
}

InaPacket*
LibraController::NewPacket(InaAddress dst, uint8_t type, uint32_t seq)
{
    InaPacket* p = m_host->GetPool().Alloc();
    p->dst = dst;
    p->flowId = m_flowId;
    p->jobId = m_jobId;
    p->srcPort = m_endpoint;
    p->dstPort = m_endpoint;
    p->protocol = LIBRA_PROTOCOL;
    p->wireBytes = LibraHeader::MIN_FRAME_BYTES;
    p->sentPs = Simulator::Now().GetTimeStep();
    LibraHeader* h = p->Header<LibraHeader>();
    std::memset(h, 0, sizeof(LibraHeader));
    h->type = type;
    h->seq = seq;
    return p;
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
    ++m_sent;
    m_host->Send(NewPacket(m_target, LibraHeader::HEARTBEAT, m_nextSeq++));
    m_tick = Simulator::Schedule(m_period, &LibraController::Tick, this);
}

void
LibraController::Judge(const InaPacket* p)
{
    if (m_degraded || m_failed || p->values == nullptr || p->values->words.size() < 4)
    {
        return;
    }
    const auto& w = p->values->words;
    const uint64_t sent = uint64_t{w[0]} | uint64_t{w[1]} << 32;
    const uint64_t lost = uint64_t{w[2]} | uint64_t{w[3]} << 32;
    const Time delay = Simulator::Now() - TimeStep(p->sentPs);

    bool suspect = m_delayThreshold.IsStrictlyPositive() && delay > m_delayThreshold;
    if (!m_haveBase)
    {
        m_haveBase = true;
        m_baseSent = sent;
        m_baseLost = lost;
    }
    else if (sent - m_baseSent >= m_lossMinPackets)
    {
        const double rate =
            static_cast<double>(lost - m_baseLost) / static_cast<double>(sent - m_baseSent);
        if (rate > m_lossThreshold)
        {
            suspect = true;
            m_degradedLoss = rate;
        }
        m_baseSent = sent;
        m_baseLost = lost;
    }
    if (suspect)
    {
        m_degraded = true;
        NS_LOG_INFO("switch " << m_target << " about to fail: loss " << m_degradedLoss
                              << ", answer delay " << delay.As(Time::US));
        m_onDegraded();
    }
}

void
LibraController::Receive(InaPacket* p, uint32_t /* port */)
{
    const LibraHeader* h = p->Header<LibraHeader>();
    if (p->protocol != LIBRA_PROTOCOL || p->jobId != m_jobId)
    {
        m_host->GetPool().Free(p);
        return;
    }
    if (h->type == LibraHeader::HEARTBEAT_ACK && p->src == m_target &&
        p->sentPs >= m_answeredSentAt.GetTimeStep())
    {
        ++m_answered;
        m_answeredSentAt = TimeStep(p->sentPs);
        Judge(p);
    }
    else if (h->type == LibraHeader::STATE && m_phase == Phase::PULL && p->src == m_fromAddress)
    {
        if (m_chunks == 0 && h->round > 0)
        {
            m_chunks = h->round;
            m_have.assign(m_chunks, false);
        }
        if (h->seq < m_chunks && !m_have[h->seq])
        {
            m_have[h->seq] = true;
            ++m_haveCount;
            m_retx.Acked(h->seq);
            m_lastProgress = Simulator::Now();
            if (m_haveCount == m_chunks)
            {
                m_state = m_from->TakeFrozenState(m_jobId);
                NS_ABORT_MSG_UNLESS(m_state, "LibraController: the source gave no state");
                m_lastLiveCells = m_state->cellsWithReaders;
                StartInstall();
            }
            else
            {
                SendChunks();
            }
        }
    }
    else if (h->type == LibraHeader::STATE_INSTALL_ACK && m_phase == Phase::INSTALL &&
             p->src == m_toAddress && h->seq < m_chunks && !m_have[h->seq])
    {
        m_have[h->seq] = true;
        ++m_haveCount;
        m_retx.Acked(h->seq);
        m_lastProgress = Simulator::Now();
        if (m_haveCount == m_chunks)
        {
            m_stateBytes += m_state->GetBytes();
            m_to->ImportJobState(m_jobId, *m_state);
            m_state.reset();
            EndMigration(MigrationResult::INSTALLED);
        }
        else
        {
            SendChunks();
        }
    }
    m_host->GetPool().Free(p);
}

void
LibraController::Migrate(Ptr<LibraProgram> from,
                         InaAddress fromAddress,
                         Ptr<LibraProgram> to,
                         InaAddress toAddress,
                         Callback<void, MigrationResult> done)
{
    NS_ABORT_MSG_IF(m_phase != Phase::IDLE, "LibraController: a migration is under way");
    NS_ABORT_MSG_IF(!from && !m_state, "LibraController: no source and no state held");
    m_from = from;
    m_fromAddress = fromAddress;
    m_to = to;
    m_toAddress = toAddress;
    m_done = done;
    if (!from)
    {
        StartInstall();
        return;
    }
    DropState();
    m_phase = Phase::PULL;
    m_chunks = 0;
    m_have.clear();
    m_haveCount = 0;
    m_nextChunk = 0;
    m_retx.Clear();
    m_lastProgress = Simulator::Now();
    // The first request tells how many chunks there are; the rest follow its answer.
    SendChunk(m_nextChunk++, false);
    ArmStateTimer();
}

void
LibraController::StartInstall()
{
    m_phase = Phase::INSTALL;
    m_chunks = static_cast<uint32_t>(m_state->GetChunks());
    m_have.assign(m_chunks, false);
    m_haveCount = 0;
    m_nextChunk = 0;
    m_retx.Clear();
    m_lastProgress = Simulator::Now();
    SendChunks();
    ArmStateTimer();
}

void
LibraController::SendChunks()
{
    const uint32_t limit = m_chunks == 0 ? 1 : m_chunks;
    while (m_nextChunk < limit && m_retx.GetPending() < m_window)
    {
        SendChunk(m_nextChunk++, false);
    }
}

void
LibraController::SendChunk(uint32_t seq, bool again)
{
    const bool pull = m_phase == Phase::PULL;
    InaPacket* p = NewPacket(pull ? m_fromAddress : m_toAddress,
                             pull ? LibraHeader::STATE_PULL : LibraHeader::STATE_INSTALL,
                             seq);
    if (!pull)
    {
        p->wireBytes = LibraLayout::HEADER_BYTES + m_state->GetChunkBytes(seq);
        p->Header<LibraHeader>()->round = m_chunks;
    }
    if (again)
    {
        p->Header<LibraHeader>()->flags = LibraHeader::FLAG_RETX;
        ++m_stateResends;
    }
    else
    {
        m_retx.Sent(seq, Simulator::Now().GetTimeStep());
    }
    m_host->Send(p);
}

void
LibraController::ArmStateTimer()
{
    if (m_stateTimer.IsRunning() || m_phase == Phase::IDLE)
    {
        return;
    }
    const int64_t next = m_retx.GetNextDeadline();
    const int64_t now = Simulator::Now().GetTimeStep();
    const int64_t giveUp = (m_lastProgress + m_timeout).GetTimeStep();
    const int64_t at = next < 0 ? giveUp : std::min(next, giveUp);
    m_stateTimer = Simulator::Schedule(TimeStep(std::max<int64_t>(0, at - now)),
                                       &LibraController::OnStateTimer,
                                       this);
}

void
LibraController::OnStateTimer()
{
    const Time now = Simulator::Now();
    if (now - m_lastProgress >= m_timeout)
    {
        // The side being asked answered nothing for a heartbeat timeout: it has failed.
        const bool pull = m_phase == Phase::PULL;
        NS_LOG_INFO("state transfer: " << (pull ? "source" : "target") << " answers nothing");
        if (pull)
        {
            DropState();
        }
        EndMigration(pull ? MigrationResult::SOURCE_FAILED : MigrationResult::TARGET_FAILED);
        return;
    }
    m_retx.Expired(now.GetTimeStep(), m_expired);
    for (uint64_t seq : m_expired)
    {
        SendChunk(static_cast<uint32_t>(seq), true);
    }
    ArmStateTimer();
}

void
LibraController::EndMigration(MigrationResult r)
{
    Simulator::Cancel(m_stateTimer);
    m_phase = Phase::IDLE;
    m_retx.Clear();
    m_from = nullptr;
    m_to = nullptr;
    Callback<void, MigrationResult> done = m_done;
    m_done = MakeNullCallback<void, MigrationResult>();
    done(r);
}

void
LibraController::AbortMigration()
{
    Simulator::Cancel(m_stateTimer);
    m_phase = Phase::IDLE;
    m_retx.Clear();
    m_from = nullptr;
    m_to = nullptr;
    m_done = MakeNullCallback<void, MigrationResult>();
    DropState();
}

void
LibraController::DropState()
{
    if (!m_state)
    {
        return;
    }
    for (LibraJobState::HeldCopy& h : m_state->held)
    {
        if (h.copy != nullptr && m_host)
        {
            m_host->GetPool().Free(h.copy);
        }
        h.copy = nullptr;
    }
    m_state.reset();
}

} // namespace ns3
