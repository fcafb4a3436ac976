/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The worker's plan of an iteration (WorkerApp::PlanIteration: fusion, partitioning, the layers a
// piece holds, the backward and ByteScheduler-style send orders, worked by hand), its sender
// jitter draws (against an independent splitmix64 implementation), and the scenario's refusal of
// bad worker params with the key named.

#include "test-messages.h"
#include "test-temp-dir.h"

#include "ns3/job-attribute-error.h"
#include "ns3/scenario-loader.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/worker-app.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr int64_t US = 1000000; // ps

ModelSpec
Model(const std::vector<uint64_t>& bytes, const std::vector<int64_t>& backwardPs)
{
    ModelSpec m;
    m.name = "test";
    for (size_t i = 0; i < bytes.size(); ++i)
    {
        m.layers.push_back({"l" + std::to_string(i), bytes[i], 0, backwardPs[i]});
    }
    return m;
}

/// One field of every piece of `plan`, in order.
template<typename T>
std::vector<T>
Field(const std::vector<WorkerApp::Piece>& plan, T WorkerApp::Piece::*field)
{
    std::vector<T> v;
    for (const auto& p : plan)
    {
        v.push_back(p.*field);
    }
    return v;
}

std::vector<uint64_t>
Bytes(const std::vector<WorkerApp::Piece>& plan)
{
    return Field(plan, &WorkerApp::Piece::bytes);
}

std::vector<uint32_t>
Fronts(const std::vector<WorkerApp::Piece>& plan)
{
    return Field(plan, &WorkerApp::Piece::frontLayer);
}

const auto BACKWARD = JobContext::SendOrder::BACKWARD;
const auto BYTESCHEDULER = JobContext::SendOrder::BYTESCHEDULER;

TEST(WorkerPlan, ThePapersTwoLayersOfTwoPartitions)
{
    // Two 8 MB layers, no computation, 4 MB partitions. Backward: layer 2 (index 1) p1, p2, then
    // layer 1 (index 0) p1, p2. ByteScheduler-style: layer 2 p1 goes the moment it is ready (the
    // sender idle); layer 1 is ready at the same instant but after it, so it waits, and being in
    // front it goes before layer 2 p2.
    const ModelSpec m = Model({8000000, 8000000}, {0, 0});
    const auto b = WorkerApp::PlanIteration(m, 0, 4000000, BACKWARD, 0);
    EXPECT_EQ(Fronts(b), (std::vector<uint32_t>{1, 1, 0, 0}));
    EXPECT_EQ(Bytes(b), (std::vector<uint64_t>(4, 4000000)));
    const auto s = WorkerApp::PlanIteration(m, 0, 4000000, BYTESCHEDULER, 100e9);
    EXPECT_EQ(Fronts(s), (std::vector<uint32_t>{1, 0, 0, 1}));
    std::vector<uint32_t> readyIndex;
    std::vector<uint32_t> readyLayer;
    for (const auto& p : s)
    {
        readyIndex.push_back(p.readyIndex);
        readyLayer.push_back(p.readyLayer);
        EXPECT_EQ(p.frontLayer, p.backLayer);
    }
    EXPECT_EQ(readyIndex, (std::vector<uint32_t>{0, 2, 3, 1}));
    EXPECT_EQ(readyLayer, (std::vector<uint32_t>{1, 0, 0, 1}));
}

