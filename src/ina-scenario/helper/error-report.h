/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_ERROR_REPORT_H
#define INA_ERROR_REPORT_H

#include <exception>
#include <filesystem>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * The machine-readable form of a run that failed (inasim-run's `error.json`), so that a driver
 * running thousands of scenarios (`./inasim sweep`) can say which key of which file was wrong
 * without taking a message apart. One JSON object:
 *
 *     {"exit_code": 2, "kind": "scenario", "message": "<the whole message>",
 *      "key": "jobs.0.params.Rto", "file": "my.yaml", "line": 12, "override": "", "what": "..."}
 *
 * `kind` is "scenario" (exit 2: the scenario or its command line is wrong), "model" (exit 3: the
 * model refused the set-up), "machine" (exit 4: out of memory, a file system error) or "other"
 * (exit 2). `key`, `file`, `line` (0: none), `override` and `what` are present only for a
 * ScenarioError, whose parts they are.
 */
std::string ErrorReportJson(const std::string& kind, int exitCode, const std::exception& error);

/**
 * \ingroup ina-scenario
 * Write ErrorReportJson(...) to `path` (through WriteOutputFile, so a reader never sees half of it).
 * Never throws: a report that cannot be written is not worth hiding the error it reports.
 * \return whether it was written
 */
bool WriteErrorReport(const std::filesystem::path& path,
                      const std::string& kind,
                      int exitCode,
                      const std::exception& error) noexcept;

} // namespace ns3

#endif /* INA_ERROR_REPORT_H */
