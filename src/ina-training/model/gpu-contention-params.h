/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GPU_CONTENTION_PARAMS_H
#define GPU_CONTENTION_PARAMS_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-training
 * The fitted constants of LIBRA's contention model (Liu et al., "LIBRA: Contention-Aware GPU
 * Thread Allocation for Data Parallel Training in High Speed Networks", Eq. 4-6):
 *
 *  - computation slowed by r communication threads: g(b, r) = b / (alpha1 - alpha2 r);
 *  - transmission rate of an all-reduce with r threads, overlapped with computation (p) and
 *    alone (q): x(r) = gamma1 - gamma2 exp(-gamma3 r^gamma4), bytes per second;
 *  - the ring all-reduce start-up a = 2(N-1) alphaHop, and for in-network aggregation (an
 *    extrapolation beyond the paper) a per-collective start-up inaStartup.
 *
 * The paper publishes no fitted values: Illustrative() is the set of the inasim spec (C.6),
 * chosen to match the paper's anchors (x1.38 slower computation at 2048 threads), not a fit.
 * Load() reads a parameter file, the same keys as YAML or as a key,value CSV:
 *
 *   alpha1, alpha2,
 *   p_gamma1_bytes_per_s, p_gamma2_bytes_per_s, p_gamma3, p_gamma4,
 *   q_gamma1_bytes_per_s, q_gamma2_bytes_per_s, q_gamma3, q_gamma4,
 *   alpha_hop_s, ina_startup_s
 *
 * Every key is required; an unknown, repeated or malformed key is an error naming the file, the
 * line and what was expected.
 */
class GpuContentionParams
{
  public:
    /// The paper's empirical exponent of r in the rate curve (Eq. 6).
    static constexpr double kPaperGamma4 = 0.6;

    /// A transmission-rate curve x(r) = gamma1 - gamma2 exp(-gamma3 r^gamma4).
    struct RateCurve
    {
        double gamma1{0};            //!< asymptotic rate, bytes/s
        double gamma2{0};            //!< rate deficit at r = 0, bytes/s
        double gamma3{0};            //!< how fast the deficit vanishes with r
        double gamma4{kPaperGamma4}; //!< exponent of r

        /**
         * \param threads communication threads r
         * \return x(r), bytes/s (may be <= 0 for parameters that do not suit r; callers check)
         */
        double Rate(uint32_t threads) const;
    };

    double alpha1{1};      //!< compute speed with no thread taken (intercept of g's denominator)
    double alpha2{0};      //!< compute speed lost per communication thread
    RateCurve overlapped;  //!< p: transmission while overlapped with computation
    RateCurve alone;       //!< q: transmission with no computation beside it
    double alphaHopS{0};   //!< ring: mean one-hop latency, seconds (a = 2(N-1) alphaHopS)
    double inaStartupS{0}; //!< in-network aggregation: start-up of one collective, seconds
    std::string source;    //!< where the values came from ("illustrative" or a file name)

    /**
     * \return the inasim spec's illustrative set (NOT the paper's fits, which are unpublished):
     *   alpha1 = 1, alpha2 = 1.35e-4 (2048 threads: computation x1.38 slower, paper Fig. 1a);
     *   p: gamma1 = gamma2 = 6e9 B/s (about 48 Gb/s usable on 50 Gb/s RDMA), gamma3 = 0.0377
     *   (half the peak at 128 threads); q: the same with gamma3 = 0.06; gamma4 = 0.6;
     *   alphaHop = 10 us; inaStartup = 20 us (one switch round trip; an extrapolation).
     */
    static GpuContentionParams Illustrative();

    /**
     * Read a parameter file.
     * \param path a .yaml/.yml file (a flat map) or a .csv file (header "key,value")
     * \return the parameters, validated
     * \throws std::runtime_error "FILE:LINE: ..." on any problem
     */
    static GpuContentionParams Load(const std::string& path);

    /**
     * \param text a flat YAML map of the keys above
     * \param fileName the name used in error messages
     * \return the parameters, validated
     * \throws std::runtime_error "FILE:LINE: ..." on any problem
     */
    static GpuContentionParams FromYaml(const std::string& text, const std::string& fileName);

    /**
     * \param text CSV: a "key,value" header, then one key,value per line ('#' starts a comment)
     * \param fileName the name used in error messages
     * \return the parameters, validated
     * \throws std::runtime_error "FILE:LINE: ..." on any problem
     */
    static GpuContentionParams FromCsv(const std::string& text, const std::string& fileName);

    /**
     * Check the ranges: alpha1 > 0, alpha2 >= 0, gamma1 > 0, gamma2 >= 0, gamma3 > 0,
     * gamma4 > 0, alphaHop >= 0, inaStartup >= 0, all finite.
     * \throws std::invalid_argument naming the first bad value
     */
    void Validate() const;

    /**
     * \return the same parameters with the contention removed: computation keeps full speed
     *   (alpha1 = 1, alpha2 = 0) and overlapped transmission runs as fast as alone (p = q).
     *   This is the paper's MG-CF ideal (Fig. 6), which needs hardware that does not exist.
     */
    GpuContentionParams WithoutContention() const;

    /**
     * \param threads communication threads r; 0 means no communication kernel is resident
     * \return seconds of stand-alone computation done per second: 1 with no kernel (not alpha1,
     *   so that residual computation runs at full speed as the model assumes), otherwise
     *   alpha1 - alpha2 r
     */
    double ComputeSpeed(uint32_t threads) const;

    /// \return the parameters in the YAML file format (numbers read back exactly)
    std::string ToYaml() const;

    /// \return a one-line summary of the values, for output headers
    std::string Summary() const;
};

} // namespace ns3

#endif /* GPU_CONTENTION_PARAMS_H */
