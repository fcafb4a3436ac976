/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TRANSPORT_RECEIVER_H
#define INA_TRANSPORT_RECEIVER_H

#include "ns3/callback.h"
#include "ns3/ina-host.h"
#include "ns3/ina-packet.h"
#include "ns3/ina-port.h"
#include "ns3/ina-ring-buffer.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

struct InaTransportHeader;

/**
 * \ingroup ina-fabric
 * The receiving half of inasim's reliable transport (see InaTransportSender): one flow's endpoint.
 *
 * Every data packet is acknowledged at once with a small packet (AckBytes on the wire) that names
 * it, carries the cumulative position (every packet below it has arrived) and echoes its CE mark,
 * its transmission number and its send time. Duplicates are acknowledged again but counted once.
 * Messages are delivered in order, each once all its packets have arrived, with their values
 * reassembled when the sender carried any.
 *
 * With GoBackN (an RDMA NIC's receive side, for a sender with LossRecovery go-back-n) only the
 * next packet in order is taken: one that arrives after a hole is dropped, and the first such
 * drop per hole is answered with a NAK (the ACK's FLAG_NAK, naming the hole as its cumulative
 * position); later ones are dropped silently until the hole is filled, as an RC queue pair does
 * after a PSN sequence error.
 */
class InaTransportReceiver : public Object, public InaPacketSink
{
  public:
    /**
     * Called for each message, in order: its index on the flow, its length in bytes, and its
     * values (empty unless the sender carried values). The callee may move the values out.
     */
    typedef Callback<void, uint32_t, uint64_t, std::vector<uint32_t>&> MessageReceivedCallback;

    struct Stats
    {
        uint64_t packetsReceived = 0;  //!< distinct data packets
        uint64_t duplicates = 0;       //!< data packets that had arrived before
        uint64_t payloadBytes = 0;     //!< message bytes of the distinct packets
        uint64_t ceMarked = 0;         //!< data packets that arrived with CE (duplicates too)
        uint64_t acksSent = 0;         //!< ACKs sent
        uint64_t messagesReceived = 0; //!< messages delivered
        uint64_t strayPackets = 0;     //!< packets that were not data of this flow
        uint64_t outOfOrderDrops = 0;  //!< GoBackN: packets dropped after a hole
        uint64_t naksSent = 0;         //!< GoBackN: NAKs sent
    };

    static TypeId GetTypeId();
    InaTransportReceiver();
    ~InaTransportReceiver() override;

    /**
     * Bind `localPort` on `host` and accept the data of flow `flowId` there. ACKs go back to the
     * source address and port of each data packet.
     * \throws std::invalid_argument if already listening or the host is null.
     */
    void Listen(Ptr<InaHost> host, uint16_t localPort, uint32_t flowId);

    void SetMessageReceivedCallback(MessageReceivedCallback cb);

    const Stats& GetStats() const;
    /// Every packet below this sequence number has arrived.
    uint64_t GetCumulativeAck() const;
    uint16_t GetLocalPort() const;
    uint32_t GetFlowId() const;

    // InaPacketSink: data
    void Receive(InaPacket* p, uint32_t port) override;

  protected:
    void DoDispose() override;

  private:
    struct RxMessage
    {
        bool known = false;
        uint64_t firstSeq = 0;
        uint32_t nPackets = 0;
        uint64_t bytes = 0;
        std::vector<uint32_t> values;
    };

    void DeliverCompleted();
    /// Takes new data packet `p` (not freed here): marks it arrived, files it (and its values)
    /// under its message, and moves the in-order point on.
    void Accept(const InaPacket* p, const InaTransportHeader* h);
    /// Answer data packet `p` (not freed here) with an ACK carrying `flags`.
    void SendAck(const InaPacket* p, uint8_t flags);

    uint32_t m_ackBytes;
    bool m_goBackN;
    int64_t m_nakedHole = -1; //!< GoBackN: the cumulative position a NAK was sent for

    Ptr<InaHost> m_host;
    InaPacketPool* m_pool = nullptr;
    uint16_t m_localPort = 0;
    uint32_t m_flowId = 0;
    bool m_listening = false;

    uint64_t m_rcvNxt = 0;
    InaRingBuffer<uint8_t> m_arrived; //!< At(seq), m_rcvNxt <= seq: 1 if it arrived out of order
    std::deque<RxMessage> m_msgs;     //!< m_msgs[i] is message m_msgBase + i
    uint32_t m_msgBase = 0;

    MessageReceivedCallback m_receivedCb;
    Stats m_stats;
};

} // namespace ns3

#endif /* INA_TRANSPORT_RECEIVER_H */
