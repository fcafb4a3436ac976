/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Pure logic of the pipeline model, no simulator: the fit check's arithmetic (SRAM blocks, table
// limits, sums over several programs), register cells of odd widths, PipelinePass used on its own,
// and the exact-match table's hash path under inserts and removals. Expected values are worked out
// by hand in the comments.

#include "../../src/ina-fabric/test/error-of.h"

#include "ns3/exact-match-table.h"
#include "ns3/pipeline-pass.h"
#include "ns3/pipeline-resources.h"
#include "ns3/register-array.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

ResourceDemand
Demand(const std::string& program)
{
    ResourceDemand d;
    d.program = program;
    return d;
}

/// A register array named `name` of `entries` cells of `widthBits` bits.
RegisterArrayDecl
Register(const std::string& name, uint32_t entries, uint32_t widthBits)
{
    RegisterArrayDecl d;
    d.name = name;
    d.entries = entries;
    d.widthBits = widthBits;
    return d;
}

/// A table named `name` of `entries` entries, keys of `keyBits` bits, values of `valueBits`.
TableDecl
Table(const std::string& name, uint32_t entries, uint32_t keyBits, uint32_t valueBits)
{
    TableDecl d;
    d.name = name;
    d.entries = entries;
    d.keyBits = keyBits;
    d.valueBits = valueBits;
    return d;
}

TEST(PipelineResources, FormatBytes)
{
    EXPECT_EQ(PipelineResources::FormatBytes(512), "512 B");
    EXPECT_EQ(PipelineResources::FormatBytes(16384), "16384 B (16.00 KiB)");
    EXPECT_EQ(PipelineResources::FormatBytes(1310720), "1310720 B (1.25 MiB)");
}

TEST(PipelineResources, SramIsCountedInWholeBlocks)
{
    PipelineLimits limits;
    RegisterArrayDecl counter = Register("c", 1, 32);
    // 4 B still takes a whole 16 KiB block; with 1-byte blocks it is 4 B.
    EXPECT_EQ(PipelineResources::LaneSramBytes(counter, limits), 16384u);
    limits.sramBlockBytes = 1;
    EXPECT_EQ(PipelineResources::LaneSramBytes(counter, limits), 4u);
    // 1000 x 17 bit = 17000 bit = 2125 B.
    counter.entries = 1000;
    counter.widthBits = 17;
    EXPECT_EQ(PipelineResources::LaneSramBytes(counter, limits), 2125u);
    const TableDecl t = Table("", 100, 20, 12); // 100 x 32 bit = 400 B
    EXPECT_EQ(PipelineResources::TableSramBytes(t, limits), 400u);
    limits.sramBlockBytes = 128;
    EXPECT_EQ(PipelineResources::TableSramBytes(t, limits), 512u);
}

TEST(PipelineResources, BlockRoundingIsNamedInTheRefusal)
{
    PipelineLimits limits;
    limits.sramPerStageBytes = 32768; // two blocks
    ResourceDemand d = Demand("tiny");
    d.AddRegisterArray("a", 1, 32, 0).payload = false;
    d.AddRegisterArray("b", 1, 32, 0).payload = false;
    d.AddTable("t", 1, 8, 8, 0);
    FitResult r = PipelineResources::Check({d}, limits);
    EXPECT_FALSE(r.fits);
    EXPECT_EQ(r.error,
              "program \"tiny\" does not fit: stage 0 needs 49152 B (48.00 KiB) of SRAM but a "
              "stage has 32768 B (32.00 KiB) (SramPerStage): register array \"a\" of \"tiny\" "
              "uses 1 x 1 x 32 bit = 4 B (16384 B in SRAM blocks), register array \"b\" of "
              "\"tiny\" uses 1 x 1 x 32 bit = 4 B (16384 B in SRAM blocks), table \"t\" of "
              "\"tiny\" uses 1 x (8 + 8) bit = 2 B (16384 B in SRAM blocks)");
    EXPECT_EQ(r.usage.stages[0].sramBytes, 49152u);
    EXPECT_EQ(r.usage.stages[0].statefulAlus, 2u);
    EXPECT_EQ(r.usage.stages[0].tables, 1u);
}

