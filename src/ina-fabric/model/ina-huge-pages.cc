/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-huge-pages.h"

#include "ns3/log.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("InaHugePages");

uint64_t
InaHugePages::BackHeap()
{
#ifdef __linux__
    // The Linux UAPI's value, for C libraries whose headers predate it (glibc 2.36 has no
    // MADV_COLLAPSE): a kernel before 6.1 answers EINVAL, which is the "refused" case.
    constexpr int ADVISE_COLLAPSE = 25; // MADV_COLLAPSE
    constexpr uintptr_t HUGE = HUGE_PAGE_BYTES;
    std::FILE* maps = std::fopen("/proc/self/maps", "r");
    if (maps == nullptr)
    {
        return 0;
    }
    uint64_t collapsed = 0;
    char line[512];
    while (std::fgets(line, sizeof line, maps) != nullptr)
    {
        uintptr_t lo = 0;
        uintptr_t hi = 0;
        char perms[8] = {};
        unsigned long long inode = 0;
        char path[256] = {};
        // start-end perms offset dev inode [path]
        const int n = std::sscanf(line,
                                  "%" SCNxPTR "-%" SCNxPTR " %7s %*s %*s %llu %255s",
                                  &lo,
                                  &hi,
                                  perms,
                                  &inode,
                                  path);
        if (n < 5 || std::strcmp(perms, "rw-p") != 0 || inode != 0 ||
            std::strcmp(path, "[heap]") != 0)
        {
            // Only malloc's heap, which the fabric's objects fill densely. A collapse fills the
            // rest of every 2 MiB page it makes, so a sparse mapping (a sanitizer's shadow, a
            // thread's stack) would grow by up to 512 times what it uses.
            continue;
        }
        const uintptr_t first = (lo + HUGE - 1) & ~(HUGE - 1);
        const uintptr_t last = hi & ~(HUGE - 1);
        if (last <= first)
        {
            continue;
        }
        void* start = reinterpret_cast<void*>(first);
        const size_t length = last - first;
        madvise(start, length, MADV_HUGEPAGE);
        if (madvise(start, length, ADVISE_COLLAPSE) == 0)
        {
            collapsed += length;
        }
        else
        {
            NS_LOG_INFO("MADV_COLLAPSE refused on " << length
                                                    << " bytes: " << std::strerror(errno));
        }
    }
    std::fclose(maps);
    NS_LOG_INFO("huge pages: " << collapsed << " bytes collapsed");
    return collapsed;
#else
    return 0;
#endif
}

void
InaHugePages::Advise(void* memory, size_t bytes)
{
#ifdef __linux__
    const uintptr_t lo = reinterpret_cast<uintptr_t>(memory);
    const uintptr_t first = (lo + HUGE_PAGE_BYTES - 1) & ~uintptr_t{HUGE_PAGE_BYTES - 1};
    const uintptr_t last = (lo + bytes) & ~uintptr_t{HUGE_PAGE_BYTES - 1};
    if (last > first)
    {
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
#endif
}

} // namespace ns3
