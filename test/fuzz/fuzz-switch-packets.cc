/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Fuzz target: garbage packets arriving at a switch that runs an in-network protocol's program
// while two jobs of that protocol use it. Every protocol's header is a plain struct the switch
// reads straight from InaPacket::hdr, so the switch program's packet handling is its header's
// deserializer: this target feeds it arbitrary header bytes, packet fields and payload lengths.
//
// The first byte picks the protocol (switchml, atp, esa, grid, libra, geryon, switchml-ps); every
// following RECORD_BYTES bytes are one packet that a hostile host (the star's last host) puts on
// its link at a time the record names. Two jobs of the protocol run one all-reduce each with
// checked values: the victim (job 1, hosts 0-2) and the other (job 2, hosts 3-5). The garbage may
// claim any job but the victim, any protocol number, any destination; it may not claim one of the
// victim's host endpoints, which would be spoofing the victim's own traffic, not garbage at a
// switch.
//
// The contract: no crash, no sanitizer report, no exception out of the simulation (a switch
// program breaking the pipeline's rules throws PipelineViolation), and the victim completes with
// every value exact: garbage naming another job must not touch the victim's switch state.

#include "fuzz-input.h"

#include "ns3/aggregation-protocol-registry.h"
#include "ns3/aggregation-protocol.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-protocol-numbers.h"
#include "ns3/libra-header.h"
#include "ns3/model-zoo.h"
#include "ns3/object-factory.h"
#include "ns3/pool-header.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/training-job.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{

using Attrs = std::vector<std::pair<std::string, std::string>>;

/// A protocol under test: its scenario name and the job params it needs beyond the defaults.
struct ProtocolCase
{
    const char* name;
    Attrs attrs;
};

/// Protocols()'s cases, made once (the function is called several times per input).
std::array<ProtocolCase, 7>
MakeProtocols()
{
    // Small pools: the two jobs meet in them (collisions, preemption) and an execution does not
    // spend its time zeroing 20,000 aggregators. Libra needs a sparse workload; a small one. Its
    // switch memory too: MemoryShare 0.0005 of the 20 MiB gives 163 cells per register (room for
    // eight jobs of 300 hot keys) instead of the default 0.05's 16,384, which every execution
    // allocated and zeroed (2 MB). Every register and table is still there, and a garbage rank
    // is checked against its job's own cells, not the array's size, so no path is lost.
    const Attrs pool{{"PoolSize", "64"},
                     {"MinWindow", "4"},
                     {"InitialWindow", "16"},
                     {"MaxWindow", "16"}};
    const Attrs libra{{"Workload", "custom"},
                      {"Rows", "20000"},
                      {"Exponent", "1.0"},
                      {"AccessesPerIteration", "200"},
                      {"HotKeys", "300"},
                      {"MemoryShare", "0.0005"}};
    return {{{"switchml", {{"PoolSize", "8"}, {"SwitchPoolSize", "32"}}},
             {"atp", pool},
             {"esa", pool},
             {"grid", pool},
             {"libra", libra},
             {"geryon", pool},
             {"switchml-ps", pool}}};
}

const std::array<ProtocolCase, 7>&
Protocols()
{
    static const std::array<ProtocolCase, 7> cases = MakeProtocols();
    return cases;
}

/**
 * The factory of Protocols()[index], its attributes parsed from their strings: made on the first
 * input that picks the case, then reused by every later one. Safe to keep across inputs: nothing
 * in it comes from an input (the name and the strings are constants), ObjectFactory::Create is
 * const, and every Create constructs a new protocol object from copies of the stored values (the
 * attributes are numbers and strings, no PointerValue that would share an object), so what one
 * input does to its protocol cannot reach the next. It saves ns-3's lookup of every attribute by
 * name and the parse of its string, per job of every input.
 */
const ObjectFactory&
Factory(size_t index)
{
    static std::array<std::optional<ObjectFactory>, 7> factories;
    std::optional<ObjectFactory>& f = factories.at(index);
    if (!f)
    {
        const ProtocolCase& pc = Protocols().at(index);
        f.emplace(AggregationProtocolRegistry::Lookup(pc.name));
        for (const auto& [name, value] : pc.attrs)
        {
            f->Set(name, StringValue(value));
        }
    }
    return *f;
}

/// Every packet number a switch program answers to, and plain forwarding.
constexpr std::array<uint16_t, 6> PROTOCOL_NUMBERS{
    {SWITCHML_PROTOCOL, ATP_PROTOCOL, ESA_PROTOCOL, GRID_PROTOCOL, LIBRA_PROTOCOL, 0}};

