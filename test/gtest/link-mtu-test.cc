/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The link MTU as a scenario key (topology.mtu, a topology file's mtu=): transports send packets
// of the smallest link MTU, a job's own Mtu must fit it, and packets above a link's MTU are dropped
// and reported.

#include "test-temp-dir.h"

#include "ns3/scenario-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// Runs `yaml`; returns summary.json, or {"error": what} if the scenario was refused.
nlohmann::json
RunYaml(const std::string& yaml)
{
    const std::string out = (inasim_test::TempDir() / "link-mtu-run").string();
    nlohmann::json summary;
    try
    {
        ScenarioRunner runner(ScenarioLoader::LoadString(yaml, "m.yaml"), out);
        std::ostringstream quiet;
        runner.SetConsole(&quiet, &quiet);
        runner.Run();
        std::ifstream in(std::filesystem::path(out) / "summary.json");
        summary = nlohmann::json::parse(in);
    }
    catch (const ScenarioError& e)
    {
        summary["error"] = e.what();
    }
    Simulator::Destroy();
    std::filesystem::remove_all(out);
    return summary;
}

const std::string TRAFFIC = "traffic: [{pattern: permutation, flow_bytes: 900000}]\n";

} // namespace

TEST(LinkMtu, TransportsSendPacketsOfTheLinkMtu)
{
    // Two hosts, one 900 kB flow each way: at 1500 B (the default) about 628 data packets a flow,
    // at 9000 B about 101; the acknowledgements are one per data packet.
    const nlohmann::json small = RunYaml("topology: {type: star, hosts: 2}\n" + TRAFFIC);
    const nlohmann::json jumbo = RunYaml("topology: {type: star, hosts: 2, mtu: 9000}\n" + TRAFFIC);
    ASSERT_EQ(small["completed"], true) << small.dump();
    ASSERT_EQ(jumbo["completed"], true) << jumbo.dump();
    const uint64_t smallPackets = small["links"]["tx_packets"];
    const uint64_t jumboPackets = jumbo["links"]["tx_packets"];
    EXPECT_GT(smallPackets, 5 * jumboPackets) << smallPackets << " vs " << jumboPackets;
    EXPECT_FALSE(small["links"].contains("oversize_drops"));
    EXPECT_FALSE(jumbo["links"].contains("oversize_drops"));
}

TEST(LinkMtu, SmallestLinkOfATopologyFileSetsThePacketSize)
{
    const std::filesystem::path dir = inasim_test::TempDir() / "link-mtu-topo";
    std::filesystem::create_directories(dir);
    {
        std::ofstream topo(dir / "two.topo");
        topo << "defaults rate=100Gbps delay=1us mtu=9000\n"
                "switch s0..s1 tier=tor\n"
                "host h0 attach=s0\nhost h1 attach=s1\n"
                "link s0 s1 mtu=1500\n";
    }
    const nlohmann::json s = RunYaml("topology: {type: file, file: \"" +
                                     (dir / "two.topo").string() + "\"}\n" + TRAFFIC);
    std::filesystem::remove_all(dir);
    ASSERT_EQ(s["completed"], true) << s.dump();
    EXPECT_FALSE(s["links"].contains("oversize_drops")) << s.dump();
}

TEST(LinkMtu, AJobsMtuMustFitTheLinks)
{
    const std::string job = "jobs: [{protocol: ring, workers: 2, workload: {tensor_bytes: 40KB, "
                            "iterations: 1}, params: {Mtu: 4160}}]\n";
    const nlohmann::json refused = RunYaml("topology: {type: star, hosts: 2}\n" + job);
    ASSERT_TRUE(refused.contains("error")) << refused.dump();
    const std::string e = refused["error"];
    EXPECT_NE(e.find("jobs.0.params.Mtu"), std::string::npos) << e;
    EXPECT_NE(e.find("4160"), std::string::npos) << e;
    EXPECT_NE(e.find("1500"), std::string::npos) << e;
    const nlohmann::json ran = RunYaml("topology: {type: star, hosts: 2, mtu: 9000}\n" + job);
    EXPECT_EQ(ran["completed"], true) << ran.dump();
}

TEST(LinkMtu, PacketsAboveTheMtuAreDroppedAndReported)
{
    // SwitchML's 64-element frames are 308 B: a 200-B MTU carries none of them, the workers time
    // out and give up, and the summary says why packets vanished.
    const nlohmann::json s = RunYaml(
        "topology: {type: star, hosts: 2, mtu: 200}\n"
        "jobs: [{protocol: switchml, workers: 2, workload: {tensor_bytes: 4KB, iterations: 1}, "
        "params: {ElementsPerPacket: 64}}]\n");
    ASSERT_FALSE(s.contains("error")) << s.dump();
    EXPECT_EQ(s["completed"], false);
    ASSERT_TRUE(s["links"].contains("oversize_drops")) << s.dump();
    EXPECT_GT(s["links"]["oversize_drops"].get<uint64_t>(), 0u);
}
