/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-hot-set.h"

#include "ns3/ina-number-text.h"
#include "ns3/sparse-workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

void
CheckOpenUnit(double x, const char* what)
{
    if (!(x > 0.0 && x < 1.0))
    {
        throw std::invalid_argument(std::string("Libra hot set: ") + what +
                                    " must be in (0, 1), got " + InaNumberText(x));
    }
}

} // namespace

LibraHotSet::LibraHotSet(std::vector<KeyCount> counts)
{
    counts.erase(std::remove_if(counts.begin(),
                                counts.end(),
                                [](const KeyCount& kc) {
                                    return kc.count == 0;
                                }),
                 counts.end());
    std::sort(counts.begin(), counts.end(), [](const KeyCount& a, const KeyCount& b) {
        return a.count != b.count ? a.count > b.count : a.key < b.key;
    });
    m_keys.reserve(counts.size());
    m_counts.reserve(counts.size());
    m_prefix.reserve(counts.size() + 1);
    m_byKey.reserve(counts.size());
    m_prefix.push_back(0);
    for (uint32_t rank = 0; rank < counts.size(); ++rank)
    {
        m_keys.push_back(counts[rank].key);
        m_counts.push_back(counts[rank].count);
        m_prefix.push_back(m_prefix.back() + counts[rank].count);
        m_byKey.push_back((static_cast<uint64_t>(counts[rank].key) << 32) | rank);
    }
    std::sort(m_byKey.begin(), m_byKey.end());
    for (size_t i = 1; i < m_byKey.size(); ++i)
    {
        if ((m_byKey[i] >> 32) == (m_byKey[i - 1] >> 32))
        {
            throw std::invalid_argument("Libra hot set: key " + std::to_string(m_byKey[i] >> 32) +
                                        " is listed twice; give one count per key");
        }
    }
}

LibraHotSet
LibraHotSet::FromDenseCounts(const std::vector<uint64_t>& countsByKey)
{
    if (countsByKey.size() > 0xffffffffULL)
    {
        throw std::invalid_argument("Libra hot set: more than 2^32 keys");
    }
    std::vector<KeyCount> counts;
    for (uint32_t key = 0; key < countsByKey.size(); ++key)
    {
        if (countsByKey[key] != 0)
        {
            counts.push_back({key, countsByKey[key]});
        }
    }
    return LibraHotSet(std::move(counts));
}

LibraHotSet
LibraHotSet::FromTrace(const SparseWorkload& workload, uint32_t workers, uint32_t iterations)
{
    if (workers == 0 || iterations == 0)
    {
        throw std::invalid_argument("Libra hot set: a trace needs at least one worker and one "
                                    "iteration, got workers " +
                                    std::to_string(workers) + ", iterations " +
                                    std::to_string(iterations));
    }
    // Every update as its row, then sorted and run-length counted: memory is the trace's update
    // count, whatever the table size (a dense counter would be 600 MB for 150 M rows).
    std::vector<uint32_t> rows;
    for (uint32_t w = 0; w < workers; ++w)
    {
        for (uint32_t i = 0; i < iterations; ++i)
        {
            const std::vector<uint32_t> push = workload.RowsForIteration(w, i);
            rows.insert(rows.end(), push.begin(), push.end());
        }
    }
    std::sort(rows.begin(), rows.end());
    std::vector<KeyCount> counts;
    for (size_t i = 0; i < rows.size();)
    {
        size_t j = i;
        while (j < rows.size() && rows[j] == rows[i])
        {
            ++j;
        }
        counts.push_back({rows[i], j - i});
        i = j;
    }
    return LibraHotSet(std::move(counts));
}

uint32_t
LibraHotSet::SampledIterations(uint32_t iterations, double fraction)
{
    if (!(fraction > 0.0 && fraction <= 1.0))
    {
        throw std::invalid_argument("Libra hot set: sampling fraction must be in (0, 1], got " +
                                    InaNumberText(fraction));
    }
    if (iterations == 0)
    {
        throw std::invalid_argument("Libra hot set: the full trace has 0 iterations");
    }
    // The product is rounded first so that 0.07 * 100 (7.000000000000001 in binary) is 7.
    const double exact = std::round(fraction * iterations * 1e9) / 1e9;
    return std::max<uint32_t>(1, static_cast<uint32_t>(std::ceil(exact)));
}

LibraHotSet
LibraHotSet::FromSampledTrace(const SparseWorkload& workload,
                              uint32_t workers,
                              uint32_t iterations,
                              double fraction)
{
    return FromTrace(workload, workers, SampledIterations(iterations, fraction));
}

uint32_t
LibraHotSet::GetKey(uint32_t rank) const
{
    if (rank >= m_keys.size())
    {
        throw std::out_of_range("Libra hot set: rank " + std::to_string(rank) +
                                " is not below the ranked-key count " +
                                std::to_string(m_keys.size()));
    }
    return m_keys[rank];
}

uint64_t
LibraHotSet::GetCount(uint32_t rank) const
{
    if (rank >= m_counts.size())
    {
        throw std::out_of_range("Libra hot set: rank " + std::to_string(rank) +
                                " is not below the ranked-key count " +
                                std::to_string(m_counts.size()));
    }
    return m_counts[rank];
}

uint32_t
LibraHotSet::GetRank(uint32_t key) const
{
    const uint64_t probe = static_cast<uint64_t>(key) << 32;
    auto it = std::lower_bound(m_byKey.begin(), m_byKey.end(), probe);
    if (it == m_byKey.end() || (*it >> 32) != key)
    {
        return LibraRankTable::NO_RANK;
    }
    return static_cast<uint32_t>(*it);
}

