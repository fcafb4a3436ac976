/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "aggregation-protocol-registry.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

std::vector<AggregationProtocolRegistry::Entry>&
AggregationProtocolRegistry::Entries()
{
    // A function-local static: registrars in other libraries may run before this file's globals.
    static std::vector<Entry> entries;
    return entries;
}

AggregationProtocolRegistry::Registrar::Registrar(const std::string& name,
                                                  const std::string& typeId,
                                                  const std::string& description)
{
    Entries().push_back({name, typeId, description});
}

bool
AggregationProtocolRegistry::Has(const std::string& name)
{
    const auto& e = Entries();
    return std::any_of(e.begin(), e.end(), [&](const Entry& x) {
        return x.name == name;
    });
}

std::string
AggregationProtocolRegistry::Lookup(const std::string& name)
{
    for (const Entry& e : Entries())
    {
        if (e.name == name)
        {
            return e.typeId;
        }
    }
    std::string known;
    for (const Entry& e : List())
    {
        known += (known.empty() ? "" : ", ") + e.name;
    }
    throw std::runtime_error("unknown protocol '" + name +
                             "' (available: " + (known.empty() ? "none" : known) + ")");
}

std::vector<AggregationProtocolRegistry::Entry>
AggregationProtocolRegistry::List()
{
    std::vector<Entry> sorted = Entries();
    std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return a.name < b.name;
    });
    return sorted;
}

} // namespace ns3
