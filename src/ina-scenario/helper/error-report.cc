/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "error-report.h"

#include "output-file.h"

#include "ns3/scenario-error.h"

#include <nlohmann/json.hpp>

namespace ns3
{

std::string
ErrorReportJson(const std::string& kind, int exitCode, const std::exception& error)
{
    nlohmann::ordered_json j;
    j["exit_code"] = exitCode;
    j["kind"] = kind;
    j["message"] = error.what();
    if (const auto* se = dynamic_cast<const ScenarioError*>(&error))
    {
        j["key"] = se->GetKey();
        j["file"] = se->GetFile();
        j["line"] = se->GetLine();
        j["override"] = se->GetOverride();
        j["what"] = se->GetWhat();
    }
    // A message may quote a user's bytes that are not UTF-8: replace them, never throw.
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

bool
WriteErrorReport(const std::filesystem::path& path,
                 const std::string& kind,
                 int exitCode,
                 const std::exception& error) noexcept
{
    try
    {
        WriteOutputFile(path, ErrorReportJson(kind, exitCode, error));
        return true;
    }
    catch (...)
    {
        return false;
    }
}

} // namespace ns3
