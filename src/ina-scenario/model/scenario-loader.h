/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SCENARIO_LOADER_H
#define SCENARIO_LOADER_H

#include "scenario.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-scenario
 * Reads a YAML scenario, applies KEY=VALUE overrides, fills defaults and validates.
 *
 * Loading is layered: a default Scenario, then the file, then each override in order, each layer
 * setting only the keys it names (sections merge key by key; a list given as a whole replaces the
 * list). Then defaults that depend on other keys are filled in (the scenario name, job names,
 * workers from an explicit placement, the topology file's path) and cross-key rules are checked.
 *
 * Overrides are `dotted.path=value`; the value is read as YAML, so `switch.ina_tiers=[tor,agg]`
 * and `topology.host_link={rate: 25Gbps, delay: 2us}` work. A number in the path indexes a list:
 * `jobs.0.workers=16` changes job 0; the index one past the end appends a new entry with default
 * values (`jobs.1.protocol=ring` on a one-job scenario adds a second job); larger indices are
 * errors.
 *
 * Every problem is a ScenarioError naming the file and line (or the override), the key and what was
 * expected; unknown keys list the valid keys at their level. Host ids are checked here for the
 * built-in topologies; for `type: file` the runner calls Scenario::CheckHostIds once it has read
 * the file. Things that load but look unintended (a tensor_bytes next to a model) are collected
 * in Scenario::origins.warnings, in the same "WHERE: key 'K': ..." form, for the caller to print.
 */
class ScenarioLoader
{
  public:
    /**
     * \param path scenario file; relative paths inside it (topology.file) are resolved against its
     *        directory first, then the current directory
     * \param overrides "KEY=VALUE" strings, applied in order after the file
     */
    static Scenario Load(const std::string& path, const std::vector<std::string>& overrides = {});

    /**
     * \param yamlText the scenario document
     * \param sourceName named in errors as the file; its directory resolves relative paths and its
     *        stem is the default scenario name
     * \param overrides "KEY=VALUE" strings, applied in order after the document
     */
    static Scenario LoadString(const std::string& yamlText,
                               const std::string& sourceName,
                               const std::vector<std::string>& overrides = {});

    /**
     * The document alone, before overrides, derived defaults and validation, for a caller that
     * completes it with many override sets (a sweep, one set per run) without reading the YAML
     * again each time. LoadString(text, source, overrides) is
     * Complete(ReadDocument(text, source), overrides).
     * \param yamlText the scenario document
     * \param sourceName as for LoadString
     */
    static Scenario ReadDocument(const std::string& yamlText, const std::string& sourceName);

    /**
     * \param document what ReadDocument returned (a copy: it stays reusable)
     * \param overrides "KEY=VALUE" strings, applied in order after the document
     * \return the scenario with its overrides, derived defaults, validated
     */
    static Scenario Complete(Scenario document, const std::vector<std::string>& overrides);
};

/**
 * \ingroup ina-scenario
 * \return the complete configuration as YAML: every key of the contract with its value after
 *         defaults and overrides, units in their canonical spelling, keys in the contract's order.
 *         The same scenario always gives the same bytes, and loading the text again gives an equal
 *         Scenario. This is what a run writes as config.yaml.
 */
std::string EffectiveConfigYaml(const Scenario& scenario);

} // namespace ns3

#endif /* SCENARIO_LOADER_H */
