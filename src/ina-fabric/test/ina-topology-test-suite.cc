/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The shipped topology files load with the expected sizes, the fat-tree generator has the right
// counts, and the routes of a k=4 fat-tree have the textbook ECMP fan-out. (The exhaustive checks
// of the parser and the routing table are in test/gtest/topology-test.cc.)

#include "error-of.h"

#include "ns3/ina-routing-table.h"
#include "ns3/ina-test-suite.h"
#include "ns3/ina-topology.h"
#include "ns3/test.h"

#include <dirent.h>
#include <exception>
#include <string>

using namespace ns3;

namespace
{

const InaTopology::LinkSpec G100{100000000000ULL, 1000000};

/// topologies/ at the project root, reached from this suite's data dir (src/ina-fabric/test).
const std::string TOPOLOGIES = "../../../topologies/";

} // namespace

/**
 * \ingroup ina-fabric-tests
 * Every .topo file in topologies/ loads; the documented examples have their stated sizes, and
 * the fat-tree file is the k=4 generator's topology node for node.
 */
class InaTopologyFilesTestCase : public TestCase
{
  public:
    InaTopologyFilesTestCase()
        : TestCase("example topology files load with the documented sizes")
    {
    }

  private:
    void DoRun() override
    {
        SetDataDir(NS_TEST_SOURCEDIR);

        struct Expect
        {
            const char* file;
            uint32_t hosts;
            uint32_t switches;
            uint32_t links;
            double maxOversubscription;
        };

        const Expect expected[] = {{"example.topo", 17, 9, 29, 4.0},
                                   {"small-2tier.topo", 8, 4, 12, 2.0},
                                   {"leaf-spine-oversub.topo", 56, 6, 64, 4.0},
                                   {"fat-tree-k4.topo", 16, 20, 48, 1.0}};
        for (const Expect& e : expected)
        {
            const std::string path = CreateDataDirFilename(TOPOLOGIES + e.file);
            try
            {
                InaTopology t = InaTopology::FromFile(path);
                NS_TEST_EXPECT_MSG_EQ(t.GetNHosts(), e.hosts, e.file);
                NS_TEST_EXPECT_MSG_EQ(t.GetNSwitches(), e.switches, e.file);
                NS_TEST_EXPECT_MSG_EQ(t.GetNLinks(), e.links, e.file);
                NS_TEST_EXPECT_MSG_EQ_TOL(t.MaxOversubscription(),
                                          e.maxOversubscription,
                                          1e-12,
                                          e.file);
            }
            catch (const std::exception& ex)
            {
                NS_TEST_ASSERT_MSG_EQ(true, false, e.file << ": " << ex.what());
            }
        }

        InaTopology file =
            InaTopology::FromFile(CreateDataDirFilename(TOPOLOGIES + "fat-tree-k4.topo"));
        InaTopology gen = InaTopology::FatTree(4, G100, G100);
        for (uint32_t l = 0; l < gen.GetNLinks(); ++l)
        {
            NS_TEST_EXPECT_MSG_EQ(file.GetLink(l).a, gen.GetLink(l).a, "link " << l);
            NS_TEST_EXPECT_MSG_EQ(file.GetLink(l).b, gen.GetLink(l).b, "link " << l);
        }

        const std::string dir = CreateDataDirFilename(TOPOLOGIES);
        DIR* d = opendir(dir.c_str());
        const bool listed = d != nullptr;
        NS_TEST_ASSERT_MSG_EQ(listed, true, "cannot list " << dir);
        uint32_t files = 0;
        while (dirent* entry = readdir(d))
        {
            const std::string name = entry->d_name;
            if (name.size() > 5 && name.compare(name.size() - 5, 5, ".topo") == 0)
            {
                ++files;
                try
                {
                    InaTopology::FromFile(dir + name);
                }
                catch (const std::exception& ex)
                {
                    NS_TEST_EXPECT_MSG_EQ(true, false, name << ": " << ex.what());
                }
            }
        }
        closedir(d);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(files, 4u, "topologies/ ships at least four examples");
    }
};

/**
 * \ingroup ina-fabric-tests
 * k-ary fat-trees for k = 4, 6, 8: k^3/4 hosts, 5k^2/4 switches, 3k^3/4 links, k ports a switch.
 */
class InaFatTreeCountsTestCase : public TestCase
{
  public:
    InaFatTreeCountsTestCase()
        : TestCase("fat-tree host, switch and link counts")
    {
    }

  private:
    void DoRun() override
    {
        const uint32_t expected[][4] = {{4, 16, 20, 48}, {6, 54, 45, 162}, {8, 128, 80, 384}};
        for (const auto& e : expected)
        {
            InaTopology t = InaTopology::FatTree(e[0], G100, G100);
            NS_TEST_EXPECT_MSG_EQ(t.GetNHosts(), e[1], "k=" << e[0]);
            NS_TEST_EXPECT_MSG_EQ(t.GetNSwitches(), e[2], "k=" << e[0]);
            NS_TEST_EXPECT_MSG_EQ(t.GetNLinks(), e[3], "k=" << e[0]);
            for (uint32_t s = t.GetNHosts(); s < t.GetNNodes(); ++s)
            {
                NS_TEST_EXPECT_MSG_EQ(t.Neighbors(s).size(), e[0], "switch " << s);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(tests::Throws<std::invalid_argument>([] {
                                  InaTopology::FatTree(5, G100, G100);
                              }),
                              true,
                              "odd k must be rejected");
    }
};

/**
 * \ingroup ina-fabric-tests
 * Between pods of a k=4 fat-tree: 4 shortest paths; 2 next hops at the ToR and at the agg, 1 at the
 * core and on the way down.
 */
class InaFatTreeRoutesTestCase : public TestCase
{
  public:
    InaFatTreeRoutesTestCase()
        : TestCase("k=4 fat-tree ECMP fan-out")
    {
    }

  private:
    void DoRun() override
    {
        InaRoutingTable rt(InaTopology::FatTree(4, G100, G100));
        // h0 -> h15: ToR 16, agg 24 or 25, a core, agg 30 or 31, ToR 23
        NS_TEST_EXPECT_MSG_EQ(rt.AllShortestPaths(0, 15).size(), 4u, "paths between pods");
        NS_TEST_EXPECT_MSG_EQ(rt.Distance(0, 15), 6u, "hops between pods");
        NS_TEST_EXPECT_MSG_EQ(rt.NextHops(16, 15).size(), 2u, "ToR next hops");
        NS_TEST_EXPECT_MSG_EQ(rt.NextHops(24, 15).size(), 2u, "agg next hops");
        NS_TEST_EXPECT_MSG_EQ(rt.NextHops(32, 15).size(), 1u, "core next hops");
        NS_TEST_EXPECT_MSG_EQ(rt.NextHops(30, 15).size(), 1u, "down agg next hops");
        NS_TEST_EXPECT_MSG_EQ(rt.NextHops(23, 15).at(0), 1u, "ToR 23 reaches h15 on port 1");
    }
};

/**
 * \ingroup ina-fabric-tests
 * Topology generators, files and routes.
 */
class InaTopologyTestSuite : public InaTestSuite
{
  public:
    InaTopologyTestSuite()
        : InaTestSuite("ina-topology", Type::UNIT)
    {
        AddTestCase(new InaTopologyFilesTestCase);
        AddTestCase(new InaFatTreeCountsTestCase);
        AddTestCase(new InaFatTreeRoutesTestCase);
    }
};

static InaTopologyTestSuite g_inaTopologyTestSuite; //!< registers the suite
