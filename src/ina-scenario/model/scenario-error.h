/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_ERROR_H
#define SCENARIO_ERROR_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * A scenario or sweep the user wrote is wrong. The message always starts with where the bad value
 * came from, so a researcher can go straight to it:
 *
 *     examples/scenarios/rack.yaml:12: key 'topology.k': fat-tree needs an even k >= 4, got 3
 *     override 'topology.k=odd': key 'topology.k': expected a non-negative integer, got "odd"
 *
 * `where` is "FILE:LINE" for a value read from a file, "override 'KEY=VALUE'" for a value given on
 * the command line, or just "FILE" when the offending value is a default. The error keeps the
 * parts apart (GetFile, GetLine, GetOverride, GetKey) so that a program reporting it to a machine
 * (inasim-run's error.json, read by `./inasim sweep`) never has to take the message apart.
 */
class ScenarioError : public std::runtime_error
{
  public:
    /**
     * \param where "FILE:LINE", "override 'KEY=VALUE'" or "FILE"
     * \param key dotted path of the offending key ("jobs.0.workers"); empty when the error is
     *        not about one key (a YAML syntax error, a missing file)
     * \param what what is wrong and what was expected
     */
    ScenarioError(const std::string& where, const std::string& key, const std::string& what);

    const std::string& GetWhere() const;
    const std::string& GetKey() const;
    const std::string& GetWhat() const;
    /// the file the value came from ("" for an override)
    const std::string& GetFile() const;
    /// the 1-based line in GetFile(), 0 when the error is not about one line
    uint32_t GetLine() const;
    /// the command-line override "KEY=VALUE" the value came from, "" when it came from a file
    const std::string& GetOverride() const;

  private:
    static std::string Compose(const std::string& where,
                               const std::string& key,
                               const std::string& what);

    std::string m_where;
    std::string m_key;
    std::string m_what;
    std::string m_file;
    uint32_t m_line{0};
    std::string m_override;
};

} // namespace ns3

#endif /* SCENARIO_ERROR_H */
