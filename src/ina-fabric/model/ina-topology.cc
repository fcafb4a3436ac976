/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "ina-topology.h"

#include "ina-topology-size.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// Routing tables store ports as uint16_t.
constexpr uint32_t MAX_PORTS = 65535;
/// Nodes a topology file may declare: the bound of every topology (InaTopologyNodeLimit(), which
/// is InaTopology::MAX_NODES outside the fuzzers). A file beyond it is refused while it is read,
/// before the parser has spent seconds and gigabytes on names: `./inasim fuzz` found a two-line
/// file declaring 3.4 million hosts that took longer than 10 s to refuse. A single range (h0..hN)
/// larger than it is refused the same way.
const uint64_t MAX_FILE_NODES = InaTopologyNodeLimit();

void
CheckLinkSpec(const InaTopology::LinkSpec& spec, const std::string& where)
{
    if (spec.rateBps == 0)
    {
        throw std::invalid_argument(where + ": link rate must be > 0 bps");
    }
    if (spec.delayPs < 0)
    {
        throw std::invalid_argument(where + ": link delay must be >= 0 (got " +
                                    std::to_string(spec.delayPs) + " ps)");
    }
}

InaTopology::Node
MakeNode(const std::string& name,
         bool isHost,
         const std::string& tier,
         uint32_t pod,
         uint32_t index)
{
    InaTopology::Node n;
    n.name = name;
    n.isHost = isHost;
    n.tier = tier;
    n.pod = pod;
    n.index = index;
    return n;
}

struct Unit
{
    const char* name;
    uint64_t scale;
};

const std::vector<Unit> RATE_UNITS = {{"bps", 1ULL},
                                      {"Kbps", 1000ULL},
                                      {"Mbps", 1000000ULL},
                                      {"Gbps", 1000000000ULL},
                                      {"Tbps", 1000000000000ULL}};

const std::vector<Unit> PACKET_RATE_UNITS = {{"pps", 1ULL},
                                             {"Kpps", 1000ULL},
                                             {"Mpps", 1000000ULL},
                                             {"Gpps", 1000000000ULL}};

const std::vector<Unit> SIZE_UNITS = {{"B", 1ULL}, {"KB", 1000ULL}, {"KiB", 1024ULL}};

const std::vector<Unit> TIME_UNITS = {{"ps", 1ULL},
                                      {"ns", 1000ULL},
                                      {"us", 1000000ULL},
                                      {"ms", 1000000000ULL},
                                      {"s", 1000000000000ULL}};

/**
 * Parses "<digits>[.<digits>]<unit>" exactly, in integers, so "2.5Gbps" is 2500000000 on every
 * platform. Returns an empty string on success, else why the text is not acceptable.
 */
std::string
ParseQuantity(const std::string& text,
              const std::vector<Unit>& units,
              const char* baseUnit,
              uint64_t max,
              uint64_t& out)
{
    using U128 = unsigned __int128;
    std::string unitList;
    for (size_t i = 0; i < units.size(); ++i)
    {
        unitList += (i == 0 ? "" : (i + 1 == units.size() ? " or " : ", "));
        unitList += units[i].name;
    }
    const std::string expected = "expected a non-negative number followed by a unit " + unitList;
    size_t i = 0;
    U128 mantissa = 0;
    uint32_t digits = 0;
    uint32_t fracDigits = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    {
        mantissa = mantissa * 10 + static_cast<uint32_t>(text[i] - '0');
        ++digits;
        ++i;
    }
    if (digits > 0 && i < text.size() && text[i] == '.')
    {
        ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        {
            mantissa = mantissa * 10 + static_cast<uint32_t>(text[i] - '0');
            ++digits;
            ++fracDigits;
            ++i;
        }
        if (fracDigits == 0)
        {
            return expected;
        }
    }
    if (digits == 0)
    {
        return expected;
    }
    // 24 digits times a scale of at most 1e12 stays below 2^128.
    if (digits > 24)
    {
        return "too many digits";
    }
    const std::string unit = text.substr(i);
    const Unit* found = nullptr;
    for (const auto& u : units)
    {
        if (unit == u.name)
        {
            found = &u;
        }
    }
    if (found == nullptr)
    {
        return unit.empty() ? expected + " (the unit is missing)"
                            : expected + " (unknown unit '" + unit + "')";
    }
    U128 value = mantissa * found->scale;
    U128 pow10 = 1;
    for (uint32_t d = 0; d < fracDigits; ++d)
    {
        pow10 *= 10;
    }
    if (value % pow10 != 0)
    {
        return std::string("not a whole number of ") + baseUnit;
    }
    value /= pow10;
    if (value > max)
    {
        return "too large (at most " + std::to_string(max) + " " + baseUnit + ")";
    }
    out = static_cast<uint64_t>(value);
    return "";
}

bool
IsNameChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

bool
IsName(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), IsNameChar);
}

/**
 * The line-oriented reader behind InaTopology::FromString. It collects nodes in declaration order,
 * then Finish() checks the whole graph and renumbers nodes into the address plan.
 */
class TopologyFileParser
{
  public:
    explicit TopologyFileParser(const std::string& source)
        : m_source(source)
    {
    }

    void ParseLine(const std::string& raw, uint32_t line);
    void Finish(uint32_t lastLine,
                std::vector<InaTopology::Node>& nodes,
                std::vector<InaTopology::Link>& links,
                uint32_t& nHosts);

  private:
    struct PNode
    {
        std::string name;
        bool isHost;
        std::string tier;
        uint32_t pod;
        uint32_t line;
        // switches only: capacity= (aggregation capacity), 0 when not given
        uint64_t aggBps = 0;
        uint64_t aggPps = 0;
        // hosts only: their one attachment
        std::optional<uint32_t> attach;
        uint32_t attachLine = 0;
        uint64_t rateBps = 0;
        int64_t delayPs = 0;
        uint32_t mtuBytes = 0;
    };

    struct PLink
    {
        uint32_t a;
        uint32_t b;
        uint64_t rateBps;
        int64_t delayPs;
        uint32_t mtuBytes;
    };

    using KeyValues = std::vector<std::pair<std::string, std::string>>;

