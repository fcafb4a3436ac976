/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GPU_CONTENTION_FIT_H
#define GPU_CONTENTION_FIT_H

#include "gpu-contention-params.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * Fits LIBRA's contention curves to measurements (Liu et al., Algorithm 2, steps 1-3): the
 * paper publishes no constants, so measured (threads, time) pairs are the model's real input.
 *
 * Sample file (CSV, '#' starts a comment, blank lines ignored):
 *
 *   kind,threads,work,time_s
 *   compute,512,0.0257,0.02759
 *   overlapped,512,197200000,0.0362
 *   alone,512,197200000,0.0341
 *
 *  - compute: `work` is a computation's stand-alone time b (s); `time_s` its time while an
 *    all-reduce kernel with `threads` threads ran beside it the whole time. Fits
 *    b / t = alpha1 - alpha2 r by linear least squares.
 *  - overlapped / alone: `work` is the bytes one worker put on the wire (c^, e.g.
 *    2(N-1)/N c for a ring); `time_s` the transmission time without the start-up a, with
 *    (overlapped) or without (alone) computation beside it. Fits the rate c^ / t to
 *    gamma1 - gamma2 exp(-gamma3 r^0.6) (gamma4 fixed, as in the paper): a search over
 *    log gamma3 (grid, then golden section) with gamma1, gamma2 by closed-form least squares
 *    at each gamma3.
 *
 * threads must be a positive integer (with r = 0 no kernel runs and the speed is 1 by
 * definition); work and time_s positive finite numbers. A bad line is an error naming
 * FILE:LINE and what was expected.
 */
class GpuContentionFit
{
  public:
    /// What a sample measured.
    enum SampleKind
    {
        COMPUTE,    //!< overlapped computation time
        OVERLAPPED, //!< transmission time while overlapped (p)
        ALONE       //!< transmission time alone (q)
    };

    /// One measurement.
    struct Sample
    {
        SampleKind kind;  //!< what was measured
        uint32_t threads; //!< communication threads r
        double work;      //!< stand-alone seconds (compute) or wire bytes (transmission)
        double timeS;     //!< measured seconds
        uint32_t line;    //!< line in the file (0 if made in code)
    };

    /// The fitted parameters and how well they fit.
    struct Result
    {
        GpuContentionParams params;  //!< alpha1, alpha2, p and q fitted; the rest from the base
        size_t computeSamples{0};    //!< samples used for g
        size_t overlappedSamples{0}; //!< samples used for p
        size_t aloneSamples{0};      //!< samples used for q
        double computeRmsRel{0};     //!< rms relative error of g's predicted times
        double overlappedRmsRel{0};  //!< rms relative error of p's predicted times
        double aloneRmsRel{0};       //!< rms relative error of q's predicted times
    };

    /**
     * \param path a sample file
     * \return its samples
     * \throws std::runtime_error "FILE:LINE: ..." on a bad line, or if the file cannot be read
     */
    static std::vector<Sample> ReadCsv(const std::string& path);

    /**
     * \param text sample CSV
     * \param fileName the name used in error messages
     * \return the samples
     * \throws std::runtime_error "FILE:LINE: ..." on a bad line
     */
    static std::vector<Sample> ParseCsv(const std::string& text, const std::string& fileName);

    /**
     * Least squares of speed = alpha1 - alpha2 r.
     * \param threads r of each point
     * \param speed b / t of each point
     * \param alpha1 out
     * \param alpha2 out
     * \throws std::invalid_argument with fewer than 2 distinct r
     */
    static void FitSpeed(const std::vector<double>& threads,
                         const std::vector<double>& speed,
                         double* alpha1,
                         double* alpha2);

    /**
     * Least squares of rate = gamma1 - gamma2 exp(-gamma3 r^gamma4) with gamma4 fixed.
     * \param threads r of each point
     * \param rate bytes/s of each point
     * \param gamma4 the fixed exponent
     * \return the curve
     * \throws std::invalid_argument with fewer than 3 distinct r
     */
    static GpuContentionParams::RateCurve FitRate(const std::vector<double>& threads,
                                                  const std::vector<double>& rate,
                                                  double gamma4);

    /**
     * Fit g, p and q from samples of all three kinds.
     * \param samples the measurements
     * \param base supplies what samples cannot: alphaHopS and inaStartupS
     * \param fileName names the samples in errors and in the result's source
     * \return the parameters and the fit quality
     * \throws std::runtime_error naming the file if a kind has too few samples or the fitted
     *   values are not physical (alpha2 < 0, gamma2 < 0, gamma3 at the edge of the search)
     */
    static Result Fit(const std::vector<Sample>& samples,
                      const GpuContentionParams& base,
                      const std::string& fileName);
};

} // namespace ns3

#endif /* GPU_CONTENTION_FIT_H */
