#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the seeds of the switch-packets fuzz target (test/fuzz/seeds/switch-packets/).

One file per protocol: its index (fuzz-switch-packets.cc, Protocols()), then packets shaped like
the protocol's own (a gradient, a resend, a result, a control packet) but naming the other job,
so libFuzzer starts from headers the switch programs parse deep into. The record layout is the
one fuzz-switch-packets.cc reads (32 bytes of packet fields, then the 64-byte header area).
"""
import os
import struct

REC = 96
SWITCH = 7  # the star's switch follows its 7 hosts
OTHER = 2


def rec(t, dst, port, value_words, wire, hdr, proto_sel=0, src=6, prio=0, ecn=0, seq=0):
    b = bytearray(REC)
    value_sel = 0 if value_words is None else 64 + value_words
    struct.pack_into("<HBBIIHHBBBBHIIH", b, 0, t, proto_sel, dst, 0, OTHER, 1, port, src, prio,
                     ecn, value_sel, wire - 60, 7, seq, 0)
    b[REC - 64:] = hdr.ljust(64, b"\0")
    return bytes(b)


def pool(idx, flags=0, prio=0, seq=0):
    return struct.pack("<IIBBBBHBBI", 1, 1, 2, 1, flags, prio, idx, 0, 0, (OTHER << 16) | seq)


def switchml(typ, ver, flags, wid, idx, off, origin):
    return struct.pack("<BBBBHHIIh", typ, ver, flags, 0, wid, idx, off, origin, -32768)


def libra(typ, worker, pairs, rnd, seq):
    return struct.pack("<BBHHHIIQ", typ, 0, worker, pairs, 0, rnd, seq, 0)


SEEDS = [
    ("switchml", [rec(5000, SWITCH, 258, 32, 186, switchml(1, 0, 1, 0, 0, 0, 3)),
                  rec(9000, 3, 258, 32, 186, switchml(2, 1, 3, 1, 5, 1, 4), seq=1)]),
    ("atp", [rec(4000, 5, 0x7002, 62, 306, pool(3)),
             rec(8000, 5, 0x7002, 62, 306, pool(3, flags=0x40)),
             rec(12000, 140, 0x7002, None, 60, pool(3, flags=0x04))]),
    ("esa", [rec(4000, 5, 0x7002, 62, 306, pool(3, prio=200)),
             rec(6000, SWITCH, 0x7002, None, 60, pool(3, flags=0x01)),
             rec(8000, 5, 0x7002, None, 60, pool(3, flags=0x02))]),
    ("grid", [rec(4000, SWITCH, 0x7002, 62, 306, pool(1)),
              rec(7000, SWITCH, 0x7002, 62, 306, pool(1, flags=0x40))]),
    ("libra", [rec(3000, SWITCH, 66, 8, 182, libra(1, 0, 4, 1, 0)),
               rec(6000, SWITCH, 66, None, 60, libra(3, 0, 0, 1, 0)),
               rec(9000, SWITCH, 66, None, 60, libra(7, 1, 0, 1, 3))]),
    ("geryon", [rec(4000, SWITCH, 0x7002, 62, 306, pool(2))]),
    ("switchml-ps", [rec(4000, SWITCH, 0x7002, 62, 306, pool(2))]),
]


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "seeds", "switch-packets")
    os.makedirs(out, exist_ok=True)
    for index, (name, packets) in enumerate(SEEDS):
        with open(os.path.join(out, name + ".bin"), "wb") as f:
            f.write(bytes([index]) + b"".join(packets))
    # Plain forwarding, to the victim's host, and a protocol number no program has.
    with open(os.path.join(out, "forwarding.bin"), "wb") as f:
        f.write(bytes([1]) + rec(2000, 0, 9, None, 60, b"", proto_sel=200)
                + rec(2500, 4, 9, None, 1500, b"\xff" * 64, proto_sel=245, prio=3, ecn=3))


if __name__ == "__main__":
    main()
