/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libra-layout: the pure logic under Libra (Pan et al., sparse in-network aggregation; inasim
// spec A.3-A.7, A.13 and Part D items 3-5), checked against the paper's and the spec's numbers.
//
//   libra-layout --report=skew        top-30K/60K update shares of OA-like and SE-like Zipf laws
//   libra-layout --report=layout      collisions and recirculations per packet (heat layout +
//                                     Algorithm 1 vs random layout + sequential packing)
//   libra-layout --report=precision   Table 2: precision of the LNS float add
//   libra-layout --report=resources   switch memory account and pipeline fit (m_max)
//   libra-layout --report=hotset      Fig. 15: precision of a hot set found on a 4 % / 8 % sample
//   libra-layout --report=all         all of them (the default)
//
// Each report is a CSV block; lines starting with '#' describe the set-up and the numbers to
// compare with. Deterministic for a given --seed. Exit status: 0 done, 2 bad input (message on
// stderr).

#include "ns3/libra-layout.h"

#include "ns3/command-line.h"
#include "ns3/libra-hot-set.h"
#include "ns3/libra-lns-adder.h"
#include "ns3/libra-resources.h"
#include "ns3/pipeline-resources.h"
#include "ns3/sparse-workload.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

using namespace ns3;

namespace
{

/// A Zipf law standing for one of the paper's two production models (spec A.13).
struct ZipfModel
{
    const char* name;  //!< short name
    uint32_t rows;     //!< parameters
    double exponent;   //!< Zipf s
    double spec30k;    //!< spec A.13's top-30K share
    double spec60k;    //!< spec A.13's top-60K share
    double paperGain;  //!< the paper's relative gain from 30K to 60K hot keys (Fig. 13)
    const char* label; //!< what it stands for
};

const ZipfModel kOa = {"oa", 150000000, 0.975, 0.500, 0.537, 0.07, "online advertising (OA)"};
const ZipfModel kSe = {"se", 9000000, 1.024, 0.700, 0.739, 0.017, "search engine (SE)"};

int
ReportSkew(uint64_t seed)
{
    const uint32_t workers = 16;
    const uint32_t iterations = 20;
    const uint32_t accesses = 10000;
    std::printf("# skew: share of all updates taken by the k hottest parameters (spec A.13; paper "
                "Fig. 5: OA top 30K > 50 %%, SE top 30K about 70 %%)\n");
    std::printf("# exact = H(k, s) / H(n, s) of the Zipf law; measured on a SparseWorkload trace "
                "of %u workers x %u iterations x %u accesses (seed %llu): access_share counts "
                "every draw, update_share counts a row once per push (how the PS counts "
                "updates)\n",
                workers,
                iterations,
                accesses,
                static_cast<unsigned long long>(seed));
    std::printf("workload,rows,exponent,k,exact_share,access_share,update_share,spec_share\n");
    for (const ZipfModel& z : {kOa, kSe})
    {
        const SparseWorkload w(z.rows, 1, accesses, z.exponent, seed);
        for (uint32_t k : {30000U, 60000U})
        {
            std::printf("%s,%u,%.3f,%u,%.4f,%.4f,%.4f,%.3f\n",
                        z.name,
                        z.rows,
                        z.exponent,
                        k,
                        w.ExpectedTopShare(k),
                        w.MeasuredTopShare(k, workers, iterations),
                        w.MeasuredUpdateTopShare(k, workers, iterations),
                        k == 30000 ? z.spec30k : z.spec60k);
        }
    }
    for (const ZipfModel& z : {kOa, kSe})
    {
        const SparseWorkload w(z.rows, 1, accesses, z.exponent, seed);
        std::printf("# %s: doubling the hot set from 30K to 60K adds %.1f %% (relative) of the "
                    "updates; spec A.13 %.1f %%, paper (Fig. 13 throughput) %.1f %%\n",
                    z.name,
                    100 * (w.ExpectedTopShare(60000) / w.ExpectedTopShare(30000) - 1),
                    100 * (z.spec60k / z.spec30k - 1),
                    100 * z.paperGain);
    }
    return 0;
}

/**
 * One push: the first `distinct` distinct ranks drawn by (worker 0, iteration) from the workload,
 * of which those below `hot` are kept (the hot part of the push).
 */
std::vector<uint32_t>
HotPush(const SparseWorkload& w, uint32_t iteration, uint32_t distinct, uint32_t hot)
{
    std::unordered_set<uint32_t> seen;
    seen.reserve(2 * distinct);
    std::vector<uint32_t> ranks;
    for (uint32_t row : w.AccessesForIteration(0, iteration))
    {
        const uint32_t r = w.RankOfRow(row);
        if (seen.insert(r).second)
        {
            if (r < hot)
            {
                ranks.push_back(r);
            }
            if (seen.size() == distinct)
            {
                return ranks;
            }
        }
    }
    throw std::runtime_error("layout report: " + std::to_string(w.GetAccessesPerIteration()) +
                             " draws gave fewer than " + std::to_string(distinct) +
                             " distinct keys; raise the accesses per push");
}

int
ReportLayout(uint64_t seed, uint32_t pushes)
{
    const uint32_t hotKeys = 30000;
    const uint32_t distinct = 3000;
    const uint32_t accesses = 20000;

    struct Workload
    {
        const char* name;
        uint32_t rows;
        double exponent;
    };

    const Workload workloads[] = {{"spec", hotKeys, 1.0},
                                  {kOa.name, kOa.rows, kOa.exponent},
                                  {kSe.name, kSe.rows, kSe.exponent}};

    struct Setting
    {
        uint32_t m;
        uint32_t cap;
        const char* specHeat;
        const char* specRandom;
    };

    const Setting settings[] = {{16, 16, "0.23", "5.7"},
                                {32, 16, "0", "3.3"},
                                {8, 17, "3.4", "9.8"}};

    struct Variant
    {
        LibraLayout::Placement placement;
        LibraLayout::Packing packing;
    };

    const Variant variants[] = {
        {LibraLayout::Placement::HEAT, LibraLayout::Packing::ALGORITHM1},
        {LibraLayout::Placement::RANDOM, LibraLayout::Packing::SEQUENTIAL},
        {LibraLayout::Placement::HEAT, LibraLayout::Packing::SEQUENTIAL},
        {LibraLayout::Placement::RANDOM, LibraLayout::Packing::ALGORITHM1},
    };

    std::printf("# layout: K = %u hot keys; a push is the first %u distinct keys drawn from "
                "Zipf(s) over the workload's rows (SparseWorkload, worker 0, iterations 0..%u, "
                "seed %llu), of which the hot ones (rank < K) are packed; spec = the spec A.13 "
                "check (rows = K, s = 1: every key hot), oa/se = the OA-like/SE-like laws\n",
                hotKeys,
                distinct,
                pushes - 1,
                static_cast<unsigned long long>(seed));
    std::printf("# collisions = pairs whose register already occurs earlier in the packet; "
                "recirculations = passes needed - 1 without a cap (spec A.6.3); fallback_cap1 = "
                "share of pairs sent to the PS under the paper's cap of one recirculation; random "
                "placement seed %llu\n",
                static_cast<unsigned long long>(seed));
    std::printf("# spec_collisions: spec A.13's Python run (heat layout + Algorithm 1, and random "
                "layout + sequential packing); its 3.4 for m = 8, cap = 17 is Algorithm 1 run with "
                "cap > m, which LibraLayout refuses (doc/libra.rst)\n");
    std::printf("workload,m,cap,placement,packing,packets_per_push,pairs_per_push,"
                "collisions_per_packet,recirculations_per_packet,leftovers_per_push,"
                "fallback_cap1,spec_collisions\n");
    for (const Workload& wl : workloads)
    {
        const SparseWorkload w(wl.rows, 1, accesses, wl.exponent, seed);
        std::vector<std::vector<uint32_t>> push;
        for (uint32_t i = 0; i < pushes; ++i)
        {
            push.push_back(HotPush(w, i, distinct, hotKeys));
        }
        for (const Setting& s : settings)
        {
            for (const Variant& v : variants)
            {
                LibraLayout::Config c;
                c.hotKeys = hotKeys;
                c.registers = s.m;
                c.pairsPerPacket = s.cap;
                c.placement = v.placement;
                c.packing = v.packing;
                c.seed = seed;
                const bool ours = v.placement == LibraLayout::Placement::HEAT &&
                                  v.packing == LibraLayout::Packing::ALGORITHM1;
                const bool baseline = v.placement == LibraLayout::Placement::RANDOM &&
                                      v.packing == LibraLayout::Packing::SEQUENTIAL;
                const char* spec = wl.name != std::string("spec")
                                       ? ""
                                       : (ours ? s.specHeat : (baseline ? s.specRandom : ""));
                std::printf("%s,%u,%u,%s,%s,",
                            wl.name,
                            s.m,
                            s.cap,
                            LibraLayout::PlacementName(v.placement).c_str(),
                            LibraLayout::PackingName(v.packing).c_str());
                try
                {
                    const LibraLayout layout(c);
                    LibraPacking packing;
                    LibraPushStats unlimited;
                    LibraPushStats capped;
                    for (const auto& p : push)
                    {
                        layout.Pack(p, packing);
                        layout.AnalysePacking(p.data(),
                                              packing,
                                              LibraLayout::UNLIMITED_RECIRCULATIONS,
                                              unlimited);
                        layout.AnalysePacking(p.data(),
                                              packing,
                                              LibraLayout::DEFAULT_MAX_RECIRCULATIONS,
                                              capped);
                    }
                    std::printf("%.1f,%.1f,%.3f,%.3f,%.1f,%.4f,%s\n",
                                static_cast<double>(unlimited.packets) / pushes,
                                static_cast<double>(unlimited.pairs) / pushes,
                                unlimited.GetCollisionsPerPacket(),
                                unlimited.GetRecirculationsPerPacket(),
                                static_cast<double>(unlimited.leftovers) / pushes,
                                capped.GetFallbackShare(),
                                spec);
                }
                catch (const std::invalid_argument& e)
                {
                    std::printf("refused,,,,,,%s\n", spec);
                    std::printf("# refused: %s\n", e.what());
                }
            }
        }
    }
    return 0;
}

int
ReportPrecision(uint64_t seed, uint32_t pairs)
{
    const LibraLnsAdder adder(LibraLnsAdder::Mode::LNS_APPROX);
    std::printf("# precision: Table 2 (table lookup, R2 = random floats); LNS_APPROX with Q8.7 log "
                "values, %u pairs per data set, operands odd multiples of 2^-24 (seed %llu); "
                "precision = 1 - min(1, |approx - exact| / |exact|)\n",
                pairs,
                static_cast<unsigned long long>(seed));
    std::printf("# paper Table 2 table lookup on R2 = U(-1, 1): median 100 %%, average 99.84 %%; "
                "spec A.7 emulation on positive U(0, 1): median 99.854 %%, average 99.836 %%, "
                "min 99.46 %%\n");
    std::printf("dataset,pairs,median_pct,average_pct,min_pct,pairs_below_50pct,"
                "opposite_sign_pairs,paper_median_pct,paper_average_pct,spec_average_pct\n");
    const LibraLnsAdder::PrecisionStats pos = adder.MeasurePrecision(pairs, false, seed);
    const LibraLnsAdder::PrecisionStats sgn = adder.MeasurePrecision(pairs, true, seed);
    std::printf("U(0;1),%u,%.3f,%.3f,%.3f,%u,%u,,,99.836\n",
                pos.pairs,
                100 * pos.median,
                100 * pos.average,
                100 * pos.minimum,
                pos.belowHalf,
                pos.oppositeSigns);
    std::printf("U(-1;1),%u,%.3f,%.3f,%.3f,%u,%u,100,99.84,\n",
                sgn.pairs,
                100 * sgn.median,
                100 * sgn.average,
                100 * sgn.minimum,
                sgn.belowHalf,
                sgn.oppositeSigns);
    std::printf("# U(-1;1): pairs of opposite signs go through log2(1 - 2^d), whose error relative "
                "to the result grows as the operands cancel (doc/libra.rst); the paper does not "
                "say how it handles signs\n");
    return 0;
}

int
ReportResources()
{
    const LibraMemoryAccount a = LibraResources::Account(30000, true);
    const double kib = 1024.0;
    std::printf("# resources: Libra's switch memory for K = 30,000 hot keys (paper Sec. 5.7, spec "
                "Part D item 3); KiB = 1024 B, and the paper's KB and MB are binary (656.5 KB / "
                "20 MB = 3.21 %%)\n");
    std::printf("item,bytes,kib,paper_kb\n");
    std::printf("hot registers (30000 x 4 B),%llu,%.2f,%.1f\n",
                static_cast<unsigned long long>(a.registerBytes),
                a.registerBytes / kib,
                LibraResources::PAPER_REGISTER_KIB);
    std::printf("float tables (7; 2-B entries),%llu,%.2f,408.5\n",
                static_cast<unsigned long long>(a.floatTableBytes),
                a.floatTableBytes / kib);
    std::printf("control logic (the paper's figure),%llu,%.2f,130.0\n",
                static_cast<unsigned long long>(a.controlLogicBytes),
                a.controlLogicBytes / kib);
    std::printf("total,%llu,%.2f,%.1f\n",
                static_cast<unsigned long long>(a.GetTotalBytes()),
                a.GetTotalBytes() / kib,
                LibraResources::PAPER_TOTAL_KIB);
    std::printf("share of 20 MiB (%%),,%.2f,3.21\n", 100 * a.GetShare());
    std::printf("# the paper rounds the registers up to 118 KB: 118 + 408.5 + 130 = 656.5 KB = "
                "%.2f %% of 20 MB; the exact 117.19 KiB give %.2f KiB = %.2f %%\n",
                100 * LibraResources::PAPER_TOTAL_KIB * kib / a.switchSramBytes,
                a.GetTotalBytes() / kib,
                100 * a.GetShare());
    std::printf("# float tables (LibraLnsAdder::GetTableSpecs), sum of entries x value bytes:\n");
    std::printf("table,key_bits,entries,value_bytes,bytes,lookup_depth\n");
    for (const auto& t : LibraLnsAdder::GetTableSpecs())
    {
        std::printf("%s,%u,%u,%u,%u,%u\n",
                    t.name.c_str(),
                    t.keyBits,
                    t.entries,
                    t.valueBytes,
                    t.entries * t.valueBytes,
                    t.depth);
    }

    const PipelineLimits limits;
    std::printf("# pipeline fit (PipelineResources::Check) on the default Pipeline: %u stages, "
                "%u stateful ALUs and %llu B of SRAM per stage in %llu-B blocks; the register "
                "array \"%s\" has m lanes of ceil(K/m) 32-bit cells, %u lanes per stage, from "
                "stage 4 with the float tables (stages 0..3) or stage 0 without\n",
                limits.stages,
                limits.statefulAlusPerStage,
                static_cast<unsigned long long>(limits.sramPerStageBytes),
                static_cast<unsigned long long>(limits.sramBlockBytes),
                LibraResources::HOT_ARRAY_NAME,
                limits.statefulAlusPerStage);
    std::printf("float_tables,m,slots_per_register,fits,stages_used,stateful_alus,sram_bytes\n");
    for (bool tables : {true, false})
    {
        for (uint32_t m : {16U, 32U, 33U, 48U, 49U})
        {
            LibraLayout::Config c;
            c.registers = m;
            const LibraLayout layout(c);
            const FitResult fit = LibraResources::Check(layout, tables, limits);
            std::printf("%s,%u,%u,", tables ? "yes" : "no", m, layout.GetSlotsPerRegister());
            if (fit.fits)
            {
                std::printf("yes,%u,%u,%llu\n",
                            fit.usage.stagesUsed,
                            fit.usage.statefulAlus,
                            static_cast<unsigned long long>(fit.usage.sramBytes));
            }
            else
            {
                std::printf("no,,,\n");
            }
        }
    }
    std::printf("# m_max for K = 30000 on the default pipeline: %u with the float tables, %u "
                "without (spec A.10: m <= ~32)\n",
                LibraResources::MaxRegisters(30000, true, limits),
                LibraResources::MaxRegisters(30000, false, limits));
    LibraLayout::Config c;
    c.registers = 33;
    std::printf("# refusal for m = 33 with the tables: %s\n",
                LibraResources::Check(LibraLayout(c), true, limits).error.c_str());
    std::printf(
        "# the pipeline model charges the tables key + value bits per entry, block-rounded: "
        "%llu B, against the paper's value-only %llu B\n",
        static_cast<unsigned long long>(LibraResources::GetPipelineTableBytes(limits)),
        static_cast<unsigned long long>(LibraLnsAdder::GetTableMemoryBytes()));
    return 0;
}

int
ReportHotset(uint64_t seed, uint32_t iterations)
{
    const uint32_t workers = 16;
    const uint32_t accesses = 10000;
    const SparseWorkload w(kSe.rows, 1, accesses, kSe.exponent, seed);
    std::printf("# hotset: Fig. 15, precision |H_g & H_s| / |H_g| of the hot set found on a sample "
                "(paper: >= 80 %% at 4 %%, >= 90 %% at 8 %%)\n");
    std::printf("# trace: SE-like SparseWorkload, %u rows, Zipf s = %.3f, %u accesses per push, "
                "%u workers x %u iterations (seed %llu); an update is a row in a push; a sample "
                "at rate f is the first ceil(f x %u) iterations of every worker\n",
                kSe.rows,
                kSe.exponent,
                accesses,
                workers,
                iterations,
                static_cast<unsigned long long>(seed),
                iterations);
    std::printf("# H_g and H_s by the paper's knee rule (blocks of %u keys, stop after the first "
                "block adding < %.0f %% of all updates); precision_same_k compares H_g with the "
                "top |H_g| keys of the sample\n",
                LibraHotSet::KNEE_BLOCK_KEYS,
                100 * LibraHotSet::KNEE_MIN_GAIN);
    std::printf("sampling,iterations,pushes,updates,ranked_keys,k_knee,top_k_share,precision,"
                "precision_same_k,paper\n");
    const LibraHotSet full = LibraHotSet::FromTrace(w, workers, iterations);
    const uint32_t kg = full.ChooseByKnee();
    const std::vector<uint32_t> hg = full.GetTopKeys(kg);
    std::printf("1.00,%u,%u,%llu,%u,%u,%.4f,1.0000,1.0000,\n",
                iterations,
                workers * iterations,
                static_cast<unsigned long long>(full.GetTotalUpdates()),
                full.GetNRanked(),
                kg,
                full.GetTopShare(kg));
    for (double f : {0.04, 0.08})
    {
        const uint32_t it = LibraHotSet::SampledIterations(iterations, f);
        const LibraHotSet s = LibraHotSet::FromTrace(w, workers, it);
        const uint32_t ks = s.ChooseByKnee();
        std::printf("%.2f,%u,%u,%llu,%u,%u,%.4f,%.4f,%.4f,%s\n",
                    f,
                    it,
                    workers * it,
                    static_cast<unsigned long long>(s.GetTotalUpdates()),
                    s.GetNRanked(),
                    ks,
                    s.GetTopShare(ks),
                    LibraHotSet::Precision(hg, s.GetTopKeys(ks)),
                    LibraHotSet::Precision(hg, s.GetTopKeys(kg)),
                    f < 0.05 ? ">=0.80" : ">=0.90");
    }
    const uint32_t cap = LibraHotSet::MaxHotKeys(0.05);
    std::printf("# Principle 1 on the full trace with c = 0.05 (%u keys of 4 B in 1 MiB): p = 0.5 "
                "gives k = %u (top-k share %.4f); the knee gives k = %u\n",
                cap,
                full.ChooseByPrinciple1(0.5, 0.05),
                full.GetTopShare(full.ChooseByPrinciple1(0.5, 0.05)),
                kg);
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string report = "all";
    uint64_t seed = 1;
    uint32_t pushes = 20;
    uint32_t pairs = 100000;
    uint32_t hotsetIterations = 200;

    CommandLine cmd(__FILE__);
    cmd.Usage("Libra's hot set, register layout, LNS float add and switch resources, against the "
              "paper's and the spec's numbers, as CSV.");
    cmd.AddValue("report", "skew, layout, precision, resources, hotset or all", report);
    cmd.AddValue("seed", "seed of the traces, the random layout and the float operands", seed);
    cmd.AddValue("pushes", "layout: pushes per workload", pushes);
    cmd.AddValue("pairs", "precision: float pairs per data set", pairs);
    cmd.AddValue("hotset-iterations", "hotset: iterations of the full trace", hotsetIterations);
    cmd.Parse(argc, argv);

    try
    {
        if (pushes == 0 || pairs == 0 || hotsetIterations == 0)
        {
            throw std::invalid_argument("--pushes, --pairs and --hotset-iterations must be at "
                                        "least 1");
        }
        const bool all = report == "all";
        if (!all && report != "skew" && report != "layout" && report != "precision" &&
            report != "resources" && report != "hotset")
        {
            throw std::invalid_argument("--report=" + report +
                                        ": expected skew, layout, precision, resources, hotset "
                                        "or all");
        }
        if (all || report == "skew")
        {
            ReportSkew(seed);
        }
        if (all || report == "layout")
        {
            ReportLayout(seed, pushes);
        }
        if (all || report == "precision")
        {
            ReportPrecision(seed, pairs);
        }
        if (all || report == "resources")
        {
            ReportResources();
        }
        if (all || report == "hotset")
        {
            ReportHotset(seed, hotsetIterations);
        }
        return 0;
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
}
