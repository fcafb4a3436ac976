/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GPU_CONTENTION_TEXT_H
#define GPU_CONTENTION_TEXT_H

// Shared by the readers of GPU-contention parameter files and measured samples
// (gpu-contention-params.cc, gpu-contention-fit.cc): one error format, "FILE:LINE: what".

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{
namespace gpucontention
{

/// Throw std::runtime_error "file:line: message" ("file: message" when line is 0).
[[noreturn]] inline void
Fail(const std::string& file, long line, const std::string& message)
{
    std::ostringstream os;
    os << file;
    if (line > 0)
    {
        os << ":" << line;
    }
    os << ": " << message;
    throw std::runtime_error(os.str());
}

/// `s` without leading and trailing blanks, tabs and carriage returns.
inline std::string
Trim(const std::string& s)
{
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
    {
        return "";
    }
    const size_t e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

/// A line of a text file with something on it.
struct ContentLine
{
    long number;      //!< its line number, from 1
    std::string text; //!< without its '#' comment, trimmed
};

/// The lines of `text` that hold something once '#' comments are cut and blanks trimmed.
inline std::vector<ContentLine>
ContentLines(const std::string& text)
{
    std::vector<ContentLine> out;
    std::istringstream in(text);
    std::string raw;
    long line = 0;
    while (std::getline(in, raw))
    {
        ++line;
        const size_t hash = raw.find('#');
        if (hash != std::string::npos)
        {
            raw.erase(hash);
        }
        std::string s = Trim(raw);
        if (!s.empty())
        {
            out.push_back({line, std::move(s)});
        }
    }
    return out;
}

} // namespace gpucontention
} // namespace ns3

#endif /* GPU_CONTENTION_TEXT_H */
