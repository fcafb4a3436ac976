/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_PACKET_TAG_H
#define INA_PACKET_TAG_H

#include "ina-packet.h"

#include "ns3/tag.h"

namespace ns3
{

/**
 * \ingroup ina-fabric
 * Carries an InaPacket across an ns-3 NetDevice (the `link: p2p` comparison). The ns-3 Packet only
 * has to occupy the wire for the right number of bytes; the InaPacket it stands for rides as
 * simulator metadata, which is what a tag is for (performance.md C3.5).
 *
 * Also knows the byte layout inasim writes to pcap files for an InaPacket's headers.
 */
class InaPacketTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    InaPacketTag() = default;
    explicit InaPacketTag(InaPacket* p);

    InaPacket* GetPacket() const;

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    /// Bytes of the pcap view of the headers (fixed fields, then the protocol header area).
    static constexpr uint32_t PCAP_HEADER_BYTES = 44 + InaPacket::HDR_BYTES;
    /// Write the pcap view of `p`'s headers into `buf` (at most `len` bytes).
    static void SerializeHeader(const InaPacket& p, uint8_t* buf, uint32_t len);

  private:
    InaPacket* m_packet = nullptr;
};

} // namespace ns3

#endif /* INA_PACKET_TAG_H */
