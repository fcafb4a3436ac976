/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef GRID_SCHEME_RATES_H
#define GRID_SCHEME_RATES_H

namespace ns3
{

/**
 * \ingroup grid
 * What the planner-level simulation of GRID's Sec. 6.3 measures for one scheme (GRID, ATP,
 * SwitchML, Geryon) on one instance, all in b/s (Sec. 6.1; inasim spec B.7).
 *
 * Every worker of a synchronous job sends at the same rate lambda in these fluid models (the PS
 * waits for the slowest, so a faster worker gains nothing), hence the mean sending rate equals
 * lambda; it is kept separate because it is the quantity the paper plots.
 */
struct GridSchemeRates
{
    double lambdaBps = 0;            //!< the common worker rate the scheme sustains
    double meanSendingBps = 0;       //!< the workers' mean gradient sending rate
    double switchAggregationBps = 0; //!< gradient rate aggregated inside switches
    double psAggregationBps = 0;     //!< load on the PS ingress (switch outputs + direct flows)
};

} // namespace ns3

#endif /* GRID_SCHEME_RATES_H */
