/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef BENCH_PACED_SENDER_H
#define BENCH_PACED_SENDER_H

// The traffic source of the fabric benchmarks (fabric-bench, scale-bench): plain packets at a
// fixed gap, one reusable event per packet, so the measured cost is the fabric's, not the source's.

#include "ns3/ina-event.h"
#include "ns3/ina-host.h"
#include "ns3/simulator.h"

#include <cstdint>

namespace ns3
{

/// Sends `count` packets of `wireBytes` to one destination port, one every `gapPs`.
class BenchPacedSender
{
  public:
    BenchPacedSender(InaHost* host,
                     InaAddress dst,
                     uint16_t dstPort,
                     uint32_t wireBytes,
                     uint64_t count,
                     int64_t gapPs)
        : m_host(host)
        , m_dst(dst)
        , m_dstPort(dstPort)
        , m_wireBytes(wireBytes)
        , m_left(count)
        , m_gapPs(gapPs)
        , m_event(this)
    {
    }

    void Start(int64_t atPs)
    {
        m_event.ScheduleAt(atPs);
    }

    void Tick()
    {
        InaPacket* p = m_host->GetPool().Alloc();
        p->dst = m_dst;
        // Eight sub-flows per pair, so ECMP has something to spread.
        p->flowId = (m_host->GetAddress() << 3) | (m_left & 7);
        p->dstPort = m_dstPort;
        p->wireBytes = m_wireBytes;
        m_host->Send(p);
        if (--m_left > 0)
        {
            m_event.ScheduleAt(Simulator::Now().GetTimeStep() + m_gapPs);
        }
    }

  private:
    InaHost* m_host;
    InaAddress m_dst;
    uint16_t m_dstPort;
    uint32_t m_wireBytes;
    uint64_t m_left;
    int64_t m_gapPs;
    InaReusableEvent<BenchPacedSender, &BenchPacedSender::Tick> m_event;
};

} // namespace ns3

#endif // BENCH_PACED_SENDER_H
