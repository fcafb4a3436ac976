/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_LIST_OPTION_H
#define INA_LIST_OPTION_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The positive integers of a command-line option's comma-separated list (worker counts, thread
 * counts: "8,16,32"), for the example programs that sweep such a list in one run.
 *
 * \param text the option's value
 * \param option the option's name without "--", for the error
 * \return the integers, in the list's order
 * Throws std::invalid_argument naming `--option` and the bad item when an item is empty, not a
 * decimal number, 0 or more than 9 digits, or when the list is empty.
 */
std::vector<uint32_t> InaParsePositiveList(const std::string& text, const std::string& option);

} // namespace ns3

#endif /* INA_LIST_OPTION_H */
