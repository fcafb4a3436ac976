/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A scenario error keeps its parts apart (file, line, override, key, what) and inasim-run's
// error.json carries them, so a program never takes a message apart to find the key at fault.

#include "ns3/error-report.h"
#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

using namespace ns3;

TEST(ScenarioError, FileAndLineApart)
{
    const ScenarioError e("dir/my:file.yaml:12", "topology.k", "expected an even k >= 4, got 3");
    EXPECT_EQ(e.GetFile(), "dir/my:file.yaml");
    EXPECT_EQ(e.GetLine(), 12u);
    EXPECT_EQ(e.GetOverride(), "");
    EXPECT_EQ(e.GetKey(), "topology.k");
    EXPECT_STREQ(e.what(), "dir/my:file.yaml:12: key 'topology.k': expected an even k >= 4, got 3");
}

TEST(ScenarioError, OverrideApart)
{
    const ScenarioError e("override 'jobs.0.params.Rto=a:b'", "jobs.0.params.Rto", "bad time");
    EXPECT_EQ(e.GetOverride(), "jobs.0.params.Rto=a:b");
    EXPECT_EQ(e.GetFile(), "");
    EXPECT_EQ(e.GetLine(), 0u);
}

TEST(ScenarioError, FileWithoutLine)
{
    // A default's error names only the file; a colon in the name is not a line.
    EXPECT_EQ(ScenarioError("a.yaml", "", "x").GetFile(), "a.yaml");
    EXPECT_EQ(ScenarioError("a.yaml", "", "x").GetLine(), 0u);
    EXPECT_EQ(ScenarioError("c:/x.yaml", "", "x").GetFile(), "c:/x.yaml");
    EXPECT_EQ(ScenarioError("c:/x.yaml", "", "x").GetLine(), 0u);
    EXPECT_EQ(ScenarioError("x.yaml:0", "", "x").GetLine(), 0u);
}

TEST(ScenarioError, LoaderErrorsCarryTheirParts)
{
    try
    {
        ScenarioLoader::LoadString("name: t\ntopology:\n  type: fat-tree\n  k: 3\n", "t.yaml", {});
        FAIL() << "k = 3 was accepted";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(e.GetFile(), "t.yaml");
        EXPECT_EQ(e.GetLine(), 4u);
        EXPECT_EQ(e.GetKey(), "topology.k");
    }
    try
    {
        ScenarioLoader::LoadString("name: t\n", "t.yaml", {"topology.k=odd"});
        FAIL() << "k = odd was accepted";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(e.GetOverride(), "topology.k=odd");
        EXPECT_EQ(e.GetKey(), "topology.k");
    }
}

TEST(ErrorReport, ScenarioErrorInParts)
{
    const auto j = nlohmann::json::parse(
        ErrorReportJson("scenario", 2, ScenarioError("s.yaml:3", "jobs.0.workers", "too many")));
    EXPECT_EQ(j["exit_code"], 2);
    EXPECT_EQ(j["kind"], "scenario");
    EXPECT_EQ(j["message"], "s.yaml:3: key 'jobs.0.workers': too many");
    EXPECT_EQ(j["key"], "jobs.0.workers");
    EXPECT_EQ(j["file"], "s.yaml");
    EXPECT_EQ(j["line"], 3);
    EXPECT_EQ(j["override"], "");
    EXPECT_EQ(j["what"], "too many");
}

TEST(ErrorReport, OtherErrorsHaveOnlyTheMessage)
{
    const auto j =
        nlohmann::json::parse(ErrorReportJson("model", 3, std::logic_error("does not fit")));
    EXPECT_EQ(j["kind"], "model");
    EXPECT_EQ(j["message"], "does not fit");
    EXPECT_FALSE(j.contains("key"));
    // Bytes that are not UTF-8 (a user's file name) are replaced, never thrown on.
    const auto k = nlohmann::json::parse(
        ErrorReportJson("scenario", 2, ScenarioError("\xff.yaml:1", "a", "b")));
    EXPECT_EQ(k["line"], 1);
}
