/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PROTOCOL_TEST_FABRIC_H
#define PROTOCOL_TEST_FABRIC_H

// Shared by the protocol test suites: the fabrics they run jobs on (100 Gb/s, 1 us links), a
// job run whose protocol and agents are typed, so a suite reads its protocol's own counters, and
// the ways a suite runs its jobs and catches a set-up refusal, and a tap that drops or observes
// the packets reaching a host's endpoint.

#include "../../ina-fabric/test/error-of.h"

#include "ns3/all-reduce-runner.h"
#include "ns3/ina-fabric-helper.h"

#include <exception>
#include <initializer_list>
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

/// The nodes of `topology` named `names`, in that order.
inline std::vector<uint32_t>
Nodes(const InaTopology& topology, std::initializer_list<const char*> names)
{
    std::vector<uint32_t> v;
    for (const char* name : names)
    {
        v.push_back(topology.FindNode(name));
    }
    return v;
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

    /// A job of P installed by its TypeId's name.
    TypedJobRun(Ptr<InaFabric> fabric, const Spec& spec)
        : TypedJobRun(fabric, P::GetTypeId().GetName(), spec)
    {
    }

    /// A switch program's reason summed over the job's switches (protocols with GetSwitches()).
    template<typename R>
    uint64_t Reason(R r) const
    {
        uint64_t s = 0;
        for (const auto& e : protocol->GetSwitches())
        {
            s += e.program->GetReasonCount(r);
        }
        return s;
    }

    /// A switch program's reason at switch `node` (0 if the job has no program there).
    template<typename R>
    uint64_t ReasonAt(uint32_t node, R r) const
    {
        for (const auto& e : protocol->GetSwitches())
        {
            if (e.node == node)
            {
                return e.program->GetReasonCount(r);
            }
        }
        return 0;
    }

    /// One of the protocol's named counters (protocols with GetCounters()).
    double Counter(const std::string& name) const
    {
        return protocol->GetCounters().at(name);
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

/// What a test asks of one job: tensors of 100 kB unless it says otherwise.
struct SmallJobSpec : AllReduceRunner::Spec
{
    SmallJobSpec()
    {
        tensorBytes = {100000};
    }
};

/// `workers` workers (hosts 0 .. workers - 1) and their parameter server (host `workers`) on a
/// star of workers + 1 hosts: one tensor of `fragments` full fragments of 62 int32.
inline SmallJobSpec
OneRack(uint32_t workers, uint32_t fragments)
{
    SmallJobSpec spec;
    spec.hosts = Range(0, workers);
    spec.ps = {workers};
    spec.tensorBytes = {248ULL * fragments};
    return spec;
}

/// What constructing the job run `Run` of `spec` on `fabric` threw, or "": the set-up refusals.
template<typename Run, typename Spec>
std::string
InstallError(Ptr<InaFabric> fabric, const Spec& spec)
{
    return ErrorOf([&] {
        Run run(fabric, spec);
    });
}

/**
 * Runs a suite's jobs until every job is done or a limit of simulated time: the suite's own
 * (how long its usual job may take) unless a test names another. A suite declares one,
 * `const JobsRunner RunJobs(2);`, and calls `RunJobs({&a, &b})`.
 */
class JobsRunner
{
  public:
    /// `limitSeconds`: the suite's limit, in simulated seconds.
    explicit JobsRunner(double limitSeconds)
        : m_limitSeconds(limitSeconds)
    {
    }

    void operator()(const std::vector<AllReduceRunner*>& jobs) const
    {
        AllReduceRunner::RunAll(jobs, Seconds(m_limitSeconds));
    }

    void operator()(const std::vector<AllReduceRunner*>& jobs, Time limit) const
    {
        AllReduceRunner::RunAll(jobs, limit);
    }

    /// A test's own list of runs of one type.
    template<typename Run>
    void operator()(const std::vector<Run*>& jobs) const
    {
        (*this)({jobs.begin(), jobs.end()});
    }

    template<typename Run>
    void operator()(const std::vector<Run*>& jobs, Time limit) const
    {
        (*this)({jobs.begin(), jobs.end()}, limit);
    }

  private:
    double m_limitSeconds;
};

/**
 * Takes the place of the sink bound at a host's endpoint (a worker's agent, a parameter server)
 * and hands it every packet Pass() lets through; a packet Pass() stops is freed, as a loss on the
 * last hop. Suites drop or observe chosen packets with it.
 */
class EndpointTap : public InaPacketSink
{
  public:
    template<typename S>
    EndpointTap(Ptr<InaHost> host, uint16_t endpoint, Ptr<S> sink)
        : m_pool(&host->GetPool())
        , m_keep(sink)
        , m_sink(PeekPointer(sink))
    {
        host->Unbind(endpoint);
        host->Bind(endpoint, this);
    }

    void Receive(InaPacket* p, uint32_t port) final
    {
        if (!Pass(p))
        {
            m_pool->Free(p);
            return;
        }
        m_sink->Receive(p, port);
    }

  protected:
    /// \return false to drop `p`
    virtual bool Pass(const InaPacket* p) = 0;

  private:
    InaPacketPool* m_pool;
    Ptr<Object> m_keep;
    InaPacketSink* m_sink;
};

} // namespace tests
} // namespace ns3

#endif /* PROTOCOL_TEST_FABRIC_H */