TEST(WorkerPlan, ByteSchedulerFollowsTheSenderAtTheLineRate)
{
    // Layer 0: 4000 B, backward 2 us; layer 1: 8000 B, backward 6 us; 4000-B pieces. Layer 1's
    // two pieces are ready at 6 us, layer 0's at 8 us.
    const ModelSpec m = Model({4000, 8000}, {2 * US, 6 * US});
    // 100 Gb/s: a piece takes 0.32 us, so L2p2 goes at 6.32 us, before layer 0 is ready.
    EXPECT_EQ(Fronts(WorkerApp::PlanIteration(m, 0, 4000, BYTESCHEDULER, 100e9)),
              (std::vector<uint32_t>{1, 1, 0}));
    // 1 Gb/s: 32 us, the sender is busy with L2p1 until 38 us; then layer 0 goes first.
    EXPECT_EQ(Fronts(WorkerApp::PlanIteration(m, 0, 4000, BYTESCHEDULER, 1e9)),
              (std::vector<uint32_t>{1, 0, 1}));
    // 2 us of layer 0's backward at 4000 B / 2 us = 16 Gb/s: L2p1 ends at exactly 8 us, when
    // layer 0 becomes ready; a piece readied at the instant the sender frees is a candidate.
    EXPECT_EQ(Fronts(WorkerApp::PlanIteration(m, 0, 4000, BYTESCHEDULER, 16e9)),
              (std::vector<uint32_t>{1, 0, 1}));
    // A little faster and L2p2 is already on its way.
    EXPECT_EQ(Fronts(WorkerApp::PlanIteration(m, 0, 4000, BYTESCHEDULER, 16.1e9)),
              (std::vector<uint32_t>{1, 1, 0}));
}

TEST(WorkerPlan, FusedPiecesKnowTheirLayers)
{
    // Layers 0..3 of 1, 2, 3, 4 MB; FusionBytes 5 MB, PartitionBytes 4 MB. Backward: layer 3
    // (4 MB, kept), layer 2 (7 MB: flushed): [0, 4 MB) layer 3, [4, 7 MB) layer 2; layer 1 (kept),
    // layer 0 (flushed at the first layer): one 3 MB piece of layers 1 and 0.
    const ModelSpec m = Model({1000000, 2000000, 3000000, 4000000}, {US, US, US, US});
    const auto p = WorkerApp::PlanIteration(m, 5000000, 4000000, BACKWARD, 0);
    ASSERT_EQ(p.size(), 3u);
    EXPECT_EQ(Bytes(p), (std::vector<uint64_t>{4000000, 3000000, 3000000}));
    EXPECT_EQ(p[0].frontLayer, 3u);
    EXPECT_EQ(p[0].backLayer, 3u);
    EXPECT_EQ(p[0].readyLayer, 2u);
    EXPECT_EQ(p[1].frontLayer, 2u);
    EXPECT_EQ(p[1].backLayer, 2u);
    EXPECT_EQ(p[1].readyLayer, 2u);
    EXPECT_EQ(p[2].frontLayer, 0u);
    EXPECT_EQ(p[2].backLayer, 1u);
    EXPECT_EQ(p[2].readyLayer, 0u);
    // ByteScheduler (1 us per layer, 100 Gb/s: 3 MB = 240 us): [L3] and [L2] are ready together
    // at 2 us and [L2] is in front, so it goes first; [L1+L0] is ready at 4 us and waits for it,
    // then goes before [L3].
    const auto s = WorkerApp::PlanIteration(m, 5000000, 4000000, BYTESCHEDULER, 100e9);
    EXPECT_EQ(Fronts(s), (std::vector<uint32_t>{2, 0, 3}));
}

TEST(WorkerPlan, EmptyLayersBelongToNoPiece)
{
    // Layer 1 has no parameters: the fused piece of layers 2, 1 and 0 holds bytes of 2 and 0 only,
    // and a piece boundary at the empty layer gives it to neither side.
    const ModelSpec m = Model({1000, 0, 1000}, {0, 0, 0});
    const auto fused = WorkerApp::PlanIteration(m, 5000, 0, BACKWARD, 0);
    ASSERT_EQ(fused.size(), 1u);
    EXPECT_EQ(fused[0].frontLayer, 0u);
    EXPECT_EQ(fused[0].backLayer, 2u);
    const auto cut = WorkerApp::PlanIteration(m, 5000, 1000, BACKWARD, 0);
    ASSERT_EQ(cut.size(), 2u);
    EXPECT_EQ(cut[0].frontLayer, 2u);
    EXPECT_EQ(cut[0].backLayer, 2u);
    EXPECT_EQ(cut[1].frontLayer, 0u);
    EXPECT_EQ(cut[1].backLayer, 0u);
    // Without fusion the empty layer flushes nothing.
    EXPECT_EQ(WorkerApp::PlanIteration(m, 0, 0, BACKWARD, 0).size(), 2u);
}

