/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "safe-name.h"

#include <algorithm>
#include <cctype>

namespace ns3
{

bool
IsSafeName(const std::string& name)
{
    return !name.empty() && name != "." && name != ".." &&
           std::all_of(name.begin(), name.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ||
                      c == '.';
           });
}

} // namespace ns3