    [[noreturn]] void Fail(uint32_t line, const std::string& what) const;
    std::vector<std::string> ExpandNames(const std::string& token, uint32_t line) const;
    uint32_t Lookup(const std::string& name, const char* context, uint32_t line) const;
    const std::string* Find(const KeyValues& kv, const char* key) const;
    uint64_t ParseRate(const std::string& value, uint32_t line) const;
    int64_t ParseDelay(const std::string& value, uint32_t line) const;
    uint32_t ParseMtu(const std::string& value, uint32_t line) const;
    /// The rate and delay a link made on this line gets: its own keys, else the defaults.
    std::pair<uint64_t, int64_t> LinkParameters(const KeyValues& kv, uint32_t line) const;
    /// The MTU a link made on this line gets: its mtu=, else the defaults' (0: none given).
    uint32_t LinkMtu(const KeyValues& kv, uint32_t line) const;
    void Attach(uint32_t host,
                uint32_t sw,
                uint64_t rate,
                int64_t delay,
                uint32_t mtu,
                uint32_t line);
    void Declare(const std::string& name,
                 bool isHost,
                 const std::string& tier,
                 uint32_t pod,
                 uint32_t line);

    /// ParseLine's steps: the keys a directive takes (an unknown directive fails), and a line's
    /// tokens after the directive split into names and KEY=VALUE pairs, each key checked.
    std::vector<std::string> AllowedKeys(const std::string& directive, uint32_t line) const;
    void SplitArguments(const std::vector<std::string>& tokens,
                        const std::vector<std::string>& allowed,
                        std::vector<std::string>& positional,
                        KeyValues& kv,
                        uint32_t line) const;

    /// Finish's steps.
    /// @{
    using Graph = std::vector<std::vector<uint32_t>>;
    /// \return the first host declared, after checking every host has its attachment
    uint32_t CheckHosts(uint32_t lastLine) const;
    /// \return every node's neighbours, after checking no node has more than MAX_PORTS
    Graph BuildGraph() const;
    /// \return hop counts from the nearest of `sources` (max(): not reached)
    static std::vector<uint32_t> Distances(const Graph& graph,
                                           const std::vector<uint32_t>& sources);
    /// \return the switches in address order: tier by tier, tiers ranked bottom-up by how close
    ///         their nearest member is to a host, ties by the order the file first names them
    std::vector<uint32_t> OrderSwitches(const Graph& graph,
                                        const std::vector<uint32_t>& hostIds) const;
    /// @}

    void Defaults(const std::vector<std::string>& pos, const KeyValues& kv, uint32_t line);
    void Switch(const std::vector<std::string>& pos, const KeyValues& kv, uint32_t line);
    void Host(const std::vector<std::string>& pos, const KeyValues& kv, uint32_t line);
    void LinkLine(const std::vector<std::string>& pos, const KeyValues& kv, uint32_t line);

    std::string m_source;
    std::vector<PNode> m_nodes;
    uint64_t m_switches = 0; //!< switches declared so far
    std::unordered_map<std::string, uint32_t> m_byName;
    std::vector<PLink> m_links;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_linkLine; //!< switch pair -> line
    std::optional<uint64_t> m_defaultRate;
    std::optional<int64_t> m_defaultDelay;
    uint32_t m_defaultMtu = 0;
};

void
TopologyFileParser::Fail(uint32_t line, const std::string& what) const
{
    throw std::runtime_error(m_source + ":" + std::to_string(line) + ": " + what);
}

std::vector<std::string>
TopologyFileParser::ExpandNames(const std::string& token, uint32_t line) const
{
    const char* expected = "expected a name (letters, digits, '_', '-') or a range such as h0..h7";
    size_t dots = token.find("..");
    if (dots == std::string::npos)
    {
        if (!IsName(token))
        {
            Fail(line, "bad name '" + token + "': " + expected);
        }
        return {token};
    }
    const std::string lo = token.substr(0, dots);
    const std::string hi = token.substr(dots + 2);
    auto split = [&](const std::string& s, std::string& prefix, uint64_t& number) {
        size_t p = s.size();
        while (p > 0 && std::isdigit(static_cast<unsigned char>(s[p - 1])))
        {
            --p;
        }
        prefix = s.substr(0, p);
        std::string digits = s.substr(p);
        if (!IsName(s) || digits.empty() || digits.size() > 9)
        {
            Fail(line,
                 "bad range '" + token +
                     "': expected NAME..NAME where both names end in a number, such as h0..h7");
        }
        if (digits.size() > 1 && digits[0] == '0')
        {
            Fail(line,
                 "bad range '" + token + "': numbers in ranges are written without leading zeros");
        }
        number = std::stoull(digits);
    };
    std::string loPrefix;
    std::string hiPrefix;
    uint64_t loNum = 0;
    uint64_t hiNum = 0;
    split(lo, loPrefix, loNum);
    split(hi, hiPrefix, hiNum);
    if (loPrefix != hiPrefix)
    {
        Fail(line,
             "bad range '" + token + "': both ends must share the prefix ('" + loPrefix + "' vs '" +
                 hiPrefix + "')");
    }
    if (hiNum < loNum)
    {
        Fail(line, "bad range '" + token + "': the first number must not exceed the second");
    }
    if (hiNum - loNum + 1 > MAX_FILE_NODES)
    {
        Fail(line,
             "bad range '" + token + "': more than " + std::to_string(MAX_FILE_NODES) + " names");
    }
    std::vector<std::string> out;
    out.reserve(hiNum - loNum + 1);
    for (uint64_t n = loNum; n <= hiNum; ++n)
    {
        out.push_back(loPrefix + std::to_string(n));
    }
    return out;
}

uint32_t
TopologyFileParser::Lookup(const std::string& name, const char* context, uint32_t line) const
{
    auto it = m_byName.find(name);
    if (it == m_byName.end())
    {
        Fail(line,
             "unknown node '" + name + "' in " + context +
                 ": expected a name declared above by a 'switch' or 'host' line");
    }
    return it->second;
}

const std::string*
TopologyFileParser::Find(const KeyValues& kv, const char* key) const
{
    for (const auto& p : kv)
    {
        if (p.first == key)
        {
            return &p.second;
        }
    }
    return nullptr;
}

uint64_t
TopologyFileParser::ParseRate(const std::string& value, uint32_t line) const
{
    uint64_t out = 0;
    std::string err =
        ParseQuantity(value, RATE_UNITS, "bps", std::numeric_limits<uint64_t>::max(), out);
    if (err.empty() && out == 0)
    {
        err = "a rate must be > 0";
    }
    if (!err.empty())
    {
        Fail(line, "bad rate '" + value + "': " + err + " (e.g. rate=100Gbps)");
    }
    return out;
}

