/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ns3/libra-layout.h"
#include "ns3/libra-resources.h"
#include "ns3/pipeline-resources.h"

#include <gtest/gtest.h>
#include <string>

using namespace ns3;

namespace
{

LibraLayout
Layout(uint32_t hotKeys, uint32_t m)
{
    LibraLayout::Config c;
    c.hotKeys = hotKeys;
    c.registers = m;
    c.pairsPerPacket = std::min(16u, m);
    return LibraLayout(c);
}

} // namespace

TEST(LibraResources, PaperMemoryAccount)
{
    // Sec. 5.7 / spec Part D item 3: 30 K x 4 B registers, 408.5 KB of tables, 130 KB of logic
    const LibraMemoryAccount a = LibraResources::Account(30000);
    EXPECT_EQ(a.registerBytes, 120000u); // 117.19 KiB (the paper prints 118 KB)
    EXPECT_EQ(a.floatTableBytes, 418304u);
    EXPECT_EQ(a.controlLogicBytes, 133120u);
    EXPECT_EQ(a.switchSramBytes, 20971520u);
    EXPECT_EQ(a.GetTotalBytes(), 671424u);                 // 655.69 KiB
    EXPECT_DOUBLE_EQ(a.GetShare(), 671424.0 / 20971520.0); // 3.2016 %
    EXPECT_NEAR(100 * a.GetShare(), 3.20, 0.005);
    // with the paper's 118 KB the total is 656.5 KB = 3.21 % of 20 MB
    EXPECT_DOUBLE_EQ(LibraResources::PAPER_REGISTER_KIB + 408.5 + 130.0,
                     LibraResources::PAPER_TOTAL_KIB);
    EXPECT_NEAR(100 * LibraResources::PAPER_TOTAL_KIB * 1024 / a.switchSramBytes, 3.21, 0.005);

    const LibraMemoryAccount exact = LibraResources::Account(60000, false);
    EXPECT_EQ(exact.registerBytes, 240000u);
    EXPECT_EQ(exact.floatTableBytes, 0u);
    EXPECT_EQ(exact.GetTotalBytes(), 240000u + 133120u);
}

TEST(LibraResources, DemandOfTheDefaultLayout)
{
    const PipelineLimits limits; // Tofino-like: 12 stages, 4 ALUs, 1.25 MiB per stage
    const ResourceDemand d = LibraResources::Demand(Layout(30000, 16), true, limits);
    EXPECT_EQ(d.program, "libra");
    ASSERT_EQ(d.tables.size(), 7u);
    EXPECT_EQ(d.tables[0].name, "lns_epo");
    EXPECT_EQ(d.tables[0].stage, 0u);
    EXPECT_EQ(d.tables[4].name, "lns_taylor_exp");
    EXPECT_EQ(d.tables[4].stage, 1u);
    EXPECT_EQ(d.tables[5].stage, 2u);
    EXPECT_EQ(d.tables[6].name, "lns_exp");
    EXPECT_EQ(d.tables[6].stage, 3u);
    EXPECT_EQ(d.tables[6].keyBits, 16u);
    EXPECT_EQ(d.tables[6].valueBits, 16u);
    ASSERT_EQ(d.registerArrays.size(), 1u);
    const RegisterArrayDecl& r = d.registerArrays[0];
    EXPECT_EQ(r.name, "libra_hot");
    EXPECT_EQ(r.entries, 1875u); // ceil(30000 / 16)
    EXPECT_EQ(r.widthBits, 32u);
    EXPECT_EQ(r.lanes, 16u);
    EXPECT_EQ(r.firstStage, 4u);
    EXPECT_EQ(r.lanesPerStage, 4u);

    const FitResult fit = LibraResources::Check(Layout(30000, 16), true, limits);
    ASSERT_TRUE(fit.fits) << fit.error;
    EXPECT_EQ(fit.usage.stagesUsed, 8u); // tables 0..3, registers 4..7
    EXPECT_EQ(fit.usage.statefulAlus, 16u);
    // lanes: 7,500 B -> one 16-KiB block each: 16 x 16384 = 262,144 B; tables (key + value bits,
    // block-rounded): epo 768 B -> 16384, three 12-bit 14,336 B -> 3 x 16384, three 16-bit
    // 262,144 B each -> 786,432: 851,968 B
    EXPECT_EQ(LibraResources::GetPipelineTableBytes(limits), 851968u);
    EXPECT_EQ(fit.usage.sramBytes, 851968u + 262144u);

    const FitResult noTables = LibraResources::Check(Layout(30000, 16), false, limits);
    ASSERT_TRUE(noTables.fits);
    EXPECT_EQ(noTables.usage.stagesUsed, 4u);
    EXPECT_EQ(noTables.usage.sramBytes, 262144u);
    EXPECT_EQ(LibraResources::GetRegisterFirstStage(true), 4u);
    EXPECT_EQ(LibraResources::GetRegisterFirstStage(false), 0u);
}

TEST(LibraResources, PipelineRefusesALayoutThatDoesNotFit)
{
    const PipelineLimits limits;
    // 4 ALUs per stage in stages 4..11: 32 lanes; the 33rd would need a 13th stage
    EXPECT_EQ(LibraResources::MaxRegisters(30000, true, limits), 32u);
    EXPECT_EQ(LibraResources::MaxRegisters(30000, false, limits), 48u);
    EXPECT_TRUE(LibraResources::Check(Layout(30000, 32), true, limits).fits);
    const FitResult f = LibraResources::Check(Layout(30000, 33), true, limits);
    EXPECT_FALSE(f.fits);
    EXPECT_NE(f.error.find("register array \"libra_hot\" (33 lanes, 4 per stage from stage 4) "
                           "needs stages 4..12"),
              std::string::npos)
        << f.error;

    PipelineLimits deep = limits;
    deep.stages = 20;
    EXPECT_EQ(LibraResources::MaxRegisters(30000, true, deep), 64u);

    // 10 M hot keys: a lane of 1.25 MiB / 4 holds 81,920 cells, so m >= 123, but at most 48
    // lanes exist: nothing fits
    EXPECT_EQ(LibraResources::MaxRegisters(10000000, false, limits), 0u);
    EXPECT_EQ(LibraResources::MaxRegisters(0, false, limits), 0u);
}
