/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_NET_DEVICE_H
#define INA_NET_DEVICE_H

#include "ina-event-batcher.h"
#include "ina-event.h"
#include "ina-port.h"

#include "ns3/data-rate.h"
#include "ns3/error-model.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/pcap-file-wrapper.h"

#include <deque>
#include <memory>
#include <vector>

namespace ns3
{

class InaChannel;

/**
 * \ingroup ina-fabric
 * inasim's link end: an output FIFO in front of a serializer, costing one scheduler event per
 * packet hop.
 *
 * A FIFO served at a fixed rate needs no event to start a transmission: a packet sent at t starts
 * at max(t, busyUntil), ends one serialization later and reaches the peer one propagation delay
 * after that, all known at Send(). The device keeps the packets in flight in a ring, in arrival
 * order, and has only the head's arrival pending in the scheduler (a reusable event, so no
 * allocation either; arrivals due at the same picosecond on different links share one event,
 * InaEventBatcher). The queue backlog is the part of the ring whose transmission has not started.
 *
 * With PriorityClasses > 1 a later packet may overtake earlier ones, so the start of a transmission
 * is no longer known at Send(): the device then keeps per-class queues and pays a second event per
 * hop (transmission complete).
 */
class alignas(64) InaNetDevice final : public NetDevice, public InaPort
{
  public:
    static TypeId GetTypeId();
    InaNetDevice();
    ~InaNetDevice() override;

    void Attach(Ptr<InaChannel> channel);
    Ptr<InaNetDevice> GetPeer() const;

    // InaPort
    void Send(InaPacket* p, int64_t extraDelayPs) override;
    uint64_t GetBacklogBytes() override;
    uint64_t GetRateBps() const override;

    /**
     * Cap the rate this device injects at, for packets sent from now on: a pacer (a host NIC's
     * rate limiter) lets a packet start no earlier than bytes * 8 / cap after the previous one
     * started, and the packet itself still leaves at the link rate. 0 (the default) removes the
     * cap; a cap at or above the link rate changes nothing. Packets already queued keep their
     * times. A host's GPU contention model sets it (LIBRA's X_o / X_n, GpuContentionComputeModel).
     * \param bps the cap in bit/s, 0 for none
     */
    void SetInjectionRateCap(uint64_t bps);
    /// \return the injection cap in bit/s (0: none)
    uint64_t GetInjectionRateCap() const;

    /**
     * Share `batcher` (its fabric's) for the arrival events of this device. A device given none
     * makes one of its own when it first sends (a link built by hand, outside a fabric).
     */
    void SetEventBatcher(InaEventBatcher* batcher);

    /// Simulator::Now() in picoseconds, from the batcher while it runs a batch (its NowPs()).
    int64_t NowPs() const
    {
        return m_batcher != nullptr ? m_batcher->NowPs() : InaEventBatcher::SimulatorNowPs();
    }

    /// Write every packet this device sends to a pcap file (LINKTYPE_USER0, inasim header).
    void EnablePcap(const std::string& filename);

    /// Fix the random streams this device uses (its error model); returns how many it took.
    int64_t AssignStreams(int64_t stream);

    /**
     * Random loss on the wire from now on, as the ErrorModel attribute would set it: a packet
     * rate of `rate` drawn from random stream `stream`; 0 removes it. For loss that differs per
     * link or changes during a run (InaFaultInjector).
     */
    void SetLossRate(double rate, int64_t stream);

    /**
     * Take the link direction this device sends on down or up (InaFaultInjector). Down, every
     * packet sent is dropped at once and every packet queued or on the wire is lost when it
     * would have arrived, all counted as fault drops (GetFaultDrops), apart from queue drops and
     * random loss. The only cost on the forwarding path is one flag test in Send.
     */
    void SetLinkDown(bool down);
    /// \return packets lost to the link being down (SetLinkDown)
    uint64_t GetFaultDrops() const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /// A packet on its way to the peer. 32 B and aligned, so an entry never straddles a cache line.
    struct alignas(32) InFlight
    {
        int64_t txStartPs;
        int64_t arrivePs;
        InaPacket* packet;
        uint32_t bytes;
        uint8_t lost; //!< a LossKind
    };

    /// Why a packet in flight does not arrive.
    enum LossKind : uint8_t
    {
        NOT_LOST = 0,
        LOST_ON_WIRE = 1, //!< random loss (the error model)
        LOST_TO_FAULT = 2 //!< the link went down (SetLinkDown)
    };

    /// Conditions that need more than the FIFO fast path (m_slow), tested with one byte. Each
    /// takes Send (or the arrival, for LOSSY and PCAP) down a branch of its own, but for WIDE_ECN,
    /// which only makes Admit compare the full threshold as well: Send stays on the fast path.
    enum SlowPath : uint8_t
    {
        UNWIRED = 1,   //!< the peer is not resolved yet (first Send)
        LINK_DOWN = 2, //!< SetLinkDown(true)
        PRIORITY = 4,  //!< PriorityClasses > 1: per-class queues, a second event per hop
        PCAP = 8,      //!< EnablePcap
        PACED = 16,    //!< an injection cap is set (SetInjectionRateCap)
        LOSSY = 32,    //!< an error model is set (ErrorModel, SetLossRate)
        WIDE_ECN = 64  //!< the ECN threshold does not fit m_ecnThreshold32 (Admit reads the rest)
    };