int64_t
TopologyFileParser::ParseDelay(const std::string& value, uint32_t line) const
{
    uint64_t out = 0;
    std::string err = ParseQuantity(value,
                                    TIME_UNITS,
                                    "ps",
                                    static_cast<uint64_t>(std::numeric_limits<int64_t>::max()),
                                    out);
    if (!err.empty())
    {
        Fail(line, "bad delay '" + value + "': " + err + " (e.g. delay=1us)");
    }
    return static_cast<int64_t>(out);
}

uint32_t
TopologyFileParser::ParseMtu(const std::string& value, uint32_t line) const
{
    // The bounds are InaFabricHelper::SetMtu's: IPv4's smallest MTU (RFC 791) and the largest an
    // ns-3 NetDevice takes.
    uint64_t out = 0;
    std::string err;
    if (std::all_of(value.begin(), value.end(), [](unsigned char c) {
            return std::isdigit(c);
        }))
    {
        out = value.size() > 6 ? 1000000 : std::stoull(value);
    }
    else
    {
        err = ParseQuantity(value, SIZE_UNITS, "B", 1000000, out);
    }
    if (err.empty() && (out < 68 || out > 65535))
    {
        err = "an MTU must be 68..65535 bytes";
    }
    if (!err.empty())
    {
        Fail(line, "bad mtu '" + value + "': " + err + " (e.g. mtu=9000 or mtu=4KiB)");
    }
    return static_cast<uint32_t>(out);
}

uint32_t
TopologyFileParser::LinkMtu(const KeyValues& kv, uint32_t line) const
{
    const std::string* v = Find(kv, "mtu");
    return v != nullptr ? ParseMtu(*v, line) : m_defaultMtu;
}

std::pair<uint64_t, int64_t>
TopologyFileParser::LinkParameters(const KeyValues& kv, uint32_t line) const
{
    std::optional<uint64_t> rate = m_defaultRate;
    std::optional<int64_t> delay = m_defaultDelay;
    if (const std::string* v = Find(kv, "rate"))
    {
        rate = ParseRate(*v, line);
    }
    if (const std::string* v = Find(kv, "delay"))
    {
        delay = ParseDelay(*v, line);
    }
    if (!rate)
    {
        Fail(line,
             "no rate for this link: expected rate=RATE on this line or a 'defaults rate=RATE' "
             "line above it");
    }
    if (!delay)
    {
        Fail(line,
             "no delay for this link: expected delay=TIME on this line or a 'defaults "
             "delay=TIME' line above it");
    }
    return {*rate, *delay};
}

void
TopologyFileParser::Declare(const std::string& name,
                            bool isHost,
                            const std::string& tier,
                            uint32_t pod,
                            uint32_t line)
{
    auto it = m_byName.find(name);
    if (it != m_byName.end())
    {
        Fail(line,
             "duplicate name '" + name + "' (first declared at line " +
                 std::to_string(m_nodes[it->second].line) + "): expected a new name");
    }
    if (m_nodes.size() >= MAX_FILE_NODES)
    {
        Fail(line,
             "too many nodes (a topology file declares at most " + std::to_string(MAX_FILE_NODES) +
                 ")");
    }
    if (!isHost && ++m_switches > InaTopology::MAX_SWITCHES)
    {
        Fail(line,
             "too many switches (a topology has at most " +
                 std::to_string(InaTopology::MAX_SWITCHES) +
                 ": its routes take 4 B per pair of switches)");
    }
    m_byName.emplace(name, static_cast<uint32_t>(m_nodes.size()));
    PNode n;
    n.name = name;
    n.isHost = isHost;
    n.tier = tier;
    n.pod = pod;
    n.line = line;
    m_nodes.push_back(std::move(n));
}

void
TopologyFileParser::Attach(uint32_t host,
                           uint32_t sw,
                           uint64_t rate,
                           int64_t delay,
                           uint32_t mtu,
                           uint32_t line)
{
    PNode& h = m_nodes[host];
    if (h.attach)
    {
        Fail(line,
             "host '" + h.name + "' is already attached to '" + m_nodes[*h.attach].name +
                 "' (line " + std::to_string(h.attachLine) +
                 "): expected exactly one attachment per host");
    }
    h.attach = sw;
    h.attachLine = line;
    h.rateBps = rate;
    h.delayPs = delay;
    h.mtuBytes = mtu;
}

void
TopologyFileParser::Defaults(const std::vector<std::string>& pos,
                             const KeyValues& kv,
                             uint32_t line)
{
    if (!pos.empty())
    {
        Fail(line,
             "'defaults' takes only rate=RATE, delay=TIME and/or mtu=SIZE, got '" + pos[0] + "'");
    }
    if (kv.empty())
    {
        Fail(line, "'defaults' needs rate=RATE, delay=TIME and/or mtu=SIZE");
    }
    if (const std::string* v = Find(kv, "mtu"))
    {
        m_defaultMtu = ParseMtu(*v, line);
    }
    if (const std::string* v = Find(kv, "rate"))
    {
        m_defaultRate = ParseRate(*v, line);
    }
    if (const std::string* v = Find(kv, "delay"))
    {
        m_defaultDelay = ParseDelay(*v, line);
    }
}

