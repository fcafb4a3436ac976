/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_LAYOUT_H
#define LIBRA_LAYOUT_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * One push's hot pairs divided into packets (LibraLayout::Pack). Packet p carries the pairs
 * items[begin[p]] .. items[begin[p+1] - 1], each an index into the caller's rank array, in the
 * order they sit in the packet. A worker keeps one LibraPacking and reuses it: once its vectors
 * have grown to the largest push, packing allocates nothing.
 */
struct LibraPacking
{
    std::vector<uint32_t> items;    //!< indices into the packed rank array, packet by packet
    std::vector<uint32_t> begin;    //!< packet p is items[begin[p] .. begin[p + 1]); size packets+1
    uint32_t leftovers = 0;         //!< pairs Algorithm 1 could not place (G' of the paper)
    uint32_t leftoverPackets = 0;   //!< the last packets, which carry G' packed sequentially
    std::vector<uint32_t> order;    //!< scratch: items sorted by rank
    std::vector<uint32_t> assigned; //!< scratch: packet of each sorted pair
    std::vector<uint64_t> regBits;  //!< scratch: per packet, the registers it holds
    std::vector<uint32_t> fill;     //!< scratch: pairs per packet
    std::vector<uint32_t> cursor;   //!< scratch: per register, first packet that may take it
    std::vector<uint32_t> ranks;    //!< scratch: one packet's ranks (LibraLayout::Analyse)

    /// \return the number of packets
    uint32_t GetNPackets() const
    {
        return begin.empty() ? 0 : static_cast<uint32_t>(begin.size() - 1);
    }

    /**
     * \param p a packet index
     * \return its pair count
     */
    uint32_t GetPacketPairs(uint32_t p) const
    {
        return begin[p + 1] - begin[p];
    }
};

/**
 * \ingroup libra
 * What one hot packet costs the switch (spec A.6.3): a pass serves at most one pair per register,
 * so pair i is served in pass "number of earlier pairs of its register".
 */
struct LibraPacketPasses
{
    uint32_t pairs = 0;         //!< pairs in the packet
    uint32_t collisions = 0;    //!< pairs whose register already occurs earlier in the packet
    uint32_t passesNeeded = 0;  //!< max pairs on one register = passes without a cap (0 if empty)
    uint32_t passesTaken = 0;   //!< min(passesNeeded, 1 + recirculation cap)
    uint32_t fallbackPairs = 0; //!< pairs beyond the cap, forwarded to the PS as if cold

    /// \return recirculations needed without a cap (the A.6.3 pass count: passesNeeded - 1)
    uint32_t GetRecirculationsNeeded() const
    {
        return passesNeeded == 0 ? 0 : passesNeeded - 1;
    }

    /// \return recirculations taken under the cap
    uint32_t GetRecirculationsTaken() const
    {
        return passesTaken == 0 ? 0 : passesTaken - 1;
    }
};

/**
 * \ingroup libra
 * Sums of LibraPacketPasses over many packets and pushes, for reports.
 */
struct LibraPushStats
{
    uint64_t pushes = 0;               //!< pushes packed
    uint64_t packets = 0;              //!< packets
    uint64_t pairs = 0;                //!< hot pairs
    uint64_t leftovers = 0;            //!< pairs Algorithm 1 left to the fresh packets
    uint64_t collisions = 0;           //!< sum of LibraPacketPasses::collisions
    uint64_t recirculationsNeeded = 0; //!< sum of recirculations without a cap
    uint64_t recirculationsTaken = 0;  //!< sum of recirculations under the cap
    uint64_t recirculatedPackets = 0;  //!< packets needing at least one recirculation
    uint64_t fallbackPairs = 0;        //!< pairs forwarded to the PS because of the cap

    /// Add one packet.
    void Add(const LibraPacketPasses& p);

    /// \return collisions per packet
    double GetCollisionsPerPacket() const;
    /// \return recirculations needed per packet (no cap)
    double GetRecirculationsPerPacket() const;
    /// \return share of the pairs forwarded to the PS because of the cap
    double GetFallbackShare() const;
};

