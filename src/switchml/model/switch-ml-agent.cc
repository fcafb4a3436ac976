/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-ml-agent.h"

#include "switch-ml-header.h"
#include "switch-ml-quantizer.h"

#include "ns3/ina-event.h"
#include "ns3/ina-host.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMlAgent");
NS_OBJECT_ENSURE_REGISTERED(SwitchMlAgent);

TypeId
SwitchMlAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SwitchMlAgent")
                            .SetParent<AggregationAgent>()
                            .SetGroupName("InaAggregation")
                            .AddConstructor<SwitchMlAgent>();
    return tid;
}

SwitchMlAgent::SwitchMlAgent()
    : m_timer(new InaEvent<SwitchMlAgent, &SwitchMlAgent::OnTimer>(this), false)
{
}

SwitchMlAgent::~SwitchMlAgent()
{
    m_timer->Cancel();
}

void
SwitchMlAgent::DoDispose()
{
    m_timer->Cancel();
    m_host = nullptr;
    m_protocol = nullptr;
    m_tensors.clear();
    AggregationAgent::DoDispose();
}

void
SwitchMlAgent::SetProtocol(Ptr<SwitchMlProtocol> protocol)
{
    m_protocol = protocol;
}

const SwitchMlAgent::Counters&
SwitchMlAgent::GetCounters() const
{
    return m_counters;
}

uint32_t
SwitchMlAgent::GetWindow() const
{
    return m_window;
}

uint32_t
SwitchMlAgent::GetPendingTensors() const
{
    return m_pending;
}

void
SwitchMlAgent::DoSetup()
{
    NS_ABORT_MSG_UNLESS(m_protocol, "SwitchMlAgent: created without SwitchMlProtocol");
    const JobContext& ctx = GetContext();
    m_host = GetHost();
    m_pool = &m_host->GetPool();
    m_self = m_host->GetAddress();
    const SwitchMlProtocol::WorkerRoute& route = m_protocol->GetWorkerRoute(GetRank());
    m_aggregator = route.aggregator;
    m_wid = route.wid;
    m_endpoint = m_protocol->GetEndpoint();
    m_flowId = ctx.flowIdBase + GetRank();
    m_jobId = ctx.jobId;
    m_workers = ctx.workerHosts.size();
    m_elements = m_protocol->GetElementsPerPacket();
    m_block = m_protocol->GetQuantizer() == SwitchMlProtocol::BLOCK_EXPONENT;
    m_factor = m_protocol->GetScalingFactor();
    m_half = m_protocol->GetWireFormat() == SwitchMlProtocol::FLOAT16;
    m_rtoPs = m_protocol->GetRto().GetTimeStep();
    m_wireData = m_protocol->GetWireBytes(true);
    m_wireBoot = m_protocol->GetWireBytes(false);
    BindEndpoint(m_endpoint, this);
}

void
SwitchMlAgent::Configure()
{
    m_window = m_protocol->FixWindow();
    m_slots.assign(m_window, Slot{});
    for (uint32_t s = 0; s < m_window; ++s)
    {
        m_slots[s].chunk = s;
    }
    m_idle = m_window;
    m_head = m_tail = m_window;
}

void
SwitchMlAgent::FinishEmptyTensor(uint64_t tensorId)
{
    --m_pending;
    NotifyDone(tensorId);
}

void
SwitchMlAgent::DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values)
{
    if (m_window == 0)
    {
        Configure();
    }
    uint64_t elements = (bytes + 3) / 4;
    if (values != nullptr)
    {
        elements = std::max<uint64_t>(elements, values->size());
    }
    const uint64_t chunks = (elements + m_elements - 1) / m_elements;
    ++m_pending;
    if (chunks == 0)
    {
        Simulator::ScheduleNow(&SwitchMlAgent::FinishEmptyTensor, this, tensorId);
        return;
    }
    m_tensors.push_back(
        Tensor{tensorId, m_endChunk, chunks, values != nullptr ? values->size() : 0, values, 0});
    m_endChunk += chunks;
    if (m_idle == 0)
    {
        return;
    }
    for (uint32_t s = 0; s < m_window; ++s)
    {
        if (!m_slots[s].busy && m_slots[s].chunk < m_endChunk)
        {
            StartSlot(s);
        }
    }
}

SwitchMlAgent::Tensor&
SwitchMlAgent::TensorOf(uint64_t chunk, uint64_t& seq)
{
    seq = std::max(seq, m_frontSeq);
    for (;;)
    {
        Tensor& t = m_tensors[seq - m_frontSeq];
        if (chunk < t.firstChunk + t.chunks)
        {
            return t;
        }
        ++seq;
    }
}

