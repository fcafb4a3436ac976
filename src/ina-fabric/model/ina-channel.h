/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef INA_CHANNEL_H
#define INA_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"

namespace ns3
{

class InaNetDevice;

/**
 * \ingroup ina-fabric
 * The wire between two InaNetDevices: only its propagation delay. Each device serializes at its own
 * rate, so a link may be asymmetric.
 */
class InaChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    InaChannel();

    void Add(Ptr<InaNetDevice> device);
    InaNetDevice* GetPeerOf(const InaNetDevice* device) const;
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;
    Ptr<InaNetDevice> m_devices[2];
    std::size_t m_nDevices = 0;
};

} // namespace ns3

#endif /* INA_CHANNEL_H */
