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

} // namespace ns3
