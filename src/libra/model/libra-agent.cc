/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-agent.h"

#include "libra-cold-server.h"
#include "libra-header.h"
#include "libra-protocol.h"

#include "ns3/abort.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-host.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LibraAgent");
NS_OBJECT_ENSURE_REGISTERED(LibraAgent);

TypeId
LibraAgent::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LibraAgent")
                            .SetParent<AggregationAgent>()
                            .SetGroupName("Libra")
                            .AddConstructor<LibraAgent>();
    return tid;
}

LibraAgent::LibraAgent()
    : m_timer(new InaEvent<LibraAgent, &LibraAgent::OnTimer>(this), false)
{
}

LibraAgent::~LibraAgent()
{
    m_timer->Cancel();
}

void
LibraAgent::DoDispose()
{
    m_timer->Cancel();
    m_host = nullptr;
    m_protocol = nullptr;
    m_coldPush.clear();
    m_coldPull.clear();
    m_dense = nullptr;
    AggregationAgent::DoDispose();
}

void
LibraAgent::SetProtocol(Ptr<LibraProtocol> protocol)
{
    m_protocol = protocol;
}

void
LibraAgent::SetPsFlows(std::vector<Ptr<InaTransportSender>> push,
                       std::vector<Ptr<InaTransportReceiver>> pull,
                       Ptr<AggregationAgent> dense)
{
    m_coldPush = std::move(push);
    m_coldPull = std::move(pull);
    m_dense = dense;
}

void
LibraAgent::DoSetup()
{
    NS_ABORT_MSG_UNLESS(m_protocol, "LibraAgent: created without LibraProtocol");
    NS_ABORT_MSG_UNLESS(!m_coldPush.empty() && m_coldPush.size() == m_coldPull.size() && m_dense,
                        "LibraAgent: created without its PS flows");
    const JobContext& ctx = GetContext();
    m_host = GetHost();
    m_pool = &m_host->GetPool();
    m_workers = static_cast<uint32_t>(ctx.workerHosts.size());
    m_check = ctx.checkValues;
    m_hotEnabled = m_protocol->GetHotKeys() > 0;
    m_window = m_protocol->GetWindow();
    m_retx.SetTimeout(m_protocol->GetRto().GetTimeStep());
    // Hot packets of one worker keep one path (a fixed flow id), so they stay in order.
    m_flowId = ctx.flowIdBase + (JobContext::FLOW_IDS_PER_JOB / 4) * 3 + GetRank();
    if (m_hotEnabled)
    {
        m_switch = m_protocol->GetSwitchAddress();
        m_endpoint = m_protocol->GetEndpoint();
        m_registers = m_protocol->GetLayout().GetRegisters();
        BindEndpoint(m_endpoint, this);
    }
    for (uint32_t s = 0; s < m_coldPull.size(); ++s)
    {
        m_coldPull[s]->SetMessageReceivedCallback(
            MakeBoundCallback(&LibraAgent::ColdThunk, this, s));
        m_coldPush[s]->SetMessageAckedCallback(MakeNullCallback<void, uint32_t>());
    }
    m_dense->SetDoneCallback(MakeBoundCallback(&LibraAgent::DenseThunk, this));
}

void
LibraAgent::DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values)
{
    const uint32_t iteration = static_cast<uint32_t>(tensorId >> 32);
    const uint32_t piece = static_cast<uint32_t>(tensorId);
    if (piece == 0)
    {
        NS_ABORT_MSG_IF(m_active,
                        "LibraAgent (job " << GetContext().name << ", rank " << GetRank()
                                           << "): iteration " << iteration
                                           << " started before the sparse round of iteration "
                                           << m_round << " came back");
        m_roundTensor = tensorId;
        m_roundTensorDense = false;
        StartRound(iteration);
    }
    m_dense->AllReduce(tensorId, bytes, values);
}

