/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-packet-pool.h"

#include "ina-huge-pages.h"

#include "ns3/abort.h"

#include <algorithm>

namespace ns3
{

namespace
{
/// A pool's blocks double in size this many times (BLOCK << 6: 65,536 packets, about 9 MB).
constexpr size_t MAX_DOUBLINGS = 6;
} // namespace

void
InaPacketPool::Grow()
{
    // A large fabric keeps hundreds of thousands of packets in flight (k=24: about 370,000), each
    // read at every hop; in 4 KiB pages each of those lines also costs a TLB miss. Blocks that
    // double in size leave a small fabric's pool small and give a large one blocks of several
    // MiB, whose whole huge pages are advised before the loop below first writes them
    // (InaHugePages; docs/performance.md, "Sixth pass").
    const uint32_t n = BLOCK << std::min(m_blocks.size(), MAX_DOUBLINGS);
    m_blocks.emplace_back(new InaPacket[n]);
    InaPacket* block = m_blocks.back().get();
    InaHugePages::Advise(block, n * sizeof(InaPacket));
    for (uint32_t i = 0; i < n; ++i)
    {
        block[i].nextFree = m_free;
        m_free = &block[i];
    }
    m_allocated += n;
}

InaPacket*
InaPacketPool::Alloc()
{
    if (m_free == nullptr)
    {
        Grow();
    }
    InaPacket* p = m_free;
    m_free = p->nextFree;
    std::memset(static_cast<void*>(p), 0, sizeof(InaPacket));
    p->uid = m_nextUid++;
    p->passes = 0;
    if (++m_inUse > m_peakInUse)
    {
        m_peakInUse = m_inUse;
    }
    return p;
}

InaPacket*
InaPacketPool::Clone(const InaPacket* p)
{
    // Not Alloc(): every byte is overwritten by the copy, so zeroing first is wasted work on the
    // multicast path.
    if (m_free == nullptr)
    {
        Grow();
    }
    InaPacket* c = m_free;
    m_free = c->nextFree;
    if (++m_inUse > m_peakInUse)
    {
        m_peakInUse = m_inUse;
    }
    std::memcpy(static_cast<void*>(c), p, sizeof(InaPacket));
    c->uid = m_nextUid++;
    c->nextFree = nullptr;
    if (p->values != nullptr)
    {
        c->values = AllocValues(p->values->words.size());
        c->values->words = p->values->words;
    }
    return c;
}

void
InaPacketPool::Free(InaPacket* p)
{
    if (p->values != nullptr)
    {
        FreeValues(p->values);
        p->values = nullptr;
    }
    p->nextFree = m_free;
    m_free = p;
    --m_inUse;
}

InaValueBuffer*
InaPacketPool::AllocValues(uint32_t n)
{
    InaValueBuffer* v = m_freeValues;
    if (v == nullptr)
    {
        m_valueBuffers.emplace_back(new InaValueBuffer);
        v = m_valueBuffers.back().get();
    }
    else
    {
        m_freeValues = v->nextFree;
    }
    v->nextFree = nullptr;
    v->words.assign(n, 0);
    return v;
}

void
InaPacketPool::FreeValues(InaValueBuffer* v)
{
    v->nextFree = m_freeValues;
    m_freeValues = v;
}

} // namespace ns3