/**
 * \ingroup libra
 * Where Libra keeps its hot parameters on the switch, and how a worker packs a push's hot pairs
 * into packets (paper Sec. 3.4, spec A.4-A.6).
 *
 * Hot parameters are known by their heat rank r (0 = hottest, below the hot-key count K). The
 * switch has m register arrays ("registers"); a packet may touch each at most once per pipeline
 * pass.
 * - HEAT placement (the paper's): register = r mod m, slot = r div m, so register i holds ranks
 *   i, i+m, i+2m, ... (the paper's "(i + m*j)-th parameters"): keys that share a register are m
 *   ranks apart and so differ in heat, and rarely travel together.
 * - RANDOM placement (the Sec. 5.4 baseline): the ranks are first shuffled by a seeded permutation
 *   (Fisher-Yates on a SplitMix64 stream), position = perm[r], register = position mod m,
 *   slot = position div m; registers stay equally full.
 *
 * Packing:
 * - ALGORITHM1 (the paper's Algorithm 1, spec A.5): P = ceil(n / cap) packets; the pairs, in
 *   ascending rank (the paper does not say; hottest first is the spec's [E] choice), each go to
 *   the first packet (in creation order) that is not full and holds no pair of the same register;
 *   pairs that fit nowhere (G') go, in the same order, into ceil(|G'| / cap) fresh packets
 *   without regard to the layout. It needs cap <= m, so the constructor refuses cap > m.
 * - SEQUENTIAL (the baseline): ascending rank, cap pairs per packet.
 * Per packet at most cap pairs; the packet size header + cap * (rank + 4-B value) must stay within
 * the 192-B parser limit (paper Sec. 3.4 footnote 2), checked by the constructor.
 *
 * Costs: Pack is O(n log n) for the sort plus O(n + m * P) for Algorithm 1 (each register keeps
 * the first packet that may still take it: a packet that is full or holds the register never
 * becomes available again, so the search for a register only moves forward).
 */
class LibraLayout
{
  public:
    /// Register placement of the ranks.
    enum class Placement : uint8_t
    {
        HEAT,  //!< register = rank mod m (the paper)
        RANDOM //!< register = perm[rank] mod m, perm a seeded shuffle (the baseline)
    };

    /// How a push's pairs are put into packets.
    enum class Packing : uint8_t
    {
        ALGORITHM1, //!< layout-aware (the paper's Algorithm 1)
        SEQUENTIAL  //!< cap pairs per packet in rank order (the baseline)
    };

    /// The parser limit on a hot packet (paper Sec. 3.4 footnote 2).
    static constexpr uint32_t MAX_PACKET_BYTES = 192;
    /// Eth 14 + IPv4 20 + UDP 8 + Libra header 12 (spec A.10).
    static constexpr uint32_t HEADER_BYTES = 54;
    /// A gradient value: float32.
    static constexpr uint32_t VALUE_BYTES = 4;
    /// Recirculation cap meaning "count every pass" (spec A.14.2's metric mode).
    static constexpr uint32_t UNLIMITED_RECIRCULATIONS = 0xffffffffU;
    /// The paper's implementation recirculates a packet at most once (Sec. 4).
    static constexpr uint32_t DEFAULT_MAX_RECIRCULATIONS = 1;

    /// Everything that defines a layout.
    struct Config
    {
        uint32_t hotKeys = 30000;                   //!< K, hot parameters (OA and SE: 30,000)
        uint32_t registers = 16;                    //!< m (spec A.10 [E] default)
        uint32_t pairsPerPacket = 16;               //!< cap (spec A.10 [E] default: 182-B packets)
        Placement placement = Placement::HEAT;      //!< register placement
        Packing packing = Packing::ALGORITHM1;      //!< packing of a push
        uint64_t seed = 1;                          //!< RANDOM placement's permutation
        uint32_t rankBytes = 4;                     //!< 4, or 2 when K <= 65,536 (spec A.10 option)
        uint32_t headerBytes = HEADER_BYTES;        //!< bytes before the pairs
        uint32_t maxPacketBytes = MAX_PACKET_BYTES; //!< parser limit
    };

    /**
     * \param config the layout
     * \throws std::invalid_argument naming the value and what was expected: K, m or cap of 0,
     *         cap > m with ALGORITHM1, a packet above maxPacketBytes, rankBytes not 2 or 4, or
     *         K too large for 2-byte ranks
     */
    explicit LibraLayout(const Config& config);

    /// \return the configuration
    const Config& GetConfig() const
    {
        return m_config;
    }

    /// \return K
    uint32_t GetHotKeys() const
    {
        return m_config.hotKeys;
    }