void
LibraAgent::StartRound(uint32_t iteration)
{
    m_active = true;
    m_round = iteration;
    m_roundStartPs = NowPs();
    RoundPairs pairs = DrawPairs(iteration);
    // Hot pairs: Algorithm 1, then the recirculation cap (pairs beyond it go to the PS).
    PackHotPairs(pairs, iteration);

    // Cold pairs: one push per shard, empty or not (the shard counts every worker's push).
    m_coldReplies = 0;
    m_coldBack = false;
    m_coldPairsThisRound = 0;
    for (uint32_t s = 0; s < m_coldPush.size(); ++s)
    {
        m_coldPairsThisRound += pairs.coldPairs[s];
        m_coldPush[s]->SendMessage(pairs.coldPairs[s] * LibraColdServer::PAIR_BYTES,
                                   std::move(pairs.coldWords[s]));
    }
    m_counters.coldPairs += m_coldPairsThisRound;

    ResetHotHalf();
    if (m_hotEnabled)
    {
        m_protocol->NoteRoundStarted();
        BeginPushes();
    }
    RefreshStats();
}

LibraAgent::RoundPairs
LibraAgent::DrawPairs(uint32_t iteration)
{
    const JobContext& ctx = GetContext();
    const LibraRankTable& ranks = m_protocol->GetRankTable();
    const uint32_t dim = m_protocol->GetDim();
    const uint64_t tid = LibraProtocol::SparseTensorId(iteration);
    RoundPairs pairs;
    pairs.coldWords.resize(m_coldPush.size());
    pairs.coldPairs.assign(m_coldPush.size(), 0);
    for (uint32_t row : m_protocol->GetWorkload().RowsForIteration(GetRank(), iteration))
    {
        for (uint32_t j = 0; j < dim; ++j)
        {
            const uint32_t key = row * dim + j;
            const float v = m_check ? GradientValues::Value(ctx.seed, tid, GetRank(), key) : 0.0f;
            const uint32_t rank = m_hotEnabled ? ranks.RankOf(key) : LibraRankTable::NO_RANK;
            if (rank == LibraRankTable::NO_RANK)
            {
                AddCold(pairs, iteration, key, v);
            }
            else
            {
                pairs.hotRanks.push_back(rank);
                pairs.hotBits.push_back(LibraFloatBits(v));
                pairs.hotKeys.push_back(key);
            }
        }
    }
    return pairs;
}

void
LibraAgent::AddCold(RoundPairs& pairs, uint32_t iteration, uint32_t key, float v)
{
    const uint32_t s = m_protocol->ShardOf(key);
    ++pairs.coldPairs[s];
    if (m_check)
    {
        pairs.coldWords[s].push_back(key);
        pairs.coldWords[s].push_back(LibraFloatBits(v));
        pairs.coldWords[s].push_back(0);
        m_protocol->GetBook().Add(iteration, key, v, false);
    }
}

void
LibraAgent::PackHotPairs(RoundPairs& pairs, uint32_t iteration)
{
    m_pushWords.clear();
    m_pushKeys.clear();
    m_pushBegin.assign(1, 0);
    if (pairs.hotRanks.empty())
    {
        return;
    }
    const LibraLayout& layout = m_protocol->GetLayout();
    const uint32_t maxPasses = m_protocol->GetMaxRecirculations();
    layout.Pack(pairs.hotRanks, m_packing);
    std::vector<uint32_t> pktRanks;
    for (uint32_t p = 0; p < m_packing.GetNPackets(); ++p)
    {
        const uint32_t n = m_packing.GetPacketPairs(p);
        pktRanks.resize(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            pktRanks[i] = pairs.hotRanks[m_packing.items[m_packing.begin[p] + i]];
        }
        m_passOf.resize(n);
        const LibraPacketPasses cost =
            layout.Analyse(pktRanks.data(), n, maxPasses, m_passOf.data());
        m_counters.collisions += cost.collisions;
        m_counters.recirculations += cost.GetRecirculationsTaken();
        uint32_t kept = 0;
        for (uint32_t i = 0; i < n; ++i)
        {
            const uint32_t item = m_packing.items[m_packing.begin[p] + i];
            const float v = LibraBitsFloat(pairs.hotBits[item]);
            if (m_passOf[i] > maxPasses)
            {
                ++m_counters.fallbackPairs;
                AddCold(pairs, iteration, pairs.hotKeys[item], v);
                continue;
            }
            m_pushWords.push_back(pairs.hotRanks[item]);
            m_pushWords.push_back(pairs.hotBits[item]);
            ++kept;
            if (m_check)
            {
                m_pushKeys.push_back(pairs.hotKeys[item]);
                m_protocol->GetBook().Add(iteration, pairs.hotKeys[item], v, true);
            }
        }
        m_counters.hotPairs += kept;
        m_pushBegin.push_back(m_pushBegin.back() + kept);
    }
}

