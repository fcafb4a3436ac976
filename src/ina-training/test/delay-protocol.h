/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DELAY_PROTOCOL_H
#define DELAY_PROTOCOL_H

// The test-only protocol the job suites share (training-job, gpu-contention-compute-model): an
// agent that answers after a fixed delay and records what its worker handed it, and the
// two-layer model whose timings both suites work out by hand.

#include "ns3/aggregation-agent.h"
#include "ns3/aggregation-protocol.h"
#include "ns3/gradient-values.h"
#include "ns3/ina-event.h"
#include "ns3/model-zoo.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ns3
{
namespace tests
{

/// What a worker handed its agent.
struct Handed
{
    uint64_t id;
    int64_t at; //!< ps
    uint64_t bytes;

    bool operator==(const Handed& o) const
    {
        return id == o.id && at == o.at && bytes == o.bytes;
    }
};

/**
 * Returns every tensor `delay` after it was handed over, holding the true sum (or a wrong one);
 * `serial`: one tensor at a time, in hand-off order, each taking `delay` (a link's FIFO).
 */
class DelayAgent : public AggregationAgent
{
  public:
    Time delay;
    bool serial = false;
    bool corrupt = false;
    std::vector<Handed>* handed = nullptr;

  private:
    void DoSetup() override
    {
    }

    void DoAllReduce(uint64_t tensorId, uint64_t bytes, std::vector<float>* values) override
    {
        const int64_t now = Simulator::Now().GetTimeStep();
        if (handed != nullptr)
        {
            handed->push_back({tensorId, now, bytes});
        }
        int64_t done = now + delay.GetTimeStep();
        if (serial)
        {
            done = std::max(now, m_freeAt) + delay.GetTimeStep();
            m_freeAt = done;
        }
        Simulator::Schedule(
            TimeStep(done - now),
            MakeInaFunctorEvent([this, tensorId, values]() {
                if (values != nullptr)
                {
                    const JobContext& ctx = GetContext();
                    for (std::size_t i = 0; i < values->size(); ++i)
                    {
                        (*values)[i] = static_cast<float>(
                            GradientValues::TrueSum(ctx.seed, tensorId, ctx.workerHosts.size(), i));
                    }
                    if (corrupt && GetRank() == 1 && !values->empty())
                    {
                        (*values)[0] += 0.5f;
                    }
                }
                NotifyDone(tensorId);
            }));
    }

    int64_t m_freeAt = 0;
};

class DelayProtocol : public AggregationProtocol
{
  public:
    Time delay = MicroSeconds(10);
    bool serial = false;
    bool corrupt = false;
    std::vector<std::vector<Handed>> handed; //!< per rank

    const std::vector<Handed>& Rank0() const
    {
        return handed.at(0);
    }

    /// \return when rank `rank` handed each tensor over, ps, in order
    std::vector<int64_t> HandedAt(uint32_t rank) const
    {
        std::vector<int64_t> at;
        for (const Handed& h : handed.at(rank))
        {
            at.push_back(h.at);
        }
        return at;
    }

  private:
    void DoInstall() override
    {
        handed.assign(GetContext().workerHosts.size(), {});
    }

    Ptr<AggregationAgent> DoCreateAgent(uint32_t rank) override
    {
        Ptr<DelayAgent> a = CreateObject<DelayAgent>();
        a->delay = delay;
        a->serial = serial;
        a->corrupt = corrupt;
        a->handed = &handed[rank];
        return a;
    }
};

inline ModelSpec
TwoLayers()
{
    ModelSpec m;
    m.name = "two-layers";
    m.layers.push_back({"l0", 4000, 1000000, 2000000}); // 1 us forward, 2 us backward
    m.layers.push_back({"l1", 8000, 3000000, 6000000}); // 3 us forward, 6 us backward
    return m;
}

} // namespace tests
} // namespace ns3

#endif /* DELAY_PROTOCOL_H */