constexpr uint32_t VICTIM = 1;
constexpr uint32_t OTHER = 2;
constexpr uint32_t HOSTS = 7; // victim 0, 1 (PS 2); other 3, 4 (PS 5); the hostile host 6
constexpr uint32_t HOSTILE = 6;
/// One garbage packet: 32 bytes of packet fields (offsets in MakePacket; make-switch-packet-
/// seeds.py writes the same layout), then the 64-byte header area, copied as it is.
constexpr size_t RECORD_BYTES = 96;
constexpr size_t MAX_PACKETS = 32;
constexpr uint64_t TENSOR_BYTES = 4096;

/// Reads little-endian fields from one record.
class Record
{
  public:
    explicit Record(const uint8_t* data)
        : m_data(data)
    {
    }

    template<typename T>
    T Get(size_t offset) const
    {
        T v;
        std::memcpy(&v, m_data + offset, sizeof(T));
        return v;
    }

    const uint8_t* Bytes(size_t offset) const
    {
        return m_data + offset;
    }

  private:
    const uint8_t* m_data;
};

/// The victim's host endpoints (SwitchML, the pool protocols, Libra) and the transports' range.
bool
IsVictimEndpoint(uint16_t port)
{
    return port == SWITCHML_ENDPOINT_BASE + VICTIM || port == POOL_ENDPOINT_BASE + VICTIM ||
           port == LIBRA_ENDPOINT_BASE + VICTIM || port >= 1024;
}

/// One garbage packet from a record: every field the record's bytes say, within the rules above.
InaPacket*
MakePacket(InaPacketPool& pool, const Record& r, uint16_t programProtocol, uint32_t nNodes)
{
    InaPacket* p = pool.Alloc();
    const uint8_t protoSel = r.Get<uint8_t>(2);
    p->protocol = protoSel < 160   ? programProtocol
                  : protoSel < 240 ? PROTOCOL_NUMBERS[protoSel % PROTOCOL_NUMBERS.size()]
                                   : r.Get<uint16_t>(30);
    const uint8_t dstSel = r.Get<uint8_t>(3);
    if (dstSel < 128)
    {
        p->dst = dstSel % nNodes; // a host or a switch
    }
    else if (dstSel < 224)
    {
        p->dst = INA_MULTICAST_BIT | (dstSel % 16); // the groups the jobs created, and others
    }
    else
    {
        p->dst = r.Get<uint32_t>(4);
    }
    p->jobId = r.Get<uint32_t>(8);
    if (p->jobId == VICTIM)
    {
        p->jobId = OTHER;
    }
    p->srcPort = r.Get<uint16_t>(12);
    p->dstPort = r.Get<uint16_t>(14);
    if (IsVictimEndpoint(p->dstPort))
    {
        p->dstPort &= 0x3f;
    }
    p->src = r.Get<uint8_t>(16) % (nNodes + 1);
    p->priority = r.Get<uint8_t>(17);
    p->ecn = r.Get<uint8_t>(18) & 3;
    p->wireBytes = 60 + r.Get<uint16_t>(20) % 1441; // within the 1500-B MTU, so it is sent
    p->flowId = r.Get<uint32_t>(22);
    p->seq = r.Get<uint32_t>(26);
    std::memcpy(p->hdr, r.Bytes(RECORD_BYTES - InaPacket::HDR_BYTES), InaPacket::HDR_BYTES);
    if (p->protocol == ATP_PROTOCOL || p->protocol == ESA_PROTOCOL || p->protocol == GRID_PROTOCOL)
    {
        // The pool header names its job too (the aggregator's key).
        PoolHeader* h = p->Header<PoolHeader>();
        if ((h->jobIdAndSeq >> 16) == VICTIM)
        {
            h->jobIdAndSeq = PoolHeader::Key(OTHER, h->jobIdAndSeq);
        }
    }
    // A payload of any length, or none: the values the header's element count may disagree with.
    const uint8_t valueSel = r.Get<uint8_t>(19);
    if (valueSel >= 64)
    {
        const uint32_t words = valueSel - 64;
        p->values = pool.AllocValues(words);
        for (uint32_t i = 0; i < words; ++i)
        {
            p->values->words[i] = r.Get<uint32_t>(4 * (i % 8)) * (i + 1);
        }
    }
    return p;
}