void
LibraAgent::ResetHotHalf()
{
    m_nextPush = 0;
    m_pushAcked = 0;
    m_pushDone.assign(m_pushBegin.size() - 1, false);
    m_doneSent = false;
    m_doneAcked = false;
    m_ready = false;
    m_nextPull = 0;
    m_havePull.assign(m_pushDone.size(), false);
    m_resultWords.assign(m_pushWords.size() / 2, 0);
    m_pullsHave = 0;
    m_resultsIn = false;
    m_hotBack = !m_hotEnabled;
}

void
LibraAgent::BeginPushes()
{
    if (m_pushDone.empty())
    {
        SendDone(0, false);
    }
    else
    {
        SendPushes();
    }
}

InaPacket*
LibraAgent::NewPacket(uint8_t type, uint32_t round, uint32_t seq, bool retx)
{
    InaPacket* p = m_pool->Alloc();
    p->dst = m_switch;
    p->flowId = m_flowId;
    p->jobId = GetContext().jobId;
    p->srcPort = m_endpoint;
    p->dstPort = m_endpoint;
    p->protocol = LIBRA_PROTOCOL;
    p->wireBytes = LibraHeader::MIN_FRAME_BYTES;
    p->seq = seq;
    p->sentPs = NowPs();
    LibraHeader* h = p->Header<LibraHeader>();
    std::memset(h, 0, sizeof(LibraHeader));
    h->type = type;
    h->flags = retx ? LibraHeader::FLAG_RETX : 0;
    h->worker = static_cast<uint16_t>(GetRank());
    h->round = round;
    h->seq = seq;
    return p;
}

void
LibraAgent::SendPushes()
{
    const uint32_t packets = static_cast<uint32_t>(m_pushDone.size());
    while (m_nextPush < packets && m_nextPush - m_pushAcked < m_window)
    {
        SendPush(m_nextPush++, false);
    }
}

InaPacket*
LibraAgent::NewPairsPacket(uint8_t type, uint32_t seq, bool retx)
{
    const uint32_t first = m_pushBegin[seq];
    const uint32_t n = m_pushBegin[seq + 1] - first;
    InaPacket* p = NewPacket(type, m_round, seq, retx);
    p->Header<LibraHeader>()->pairs = static_cast<uint16_t>(n);
    p->values = m_pool->AllocValues(2 * n);
    p->values->words.assign(m_pushWords.begin() + 2 * first, m_pushWords.begin() + 2 * (first + n));
    return p;
}

void
LibraAgent::SendPush(uint32_t seq, bool retx)
{
    InaPacket* p = NewPairsPacket(LibraHeader::PUSH, seq, retx);
    p->wireBytes = m_protocol->GetLayout().GetPacketBytes(p->Header<LibraHeader>()->pairs);
    if (!retx)
    {
        ++m_counters.hotPackets;
    }
    SendTracked(p, ITEM_PUSH, seq, retx);
}

void
LibraAgent::SendTracked(InaPacket* p, Item kind, uint32_t seq, bool retx)
{
    m_ownStats.packetsSent++;
    m_ownStats.wireBytesSent += p->wireBytes;
    if (retx)
    {
        ++m_ownStats.retransmissions;
        ++m_counters.resends;
    }
    else
    {
        m_retx.Sent(ItemId(kind, m_round, seq), NowPs());
    }
    m_host->Send(p);
    ArmTimer();
}

void
LibraAgent::SendDone(uint32_t phase, bool retx)
{
    InaPacket* p = NewPacket(LibraHeader::DONE, m_round, phase, retx);
    if (!retx)
    {
        m_doneSent = m_doneSent || phase == 0;
    }
    SendTracked(p, ITEM_DONE, phase, retx);
}

void
LibraAgent::StartPulls()
{
    m_nextPull = 0;
    if (m_havePull.empty())
    {
        ResultsIn(); // nothing pushed, nothing to pull
        return;
    }
    SendPulls();
}

