/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROTOCOL_TEST_FABRIC_H
#define PROTOCOL_TEST_FABRIC_H

// Shared by the protocol test suites: the fabrics they run jobs on (100 Gb/s, 1 us links) and a
// job run whose protocol and agents are typed, so a suite reads its protocol's own counters.

#include "ns3/all-reduce-runner.h"
#include "ns3/ina-fabric-helper.h"

#include <string>
#include <vector>

namespace ns3
{
namespace tests
{

constexpr uint64_t GBPS_100 = 100000000000ULL;
constexpr int64_t US = 1000000; // picoseconds

/// A star of `hosts` hosts, `loss` on every link direction (random streams from `stream`).
inline Ptr<InaFabric>
Star(uint32_t hosts, double loss = 0, int64_t stream = 0, uint64_t queueBytes = 1000000)
{
    InaFabricHelper helper;
    helper.SetQueue(queueBytes, 0);
    helper.SetLossRate(loss);
    helper.SetStreamBase(stream);
    return helper.Build(InaTopology::Star(hosts, {GBPS_100, US}));
}

/// A leaf-spine, `loss` on every link direction.
inline Ptr<InaFabric>
LeafSpine(uint32_t leaves, uint32_t spines, uint32_t perLeaf, double loss = 0, int64_t stream = 0)
{
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    helper.SetLossRate(loss);
    helper.SetStreamBase(stream);
    return helper.Build(
        InaTopology::LeafSpine(leaves, spines, perLeaf, {GBPS_100, US}, {GBPS_100, US}));
}

/// first, first + 1, ..., first + count - 1 (host indices).
inline std::vector<uint32_t>
Range(uint32_t first, uint32_t count)
{
    std::vector<uint32_t> v(count);
    for (uint32_t i = 0; i < count; ++i)
    {
        v[i] = first + i;
    }
    return v;
}

/// One job of protocol P (agents A) on a fabric: AllReduceRunner with `protocol` and `agents`
/// typed.
template<typename P, typename A>
class TypedJobRun : public AllReduceRunner
{
  public:
    TypedJobRun(Ptr<InaFabric> fabric, const std::string& typeId, const Spec& spec)
        : AllReduceRunner(fabric, typeId, spec)
        , protocol(DynamicCast<P>(GetProtocol()))
    {
        for (uint32_t r = 0; r < GetNWorkers(); ++r)
        {
            agents.push_back(DynamicCast<A>(GetAgent(r)));
        }
    }

    /// An agent counter (A::Counters) summed over the workers.
    template<typename C>
    uint64_t SumCounter(uint64_t C::*field) const
    {
        uint64_t s = 0;
        for (const auto& a : agents)
        {
            s += a->GetCounters().*field;
        }
        return s;
    }

    Ptr<P> protocol;
    std::vector<Ptr<A>> agents;
};

} // namespace tests
} // namespace ns3

#endif /* PROTOCOL_TEST_FABRIC_H */