TEST(WorkerPlan, RefusesWhatItCannotPlan)
{
    EXPECT_THROW(WorkerApp::PlanIteration(ModelSpec{}, 0, 0, BACKWARD, 0), std::invalid_argument);
    const ModelSpec m = Model({1000}, {0});
    EXPECT_THROW(WorkerApp::PlanIteration(m, 0, 0, BYTESCHEDULER, 0), std::invalid_argument);
    EXPECT_NO_THROW(WorkerApp::PlanIteration(m, 0, 0, BACKWARD, 0));
    JobContext ctx;
    EXPECT_THROW(WorkerApp::PlanIteration(ctx), std::invalid_argument);
    EXPECT_EQ(WorkerApp::PlanRateBps(ctx), 0.0);
}

TEST(WorkerPlan, RefusesExactlyTheIterationsOfMoreThanMaxPieces)
{
    // One piece a byte: MAX_PIECES bytes in one layer are MAX_PIECES pieces, which a worker
    // hands; the pre-planning bound (bytes over the partition size) must not refuse them for the
    // one piece a layer that fusion might add.
    constexpr uint64_t MAX = WorkerApp::MAX_PIECES;
    EXPECT_EQ(WorkerApp::PlanIteration(Model({MAX}, {0}), 0, 1, BACKWARD, 0).size(), MAX);
    // Two layers of MAX - 1 and MAX + 1 bytes in 2-B partitions: MAX / 2 + (MAX / 2 + 1) pieces,
    // one too many, though the bytes alone say MAX.
    try
    {
        WorkerApp::PlanIteration(Model({MAX - 1, MAX + 1}, {0, 0}), 0, 2, BACKWARD, 0);
        ADD_FAILURE() << "MAX_PIECES + 1 pieces were planned";
    }
    catch (const JobAttributeError& e)
    {
        EXPECT_EQ(e.GetAttribute(), "PartitionBytes");
        EXPECT_NE(std::string(e.what()).find("into " + std::to_string(MAX + 1) + " pieces;"),
                  std::string::npos)
            << e.what();
    }
    // Over the bound by the bytes alone: refused before anything is planned.
    try
    {
        WorkerApp::PlanIteration(Model({MAX + 1}, {0}), 0, 1, BACKWARD, 0);
        ADD_FAILURE() << "MAX_PIECES + 1 one-byte partitions were planned";
    }
    catch (const JobAttributeError& e)
    {
        EXPECT_NE(std::string(e.what()).find("into " + std::to_string(MAX + 1) + " or more"),
                  std::string::npos)
            << e.what();
    }
}

