/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "libra-sparse-model.h"

#include "libra-workload-fit.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace ns3
{

namespace
{

/**
 * DeepLight (DeepFwFM) on Criteo: the rows of its 39 fields' embedding tables, as the training log
 * in the DeepLight authors' released code prints them for the full Criteo set (13 numerical
 * fields of one row each, then the 26 categorical ones, values seen fewer than 8 times dropped);
 * they sum to 1,326,055.
 */
const std::vector<uint32_t> DEEPLIGHT_FIELDS = {
    1,    1,     1,      1,      1,    1,    1,     1,      1,  1,     1,     1,      1,
    1458, 556,   245197, 166166, 306,  20,   12055, 634,    4,  46330, 5229,  243454, 3177,
    27,   11745, 225322, 11,     4727, 2058, 5,     238640, 18, 16,    67856, 89,     50942};

/**
 * One of the paper's two industrial models (Sec. 3.1, Fig. 5): its size and the top 30 K
 * parameters' share of the updates; 10,000 row draws per push (the rows a worker pushes are not
 * given).
 */
LibraSparseModel
Industrial(const std::string& name, uint32_t rows, double topShare, const std::string& source)
{
    LibraSparseModel m;
    m.name = name;
    m.rows = rows;
    m.accesses = 10000;
    m.topKeys = 30000;
    m.topShare = topShare;
    m.source = source;
    return m;
}

LibraSparseModel
DeepLight()
{
    LibraSparseModel m;
    m.name = "deeplight";
    m.fieldRows = DEEPLIGHT_FIELDS;
    m.rows = std::accumulate(m.fieldRows.begin(), m.fieldRows.end(), 0U);
    m.dim = 10;                                                    // embedding size 10
    m.accesses = static_cast<uint32_t>(m.fieldRows.size()) * 2048; // a batch of 2,048 samples
    m.topKeys = 40000;                                             // Libra paper Sec. 5.2
    m.denseParameters = 479551;                                    // DNN 400-400-400, FwFM's r, ...
    m.source = "DeepLight (DeepFwFM) on Criteo: 39 fields, 1,326,055 rows of 10, batch 2,048 "
               "(the DeepLight authors' training log); popularity within a field not given";
    return m;
}

LibraSparseModel
Lstm()
{
    LibraSparseModel m;
    m.name = "lstm";
    // The input embedding and the sampled softmax's weights, one row of 512 per word each.
    m.rows = 2 * 793470;
    m.dim = 512;
    // 128 sequences of 20 steps: 2,560 input words, 2,560 target rows and 8,192 sampled ones.
    m.accesses = 128 * 20 * 2 + 8192;
    m.exponent = 1.0; // Zipf's law of word frequencies; the sampler's log-uniform law is Zipfian
    m.topKeys = 60000;
    m.denseParameters = 9445376; // the LSTM-2048-512 cell and its projection
    m.source = "LSTM-2048-512 on the One Billion Word benchmark (Exploring the Limits of Language "
               "Modeling; its first author's baseline code): 793,470 words, 512 floats, batch "
               "128 x 20, 8,192 sampled softmax classes; word frequency Zipf s = 1";
    return m;
}

LibraSparseModel
Ncf()
{
    LibraSparseModel m;
    m.name = "ncf";
    m.fieldRows = {6040, 3706}; // users, items of MovieLens 1M
    m.rows = 6040 + 3706;
    m.dim = 8 + 32;           // GMF's 8 predictive factors and the MLP's [64,...]/2
    m.accesses = 2 * 256;     // a batch of 256 (user, item) instances
    m.topKeys = 60000;        // Libra paper Sec. 5.2
    m.denseParameters = 2761; // MLP 64-32-16-8 and the prediction layer
    m.source = "NCF (NeuMF) on MovieLens 1M (Neural Collaborative Filtering, Sec. 4.1; its "
               "authors' code): 6,040 users + 3,706 items, 40 floats, batch 256; popularity "
               "within users and items not given";
    return m;
}

LibraSparseModel
OaLike()
{
    return Industrial("oa-like",
                      150000000,
                      0.50,
                      "online advertising (Libra paper Sec. 3.1, Fig. 5: 150 M parameters, the top "
                      "30 K take over half of the updates)");
}

LibraSparseModel
SeLike()
{
    return Industrial("se-like",
                      9000000,
                      0.70,
                      "search engine (Libra paper Sec. 3.1, Fig. 5: about 9 M parameters, the top "
                      "30 K take about 70 % of the updates)");
}

/// Every model by its name, in the order Names() lists them: the one list a new model joins.
const std::vector<std::pair<std::string, LibraSparseModel (*)()>> CATALOGUE = {
    {"oa-like", &OaLike},
    {"se-like", &SeLike},
    {"deeplight", &DeepLight},
    {"lstm", &Lstm},
    {"ncf", &Ncf},
};

} // namespace

std::vector<std::string>
LibraSparseModel::Names()
{
    std::vector<std::string> names;
    for (const auto& entry : CATALOGUE)
    {
        names.push_back(entry.first);
    }
    return names;
}

LibraSparseModel
LibraSparseModel::Lookup(const std::string& name)
{
    for (const auto& entry : CATALOGUE)
    {
        if (entry.first == name)
        {
            return entry.second();
        }
    }
    std::string names;
    for (const std::string& n : Names())
    {
        names += n + ", ";
    }
    throw std::invalid_argument("unknown sparse model '" + name + "': expected " + names +
                                "or custom (with Rows and Exponent)");
}

double
LibraSparseModel::SolveExponent(uint32_t useDim, uint32_t useAccesses) const
{
    if (exponent >= 0)
    {
        return exponent;
    }
    // The hot parameters are whole rows: the top topKeys / D rows.
    const uint32_t topRows = std::min(rows, std::max<uint32_t>(1, topKeys / useDim));
    double share = topShare;
    if (!fieldRows.empty())
    {
        const uint32_t samples =
            std::max<uint32_t>(1, useAccesses / static_cast<uint32_t>(fieldRows.size()));
        share = LibraWorkloadFit::FieldUniformUpdateShare(fieldRows, samples, topRows);
    }
    return LibraWorkloadFit::SolveExponent(rows, useAccesses, topRows, share);
}

} // namespace ns3
