/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// topology.queue.ecn_at_hosts: a window above the bandwidth-delay product queues at the
// sender's own NIC; with the key on, that queue marks ECN and an ESA job's window reacts to it.

#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

using namespace ns3;

namespace
{

/// What one run's outputs say about ECN.
struct EcnSeen
{
    uint64_t hostMarks = 0;   //!< CE marks at host -> switch links
    uint64_t switchMarks = 0; //!< CE marks at switch -> host links
    double decreases = -1;    //!< the job's window decreases for ECN
};

EcnSeen
RunWithEcnAtHosts(bool atHosts)
{
    // 4 workers and a PS; ESA's window starts at ATP's code's maximum (1,200 fragments of 306 B,
    // 367 KB) where the path holds ~100 KB: the rest waits in each worker's NIC queue.
    const std::string yaml =
        std::string("topology: {type: star, hosts: 5, queue: {ecn_at_hosts: ") +
        (atHosts ? "true" : "false") +
        "}}\n"
        "jobs:\n"
        "  - {protocol: esa, workers: 4, ps_hosts: 1, workload: {tensor_bytes: "
        "4MB, iterations: 1}, params: {InitialWindow: 1200}}\n";
    const std::filesystem::path out =
        std::filesystem::temp_directory_path() /
        ("inasim-ecn-at-hosts-test-" + std::string(atHosts ? "on" : "off"));
    {
        ScenarioRunner runner(ScenarioLoader::LoadString(yaml, "ecn.yaml"), out.string());
        std::ostringstream quiet;
        runner.SetConsole(&quiet, &quiet);
        runner.Run();
    }
    Simulator::Destroy();
    EcnSeen seen;
    std::ifstream links(out / "links.csv");
    std::string line;
    std::getline(links, line); // link,from,to,rate_bps,tx_packets,tx_bytes,delivered,drops,ecn,...
    while (std::getline(links, line))
    {
        std::stringstream ss(line);
        std::string field[9];
        for (auto& f : field)
        {
            std::getline(ss, f, ',');
        }
        (field[1][0] == 'h' ? seen.hostMarks : seen.switchMarks) += std::stoull(field[8]);
    }
    std::ifstream summary(out / "summary.json");
    const std::string text((std::istreambuf_iterator<char>(summary)),
                           std::istreambuf_iterator<char>());
    const std::string key = "\"ecn_decreases\": ";
    const size_t at = text.find(key);
    if (at != std::string::npos)
    {
        seen.decreases = std::stod(text.substr(at + key.size()));
    }
    std::filesystem::remove_all(out);
    return seen;
}

} // namespace

TEST(EcnAtHosts, HostNicQueuesMarkOnlyWhenAsked)
{
    const EcnSeen off = RunWithEcnAtHosts(false);
    EXPECT_EQ(off.hostMarks, 0U);
    EXPECT_EQ(off.decreases, 0.0);
    const EcnSeen on = RunWithEcnAtHosts(true);
    EXPECT_GT(on.hostMarks, 0U) << "the workers' NIC queues hold more than the threshold";
    EXPECT_GT(on.decreases, 0.0) << "ESA's window reacts to the marks";
}

TEST(EcnAtHosts, KeyDefaultsToSwitchPortsOnly)
{
    EXPECT_FALSE(ScenarioLoader::LoadString("", "a.yaml").topology.queue.ecnAtHosts);
    EXPECT_TRUE(ScenarioLoader::LoadString("topology: {queue: {ecn_at_hosts: true}}\n", "a.yaml")
                    .topology.queue.ecnAtHosts);
}
