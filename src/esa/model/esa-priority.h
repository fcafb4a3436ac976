/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef ESA_PRIORITY_H
#define ESA_PRIORITY_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup esa
 * ESA's priority of a gradient fragment (ESA paper, Section 5.4, equation 1), computed by the
 * worker when it pushes a tensor and carried in the 8-bit priority field of every fragment:
 *
 *     P_j(l) = (1 / T_j) (L_j / l) (Comm_j / Comp_j)
 *
 * with T_j the job's remaining time (or the service it has attained, or a fixed time: TimeSource),
 * L_j its number of layers, l the layer of the tensor counted from the front (1 = the first layer
 * of the forward pass, the one the next iteration needs first) and Comm_j / Comp_j its
 * communication-to-computation ratio. Front layers, communication-heavy models and jobs close to
 * their end get higher priorities.
 *
 * The paper omits how P is packed into 8 bits. Interpretation (spec B7.7): linearly,
 *
 *     q = clamp(round(S P), 1, 255),
 *
 * with one scale S (a time, as P is a rate) shared by every job of a scenario, so that the
 * switch's priority downgrade (a shift right by one bit) really halves P, and priorities of
 * different jobs compare as the P they stand for. q = 0 is reserved: an empty aggregator holds
 * priority 0, so every data packet (q >= 1) beats it, and an incumbent downgraded to 0 loses to
 * every contender. Values that fall outside [1, 255] are clamped and the clamp is reported, so a
 * scale that does not suit a workload shows in the counters instead of silently flattening the
 * priorities.
 *
 * Pure functions; the agent (EsaAgent) supplies the inputs.
 */
class EsaPriority
{
  public:
    /// What stands in for T_j (spec B7.8).
    enum class TimeSource : uint8_t
    {
        REMAINING, //!< the job's remaining communication + computation time (the simulation's)
        ATTAINED,  //!< the service attained so far (the paper's fallback when T_j is unknown)
        FIXED      //!< one fixed time for every push: only layer and ratio matter
    };

    /// Which side a packed priority was clamped on.
    enum class Clamp : uint8_t
    {
        NONE, //!< round(S P) was within [1, 255]
        LOW,  //!< below 1: raised to 1
        HIGH  //!< above 255 (or P infinite): lowered to 255
    };

    static constexpr uint8_t EMPTY = 0; //!< an empty aggregator's priority (never a packet's)
    static constexpr uint8_t MIN = 1;   //!< the lowest priority of a data packet
    static constexpr uint8_t MAX = 255; //!< the highest

    /**
     * Equation 1. Throws std::invalid_argument naming the input when the layers or the layer are
     * 0, the layer is beyond the layers, the time is negative or NaN, or the ratio is not a
     * positive finite number. A time of 0 gives +infinity (the highest priority once packed).
     * \param timeS T_j in seconds
     * \param layers L_j
     * \param layer l, 1 = the front layer
     * \param commOverComp Comm_j / Comp_j
     * \return P in 1/s
     */
    static double Raw(double timeS, uint32_t layers, uint32_t layer, double commOverComp);

    /**
     * Pack P into the 8-bit field: clamp(round(scaleS P), 1, 255), rounding half away from zero.
     * Throws std::invalid_argument when P is negative or NaN or the scale is not a positive finite
     * number.
     * \param raw P in 1/s
     * \param scaleS S in seconds
     * \param clamp set to the side clamped on, if not nullptr
     * \return q in [1, 255]
     */
    static uint8_t Pack(double raw, double scaleS, Clamp* clamp = nullptr);

    /**
     * Raw() then Pack().
     * \param timeS T_j in seconds
     * \param layers L_j
     * \param layer l
     * \param commOverComp Comm_j / Comp_j
     * \param scaleS S in seconds
     * \param clamp set to the side clamped on, if not nullptr
     * \return q in [1, 255]
     */
    static uint8_t Compute(double timeS,
                           uint32_t layers,
                           uint32_t layer,
                           double commOverComp,
                           double scaleS,
                           Clamp* clamp = nullptr);

    /**
     * The simulation's T_j (ESA 7.2.1: "the remaining communication plus the computation time"):
     * bytes still to all-reduce sent at the line rate, plus the computation still to run. Throws
     * std::invalid_argument when the rate is not positive or an input is negative or NaN.
     * \param bytesLeft gradient bytes not yet all-reduced (this iteration's and later ones')
     * \param rateBps the worker's link rate in bit/s
     * \param computeLeftS computation not yet run, in seconds
     * \return T_j in seconds
     */
    static double RemainingTime(double bytesLeft, double rateBps, double computeLeftS);

    /**
     * The switch's downgrade of an incumbent that fended off a contender (ESA 5.4: "shift one bit
     * to the right"); 1 becomes 0, after which any contender wins.
     * \param priority the incumbent's priority
     * \return priority >> 1
     */
    static constexpr uint8_t Downgrade(uint8_t priority)
    {
        return static_cast<uint8_t>(priority >> 1);
    }
};

} // namespace ns3

#endif /* ESA_PRIORITY_H */
