/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_P2P_PORT_H
#define INA_P2P_PORT_H

#include "ina-port.h"

#include "ns3/error-model.h"
#include "ns3/point-to-point-net-device.h"

namespace ns3
{

/**
 * \ingroup ina-fabric
 * An InaPort on ns-3's PointToPointNetDevice, so `link: p2p` runs any scenario on the standard
 * device for comparison. The InaPacket becomes an ns-3 Packet of its wire size (less the 2-byte PPP
 * header the device adds) carrying the InaPacket in a tag; admission (capacity, ECN) follows the
 * same rule as InaNetDevice, checked against the device queue, so both links drop and mark alike.
 * Loss is the device's ReceiveErrorModel.
 */
class InaP2pPort : public InaPort
{
  public:
    InaP2pPort(Ptr<PointToPointNetDevice> device,
               uint64_t capacityBytes,
               uint64_t ecnThresholdBytes);
    ~InaP2pPort() override;

    void SetPeer(InaP2pPort* peer);
    void Send(InaPacket* p, int64_t extraDelayPs) override;
    uint64_t GetBacklogBytes() override;
    uint64_t GetRateBps() const override;
    Ptr<PointToPointNetDevice> GetDevice() const;

  private:
    void Enqueue(InaPacket* p);
    bool OnReceive(Ptr<NetDevice> dev, Ptr<const Packet> pkt, uint16_t proto, const Address& from);
    void OnRxDrop(Ptr<const Packet> pkt);

    Ptr<PointToPointNetDevice> m_device;
    InaP2pPort* m_peer = nullptr;
    uint64_t m_capacityBytes;
    uint64_t m_ecnThresholdBytes;
};

} // namespace ns3

#endif /* INA_P2P_PORT_H */
