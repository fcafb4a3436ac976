/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef YAML_NODE_TEXT_H
#define YAML_NODE_TEXT_H

// Private to ina-scenario (not installed): the module's public headers do not include yaml-cpp.

#include <string>
#include <yaml-cpp/yaml.h>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * What a YAML value is, for the "got ..." part of an error of the scenario and sweep readers:
 * a scalar quoted ("\"8x\""), else "a list", "a section of keys" or "nothing".
 * \param n the value
 * \return its description
 */
std::string DescribeYamlNode(const YAML::Node& n);

} // namespace ns3

#endif /* YAML_NODE_TEXT_H */