void
TopologyFileParser::Switch(const std::vector<std::string>& pos, const KeyValues& kv, uint32_t line)
{
    if (pos.size() != 1)
    {
        Fail(line,
             "'switch' takes one NAME or range NAME..NAME followed by tier=TIER [pod=N], got " +
                 std::to_string(pos.size()) + " names");
    }
    const std::string* tier = Find(kv, "tier");
    if (tier == nullptr)
    {
        Fail(line, "'switch' needs tier=TIER (e.g. tier=tor, tier=spine)");
    }
    if (!IsName(*tier))
    {
        Fail(line, "bad tier '" + *tier + "': expected letters, digits, '_' or '-'");
    }
    if (*tier == "host")
    {
        Fail(line, "tier 'host' is reserved for hosts: expected a switch tier such as tor");
    }
    uint32_t pod = 0;
    if (const std::string* v = Find(kv, "pod"))
    {
        if (v->empty() || v->size() > 9 || !std::all_of(v->begin(), v->end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
        {
            Fail(line, "bad pod '" + *v + "': expected a non-negative integer");
        }
        pod = static_cast<uint32_t>(std::stoul(*v));
    }
    uint64_t aggBps = 0;
    uint64_t aggPps = 0;
    if (const std::string* v = Find(kv, "capacity"))
    {
        // Aggregation work the switch can do (GRID's C_s): a bit rate or a packet rate.
        const bool packets = v->size() > 3 && v->compare(v->size() - 3, 3, "pps") == 0;
        std::string err = ParseQuantity(*v,
                                        packets ? PACKET_RATE_UNITS : RATE_UNITS,
                                        packets ? "pps" : "bps",
                                        std::numeric_limits<uint64_t>::max(),
                                        packets ? aggPps : aggBps);
        if (err.empty() && aggBps == 0 && aggPps == 0)
        {
            err = "a capacity must be > 0 (leave capacity= out for line rate)";
        }
        if (!err.empty())
        {
            Fail(line,
                 "bad capacity '" + *v + "': " + err +
                     " (e.g. capacity=9Gbps, or capacity=20Mpps in packets per second)");
        }
    }
    for (const auto& name : ExpandNames(pos[0], line))
    {
        Declare(name, false, *tier, pod, line);
        m_nodes.back().aggBps = aggBps;
        m_nodes.back().aggPps = aggPps;
    }
}

void
TopologyFileParser::Host(const std::vector<std::string>& pos, const KeyValues& kv, uint32_t line)
{
    if (pos.size() != 1)
    {
        Fail(line,
             "'host' takes one NAME or range NAME..NAME followed by [attach=SWITCH] [rate=RATE] "
             "[delay=TIME] [mtu=SIZE], got " +
                 std::to_string(pos.size()) + " names");
    }
    const std::string* attach = Find(kv, "attach");
    if (attach == nullptr && (Find(kv, "rate") || Find(kv, "delay") || Find(kv, "mtu")))
    {
        Fail(line,
             "rate=/delay=/mtu= on a 'host' line describe its attach= link: expected "
             "attach=SWITCH, or put them on the 'link' line");
    }
    std::vector<std::string> names = ExpandNames(pos[0], line);
    std::vector<uint32_t> switches;
    std::pair<uint64_t, int64_t> params{0, 0};
    uint32_t mtu = 0;
    if (attach != nullptr)
    {
        for (const auto& s : ExpandNames(*attach, line))
        {
            uint32_t sw = Lookup(s, "attach=", line);
            if (m_nodes[sw].isHost)
            {
                Fail(line, "attach='" + s + "' is a host: expected a switch");
            }
            switches.push_back(sw);
        }
        if (names.size() % switches.size() != 0)
        {
            Fail(line,
                 std::to_string(names.size()) + " hosts cannot be spread evenly over " +
                     std::to_string(switches.size()) +
                     " switches: expected a host count that is a multiple of the switch count");
        }
        params = LinkParameters(kv, line);
        mtu = LinkMtu(kv, line);
    }
    const size_t perSwitch = switches.empty() ? 0 : names.size() / switches.size();
    for (size_t i = 0; i < names.size(); ++i)
    {
        Declare(names[i], true, "host", 0, line);
        if (!switches.empty())
        {
            Attach(static_cast<uint32_t>(m_nodes.size() - 1),
                   switches[i / perSwitch],
                   params.first,
                   params.second,
                   mtu,
                   line);
        }
    }
}

void
TopologyFileParser::LinkLine(const std::vector<std::string>& pos,
                             const KeyValues& kv,
                             uint32_t line)
{
    if (pos.size() != 2)
    {
        Fail(line,
             "'link' takes two names (or ranges) followed by [rate=RATE] [delay=TIME] [mtu=SIZE], "
             "got " +
                 std::to_string(pos.size()));
    }
    std::vector<uint32_t> as;
    std::vector<uint32_t> bs;
    for (const auto& n : ExpandNames(pos[0], line))
    {
        as.push_back(Lookup(n, "link", line));
    }
    for (const auto& n : ExpandNames(pos[1], line))
    {
        bs.push_back(Lookup(n, "link", line));
    }
    const auto params = LinkParameters(kv, line);
    const uint32_t mtu = LinkMtu(kv, line);
    for (uint32_t a : as)
    {
        for (uint32_t b : bs)
        {
            const PNode& na = m_nodes[a];
            const PNode& nb = m_nodes[b];
            if (a == b)
            {
                Fail(line, "link from '" + na.name + "' to itself: expected two different nodes");
            }
            if (na.isHost && nb.isHost)
            {
                Fail(line,
                     "link between hosts '" + na.name + "' and '" + nb.name +
                         "': expected a host to attach to a switch");
            }
            if (na.isHost || nb.isHost)
            {
                Attach(na.isHost ? a : b,
                       na.isHost ? b : a,
                       params.first,
                       params.second,
                       mtu,
                       line);
                continue;
            }
            auto key = std::make_pair(std::min(a, b), std::max(a, b));
            auto it = m_linkLine.find(key);
            if (it != m_linkLine.end())
            {
                Fail(line,
                     "second link between '" + na.name + "' and '" + nb.name + "' (first at line " +
                         std::to_string(it->second) +
                         "): parallel links are not supported, expected one link with the "
                         "summed rate");
            }
            m_linkLine.emplace(key, line);
            m_links.push_back({a, b, params.first, params.second, mtu});
        }
    }
}

std::vector<std::string>
TopologyFileParser::AllowedKeys(const std::string& directive, uint32_t line) const
{
    if (directive == "defaults")
    {
        return {"rate", "delay", "mtu"};
    }
    if (directive == "switch")
    {
        return {"tier", "pod", "capacity"};
    }
    if (directive == "host")
    {
        return {"attach", "rate", "delay", "mtu"};
    }
    if (directive == "link")
    {
        return {"rate", "delay", "mtu"};
    }
    Fail(line,
         "unknown directive '" + directive +
             "': expected one of defaults, switch, host, link (or a # comment)");
}

void
TopologyFileParser::SplitArguments(const std::vector<std::string>& tokens,
                                   const std::vector<std::string>& allowed,
                                   std::vector<std::string>& positional,
                                   KeyValues& kv,
                                   uint32_t line) const
{
    const std::string& directive = tokens[0];
    for (size_t i = 1; i < tokens.size(); ++i)
    {
        const std::string& t = tokens[i];
        size_t eq = t.find('=');
        if (eq == std::string::npos)
        {
            if (!kv.empty())
            {
                Fail(line,
                     "'" + t + "' after " + kv.back().first +
                         "=: expected names first, then KEY=VALUE pairs");
            }
            positional.push_back(t);
            continue;
        }
        std::string key = t.substr(0, eq);
        std::string value = t.substr(eq + 1);
        if (key.empty() || value.empty())
        {
            Fail(line, "bad '" + t + "': expected KEY=VALUE with no spaces around '='");
        }
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        {
            std::string allowedList;
            for (size_t k = 0; k < allowed.size(); ++k)
            {
                allowedList += (k == 0 ? "" : ", ") + allowed[k];
            }
            Fail(line,
                 "unknown key '" + key + "' for '" + directive + "': expected one of " +
                     allowedList);
        }
        if (Find(kv, key.c_str()) != nullptr)
        {
            Fail(line, "key '" + key + "' given twice: expected it at most once per line");
        }
        kv.emplace_back(key, value);
    }
}

void
TopologyFileParser::ParseLine(const std::string& raw, uint32_t line)
{
    std::string text = raw.substr(0, raw.find('#'));
    std::istringstream in(text);
    std::vector<std::string> tokens;
    std::string tok;
    while (in >> tok)
    {
        tokens.push_back(tok);
    }
    if (tokens.empty())
    {
        return;
    }
    const std::string& directive = tokens[0];
    const std::vector<std::string> allowed = AllowedKeys(directive, line);
    std::vector<std::string> positional;
    KeyValues kv;
    SplitArguments(tokens, allowed, positional, kv, line);
    if (directive == "defaults")
    {
        Defaults(positional, kv, line);
    }
    else if (directive == "switch")
    {
        Switch(positional, kv, line);
    }
    else if (directive == "host")
    {
        Host(positional, kv, line);
    }
    else
    {
        LinkLine(positional, kv, line);
    }
}

uint32_t
TopologyFileParser::CheckHosts(uint32_t lastLine) const
{
    std::optional<uint32_t> firstHost;
    for (uint32_t i = 0; i < m_nodes.size(); ++i)
    {
        const PNode& p = m_nodes[i];
        if (!p.isHost)
        {
            continue;
        }
        if (!firstHost)
        {
            firstHost = i;
        }
        if (!p.attach)
        {
            Fail(p.line,
                 "host '" + p.name +
                     "' has no attachment: expected attach=SWITCH on its line or a 'link' line "
                     "to a switch");
        }
    }
    if (!firstHost)
    {
        Fail(lastLine, "no hosts declared: expected at least one 'host' line");
    }
    return *firstHost;
}

TopologyFileParser::Graph
TopologyFileParser::BuildGraph() const
{
    const auto n = static_cast<uint32_t>(m_nodes.size());
    Graph adj(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_nodes[i].isHost)
        {
            adj[i].push_back(*m_nodes[i].attach);
            adj[*m_nodes[i].attach].push_back(i);
        }
    }
    for (const auto& l : m_links)
    {
        adj[l.a].push_back(l.b);
        adj[l.b].push_back(l.a);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        if (adj[i].size() > MAX_PORTS)
        {
            Fail(m_nodes[i].line,
                 "switch '" + m_nodes[i].name + "' has " + std::to_string(adj[i].size()) +
                     " links: at most " + std::to_string(MAX_PORTS) + " are supported");
        }
    }
    return adj;
}

std::vector<uint32_t>
TopologyFileParser::Distances(const Graph& graph, const std::vector<uint32_t>& sources)
{
    std::vector<uint32_t> dist(graph.size(), std::numeric_limits<uint32_t>::max());
    std::vector<uint32_t> queue;
    queue.reserve(graph.size());
    for (uint32_t s : sources)
    {
        dist[s] = 0;
        queue.push_back(s);
    }
    for (size_t head = 0; head < queue.size(); ++head)
    {
        uint32_t u = queue[head];
        for (uint32_t v : graph[u])
        {
            if (dist[v] == std::numeric_limits<uint32_t>::max())
            {
                dist[v] = dist[u] + 1;
                queue.push_back(v);
            }
        }
    }
    return dist;
}

std::vector<uint32_t>
TopologyFileParser::OrderSwitches(const Graph& graph, const std::vector<uint32_t>& hostIds) const
{
    const auto n = static_cast<uint32_t>(m_nodes.size());
    const std::vector<uint32_t> hostDist = Distances(graph, hostIds);
    std::map<std::string, std::pair<uint32_t, uint32_t>> tierKey; // tier -> (min dist, first decl)
    std::vector<uint32_t> switches;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_nodes[i].isHost)
        {
            continue;
        }
        switches.push_back(i);
        auto it = tierKey.find(m_nodes[i].tier);
        if (it == tierKey.end())
        {
            tierKey.emplace(m_nodes[i].tier, std::make_pair(hostDist[i], i));
        }
        else
        {
            it->second.first = std::min(it->second.first, hostDist[i]);
        }
    }
    std::stable_sort(switches.begin(), switches.end(), [&](uint32_t x, uint32_t y) {
        return tierKey.at(m_nodes[x].tier) < tierKey.at(m_nodes[y].tier);
    });
    return switches;
}

