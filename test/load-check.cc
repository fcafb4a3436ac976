/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// inasim-load-check: loading inasim's libraries changes nothing in a program; the simulator
// settings its models need are an explicit step (InaFabricHelper::ConfigureSimulator), and a fabric
// refuses to run on any other time resolution. One mode per ctest entry (test/CMakeLists.txt), each
// in a process of its own, since ns-3 allows one Time::SetResolution per process:
//
//   inasim-load-check untouched        every inasim library is loaded, yet the resolution is ns-3's
//                                      default (NS) and the scheduler MapScheduler; the program
//                                      sets its own resolution (US), as ns-3 programs do, and runs
//   inasim-load-check refuse           without the step, a fabric and a bare link refuse, naming
//                                      the call that fixes it
//   inasim-load-check configure        the step gives PS and InaWheelScheduler, twice is
//                                      harmless, and a fabric builds (with NS_GLOBAL_VALUE naming
//                                      SchedulerType, that choice is kept: EXPECT_SCHEDULER says
//                                      it)
//   inasim-load-check user-resolution  a resolution the program chose (FS) is kept by the step, and
//                                      a fabric then refuses
//
// Each mode prints "load-check MODE: OK" and exits 0 only if all its checks held; otherwise it
// names the failed check on stderr and exits 1.

#include "../src/ina-fabric/test/error-of.h"

#include "ns3/global-value.h"
#include "ns3/ina-channel.h"
#include "ns3/ina-fabric-helper.h"
#include "ns3/ina-net-device.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <link.h>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;

namespace
{

int g_failures = 0;

void
Check(bool ok, const std::string& what)
{
    if (!ok)
    {
        std::cerr << "load-check: FAILED: " << what << "\n";
        ++g_failures;
    }
}

std::string
SchedulerName()
{
    TypeIdValue scheduler;
    GlobalValue::GetValueByName("SchedulerType", scheduler);
    return scheduler.Get().GetName();
}

int
CollectLoaded(struct dl_phdr_info* info, size_t, void* data)
{
    const char* path = info->dlpi_name;
    const char* slash = std::strrchr(path, '/');
    static_cast<std::set<std::string>*>(data)->insert(slash != nullptr ? slash + 1 : path);
    return 0;
}

/// Every library named in INASIM_LOAD_CHECK_LIBS (the build's inasim modules) is mapped now, so
/// their static initialisers have run.
void
CheckEveryInasimLibraryLoaded()
{
    std::set<std::string> loaded;
    dl_iterate_phdr(&CollectLoaded, &loaded);
    std::istringstream expected(INASIM_LOAD_CHECK_LIBS);
    std::string name;
    int count = 0;
    while (std::getline(expected, name, ','))
    {
        Check(loaded.count(name) == 1, name + " is loaded");
        ++count;
    }
    Check(count >= 4,
          "the build names at least four inasim libraries (got " + std::to_string(count) + ")");
}

InaTopology
TwoHosts()
{
    InaTopology::LinkSpec link;
    link.rateBps = 100000000000ULL;
    link.delayPs = 1000000;
    return InaTopology::Star(2, link);
}

/// What `build` throws as a std::logic_error, or "" if it does not throw.
template<typename F>
std::string
Refusal(F&& build)
{
    return ns3::tests::ErrorOf<std::logic_error>(std::forward<F>(build));
}

void
CheckFabricRefuses(const std::string& unitName)
{
    const std::string fabric = Refusal([] {
        InaFabricHelper().Build(TwoHosts());
    });
    std::cout << "fabric refused: " << fabric << "\n";
    Check(fabric.find("InaFabricHelper::Build") != std::string::npos, "the refusal names the call");
    Check(fabric.find("Time::" + unitName) != std::string::npos,
          "the refusal names the resolution in use (Time::" + unitName + ")");
    Check(fabric.find("InaFabricHelper::ConfigureSimulator()") != std::string::npos,
          "the refusal says what to call");
    const std::string link = Refusal([] {
        CreateObject<InaNetDevice>()->Attach(CreateObject<InaChannel>());
    });
    Check(link.find("InaNetDevice::Attach") != std::string::npos,
          "a link built without the helper refuses too");
}

void
Untouched()
{
    CheckEveryInasimLibraryLoaded();
    Check(Time::GetResolution() == Time::NS, "ns-3's default resolution (NS) at the start of main");
    Check(SchedulerName() == "ns3::MapScheduler",
          "ns-3's default scheduler at the start of main (got " + SchedulerName() + ")");
    // The ns-3 idiom: the program picks its own resolution. Times made so far (attribute defaults
    // of every loaded library) are converted by ns-3.
    Time::SetResolution(Time::US);
    Check(Time::GetResolution() == Time::US, "the program's own resolution");
    Check(Seconds(1).GetTimeStep() == 1000000, "1 s is 10^6 steps of 1 us");
    Simulator::Schedule(MilliSeconds(3), [] {
    });
    Simulator::Run();
    Check(Simulator::Now() == MilliSeconds(3), "a simulation runs at that resolution");
    Simulator::Destroy();
}

void
Refuse()
{
    Check(Time::GetResolution() == Time::NS, "ns-3's default resolution");
    CheckFabricRefuses("NS");
}

void
Configure()
{
    InaFabricHelper::ConfigureSimulator();
    InaFabricHelper::ConfigureSimulator();
    Check(Time::GetResolution() == Time::PS, "picosecond time steps");
    const char* expected = std::getenv("EXPECT_SCHEDULER");
    const std::string scheduler = expected ? expected : "ns3::InaWheelScheduler";
    Check(SchedulerName() == scheduler,
          "scheduler " + scheduler + " (got " + SchedulerName() + ")");
    const std::string refusal = Refusal([] {
        InaFabricHelper().Build(TwoHosts());
    });
    Check(refusal.empty(), "a fabric builds (refused: " + refusal + ")");
    Simulator::Destroy();
}

void
UserResolution()
{
    Time::SetResolution(Time::FS);
    InaFabricHelper::ConfigureSimulator();
    Check(Time::GetResolution() == Time::FS, "the program's own resolution is kept");
    CheckFabricRefuses("FS");
}

} // namespace

int
main(int argc, char* argv[])
{
    const std::string mode = argc == 2 ? argv[1] : "";
    if (mode == "untouched")
    {
        Untouched();
    }
    else if (mode == "refuse")
    {
        Refuse();
    }
    else if (mode == "configure")
    {
        Configure();
    }
    else if (mode == "user-resolution")
    {
        UserResolution();
    }
    else
    {
        std::cerr << "usage: inasim-load-check untouched|refuse|configure|user-resolution\n";
        return 2;
    }
    if (g_failures > 0)
    {
        return 1;
    }
    std::cout << "load-check " << mode << ": OK\n";
    return 0;
}