    /// \return m
    uint32_t GetRegisters() const
    {
        return m_config.registers;
    }

    /// \return cap
    uint32_t GetPairsPerPacket() const
    {
        return m_config.pairsPerPacket;
    }

    /// \return ceil(K / m), the slots of every register
    uint32_t GetSlotsPerRegister() const;

    /// \return rank bytes + value bytes
    uint32_t GetPairBytes() const
    {
        return m_config.rankBytes + VALUE_BYTES;
    }

    /**
     * \param pairs pairs in a packet
     * \return its size on the wire: header + pairs * pair bytes
     */
    uint32_t GetPacketBytes(uint32_t pairs) const
    {
        return m_config.headerBytes + pairs * GetPairBytes();
    }

    /**
     * \param headerBytes bytes before the pairs
     * \param rankBytes bytes of a rank
     * \param maxPacketBytes parser limit
     * \return the most pairs a packet can carry (0 if not even one fits)
     */
    static uint32_t MaxPairsPerPacket(uint32_t headerBytes = HEADER_BYTES,
                                      uint32_t rankBytes = 4,
                                      uint32_t maxPacketBytes = MAX_PACKET_BYTES);

    /**
     * \param rank a rank below K
     * \return the register that holds it
     * \throws std::out_of_range for a rank not below K
     */
    uint32_t RegisterOf(uint32_t rank) const
    {
        const uint32_t pos = Position(rank);
        return pos % m_config.registers;
    }

    /**
     * \param rank a rank below K
     * \return its slot in that register
     * \throws std::out_of_range for a rank not below K
     */
    uint32_t SlotOf(uint32_t rank) const
    {
        const uint32_t pos = Position(rank);
        return pos / m_config.registers;
    }

    /**
     * Pack one push's hot pairs.
     * \param ranks the pairs' ranks, any order, each below K and none twice
     * \param n number of pairs
     * \param out the packets (its scratch vectors are reused)
     * \throws std::invalid_argument naming a rank not below K or listed twice
     */
    void Pack(const uint32_t* ranks, uint32_t n, LibraPacking& out) const;

    /// Pack(ranks.data(), ranks.size(), out).
    void Pack(const std::vector<uint32_t>& ranks, LibraPacking& out) const;

    /**
     * What one packet costs the switch.
     * \param ranks the packet's ranks, in packet order (each below K)
     * \param n pairs (a packet's pairs; O(n^2), n is small)
     * \param maxRecirculations recirculations allowed (UNLIMITED_RECIRCULATIONS: no cap)
     * \param passOfPair if not null, n entries: the 0-based pass that serves each pair; a pair
     *        whose pass exceeds maxRecirculations is forwarded to the PS
     * \return the counts
     */
    LibraPacketPasses Analyse(const uint32_t* ranks,
                              uint32_t n,
                              uint32_t maxRecirculations = DEFAULT_MAX_RECIRCULATIONS,
                              uint32_t* passOfPair = nullptr) const;

    /**
     * Add every packet of a packing to `stats` (one push).
     * \param ranks the rank array the packing indexes
     * \param packing the result of Pack on it
     * \param maxRecirculations recirculation cap
     * \param stats to add to
     */
    void AnalysePacking(const uint32_t* ranks,
                        LibraPacking& packing,
                        uint32_t maxRecirculations,
                        LibraPushStats& stats) const;

    /// \return "heat" or "random"
    static std::string PlacementName(Placement p);
    /// \return "algorithm1" or "sequential"
    static std::string PackingName(Packing p);

  private:
    /// \return the position rank r occupies (r itself for HEAT); throws for r >= K
    uint32_t Position(uint32_t rank) const
    {
        if (rank >= m_config.hotKeys)
        {
            FailRank(rank);
        }
        return m_permutation.empty() ? rank : m_permutation[rank];
    }

    /// Throws std::out_of_range for a rank not below K.
    [[noreturn]] void FailRank(uint32_t rank) const;

    void PackAlgorithm1(const uint32_t* ranks, uint32_t n, LibraPacking& out) const;
    void PackSequential(uint32_t n, LibraPacking& out) const;

    Config m_config;                     //!< the layout
    std::vector<uint32_t> m_permutation; //!< RANDOM: rank -> position; empty for HEAT
};

} // namespace ns3

#endif /* LIBRA_LAYOUT_H */