/// Job `jobId` of the protocol case `index` on `fabric`: two workers from host `first`, its PS the
/// next host.
Ptr<TrainingJob>
MakeJob(Ptr<InaFabric> fabric, size_t index, uint32_t jobId, uint32_t first)
{
    const ProtocolCase& pc = Protocols()[index];
    JobContext ctx;
    ctx.fabric = fabric;
    ctx.jobId = jobId;
    ctx.name = std::string(pc.name) + "-" + std::to_string(jobId);
    ctx.workerHosts = {first, first + 1};
    ctx.psHosts = {first + 2};
    ctx.inaTiers = {"tor"};
    ctx.seed = 100 + jobId;
    ctx.checkValues = true;
    ctx.flowIdBase = (jobId + 1) * JobContext::FLOW_IDS_PER_JOB;
    // The workload is a constant value, made once; Setup reads it (a const reference) and keeps
    // its own copy of what it needs.
    static const ModelSpec workload = ModelZoo::TensorWorkload(TENSOR_BYTES);
    Ptr<TrainingJob> job = CreateObject<TrainingJob>();
    job->SetAttribute("Iterations", UintegerValue(1));
    job->Setup(ctx, workload, Factory(index).Create<AggregationProtocol>());
    return job;
}

void
SendGarbage(Ptr<InaFabric> fabric, InaPacket* p)
{
    fabric->GetHost(HOSTILE)->GetPort()->Send(p, 0);
}

[[noreturn]] void
Harmed(const char* protocol, const std::string& what)
{
    std::fprintf(stderr,
                 "inasim-fuzz: %s: garbage naming other jobs harmed the victim job: %s\n",
                 protocol,
                 what.c_str());
    std::abort();
}

} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 1)
    {
        return 0;
    }
    InaFabricHelper::ConfigureSimulator();
    const size_t index = data[0] % Protocols().size();
    const ProtocolCase& pc = Protocols()[index];
    if (!AggregationProtocolRegistry::Has(pc.name))
    {
        return 0; // grid, geryon and switchml-ps need the grid module (lp_solve)
    }
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    // A constant topology, made once: Build takes it by const reference and the fabric keeps a
    // copy of its own (InaFabric::SetTopology), so no input's fabric shares it.
    static const InaTopology star = InaTopology::Star(HOSTS, {100000000000ULL, 1000000});
    Ptr<InaFabric> fabric = helper.Build(star);
    Ptr<TrainingJob> victim = MakeJob(fabric, index, VICTIM, 0);
    Ptr<TrainingJob> other = MakeJob(fabric, index, OTHER, 3);
    const uint16_t programProtocol = [&pc]() {
        const std::string n = pc.name;
        return n == "switchml" ? SWITCHML_PROTOCOL
               : n == "atp"    ? ATP_PROTOCOL
               : n == "esa"    ? ESA_PROTOCOL
               : n == "libra"  ? LIBRA_PROTOCOL
                               : GRID_PROTOCOL; // grid, and geryon and switchml-ps on its plane
    }();
    const uint32_t nNodes = fabric->GetTopology().GetNNodes();
    const size_t packets = std::min((size - 1) / RECORD_BYTES, MAX_PACKETS);
    for (size_t i = 0; i < packets; ++i)
    {
        const Record r(data + 1 + i * RECORD_BYTES);
        InaPacket* p = MakePacket(fabric->GetPool(), r, programProtocol, nNodes);
        // Within the jobs' first 65 us: before, during and after their one all-reduce.
        Simulator::Schedule(PicoSeconds(int64_t{r.Get<uint16_t>(0)} * 1000),
                            &SendGarbage,
                            fabric,
                            p);
    }
    victim->Start();
    other->Start();
    Simulator::Stop(Seconds(2));
    try
    {
        Simulator::Run();
    }
    catch (const std::exception& e)
    {
        inasim_fuzz::Undocumented(e);
    }
    if (!victim->IsCompleted())
    {
        Harmed(pc.name,
               victim->HasGivenUp() ? "it gave up: " + victim->GetGiveUpReason()
                                    : std::string("it did not complete"));
    }
    if (victim->GetValueErrors() != 0 || victim->GetValuesChecked() == 0)
    {
        Harmed(pc.name,
               std::to_string(victim->GetValueErrors()) + " of " +
                   std::to_string(victim->GetValuesChecked()) + " values wrong");
    }
    // Each job disposes its protocol, which breaks the protocol<->agent cycle: without that every
    // execution leaked a whole fabric, 1.5 MB, and libFuzzer's RSS limit ended the run after
    // about a thousand executions.
    victim->Dispose();
    other->Dispose();
    fabric->Dispose();
    Simulator::Destroy();
    return 0;
}