void
TopologyFileParser::Finish(uint32_t lastLine,
                           std::vector<InaTopology::Node>& nodes,
                           std::vector<InaTopology::Link>& links,
                           uint32_t& nHosts)
{
    const auto n = static_cast<uint32_t>(m_nodes.size());
    const uint32_t firstHost = CheckHosts(lastLine);
    const Graph graph = BuildGraph();
    const std::vector<uint32_t> reach = Distances(graph, {firstHost});
    for (uint32_t i = 0; i < n; ++i)
    {
        if (reach[i] == std::numeric_limits<uint32_t>::max())
        {
            Fail(m_nodes[i].line,
                 "node '" + m_nodes[i].name + "' cannot be reached from '" +
                     m_nodes[firstHost].name +
                     "': expected a connected topology (link it to the rest)");
        }
    }
    std::vector<uint32_t> hostIds;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_nodes[i].isHost)
        {
            hostIds.push_back(i);
        }
    }
    const std::vector<uint32_t> switches = OrderSwitches(graph, hostIds);

    // Switches in their order after the hosts; hosts in the order of their switches.
    nHosts = static_cast<uint32_t>(hostIds.size());
    std::vector<uint32_t> finalIndex(n);
    for (uint32_t s = 0; s < switches.size(); ++s)
    {
        finalIndex[switches[s]] = nHosts + s;
    }
    std::stable_sort(hostIds.begin(), hostIds.end(), [&](uint32_t x, uint32_t y) {
        return finalIndex[*m_nodes[x].attach] < finalIndex[*m_nodes[y].attach];
    });
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        finalIndex[hostIds[h]] = h;
    }

    std::vector<uint32_t> order(hostIds);
    order.insert(order.end(), switches.begin(), switches.end());
    std::map<std::pair<std::string, uint32_t>, uint32_t> nextIndex; // (tier, pod) -> count
    nodes.clear();
    nodes.reserve(n);
    for (uint32_t id : order)
    {
        const PNode& p = m_nodes[id];
        const uint32_t pod = p.isHost ? m_nodes[*p.attach].pod : p.pod;
        const uint32_t index = nextIndex[{p.tier, pod}]++;
        nodes.push_back(MakeNode(p.name, p.isHost, p.tier, pod, index));
        nodes.back().aggCapacityBps = p.aggBps;
        nodes.back().aggCapacityPps = p.aggPps;
    }
    links.clear();
    links.reserve(nHosts + m_links.size());
    for (uint32_t id : hostIds)
    {
        const PNode& h = m_nodes[id];
        links.push_back({finalIndex[id], finalIndex[*h.attach], h.rateBps, h.delayPs, h.mtuBytes});
    }
    for (const auto& l : m_links)
    {
        links.push_back({finalIndex[l.a], finalIndex[l.b], l.rateBps, l.delayPs, l.mtuBytes});
    }
}

} // namespace

