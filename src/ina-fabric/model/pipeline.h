/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PIPELINE_H
#define PIPELINE_H

#include "ina-packet.h"
#include "ina-switch-actions.h"
#include "pipeline-resources.h"
#include "switch-program.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The programmable pipeline of an INA switch, Tofino-like by default: stages with SRAM, stateful
 * ALUs and exact-match tables; register arrays with one read-modify-write per pass; a limit on the
 * payload values one pass may touch; a fixed latency; and a recirculation port with its own rate,
 * FIFO queue and latency.
 *
 * Programs (SwitchProgram) are installed with Install(), which runs the fit check over every
 * installed program; several protocols may share one pipeline. Process() hands a packet to the
 * program of its protocol (a vector indexed by protocol number), or forwards it unchanged when
 * there is none.
 *
 * Timing. Process() runs pass 1 at the time it is called (t0). Everything a pass hands to the
 * switch (Forward, SendOnPort, Consume) is handed over at once, and the switch delays it by
 * GetLatency(). A packet that asks for another pass enters the recirculation FIFO at the time of
 * its pass and starts its next pass at s(k+1) = max(s(k), busy) + S + R,   S = ceil(8 wireBytes /
 * RecirculationRate), where busy is when the port finishes the packets ahead of it and R is
 * RecirculationLatency (the rest of one trip through the pipeline and the loopback). Uncontended, a
 * packet of n passes leaves at t0 + (n - 1)(S + R) + Latency. One ns-3 event per recirculation;
 * none for single-pass packets. A packet that finds the queue (bytes waiting or being serialised)
 * too full for it is dropped.
 *
 * Aggregation capacity (GRID's C_s: "each programmable switch s has a limited processing capacity",
 * GRID paper Sec. 4.1). Unset (AggregationCapacity and AggregationCapacityPps both 0, the default)
 * the pipeline aggregates at line rate and nothing below applies. Set, the packets a program calls
 * aggregation work (SwitchProgram::IsAggregationWork: gradients it will fold into its registers,
 * not results, transit packets or control packets) pass one FIFO server in front of the first pass:
 * packet k starts its first pass at a(k) = max(arrival, a(k-1) + W(k-1)), W = ceil(8 wireBytes /
 * AggregationCapacity) or ceil(1 s / AggregationCapacityPps); a packet that has to wait is queued,
 * and dropped when the bytes already waiting plus its own exceed AggregationQueueBytes. A packet
 * that is not work but keeps its place (SwitchProgram::FollowsAggregationQueue: a gradient a full
 * switch passes on) waits for nothing but the packets queued ahead of it: it starts right after
 * the last of them, costs no service and counts as no work. The switch
 * marks ECN-capable work CE when more than AggregationEcnThreshold bytes already wait (as a link
 * marks at its threshold), and counts the work it served, the peak of the queue, the drops, the
 * marks and the measured aggregation rate
 * (work served over the time from the first start to the end of the last service), which the
 * server cannot push above the capacity. Recirculation passes are not charged again: the
 * recirculation port has its own rate. One ns-3 event per queued packet; none for a packet that
 * finds the server idle, and none at all when the capacity is unset.
 */
