# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Quantities as written in scenario and sweep files (100Gbps, 1us, 64MB), for figure axes.

The units are those of docs/scenario-reference.md ("Values and units"). Figures show a quantity in
one display unit per axis, chosen so that the largest value is between 1 and 1000.
"""

import decimal
import math
import re

#: unit -> (kind, factor to the base unit: bit/s, second, byte), exact decimals
UNITS = {
    "bps": ("rate", "1"), "Kbps": ("rate", "1e3"), "kbps": ("rate", "1e3"),
    "Mbps": ("rate", "1e6"), "Gbps": ("rate", "1e9"), "Tbps": ("rate", "1e12"),
    "ps": ("time", "1e-12"), "ns": ("time", "1e-9"), "us": ("time", "1e-6"),
    "ms": ("time", "1e-3"), "s": ("time", "1"),
    "B": ("size", "1"), "KB": ("size", "1e3"), "MB": ("size", "1e6"), "GB": ("size", "1e9"),
    "TB": ("size", "1e12"), "KiB": ("size", "1024"), "MiB": ("size", "1048576"),
    "GiB": ("size", "1073741824"), "TiB": ("size", "1099511627776"),
}

_QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z]*)\s*$")

#: Display units per kind, largest first: (label, factor of the base unit).
DISPLAY = {
    "rate": [("Tb/s", 1e12), ("Gb/s", 1e9), ("Mb/s", 1e6), ("Kb/s", 1e3), ("b/s", 1.0)],
    "time": [("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9), ("ps", 1e-12)],
    "size": [("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("KB", 1e3), ("B", 1.0)],
    "size-binary": [("TiB", 1024.0 ** 4), ("GiB", 1024.0 ** 3), ("MiB", 1024.0 ** 2),
                    ("KiB", 1024.0), ("B", 1.0)],
}


def parse_quantity(value):
    """(number in the base unit, kind or None) of a value, or None when it is not a quantity.

    parse_quantity("25Gbps") == (25e9, "rate"); parse_quantity(8) == (8.0, None);
    parse_quantity("atp") is None.
    """
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return (float(value), None) if math.isfinite(value) else None
    m = _QUANTITY.match(str(value))
    if not m:
        return None
    number, unit = m.group(1), m.group(2)
    if not unit:
        return float(number), None
    if unit not in UNITS:
        return None
    kind, factor = UNITS[unit]
    if kind == "size" and "i" in unit:
        kind = "size-binary"
    # In decimal, so that 500ns is exactly 5e-07 s as a float.
    return float(decimal.Decimal(number) * decimal.Decimal(factor)), kind


def numeric_axis(values):
    """(numbers, kind) when every value is a quantity of one kind (or a plain number), else None.

    Binary and decimal sizes mix as "size"; plain numbers mix with nothing else, except 0, which
    takes the kind of the others (a loss rate of 0, a delay of 0).
    """
    parsed = [parse_quantity(v) for v in values]
    if not parsed or any(p is None for p in parsed):
        return None
    kinds = {k for (n, k) in parsed if not (k is None and n == 0)}
    if {"size", "size-binary"} <= kinds:
        kinds = (kinds - {"size-binary"}) | {"size"}
    if len(kinds) > 1:
        return None
    kind = kinds.pop() if kinds else None
    return [n for (n, _) in parsed], kind


def display_unit(kind, values):
    """(label, divisor) to show base-unit `values` of `kind`: the largest unit that keeps the
    largest magnitude at 1 or more; ("", 1.0) for plain numbers."""
    if kind is None or kind not in DISPLAY:
        return "", 1.0
    biggest = max((abs(v) for v in values if v is not None and math.isfinite(v)), default=0.0)
    for label, factor in DISPLAY[kind]:
        if biggest >= factor:
            return label, factor
    label, factor = DISPLAY[kind][-1]
    return label, factor


def metric_kind(column):
    """The kind of a results column by its name: time (`*_s`, `*_s.mean`), rate (`*_gbps`, in
    Gb/s), size (`*bytes*`), or None (counts, ratios)."""
    name = column.rsplit(".", 1)[0] if column.endswith((".mean", ".max", ".sum")) else column
    last = name.rsplit(".", 1)[-1]
    if last.endswith("_s"):
        return "time"
    if last.endswith("_gbps"):
        return "rate-gbps"
    if "bytes" in last:
        return "size"
    return None


def format_number(value):
    """A tick or legend number without float noise: 4, 0.001, 2.5, 1e-05."""
    if value == 0:
        return "0"
    if float(value).is_integer() and abs(value) < 1e6:
        return str(int(value))
    return f"{value:.4g}"
