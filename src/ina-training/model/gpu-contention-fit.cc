/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "gpu-contention-fit.h"

#include "gpu-contention-text.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

const char* const kHeader = "kind,threads,work,time_s";

using gpucontention::Fail;
using gpucontention::Trim;

bool
ParsePositive(const std::string& text, double* out)
{
    if (text.empty())
    {
        return false;
    }
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v) || !(v > 0))
    {
        return false;
    }
    *out = v;
    return true;
}

bool
ParseThreads(const std::string& text, uint32_t* out)
{
    if (text.empty() || text.size() > 9 ||
        text.find_first_not_of("0123456789") != std::string::npos)
    {
        return false;
    }
    unsigned long v = std::stoul(text);
    if (v == 0)
    {
        return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
}

size_t
DistinctCount(const std::vector<double>& v)
{
    return std::set<double>(v.begin(), v.end()).size();
}

/// Root mean square of (predicted - measured) / measured.
double
RmsRel(const std::vector<double>& predicted, const std::vector<double>& measured)
{
    double sum = 0;
    for (size_t i = 0; i < measured.size(); ++i)
    {
        double e = (predicted[i] - measured[i]) / measured[i];
        sum += e * e;
    }
    return measured.empty() ? 0.0 : std::sqrt(sum / measured.size());
}

} // namespace

