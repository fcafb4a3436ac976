/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_RING_BUFFER_H
#define INA_RING_BUFFER_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup ina-fabric
 * A FIFO addressed by absolute position: elements Head() .. Tail()-1 live in a power-of-two array
 * that doubles when full and never shrinks. The transport keys its scoreboards by sequence number
 * (position == seq) and its queues by arrival, and after warm-up neither allocates (std::deque
 * frees and reallocates a block every few hundred bytes of a moving window).
 */
template<typename T>
class InaRingBuffer
{
  public:
    InaRingBuffer()
        : m_buf(16)
    {
    }

    bool Empty() const
    {
        return m_head == m_tail;
    }

    uint64_t Size() const
    {
        return m_tail - m_head;
    }

    /// Position of the first element.
    uint64_t Head() const
    {
        return m_head;
    }

    /// One past the position of the last element.
    uint64_t Tail() const
    {
        return m_tail;
    }

    T& Front()
    {
        return m_buf[m_head & (m_buf.size() - 1)];
    }

    /// The element at absolute position `pos`, Head() <= pos < Tail().
    T& At(uint64_t pos)
    {
        return m_buf[pos & (m_buf.size() - 1)];
    }

    const T& At(uint64_t pos) const
    {
        return m_buf[pos & (m_buf.size() - 1)];
    }

    void PushBack(const T& value)
    {
        if (m_tail - m_head == m_buf.size())
        {
            Grow();
        }
        m_buf[m_tail & (m_buf.size() - 1)] = value;
        ++m_tail;
    }

    void PopFront()
    {
        ++m_head;
    }

    /// Empties the buffer; positions continue from `pos`.
    void Clear(uint64_t pos)
    {
        m_head = pos;
        m_tail = pos;
    }

  private:
    void Grow()
    {
        std::vector<T> bigger(m_buf.size() * 2);
        for (uint64_t i = m_head; i < m_tail; ++i)
        {
            bigger[i & (bigger.size() - 1)] = m_buf[i & (m_buf.size() - 1)];
        }
        m_buf.swap(bigger);
    }

    std::vector<T> m_buf;
    uint64_t m_head = 0;
    uint64_t m_tail = 0;
};

} // namespace ns3

#endif /* INA_RING_BUFFER_H */
