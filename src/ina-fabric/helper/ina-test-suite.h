/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_TEST_SUITE_H
#define INA_TEST_SUITE_H

#include "ns3/ina-fabric-helper.h"
#include "ns3/test.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * The base of inasim's ns-3 TestSuites: before its first test case runs, a suite makes the
 * simulator settings inasim's models need (InaFabricHelper::ConfigureSimulator: picosecond time
 * steps, the scheduler). It does so when it runs, not when the test library loads, so the other
 * suites linked into the same test runner (ns-3's own, in a source tree) keep ns-3's default
 * resolution: test.py runs every suite in a process of its own.
 *
 * Running several suites in one process (a test runner without --test-name) therefore mixes
 * resolutions: ns-3 allows one Time::SetResolution per process, before Simulator::Run, so an
 * inasim suite after an ns-3 suite that ran a simulation aborts, and ns-3 suites after an inasim
 * suite see picoseconds.
 */
class InaTestSuite : public TestSuite
{
  public:
    InaTestSuite(const std::string& name, TestSuite::Type type)
        : TestSuite(name, type)
    {
    }

  private:
    void DoSetup() override
    {
        InaFabricHelper::ConfigureSimulator();
    }
};

} // namespace ns3

#endif /* INA_TEST_SUITE_H */
