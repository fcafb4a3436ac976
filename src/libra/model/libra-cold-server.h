/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_COLD_SERVER_H
#define LIBRA_COLD_SERVER_H

#include "ns3/ina-transport-receiver.h"
#include "ns3/ina-transport-sender.h"
#include "ns3/object.h"

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * One shard of the sparse key-value parameter server that aggregates Libra's cold parameters (the
 * paper's PS-lite, spec A.9): keys are range-partitioned over the job's PS hosts, every worker
 * pushes the (key, value) pairs of its shard once per round over the reliable transport (an empty
 * push is one header-only message), and once all N pushes of a round are in, each worker gets back
 * (its pull) the aggregated values of the keys it pushed. Messages are numbered by round, so round
 * r is message r on every flow.
 *
 * Wire format (spec A.10): a pair is 12 B (key u64, value f32, as PS-lite sizes them). With
 * check_values a pair rides as three words: key, float bits, 0. The values are summed as floats in
 * arrival order (what a PS does); the exactness check compares them with the true sum.
 */
class LibraColdServer : public Object
{
  public:
    /// Bytes of one (key, value) pair on the wire.
    static constexpr uint32_t PAIR_BYTES = 12;
    /// Words of one pair in check_values mode.
    static constexpr uint32_t PAIR_WORDS = 3;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param name for messages
     * \param checkValues pairs carry real keys and values
     * \param pushRx per worker, the flow its pushes arrive on
     * \param pullTx per worker, the flow its pulls leave on
     */
    void Setup(const std::string& name,
               bool checkValues,
               std::vector<Ptr<InaTransportReceiver>> pushRx,
               std::vector<Ptr<InaTransportSender>> pullTx);

    /// \return rounds every worker's push of which has been answered
    uint64_t GetRoundsServed() const
    {
        return m_roundsServed;
    }

    /// \return pairs pushed to this shard
    uint64_t GetPairsReceived() const
    {
        return m_pairsReceived;
    }

    /// \return the pull flows (their wire bytes and retransmissions)
    const std::vector<Ptr<InaTransportSender>>& GetPullSenders() const
    {
        return m_pullTx;
    }

  protected:
    void DoDispose() override;

  private:
    /// One round's pushes so far.
    struct Round
    {
        uint32_t pushes = 0;                      //!< workers whose push arrived
        std::vector<uint64_t> pairs;              //!< per worker, pairs pushed
        std::vector<std::vector<uint32_t>> keys;  //!< per worker, its keys (check_values)
        std::unordered_map<uint32_t, float> sums; //!< key -> sum (check_values)
    };

    static void PushThunk(LibraColdServer* self,
                          uint32_t worker,
                          uint32_t msgIndex,
                          uint64_t bytes,
                          std::vector<uint32_t>& words);
    void OnPush(uint32_t worker, uint32_t msgIndex, uint64_t bytes, std::vector<uint32_t>& words);

    std::string m_name;                              //!< for messages
    bool m_checkValues = false;                      //!< real pairs
    std::vector<Ptr<InaTransportReceiver>> m_pushRx; //!< by worker
    std::vector<Ptr<InaTransportSender>> m_pullTx;   //!< by worker
    std::map<uint32_t, Round> m_rounds;              //!< open rounds
    uint64_t m_roundsServed = 0;                     //!< rounds answered
    uint64_t m_pairsReceived = 0;                    //!< pairs pushed
};

} // namespace ns3

#endif /* LIBRA_COLD_SERVER_H */