TEST(PipelineResources, TablesPerStage)
{
    PipelineLimits limits;
    limits.tablesPerStage = 2;
    ResourceDemand d = Demand("lut");
    d.AddTable("a", 4, 8, 8, 6);
    d.AddTable("b", 4, 8, 8, 6);
    d.AddTable("c", 4, 8, 8, 6);
    FitResult r = PipelineResources::Check({d}, limits);
    EXPECT_EQ(r.error,
              "program \"lut\" does not fit: stage 6 needs 3 tables but a stage has 2 "
              "(TablesPerStage): table \"a\" of \"lut\", table \"b\" of \"lut\", table \"c\" of "
              "\"lut\"");
}

TEST(PipelineResources, TablesAndRegisterArraysInOneStageAreBothChecked)
{
    // A stage over its ALUs that also holds a table, and a stage over its tables that also holds
    // a register array: each is refused, naming only the holders of the short resource.
    PipelineLimits limits;
    limits.tablesPerStage = 1;
    ResourceDemand d = Demand("mixed");
    d.AddRegisterArray("v", 16, 32, 2, 6, 6); // 6 lanes at stage 2: 2 more than its 4 ALUs
    d.AddTable("t2", 4, 8, 8, 2);
    d.AddRegisterArray("c", 16, 32, 5); // one lane at stage 5
    d.AddTable("a", 4, 8, 8, 5);
    d.AddTable("b", 4, 8, 8, 5); // two tables at stage 5, which has one
    FitResult r = PipelineResources::Check({d}, limits);
    EXPECT_FALSE(r.fits);
    EXPECT_EQ(r.error,
              "program \"mixed\" does not fit:\n"
              "  stage 2 needs 6 stateful ALUs but a stage has 4 (StatefulAlusPerStage): register "
              "array \"v\" of \"mixed\" lanes 0-5 uses 6\n"
              "  stage 5 needs 2 tables but a stage has 1 (TablesPerStage): table \"a\" of "
              "\"mixed\", table \"b\" of \"mixed\"");
    EXPECT_EQ(r.usage.stagesUsed, 2u);
    EXPECT_EQ(r.usage.tables, 3u);
}

TEST(PipelineResources, SumOverSeveralInstalledPrograms)
{
    PipelineLimits limits;
    ResourceDemand a = Demand("a");
    a.AddRegisterArray("x", 16, 32, 4, 2, 2);
    ResourceDemand b = Demand("b");
    b.AddRegisterArray("y", 16, 32, 4);
    ResourceDemand c = Demand("c");
    c.AddRegisterArray("z", 16, 32, 3, 4, 2); // lanes 2-3 land in stage 4
    FitResult r = PipelineResources::Check({a, b, c}, limits);
    EXPECT_FALSE(r.fits);
    EXPECT_EQ(r.error,
              "program \"c\" does not fit beside \"a\", \"b\": stage 4 needs 5 stateful ALUs but a "
              "stage has 4 (StatefulAlusPerStage): register array \"x\" of \"a\" lanes 0-1 uses 2, "
              "register array \"y\" of \"b\" uses 1, register array \"z\" of \"c\" lanes 2-3 uses "
              "2");
    // Without c: stage 4 holds 3 lanes, stage 3 none.
    r = PipelineResources::Check({a, b}, limits);
    EXPECT_TRUE(r.fits);
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.usage.stages[4].statefulAlus, 3u);
    EXPECT_EQ(r.usage.stages[3].statefulAlus, 0u);
    EXPECT_EQ(r.usage.stagesUsed, 1u);
    ASSERT_EQ(r.usage.programs.size(), 2u);
    EXPECT_EQ(r.usage.programs[0].statefulAlus, 2u);
    EXPECT_EQ(r.usage.programs[0].sramBytes, 32768u);
}

