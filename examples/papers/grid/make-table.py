#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The GRID reproduction table: the paper's numbers next to ours, from the sweeps' results.

    make-table.py RESULTS_DIR > docs/grid-reproduction.md
    make-table.py --packet-table RESULTS_DIR SWEEP_NAME [SWEEP_NAME:LABEL ...]
                                                   # packet-level sweeps' rate table

RESULTS_DIR holds the sweep folders of examples/papers/grid/ (grid-fig1-sweep,
grid-fattree-a-sweep, ...; `./inasim sweep examples/papers/grid/X-sweep.yaml` puts them in
results/). A sweep that has not run is reported as missing, not guessed. Standard library only.

The paper's numbers are those printed in its text (GRID paper, Sec. 3.1 and Sec. 6.3); the
figures themselves are plots whose other points the text does not give.
"""

import csv
import math
import sys
from pathlib import Path

# (figure, set-up, sweep, workers, metric column, metric label, scheme, paper value, why we differ)
# `why` says where a difference comes from; "" where the numbers agree.
# Why the packet-level rows of the large set-ups differ from the planner level (measured, see
# docs/grid-reproduction.md "Packet level, large set-ups").
PACKET_WHY = ("packet level, scaled down: GRID's plan fills link directions exactly with "
              "gradients, and the results coming back (PS to switch, switch to its workers), "
              "which the default link rows do not count, overload some of them; their ECN marks "
              "halve every worker's window")
# The same with the results counted in the plan (job param ResultRows, off by default).
RESULT_ROWS_WHY = ("planned with its results on the links (ResultRows): no ECN mark, the plan "
                   "reached but for the first and last round trips")


def block(figure, setup, sweep, workers, column, label, *schemes):
    """The rows of one measurement of the paper: each scheme as (scheme, paper value, why)."""
    return [(figure, setup, sweep, workers, column, label, *s) for s in schemes]


ROWS = [
    *block("Fig. 1 / Sec. 3.1", "motivating example, C_s = 9 Gb/s", "grid-fig1-sweep", None,
           "jobs.0.rate_gbps", "worker rate (Gb/s)",
           ("grid", 3.0, ""),
           ("atp", 2.43, "the paper rounds 2.4375 (9/4 + 0.75/4) down to 2.43"),
           ("geryon", 1.0, "")),
    *block("Fig. 1 / Sec. 3.1", "packet level, C_s = 9 Gb/s", "grid-fig1-packet-sweep", None,
           "packet:rate", "worker rate (Gb/s)",
           ("grid", 3.0, ""),
           ("atp-paced", 2.43, "ATP-style baseline, paced at GRID's model of ATP at the racks, "
            "here the paper's model's 2.4375 (the paper rounds it to 2.43); s1 passes 7.2 % of "
            "the fragments, the fluid split's 7.7 % but for the start"),
           ("atp", 2.43, "ATP unpaced, its window alone setting its rate: it sends in bursts "
            "at line rate (4 x 3 Gb/s into s1's 9), so s1 passes fragments at every burst "
            "while under capacity on average (1,831 passed, s1 at 7.7 Gb/s), each costing L1 "
            "four packets, and L1's ECN marks halve the windows; the paper's rate model has no "
            "window (atp-paced, the row above): grid.rst, 'Baselines at packet level'"),
           ("switchml-ps", None, "the paper gives no SwitchML value for Fig. 1; the planner "
            "level gives 2.25 (s1 full)"),
           ("geryon", 1.0, "")),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a) every ToR programmable",
           "grid-fattree-a-sweep", 40, "ratio:grid/atp", "GRID rate / ATP rate",
           ("grid/atp", 1.19, "ATP and SwitchML tie in our fluid models (every rack "
            "aggregated at its own ToR, one stream per rack into the 100 Gb/s PS link, "
            "nothing left over for ATP to pass on); the paper's ATP is 2.5x its SwitchML "
            "here, which needs aggregation beyond the racks that its description of ATP does "
            "not give")),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a) every ToR programmable",
           "grid-fattree-a-sweep", 40, "ratio:grid/switchml", "GRID rate / SwitchML rate",
           ("grid/switchml", 3.0, "ours: GRID 100/3 Gb/s (three aggregating switches into "
            "the PS link) against SwitchML's 100/7 (seven racks); the paper prints only the "
            "ratio, and its placement of workers and PS is not given (ours: racks filled in "
            "order, the PS on the next free host)")),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a) every ToR programmable",
           "grid-fattree-a-sweep", 40, "ratio:grid/geryon", "GRID rate / Geryon rate",
           ("grid/geryon", 12.0, "Geryon is B/N = 2.5 Gb/s in both; the paper's 12 implies "
            "GRID at 30 Gb/s, ours is 33.3")),
    *block("Fig. 12(a) / Sec. 6.3", "fat-tree, (b) random 20 % programmable",
           "grid-fattree-b-sweep", 100, "jobs.0.rate_gbps", "worker rate (Gb/s)",
           ("grid", 23.5, "the printed LP has no link rows and promises 100 Gb/s; ours adds "
            "them (the paper's falling curve needs some such limit), so the value depends on "
            "which links the random set makes hot"),
           ("atp", 10.0, "the link rows: the paper's model assumes link bandwidth sufficient "
            "(Sec. 4.1); without them (planner.link_rows: false) our ATP gives 9.0 ± 1.2 over "
            "5 seeds, with them some link into the PS carries more unaggregated streams than "
            "it can"),
           ("switchml", 8.9, "SwitchML aggregates only at a rack's own programmable ToR: with "
            "about 3 of 32 ToRs programmable nearly every worker is a direct stream into the PS"),
           ("geryon", 1.0, "")),
    *block("Fig. 14(a) / Sec. 6.3", "fat-tree, (b)", "grid-fattree-b-sweep", 100,
           "jobs.0.switch_agg_gbps", "aggregated in switches (Gb/s)",
           ("grid", 465.0, "the paper's 465 Gb/s contradicts its own 23.5 Gb/s x 100 workers "
            "(2.35 Tb/s, nearly all of it aggregated in switches when the PS link is 100 Gb/s)"),
           ("atp", 148.0, "the paper's pair (10 Gb/s per worker, 148 Gb/s in switches) is "
            "inconsistent: 850 Gb/s would have to enter the PS over its 100 Gb/s link; ours "
            "(5.6 Gb/s, 561 Gb/s in switches) fits the link"),
           ("switchml", 178.45, "the same inconsistency in the paper (8.9 x 100 - 178 = 712 "
            "Gb/s for a 100 Gb/s PS link); ours is consistent with its 1.2 Gb/s")),
    *block("Fig. 16(a) / Sec. 6.3", "fat-tree, (b)", "grid-fattree-b-sweep", 40,
           "jobs.0.ps_agg_gbps", "PS aggregation rate (Gb/s)",
           ("grid", 86.0, "the paper's GRID leaves 14 % of the PS link idle while its text "
            "says GRID uses almost all of it; ours fills it whenever the PS link binds"),
           ("atp", 95.0, "the PS link binds every scheme at 40 workers in our runs"),
           ("switchml", 81.6, "the PS link binds every scheme at 40 workers in our runs"),
           ("geryon", 100.0, "")),
    *block("Fig. 15 / Sec. 6.3", "fat-tree, (a)", "grid-fattree-a-sweep", 100,
           "jobs.0.ps_agg_gbps", "PS aggregation rate (Gb/s)",
           ("grid", 100.0, "the paper: in (a) the PS link is the bottleneck, always 100 Gb/s")),
    *block("Fig. 15 / Sec. 6.3", "leaf-spine, (a)", "grid-leafspine-a-sweep", 100,
           "jobs.0.ps_agg_gbps", "PS aggregation rate (Gb/s)",
           ("grid", 100.0, "the paper: in (a) the PS link is the bottleneck, always 100 Gb/s")),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a), packet level, 4 MB per worker",
           "grid-fattree-a-packet-sweep", 40, "packet-ratio:grid/atp-paced",
           "GRID rate / ATP rate",
           ("grid/atp-paced", 1.19, "the ATP-style baseline (atp-paced) aggregates every rack at "
            "its ToR, one stream per rack into the PS (100/7 = 14.3 Gb/s, reached; no rack "
            "switch is full at 6 x 14.3 Gb/s), as switchml-ps; GRID runs at about half its "
            "plan's 33.3 (two rows below); planned with its results counted it reaches 24.4 of "
            "25 (ResultRows, the row after), 1.72x atp-paced")),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a), packet level, 4 MB per worker",
           "grid-fattree-a-packet-sweep", 40, "packet-ratio:grid/switchml-ps",
           "GRID rate / SwitchML rate",
           ("grid/switchml-ps", 3.0, "switchml-ps reaches its plan's 14.29 (paced, rack "
            "aggregates straight up to the PS, no ECN mark); GRID does not reach its own "
            "(next rows); the paper's 3 with GRID at 30 Gb/s needs 10 Gb/s for SwitchML, i.e. "
            "10 racks of 4 (planner-level rows above)")),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a), packet level, 4 MB per worker",
           "grid-fattree-a-packet-sweep", 40, "packet-ratio:grid/geryon",
           "GRID rate / Geryon rate",
           ("grid/geryon", 12.0, "Geryon reaches B/N = 2.5 Gb/s; GRID at about half its plan "
            "(next rows)")),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a), packet level, 4 MB per worker",
           "grid-fattree-a-packet-sweep", 40, "packet-plan:grid", "GRID rate / its plan's rate",
           ("grid", None, PACKET_WHY)),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a), packet level, 4 MB per worker",
           "grid-fattree-a-packet-result-rows-sweep", 40, "packet-plan:grid",
           "GRID (ResultRows) rate / its plan's rate",
           ("grid", None, RESULT_ROWS_WHY)),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a), packet level, 4 MB per worker",
           "grid-fattree-a-packet-sweep", 100, "packet-plan:grid", "GRID rate / its plan's rate",
           ("grid", None, PACKET_WHY)),
    *block("Fig. 11(a) / Sec. 6.3", "fat-tree, (a), packet level, 4 MB per worker",
           "grid-fattree-a-packet-result-rows-sweep", 100, "packet-plan:grid",
           "GRID (ResultRows) rate / its plan's rate",
           ("grid", None, RESULT_ROWS_WHY)),
    *block("Fig. 11(b) / Sec. 6.3", "leaf-spine, (a), packet level, 4 MB per worker",
           "grid-leafspine-a-packet-sweep", 40, "packet-plan:grid", "GRID rate / its plan's rate",
           ("grid", None, "no link marks GRID's packets here (0 ECN marks at 40 workers): it "
            "reaches its plan but for the start and the end; in the runs with marks (20 workers "
            "seed 2, 60, 100 seed 1), where its results share link directions its plan filled "
            "with gradients, 40 to 64 % of it (docs/grid-reproduction.md)")),
    *block("Fig. 11(b) / Sec. 6.3", "leaf-spine, (a), packet level, 4 MB per worker",
           "grid-leafspine-a-packet-sweep", 40, "packet-ratio:grid/atp-paced",
           "GRID rate / ATP rate",
           ("grid/atp-paced", None, "the paper prints no leaf-spine ratio; here the drawn C_s "
            "binds some leaves (16 or 17 workers of up to 100 Gb/s each), so atp-paced passes "
            "fragments on to the PS and its rate model is below the paper's model of ATP on "
            "seed 1 (29.1 against 35.9 Gb/s)")),
    *block("Fig. 12(a) / Sec. 6.3", "fat-tree, (b), packet level, 4 MB per worker",
           "grid-fattree-b-packet-sweep", 100, "packet:rate", "worker rate (Gb/s)",
           ("grid", 23.5, "the plan is 16.7 Gb/s on both seeds (link rows, which the printed LP "
            "lacks; the planner level's seed-1 plan is 20, the packet level's fan-in rows make "
            "the repair start elsewhere); seed 1 runs at 10.8 with 31,419 ECN marks (its results "
            "share link directions its plan filled), seed 2 at 16.5 with none"),
           ("atp-paced", 10.0, "ATP's data plane aggregates only at a worker's own rack switch: 4 "
            "of the ToRs holding the job's workers are in the random set, the other 78 workers "
            "are direct streams into the PS's 100 Gb/s beside 4 aggregates (100/82); the "
            "paper's 10 is its model of ATP, aggregating beyond the racks (6.67 and 4.17 Gb/s "
            "on the same draws, paper_model_rate_bps)"),
           ("switchml-ps", 8.9, "SwitchML aggregates only at a rack's own programmable ToR: "
            "nearly every worker is a direct stream into the PS, as atp-paced's"),
           ("geryon", 1.0, "")),
    *block("Fig. 12(a) / Sec. 6.3", "fat-tree, (b), packet level, 4 MB per worker",
           "grid-fattree-b-packet-result-rows-sweep", 100, "packet:rate",
           "GRID (ResultRows) rate (Gb/s)",
           ("grid", 23.5, "planned with its results counted (16.7 Gb/s on both seeds), reached "
            "with no ECN mark; the plan's 16.7 against 23.5 is the link rows' (row above)")),
]


def load(results, sweep):
    path = Path(results) / sweep / "results.csv"
    if not path.exists():
        return None
    with open(path, newline="", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f) if r.get("status") == "ok"]


def packet_rate(r):
    """A worker's gradient on the wire over the job's time, in Gb/s (packet-level runs): the
    fragments times the wire bytes per packet the workers sent (first sends, retransmissions,
    resends after a collision notice), as test/smoke/check-grid-fig1-packet.py computes it."""
    c = "jobs.0.protocol_counters."
    fragments = float(r[c + "ps_fragments"])
    packets = (fragments * float(r["jobs.0.workers"]) + float(r["jobs.0.retransmissions"]) +
               float(r.get(c + "notice_resends") or 0))
    wire = float(r["jobs.0.wire_bytes_sent"]) / packets
    return fragments * wire * 8 / float(r["jobs.0.jct_s"]) / 1e9


def values(rows, scheme, workers, column):
    out = {}
    for r in rows:
        if r.get("jobs.0.protocol") != scheme:
            continue
        if workers is not None and r.get("jobs.0.workers") != str(workers):
            continue
        if column == "packet:rate":
            out[r.get("seed")] = packet_rate(r)
            continue
        v = r.get(column, "")
        if v != "":
            out[r.get("seed")] = float(v)
    return out


def mean_sd(xs):
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    return m, sd


def plan_ratio(rows, scheme, workers):
    """Per seed: the packet-level rate over the rate the job's own plan promised."""
    rates = values(rows, scheme, workers, "packet:rate")
    plans = values(rows, scheme, workers, "jobs.0.protocol_counters.plan_rate_bps")
    return [rates[s] / (plans[s] / 1e9) for s in rates if s in plans and plans[s] > 0]