void
SwitchMlAgent::StartSlot(uint32_t s)
{
    Slot& st = m_slots[s];
    const Tensor& t = TensorOf(st.chunk, st.tensorSeq);
    st.busy = true;
    --m_idle;
    // Block mode: the slot's first chunk of a tensor needs its exponent agreed first.
    st.boot = m_block && st.chunk < t.firstChunk + m_window;
    SendPhase(s, false);
}

void
SwitchMlAgent::SendPhase(uint32_t s, bool retransmission)
{
    Slot& st = m_slots[s];
    const Tensor& t = m_tensors[st.tensorSeq - m_frontSeq];
    const bool data = !st.boot;
    InaPacket* p = m_pool->Alloc();
    p->dst = m_aggregator;
    p->flowId = m_flowId;
    p->jobId = m_jobId;
    p->srcPort = m_endpoint;
    p->dstPort = m_endpoint;
    p->protocol = SWITCHML_PROTOCOL;
    p->wireBytes = data ? m_wireData : m_wireBoot;
    p->seq = st.chunk;
    const int64_t now = NowPs();
    p->sentPs = now;
    SwitchMlHeader* h = p->Header<SwitchMlHeader>();
    h->type = SwitchMlHeader::UPDATE;
    h->ver = st.ver;
    h->flags =
        (data ? SwitchMlHeader::FLAG_DATA : 0) | (retransmission ? SwitchMlHeader::FLAG_RETX : 0);
    h->wid = m_wid;
    h->idx = static_cast<uint16_t>(s);
    h->off = static_cast<uint32_t>(st.chunk);
    h->origin = m_self;
    h->exponent = SwitchMlHeader::EXP_NONE;
    if (t.values != nullptr)
    {
        const float* v = t.values->data();
        const uint64_t block = st.chunk - t.firstChunk;
        auto count = [&](uint64_t b) {
            const uint64_t begin = b * m_elements;
            return begin < t.elements
                       ? static_cast<uint32_t>(std::min<uint64_t>(m_elements, t.elements - begin))
                       : 0u;
        };
        if (m_block)
        {
            // Announce this chunk's exponent (first phase) or that of the slot's next chunk.
            const uint64_t announced = st.boot ? block : block + m_window;
            if (announced < t.chunks)
            {
                h->exponent =
                    SwitchMlQuantizer::BlockExponent(v + announced * m_elements, count(announced));
            }
        }
        if (data)
        {
            p->values = m_pool->AllocValues(m_elements);
            const double factor =
                m_block ? SwitchMlQuantizer::BlockFactor(m_workers, st.emax) : m_factor;
            const float* in = v + block * m_elements;
            const uint32_t n = count(block);
            if (m_half)
            {
                // What travels is the half float; the switch's table turns it into round(f h),
                // the same integer the worker computes here from it.
                m_halfScratch.resize(n);
                for (uint32_t i = 0; i < n; ++i)
                {
                    m_halfScratch[i] = SwitchMlQuantizer::ToHalf(in[i]);
                }
                in = m_halfScratch.data();
            }
            m_counters.quantizationOverflows +=
                SwitchMlQuantizer::Quantize(in, n, factor, p->values->AsInt32());
        }
    }
    ++m_stats.packetsSent;
    m_stats.wireBytesSent += p->wireBytes;
    if (retransmission)
    {
        ++m_stats.retransmissions;
    }
    m_host->Send(p);
    Arm(s, now);
}

void
SwitchMlAgent::Receive(InaPacket* p, uint32_t port)
{
    const SwitchMlHeader* h = p->Header<SwitchMlHeader>();
    if (!IsAwaitedResult(p, h))
    {
        ++m_counters.staleResults;
        m_pool->Free(p);
        return;
    }
    const uint32_t s = h->idx;
    Slot& st = m_slots[s];
    Unlink(s);
    NoteReceived();
    ++m_counters.phases;
    st.ver ^= 1;
    if (st.boot)
    {
        ++m_counters.exponentPhases;
        st.boot = false;
        st.emax = h->exponent;
        m_pool->Free(p);
        SendPhase(s, false);
        return;
    }

    Tensor& t = m_tensors[st.tensorSeq - m_frontSeq];
    // A chunk's elements (the last of a tensor is padded; the job's progress allows for that).
    NoteResultBytes(4ULL * m_elements);
    TakeValues(p, st, t);
    // The result also carries the agreed exponent of the slot's next chunk in this tensor.
    st.emax = h->exponent;
    m_pool->Free(p);
    FinishChunk(s, t);
}

