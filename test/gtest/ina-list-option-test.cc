/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// InaSplitList, every comma-separated list value (items in order, blanks around them dropped, an
// empty item an error naming the key and the item), and InaParsePositiveList, the examples'
// count options on it: the counts in order, and an error naming the option and the bad item.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/ina-list-option.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// The message `parse` throws (std::invalid_argument), or "" if it returned.
template<class F>
std::string
Thrown(F&& parse)
{
    return ns3::tests::ErrorOf<std::invalid_argument>(parse);
}

/// The message InaParsePositiveList throws for `text`, or "" if it parsed.
std::string
ErrorOf(const std::string& text)
{
    return Thrown([&] {
        InaParsePositiveList(text, "workers");
    });
}

/// The message InaSplitList throws for `text`, or "" if it split.
std::string
SplitErrorOf(const std::string& text)
{
    return Thrown([&] {
        InaSplitList(text, "StandbySwitch");
    });
}

} // namespace

TEST(InaListOption, CountsInOrder)
{
    EXPECT_EQ(InaParsePositiveList("8,16,32", "nodes"), (std::vector<uint32_t>{8, 16, 32}));
    EXPECT_EQ(InaParsePositiveList("999999999", "nodes"), (std::vector<uint32_t>{999999999}));
}

TEST(InaListOption, BadItemNamesTheOptionAndItem)
{
    EXPECT_EQ(ErrorOf("8,x"), "--workers=8,x: expected comma-separated positive integers, got 'x'");
    EXPECT_EQ(ErrorOf("8,0"), "--workers=8,0: expected comma-separated positive integers, got '0'");
    EXPECT_EQ(ErrorOf("8,,16"), "--workers='8,,16': item 2 of the comma-separated list is empty");
    EXPECT_EQ(ErrorOf("8,"), "--workers='8,': item 2 of the comma-separated list is empty");
    EXPECT_EQ(ErrorOf("-4"), "--workers=-4: expected comma-separated positive integers, got '-4'");
    EXPECT_EQ(ErrorOf("1234567890"),
              "--workers=1234567890: expected comma-separated positive integers, got "
              "'1234567890'");
    EXPECT_EQ(ErrorOf(""), "--workers is empty");
}

TEST(InaListOption, SplitKeepsOrderAndDropsBlanksAroundItems)
{
    EXPECT_EQ(InaSplitList("spine1, spine2", "k"), (std::vector<std::string>{"spine1", "spine2"}));
    EXPECT_EQ(InaSplitList(" a ,b\t", "k"), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(InaSplitList("a b", "k"), (std::vector<std::string>{"a b"}));
    EXPECT_TRUE(InaSplitList("", "k").empty());
    EXPECT_TRUE(InaSplitList("  ", "k").empty());
}

TEST(InaListOption, SplitRefusesAnEmptyItemNamingKeyAndPlace)
{
    EXPECT_EQ(SplitErrorOf("a,,b"),
              "StandbySwitch='a,,b': item 2 of the comma-separated list is empty");
    EXPECT_EQ(SplitErrorOf("a, ,b"),
              "StandbySwitch='a, ,b': item 2 of the comma-separated list is empty");
    EXPECT_EQ(SplitErrorOf(",a"),
              "StandbySwitch=',a': item 1 of the comma-separated list is empty");
    EXPECT_EQ(SplitErrorOf("a,"),
              "StandbySwitch='a,': item 2 of the comma-separated list is empty");
    EXPECT_EQ(SplitErrorOf(","), "StandbySwitch=',': item 1 of the comma-separated list is empty");
}
