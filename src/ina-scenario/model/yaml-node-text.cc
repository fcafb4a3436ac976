/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "yaml-node-text.h"

namespace ns3
{

std::string
DescribeYamlNode(const YAML::Node& n)
{
    switch (n.Type())
    {
    case YAML::NodeType::Scalar:
        return "\"" + n.Scalar() + "\"";
    case YAML::NodeType::Sequence:
        return "a list";
    case YAML::NodeType::Map:
        return "a section of keys";
    default:
        return "nothing";
    }
}

} // namespace ns3
