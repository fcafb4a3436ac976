/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-packet-tag.h"

#include <algorithm>
#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(InaPacketTag);

TypeId
InaPacketTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::InaPacketTag")
                            .SetParent<Tag>()
                            .SetGroupName("InaFabric")
                            .AddConstructor<InaPacketTag>();
    return tid;
}

TypeId
InaPacketTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

InaPacketTag::InaPacketTag(InaPacket* p)
    : m_packet(p)
{
}

InaPacket*
InaPacketTag::GetPacket() const
{
    return m_packet;
}

uint32_t
InaPacketTag::GetSerializedSize() const
{
    return sizeof(uint64_t);
}

void
InaPacketTag::Serialize(TagBuffer i) const
{
    i.WriteU64(reinterpret_cast<uintptr_t>(m_packet));
}

void
InaPacketTag::Deserialize(TagBuffer i)
{
    m_packet = reinterpret_cast<InaPacket*>(static_cast<uintptr_t>(i.ReadU64()));
}

void
InaPacketTag::Print(std::ostream& os) const
{
    if (m_packet != nullptr)
    {
        os << "ina uid=" << m_packet->uid << " src=" << m_packet->src << " dst=" << m_packet->dst
           << " proto=" << m_packet->protocol << " seq=" << m_packet->seq;
    }
}

namespace
{
// Network byte order, as a dissector would expect.
uint8_t*
Put(uint8_t* out, uint64_t v, int bytes)
{
    for (int b = bytes - 1; b >= 0; --b)
    {
        *out++ = static_cast<uint8_t>(v >> (8 * b));
    }
    return out;
}
} // namespace

void
InaPacketTag::SerializeHeader(const InaPacket& p, uint8_t* buf, uint32_t len)
{
    uint8_t h[PCAP_HEADER_BYTES];
    uint8_t* o = h;
    o = Put(o, p.src, 4);
    o = Put(o, p.dst, 4);
    o = Put(o, p.flowId, 4);
    o = Put(o, p.jobId, 4);
    o = Put(o, p.srcPort, 2);
    o = Put(o, p.dstPort, 2);
    o = Put(o, p.protocol, 2);
    o = Put(o, p.priority, 1);
    o = Put(o, p.ecn, 1);
    o = Put(o, p.wireBytes, 4);
    o = Put(o, p.seq, 8);
    o = Put(o, p.uid, 8);
    std::memcpy(o, p.hdr, InaPacket::HDR_BYTES);
    std::memcpy(buf, h, std::min<uint32_t>(len, PCAP_HEADER_BYTES));
}

} // namespace ns3
