/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef AGGREGATION_PROTOCOL_REGISTRY_H
#define AGGREGATION_PROTOCOL_REGISTRY_H

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * Short protocol names a scenario uses (`protocol: ring`) mapped to AggregationProtocol TypeIds.
 * A protocol registers itself from its own .cc file:
 * \code
 *   static AggregationProtocolRegistry::Registrar g_ring("ring", "ns3::RingAllReduceProtocol",
 *       "ring all-reduce over the reliable transport (no in-network aggregation)");
 * \endcode
 * Registration happens when the library loads, like NS_OBJECT_ENSURE_REGISTERED. The registry
 * holds names only (no state a simulation changes), so it is safe as a process-wide table.
 */
class AggregationProtocolRegistry
{
  public:
    struct Entry
    {
        std::string name;
        std::string typeId;
        std::string description;
    };

    struct Registrar
    {
        Registrar(const std::string& name,
                  const std::string& typeId,
                  const std::string& description);
    };

    /// The TypeId name for a short name; throws std::runtime_error listing the known names.
    static std::string Lookup(const std::string& name);
    static bool Has(const std::string& name);
    /// Sorted by name.
    static std::vector<Entry> List();

  private:
    static std::vector<Entry>& Entries();
};

} // namespace ns3

#endif /* AGGREGATION_PROTOCOL_REGISTRY_H */