/// splitmix64 as published (Steele, Lea, Flood 2014), for the reference draws.
uint64_t
Reference(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

TEST(WorkerJitter, DrawsAreSplitmixOfSeedRankIterationAndPiece)
{
    // Worked with Python's integers: seed 11, SendJitter 100 us (1e8 ps).
    EXPECT_EQ(WorkerApp::JitterDraw(11, 0, 0, 0, 100 * US), 92903711);
    EXPECT_EQ(WorkerApp::JitterDraw(11, 0, 0, 3, 100 * US), 38034814);
    EXPECT_EQ(WorkerApp::JitterDraw(11, 1, 0, 2, 100 * US), 72436586);
    EXPECT_EQ(WorkerApp::JitterDraw(11, 1, 1, WorkerApp::ITERATION_DRAW, 100 * US), 98575086);
    EXPECT_EQ(WorkerApp::JitterDraw(7, 0, 0, 0, 100 * US), 48943403);
    // The same from the reference generator: h = sm(sm(sm(seed ^ salt) ^ rank) ^ (i << 32 | p)),
    // draw = h (max + 1) / 2^64.
    const uint64_t salt = 0x4a49545445520000ULL;
    for (uint32_t rank = 0; rank < 3; ++rank)
    {
        for (uint32_t piece = 0; piece < 5; ++piece)
        {
            const uint64_t h =
                Reference(Reference(Reference(11 ^ salt) ^ rank) ^ (uint64_t{2} << 32 | piece));
            const long double scaled =
                static_cast<long double>(h) * (300 * US + 1) / 18446744073709551616.0L; // 2^64
            EXPECT_EQ(WorkerApp::JitterDraw(11, rank, 2, piece, 300 * US),
                      static_cast<int64_t>(scaled));
        }
    }
    EXPECT_EQ(WorkerApp::JitterDraw(11, 0, 0, 0, 0), 0);
    EXPECT_EQ(WorkerApp::JitterDraw(11, 0, 0, 0, -5), 0);
}

TEST(WorkerJitter, StaysWithinItsBoundAndCoversIt)
{
    int64_t low = 1000;
    int64_t high = -1;
    for (uint32_t i = 0; i < 100000; ++i)
    {
        const int64_t d = WorkerApp::JitterDraw(3, i % 64, i / 64, i, 1000);
        ASSERT_GE(d, 0);
        ASSERT_LE(d, 1000);
        low = std::min(low, d);
        high = std::max(high, d);
    }
    EXPECT_EQ(low, 0);
    EXPECT_EQ(high, 1000);
}

/// The message of the ScenarioError building `yaml`'s jobs throws, or "no error".
std::string
RunError(const std::string& yaml)
{
    return inasim_test::RunError(yaml, "w.yaml");
}

const std::string JOB = "topology: {type: star, hosts: 2}\n"
                        "jobs:\n"
                        "  - {protocol: ring, workers: 2, workload: {tensor_bytes: 4KB, "
                        "iterations: 1}, params: {";

TEST(WorkerParams, BadValuesNameTheirKey)
{
    const std::string negative = RunError(JOB + "SendJitter: -5us}}\n");
    EXPECT_NE(negative.find("w.yaml"), std::string::npos) << negative;
    EXPECT_NE(negative.find("jobs.0.params.SendJitter"), std::string::npos) << negative;
    EXPECT_NE(negative.find("-5us"), std::string::npos) << negative;
    const std::string order = RunError(JOB + "SendOrder: forward}}\n");
    EXPECT_NE(order.find("jobs.0.params.SendOrder"), std::string::npos) << order;
    EXPECT_NE(order.find("forward"), std::string::npos) << order;
    const std::string scope = RunError(JOB + "JitterScope: job}}\n");
    EXPECT_NE(scope.find("jobs.0.params.JitterScope"), std::string::npos) << scope;
    const std::string overlap = RunError(JOB + "OverlapForward: maybe}}\n");
    EXPECT_NE(overlap.find("jobs.0.params.OverlapForward"), std::string::npos) << overlap;
    EXPECT_EQ(RunError(JOB + "SendJitter: 5us, SendOrder: bytescheduler, JitterScope: "
                             "iteration, OverlapForward: false}}\n"),
              "no error");
}

// The baselines' host transport by name, and an enum whose first name starts like a type
// ("int32|float16" is what ns-3 reports as an EnumChecker's type): both reach the protocol.
TEST(WorkerParams, TransportAndEnumValuesByName)
{
    EXPECT_EQ(RunError(JOB + "Transport: tcp, MessageOverhead: 5us}}\n"), "no error");
    EXPECT_EQ(RunError(JOB + "Transport: rdma}}\n"), "no error");
    const std::string bad = RunError(JOB + "Transport: udp}}\n");
    EXPECT_NE(bad.find("jobs.0.params.Transport"), std::string::npos) << bad;
    EXPECT_NE(bad.find("udp"), std::string::npos) << bad;
    EXPECT_EQ(RunError("topology: {type: star, hosts: 2}\n"
                       "jobs:\n"
                       "  - {protocol: switchml, workers: 2, workload: {tensor_bytes: 4KB, "
                       "iterations: 1}, params: {WireFormat: float16}}\n"),
              "no error");
}

} // namespace
