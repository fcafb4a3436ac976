/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef COUNTER_SUM_H
#define COUNTER_SUM_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-training
 * One field of a host's counter struct C (an agent's or a parameter server's Counters) and its
 * name among the protocol's counters (AggregationProtocol::GetCounters, summary.json).
 */
template<typename C>
struct CounterField
{
    const char* name;   //!< the key in GetCounters
    uint64_t C::*field; //!< the field summed over the hosts
};

/**
 * A protocol's counters summed over its hosts: for every field, the counter of that name is set
 * to the field's sum over the hosts (0 when there are none). The table of fields is the one place
 * that pairs a struct's field with its name; a protocol used to keep a local per field, add to it
 * and copy it out, three lists in step.
 * \param into the protocol's counters
 * \param fields the fields and their names
 * \param hosts the hosts (a protocol's agents, its trees' servers)
 * \param read a host's counter struct, or nullptr for a host that has none (it is skipped)
 */
template<typename C, typename Hosts, typename Read>
void
SumCounters(std::map<std::string, double>& into,
            const std::vector<CounterField<C>>& fields,
            const Hosts& hosts,
            Read read)
{
    for (const CounterField<C>& f : fields)
    {
        double sum = 0;
        for (const auto& h : hosts)
        {
            const C* counters = read(h);
            if (counters)
            {
                sum += counters->*f.field;
            }
        }
        into[f.name] = sum;
    }
}

} // namespace ns3

#endif /* COUNTER_SUM_H */