InaTopology
InaTopology::Star(uint32_t hosts, LinkSpec hostLink)
{
    CheckLinkSpec(hostLink, "InaTopology::Star hostLink");
    if (hosts == 0 || hosts > MAX_PORTS)
    {
        throw std::invalid_argument("InaTopology::Star: hosts must be in 1.." +
                                    std::to_string(MAX_PORTS) + " (got " + std::to_string(hosts) +
                                    ")");
    }
    InaTopology t;
    t.m_nHosts = hosts;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        t.m_nodes.push_back(MakeNode("h" + std::to_string(h), true, "host", 0, h));
        t.m_links.push_back({h, hosts, hostLink.rateBps, hostLink.delayPs});
    }
    t.m_nodes.push_back(MakeNode("tor0", false, "tor", 0, 0));
    t.Finalize();
    return t;
}

namespace
{

/// The nodes of a k-ary fat-tree in index order: the hosts by pod and ToR, the ToRs, the
/// aggregation switches by pod, the cores (the order InaTopology::FatTree documents).
void
AddFatTreeNodes(uint32_t k, uint32_t perTor, std::vector<InaTopology::Node>& nodes)
{
    const uint32_t half = k / 2;
    nodes.reserve(static_cast<size_t>(k) * half * perTor + 2 * k * half + half * half);
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t i = 0; i < half; ++i)
        {
            for (uint32_t j = 0; j < perTor; ++j)
            {
                uint32_t h = (p * half + i) * perTor + j;
                nodes.push_back(MakeNode("h" + std::to_string(h), true, "host", p, i * perTor + j));
            }
        }
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t i = 0; i < half; ++i)
        {
            nodes.push_back(MakeNode("tor" + std::to_string(p * half + i), false, "tor", p, i));
        }
    }
    for (uint32_t p = 0; p < k; ++p)
    {
        for (uint32_t j = 0; j < half; ++j)
        {
            nodes.push_back(MakeNode("agg" + std::to_string(p * half + j), false, "agg", p, j));
        }
    }
    for (uint32_t c = 0; c < half * half; ++c)
    {
        nodes.push_back(MakeNode("core" + std::to_string(c), false, "core", 0, c));
    }
}

/// The links of that fat-tree: each host to its ToR, each ToR to every aggregation switch of its
/// pod, aggregation switch j of every pod to the j-th group of half cores.
void
AddFatTreeLinks(uint32_t k,
                uint32_t perTor,
                InaTopology::LinkSpec hostLink,
                InaTopology::LinkSpec fabricLink,
                std::vector<InaTopology::Link>& links)
{
    const uint32_t half = k / 2;
    const uint32_t nHosts = k * half * perTor;
    const uint32_t torBase = nHosts;
    const uint32_t aggBase = torBase + k * half;
    const uint32_t coreBase = aggBase + k * half;
    links.reserve(3 * static_cast<size_t>(nHosts));
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        links.push_back({h, torBase + h / perTor, hostLink.rateBps, hostLink.delayPs});
    }
    // Switch i of every pod's tier at `base` to half switches above it, up(p, i, u) the u-th.
    auto upLinks = [&](uint32_t base, auto up) {
        for (uint32_t p = 0; p < k; ++p)
        {
            for (uint32_t i = 0; i < half; ++i)
            {
                for (uint32_t u = 0; u < half; ++u)
                {
                    links.push_back(
                        {base + p * half + i, up(p, i, u), fabricLink.rateBps, fabricLink.delayPs});
                }
            }
        }
    };
    upLinks(torBase, [&](uint32_t p, uint32_t /* tor */, uint32_t j) {
        return aggBase + p * half + j;
    });
    upLinks(aggBase, [&](uint32_t /* pod */, uint32_t j, uint32_t c) {
        return coreBase + j * half + c;
    });
}

} // namespace

