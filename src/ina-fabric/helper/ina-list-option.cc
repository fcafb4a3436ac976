/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-list-option.h"

#include <stdexcept>

namespace ns3
{

std::vector<std::string>
InaSplitList(const std::string& text, const std::string& key)
{
    static const char* const BLANK = " \t\r\n";
    std::vector<std::string> out;
    if (text.find_first_not_of(BLANK) == std::string::npos)
    {
        return out;
    }
    std::string::size_type start = 0;
    while (true)
    {
        const std::string::size_type comma = text.find(',', start);
        const std::string item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::string::size_type first = item.find_first_not_of(BLANK);
        if (first == std::string::npos)
        {
            throw std::invalid_argument(key + "='" + text + "': item " +
                                        std::to_string(out.size() + 1) +
                                        " of the comma-separated list is empty");
        }
        out.push_back(item.substr(first, item.find_last_not_of(BLANK) - first + 1));
        if (comma == std::string::npos)
        {
            return out;
        }
        start = comma + 1;
    }
}

std::vector<uint32_t>
InaParsePositiveList(const std::string& text, const std::string& option)
{
    std::vector<uint32_t> out;
    for (const std::string& item : InaSplitList(text, "--" + option))
    {
        // Nine digits at most, so std::stoul cannot overflow a uint32_t.
        if (item.size() > 9 || item.find_first_not_of("0123456789") != std::string::npos ||
            std::stoul(item) == 0)
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