std::vector<GpuContentionFit::Sample>
GpuContentionFit::ReadCsv(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
    {
        throw std::runtime_error(path + ": cannot read the sample file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return ParseCsv(text.str(), path);
}

namespace
{

/// The comma-separated fields of `s`, trimmed (a trailing comma makes an empty last field).
std::vector<std::string>
SplitFields(const std::string& s)
{
    std::vector<std::string> fields;
    std::istringstream fs(s);
    std::string f;
    while (std::getline(fs, f, ','))
    {
        fields.push_back(Trim(f));
    }
    if (!s.empty() && s.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

/// One sample from the fields of line `line`, each checked.
GpuContentionFit::Sample
ParseSample(const std::string& fileName, uint32_t line, const std::vector<std::string>& fields)
{
    using Fit = GpuContentionFit;
    if (fields.size() != 4)
    {
        Fail(fileName,
             line,
             std::string("expected 4 comma-separated fields ") + kHeader + "; got " +
                 std::to_string(fields.size()));
    }
    Fit::Sample sample{Fit::COMPUTE, 0, 0, 0, line};
    if (fields[0] == "compute")
    {
        sample.kind = Fit::COMPUTE;
    }
    else if (fields[0] == "overlapped")
    {
        sample.kind = Fit::OVERLAPPED;
    }
    else if (fields[0] == "alone")
    {
        sample.kind = Fit::ALONE;
    }
    else
    {
        Fail(fileName,
             line,
             "kind: expected compute, overlapped or alone; got '" + fields[0] + "'");
    }
    if (!ParseThreads(fields[1], &sample.threads))
    {
        Fail(fileName, line, "threads: expected a positive integer, got '" + fields[1] + "'");
    }
    if (!ParsePositive(fields[2], &sample.work))
    {
        Fail(fileName,
             line,
             std::string("work: expected a positive finite number (") +
                 (sample.kind == Fit::COMPUTE ? "stand-alone seconds" : "wire bytes") + "), got '" +
                 fields[2] + "'");
    }
    if (!ParsePositive(fields[3], &sample.timeS))
    {
        Fail(fileName,
             line,
             "time_s: expected a positive finite number of seconds, got '" + fields[3] + "'");
    }
    return sample;
}

} // namespace

std::vector<GpuContentionFit::Sample>
GpuContentionFit::ParseCsv(const std::string& text, const std::string& fileName)
{
    const std::vector<gpucontention::ContentLine> lines = gpucontention::ContentLines(text);
    if (lines.empty())
    {
        Fail(fileName,
             0,
             std::string("empty sample file (expected the header line '") + kHeader + "')");
    }
    std::string joined;
    for (const auto& x : SplitFields(lines[0].text))
    {
        joined += (joined.empty() ? "" : ",") + x;
    }
    if (joined != kHeader)
    {
        Fail(fileName,
             lines[0].number,
             std::string("expected the header line '") + kHeader + "'; got '" + lines[0].text +
                 "'");
    }
    std::vector<Sample> samples;
    for (size_t i = 1; i < lines.size(); ++i)
    {
        const auto line = static_cast<uint32_t>(lines[i].number);
        samples.push_back(ParseSample(fileName, line, SplitFields(lines[i].text)));
    }
    return samples;
}

void
GpuContentionFit::FitSpeed(const std::vector<double>& threads,
                           const std::vector<double>& speed,
                           double* alpha1,
                           double* alpha2)
{
    if (threads.size() != speed.size() || DistinctCount(threads) < 2)
    {
        throw std::invalid_argument("FitSpeed: need points at >= 2 distinct thread counts");
    }
    const double n = threads.size();
    double mr = 0;
    double my = 0;
    for (size_t i = 0; i < threads.size(); ++i)
    {
        mr += threads[i] / n;
        my += speed[i] / n;
    }
    double srr = 0;
    double sry = 0;
    for (size_t i = 0; i < threads.size(); ++i)
    {
        srr += (threads[i] - mr) * (threads[i] - mr);
        sry += (threads[i] - mr) * (speed[i] - my);
    }
    const double slope = sry / srr;
    *alpha2 = -slope;
    *alpha1 = my - slope * mr;
}

namespace
{

/**
 * The rate curve's least squares in gamma3 alone (FitRate): for a fixed gamma3 the model is
 * linear in (gamma1, gamma2), x = gamma1 - gamma2 e, so both have a closed form. Rates are in
 * units of their mean, so the sums stay near 1 whatever the link speed.
 */
class RateProfile
{
  public:
    RateProfile(const std::vector<double>& threads, const std::vector<double>& rate, double gamma4)
        : m_n(threads.size())
        , m_u(m_n)
        , m_x(m_n)
        , m_e(m_n)
    {
        for (double x : rate)
        {
            m_scale += x / m_n;
        }
        for (size_t i = 0; i < m_n; ++i)
        {
            m_u[i] = std::pow(threads[i], gamma4);
            m_x[i] = rate[i] / m_scale;
        }
    }

    /// The mean rate, the unit of gamma1 and gamma2.
    double Scale() const
    {
        return m_scale;
    }

    /// The least r^gamma4 and the largest.
    double UMin() const
    {
        return *std::min_element(m_u.begin(), m_u.end());
    }

    double UMax() const
    {
        return *std::max_element(m_u.begin(), m_u.end());
    }

    /// The squared error at gamma3 = exp(logGamma3), with the best g1 and g2 there.
    double Sse(double logGamma3, double* g1, double* g2)
    {
        const double g3 = std::exp(logGamma3);
        double me = 0;
        double mx = 0;
        for (size_t i = 0; i < m_n; ++i)
        {
            m_e[i] = std::exp(-g3 * m_u[i]);
            me += m_e[i] / m_n;
            mx += m_x[i] / m_n;
        }
        double see = 0;
        double sex = 0;
        for (size_t i = 0; i < m_n; ++i)
        {
            see += (m_e[i] - me) * (m_e[i] - me);
            sex += (m_e[i] - me) * (m_x[i] - mx);
        }
        const double slope = see > 0 ? sex / see : 0.0;
        *g2 = -slope;
        *g1 = mx - slope * me;
        double sse = 0;
        for (size_t i = 0; i < m_n; ++i)
        {
            const double r = m_x[i] - (*g1 - *g2 * m_e[i]);
            sse += r * r;
        }
        return sse;
    }

  private:
    size_t m_n;
    double m_scale = 0;
    std::vector<double> m_u; //!< r^gamma4
    std::vector<double> m_x; //!< rates / scale
    std::vector<double> m_e; //!< exp(-gamma3 u), scratch
};

/// The minimum of `profile` in [a, b] by golden section, to about 1e-15 relative.
double
GoldenSection(RateProfile& profile, double a, double b)
{
    double g1 = 0;
    double g2 = 0;
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double c = b - phi * (b - a);
    double d = a + phi * (b - a);
    double fc = profile.Sse(c, &g1, &g2);
    double fd = profile.Sse(d, &g1, &g2);
    for (int it = 0; it < 200 && (b - a) > 1e-15 * std::max(1.0, std::fabs(a)); ++it)
    {
        if (fc < fd)
        {
            b = d;
            d = c;
            fd = fc;
            c = b - phi * (b - a);
            fc = profile.Sse(c, &g1, &g2);
        }
        else
        {
            a = c;
            c = d;
            fc = fd;
            d = a + phi * (b - a);
            fd = profile.Sse(d, &g1, &g2);
        }
    }
    return (a + b) / 2;
}

} // namespace

GpuContentionParams::RateCurve
GpuContentionFit::FitRate(const std::vector<double>& threads,
                          const std::vector<double>& rate,
                          double gamma4)
{
    if (threads.size() != rate.size() || DistinctCount(threads) < 3)
    {
        throw std::invalid_argument("FitRate: need points at >= 3 distinct thread counts");
    }
    RateProfile profile(threads, rate, gamma4);
    // gamma3 from "barely bent over the measured range" to "saturated at the smallest r"
    const double lo = std::log(1e-4 / profile.UMax());
    const double hi = std::log(50.0 / profile.UMin());
    const int grid = 800;
    double g1 = 0;
    double g2 = 0;
    int bestK = 0;
    double bestSse = std::numeric_limits<double>::infinity();
    for (int k = 0; k <= grid; ++k)
    {
        double sse = profile.Sse(lo + (hi - lo) * k / grid, &g1, &g2);
        if (sse < bestSse)
        {
            bestSse = sse;
            bestK = k;
        }
    }
    if (bestK == 0 || bestK == grid)
    {
        throw std::invalid_argument(
            "FitRate: the best gamma3 lies at the edge of the search range (the rates do not "
            "level off with r as gamma1 - gamma2 exp(-gamma3 r^gamma4) assumes)");
    }
    // golden section inside the grid neighbours of the best point
    const double logGamma3 = GoldenSection(profile,
                                           lo + (hi - lo) * (bestK - 1) / grid,
                                           lo + (hi - lo) * (bestK + 1) / grid);
    profile.Sse(logGamma3, &g1, &g2);
    GpuContentionParams::RateCurve curve;
    curve.gamma1 = g1 * profile.Scale();
    curve.gamma2 = g2 * profile.Scale();
    curve.gamma3 = std::exp(logGamma3);
    curve.gamma4 = gamma4;
    return curve;
}

GpuContentionFit::Result
GpuContentionFit::Fit(const std::vector<Sample>& samples,
                      const GpuContentionParams& base,
                      const std::string& fileName)
{
    std::vector<double> r[3];
    std::vector<double> y[3];
    for (const auto& s : samples)
    {
        r[s.kind].push_back(s.threads);
        y[s.kind].push_back(s.work / s.timeS);
    }
    const char* names[3] = {"compute", "overlapped", "alone"};
    const size_t need[3] = {2, 3, 3};
    for (int k = 0; k < 3; ++k)
    {
        if (DistinctCount(r[k]) < need[k])
        {
            Fail(fileName,
                 0,
                 std::string("need '") + names[k] + "' samples at >= " + std::to_string(need[k]) +
                     " distinct thread counts to fit " + (k == 0 ? "g" : (k == 1 ? "p" : "q")) +
                     "; got " + std::to_string(DistinctCount(r[k])));
        }
    }
    Result res;
    res.params = base;
    res.params.source = fileName + " (fitted)";
    FitSpeed(r[COMPUTE], y[COMPUTE], &res.params.alpha1, &res.params.alpha2);
    if (!(res.params.alpha1 > 0) || !(res.params.alpha2 >= 0))
    {
        Fail(fileName,
             0,
             "the compute samples give alpha1 = " + std::to_string(res.params.alpha1) +
                 ", alpha2 = " + std::to_string(res.params.alpha2) +
                 " (expected alpha1 > 0 and alpha2 >= 0: computation no faster with more "
                 "communication threads)");
    }
    for (int k = 1; k < 3; ++k)
    {
        GpuContentionParams::RateCurve curve;
        try
        {
            curve = FitRate(r[k], y[k], GpuContentionParams::kPaperGamma4);
        }
        catch (const std::invalid_argument& e)
        {
            Fail(fileName, 0, std::string("'") + names[k] + "' samples: " + e.what());
        }
        if (!(curve.gamma1 > 0) || !(curve.gamma2 >= 0))
        {
            Fail(fileName,
                 0,
                 std::string("the '") + names[k] + "' samples give gamma1 = " +
                     std::to_string(curve.gamma1) + ", gamma2 = " + std::to_string(curve.gamma2) +
                     " (expected gamma1 > 0 and gamma2 >= 0: a rate that grows with r)");
        }
        (k == 1 ? res.params.overlapped : res.params.alone) = curve;
    }
    std::vector<double> predicted[3];
    std::vector<double> measured[3];
    for (const auto& s : samples)
    {
        double rate =
            s.kind == COMPUTE
                ? res.params.ComputeSpeed(s.threads)
                : (s.kind == OVERLAPPED ? res.params.overlapped : res.params.alone).Rate(s.threads);
        predicted[s.kind].push_back(s.work / rate);
        measured[s.kind].push_back(s.timeS);
    }
    res.computeSamples = measured[COMPUTE].size();
    res.overlappedSamples = measured[OVERLAPPED].size();
    res.aloneSamples = measured[ALONE].size();
    res.computeRmsRel = RmsRel(predicted[COMPUTE], measured[COMPUTE]);
    res.overlappedRmsRel = RmsRel(predicted[OVERLAPPED], measured[OVERLAPPED]);
    res.aloneRmsRel = RmsRel(predicted[ALONE], measured[ALONE]);
    return res;
}

} // namespace ns3
