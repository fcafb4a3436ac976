/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_HOST_H
#define INA_HOST_H

#include "ina-port.h"

#include "ns3/object.h"

#include <utility>
#include <vector>

namespace ns3
{

class InaNetDevice;

/**
 * \ingroup ina-fabric
 * A server's network side: one port (its NIC) and a table of endpoints by InaPacket::dstPort, the
 * way a UDP stack demultiplexes, without the IP stack (performance.md B3: a router through ns-3's
 * IP stack forwards 5-7x slower). Applications bind an endpoint and send through the host.
 */
class InaHost : public Object, public InaPacketSink
{
  public:
    static TypeId GetTypeId();

    void SetAddress(InaAddress address);
    InaAddress GetAddress() const;
    void SetPort(InaPort* port);
    InaPort* GetPort() const;
    void SetPool(InaPacketPool* pool);
    InaPacketPool& GetPool() const;

    /// Deliver packets for `port` to `sink`. Aborts if the endpoint is taken.
    void Bind(uint16_t port, InaPacketSink* sink);
    void Unbind(uint16_t port);
    /// A free endpoint number (from 1024 up), for applications that do not care which.
    uint16_t AllocateEndpoint();

    /// Send `p` (ownership passes); fills in the source address.
    void Send(InaPacket* p);

    /**
     * Cap the rate the host's NIC injects at, for packets sent from now on
     * (InaNetDevice::SetInjectionRateCap); 0 removes it.
     * \param bps the cap in bit/s, 0 for none
     * \return false, changing nothing, if the port is not an InaNetDevice (the p2p link model)
     */
    bool SetInjectionRateCap(uint64_t bps);

    void Receive(InaPacket* p, uint32_t port) override;

    /**
     * Simulator::Now() in picoseconds, the cheap way while the fabric's event batcher runs (an
     * arrival): InaNetDevice::NowPs. Agents stamp every packet they send and receive with it.
     */
    int64_t NowPs() const;

    /// Packets that arrived for an endpoint nobody bound (a bug in a scenario, counted not hidden).
    uint64_t GetUnboundDrops() const;

  protected:
    void DoDispose() override;

  private:
    InaAddress m_address = INA_NO_ADDRESS;
    InaPort* m_port = nullptr;
    /// m_port when it is an InaNetDevice: Send calls it without the vtable, whose pointer sits on
    /// a line of the device the send would not otherwise read (docs/performance.md).
    InaNetDevice* m_device = nullptr;
    InaPacketPool* m_pool = nullptr;
    /// \return the sink bound to an endpoint at or above DIRECT_ENDPOINTS, or nullptr
    InaPacketSink* FindHigh(uint16_t port) const;

    /**
     * Endpoints below this are a table indexed by number; those above (the pool protocols' one
     * per job, from 0x7000 up) a short sorted list. A flat table up to 0x7000 cost every host of
     * an ATP, ESA or GRID job 229 KB, about 235 MB for 1,024 such hosts (docs/reliability.md).
     */
    static constexpr uint16_t DIRECT_ENDPOINTS = 4096;
    std::vector<InaPacketSink*> m_endpoints; //!< by number, below DIRECT_ENDPOINTS
    /// (number, sink) at or above DIRECT_ENDPOINTS, sorted by number
    std::vector<std::pair<uint16_t, InaPacketSink*>> m_highEndpoints;
    uint16_t m_nextEndpoint = 1024;
    uint64_t m_unboundDrops = 0;
};

} // namespace ns3

#endif /* INA_HOST_H */
