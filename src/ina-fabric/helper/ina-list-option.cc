/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-list-option.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

std::vector<uint32_t>
InaParsePositiveList(const std::string& text, const std::string& option)
{
    std::vector<uint32_t> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ','))
    {
        // Nine digits at most, so std::stoul cannot overflow a uint32_t.
        if (item.empty() || item.size() > 9 ||
            item.find_first_not_of("0123456789") != std::string::npos || std::stoul(item) == 0)
        {
            throw std::invalid_argument("--" + option + "=" + text +
                                        ": expected comma-separated positive integers, got '" +
                                        item + "'");
        }
        out.push_back(static_cast<uint32_t>(std::stoul(item)));
    }
    if (out.empty())
    {
        throw std::invalid_argument("--" + option + " is empty");
    }
    return out;
}

} // namespace ns3
