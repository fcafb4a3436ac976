/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWEEP_EXPANDER_H
#define SWEEP_EXPANDER_H

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// \ingroup ina-scenario
/// One run of a sweep: the base scenario plus `overrides`.
struct SweepRun
{
    /// "r0007-protocol=atp-workers=16": unique, ordered, safe as a folder name
    std::string id;
    uint32_t index = 0;  ///< position in the expansion, from 0
    uint32_t repeat = 0; ///< 0 .. repeats-1
    uint64_t seed = 0;   ///< the run's seed: the base seed + repeat
    /// axis key -> value as written in the sweep file, in axis order
    std::vector<std::pair<std::string, std::string>> values;
    /// "KEY=VALUE" strings for ScenarioLoader (the axis values, then "seed=N")
    std::vector<std::string> overrides;
};

/// \ingroup ina-scenario
/// The ordered runs of a sweep file.
struct SweepPlan
{
    std::string name;                  ///< `name`, default the sweep file's stem
    std::string sweepFile;             ///< the sweep file as given
    std::string baseFile;              ///< `base`, resolved against the sweep file's directory
    uint32_t repeats = 1;              ///< `repeats`
    uint64_t baseSeed = 1;             ///< the base scenario's seed
    std::vector<std::string> axisKeys; ///< every swept key: axes in file order, then zip groups
    std::vector<SweepRun> runs;

    /**
     * \return {"name", "sweep_file", "base", "repeats", "base_seed", "axes": [keys],
     *          "runs": [{"id", "index", "repeat", "seed", "values": {key: text}, "overrides":
     * [..]}]} with keys in this order (what `inasim-config expand-sweep` prints)
     */
    nlohmann::ordered_json ToJson() const;
};

/**
 * \ingroup ina-scenario
 * Expands a sweep file (docs/scenario-reference.md, "Sweep files") into its runs.
 *
 * Dimensions are the `axes` in file order, then each `zip` group as one dimension whose keys move
 * together; the runs are their cartesian product with the last dimension varying fastest, and each
 * point is repeated `repeats` times with seeds base, base+1, ... (repeats vary fastest of all).
 * An axis is a list of values or a range: `{range: [4, 64], mul: 2}` gives 4, 8, 16, 32, 64 and
 * `{range: [10Gbps, 40Gbps], step: 10Gbps}` gives 10Gbps, 20Gbps, 30Gbps, 40Gbps.
 *
 * Every run is loaded against the base scenario before the plan is returned, so a bad value is
 * reported up front as a ScenarioError naming the sweep file line and the axis.
 */
class SweepExpander
{
  public:
    /// \param sweepPath the sweep file
    static SweepPlan Expand(const std::string& sweepPath);

    /**
     * \param yamlText the sweep document
     * \param sourceName named in errors; `base` is resolved against its directory
     */
    static SweepPlan ExpandString(const std::string& yamlText, const std::string& sourceName);
};

} // namespace ns3

#endif /* SWEEP_EXPANDER_H */