    int64_t SerializationPs(uint32_t bytes) const;
    int64_t PacedPs(uint32_t bytes) const; //!< bytes at the injection cap
    bool DrawLoss(uint32_t bytes);
    /// Tail drop (false: dropped and freed) and ECN at enqueue, on the backlog before `p`.
    bool Admit(InaPacket* p, uint32_t bytes);
    void PushInFlight(InaPacket* p, int64_t txStartPs, int64_t txEndPs, int64_t extraDelayPs);
    void OnArrival();
    friend class InaEventBatcher;
    void OnBatchedEvent(); //!< InaEventBatcher wakes the device: the head packet arrives

    /// InaEventBatcher: the head packet arrives soon; ask for the line the arrival reads (line 2).
    void PrefetchBatchedEvent() const
    {
        __builtin_prefetch(&m_ring, 1);
    }

    void StartNextPriority();
    void OnTxComplete();
    void WritePcap(const InaPacket* p, int64_t atPs);
    void Wire();                                           //!< resolve the peer (first Send)
    void SendPriority(InaPacket* p, int64_t extraDelayPs); //!< Send with PriorityClasses > 1
    void RetireStarted(int64_t now); //!< backlog: drop what has started by now
    void SyncCounters() const override;
    void SetErrorModel(Ptr<ErrorModel> em); //!< the ErrorModel attribute, and the LOSSY flag
    Ptr<ErrorModel> GetErrorModel() const;
    void SetEcnThreshold(uint64_t bytes); //!< the EcnThreshold attribute, its hot copy and flag
    uint64_t GetEcnThreshold() const;

    uint32_t RingMask() const
    {
        return (1u << m_ringShift) - 1;
    }

    // The fields a hop reads come first, in two cache lines. The class is aligned to a line, so
    // with NetDevice (32 B) and InaPort (96 B) before them they fall as: line 2, everything an
    // arrival reads and writes; line 3, everything a send reads and writes beyond those. An
    // arrival then touches line 2 and its ring entry, a send lines 2 and 3 and its ring slot; the
    // switch and the host call Send without the vtable (InaSwitch, InaHost), so lines 0 and 1
    // (InaPort's vtable pointer and counters) are left alone on the fast path. Once the fabric
    // outgrows the caches, the cost of a hop is mostly those misses (docs/performance.md). Counts
    // written per hop live here, not in InaPort's counters, and are copied there when read
    // (SyncCounters).
    InFlight* m_ring = nullptr;   //!< m_ringStore: packets in flight towards the peer, in order
    uint32_t m_head = 0;          //!< next to arrive (positions count up and wrap; masked to index)
    uint32_t m_tail = 0;          //!< next free slot
    uint32_t m_queueHead = 0;     //!< first whose transmission has not started (FIFO mode)
    uint16_t m_peerPortIndex = 0; //!< the peer's port index at its owner (switch ports are 16-bit)
    uint8_t m_ringShift = 0;      //!< log2 of the ring size
    uint8_t m_slow = UNWIRED;     //!< SlowPath flags
    uint16_t m_mtu = 1500;        //!< largest packet the link carries (wire bytes)
    /// m_ecnThresholdBytes, saturated to 32 bits (WIDE_ECN when it was): the send reads it on
    /// this line, where 8 bytes did not fit.
    uint32_t m_ecnThreshold32 = 0;
    uint64_t m_backlogBytes = 0;
    InaEventBatcher* m_batcher = nullptr; //!< the fabric's (SetEventBatcher) or m_ownBatcher
    InaPacketSink* m_peerSink = nullptr; //!< the peer's owner, so an arrival does not read the peer
    uint64_t m_rxPackets = 0;            //!< InaLinkCounters::rxPackets (SyncCounters)
    // line 3
    int64_t m_busyUntilPs = 0;
    int64_t m_lastArrivePs = 0;
    uint64_t m_capacityBytes;
    uint64_t m_rateBps = 0;
    int64_t m_delayPs = 0;
    uint64_t m_peakBacklogBytes = 0; //!< InaLinkCounters::peakBacklogBytes (SyncCounters)
    uint64_t m_txPackets = 0;        //!< InaLinkCounters::txPackets (SyncCounters)
    uint64_t m_txBytes = 0;          //!< InaLinkCounters::txBytes (SyncCounters)

    // cold
    uint64_t m_ecnThresholdBytes = 0; //!< the EcnThreshold attribute (m_ecnThreshold32 when wide)
    uint64_t m_injectionCapBps = 0;   //!< 0: none (PACED in m_slow when not)
    Ptr<ErrorModel> m_errorModel;     //!< LOSSY in m_slow when set
    std::unique_ptr<InFlight[]> m_ringStore;
    uint32_t m_priorityClasses;
    InaNetDevice* m_peer = nullptr;
    Ptr<PcapFileWrapper> m_pcap;

    // configured (attributes)
    DataRate m_rate;

    // wiring
    Ptr<Node> m_node;
    Ptr<InaChannel> m_channel;
    uint32_t m_ifIndex = 0;
    Mac48Address m_address;

    int64_t m_pacedUntilPs = 0; //!< priority mode: earliest start the pacer allows

    // priority mode
    std::vector<std::deque<std::pair<InaPacket*, int64_t>>> m_classQueues;
    bool m_transmitting = false;
    InaPacket* m_inTx = nullptr;
    int64_t m_inTxExtraPs = 0;
    int64_t m_inTxStartPs = 0;
    InaReusableEvent<InaNetDevice, &InaNetDevice::OnTxComplete> m_txCompleteEvent;

    Ptr<Packet> m_lossProbe;   //!< ErrorModel needs a Packet; kept for the size last drawn
    uint64_t m_faultDrops = 0; //!< GetFaultDrops
    std::unique_ptr<InaEventBatcher> m_ownBatcher; //!< when no fabric gave one
};

} // namespace ns3

#endif /* INA_NET_DEVICE_H */