TEST(PipelineResources, HugeDeclarationsDoNotWrapIntoFitting)
{
    PipelineLimits limits;
    ResourceDemand d = Demand("huge");
    // 2^32-1 lanes in one stage: the ALU and SRAM sums must not wrap to something small.
    d.AddRegisterArray("v", 0xffffffffu, 64, 0, 0xffffffffu, 0xffffffffu);
    FitResult r = PipelineResources::Check({d}, limits);
    EXPECT_FALSE(r.fits);
    EXPECT_NE(r.error.find("stage 0 needs 4294967295 stateful ALUs"), std::string::npos) << r.error;
}

TEST(RegisterArray, WidthsWrapAndSignExtend)
{
    RegisterArrayDecl d = Register("r", 2, 16);
    RegisterArray a(d, "p");
    a.ControlWrite(1, 0, 0x12345);
    EXPECT_EQ(a.ControlRead(1, 0), 0x2345u);
    EXPECT_EQ(a.ToSigned(0xffff), -1);
    EXPECT_EQ(a.ToSigned(0x8000), -32768);
    EXPECT_EQ(a.ToSigned(0x7fff), 32767);
    a.ControlFill(0x1ffff);
    EXPECT_EQ(a.ControlRead(0, 0), 0xffffu);

    d.widthBits = 1;
    RegisterArray bit(d, "p");
    EXPECT_EQ(bit.ToSigned(1), -1);
    EXPECT_EQ(bit.Truncate(3), 1u);

    EXPECT_EQ(ns3::tests::ErrorOf<std::out_of_range>(
                  [&] {
                      a.ControlRead(2, 0);
                  },
                  "expected std::out_of_range"),
              "register array \"r\" of \"p\": control-plane access to index 2 lane 0 but "
              "it has 2 entries and 1 lanes");
}

TEST(PipelinePass, Int32OperationsOnNarrowCells)
{
    RegisterArrayDecl d = Register("v", 4, 16);
    d.lanes = 3;
    d.lanesPerStage = 3;
    RegisterArray a(d, "p");
    const int32_t in[3] = {30000, 40000, -1};
    int32_t out[3];
    {
        PipelinePass pass(1, nullptr, 0, 32);
        pass.RmwAdd(a, 2, 0, 3, in, out);
    }
    // 16-bit cells: 30000 stays; 40000 = 0x9c40 reads as -25536; -1 = 0xffff reads as -1.
    EXPECT_EQ(out[0], 30000);
    EXPECT_EQ(out[1], -25536);
    EXPECT_EQ(out[2], -1);
    {
        PipelinePass pass(2, nullptr, 0, 32);
        pass.RmwAdd(a, 2, 0, 3, in, out);
    }
    // 60000 = 0xea60 -> -5536; 80000 mod 65536 = 14464; -2.
    EXPECT_EQ(out[0], -5536);
    EXPECT_EQ(out[1], 14464);
    EXPECT_EQ(out[2], -2);
    {
        PipelinePass pass(3, nullptr, 0, 32);
        pass.ReadModifyWriteLanes(a, 2, 1, 2, [](uint32_t lane, uint64_t& cell) {
            cell = lane;
        });
        EXPECT_EQ(pass.GetValuesTouched(), 2u);
        EXPECT_EQ(pass.GetStage(), 0u);
    }
    EXPECT_EQ(a.ControlRead(2, 1), 1u);
    EXPECT_EQ(a.ControlRead(2, 2), 2u);
    {
        // The same pass id is the same pass: a second access is refused even across objects.
        PipelinePass again(3, nullptr, 0, 32);
        EXPECT_THROW(again.Read(a, 0, 2), PipelineViolation);
    }
    {
        PipelinePass pass(4, nullptr, 0, 32);
        EXPECT_EQ(ns3::tests::ErrorOf<PipelineViolation>(
                      [&] {
                          pass.Read(a, 4, 0);
                      },
                      "expected PipelineViolation"),
                  "program \"p\": register array \"v\" accessed at index 4 lanes 0 + 1 but "
                  "it has 4 entries and 3 lanes (pass 0)");
        pass.Recirculate();
        EXPECT_TRUE(pass.IsRecirculating());
        EXPECT_THROW(pass.Recirculate(), PipelineViolation);
    }
}