def ours(rows, scheme, workers, column):
    if column.startswith("packet-plan:"):
        ratios = plan_ratio(rows, column[len("packet-plan:"):], workers)
        return mean_sd(ratios), len(ratios)
    for prefix, key in (("packet-ratio:", "packet:rate"), ("ratio:", "jobs.0.rate_gbps")):
        if column.startswith(prefix):
            a, b = column[len(prefix):].split("/")
            num = values(rows, a, workers, key)
            den = values(rows, b, workers, key)
            ratios = [num[s] / den[s] for s in num if s in den and den[s] > 0]
            return mean_sd(ratios), len(ratios)
    xs = list(values(rows, scheme, workers, column).values())
    return mean_sd(xs), len(xs)


def packet_table(results, sweep, out, extra=()):
    """Per worker count, each scheme's rate on the wire (mean over the seeds, Gb/s), the rate of
    its own plan in brackets where it has one (plan_rate_bps: GRID, switchml-ps, geryon,
    atp-paced), for atp-paced also the rate of the paper's model of ATP (paper_model_rate_bps:
    aggregation at the first programmable switch on the route, beyond the racks), and the seeds
    behind it; docs/grid-reproduction.md's packet-level tables. Each `extra` entry,
    SWEEP_NAME:LABEL, adds that sweep's schemes as columns "scheme (LABEL)" (the same set-up
    with a job param changed, e.g. GRID with ResultRows)."""
    rows = load(results, sweep)
    if rows is None:
        out.write(f"{sweep}: not run\n")
        return 1
    for spec in extra:
        name, label = spec.split(":", 1)
        more = load(results, name)
        if more is None:
            out.write(f"{name}: not run\n")
            return 1
        for r in more:
            r["jobs.0.protocol"] = f"{r['jobs.0.protocol']} ({label})"
        rows += more
    schemes = []
    for r in rows:
        if r["jobs.0.protocol"] not in schemes:
            schemes.append(r["jobs.0.protocol"])
    # Runs refused at set-up (inasim-run's exit 2: the scenario's error), by scheme and size, as a
    # scheme whose data plane cannot run the placement (atp-paced) is.
    failed = {}
    with open(Path(results) / sweep / "results.csv", newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r.get("status") != "ok":
                if r.get("exit_code") != "2":
                    continue  # not a refusal (a crash, a timeout): "no run"
                key = (r["jobs.0.protocol"], int(r["jobs.0.workers"]))
                failed[key] = failed.get(key, 0) + 1
                if r["jobs.0.protocol"] not in schemes:
                    schemes.append(r["jobs.0.protocol"])
    counts = sorted({int(r["jobs.0.workers"]) for r in rows} | {n for _, n in failed})
    out.write("| workers | " + " | ".join(schemes) + " |\n")
    out.write("|---" * (len(schemes) + 1) + "|\n")
    for n in counts:
        cells = []
        for scheme in schemes:
            rates = values(rows, scheme, n, "packet:rate")
            plans = values(rows, scheme, n, "jobs.0.protocol_counters.plan_rate_bps")
            papers = values(rows, scheme, n, "jobs.0.protocol_counters.paper_model_rate_bps")
            refused = failed.get((scheme, n), 0)
            if not rates:
                cells.append(f"refused at set-up ({refused} of {refused} seeds)" if refused
                             else "no run")
                continue
            cell = f"{mean_sd(list(rates.values()))[0]:.3g}"
            if plans:
                inner = f"{mean_sd(list(plans.values()))[0] / 1e9:.3g}"
                if papers:
                    inner += f"; paper's model {mean_sd(list(papers.values()))[0] / 1e9:.3g}"
                cell += f" ({inner})"
            cell += f", n={len(rates)}"
            if refused:
                cell += f" ({refused} refused)"
            cells.append(cell)
        out.write(f"| {n} | " + " | ".join(cells) + " |\n")
    return 0


def main(argv):
    if len(argv) >= 3 and argv[0] == "--packet-table":
        return packet_table(argv[1], argv[2], sys.stdout, argv[3:])
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    results = argv[0]
    out = sys.stdout
    out.write("# GRID: the paper's numbers and ours\n\n")
    out.write("Generated by `examples/papers/grid/make-table.py` from the sweeps of "
              "`examples/papers/grid/` (planner level; Fig. 1 and, scaled down, the large set-ups at "
              "packet level; `./inasim sweep "
              "examples/papers/grid/X-sweep.yaml`, then `make-table.py results > "
              "docs/grid-reproduction.md`). Paper: Fang et al., *GRID: Gradient Routing with "
              "In-network Aggregation for Distributed Training*; its numbers are those its text "
              "prints. Ours: mean ± standard deviation over the seeds (n) of the sweep.\n\n")
    out.write("| paper figure | set-up | workers | metric | scheme | paper | ours | n | "
              "where they differ, why |\n")
    out.write("|---|---|---|---|---|---|---|---|---|\n")
    cache = {}
    for fig, setup, sweep, workers, column, label, scheme, paper, why in ROWS:
        if sweep not in cache:
            cache[sweep] = load(results, sweep)
        rows = cache[sweep]
        if rows is None:
            got, n = "not run", 0
        else:
            (m, sd), n = ours(rows, scheme, workers, column)
            got = "no run" if m is None else (f"{m:.3g}" if n == 1 else f"{m:.3g} ± {sd:.2g}")
        out.write(f"| {fig} | {setup} | {workers if workers else 8} | {label} | {scheme} | "
                  f"{'-' if paper is None else f'{paper:g}'} | {got} | {n} | {why} |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
