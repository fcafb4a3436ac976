/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-transport-profile.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

std::vector<std::string>
InaTransportProfile::Names()
{
    return {"ideal", "tcp", "dctcp", "rdma"};
}

Ptr<const AttributeChecker>
InaTransportProfile::MakeKindChecker()
{
    return MakeEnumChecker(IDEAL, "ideal", TCP, "tcp", DCTCP, "dctcp", RDMA, "rdma");
}

void
InaTransportProfile::Apply(Kind kind, ObjectFactory& sender, ObjectFactory& receiver)
{
    Apply(Names().at(kind), sender, receiver);
}

void
InaTransportProfile::Apply(const std::string& name, ObjectFactory& sender, ObjectFactory& receiver)
{
    if (name == "ideal")
    {
        return;
    }
    if (name == "tcp" || name == "dctcp")
    {
        // Linux (include/net/tcp.h): TCP_RTO_MIN 200 ms, TCP_TIMEOUT_INIT 1 s, TCP_RTO_MAX 120 s,
        // TCP_INIT_CWND 10 (RFC 6928). Kernel 4.4 (SwitchML's testbed) probes a tail no sooner
        // than 10 ms. tcp_rmem's 6 MiB maximum with tcp_adv_win_scale 1 advertises 3 MiB.
        sender.Set("CongestionControl", StringValue(name == "tcp" ? "reno" : "dctcp"));
        sender.Set("LossRecovery", StringValue("sack"));
        sender.Set("MinRto", TimeValue(MilliSeconds(200)));
        sender.Set("InitialRto", TimeValue(Seconds(1)));
        sender.Set("MaxRto", TimeValue(Seconds(120)));
        sender.Set("InitialWindow", UintegerValue(10 * 1500));
        sender.Set("MaxWindow", UintegerValue(3 * 1024 * 1024));
        sender.Set("TailLossProbe", BooleanValue(true));
        sender.Set("ProbeMinTimeout", TimeValue(MilliSeconds(10)));
        sender.Set("DupThresh", UintegerValue(3));
        receiver.Set("GoBackN", BooleanValue(false));
        return;
    }
    if (name == "rdma")
    {
        // An RC queue pair: go-back-N on a PSN sequence error, the local ACK timeout
        // 4.096 us x 2^14 = 67.1 ms (NCCL_IB_TIMEOUT 14) with no backoff, retry count 7
        // (NCCL_IB_RETRY_CNT). No window: the NIC streams at line rate (DCQCN not modelled), so
        // what is in flight is what the NIC has sent.
        const Time ackTimeout = NanoSeconds(4096ULL * (1ULL << 14));
        sender.Set("CongestionControl", StringValue("none"));
        sender.Set("LossRecovery", StringValue("go-back-n"));
        sender.Set("MinRto", TimeValue(ackTimeout));
        sender.Set("InitialRto", TimeValue(ackTimeout));
        sender.Set("MaxRto", TimeValue(ackTimeout));
        sender.Set("MaxTimeouts", UintegerValue(7));
        sender.Set("InitialWindow", UintegerValue(0xffffffffu));
        sender.Set("MaxWindow", UintegerValue(0xffffffffu));
        sender.Set("TailLossProbe", BooleanValue(false));
        receiver.Set("GoBackN", BooleanValue(true));
        return;
    }
    std::string known;
    for (const std::string& n : Names())
    {
        known += (known.empty() ? "" : ", ") + n;
    }
    throw std::invalid_argument("unknown transport '" + name + "' (expected one of: " + known +
                                ")");
}

} // namespace ns3
