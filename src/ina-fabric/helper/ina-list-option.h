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
 * The items of a comma-separated list in one option or Attribute ("spine1, spine2", "2,2,1"),
 * white space around each item dropped. Every list value in inasim is read through it, so that
 * "a,,b" or a trailing comma is an error everywhere rather than a silently shorter list.
 *
 * \param text the value; empty or blank: no items
 * \param key what set it, for the error ("StandbySwitch", "--workers")
 * \return the items, in the list's order
 * Throws std::invalid_argument "KEY='TEXT': item N of the comma-separated list is empty" when
 * any item (the first, one between two commas, the last) is empty or blank.
 */
std::vector<std::string> InaSplitList(const std::string& text, const std::string& key);

/**
 * \ingroup ina-fabric
 * The positive integers of a command-line option's comma-separated list (worker counts, thread
 * counts: "8,16,32"), for the example programs that sweep such a list in one run.
 *
 * \param text the option's value
 * \param option the option's name without "--", for the error
 * \return the integers, in the list's order
 * Throws std::invalid_argument naming `--option` and the bad item when an item is empty
 * (InaSplitList), not a decimal number, 0 or more than 9 digits, or when the list is empty.
 */
std::vector<uint32_t> InaParsePositiveList(const std::string& text, const std::string& option);

} // namespace ns3

#endif /* INA_LIST_OPTION_H */
