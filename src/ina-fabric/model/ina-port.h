/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_PORT_H
#define INA_PORT_H

#include "ina-packet-pool.h"
#include "ina-packet.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Whoever owns a port (a host or a switch) receives the packets that arrive on it.
 */
class InaPacketSink
{
  public:
    virtual ~InaPacketSink() = default;
    /// `p` arrived on the owner's port `port`; the sink takes ownership.
    virtual void Receive(InaPacket* p, uint32_t port) = 0;
};

/**
 * \ingroup ina-fabric
 * Per-direction link counters, updated in place on the fast path and read at the end.
 */
struct InaLinkCounters
{
    uint64_t txPackets = 0;        //!< accepted into the output queue
    uint64_t txBytes = 0;          //!< wire bytes of those
    uint64_t rxPackets = 0;        //!< delivered to the far end (one packet-hop each)
    uint64_t drops = 0;            //!< tail drops at the output queue
    uint64_t ecnMarks = 0;         //!< CE marks set at the output queue
    uint64_t lost = 0;             //!< random loss on the wire
    uint64_t oversize = 0;         //!< dropped at the output for exceeding the link MTU
    uint64_t peakBacklogBytes = 0; //!< largest output-queue backlog seen
};

/**
 * \ingroup ina-fabric
 * One end of a full-duplex link, as its owner sees it: a place to send packets and the owner's
 * counters for the direction that leaves it. Two implementations: InaNetDevice (inasim's one event
 * per hop link) and InaP2pPort (ns-3's PointToPointNetDevice, for comparison). Nodes only see this
 * interface, so a scenario runs unchanged on either.
 */
class InaPort
{
  public:
    virtual ~InaPort() = default;

    /**
     * Queue `p` for transmission; the port takes ownership (it drops or delivers it).
     * \param extraDelayPs processing latency of the sender (a switch pipeline), added to the time
     *        the packet reaches the far end. Must be the same for every packet one owner sends on
     *        one port, so the link stays FIFO.
     */
    virtual void Send(InaPacket* p, int64_t extraDelayPs) = 0;

    /// Bytes waiting in the output queue now (not counting the packet being serialized).
    virtual uint64_t GetBacklogBytes() = 0;

    virtual uint64_t GetRateBps() const = 0;

    /// Connect the owner: arrivals go to `sink` tagged with the owner's port index.
    void Attach(InaPacketSink* sink, uint32_t portIndex, InaPacketPool* pool)
    {
        m_sink = sink;
        m_portIndex = portIndex;
        m_pool = pool;
    }

    const InaLinkCounters& GetCounters() const
    {
        SyncCounters();
        return m_counters;
    }

    uint32_t GetPortIndex() const
    {
        return m_portIndex;
    }

    /// Hand an arrival to the owner. Called by the far end's implementation.
    void DeliverUp(InaPacket* p)
    {
        m_sink->Receive(p, m_portIndex);
    }

  protected:
    /**
     * Bring m_counters up to date with the counts an implementation keeps elsewhere. A counter
     * written on every hop costs a cache miss per hop when it sits on a line the hop would not
     * otherwise touch (InaNetDevice keeps its arrivals and peak backlog beside the fields the
     * arrival and the send read, docs/performance.md); it is copied here only when read.
     */
    virtual void SyncCounters() const
    {
    }

    mutable InaLinkCounters m_counters; //!< mutable: SyncCounters fills it in when it is read
    InaPacketSink* m_sink = nullptr;
    uint32_t m_portIndex = 0;
    InaPacketPool* m_pool = nullptr;
};

} // namespace ns3

#endif /* INA_PORT_H */
