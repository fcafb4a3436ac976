# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""`./inasim bench htsim`: htsim (EQDS) and inasim's scale-bench on the same fat-trees and traffic.

htsim is not part of inasim: the user builds it (github.com/Broadcom/csg-htsim, sim/ then
sim/datacenter) and names its htsim_eqds binary with --htsim PATH or INASIM_HTSIM. Both simulators
get a k-ary fat-tree of 100 Gb/s links with 1 us latency and a permutation (host i sends to perm[i]
!= i) of 1500-B packets. htsim's set-up (fabric, connections) is removed by running every size at
two flow lengths and dividing the difference of CPU times by the difference of packet-hops;
scale-bench times Simulator::Run() alone. docs/performance.md says what else differs.
"""

import os
import random
import re
import resource
import subprocess
import tempfile
from pathlib import Path

from .common import UserError, display_path, say

ENV = "INASIM_HTSIM"
SIZES = (4, 8, 16, 24)
#: EQDS's payload per 1500-B packet (htsim's EqdsSrc::_mss for -mtu 1500: its flows of N packets
#: report N * 1436 bytes).
PAYLOAD = 1436
#: The two flow lengths, as fractions of the hop budget: their difference is what is timed.
SHORT, LONG = 0.25, 1.0
#: Packets per flow of the longer run at least. EQDS flows shorter than about its 50-packet
#: window keep events running until -end (measured: 20 packets at k=4 cost 5 s of CPU for 0.1 s
#: simulated, 60 packets nothing), so the shorter run gets at least 60.
MIN_PACKETS = 240


def htsim_path(given):
    """The htsim_eqds binary named by --htsim or $INASIM_HTSIM; UserError when unset or unusable."""
    raw = given if given is not None else os.environ.get(ENV)
    if raw is None or not raw.strip():
        raise UserError("benchmark htsim: htsim is not set; build htsim (github.com/Broadcom/"
                        "csg-htsim: make in sim/, then make htsim_eqds in sim/datacenter) and "
                        f"give its binary with --htsim PATH or {ENV}=PATH", code=2)
    path = Path(raw).expanduser()
    if not path.is_file():
        raise UserError(f"benchmark htsim: --htsim {raw}: no such file (expected htsim's "
                        "sim/datacenter/htsim_eqds)", code=2)
    if not os.access(path, os.X_OK):
        raise UserError(f"benchmark htsim: --htsim {raw}: not executable", code=2)
    return path.resolve()


def derangement(n, seed=12345):
    """perm[i] != i for every host: a shuffle, then fixed points swapped with their successor."""
    perm = list(range(n))
    random.Random(seed).shuffle(perm)
    for i in range(n):
        if perm[i] == i:
            j = (i + 1) % n
            perm[i], perm[j] = perm[j], perm[i]
    return perm


def path_hops(k, a, b):
    """Links a packet from host a to host b crosses on a k-ary fat-tree (hosts numbered by pod,
    then ToR, as both simulators number them)."""
    per_tor, per_pod = k // 2, k * k // 4
    if a // per_tor == b // per_tor:
        return 2
    if a // per_pod == b // per_pod:
        return 4
    return 6


def connection_matrix(perm, flow_bytes):
    """htsim's connection-matrix text: every flow starts at time 0."""
    lines = [f"Nodes {len(perm)}", f"Connections {len(perm)}"]
    lines += [f"{i}->{d} start 0 size {flow_bytes}" for i, d in enumerate(perm)]
    return "\n".join(lines) + "\n"


_TOTALS = re.compile(r"^New: (\d+) Rtx: (\d+)", re.MULTILINE)
_FINISHED = re.compile(r"^Flow \S+ .* finished at ", re.MULTILINE)


def parse_htsim_output(text, flows):
    """(new, retransmitted) data packets from htsim_eqds's stdout; ValueError if it did not
    finish every flow."""
    totals = _TOTALS.search(text)
    if totals is None:
        raise ValueError("its output has no 'New: N Rtx: N' line (is it htsim_eqds?)")
    finished = len(_FINISHED.findall(text))
    if finished != flows:
        raise ValueError(f"{finished} of {flows} flows finished")
    return int(totals.group(1)), int(totals.group(2))


