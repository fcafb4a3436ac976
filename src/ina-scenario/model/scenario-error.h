/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_ERROR_H
#define SCENARIO_ERROR_H

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
 * the command line, or just "FILE" when the offending value is a default.
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

  private:
    static std::string Compose(const std::string& where,
                               const std::string& key,
                               const std::string& what);

    std::string m_where;
    std::string m_key;
    std::string m_what;
};

} // namespace ns3

#endif /* SCENARIO_ERROR_H */