void
LibraAgent::SendPulls()
{
    const uint32_t inFlight = m_nextPull - m_pullsHave;
    const uint32_t packets = static_cast<uint32_t>(m_havePull.size());
    for (uint32_t sent = inFlight; m_nextPull < packets && sent < m_window; ++sent)
    {
        SendPull(m_nextPull++, false);
    }
}

void
LibraAgent::SendPull(uint32_t seq, bool retx)
{
    // The ranks of push packet `seq`; their value words are cleared, so that what comes back
    // is what the switch wrote. A pull request's wire size counts the ranks only (4 B each),
    // the result adds the values.
    InaPacket* p = NewPairsPacket(LibraHeader::PULL, seq, retx);
    const uint32_t n = p->Header<LibraHeader>()->pairs;
    for (uint32_t i = 0; i < n; ++i)
    {
        p->values->words[2 * i + 1] = 0;
    }
    p->wireBytes = std::max(LibraHeader::MIN_FRAME_BYTES, LibraLayout::HEADER_BYTES + 4 * n);
    if (!retx)
    {
        ++m_counters.pulls;
    }
    SendTracked(p, ITEM_PULL, seq, retx);
}

void
LibraAgent::SendAck(uint8_t type, uint32_t round, uint32_t seq)
{
    InaPacket* p = NewPacket(type, round, seq, false);
    m_ownStats.packetsSent++;
    m_ownStats.wireBytesSent += p->wireBytes;
    m_host->Send(p);
}

void
LibraAgent::Receive(InaPacket* p, uint32_t /* port */)
{
    if (p->protocol != LIBRA_PROTOCOL || p->jobId != GetContext().jobId)
    {
        m_pool->Free(p);
        return;
    }
    if (HasGivenUp())
    {
        m_pool->Free(p);
        return;
    }
    const LibraHeader* h = p->Header<LibraHeader>();
    const bool current = m_active && h->round == m_round;
    if (current)
    {
        NoteReceived();
    }
    switch (h->type)
    {
    case LibraHeader::PUSH_ACK:
        if (current && h->seq < m_pushDone.size() &&
            m_retx.Acked(ItemId(ITEM_PUSH, m_round, h->seq)))
        {
            m_pushDone[h->seq] = true;
            ++m_pushAcked;
            SendPushes();
            if (m_pushAcked == m_pushDone.size() && !m_doneSent)
            {
                SendDone(0, false);
            }
        }
        break;
    case LibraHeader::DONE_ACK:
        if (current && h->seq == 0)
        {
            m_doneAcked = m_retx.Acked(ItemId(ITEM_DONE, m_round, 0)) || m_doneAcked;
        }
        else if (current)
        {
            m_retx.Acked(ItemId(ITEM_DONE, m_round, h->seq));
        }
        break;
    case LibraHeader::READY:
        SendAck(LibraHeader::READY_ACK, h->round, h->seq);
        if (h->seq == 1)
        {
            if (current && m_resultsIn && !m_hotBack)
            {
                // Every worker's pulls of the round are answered: its cells are clean, and the
                // next round may push.
                m_retx.Acked(ItemId(ITEM_DONE, m_round, 1));
                m_hotBack = true;
                MaybeFinish();
            }
        }
        else if (current && !m_ready && m_doneSent)
        {
            // READY means the switch counted every worker's DONE, this one's included.
            m_retx.Acked(ItemId(ITEM_DONE, m_round, 0));
            m_doneAcked = true;
            m_ready = true;
            StartPulls();
        }
        break;
    case LibraHeader::RESULT:
        ++m_counters.resultsReceived;
        SendAck(LibraHeader::RESULT_ACK, h->round, h->seq);
        if (current && !m_hotBack && h->seq < m_havePull.size())
        {
            OnResult(p);
        }
        break;
    default:
        break;
    }
    m_pool->Free(p);
}