def child_cpu_seconds():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime


def run_htsim(binary, k, packets, work_dir):
    """One htsim run: (CPU seconds, data packet-hops)."""
    n = k ** 3 // 4
    perm = derangement(n)
    cm = Path(work_dir) / f"k{k}-{packets}.cm"
    cm.write_text(connection_matrix(perm, packets * PAYLOAD), encoding="utf-8")
    # A flow at line rate takes 0.12 us per packet; -end leaves it 20 times that, and a flow not
    # finished by then is an error (parse_htsim_output).
    end_us = 1000 + 20 * packets * 12 // 100
    cmd = [str(binary), "-tm", str(cm), "-mtu", "1500", "-linkspeed", "100000", "-hop_latency",
           "1", "-end", str(end_us), "-o", str(Path(work_dir) / "htsim.log")]
    cpu0 = child_cpu_seconds()
    proc = subprocess.run(cmd, cwd=work_dir, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace", check=False)
    cpu = child_cpu_seconds() - cpu0
    if proc.returncode != 0:
        raise UserError(f"benchmark htsim: {display_path(binary)} exited with {proc.returncode} "
                        f"at k={k}; output ended with: {proc.stdout.strip()[-300:]}")
    try:
        new, rtx = parse_htsim_output(proc.stdout, n)
    except ValueError as e:
        raise UserError(f"benchmark htsim: k={k}: {e}") from None
    # Every data packet of flow i crosses path_hops(i) links; the flows are of one size, so the
    # mean path length times the packets sent is the sum (retransmissions spread alike).
    mean_hops = sum(path_hops(k, i, d) for i, d in enumerate(perm)) / n
    return cpu, (new + rtx) * mean_hops


def htsim_metrics(binary, hops, sizes=SIZES):
    """CPU ns per data packet-hop of htsim at every size, set-up removed."""
    metrics = {}
    with tempfile.TemporaryDirectory(prefix="inasim-htsim-") as work_dir:
        for k in sizes:
            n = k ** 3 // 4
            full = max(MIN_PACKETS, hops // (6 * n))
            runs = [run_htsim(binary, k, max(1, round(full * f)), work_dir) for f in (SHORT, LONG)]
            cpu = runs[1][0] - runs[0][0]
            data_hops = runs[1][1] - runs[0][1]
            if data_hops <= 0 or cpu <= 0:
                raise UserError(f"benchmark htsim: k={k}: the longer run did no more work")
            metrics[f"htsim.k{k}.htsim_data_hops"] = round(data_hops)
            metrics[f"htsim.k{k}.htsim_cpu_ns_per_data_hop"] = round(1e9 * cpu / data_hops, 1)
            say(f"bench htsim: k={k}: htsim {1e9 * cpu / data_hops:.0f} CPU ns per data hop "
                f"({data_hops:,.0f} hops between runs of {runs[0][1]:,.0f} and "
                f"{runs[1][1]:,.0f})")
    return metrics


def compare(binary, scale_metrics, hops, sizes=SIZES):
    """htsim's metrics at every size, the scale-bench's beside them, and the ratios."""
    metrics = htsim_metrics(binary, hops, sizes)
    base = sizes[0]
    for k in sizes:
        ours = scale_metrics.get(f"scale.k{k}.cpu_ns_per_hop")
        if ours is None:
            raise UserError(f"benchmark htsim: scale-bench printed no scale.k{k}.cpu_ns_per_hop")
        theirs = metrics[f"htsim.k{k}.htsim_cpu_ns_per_data_hop"]
        metrics[f"htsim.k{k}.inasim_cpu_ns_per_hop"] = ours
        metrics[f"htsim.k{k}.ratio_inasim_over_htsim"] = round(ours / theirs, 3)
    for k in sizes[1:]:
        for who, key in (("htsim", "htsim_cpu_ns_per_data_hop"),
                         ("inasim", "inasim_cpu_ns_per_hop")):
            metrics[f"htsim.ratio.{who}_k{k}_over_k{base}"] = round(
                metrics[f"htsim.k{k}.{key}"] / metrics[f"htsim.k{base}.{key}"], 3)
    return metrics