class Pipeline : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Pipeline();
    ~Pipeline() override;
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;

    /**
     * TracedCallback signature for packet events.
     * \param p the packet
     */
    typedef void (*InaPacketTracedCallback)(const InaPacket* p);

    /**
     * Set the switch that packets leave through. It must outlive the pipeline, or be reset to
     * nullptr before it goes away.
     * \param actions the switch
     */
    void SetActions(InaSwitchActions* actions);

    /// \return the switch, or nullptr
    InaSwitchActions* GetActions() const
    {
        return m_actions;
    }

    /**
     * Install a program: check its configuration and that its resources fit beside the installed
     * programs, create its register arrays and tables, and call its InitializeState().
     * Throws PipelineFitError naming the resource and the numbers when it does not fit, or what is
     * wrong otherwise (protocol 0 or taken, name taken, already installed, bad configuration).
     * \param program the program
     */
    void Install(Ptr<SwitchProgram> program);

    /**
     * The fit check Install would run, without installing.
     * \param program the program
     * \return the usage with the program added, and the reason if it does not fit
     */
    FitResult CheckFit(Ptr<SwitchProgram> program) const;

    /**
     * \param protocol an InaPacket::protocol value
     * \return the program handling it, or nullptr
     */
    Ptr<SwitchProgram> GetProgram(uint16_t protocol) const;

    /**
     * \param protocol an InaPacket::protocol value
     * \return whether a program handles it (cheap: the switch asks for every packet)
     */
    bool HasProgramFor(uint16_t protocol) const
    {
        return protocol < m_byProtocol.size() && m_byProtocol[protocol] != nullptr;
    }

    /// \return number of installed programs
    uint32_t GetNPrograms() const
    {
        return static_cast<uint32_t>(m_programs.size());
    }

    /**
     * \param i index in install order
     * \return the program
     */
    Ptr<SwitchProgram> GetProgramByIndex(uint32_t i) const;

    /// Aggregators (slots) its programs hold now, summed (SwitchProgram::GetAggregatorsInUse).
    uint64_t GetAggregatorsInUse() const;
    /// Each program's peak of aggregators held at once, summed.
    uint64_t GetPeakAggregatorsInUse() const;

    /**
     * Run a packet's first pass. The packet's `passes` is reset and counts its passes here.
     * \param p the packet; ownership passes to the pipeline
     * \param inPort the switch port it came in by
     */
    void Process(InaPacket* p, uint32_t inPort);

    /// \return the latency the switch adds to everything a pass hands it
    Time GetLatency() const
    {
        return m_latency;
    }

    /// \return the hardware limits (from the Attributes)
    PipelineLimits GetLimits() const;

    /// \return resource use and counters, for summary.json
    PipelineUsage GetUsage() const;

    /**
     * Set the aggregation capacity (see the class comment); at most one of the two may be non-zero.
     * Throws PipelineFitError when both are.
     * \param bps capacity in bit/s of aggregated wire bytes (0: none)
     * \param pps capacity in aggregated packets per second (0: none)
     */
    void SetAggregationCapacity(uint64_t bps, uint64_t pps);

    /// \return whether an aggregation capacity is set
    bool HasAggregationCapacity() const
    {
        return m_aggLimited;
    }

    /// \return the capacity in bit/s (0: none or given in packets/s)
    uint64_t GetAggregationCapacityBps() const
    {
        return m_aggBps;
    }

    /// \return the capacity in packets/s (0: none or given in bit/s)
    uint64_t GetAggregationCapacityPps() const
    {
        return m_aggPps;
    }

    /// \return bytes waiting for the aggregation server now
    uint64_t GetAggregationQueueBytes() const
    {
        return m_aggQueuedBytes;
    }

    /// \return bytes in the recirculation queue now (waiting or being serialised)
    uint64_t GetRecirculationQueueBytes() const;

    /// \return packets in the recirculation path now (queued, serialising or on the loopback)
    uint64_t GetRecirculationPackets() const
    {
        return m_tail - m_head;
    }

  protected:
    void DoDispose() override;

  private:
    /// A packet on the recirculation path.
    struct RecircEntry
    {
        InaPacket* packet;      //!< the packet
        SwitchProgram* program; //!< its program
        uint32_t inPort;        //!< original ingress port
        uint32_t bytes;         //!< wire bytes when it entered
        int64_t txEnd;          //!< end of its serialisation (time steps)
        int64_t back;           //!< start of its next pass (time steps)
    };

    /// \return the program's demand, named `name`
    ResourceDemand DemandOf(Ptr<SwitchProgram> program, const std::string& name) const;
    /// Throws PipelineFitError when an Attribute value is unusable.
    void CheckConfig() const;
    /// Run one pass and send the packet round again if the program asks.
    void RunPass(SwitchProgram* program, InaPacket* p, uint32_t inPort);
    /// Queue a packet for another pass, or drop it when the queue is full.
    void Recirculate(SwitchProgram* program, InaPacket* p, uint32_t inPort);
    /// The packet at the head of the recirculation path is back: start its next pass.
    void RecirculationArrival();
    /// Schedule RecirculationArrival for the head entry.
    void ScheduleHead();
    /// Drop packets whose serialisation has ended by `now` from the queue's byte count.
    void ReleaseSent(int64_t now) const;
    /// A packet of aggregation work arrives while a capacity is set: serve, queue or drop it.
    void AdmitAggregation(SwitchProgram* program, InaPacket* p, uint32_t inPort);
    /// Queue a packet that is not work behind the queued work, at no cost to the capacity.
    void FollowAggregation(SwitchProgram* program, InaPacket* p, uint32_t inPort);
    /// The packet at the head of the aggregation queue starts its service: run its first pass.
    void AggregationStart();
    /// \return the aggregation server's time for one packet of `bytes`, in time steps
    int64_t AggregationServiceSteps(uint32_t bytes) const;
    /// Attribute setters/getters (they keep m_aggLimited right)
    void SetAggregationRate(DataRate rate);
    DataRate GetAggregationRate() const;
    void SetAggregationPps(uint64_t pps);
    uint64_t GetAggregationPps() const;

    /// \return serialisation time of `bytes` on the recirculation port, in time steps
    int64_t SerializationSteps(uint32_t bytes) const;

    RecircEntry& Entry(uint64_t i) const
    {
        return m_ring[i & (m_ring.size() - 1)];
    }

    // Configured (Attributes, construct-time)
    uint32_t m_stages;              //!< match-action stages
    uint64_t m_sramPerStage;        //!< bytes of SRAM per stage
    uint64_t m_sramBlock;           //!< SRAM allocation unit in bytes
    uint32_t m_alusPerStage;        //!< stateful ALUs per stage
    uint32_t m_tablesPerStage;      //!< exact-match tables per stage
    uint32_t m_maxRegisterWidth;    //!< widest register cell in bits
    uint32_t m_valuesPerPass;       //!< payload lanes per pass
    uint32_t m_maxPasses;           //!< passes after which a recirculation is a program bug
    Time m_latency;                 //!< pipeline latency
    DataRate m_recircRate;          //!< recirculation port rate
    Time m_recircLatency;           //!< recirculation path latency
    uint64_t m_recircQueueCapacity; //!< recirculation queue capacity in bytes

    // Runtime state
    InaSwitchActions* m_actions = nullptr;      //!< the switch
    std::vector<Ptr<SwitchProgram>> m_programs; //!< install order
    std::vector<ResourceDemand> m_demands;      //!< their demands, same order
    FitResult m_fit;                            //!< resource use of the installed programs
    std::vector<SwitchProgram*> m_byProtocol;   //!< protocol number -> program
    uint64_t m_lastPassId = 0;                  //!< pass ids are unique per pipeline

    uint64_t m_packets = 0;             //!< first passes
    uint64_t m_passes = 0;              //!< all passes
    uint64_t m_recirculations = 0;      //!< accepted recirculations
    uint64_t m_recirculatedPackets = 0; //!< packets recirculated at least once
    uint64_t m_recircDrops = 0;         //!< tail drops
    uint64_t m_unhandled = 0;           //!< packets without a program
    uint64_t m_peakQueueBytes = 0;      //!< peak recirculation queue bytes

    // Recirculation path: a FIFO ring indexed by ever-growing counters. Entries [m_head, m_tail)
    // are on the path; [m_txHead, m_tail) are still in the queue (waiting or serialising).
    mutable std::vector<RecircEntry> m_ring; //!< power-of-two sized
    uint64_t m_head = 0;                     //!< next to come back
    mutable uint64_t m_txHead = 0;           //!< oldest still counted in the queue
    uint64_t m_tail = 0;                     //!< next free
    mutable uint64_t m_queuedBytes = 0;      //!< bytes of [m_txHead, m_tail)
    int64_t m_busyUntil = 0;                 //!< end of the last serialisation (time steps)
    EventId m_recircEvent;                   //!< the one pending arrival
    bool m_recircPending = false;            //!< m_recircEvent is scheduled

    TracedCallback<const InaPacket*> m_recircDropTrace; //!< recirculation tail drops

    /// A packet waiting for the aggregation server.
    struct AggEntry
    {
        InaPacket* packet;      //!< the packet
        SwitchProgram* program; //!< its program
        uint32_t inPort;        //!< ingress port
        int64_t start;          //!< start of its service (time steps)
        bool work;              //!< aggregation work (else it follows, SwitchProgram::
                                //!< FollowsAggregationQueue)
    };

    /// Append an entry to the aggregation ring (grown when full), starting its event if first.
    void PushAggregation(const AggEntry& e);

    // Aggregation capacity (unset: m_aggLimited false, the only thing Process looks at)
    bool m_aggLimited = false;          //!< a capacity is set
    uint64_t m_aggBps = 0;              //!< capacity in bit/s, or 0
    uint64_t m_aggPps = 0;              //!< capacity in packets/s, or 0
    uint64_t m_aggQueueCapacity = 0;    //!< AggregationQueueBytes
    int64_t m_aggBusyUntil = 0;         //!< end of the last service (time steps)
    std::vector<AggEntry> m_aggRing;    //!< waiting packets, power-of-two sized ring
    uint64_t m_aggHead = 0;             //!< next to start
    uint64_t m_aggTail = 0;             //!< next free
    uint64_t m_aggQueuedBytes = 0;      //!< bytes waiting
    uint64_t m_aggQueuedWork = 0;       //!< work packets waiting (the ring less its followers)
    EventId m_aggEvent;                 //!< the head's start
    uint64_t m_aggPackets = 0;          //!< packets served (aggregation work)
    uint64_t m_aggBytes = 0;            //!< their wire bytes
    uint64_t m_aggQueued = 0;           //!< of those, packets that waited
    uint64_t m_aggDrops = 0;            //!< dropped at the full queue
    uint64_t m_aggEcnThreshold = 0;     //!< AggregationEcnThreshold
    uint64_t m_aggEcnMarks = 0;         //!< work marked CE in the queue
    uint64_t m_aggPeakQueueBytes = 0;   //!< peak of m_aggQueuedBytes
    uint64_t m_aggPeakQueuePackets = 0; //!< peak work packets waiting (m_aggQueuedWork)
    int64_t m_aggFirstStart = -1;       //!< first service start (time steps), -1: none yet
    int64_t m_aggWaitSteps = 0;         //!< summed waiting time (time steps)

    TracedCallback<const InaPacket*> m_aggStartTrace; //!< a work packet starts its first pass
    TracedCallback<const InaPacket*> m_aggDropTrace;  //!< a work packet dropped at the full queue
};

} // namespace ns3

#endif /* PIPELINE_H */
