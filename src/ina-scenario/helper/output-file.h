/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_OUTPUT_FILE_H
#define INA_OUTPUT_FILE_H

#include <filesystem>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * Write `text` to `path` through `path`.tmp and a rename, so a reader (a sweep collecting
 * results) never sees half a file.
 * \throws std::runtime_error naming the file when it cannot be written
 */
void WriteOutputFile(const std::filesystem::path& path, const std::string& text);

} // namespace ns3

#endif /* INA_OUTPUT_FILE_H */
