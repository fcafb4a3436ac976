/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-packet-pool.h"

#include "ns3/abort.h"

namespace ns3
{

void
InaPacketPool::Grow()
{
    m_blocks.emplace_back(new InaPacket[BLOCK]);
    InaPacket* block = m_blocks.back().get();
    for (uint32_t i = 0; i < BLOCK; ++i)
    {
        block[i].nextFree = m_free;
        m_free = &block[i];
    }
    m_allocated += BLOCK;
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
