/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_NUMBER_TEXT_H
#define INA_NUMBER_TEXT_H

#include <cstdio>
#include <string>

namespace ns3
{

/**
 * \ingroup ina-training
 * A number as messages and parameter summaries print it: printf's "%.{digits}g", the same on
 * every platform (std::to_string prints six decimals, 1e-9 as "0.000000"; a stream's text
 * depends on its flags).
 * \param v the number
 * \param digits significant digits (printf's default, 6, unless a message needs more)
 * \return its text
 */
inline std::string
InaNumberText(double v, int digits = 6)
{
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%.*g", digits, v);
    return buf;
}

} // namespace ns3

#endif /* INA_NUMBER_TEXT_H */
