/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POOL_TEST_VALUES_H
#define POOL_TEST_VALUES_H

// Shared by the test suites of the shared-pool family's switch programs and parameter servers (ATP,
// ESA): one packet's PoolHeader::VALUES values, distinct per contribution so that a value counted
// twice or lost shows in the sum.

#include "ns3/pool-header.h"

#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <vector>

namespace ns3
{
namespace tests
{

/// One packet's values: base, base + 1, ...
inline std::vector<int32_t>
Ramp(int32_t base)
{
    std::vector<int32_t> v(PoolHeader::VALUES);
    std::iota(v.begin(), v.end(), base);
    return v;
}

/// The element-wise sum of packets' values.
inline std::vector<int32_t>
Sum(std::initializer_list<std::vector<int32_t>> vs)
{
    std::vector<int32_t> s(PoolHeader::VALUES, 0);
    for (const auto& v : vs)
    {
        for (size_t i = 0; i < s.size(); ++i)
        {
            s[i] += v[i];
        }
    }
    return s;
}

} // namespace tests
} // namespace ns3

#endif // POOL_TEST_VALUES_H
