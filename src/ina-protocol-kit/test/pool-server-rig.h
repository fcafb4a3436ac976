/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_SERVER_RIG_H
#define POOL_SERVER_RIG_H

// Shared by the parameter-server suites of the shared-pool family (ATP, ESA): one server on a star
// with no switch program, packets handed to it directly, and the hosts' endpoints recording every
// packet it sends them (header as it arrived, values).

#include "pool-test-values.h"

#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-host.h"
#include "ns3/pool-header.h"
#include "ns3/pool-parameter-server.h"
#include "ns3/simulator.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ns3
{
namespace tests
{

class PoolEndpointRecorder : public InaPacketSink
{
  public:
    /// One packet that reached the endpoint.
    struct Rx
    {
        uint64_t seq;                //!< fragment
        PoolHeader header;           //!< its header (flags, aggregator index, a protocol's kind)
        uint32_t wireBytes;          //!< size
        std::vector<int32_t> values; //!< payload (empty without values)
    };

    /// Binds `endpoint` of `host`.
    PoolEndpointRecorder(Ptr<InaHost> host, uint16_t endpoint)
        : m_pool(&host->GetPool())
    {
        host->Bind(endpoint, this);
    }

    void Receive(InaPacket* p, uint32_t /* port */) override
    {
        Rx r{p->seq, *p->Header<PoolHeader>(), p->wireBytes, {}};
        if (p->values != nullptr)
        {
            r.values.assign(p->values->AsInt32(), p->values->AsInt32() + PoolHeader::VALUES);
        }
        rx.push_back(r);
        m_pool->Free(p);
    }

    std::vector<Rx> rx; //!< in arrival order

  private:
    InaPacketPool* m_pool;
};

/**
 * A parameter server of type `Server` on a star of `hosts` hosts (100 Gb/s, 1 us), and
 * recorders of type `Recorder` at `endpoint` of hosts 0..recorded - 1. A suite's rig derives from
 * it, sets the server up (Config gives what every suite's server shares) and hands it packets
 * (Deliver).
 */
template<class Server, class Recorder = PoolEndpointRecorder>
struct PoolServerRig
{
    Ptr<InaFabric> fabric;
    Ptr<Server> ps;
    std::vector<std::unique_ptr<Recorder>> sinks;

    PoolServerRig(uint32_t hosts, uint32_t recorded, uint16_t endpoint)
        : fabric(InaFabricHelper().Build(InaTopology::Star(hosts, {100000000000ULL, 1000000})))
        , ps(CreateObject<Server>())
    {
        for (uint32_t h = 0; h < recorded; ++h)
        {
            sinks.push_back(std::make_unique<Recorder>(fabric->GetHost(h), endpoint));
        }
    }

    ~PoolServerRig()
    {
        ps->Dispose();
        Simulator::Destroy();
    }

    PoolServerRig(const PoolServerRig&) = delete;
    PoolServerRig& operator=(const PoolServerRig&) = delete;

    /**
     * The configuration of a server of job `job` at `endpoint` of host `psHost`, checking
     * values, window 8, answering `workers` (rank = position) by one multicast group.
     */
    PoolParameterServer::Config Config(uint32_t job,
                                       uint16_t endpoint,
                                       uint32_t psHost,
                                       const std::vector<uint32_t>& workers) const
    {
        PoolParameterServer::Config c;
        c.name = "test PS";
        c.jobId = job;
        c.host = fabric->GetHost(psHost);
        c.endpoint = endpoint;
        c.resultGroup = fabric->CreateMulticastGroup(psHost, workers);
        c.resultFlowId = 77;
        c.checkValues = true;
        c.window = 8;
        for (uint32_t r = 0; r < workers.size(); ++r)
        {
            c.rankOfWorker.push_back(r);
        }
        return c;
    }

    /// Hand the server the packet of `k`.
    void Deliver(const PoolPacketSpec& k)
    {
        ps->Receive(MakePoolPacket(fabric->GetPool(), k), 0);
    }
};

} // namespace tests
} // namespace ns3

#endif /* POOL_SERVER_RIG_H */
