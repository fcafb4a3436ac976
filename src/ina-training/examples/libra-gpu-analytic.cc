/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// libra-gpu-analytic: LIBRA's contention-aware GPU thread allocation on the analytic model
// (Liu et al., Sec. III-V), the mode of the paper's own scaling study (Fig. 9).
//
//   libra-gpu-analytic --model=vgg16 --nodes=8,16,2048 --policies=se,fixed,dp
//   libra-gpu-analytic --fit=examples/libra-gpu/samples.csv > params.yaml
//   libra-gpu-analytic --params=params.yaml --model=bert-base
//
// Prints CSV (lines starting with '#' are the header: parameters, model, policies):
//   model,nodes,policy,groups,threads,backward_s,iteration_s,throughput_norm
// threads lists r per group (';'); iteration = forward + backward; throughput_norm is the
// per-node throughput divided by the single-node one, i.e. iteration(N = 1) / iteration(N).
// Exit status: 0 done, 2 bad input (message on stderr).

#include "ns3/command-line.h"
#include "ns3/gpu-contention-fit.h"
#include "ns3/gpu-contention-model.h"
#include "ns3/gpu-contention-params.h"
#include "ns3/ina-list-option.h"
#include "ns3/model-zoo.h"
#include "ns3/thread-alloc-dp.h"
#include "ns3/thread-alloc-policy.h"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

std::string
Join(const std::vector<uint32_t>& v)
{
    std::string out;
    for (uint32_t x : v)
    {
        out += (out.empty() ? "" : ",") + std::to_string(x);
    }
    return out;
}

