/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LIBRA_LNS_ADDER_H
#define LIBRA_LNS_ADDER_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup libra
 * The float32 add of Libra's switch (paper Sec. 3.5, spec A.7): a register holds a float32, and a
 * pushed value is added to it either exactly (EXACT, an IEEE add: what a switch with a float unit
 * would do, and the default) or as the paper's Tofino program does it (LNS_APPROX), by table
 * lookups in a logarithmic number system.
 *
 * LNS_APPROX. For x, y > 0, log2(x + y) = Lx + s(Ly - Lx) with L = log2 and s(d) = log2(1 + 2^d).
 * Every log value is a 16-bit two's-complement fixed-point number with 7 fraction bits (Q8.7: a
 * step of 1/128, range [-256, 256), enough for float32's exponents -126 .. 127), and every table
 * output is rounded to the nearest Q8.7 step. Seven tables, 2-byte entries (GetTableSpecs):
 *  - epo (8-bit key e, the exponent field): e - 127;
 *  - log_m (12-bit key, the 12 significant bits m = 1.f1..f11): log2 m;
 *  - log_dm (12-bit key f12..f23, dm = 0.f12..f23 * 2^-11): log2 dm;
 *  - log_mln2 (12-bit key m): log2(m ln 2);
 *  - taylor_exp (16-bit key t = log_dm - log_mln2): 2^t, the first-order Taylor term
 *    dm / (m ln 2) of the paper's eq. (1), so log2 x = epo + log_m + taylor_exp;
 *  - mi (16-bit key, see below): s(d), and for opposite signs log2(1 - 2^d);
 *  - exp (16-bit key L): the result's mantissa.
 * Total 256*2 + 3*4096*2 + 3*65536*2 = 418,304 B = 408.5 KiB (GetTableMemoryBytes sums the specs).
 *
 * *Interpretations* (the paper gives the tables and the identity, not the data path):
 *  - Signs (not covered by the paper, spec A.14.4): the operands are ordered by their log value
 *    (a compare the ALU can do), so d = L_small - L_big <= 0, and the result takes the sign of
 *    the larger one. Same signs use s(d); opposite signs need log2(1 - 2^d). Both live in the one
 *    mi table, keyed by 16 bits: bit 15 = "opposite signs", bits 0..14 = the gap g = -d in Q8.7
 *    steps, saturated at 32767 (both functions are 0 in Q8.7 long before). With d <= 0 a
 *    16-bit signed key would use only half its range; this keying spends the other half on the
 *    subtraction, so no eighth table is needed.
 *  - Cancellation: for opposite signs the true result |x| - |y| can be far smaller than the
 *    operands, and the log values carry an absolute error of up to 1/256, i.e. a relative error
 *    of up to 0.27 % of the *operands*: relative to the result that is 0.27 % / (1 - 2^d), which
 *    grows without bound as d -> 0. A gap of g = 0 (equal log values) gives exactly 0 (the mi
 *    entry for key 0x8000 is the "zero" marker). Precision on U(-1, 1) operands is therefore
 *    lower than on positive ones; MeasurePrecision reports both.
 *  - exp: a float32 needs 4 bytes, the table's entries have 2. The exponent field comes from the
 *    integer part of L (an add and a shift, no table), the table gives the top 16 bits of the
 *    mantissa of 2^frac(L) for the key L. Results below 2^-126 flush to zero, above 2^127.99 go
 *    to infinity.
 *  - Zeros and denormals: an exponent field of 0 is read as zero (denormals flushed, as a
 *    pipeline without a normaliser would); adding zero returns the other operand unchanged, so
 *    the first value written into a zeroed register is stored exactly.
 *  - NaN and infinity (exponent field 255) bypass the tables: the result is the IEEE sum.
 *  - The Taylor term dm / (m ln 2) is below 2^-10.5, under half a Q8.7 step, so at 7 fraction
 *    bits every reachable taylor_exp entry is 0; the table is kept because the paper's memory
 *    figure counts it and because it matters at a finer fixed point.
 *
 * The tables are built once per process (about 200,000 entries, on the first adder's
 * construction) and shared; Add is then integer arithmetic and array indexing.
 */
class LibraLnsAdder
{
  public:
    /// How registers add.
    enum class Mode : uint8_t
    {
        EXACT,     //!< IEEE float32 add
        LNS_APPROX //!< the paper's table lookups (Q8.7 log domain)
    };

    /// The seven tables.
    enum Table : uint8_t
    {
        EPO,        //!< exponent field -> e - 127
        LOG_M,      //!< 12 mantissa bits (with the leading 1) -> log2 m
        LOG_DM,     //!< low 12 fraction bits -> log2 dm
        LOG_MLN2,   //!< 12 mantissa bits -> log2(m ln 2)
        TAYLOR_EXP, //!< log2(dm) - log2(m ln 2) -> 2^that
        MI,         //!< sign flag and gap -> log2(1 +- 2^-gap)
        EXP,        //!< log value -> top 16 mantissa bits of 2^frac
        N_TABLES    //!< number of tables
    };

    /// One table's shape, for the memory account and the pipeline declaration.
    struct TableSpec
    {
        Table id;             //!< which table
        std::string name;     //!< e.g. "lns_mi"
        uint32_t keyBits;     //!< key width
        uint32_t entries;     //!< 2^keyBits
        uint32_t valueBytes;  //!< 2
        uint32_t depth;       //!< lookup order: a table's key needs the outputs of depth - 1
        std::string function; //!< what an entry holds
    };

