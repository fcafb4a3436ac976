/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RECORDING_SWITCH_H
#define RECORDING_SWITCH_H

// Test double shared by the switch-program test suites: a switch that keeps a copy of every packet
// a pipeline pass hands it (with the protocol header H decoded), then frees the packet.

#include "ns3/ina-packet-pool.h"
#include "ns3/ina-switch-actions.h"

#include <cstring>
#include <vector>

namespace ns3
{
namespace tests
{

template<typename H, InaAddress ADDRESS>
class RecordingSwitch : public InaSwitchActions
{
  public:
    struct Record
    {
        char action;                 //!< 'F' forward, 'S' send on port, 'C' consume
        InaAddress src;              //!< packet source
        InaAddress dst;              //!< packet destination
        uint32_t flowId;             //!< InaPacket::flowId
        uint32_t jobId;              //!< InaPacket::jobId
        uint16_t dstPort;            //!< endpoint
        uint64_t seq;                //!< InaPacket::seq
        uint32_t passes;             //!< pipeline passes taken
        uint8_t ecn;                 //!< IP ECN
        H h;                         //!< protocol header
        std::vector<int32_t> values; //!< payload, empty when virtual
    };

    void Forward(InaPacket* p) override
    {
        Note('F', p);
    }

    void SendOnPort(InaPacket* p, uint32_t port) override
    {
        Note('S', p);
    }

    void Consume(InaPacket* p) override
    {
        Note('C', p);
    }

    InaPacketPool& GetPool() override
    {
        return pool;
    }

    InaAddress GetAddress() const override
    {
        return ADDRESS;
    }

    uint32_t GetNPorts() const override
    {
        return 64;
    }

    InaPacketPool pool;
    std::vector<Record> records;

  private:
    void Note(char action, InaPacket* p)
    {
        Record r{action,
                 p->src,
                 p->dst,
                 p->flowId,
                 p->jobId,
                 p->dstPort,
                 p->seq,
                 p->passes,
                 p->ecn,
                 {},
                 {}};
        std::memcpy(&r.h, p->hdr, sizeof(H));
        if (p->values != nullptr)
        {
            const int32_t* v = p->values->AsInt32();
            r.values.assign(v, v + p->values->words.size());
        }
        records.push_back(r);
        pool.Free(p);
    }
};

} // namespace tests
} // namespace ns3

#endif /* RECORDING_SWITCH_H */
