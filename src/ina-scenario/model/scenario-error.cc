/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-error.h"

namespace ns3
{

ScenarioError::ScenarioError(const std::string& where,
                             const std::string& key,
                             const std::string& what)
    : std::runtime_error(Compose(where, key, what))
    , m_where(where)
    , m_key(key)
    , m_what(what)
{
    // `where` has one of the three forms the class documents; its writers are in this module.
    static const std::string overrideHead = "override '";
    if (where.size() > overrideHead.size() &&
        where.compare(0, overrideHead.size(), overrideHead) == 0 && where.back() == '\'')
    {
        m_override = where.substr(overrideHead.size(), where.size() - overrideHead.size() - 1);
        return;
    }
    m_file = where;
    const size_t colon = where.rfind(':');
    if (colon == std::string::npos || colon + 1 == where.size() || where.size() - colon > 10)
    {
        return;
    }
    uint64_t line = 0;
    for (size_t i = colon + 1; i < where.size(); ++i)
    {
        if (where[i] < '0' || where[i] > '9')
        {
            return;
        }
        line = line * 10 + static_cast<uint64_t>(where[i] - '0');
    }
    if (line > 0 && line <= UINT32_MAX)
    {
        m_file = where.substr(0, colon);
        m_line = static_cast<uint32_t>(line);
    }
}

std::string
ScenarioError::Compose(const std::string& where, const std::string& key, const std::string& what)
{
    std::string msg = where + ": ";
    if (!key.empty())
    {
        msg += "key '" + key + "': ";
    }
    return msg + what;
}

const std::string&
ScenarioError::GetWhere() const
{
    return m_where;
}

const std::string&
ScenarioError::GetKey() const
{
    return m_key;
}

const std::string&
ScenarioError::GetWhat() const
{
    return m_what;
}

const std::string&
ScenarioError::GetFile() const
{
    return m_file;
}

uint32_t
ScenarioError::GetLine() const
{
    return m_line;
}

const std::string&
ScenarioError::GetOverride() const
{
    return m_override;
}

} // namespace ns3