InaTopology
InaTopology::FatTree(uint32_t k, LinkSpec hostLink, LinkSpec fabricLink, uint32_t hostsPerTor)
{
    CheckLinkSpec(hostLink, "InaTopology::FatTree hostLink");
    CheckLinkSpec(fabricLink, "InaTopology::FatTree fabricLink");
    if (k < 4 || k % 2 != 0)
    {
        throw std::invalid_argument(
            "InaTopology::FatTree: k must be even and >= 4 (got k=" + std::to_string(k) + ")");
    }
    const uint32_t half = k / 2;
    const uint32_t perTor = hostsPerTor == 0 ? half : hostsPerTor;
    if (static_cast<uint64_t>(perTor) + half > MAX_PORTS)
    {
        throw std::invalid_argument("InaTopology::FatTree: " + std::to_string(perTor) +
                                    " hosts per ToR and " + std::to_string(half) +
                                    " uplinks exceed a switch's " + std::to_string(MAX_PORTS) +
                                    " ports");
    }
    const uint64_t k64 = k;
    InaCheckTopologySize("InaTopology::FatTree: k=" + std::to_string(k) + " with " +
                             std::to_string(perTor) + " hosts per ToR",
                         k64 * half * perTor,
                         5 * k64 * k64 / 4);
    InaTopology t;
    t.m_nHosts = k * half * perTor;
    AddFatTreeNodes(k, perTor, t.m_nodes);
    AddFatTreeLinks(k, perTor, hostLink, fabricLink, t.m_links);
    t.Finalize();
    return t;
}

InaTopology
InaTopology::LeafSpine(uint32_t leaves,
                       uint32_t spines,
                       uint32_t hostsPerLeaf,
                       LinkSpec hostLink,
                       LinkSpec fabricLink)
{
    CheckLinkSpec(hostLink, "InaTopology::LeafSpine hostLink");
    CheckLinkSpec(fabricLink, "InaTopology::LeafSpine fabricLink");
    if (leaves == 0 || spines == 0 || hostsPerLeaf == 0)
    {
        throw std::invalid_argument(
            "InaTopology::LeafSpine: leaves, spines and hostsPerLeaf must all be >= 1 (got " +
            std::to_string(leaves) + ", " + std::to_string(spines) + ", " +
            std::to_string(hostsPerLeaf) + ")");
    }
    if (static_cast<uint64_t>(hostsPerLeaf) + spines > MAX_PORTS || leaves > MAX_PORTS)
    {
        throw std::invalid_argument("InaTopology::LeafSpine: a switch would have more than " +
                                    std::to_string(MAX_PORTS) + " ports");
    }
    InaCheckTopologySize("InaTopology::LeafSpine: " + std::to_string(leaves) + " leaves of " +
                             std::to_string(hostsPerLeaf) + " hosts and " + std::to_string(spines) +
                             " spines",
                         static_cast<uint64_t>(leaves) * hostsPerLeaf,
                         static_cast<uint64_t>(leaves) + spines);
    const uint32_t nHosts = leaves * hostsPerLeaf;
    InaTopology t;
    t.m_nHosts = nHosts;
    for (uint32_t h = 0; h < nHosts; ++h)
    {
        t.m_nodes.push_back(MakeNode("h" + std::to_string(h), true, "host", 0, h));
        t.m_links.push_back({h, nHosts + h / hostsPerLeaf, hostLink.rateBps, hostLink.delayPs});
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        t.m_nodes.push_back(MakeNode("leaf" + std::to_string(l), false, "leaf", 0, l));
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        t.m_nodes.push_back(MakeNode("spine" + std::to_string(s), false, "spine", 0, s));
    }
    for (uint32_t l = 0; l < leaves; ++l)
    {
        for (uint32_t s = 0; s < spines; ++s)
        {
            t.m_links.push_back(
                {nHosts + l, nHosts + leaves + s, fabricLink.rateBps, fabricLink.delayPs});
        }
    }
    t.Finalize();
    return t;
}

InaTopology
InaTopology::FromFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw std::runtime_error("cannot open topology file '" + path +
                                 "': " + std::strerror(errno));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
    {
        throw std::runtime_error("cannot read topology file '" + path + "'");
    }
    return FromString(text.str(), path);
}

InaTopology
InaTopology::FromString(const std::string& text, const std::string& sourceName)
{
    TopologyFileParser parser(sourceName);
    uint32_t line = 0;
    size_t start = 0;
    while (start < text.size())
    {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
        {
            end = text.size();
        }
        std::string l = text.substr(start, end - start);
        if (!l.empty() && l.back() == '\r')
        {
            l.pop_back();
        }
        ++line;
        parser.ParseLine(l, line);
        start = end + 1;
    }
    InaTopology t;
    parser.Finish(std::max<uint32_t>(line, 1), t.m_nodes, t.m_links, t.m_nHosts);
    t.Finalize();
    return t;
}

namespace
{

/// Sort a node's neighbours into port order (by neighbour index); a node with more ports than a
/// routing table can number, or two links to one neighbour, is refused.
void
SortPorts(InaTopology::Adjacency& adj, const std::string& name)
{
    std::sort(adj.begin(), adj.end());
    if (adj.size() > MAX_PORTS)
    {
        throw std::logic_error("InaTopology: node " + name + " has too many ports");
    }
    for (size_t p = 1; p < adj.size(); ++p)
    {
        if (adj[p].first == adj[p - 1].first)
        {
            throw std::logic_error("InaTopology: parallel links at node " + name);
        }
    }
}

/// \return whether the graph has nodes and every node is reached from node 0 (breadth first)
bool
IsConnected(const std::vector<InaTopology::Adjacency>& adjacency)
{
    const size_t n = adjacency.size();
    if (n == 0)
    {
        return false;
    }
    std::vector<bool> seen(n, false);
    std::vector<uint32_t> queue{0};
    seen[0] = true;
    for (size_t head = 0; head < queue.size(); ++head)
    {
        for (const auto& nb : adjacency[queue[head]])
        {
            if (!seen[nb.first])
            {
                seen[nb.first] = true;
                queue.push_back(nb.first);
            }
        }
    }
    return queue.size() == n;
}

} // namespace