bool
SwitchMlAgent::IsAwaitedResult(const InaPacket* p, const SwitchMlHeader* h) const
{
    if (p->protocol != SWITCHML_PROTOCOL || h->type != SwitchMlHeader::RESULT ||
        p->jobId != m_jobId || h->idx >= m_window)
    {
        return false;
    }
    const Slot& st = m_slots[h->idx];
    const bool data = (h->flags & SwitchMlHeader::FLAG_DATA) != 0;
    return st.busy && h->ver == st.ver && h->off == static_cast<uint32_t>(st.chunk) &&
           data != st.boot;
}

void
SwitchMlAgent::TakeValues(const InaPacket* p, const Slot& st, const Tensor& t) const
{
    if (t.values == nullptr || p->values == nullptr)
    {
        return;
    }
    const uint64_t begin = (st.chunk - t.firstChunk) * m_elements;
    if (begin >= t.elements)
    {
        return;
    }
    const double factor = m_block ? SwitchMlQuantizer::BlockFactor(m_workers, st.emax) : m_factor;
    const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(m_elements, t.elements - begin));
    float* out = t.values->data() + begin;
    SwitchMlQuantizer::Dequantize(p->values->AsInt32(), n, factor, out);
    if (m_half)
    {
        // The switch returns the aggregate as a half float (its int32 -> float16 table).
        for (uint32_t i = 0; i < n; ++i)
        {
            out[i] = SwitchMlQuantizer::ToHalf(out[i]);
        }
    }
}

void
SwitchMlAgent::FinishChunk(uint32_t s, Tensor& t)
{
    Slot& st = m_slots[s];
    const bool tensorDone = ++t.done == t.chunks;
    const uint64_t doneId = t.id;
    if (tensorDone)
    {
        --m_pending;
        while (!m_tensors.empty() && m_tensors.front().done == m_tensors.front().chunks)
        {
            m_tensors.pop_front();
            ++m_frontSeq;
        }
    }
    st.chunk += m_window;
    st.busy = false;
    ++m_idle;
    if (st.chunk < m_endChunk)
    {
        StartSlot(s);
    }
    if (tensorDone)
    {
        // Last: the worker may hand the next tensor from inside the callback.
        NotifyDone(doneId);
    }
}

void
SwitchMlAgent::Unlink(uint32_t s)
{
    Slot& st = m_slots[s];
    if (!st.inList)
    {
        return;
    }
    if (st.prev == m_window)
    {
        m_head = st.next;
    }
    else
    {
        m_slots[st.prev].next = st.next;
    }
    if (st.next == m_window)
    {
        m_tail = st.prev;
    }
    else
    {
        m_slots[st.next].prev = st.prev;
    }
    st.inList = false;
}

void
SwitchMlAgent::Arm(uint32_t s, int64_t nowPs)
{
    Unlink(s);
    Slot& st = m_slots[s];
    st.deadlinePs = nowPs + m_rtoPs;
    st.prev = m_tail;
    st.next = m_window;
    if (m_tail == m_window)
    {
        m_head = s;
    }
    else
    {
        m_slots[m_tail].next = s;
    }
    m_tail = s;
    st.inList = true;
    if (!m_timerPending)
    {
        ScheduleTimer(st.deadlinePs, nowPs);
    }
}

void
SwitchMlAgent::ScheduleTimer(int64_t atPs, int64_t nowPs)
{
    m_timerPending = true;
    Simulator::Schedule(TimeStep(atPs - nowPs), m_timer);
}

void
SwitchMlAgent::OnTimer()
{
    // Still "pending" while re-sending, so Arm does not schedule for the tail: the event is
    // re-armed once, below, for whatever is then the earliest deadline.
    m_timerPending = true;
    const int64_t now = NowPs();
    // At most one timeout per RTO counts towards MaxTimeouts, however many slots expire in it.
    if (m_head != m_window && m_slots[m_head].deadlinePs <= now)
    {
        if (NoteTimeoutAtMostEvery(m_rtoPs))
        {
            m_timerPending = false;
            return; // given up: the timer stays off
        }
    }
    // Deadlines are send time + RTO, so the list is in deadline order: expired slots lead it,
    // and re-sending one moves it to the tail with a later deadline.
    while (m_head != m_window && m_slots[m_head].deadlinePs <= now)
    {
        ++m_counters.timeouts;
        SendPhase(m_head, true);
    }
    m_timerPending = false;
    if (m_head != m_window)
    {
        ScheduleTimer(m_slots[m_head].deadlinePs, now);
    }
}

} // namespace ns3