uint64_t
LibraHotSet::GetTopUpdates(uint32_t k) const
{
    return m_prefix[std::min<size_t>(k, m_keys.size())];
}

double
LibraHotSet::GetTopShare(uint32_t k) const
{
    if (GetTotalUpdates() == 0)
    {
        return 0.0;
    }
    return static_cast<double>(GetTopUpdates(k)) / static_cast<double>(GetTotalUpdates());
}

std::vector<uint32_t>
LibraHotSet::GetTopKeys(uint32_t k) const
{
    return std::vector<uint32_t>(m_keys.begin(),
                                 m_keys.begin() + std::min<size_t>(k, m_keys.size()));
}

LibraRankTable
LibraHotSet::MakeRankTable(uint32_t k) const
{
    if (k > m_keys.size())
    {
        throw std::invalid_argument("Libra hot set: " + std::to_string(k) +
                                    " hot keys asked for, but only " +
                                    std::to_string(m_keys.size()) + " keys have updates");
    }
    return LibraRankTable(GetTopKeys(k));
}

uint32_t
LibraHotSet::MaxHotKeys(double c, uint64_t sramBytes, uint32_t bytesPerKey)
{
    CheckOpenUnit(c, "c (share of switch SRAM)");
    if (sramBytes == 0 || bytesPerKey == 0)
    {
        throw std::invalid_argument("Libra hot set: switch SRAM and bytes per key must be "
                                    "positive, got " +
                                    std::to_string(sramBytes) + " B and " +
                                    std::to_string(bytesPerKey) + " B");
    }
    const double keys = std::floor(c * static_cast<double>(sramBytes) / bytesPerKey);
    return keys >= 4294967295.0 ? 0xffffffffU : static_cast<uint32_t>(keys);
}

uint32_t
LibraHotSet::ChooseByPrinciple1(double p, double c, uint64_t sramBytes, uint32_t bytesPerKey) const
{
    CheckOpenUnit(p, "p (traffic share)");
    const uint32_t cap = MaxHotKeys(c, sramBytes, bytesPerKey);
    if (GetTotalUpdates() == 0)
    {
        throw std::invalid_argument("Libra hot set: no key has an update, nothing can be hot");
    }
    // T_k is non-decreasing in k: the first k whose share reaches p, by binary search.
    uint32_t lo = 1;
    uint32_t hi = GetNRanked();
    while (lo < hi)
    {
        const uint32_t mid = lo + (hi - lo) / 2;
        if (GetTopShare(mid) >= p)
        {
            hi = mid;
        }
        else
        {
            lo = mid + 1;
        }
    }
    const uint32_t k = lo;
    if (k > cap)
    {
        char buf[512];
        std::snprintf(buf,
                      sizeof(buf),
                      "Libra hot set (Principle 1): reaching p = %s of the updates needs the top "
                      "%u keys (%llu B), but c = %s of the %llu-B switch SRAM holds only %u keys "
                      "of %u B (top-%u share %.4f); lower p or raise c",
                      InaNumberText(p).c_str(),
                      k,
                      static_cast<unsigned long long>(k) * bytesPerKey,
                      InaNumberText(c).c_str(),
                      static_cast<unsigned long long>(sramBytes),
                      cap,
                      bytesPerKey,
                      cap,
                      GetTopShare(cap));
        throw std::invalid_argument(buf);
    }
    return k;
}

uint32_t
LibraHotSet::ChooseByKnee(uint32_t blockKeys, double minGain) const
{
    if (blockKeys == 0)
    {
        throw std::invalid_argument("Libra hot set: the knee rule's block must hold at least "
                                    "one key");
    }
    CheckOpenUnit(minGain, "the knee rule's minimum gain");
    if (GetTotalUpdates() == 0)
    {
        throw std::invalid_argument("Libra hot set: no key has an update, nothing can be hot");
    }
    const uint64_t n = GetNRanked();
    uint64_t k = 0;
    while (k < n)
    {
        const uint64_t end = std::min<uint64_t>(k + blockKeys, n);
        const double gain = static_cast<double>(m_prefix[end] - m_prefix[k]) /
                            static_cast<double>(GetTotalUpdates());
        k = end;
        if (gain < minGain)
        {
            break;
        }
    }
    return static_cast<uint32_t>(k);
}

double
LibraHotSet::Precision(const std::vector<uint32_t>& global, const std::vector<uint32_t>& sampled)
{
    if (global.empty())
    {
        throw std::invalid_argument("Libra hot set: precision of an empty global hot set H_g");
    }
    std::vector<uint32_t> g(global);
    std::vector<uint32_t> s(sampled);
    std::sort(g.begin(), g.end());
    std::sort(s.begin(), s.end());
    for (const auto* v : {&g, &s})
    {
        auto dup = std::adjacent_find(v->begin(), v->end());
        if (dup != v->end())
        {
            throw std::invalid_argument(std::string("Libra hot set: key ") + std::to_string(*dup) +
                                        " appears twice in " + (v == &g ? "H_g" : "H_s"));
        }
    }
    size_t common = 0;
    for (size_t i = 0, j = 0; i < g.size() && j < s.size();)
    {
        if (g[i] < s[j])
        {
            ++i;
        }
        else if (s[j] < g[i])
        {
            ++j;
        }
        else
        {
            ++common;
            ++i;
            ++j;
        }
    }
    return static_cast<double>(common) / static_cast<double>(g.size());
}

} // namespace ns3
