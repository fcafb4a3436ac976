/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-protocol.h"

#include "aggregation-agent.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AggregationProtocol");
NS_OBJECT_ENSURE_REGISTERED(AggregationProtocol);

TypeId
AggregationProtocol::GetTypeId()
{
    // MaxTimeouts is here, not in each protocol, so that every protocol's agents give up alike
    // and a scenario sets it the same way for all (jobs.N.params.MaxTimeouts). 15 is the
    // transport's default too (after Linux's tcp_retries2): with nothing at all received for
    // 15 timeouts in a row, the path is not lossy but broken.
    static TypeId tid =
        TypeId("ns3::AggregationProtocol")
            .SetParent<Object>()
            .SetGroupName("InaTraining")
            .AddAttribute("MaxTimeouts",
                          "Retransmission timeouts in a row, with nothing received in between, "
                          "after which a worker's agent gives up and the job ends incomplete; "
                          "0 retries forever. Ring and PS, and Libra's cold and dense parts: "
                          "their transport flows' MaxTimeouts, unless their Transport profile has "
                          "its own (rdma: 7).",
                          UintegerValue(15),
                          MakeUintegerAccessor(&AggregationProtocol::m_maxTimeouts),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

AggregationProtocol::AggregationProtocol() = default;

uint32_t
AggregationProtocol::GetMaxTimeouts() const
{
    return m_maxTimeouts;
}

AggregationProtocol::~AggregationProtocol() = default;

void
AggregationProtocol::DoDispose()
{
    m_ctx.fabric = nullptr;
    Object::DoDispose();
}

void
AggregationProtocol::Install(const JobContext& ctx)
{
    NS_ABORT_MSG_IF(m_installed, "AggregationProtocol: Install called twice for job " << ctx.name);
    m_ctx = ctx;
    m_installed = true;
    DoInstall();
}

Ptr<AggregationAgent>
AggregationProtocol::CreateAgent(uint32_t rank)
{
    NS_ABORT_MSG_UNLESS(m_installed, "AggregationProtocol: CreateAgent before Install");
    NS_ABORT_MSG_IF(rank >= m_ctx.workerHosts.size(),
                    "AggregationProtocol: rank " << rank << " but job " << m_ctx.name << " has "
                                                 << m_ctx.workerHosts.size() << " workers");
    Ptr<AggregationAgent> agent = DoCreateAgent(rank);
    agent->Setup(m_ctx, rank, this);
    return agent;
}

double
AggregationProtocol::ValueTolerance(uint32_t contributions, double maxAbsValue) const
{
    // Summing n floats in any order: |error| <= (n - 1) * eps * sum|x_i| (Higham, ch. 4), with
    // sum|x_i| <= n * max|x|. Twice that, for the rounding of the true sum itself.
    double eps = std::numeric_limits<float>::epsilon();
    double n = contributions;
    return 2.0 * std::max(1.0, n - 1) * eps * n * maxAbsValue;
}

bool
AggregationProtocol::UsesParameterServers() const
{
    return false;
}

std::map<std::string, double>
AggregationProtocol::GetCounters() const
{
    return {};
}

uint64_t
AggregationProtocol::GetOwnValuesChecked() const
{
    return 0;
}

uint64_t
AggregationProtocol::GetOwnValueErrors() const
{
    return 0;
}

void
AggregationProtocol::NotifyJobEnded()
{
}

const JobContext&
AggregationProtocol::GetContext() const
{
    return m_ctx;
}

} // namespace ns3
