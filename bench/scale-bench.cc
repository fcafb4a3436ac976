/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// `./inasim bench scale`: how the cost of a packet-hop, the memory and the set-up time grow with
// the fabric. The same traffic per host (a permutation of paced 1500-B packets at line rate, eight
// ECMP sub-flows per pair) runs on k-ary fat-trees of growing k, each size in a child process of
// its own so its peak RSS is its own. The ratios to the smallest k are what to read on a noisy
// machine: every size runs in the same invocation. Prints one flat JSON object (docs/driver.md).

#include "bench-main.h"
#include "bench-permutation-traffic.h"
#include "bench-process.h"

#include "ns3/core-module.h"
#include "ns3/ina-fabric-helper.h"

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

struct Result
{
    uint32_t k = 0;
    uint32_t hosts = 0;
    uint64_t hops = 0;
    uint64_t events = 0;
    double setupS = 0;
    double runS = 0;
    double runCpuS = 0; //!< CPU time of Simulator::Run() (user + system)
    uint64_t peakRss = 0;
};

/// CPU time this process has used so far (user + system), in seconds.
double
CpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// One size, in this process: build, send, run, measure.
Result
RunSize(uint32_t k, uint64_t hopBudget, bool run)
{
    Result r;
    r.k = k;
    auto t0 = std::chrono::steady_clock::now();
    InaTopology::LinkSpec link{100000000000ULL, 1000000};
    InaFabricHelper helper;
    helper.SetQueue(1000000, 0);
    helper.SetEcmpSeed(1);
    helper.SetProgress([&](const std::string& step) {
        std::fprintf(stderr,
                     "scale-bench: k=%u set-up: %s (%.2f s)\n",
                     k,
                     step.c_str(),
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    });
    InaTopology topology = InaTopology::FatTree(k, link, link);
    Ptr<InaFabric> fabric = helper.Build(topology);
    const uint32_t n = fabric->GetNHosts();
    r.hosts = n;
    // A fixed derangement: host i sends to perm[i] != i (a random shuffle, then fixed points
    // swapped with their successor), so most pairs cross the core.
    std::vector<uint32_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::mt19937 rng(12345);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (perm[i] == i)
        {
            std::swap(perm[i], perm[(i + 1) % n]);
        }
    }
    // About six hops per packet on a fat-tree permutation: the same total work at every size.
    const uint64_t packetsPerHost = std::max<uint64_t>(50, hopBudget / (6ULL * n));
    auto traffic = std::make_unique<BenchPermutationTraffic>(*fabric, perm, packetsPerHost);
    auto t1 = std::chrono::steady_clock::now();
    const uint64_t events0 = Simulator::GetEventCount();
    if (!run)
    {
        // Set-up alone: what a fabric of this size costs before the first packet.
        r.setupS = std::chrono::duration<double>(t1 - t0).count();
        r.peakRss = BenchPeakRssBytes();
        traffic.reset();
        Simulator::Destroy();
        return r;
    }
    const double cpu0 = CpuSeconds();
    Simulator::Run();
    r.runCpuS = CpuSeconds() - cpu0;
    auto t2 = std::chrono::steady_clock::now();
    r.hops = fabric->GetPacketHops();
    r.events = Simulator::GetEventCount() - events0;
    r.setupS = std::chrono::duration<double>(t1 - t0).count();
    r.runS = std::chrono::duration<double>(t2 - t1).count();
    traffic.reset();
    Simulator::Destroy();
    r.peakRss = BenchPeakRssBytes();
    return r;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string sizes = "4,8,16,24";
    uint64_t hops = 20000000;
    bool inChild = true;
    bool run = true;
    CommandLine cmd = BenchCommandLine(
        __FILE__,
        "Scaling benchmark: the same permutation per host on fat-trees of growing k; cost "
        "per packet-hop, peak RSS and set-up time per size, and their ratios to the first.");
    cmd.AddValue("k", "comma-separated fat-tree sizes, smallest first", sizes);
    cmd.AddValue("hops", "packet-hops to simulate at every size (about)", hops);
    cmd.AddValue("fork",
                 "run each size in a child process (false: in this one, for profilers)",
                 inChild);
    cmd.AddValue("run",
                 "simulate the traffic (false: build each fabric and its senders only, and report "
                 "set-up time and peak RSS)",
                 run);
    cmd.Parse(argc, argv);

    std::vector<uint32_t> ks;
    std::stringstream ss(sizes);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        char* end = nullptr;
        unsigned long k = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || k < 4 || k % 2 != 0 || k > 64)
        {
            std::fprintf(stderr,
                         "scale-bench: --k: '%s' is not an even fat-tree size from 4 to 64\n",
                         item.c_str());
            return 1;
        }
        ks.push_back(static_cast<uint32_t>(k));
    }
    if (ks.empty())
    {
        std::fprintf(stderr, "scale-bench: --k names no size\n");
        return 1;
    }

    std::vector<Result> results;
    for (uint32_t k : ks)
    {
        Result r = inChild ? BenchRunInChild<Result>(
                                 [&] {
                                     return RunSize(k, hops, run);
                                 },
                                 "scale-bench: the run for k=" + std::to_string(k))
                           : RunSize(k, hops, run);
        if (!run)
        {
            std::fprintf(stderr,
                         "scale-bench: k=%u: %u hosts, set-up %.2f s, peak RSS %.0f MB\n",
                         k,
                         r.hosts,
                         r.setupS,
                         r.peakRss / 1e6);
            results.push_back(r);
            continue;
        }
        std::fprintf(stderr,
                     "scale-bench: k=%u: %u hosts, %" PRIu64 " hops in %.2f s (%.0f ns/hop; CPU "
                     "%.0f ns/hop), set-up %.2f s, peak RSS %.0f MB\n",
                     k,
                     r.hosts,
                     r.hops,
                     r.runS,
                     1e9 * r.runS / r.hops,
                     1e9 * r.runCpuS / r.hops,
                     r.setupS,
                     r.peakRss / 1e6);
        results.push_back(r);
    }

    std::string out = "{";
    char buf[512];
    const Result& base = results.front();
    for (const Result& r : results)
    {
        if (!run)
        {
            std::snprintf(buf,
                          sizeof buf,
                          "\"scale.k%u.hosts\": %u, \"scale.k%u.setup_s\": %.3f, "
                          "\"scale.k%u.peak_rss_mb\": %.1f, ",
                          r.k,
                          r.hosts,
                          r.k,
                          r.setupS,
                          r.k,
                          r.peakRss / 1e6);
            out += buf;
            continue;
        }
        const double nsPerHop = 1e9 * r.runS / r.hops;
        const double baseNs = 1e9 * base.runS / base.hops;
        const double cpuNsPerHop = 1e9 * r.runCpuS / r.hops;
        const double baseCpuNs = 1e9 * base.runCpuS / base.hops;
        std::snprintf(buf,
                      sizeof buf,
                      "\"scale.k%u.hosts\": %u, \"scale.k%u.hops\": %" PRIu64
                      ", \"scale.k%u.ns_per_hop\": %.1f, \"scale.k%u.cpu_ns_per_hop\": %.1f, "
                      "\"scale.k%u.setup_s\": %.3f, \"scale.k%u.peak_rss_mb\": %.1f, ",
                      r.k,
                      r.hosts,
                      r.k,
                      r.hops,
                      r.k,
                      nsPerHop,
                      r.k,
                      cpuNsPerHop,
                      r.k,
                      r.setupS,
                      r.k,
                      r.peakRss / 1e6);
        out += buf;
        if (&r != &base)
        {
            std::snprintf(buf,
                          sizeof buf,
                          "\"scale.ratio.ns_per_hop_k%u_over_k%u\": %.3f, "
                          "\"scale.ratio.cpu_ns_per_hop_k%u_over_k%u\": %.3f, "
                          "\"scale.ratio.setup_per_host_k%u_over_k%u\": %.3f, ",
                          r.k,
                          base.k,
                          nsPerHop / baseNs,
                          r.k,
                          base.k,
                          cpuNsPerHop / baseCpuNs,
                          r.k,
                          base.k,
                          (r.setupS / r.hosts) / (base.setupS / base.hosts));
            out += buf;
        }
    }
    out.resize(out.size() - 2);
    out += "}";
    std::printf("%s\n", out.c_str());
    return 0;
}