    /// Q8.7: fraction bits of every log value.
    static constexpr int FRACTION_BITS = 7;
    /// The log value that stands for zero (log2 0 = -infinity).
    static constexpr int16_t LOG_ZERO = INT16_MIN;

    /// \return the seven tables, in lookup order
    static const std::vector<TableSpec>& GetTableSpecs();

    /// \return the sum of entries * valueBytes over GetTableSpecs(): 418,304 B
    static uint64_t GetTableMemoryBytes();

    /**
     * A bound d on one LNS_APPROX add: |LnsAdd(x, y) - (x + y)| <= d (|x| + |y|) for finite
     * normal operands. From the data path: an operand's log is off by at most half a Q8.7 step
     * (log_m's rounding) plus the Taylor term the 7-bit tables drop (below 2^-11 / ln 2); the sum's
     * log adds the bigger operand's error, half the gap's error (|d/dg log2(1 + 2^-g)| <= 1/2;
     * for opposite signs the error is taken relative to |x| + |y| instead) and mi's rounding; exp
     * keeps 16 mantissa bits. So d = 2^(2 e + 2^-8) - 1 + 2^-16, e = 2^-8 + 2^-11 / ln 2, about
     * 0.91 %. Over n contributions added into a zeroed register (the first is stored exactly),
     * |result - sum| <= ((1 + d)^(n-1) - 1) sum |g_i| (induction on the partial sums).
     * \return d
     */
    static double PerAddErrorBound();

    /**
     * \param mode EXACT or LNS_APPROX
     */
    explicit LibraLnsAdder(Mode mode = Mode::EXACT);

    /// \return the mode
    Mode GetMode() const
    {
        return m_mode;
    }

    /// \return "exact" or "lns-approx"
    static std::string ModeName(Mode mode);

    /**
     * Parse a mode name.
     * \param name "exact" or "lns-approx"
     * \return the mode
     * \throws std::invalid_argument naming the value and the accepted names
     */
    static Mode ParseMode(const std::string& name);

    /**
     * \param x the register's value
     * \param y the pushed value
     * \return x + y in this mode
     */
    float Add(float x, float y) const
    {
        return m_mode == Mode::EXACT ? x + y : LnsAdd(x, y);
    }

    /**
     * The LNS add, whatever the mode.
     * \param x an operand
     * \param y an operand
     * \return the table-lookup sum
     */
    float LnsAdd(float x, float y) const;

    /**
     * \param x a float
     * \return log2|x| in Q8.7 through epo + log_m + taylor_exp(log_dm - log_mln2); LOG_ZERO for
     *         a zero or denormal; not meaningful for NaN or infinity
     */
    int16_t ToLog(float x) const;

    /**
     * \param l a log value (Q8.7)
     * \param negative the sign
     * \return +-2^(l / 128) through the exp table; 0 for LOG_ZERO or below 2^-126, infinity at
     *         2^128 and above
     */
    float FromLog(int32_t l, bool negative) const;

    /**
     * \param t a table
     * \param key a key below 2^keyBits
     * \return the entry (a Q8.7 value; for EXP the unsigned mantissa bits, reinterpreted)
     * \throws std::out_of_range for a key beyond the table
     */
    int32_t GetEntry(Table t, uint32_t key) const;

    /**
     * A whole table as a switch's pipeline memory holds it: 2 bytes per entry, indexed by key
     * (GetEntry's values before they are read as Q8.7), for the switch to load its tables.
     * \param t a table
     * \return its entries
     */
    static const std::vector<uint16_t>& GetTableEntries(Table t);

    /// Precision statistics of LNS_APPROX over random pairs.
    struct PrecisionStats
    {
        uint32_t pairs = 0;         //!< pairs measured
        double median = 0;          //!< median precision
        double average = 0;         //!< mean precision
        double minimum = 0;         //!< worst pair
        uint32_t belowHalf = 0;     //!< pairs with precision below 50 %
        uint32_t oppositeSigns = 0; //!< pairs with operands of opposite signs
    };

    /**
     * Precision of one sum: 1 - min(1, |approx - exact| / |exact|); for exact == 0 it is 1 when
     * approx == 0 and 0 otherwise (the paper does not define it; this is the usual relative
     * accuracy, floored at 0 so one cancellation cannot make the average negative).
     * \param exact the true sum
     * \param approx the computed sum
     * \return the precision in [0, 1]
     */
    static double Precision(double exact, double approx);

    /**
     * Table 2's experiment: `pairs` random pairs, each operand uniform in (0, 1) or (-1, 1)
     * (float32 with 24 random bits, never 0), summed by this adder and compared with the exact
     * sum (in double, exact for these operands).
     * \param pairs number of pairs (>= 1)
     * \param signedOperands U(-1, 1) when true, U(0, 1) when false
     * \param seed the operands' SplitMix64 seed
     * \return the statistics
     */
    PrecisionStats MeasurePrecision(uint32_t pairs, bool signedOperands, uint64_t seed) const;

  private:
    /// The seven tables' entries (2 bytes each, indexed by key), built once per process and
    /// shared by every adder: they are constants of the algorithm.
    using Tables = std::array<std::vector<uint16_t>, N_TABLES>;

    /// \return the tables, built on the first call
    static const Tables& GetTables();

    /// \return entry `key` of table `t` as a Q8.7 value
    int32_t Q(Table t, uint32_t key) const
    {
        return static_cast<int16_t>((*m_tables)[t][key]);
    }

    Mode m_mode;            //!< the mode
    const Tables* m_tables; //!< GetTables()
};

} // namespace ns3

#endif /* LIBRA_LNS_ADDER_H */
