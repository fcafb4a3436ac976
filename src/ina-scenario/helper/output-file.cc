/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "output-file.h"

#include <fstream>
#include <stdexcept>

namespace ns3
{

void
WriteOutputFile(const std::filesystem::path& path, const std::string& text)
{
    std::filesystem::path tmp = path;
    tmp += ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        if (!out)
        {
            throw std::runtime_error("cannot write " + tmp.string());
        }
        out << text;
    }
    std::filesystem::rename(tmp, path);
}

} // namespace ns3
