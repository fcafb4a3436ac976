/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SAFE_NAME_H
#define SAFE_NAME_H

// Private to ina-scenario (not installed): shared by the scenario and sweep readers.

#include <string>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * Whether a scenario, job or sweep name may name a folder of results: not empty, not "." or
 * "..", and only letters, digits, '_', '-' and '.' (so it never leaves the output folder).
 * \param name the name
 * \return true if it is safe
 */
bool IsSafeName(const std::string& name);

} // namespace ns3

#endif /* SAFE_NAME_H */
