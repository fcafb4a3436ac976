/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TRANSPORT_SENDER_H
#define INA_TRANSPORT_SENDER_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/ina-host.h"
#include "ns3/ina-nic-gate.h"
#include "ns3/ina-packet.h"
#include "ns3/ina-port.h"
#include "ns3/ina-ring-buffer.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The sending half of inasim's reliable, message-oriented transport: a DCTCP-style sender with a
 * SACK scoreboard, RACK-style loss detection, tail-loss probes and a retransmission timeout.
 *
 * Messages handed to SendMessage() are cut into packets of at most Mtu wire bytes (HeaderBytes of
 * headers plus Mss() payload bytes) and numbered consecutively on the flow, messages one after the
 * other. Packets leave while the wire bytes in flight stay within the congestion window. The
 * receiver (InaTransportReceiver) acknowledges every packet; an ACK names the packet it answers,
 * the receiver's cumulative position, and whether the packet arrived CE-marked. From that:
 *  - window: slow start up to ssthresh, then one Mtu per window of ACKs; never above MaxWindow;
 *  - ECN (DCTCP): alpha <- (1 - g) alpha + g F once per window of data, F the fraction of bytes
 *    acknowledged with ECE; on an ECE, cwnd <- cwnd (1 - alpha / 2), at most once per window;
 *  - loss: a packet is lost once DupThresh packets sent after it have been acknowledged (the SACK
 *    form of "three duplicate ACKs"), or once a later-sent packet has been acknowledged and an
 *    RTT plus a reordering allowance (min RTT / 4) has passed since it left. Losses halve the
 *    window once per window (fast recovery) and are retransmitted before new data;
 *  - tail loss: with nothing left to trigger that, a probe goes out after 2 SRTT (RFC 8985 TLP);
 *  - timeout: RTO = max(MinRto, SRTT + 4 RTTVAR), doubled per consecutive timeout up to MaxRto;
 *    on expiry every unacknowledged packet is resent, starting from a window of one packet. After
 *    MaxTimeouts consecutive timeouts the flow gives up (IsFailed()), so a path that never
 *    delivers cannot keep a simulation running forever.
 * The mechanisms are Attributes, so one class stands for three kinds of host transport
 * (InaTransportProfile names them): LossRecovery `sack` (the above) or `go-back-n` (an RDMA NIC:
 * the receiver drops what arrives out of order and NAKs once, the sender resends from the NAK'd
 * packet; no SACK, no probe); CongestionControl `dctcp` (the above), `reno` (loss halves the
 * window, ECN is ignored: Linux TCP without ECN) or `none` (the window stays at InitialWindow:
 * an RDMA NIC without DCQCN); ProbeMinTimeout, a floor under the probe's 2 SRTT (Linux: 10 ms);
 * MessageOverhead, host software time per message (a library's send call and copy), spent one
 * message after the other before the message's first packet may leave.
 * One timer per flow covers the probe and the timeout; it is re-armed lazily (a deadline that the
 * pending event re-checks), so ACKs never schedule events. A packet goes to the host's NIC only
 * while the NIC's backlog is under NicQueueLimit (InaNicGate), as a real host's stack holds packets
 * back rather than overflow its own NIC queue.
 *
 * \code
 *   Ptr<InaTransportReceiver> rx = CreateObject<InaTransportReceiver>();
 *   rx->Listen(dstHost, dstHost->AllocateEndpoint(), flowId);
 *   Ptr<InaTransportSender> tx = CreateObject<InaTransportSender>();
 *   tx->Connect(srcHost, srcHost->AllocateEndpoint(), dstHost->GetAddress(), rx->GetLocalPort(),
 *               flowId, jobId);
 *   tx->SetMessageAckedCallback(...);
 *   tx->SendMessage(1000000);
 * \endcode
 */
class InaTransportSender : public Object, public InaPacketSink
{
  public:
    /// Called when every packet of message `msgIndex` has been acknowledged, in message order.
    typedef Callback<void, uint32_t> MessageAckedCallback;
    /**
     * Asked for the flow's next message when every packet of the messages the sender holds has
     * been sent once: fills in the message's bytes, its values (empty, or bytes / 4 words) and
     * when the application queued it (MessageOverhead counts from then), and returns true; or
     * returns false if the application has nothing to send now (it calls Wake() once it has).
     * It must not call SendMessage() or Wake() itself.
     */
    typedef Callback<bool, uint64_t&, std::vector<uint32_t>&, Time&> MessageSourceCallback;

    /// Counters, updated in place.
    struct Stats
    {
        uint64_t messagesAcked = 0;     //!< messages wholly acknowledged
        uint64_t dataPacketsSent = 0;   //!< data packets sent, retransmissions and probes included
        uint64_t wireBytesSent = 0;     //!< wire bytes of those
        uint64_t payloadBytesAcked = 0; //!< message bytes acknowledged
        uint64_t retransmissions = 0;   //!< data packets sent again (fast, probe or after timeout)
        uint64_t lossesDetected = 0;    //!< packets declared lost by the scoreboard
        uint64_t lossReductions = 0;    //!< window halvings for loss (fast recovery entries)
        uint64_t probes = 0;            //!< tail-loss probes sent
        uint64_t timeouts = 0;          //!< retransmission timeouts
        uint64_t acksReceived = 0;      //!< ACKs that arrived
        uint64_t ecnEchoes = 0;         //!< ACKs carrying ECE
        uint64_t ecnReductions = 0;     //!< window reductions for ECN
        uint64_t strayPackets = 0;      //!< packets that were not ACKs of this flow
        uint64_t nicWaits = 0;          //!< times the host's NIC queue held the sender back
        uint64_t messagesAbandoned = 0; //!< messages never acknowledged because the flow failed
        uint64_t naks = 0;              //!< go-back-N NAKs that arrived
        uint64_t goBacks = 0;           //!< go-backs (NAKs and timeouts) that resent a window
    };

    /// How losses are found and repaired.
    enum LossRecovery
    {
        SACK,     //!< per-packet SACK scoreboard, RACK, fast retransmit, tail-loss probe
        GO_BACK_N //!< RDMA-style: on a NAK or a timeout resend everything from the first hole
    };

    /// How the window reacts.
    enum CongestionControl
    {
        DCTCP, //!< slow start, additive increase, halve on loss, DCTCP cut on ECN echoes
        RENO,  //!< the same without the ECN reaction (TCP with ECN off)
        NONE   //!< the window stays at InitialWindow, whatever happens
    };

    static TypeId GetTypeId();
    InaTransportSender();
    ~InaTransportSender() override;

    /**
     * Bind `localPort` on `host` (ACKs come back there) and address data to endpoint `peerPort`
     * of node `peer`. Call once, after setting attributes and before SendMessage().
     * \throws std::invalid_argument if already connected, the host is null, or Mtu leaves no
     *         room for a 4-byte payload after HeaderBytes.
     */
    void Connect(Ptr<InaHost> host,
                 uint16_t localPort,
                 InaAddress peer,
                 uint16_t peerPort,
                 uint32_t flowId,
                 uint32_t jobId);

    /**
     * Queue a message of `bytes` bytes behind those already queued and send what the window
     * allows now. A message of 0 bytes is one header-only packet. With `values`, their words ride
     * in the packets (InaPacket::values) and the receiver gets them back in order; then `bytes`
     * must be 4 * values.size().
     * \return the message's index on this flow (0, 1, ...), as the callbacks name it.
     * \throws std::invalid_argument if not connected, or values do not match bytes.
     */
    uint32_t SendMessage(uint64_t bytes, std::vector<uint32_t> values = {});

    /**
     * Take messages from `source` as the flow needs them instead of (or after) SendMessage(): the
     * sender asks for one only when it has sent every packet of those it holds, so an
     * application with many messages ready (a tensor of 10^9 chunks) hands them over one at a
     * time and the sender keeps a record only of those it has started, not of every message
     * queued. The flow behaves exactly as if each message had been handed to SendMessage() when
     * the source says it was queued. Messages the source still holds when the flow gives up are
     * not counted in Stats::messagesAbandoned. A null callback detaches the source.
     */
    void SetMessageSource(MessageSourceCallback source);
    /// The source has a message again (after it answered false): send what the window allows.
    void Wake();

    void SetMessageAckedCallback(MessageAckedCallback cb);

    const Stats& GetStats() const;
    /// Payload bytes of a full packet: Mtu - HeaderBytes, rounded down to whole 32-bit words.
    uint32_t GetMss() const;
    /// Congestion window, in wire bytes.
    double GetCwnd() const;
    double GetSsthresh() const;
    /// DCTCP's estimate of the fraction of marked bytes.
    double GetAlpha() const;
    /// Smoothed RTT; zero before the first sample.
    Time GetSrtt() const;
    /// The timeout the next arming would use (backoff included).
    Time GetRto() const;
    /// Wire bytes of data sent and neither acknowledged nor declared lost.
    uint64_t GetBytesInFlight() const;
    /// True when every message queued so far has been acknowledged.
    bool IsIdle() const;
    /// True once the flow gave up after MaxTimeouts consecutive timeouts; it then sends nothing
    /// more and counts later messages as abandoned.
    bool IsFailed() const;
    uint32_t GetFlowId() const;
    uint16_t GetLocalPort() const;

    // InaPacketSink: ACKs
    void Receive(InaPacket* p, uint32_t port) override;

    /// \name For InaNicGate
    /// @{
    /// The NIC has room again: send what the window allows. False if the NIC refused the very
    /// first packet (the sender then waits again).
    bool OnNicReady();
    /// The backlog the NIC must drain to before this sender is worth waking.
    uint64_t GetNicDrainTo() const;
    /// @}

  protected:
    void DoDispose() override;

  private:
    /// A packet between the cumulative ACK point and the next new sequence number.
    struct Slot
    {
        uint64_t txOrder = 0;  //!< transmission counter of its latest transmission
        int64_t firstTxPs = 0; //!< when it first left (InaPacket::sentPs)
        uint32_t msgIndex = 0; //!< message it belongs to
        uint32_t wire = 0;     //!< wire bytes
        uint8_t state = 0;     //!< IN_FLIGHT, LOST (waiting to be resent) or ACKED
    };

    /// One transmission, in transmission order, for loss detection.
    struct TxRecord
    {
        uint64_t seq = 0;
        uint64_t txOrder = 0;
        int64_t txPs = 0;
    };

    struct TxMessage
    {
        uint64_t firstSeq;
        uint64_t bytes;
        uint32_t nPackets;
        std::vector<uint32_t> values;
        int64_t queuedPs; //!< when SendMessage queued it
    };

    enum class TimerMode
    {
        NONE,  //!< nothing outstanding
        PROBE, //!< the deadline sends a tail-loss probe
        RTO    //!< the deadline is a retransmission timeout
    };

    void TrySend();
    /// Checks a message's size and values and queues it; returns its index.
    uint32_t Enqueue(uint64_t bytes, std::vector<uint32_t> values, int64_t queuedPs);
    /// Queues the source's next message, if it has one; false if not.
    bool PullMessage();
    /// True if the host's NIC takes `wire` bytes now; otherwise waits at the gate.
    bool NicAdmits(uint32_t wire);
    void SendNewPacket();
    void Transmit(uint64_t seq, bool retransmission);
    uint32_t WireOf(const TxMessage& m, uint64_t seq) const;
    uint64_t AckSlot(uint64_t seq);
    /// Acknowledges what an ACK covers (its own packet `seq` with SACK, everything below
    /// `cumAck`) and slides the window; returns the wire bytes newly acknowledged.
    uint64_t TakeAcks(uint64_t seq, uint64_t cumAck);
    /// DCTCP's marked fraction over `acked` bytes (`ece`: the ACK echoed CE), the end of fast
    /// recovery and of CWR, and the window's reaction to the ECN echo.
    void UpdateCongestion(uint64_t acked, bool ece);
    /// Drops the messages the window has passed; returns the ids [first, last) now acknowledged.
    std::pair<uint32_t, uint32_t> RetireMessages();
    void UpdateRtt(int64_t rttPs);
    bool DetectLosses(int64_t nowPs);
    void EnterLossRecovery();
    void ReactToEce();
    void IncreaseWindow(uint64_t ackedWire);
    int64_t CurrentRtoPs() const;
    void RearmTimer(int64_t nowPs);
    void SetDeadline(int64_t deadlinePs, int64_t nowPs);
    void OnTimer();
    void SendProbe();
    void OnTimeout();
    void GiveUp();
    void CompleteMessages();
    /// Every unacknowledged packet from m_sndUna on is to be sent again, in order (a timeout, or
    /// a go-back-N NAK); nothing is left in flight.
    void RequeueUnacked();
    /// MessageOverhead: true if the next new packet's message has had its software time; else
    /// arms the overhead event (once) for when it will have.
    bool MessageReady(int64_t nowPs);
    void OnMessageReady();

    // attributes
    uint32_t m_mtu;
    uint32_t m_headerBytes;
    uint32_t m_initialWindow;
    uint32_t m_maxWindow;
    Time m_minRto;
    Time m_maxRto;
    Time m_initialRto;
    uint32_t m_dupThresh;
    double m_g;
    double m_initialAlpha;
    uint32_t m_maxTimeouts;
    bool m_tailLossProbe;
    uint8_t m_priority;
    uint32_t m_nicQueueLimit;
    LossRecovery m_lossRecovery;
    CongestionControl m_cc;
    Time m_probeMinTimeout;
    Time m_messageOverhead;

    // wiring
    Ptr<InaHost> m_host;
    InaPacketPool* m_pool = nullptr;
    InaAddress m_peer = INA_NO_ADDRESS;
    uint16_t m_localPort = 0;
    uint16_t m_peerPort = 0;
    uint32_t m_flowId = 0;
    uint32_t m_jobId = 0;
    uint32_t m_mss = 0;
    bool m_connected = false;
    bool m_failed = false;
    Ptr<InaNicGate> m_gate; //!< null when NicQueueLimit is 0
    bool m_waitingNic = false;

    // messages: m_msgs[i] is message m_msgBase + i
    std::deque<TxMessage> m_msgs;
    uint32_t m_msgBase = 0;
    uint32_t m_sendMsg = 0;       //!< message holding m_sndNxt
    uint64_t m_seqAssigned = 0;   //!< sequence numbers given to queued messages
    uint32_t m_msgsCompleted = 0; //!< messages acknowledged but not yet reported
    // MessageOverhead: message m_readyMsg is ready at m_readyPs; later ones are not yet
    uint32_t m_readyMsg = 0;
    int64_t m_readyPs = -1;  //!< -1: m_readyMsg's software time has not started
    int64_t m_cpuFreePs = 0; //!< when the host's software finished the previous message
    EventId m_readyEvent;

    // scoreboard: m_slots.At(seq) for m_sndUna <= seq < m_sndNxt
    InaRingBuffer<Slot> m_slots;
    InaRingBuffer<TxRecord> m_txFifo;    //!< transmissions not yet known delivered or lost
    InaRingBuffer<uint64_t> m_retxQueue; //!< sequence numbers declared lost, oldest first
    uint64_t m_sndUna = 0;
    uint64_t m_sndNxt = 0;
    uint64_t m_txCounter = 0;
    uint64_t m_pipe = 0; //!< wire bytes in flight

    // congestion control
    double m_cwnd = 0;
    double m_ssthresh = 0;
    double m_alpha = 0;
    uint64_t m_alphaWindowEnd = 0;
    uint64_t m_windowAckedBytes = 0;
    uint64_t m_windowMarkedBytes = 0;
    bool m_inCwr = false;
    uint64_t m_cwrEnd = 0;
    bool m_inFastRecovery = false;
    uint64_t m_lossEpochEnd = 0;

    // RTT and loss detection
    bool m_haveRtt = false;
    int64_t m_srttPs = 0;
    int64_t m_rttvarPs = 0;
    int64_t m_minRttPs = 0;
    uint64_t m_rackTxOrder = 0; //!< latest transmission known to have arrived
    int64_t m_rackRttPs = 0;    //!< RTT of that transmission
    uint32_t m_backoff = 0;     //!< consecutive timeouts
    bool m_probeOutstanding = false;

    // the one timer
    Ptr<EventImpl> m_timerEvent;
    TimerMode m_timerMode = TimerMode::NONE;
    int64_t m_deadlinePs = 0;
    std::vector<int64_t> m_timerEvents; //!< times of pending events, latest first

    MessageAckedCallback m_ackedCb;
    MessageSourceCallback m_source;
    Stats m_stats;
};

} // namespace ns3

#endif /* INA_TRANSPORT_SENDER_H */