TEST(ExactMatchTable, HashPathSurvivesInsertsAndRemovals)
{
    ExactMatchTable t(Table("t", 1000, 48, 32), "p");
    auto key = [](uint64_t i) {
        return (i * 0x9e3779b1ULL) & 0xffffffffffffULL;
    };
    for (uint64_t i = 0; i < 1000; ++i)
    {
        t.Insert(key(i), i);
    }
    EXPECT_EQ(t.GetSize(), 1000u);
    EXPECT_THROW(t.Insert(key(1000), 1), std::length_error);
    for (uint64_t i = 0; i < 1000; i += 3)
    {
        EXPECT_TRUE(t.Remove(key(i)));
    }
    EXPECT_FALSE(t.Remove(key(0)));
    EXPECT_EQ(t.GetSize(), 666u);
    for (uint64_t i = 0; i < 1000; ++i)
    {
        uint64_t v = 0;
        bool hit = t.ControlLookup(key(i), &v);
        EXPECT_EQ(hit, i % 3 != 0) << i;
        if (hit)
        {
            EXPECT_EQ(v, i);
        }
    }
    // Removed slots are reusable.
    for (uint64_t i = 0; i < 1000; i += 3)
    {
        t.Insert(key(i), i + 1);
    }
    EXPECT_EQ(t.GetSize(), 1000u);
    uint64_t v = 0;
    EXPECT_TRUE(t.ControlLookup(key(999), &v));
    EXPECT_EQ(v, 1000u);
    t.Clear();
    EXPECT_EQ(t.GetSize(), 0u);
    EXPECT_FALSE(t.ControlLookup(key(1), nullptr));
    EXPECT_THROW(t.Insert(1ULL << 48, 0), std::invalid_argument);
    EXPECT_THROW(t.Insert(1, 1ULL << 32), std::invalid_argument);
}

// The flat array (keys of at most 16 bits, Libra's LNS tables) and the hash table (wider keys)
// keep the same entries through the same inserts: a key inserted again is replaced, not counted
// twice, and an insert past the declared entries is refused with the table as it was.
TEST(ExactMatchTable, FlatAndHashPathsAgree)
{
    TableDecl d = Table("t", 3000, 12, 16);
    ExactMatchTable flat(d, "p");
    d.keyBits = 24;
    ExactMatchTable hash(d, "p");
    for (ExactMatchTable* t : {&flat, &hash})
    {
        t->Insert(100, 7);
        t->Insert(2999, 9);
        for (uint64_t k = 0; k < 2500; ++k)
        {
            t->Insert(k, (k * 40503u) & 0xffff);
        }
        EXPECT_EQ(t->GetSize(), 2501u); // 0 .. 2499 and 2999: key 100 was replaced
        for (uint64_t k = 3000; k < 3499; ++k)
        {
            t->Insert(k, 1);
        }
        EXPECT_EQ(t->GetSize(), 3000u);
        EXPECT_THROW(t->Insert(3499, 1), std::length_error);
        t->Insert(2999, 4); // a present key is replaced in a full table
        EXPECT_EQ(t->GetSize(), 3000u);
        EXPECT_THROW(t->Insert(5, 1ULL << 16), std::invalid_argument);
    }
    for (uint64_t k = 0; k < 4096; ++k)
    {
        uint64_t a = 0;
        uint64_t b = 0;
        ASSERT_EQ(flat.ControlLookup(k, &a), hash.ControlLookup(k, &b)) << k;
        EXPECT_EQ(a, b) << k;
    }
    uint64_t v = 0;
    EXPECT_TRUE(flat.ControlLookup(100, &v));
    EXPECT_EQ(v, (100u * 40503u) & 0xffff);
    EXPECT_TRUE(flat.ControlLookup(2999, &v));
    EXPECT_EQ(v, 4u);
    EXPECT_FALSE(flat.ControlLookup(3499, nullptr));
    EXPECT_THROW(flat.Insert(4096, 0), std::invalid_argument);
}

} // namespace