void
LibraAgent::OnResult(InaPacket* p)
{
    const LibraHeader* h = p->Header<LibraHeader>();
    const uint32_t seq = h->seq;
    if (m_havePull[seq])
    {
        return;
    }
    const uint32_t first = m_pushBegin[seq];
    const uint32_t n = m_pushBegin[seq + 1] - first;
    if (p->values == nullptr || h->pairs != n || p->values->words.size() < 2 * size_t{n})
    {
        return; // not the answer to this pull: it stays outstanding
    }
    m_havePull[seq] = true;
    ++m_pullsHave;
    for (uint32_t i = 0; i < n; ++i)
    {
        m_resultWords[first + i] = p->values->words[2 * i + 1];
    }
    if (m_retx.Acked(ItemId(ITEM_PULL, m_round, seq)) && m_ready)
    {
        SendPulls();
    }
    if (m_pullsHave == m_havePull.size())
    {
        ResultsIn();
    }
}

void
LibraAgent::ResultsIn()
{
    const bool checked = m_resultsIn; // a replayed round's results were checked the first time
    m_resultsIn = true;
    SendDone(1, false);
    if (m_check && !checked)
    {
        const LibraValueBook::Round& book = m_protocol->GetBook().Get(m_round);
        uint64_t errors = 0;
        double worst = 0;
        for (size_t i = 0; i < m_pushKeys.size(); ++i)
        {
            auto it = book.find(m_pushKeys[i]);
            const double got = LibraBitsFloat(m_resultWords[i]);
            if (it == book.end() || it->second.hotN == 0)
            {
                ++errors; // the book lost a pair this worker sent: cannot happen
                worst = std::numeric_limits<double>::infinity();
                continue;
            }
            const LibraValueBook::Entry& e = it->second;
            const double err = std::fabs(got - e.hotSum);
            const double rel = e.hotAbs > 0
                                   ? err / e.hotAbs
                                   : (err > 0 ? std::numeric_limits<double>::infinity() : 0);
            if (!(rel <= m_protocol->HotRelativeTolerance(e.hotN)))
            {
                ++errors;
            }
            worst =
                std::max(worst, std::isnan(rel) ? std::numeric_limits<double>::infinity() : rel);
        }
        m_protocol->NoteChecks(m_pushKeys.size(), errors, worst, 0, 0);
    }
}

LibraAgent::HotState
LibraAgent::GetHotState(uint32_t* round) const
{
    *round = m_round;
    if (!m_active || m_hotBack)
    {
        return HotState::IDLE;
    }
    return m_resultsIn ? HotState::RESULTS : HotState::PENDING;
}

void
LibraAgent::Failover(InaAddress standby, FailoverAction action)
{
    m_switch = standby;
    if (action == FailoverAction::READDRESS)
    {
        return;
    }
    m_retx.Clear();
    if (action == FailoverAction::RELEASE)
    {
        // Every worker has its results: the standby's registers are clean, as the READY of
        // phase 1 would have said.
        m_hotBack = true;
        MaybeFinish();
        return;
    }
    // The standby has none of this round: push it all again, then pull.
    m_nextPush = 0;
    m_pushAcked = 0;
    std::fill(m_pushDone.begin(), m_pushDone.end(), false);
    m_doneSent = false;
    m_doneAcked = false;
    m_ready = false;
    m_nextPull = 0;
    std::fill(m_havePull.begin(), m_havePull.end(), false);
    m_pullsHave = 0;
    m_counters.replayedPackets += m_pushDone.size();
    BeginPushes();
}

void
LibraAgent::Abandon(const std::string& why)
{
    m_retx.Clear();
    m_timer->Cancel();
    m_timerPending = false;
    m_hotBack = false;
    GiveUp(why);
}

void
LibraAgent::ColdThunk(LibraAgent* self,
                      uint32_t shard,
                      uint32_t /* msg */,
                      uint64_t bytes,
                      std::vector<uint32_t>& words)
{
    self->ColdReply(shard, bytes, words);
}

void
LibraAgent::ColdReply(uint32_t /* shard */, uint64_t bytes, std::vector<uint32_t>& words)
{
    if (m_check)
    {
        const LibraValueBook::Round& book = m_protocol->GetBook().Get(m_round);
        const uint64_t pairs = bytes / LibraColdServer::PAIR_BYTES;
        NS_ABORT_MSG_UNLESS(words.size() == pairs * LibraColdServer::PAIR_WORDS,
                            "LibraAgent: cold reply of " << pairs << " pairs with " << words.size()
                                                         << " words");
        uint64_t errors = 0;
        for (uint64_t i = 0; i < pairs; ++i)
        {
            const uint32_t key = words[LibraColdServer::PAIR_WORDS * i];
            const double got = LibraBitsFloat(words[LibraColdServer::PAIR_WORDS * i + 1]);
            auto it = book.find(key);
            // Grid values (GradientValues) sum exactly in float32 for fewer than 4096 workers,
            // so a cold value must equal the true sum.
            if (it == book.end() || it->second.coldN == 0 || got != it->second.coldSum)
            {
                ++errors;
            }
        }
        m_protocol->NoteChecks(0, 0, 0, pairs, errors);
    }
    if (++m_coldReplies == m_coldPull.size())
    {
        m_coldBack = true;
        MaybeFinish();
    }
}