void
InaTopology::Finalize()
{
    const uint32_t n = static_cast<uint32_t>(m_nodes.size());
    for (uint32_t i = 0; i < n; ++i)
    {
        if (m_nodes[i].isHost != (i < m_nHosts))
        {
            throw std::logic_error("InaTopology: hosts must be numbered before switches");
        }
    }
    m_adjacency.assign(n, {});
    for (uint32_t l = 0; l < m_links.size(); ++l)
    {
        const Link& link = m_links[l];
        if (link.a >= n || link.b >= n || link.a == link.b)
        {
            throw std::logic_error("InaTopology: link " + std::to_string(l) + " is malformed");
        }
        m_adjacency[link.a].emplace_back(link.b, l);
        m_adjacency[link.b].emplace_back(link.a, l);
    }
    for (uint32_t i = 0; i < n; ++i)
    {
        SortPorts(m_adjacency[i], m_nodes[i].name);
    }

    m_byName.clear();
    m_byName.reserve(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        if (!m_byName.emplace(m_nodes[i].name, i).second)
        {
            throw std::logic_error("InaTopology: duplicate node name " + m_nodes[i].name);
        }
    }

    m_rack.assign(m_nHosts, 0);
    for (uint32_t h = 0; h < m_nHosts; ++h)
    {
        if (m_adjacency[h].size() != 1 || IsHost(m_adjacency[h][0].first))
        {
            throw std::logic_error("InaTopology: host " + m_nodes[h].name +
                                   " must attach to exactly one switch");
        }
        m_rack[h] = m_adjacency[h][0].first;
        if (h > 0 && m_rack[h] < m_rack[h - 1])
        {
            throw std::logic_error("InaTopology: hosts must be numbered in rack order");
        }
    }

    m_tiers.assign(1, "host");
    m_level.assign(n, 0);
    for (uint32_t i = m_nHosts; i < n; ++i)
    {
        if (m_nodes[i].tier != m_tiers.back())
        {
            if (std::find(m_tiers.begin(), m_tiers.end(), m_nodes[i].tier) != m_tiers.end())
            {
                throw std::logic_error("InaTopology: switches must be numbered tier by tier");
            }
            m_tiers.push_back(m_nodes[i].tier);
        }
        m_level[i] = static_cast<uint32_t>(m_tiers.size() - 1);
    }

    if (!IsConnected(m_adjacency))
    {
        throw std::logic_error("InaTopology: the topology is empty or not connected");
    }
}

const InaTopology::Node&
InaTopology::GetNode(uint32_t node) const
{
    if (node >= m_nodes.size())
    {
        throw std::out_of_range("InaTopology: no node " + std::to_string(node) + " (there are " +
                                std::to_string(m_nodes.size()) + ")");
    }
    return m_nodes[node];
}

const InaTopology::Link&
InaTopology::GetLink(uint32_t link) const
{
    if (link >= m_links.size())
    {
        throw std::out_of_range("InaTopology: no link " + std::to_string(link) + " (there are " +
                                std::to_string(m_links.size()) + ")");
    }
    return m_links[link];
}

uint32_t
InaTopology::FindNode(const std::string& name) const
{
    auto it = m_byName.find(name);
    if (it == m_byName.end())
    {
        throw std::invalid_argument("InaTopology: no node named '" + name + "'");
    }
    return it->second;
}

bool
InaTopology::HasNode(const std::string& name) const
{
    return m_byName.count(name) != 0;
}

std::vector<uint32_t>
InaTopology::HostsUnder(uint32_t switchNode) const
{
    if (GetNode(switchNode).isHost)
    {
        throw std::invalid_argument("InaTopology::HostsUnder: node " + m_nodes[switchNode].name +
                                    " is a host, expected a switch");
    }
    std::vector<uint32_t> hosts;
    for (const auto& nb : m_adjacency[switchNode])
    {
        if (!IsHost(nb.first))
        {
            break; // neighbours are sorted and hosts are numbered first
        }
        hosts.push_back(nb.first);
    }
    return hosts;
}

uint32_t
InaTopology::RackOf(uint32_t host) const
{
    if (!GetNode(host).isHost)
    {
        throw std::invalid_argument("InaTopology::RackOf: node " + m_nodes[host].name +
                                    " is a switch, expected a host");
    }
    return m_rack[host];
}

const std::string&
InaTopology::GetTier(uint32_t node) const
{
    return GetNode(node).tier;
}

std::vector<uint32_t>
InaTopology::NodesInTier(const std::string& tier) const
{
    std::vector<uint32_t> out;
    for (uint32_t i = 0; i < m_nodes.size(); ++i)
    {
        if (m_nodes[i].tier == tier)
        {
            out.push_back(i);
        }
    }
    return out;
}

bool
InaTopology::HasTier(const std::string& tier) const
{
    return std::find(m_tiers.begin(), m_tiers.end(), tier) != m_tiers.end();
}

uint32_t
InaTopology::GetLevel(uint32_t node) const
{
    GetNode(node);
    return m_level[node];
}

const InaTopology::Adjacency&
InaTopology::Neighbors(uint32_t node) const
{
    GetNode(node);
    return m_adjacency[node];
}

uint16_t
InaTopology::PortTo(uint32_t node, uint32_t neighbor) const
{
    const Adjacency& adj = Neighbors(node);
    auto it = std::lower_bound(adj.begin(),
                               adj.end(),
                               neighbor,
                               [](const std::pair<uint32_t, uint32_t>& e, uint32_t v) {
                                   return e.first < v;
                               });
    if (it == adj.end() || it->first != neighbor)
    {
        throw std::invalid_argument(
            "InaTopology::PortTo: " + m_nodes[node].name + " and " +
            (neighbor < m_nodes.size() ? m_nodes[neighbor].name : std::to_string(neighbor)) +
            " are not adjacent");
    }
    return static_cast<uint16_t>(it - adj.begin());
}

double
InaTopology::Oversubscription(uint32_t switchNode) const
{
    if (GetNode(switchNode).isHost)
    {
        throw std::invalid_argument("InaTopology::Oversubscription: node " +
                                    m_nodes[switchNode].name + " is a host, expected a switch");
    }
    double down = 0;
    double up = 0;
    for (const auto& nb : m_adjacency[switchNode])
    {
        const double rate = static_cast<double>(m_links[nb.second].rateBps);
        if (m_level[nb.first] < m_level[switchNode])
        {
            down += rate;
        }
        else if (m_level[nb.first] > m_level[switchNode])
        {
            up += rate;
        }
    }
    if (up == 0)
    {
        throw std::invalid_argument("InaTopology::Oversubscription: switch " +
                                    m_nodes[switchNode].name +
                                    " has no uplink (it is in the top tier)");
    }
    return down / up;
}

double
InaTopology::MaxOversubscription() const
{
    double worst = 1.0;
    bool any = false;
    for (uint32_t s = m_nHosts; s < m_nodes.size(); ++s)
    {
        bool hasUp = false;
        for (const auto& nb : m_adjacency[s])
        {
            hasUp = hasUp || m_level[nb.first] > m_level[s];
        }
        if (hasUp)
        {
            double o = Oversubscription(s);
            worst = any ? std::max(worst, o) : o;
            any = true;
        }
    }
    return worst;
}

} // namespace ns3
