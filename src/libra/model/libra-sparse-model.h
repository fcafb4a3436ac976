/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_SPARSE_MODEL_H
#define LIBRA_SPARSE_MODEL_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * A named sparse model of the Libra paper's evaluation (Sec. 5.1: the industrial OA and SE, and
 * DeepLight, LSTM and NCF), as LibraProtocol's Workload: the embedding table's size and the law
 * of its row accesses, for a SparseWorkload (one Zipf law over popularity ranks).
 *
 * Every number comes from a source, cited in src/libra/doc/libra.rst ("The five models"): OA and
 * SE from the Libra paper (Fig. 5: size and the top 30 K parameters' share of the updates); the
 * three public models from their own papers and the code their authors released, since the Libra
 * paper gives only their hot counts (Sec. 5.2). The skew is given one of three ways, as the
 * source allows:
 *  - exponent: the source gives the law itself (word frequencies, Zipf's law);
 *  - topKeys and topShare: the source gives the hot parameters' share of the updates (Fig. 5);
 *    the Zipf exponent whose updates have that share is solved for (LibraWorkloadFit);
 *  - fieldRows: the model looks up one row of each of several tables (fields) per sample and the
 *    sources give the tables' sizes but no popularity within them; each field is taken as
 *    uniform, the least skewed law those sizes allow, its hot share computed
 *    (LibraWorkloadFit::FieldUniformUpdateShare) and the exponent solved as above. The real law is
 *    more skewed, so Libra's hot share is a lower bound there.
 */
class LibraSparseModel
{
  public:
    std::string name;                //!< the Workload value
    uint32_t rows = 0;               //!< R, rows of the embedding table(s)
    uint32_t dim = 1;                //!< D, floats per row
    uint32_t accesses = 0;           //!< row draws per worker and iteration (one batch)
    uint32_t topKeys = 0;            //!< the hot parameters the skew is given for
    double topShare = 0;             //!< their share of the updates (0: not given)
    double exponent = -1;            //!< the Zipf exponent of a draw (negative: solved)
    std::vector<uint32_t> fieldRows; //!< rows per field, one draw each per sample (empty: none)
    uint64_t denseParameters = 0;    //!< the dense part's parameters (the DenseNet), for reference
    std::string source;              //!< where the numbers come from, in a line

    /**
     * \param name oa-like, se-like, deeplight, lstm or ncf
     * \return the model
     * \throws std::invalid_argument listing the names
     */
    static LibraSparseModel Lookup(const std::string& name);

    /// \return the names Lookup knows, in the paper's order
    static std::vector<std::string> Names();

    /**
     * The Zipf exponent of a SparseWorkload with this model's skew.
     * \param dim D in use (the hot count in rows is topKeys / dim)
     * \param accesses draws per push in use
     * \return the exponent
     * \throws std::invalid_argument when no exponent in [0, 8] reaches the share
     */
    double SolveExponent(uint32_t dim, uint32_t accesses) const;
};

} // namespace ns3

#endif /* LIBRA_SPARSE_MODEL_H */