void
LibraAgent::DenseThunk(LibraAgent* self, uint64_t tensorId)
{
    self->DenseDone(tensorId);
}

void
LibraAgent::DenseDone(uint64_t tensorId)
{
    if (m_active && tensorId == m_roundTensor)
    {
        m_roundTensorDense = true;
        MaybeFinish();
        return;
    }
    RefreshStats();
    NotifyDone(tensorId);
}

void
LibraAgent::MaybeFinish()
{
    if (!m_active || !m_hotBack || !m_coldBack || !m_roundTensorDense)
    {
        return;
    }
    if (m_check)
    {
        m_protocol->GetBook().Release(m_round);
    }
    m_active = false;
    ++m_counters.rounds;
    m_counters.sparseBusyPs += NowPs() - m_roundStartPs;
    RefreshStats();
    NotifyDone(m_roundTensor);
}

void
LibraAgent::ArmTimer()
{
    if (m_timerPending)
    {
        return;
    }
    const int64_t next = m_retx.GetNextDeadline();
    if (next < 0)
    {
        return;
    }
    m_timerPending = true;
    Simulator::Schedule(TimeStep(std::max<int64_t>(0, next - NowPs())), m_timer);
}

void
LibraAgent::OnTimer()
{
    m_timerPending = false;
    const int64_t now = NowPs();
    m_retx.Expired(now, m_expired);
    // One timeout per Rto counts towards MaxTimeouts, however many packets were out: a window
    // of packets sent one after another expires one after another, and counting each would give
    // up after MaxTimeouts / Window timeouts' worth of silence, not the MaxTimeouts x Rto the
    // failover's set-up check (LibraProtocol) relies on.
    if (m_active && !m_expired.empty())
    {
        if (NoteTimeoutAtMostEvery(m_retx.GetTimeout()))
        {
            return; // MaxTimeouts in a row: given up, the timer stays off
        }
    }
    for (uint64_t id : m_expired)
    {
        const auto kind = static_cast<Item>(id >> 60);
        const auto round = static_cast<uint32_t>((id >> 24) & 0xfffffffULL);
        const auto seq = static_cast<uint32_t>(id & 0xffffff);
        if (!m_active || round != m_round)
        {
            m_retx.Acked(id);
            continue;
        }
        switch (kind)
        {
        case ITEM_PUSH:
            SendPush(seq, true);
            break;
        case ITEM_DONE:
            SendDone(seq, true);
            break;
        case ITEM_PULL:
            SendPull(seq, true);
            break;
        }
    }
    ArmTimer();
}

bool
LibraAgent::FlowFailed() const
{
    // The cold part's flows and the dense part's agent give up on their own MaxTimeouts.
    for (const auto& tx : m_coldPush)
    {
        if (tx->IsFailed())
        {
            return true;
        }
    }
    return m_dense && m_dense->HasGivenUp();
}

void
LibraAgent::RefreshStats()
{
    Stats s = m_ownStats;
    for (const auto& tx : m_coldPush)
    {
        const InaTransportSender::Stats& t = tx->GetStats();
        s.packetsSent += t.dataPacketsSent;
        s.wireBytesSent += t.wireBytesSent;
        s.retransmissions += t.retransmissions;
    }
    const Stats& d = m_dense->GetStats();
    s.packetsSent += d.packetsSent;
    s.wireBytesSent += d.wireBytesSent;
    s.retransmissions += d.retransmissions;
    s.psFallbackPackets = d.psFallbackPackets;
    s.tensors = m_stats.tensors;
    s.payloadBytes = m_stats.payloadBytes;
    m_stats = s;
}

} // namespace ns3
