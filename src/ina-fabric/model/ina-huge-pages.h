/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_HUGE_PAGES_H
#define INA_HUGE_PAGES_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Backs the process's heap with transparent huge pages (2 MiB) once a fabric is built.
 *
 * A hop of a large fabric touches a dozen objects spread over the heap (the devices, their rings,
 * the switch, the packet, the batch event), each evicted from the caches since its last visit,
 * and with 4 KiB pages each of those lines also misses the TLB: at k=24 the heap is about 145 MB,
 * 37,000 pages, far beyond the TLB's reach, so every miss pays a page walk too (under a hypervisor,
 * a two-dimensional one). With 2 MiB pages the same heap is 73 entries. Debian's default THP
 * setting is "madvise": memory gets huge pages only where the program asks, and glibc's malloc
 * does not ask unless started with GLIBC_TUNABLES=glibc.malloc.hugetlb=1. So once the fabric's
 * objects exist, this asks the kernel to collapse the heap into huge pages (MADV_COLLAPSE, Linux
 * 6.1; synchronous) and marks it for huge pages from then on (MADV_HUGEPAGE); what a run allocates
 * later and reads on every hop (packet blocks) takes huge pages through Advise. Only a hint to
 * the kernel: where it refuses (an older kernel, THP "never", not Linux) nothing changes but the
 * speed; no result depends on it.
 */
class InaHugePages
{
  public:
    /**
     * Ask for huge pages over malloc's heap (the brk area), on the whole 2 MiB pages it spans.
     * \return the bytes the kernel collapsed into huge pages (0 where it refused or on non-Linux)
     */
    static uint64_t BackHeap();

    /// Huge pages' size on x86-64 and AArch64 with 4 KiB base pages.
    static constexpr size_t HUGE_PAGE_BYTES = size_t{1} << 21;

    /**
     * Ask for huge pages over the whole huge pages inside [memory, memory + bytes), before that
     * memory is first written (the page faults that follow then take huge pages directly): for
     * what a run allocates after BackHeap and reads on every hop, the packet blocks.
     */
    static void Advise(void* memory, size_t bytes);
};

} // namespace ns3

#endif /* INA_HUGE_PAGES_H */