int
RunFit(const std::string& samplesPath, const GpuContentionParams& base)
{
    std::vector<GpuContentionFit::Sample> samples = GpuContentionFit::ReadCsv(samplesPath);
    GpuContentionFit::Result fit = GpuContentionFit::Fit(samples, base, samplesPath);
    std::printf("# GPU contention parameters fitted by libra-gpu-analytic from %s\n",
                samplesPath.c_str());
    std::printf("# samples: compute %zu, overlapped %zu, alone %zu; rms relative error of the "
                "fitted times: compute %.3f %%, overlapped %.3f %%, alone %.3f %%\n",
                fit.computeSamples,
                fit.overlappedSamples,
                fit.aloneSamples,
                100 * fit.computeRmsRel,
                100 * fit.overlappedRmsRel,
                100 * fit.aloneRmsRel);
    std::printf("# gamma4 fixed at %.1f as in the paper; alpha_hop_s and ina_startup_s are not "
                "fitted (taken from %s)\n",
                GpuContentionParams::kPaperGamma4,
                base.source == "illustrative" ? "the illustrative set" : base.source.c_str());
    std::printf("%s", fit.params.ToYaml().c_str());
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string model = "vgg16";
    std::string zoo;
    std::string nodesText = "8,16,32,64,128,256,512,1024,2048";
    std::string policiesText = "se,fixed,mg-n,libra-m,dp";
    std::string paramsPath;
    std::string fitPath;
    std::string collectiveText = "ring";
    ThreadAllocPolicy::Options options;
    std::string threadsText = Join(options.dp.threads);
    double cycleMs = options.horovodCycleS * 1e3;
    double fusionMiB = options.horovodFusionBytes / 1048576.0;
    bool plans = false;

    CommandLine cmd(__FILE__);
    cmd.Usage("LIBRA's contention-aware GPU thread allocation on the analytic model: backward "
              "and iteration time per policy and cluster size, as CSV.");
    cmd.AddValue("model", "model zoo entry", model);
    cmd.AddValue("zoo", "model zoo file (default: the shipped one)", zoo);
    cmd.AddValue("nodes", "comma-separated worker counts N", nodesText);
    cmd.AddValue("policies",
                 "comma-separated policies: se, fixed, mg-n, libra-m, dp, mg-cf",
                 policiesText);
    cmd.AddValue("params",
                 "parameter file (.yaml or .csv; default: the ILLUSTRATIVE set)",
                 paramsPath);
    cmd.AddValue("fit", "fit the parameters to this sample CSV, print them and exit", fitPath);
    cmd.AddValue("collective",
                 "ring (the paper) or ina (in-network aggregation: an extrapolation)",
                 collectiveText);
    cmd.AddValue("fixed-threads",
                 "r of se, fixed, mg-n and mg-cf (stands in for NCCL's choice)",
                 options.fixedThreads);
    cmd.AddValue("cycle-ms", "Horovod cycle time of 'fixed', ms", cycleMs);
    cmd.AddValue("fusion-mb", "Horovod fusion threshold of 'fixed', MiB", fusionMiB);
    cmd.AddValue("groups", "K: the DP's maximum group count", options.dp.maxGroups);
    cmd.AddValue("chunks", "Z: the DP's computation chunks", options.dp.chunks);
    cmd.AddValue("threads", "R: the DP's thread counts, comma-separated", threadsText);
    cmd.AddValue("plans", "also print each plan's layer ranges (backward order)", plans);
    cmd.Parse(argc, argv);

    try
    {
        GpuContentionParams params = paramsPath.empty() ? GpuContentionParams::Illustrative()
                                                        : GpuContentionParams::Load(paramsPath);
        if (!fitPath.empty())
        {
            return RunFit(fitPath, params);
        }
        GpuContentionModel::Collective collective;
        if (collectiveText == "ring")
        {
            collective = GpuContentionModel::RING;
        }
        else if (collectiveText == "ina")
        {
            collective = GpuContentionModel::IN_NETWORK;
        }
        else
        {
            throw std::invalid_argument("--collective=" + collectiveText +
                                        ": expected ring or ina");
        }
        if (!(cycleMs >= 0) || !(fusionMiB >= 0))
        {
            throw std::invalid_argument("--cycle-ms and --fusion-mb must be >= 0");
        }
        options.horovodCycleS = cycleMs * 1e-3;
        options.horovodFusionBytes = fusionMiB * 1048576.0;
        options.dp.threads = InaParsePositiveList(threadsText, "threads");
        const std::vector<uint32_t> nodes = InaParsePositiveList(nodesText, "nodes");
        std::vector<ThreadAllocPolicy::Kind> policies;
        for (const std::string& item : InaSplitList(policiesText, "--policies"))
        {
            policies.push_back(ThreadAllocPolicy::FromName(item));
        }
        if (policies.empty())
        {
            throw std::invalid_argument("--policies is empty");
        }
        const ModelSpec& spec =
            zoo.empty() ? ModelZoo::Default().Get(model) : ModelZoo(zoo).Get(model);
        const std::vector<GpuContentionModel::Layer> layers =
            GpuContentionModel::BackwardLayers(spec);
        const double forwardS = spec.ForwardPs() * 1e-12;
        const double backwardAloneS = spec.BackwardPs() * 1e-12;
        const double singleNodeIterS = forwardS + backwardAloneS;

        std::printf("# libra-gpu-analytic: LIBRA GPU thread allocation, analytic mode (Liu et "
                    "al., Sec. III-V; inasim spec C.6)\n");
        if (params.source == "illustrative")
        {
            std::printf("# parameters: ILLUSTRATIVE (inasim spec C.6, NOT the paper's fits, which "
                        "are unpublished; only the shape of the results is meaningful): %s\n",
                        params.Summary().c_str());
        }
        else
        {
            std::printf("# parameters: from %s: %s\n",
                        params.source.c_str(),
                        params.Summary().c_str());
        }
        if (params.ComputeSpeed(2048) > 0)
        {
            std::printf("# anchor: computation with 2048 communication threads is x%.4f slower "
                        "(paper Fig. 1a: +38 %%)\n",
                        1.0 / params.ComputeSpeed(2048));
        }
        std::printf("# model: %s (%s, batch %u, %zu layers, %.1f MB of gradients, forward %.3f "
                    "ms, backward %.3f ms)\n",
                    spec.name.c_str(),
                    spec.gpu.c_str(),
                    spec.batchSize,
                    layers.size(),
                    spec.TotalBytes() / 1e6,
                    forwardS * 1e3,
                    backwardAloneS * 1e3);
        if (collective == GpuContentionModel::RING)
        {
            std::printf("# collective: ring all-reduce (a = 2(N-1) x %.3g s, c^ = 2(N-1)/N x c)\n",
                        params.alphaHopS);
        }
        else
        {
            std::printf("# collective: in-network aggregation (a = %.3g s per collective, c^ = c) "
                        "-- EXTRAPOLATION: the paper models ring all-reduce only\n",
                        params.inaStartupS);
        }
        std::printf("# dp: K=%u Z=%u R=%s; fixed threads %u; Horovod cycle %.3g ms, fusion "
                    "threshold %.4g MiB\n",
                    options.dp.maxGroups,
                    options.dp.chunks,
                    Join(options.dp.threads).c_str(),
                    options.fixedThreads,
                    options.horovodCycleS * 1e3,
                    options.horovodFusionBytes / 1048576.0);
        for (auto kind : policies)
        {
            std::printf("# policy %s: %s\n",
                        ThreadAllocPolicy::Name(kind),
                        ThreadAllocPolicy::Describe(kind).c_str());
        }
        std::printf("model,nodes,policy,groups,threads,backward_s,iteration_s,throughput_norm\n");
        for (uint32_t n : nodes)
        {
            GpuContentionModel gpu(params, n, collective);
            for (auto kind : policies)
            {
                ThreadAllocPolicy::Outcome out = ThreadAllocPolicy::Run(kind, gpu, layers, options);
                const double iterS = forwardS + out.backwardS;
                std::printf("%s,%u,%s,%zu,%s,%.9f,%.9f,%.6f\n",
                            spec.name.c_str(),
                            n,
                            ThreadAllocPolicy::Name(kind),
                            out.plan.GetGroupCount(),
                            out.plan.ThreadsString().c_str(),
                            out.backwardS,
                            iterS,
                            singleNodeIterS / iterS);
                if (plans)
                {
                    std::printf("# plan %s N=%u layers %s\n",
                                ThreadAllocPolicy::Name(kind),
                                n,
                                out.plan.LayersString().c_str());
                }
            }
        }
    }
    catch (const std::exception& e)
    {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 2;
    }
    return 0;
}
