# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The standard figures of ./inasim plot, drawn with matplotlib's Agg backend.

Sized and styled for a paper column: 9 pt text, labelled axes with units, legends outside the data
when there are many lines, constrained layout (no overlapping text), TrueType fonts in PDFs.
`plt` is matplotlib.pyplot, passed in by cmd_plot (the driver imports matplotlib only there).
"""

import math
import re
from pathlib import Path

from . import units

STYLE = {
    "font.size": 9,
    "axes.labelsize": 9,
    "axes.titlesize": 9,
    "legend.fontsize": 8,
    "legend.title_fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.axisbelow": True,
    "lines.linewidth": 1.4,
    "lines.markersize": 4.5,
    "errorbar.capsize": 2.5,
    "savefig.dpi": 200,
    "pdf.fonttype": 42,  # TrueType, as paper submission systems ask
    "ps.fonttype": 42,
}
FIGSIZE = (4.2, 2.9)
WIDE_FIGSIZE = (5.6, 2.9)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
LINESTYLES = ("-", "--", "-.", ":")

#: Metrics drawn for a sweep when --metric is not given, in this order (when present and not the
#: same in every run). `*` stands for a job index.
DEFAULT_METRICS = (
    "jobs.*.jct_s",
    "jobs.*.agg_throughput_gbps",
    "jobs.*.iteration_time_s.mean",
    "flows.fct_mean_s",
    "flows.fct_p99_s",
    "jobs.*.retransmissions",
    "flows.retransmissions",
    "links.drops",
    "links.lost",
    "links.ecn_marks",
    "switches.peak_aggregators_in_use.max",
)

#: Columns that are never metrics.
NOT_METRICS = {"run_id", "index", "seed", "repeat", "status", "exit_code", "error", "error_key",
               "error_where", "duration_s"}

_METRIC_LABELS = {
    "jct_s": "job completion time",
    "agg_throughput_gbps": "aggregation throughput",
    "iteration_time_s.mean": "mean iteration time",
    "iteration_time_s.count": "iterations",
    "fct_mean_s": "mean flow completion time",
    "fct_p99_s": "99th-percentile FCT",
    "sim_time_s": "simulated time",
    "wall_time_s": "wall-clock time",
    "events_per_wall_s": "simulation speed (events/s)",
    "drops": "packet drops",
    "lost": "packets lost",
    "ecn_marks": "ECN marks",
    "retransmissions": "retransmissions",
    "peak_aggregators_in_use.max": "peak aggregators in use",
    "peak_backlog_bytes": "peak queue backlog",
    "wire_bytes_sent": "bytes sent",
    "ps_fallback_packets": "PS fallback packets",
    "value_errors": "wrong aggregated values",
    "packet_hops": "packet hops",
    "events": "simulation events",
}

#: Axis key parts that only say where a key lives.
_SECTIONS = {"topology", "switch", "jobs", "traffic", "workload", "params", "outputs"}
#: Key names too generic to stand alone ("rate" of what?).
_GENERIC = {"rate", "delay", "capacity", "ecn_threshold", "latency", "file", "type"}


def apply_style(plt):
    plt.rcParams.update(STYLE)


def safe_name(text):
    return re.sub(r"[^A-Za-z0-9._+=-]+", "_", text)


def save(plt, fig, out_dir, name, formats):
    """Write the figure as out_dir/name.<format> for each format; returns the paths."""
    paths = []
    for fmt in formats:
        path = Path(out_dir) / f"{name}.{fmt}"
        fig.savefig(path, format=fmt)
        paths.append(path)
    plt.close(fig)
    return paths


# ---------------------------------------------------------------------------------------------
# Labels and scales


def axis_label(key):
    """A readable name for a swept key: topology.host_link.rate -> "host link rate"."""
    parts = [p for p in key.split(".") if p not in _SECTIONS and not p.isdigit()]
    if not parts:
        parts = key.split(".")[-1:]
    if len(parts) >= 2 and parts[-1] in _GENERIC:
        words = parts[-2:]
    else:
        words = parts[-1:]
    # ns-3 Attribute names (PoolSize) read as words (pool size).
    words = [re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", w).lower()
             if re.search(r"[a-z][A-Z]|^[A-Z][a-z]", w) else w for w in words]
    label = " ".join(w.replace("_", " ") for w in words)
    if label == "flow bytes":
        label = "flow size"
    job = re.match(r"^jobs\.(\d+)\.", key)
    if job and job.group(1) != "0":
        label = f"job {job.group(1)} {label}"
    return label


def metric_label(column, several_jobs=False):
    """A readable name for a results column: jobs.0.jct_s -> "job completion time"."""
    m = re.match(r"^jobs\.(\d+)\.(.*)$", column)
    prefix = ""
    rest = column
    if m:
        rest = m.group(2)
        if several_jobs:
            prefix = f"job {m.group(1)}: "
    elif column.startswith(("flows.", "links.", "switches.")):
        section, rest = column.split(".", 1)
        if rest in ("retransmissions",):
            prefix = "flow " if section == "flows" else ""
    label = _METRIC_LABELS.get(rest)
    if label is None:
        label = rest.replace(".", " ").replace("_", " ")
    return prefix + label


def metric_scaling(column, values):
    """(unit label, factor): plotted value = value * factor, for a results column's values."""
    kind = units.metric_kind(column)
    if column.endswith("per_wall_s"):
        kind = None
    finite = [v for v in values if v is not None and math.isfinite(v)]
    if kind == "time":
        label, divisor = units.display_unit("time", finite)
        return label, 1.0 / divisor
    if kind == "rate-gbps":
        label, divisor = units.display_unit("rate", [v * 1e9 for v in finite])
        return label, 1e9 / divisor
    if kind == "size":
        label, divisor = units.display_unit("size", finite)
        return label, 1.0 / divisor
    return "", 1.0


def with_unit(label, unit):
    return f"{label} ({unit})" if unit else label


def choose_scale(xs):
    """("linear" | "log" | "symlog", parameter) for the distinct x values of a numeric axis.

    Positive values spanning 8x or more: log (base 2 when they are whole numbers in ratios of
    powers of two, as worker counts are, else base 10); such values plus a 0 (a loss rate
    of 0): symlog, linear below the smallest positive value.
    """
    xs = sorted(set(xs))
    positive = [x for x in xs if x > 0]
    if len(positive) >= 3 and positive[-1] / positive[0] >= 8:
        if len(positive) == len(xs):
            base = 10
            if all(float(x).is_integer() for x in xs):
                ratios = [xs[i + 1] / xs[i] for i in range(len(xs) - 1)]
                if all(r.is_integer() and (int(r) & (int(r) - 1)) == 0 for r in ratios):
                    base = 2
            return "log", base
        if len(positive) == len(xs) - 1 and xs[0] == 0:
            return "symlog", positive[0]
    return "linear", None


def _set_xscale(ax, scale, param):
    if scale == "log":
        ax.set_xscale("log", base=param)
    elif scale == "symlog":
        ax.set_xscale("symlog", linthresh=param, linscale=0.5)


def _numeric_ticks(ax, xs_display, plt):
    """Ticks at the swept values themselves (there are few), printed plainly."""
    values = sorted(set(xs_display))
    if len(values) <= 10:
        ax.set_xticks(values)
        ax.set_xticklabels([units.format_number(v) for v in values])
        ax.xaxis.set_minor_locator(plt.NullLocator())


def _avoid_overlap(ax, labels):
    if sum(len(t) for t in labels) > 40 or max((len(t) for t in labels), default=0) > 12:
        for tick in ax.get_xticklabels():
            tick.set_rotation(30)
            tick.set_horizontalalignment("right")


def _zero_based(ax, tops):
    """Start the y axis at 0 and leave room above the highest point (and error bar)."""
    top = max((t for t in tops if t is not None and math.isfinite(t)), default=0.0)
    ax.set_ylim(0, top * 1.08 if top > 0 else 1.0)


def _legend(ax, n_entries, title=None, labels=(), force=False):
    """A legend outside the data, so that it never hides a line: above the plot in one row
    when the entries are few and short, else to the right."""
    if n_entries <= 1 and not title and not force:
        return
    longest = max((len(str(t)) for t in labels), default=0)
    if n_entries <= 4 and longest * n_entries <= 48:
        ax.legend(title=title, frameon=False, loc="lower left", bbox_to_anchor=(0.0, 1.01),
                  ncol=n_entries, borderaxespad=0.0, columnspacing=1.2, handletextpad=0.4)
    else:
        ax.legend(title=title, frameon=False, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  borderaxespad=0.0)


# ---------------------------------------------------------------------------------------------
# A sweep


def mean_std(values):
    """(mean, sample standard deviation or 0 for one value, count) of the non-missing values."""
    xs = [v for v in values if v is not None and math.isfinite(v)]
    if not xs:
        return None, None, 0
    mean = math.fsum(xs) / len(xs)
    if len(xs) < 2:
        return mean, 0.0, len(xs)
    var = math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)
    return mean, math.sqrt(var), len(xs)


def swept_axes(rows, axes):
    """The axes with two or more values among `rows` (a one-value axis is not a dimension)."""
    return [a for a in axes if a != "seed" and len({r.get(a) for r in rows}) >= 2]


def dimensions(rows, axes):
    """Group axes that move together (a zip group): two keys whose values map one-to-one over the
    runs are one dimension. Returns a list of key lists, in axis order."""
    dims = []
    for key in axes:
        for dim in dims:
            other = dim[0]
            forward, backward = {}, {}
            one_to_one = True
            for r in rows:
                a, b = r.get(key), r.get(other)
                if forward.setdefault(a, b) != b or backward.setdefault(b, a) != a:
                    one_to_one = False
                    break
            if one_to_one:
                dim.append(key)
                break
        else:
            dims.append([key])
    return dims


def _ordered(values):
    """Distinct values in first-appearance order."""
    return list(dict.fromkeys(values))


def default_metrics(columns, rows):
    """DEFAULT_METRICS present in the table (job patterns expanded), in that order."""
    chosen = []
    for pattern in DEFAULT_METRICS:
        regex = re.compile("^" + re.escape(pattern).replace(r"\*", r"\d+") + "$")
        chosen += [c for c in columns if regex.match(c) and c not in chosen]
    return chosen


def select_metrics(columns, rows, patterns):
    """The metric columns matching shell-style patterns (jobs.*.jct_s, flows.*)."""
    import fnmatch
    chosen = []
    for pattern in patterns:
        hits = [c for c in columns if c not in NOT_METRICS and fnmatch.fnmatchcase(c, pattern)]
        chosen += [c for c in hits if c not in chosen]
    return chosen


def is_constant(rows, column):
    values = {r.get(column) for r in rows if r.get(column) is not None}
    return len(values) <= 1


def sweep_figure(plt, rows, x_key, metric, dims, several_jobs, out_dir, formats):
    """One figure: `metric` against axis `x_key`, one line (or bar group) per combination of the
    other dimensions, mean and standard deviation over the repeats. Returns the paths."""
    other_keys = [k for dim in dims if x_key not in dim for k in dim]
    # A zip partner of x moves with it: it names no separate line.
    x_values = _ordered(r.get(x_key) for r in rows)
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r.get(k) for k in other_keys), []).append(r)
    numeric = units.numeric_axis(x_values)
    ys_all = [r.get(metric) for r in rows]
    y_unit, y_factor = metric_scaling(metric, ys_all)

    single_key = len(other_keys) == 1
    legend_title = axis_label(other_keys[0]) if len(other_keys) == 1 else None

    def group_label(key_values):
        if not other_keys:
            return None
        if single_key:
            return str(key_values[0])
        return ", ".join(f"{axis_label(k)}={v}" for k, v in zip(other_keys, key_values))

    labels = [group_label(k) for k in groups] if other_keys else []
    legend_right = bool(labels) and (len(labels) > 4 or max(len(t) for t in labels) *
                                     len(labels) > 48)
    fig, ax = plt.subplots(figsize=WIDE_FIGSIZE if legend_right else FIGSIZE,
                           layout="constrained")
    drawn_y = []
    tops = []
    if numeric is not None:
        numbers, kind = numeric
        as_number = dict(zip(x_values, numbers))
        x_unit, x_div = units.display_unit(kind, numbers)
        scale, param = choose_scale(numbers)
        for i, (key_values, members) in enumerate(groups.items()):
            points = []
            for xv in _ordered(r.get(x_key) for r in members):
                ys = [r.get(metric) for r in members if r.get(x_key) == xv]
                mean, std, n = mean_std(ys)
                if mean is not None:
                    points.append((as_number[xv] / x_div, mean * y_factor, std * y_factor))
            if not points:
                continue
            points.sort()
            xs, ys, errs = zip(*points)
            drawn_y += list(ys)
            tops += [y + e for y, e in zip(ys, errs)]
            ax.errorbar(xs, ys, yerr=errs if any(errs) else None,
                        marker=MARKERS[i % len(MARKERS)],
                        linestyle=LINESTYLES[(i // 10) % len(LINESTYLES)],
                        color=f"C{i % 10}", label=group_label(key_values))
        _set_xscale(ax, scale, param / x_div if scale == "symlog" else param)
        _numeric_ticks(ax, [n / x_div for n in numbers], plt)
        ax.set_xlabel(with_unit(axis_label(x_key), x_unit))
    else:
        positions = {xv: p for p, xv in enumerate(x_values)}
        width = 0.8 / max(len(groups), 1)
        for i, (key_values, members) in enumerate(groups.items()):
            bars = []
            for xv in x_values:
                ys = [r.get(metric) for r in members if r.get(x_key) == xv]
                mean, std, n = mean_std(ys)
                if mean is not None:
                    bars.append((positions[xv] - 0.4 + width * (i + 0.5), mean * y_factor,
                                 std * y_factor))
            if not bars:
                continue
            xs, ys, errs = zip(*bars)
            drawn_y += list(ys)
            tops += [y + e for y, e in zip(ys, errs)]
            ax.bar(xs, ys, width=width * 0.92, yerr=errs if any(errs) else None,
                   color=f"C{i % 10}", label=group_label(key_values), capsize=2.5,
                   error_kw={"elinewidth": 0.8})
        ax.set_xticks(range(len(x_values)))
        ax.set_xticklabels([str(v) for v in x_values])
        ax.grid(False, axis="x")
        _avoid_overlap(ax, [str(v) for v in x_values])
        ax.set_xlabel(axis_label(x_key))
    positive = [y for y in drawn_y if y > 0]
    if positive and len(positive) == len(drawn_y) and max(positive) / min(positive) >= 100 \
            and numeric is not None:
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: units.format_number(v)))
    elif drawn_y and min(drawn_y) >= 0:
        _zero_based(ax, tops)
    ax.set_ylabel(with_unit(metric_label(metric, several_jobs), y_unit))
    _legend(ax, len(groups) if other_keys else 0, legend_title, labels)
    name = f"{safe_name(metric)}-vs-{safe_name(x_key)}"
    return save(plt, fig, out_dir, name, formats)


def sweep_figures(plt, columns, rows, axes, metrics, out_dir, formats):
    """Every metric against every swept axis; returns the paths written."""
    apply_style(plt)
    swept = swept_axes(rows, axes)
    dims = dimensions(rows, swept)
    several_jobs = any(re.match(r"^jobs\.[1-9]\d*\.", c) for c in columns)
    paths = []
    for metric in metrics:
        for x_key in swept:
            paths += sweep_figure(plt, rows, x_key, metric, dims, several_jobs, out_dir, formats)
    return paths


# ---------------------------------------------------------------------------------------------
# One run


def iteration_time_figure(plt, iterations, protocols, out_dir, formats):
    """Iteration time against iteration number, one line per job."""
    jobs = _ordered(r["job"] for r in iterations)
    unit, divisor = units.display_unit("time", [r["iteration_time_s"] for r in iterations])
    fig, ax = plt.subplots(figsize=FIGSIZE, layout="constrained")
    for i, job in enumerate(jobs):
        mine = [r for r in iterations if r["job"] == job]
        label = f"{job} ({protocols[job]})" if protocols.get(job) else job
        ax.plot([r["iteration"] for r in mine], [r["iteration_time_s"] / divisor for r in mine],
                marker=MARKERS[i % len(MARKERS)], color=f"C{i % 10}", label=label)
    ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
    ax.set_xlabel("iteration")
    ax.set_ylabel(with_unit("iteration time", unit))
    _zero_based(ax, [r["iteration_time_s"] / divisor for r in iterations])
    _legend(ax, len(jobs), None, [f"{j} ({protocols.get(j)})" for j in jobs], force=True)
    return save(plt, fig, out_dir, "iteration-time", formats)


def timeline_figure(plt, iterations, protocols, out_dir, formats):
    """Each job's iterations as consecutive segments over simulated time."""
    jobs = _ordered(r["job"] for r in iterations)
    ends = [r["end_s"] for r in iterations]
    unit, divisor = units.display_unit("time", ends)
    height = max(1.6, 0.45 * len(jobs) + 0.9)
    span = max(ends) / divisor if ends else 1.0
    fig, ax = plt.subplots(figsize=(FIGSIZE[0], height), layout="constrained")
    for row, job in enumerate(jobs):
        mine = [r for r in iterations if r["job"] == job]
        for k, r in enumerate(mine):
            start = (r["end_s"] - r["iteration_time_s"]) / divisor
            width = r["iteration_time_s"] / divisor
            ax.broken_barh([(start, width)], (row - 0.35, 0.7),
                           facecolors=f"C{row % 10}", alpha=0.9 if k % 2 == 0 else 0.55,
                           edgecolor="white", linewidth=0.8)
            # Numbers only where every segment of the job has room for one.
            if len(mine) <= 20 and width >= 0.035 * span:
                ax.text(start + width / 2, row, str(r["iteration"]), ha="center",
                        va="center", fontsize=7, color="white")
    ax.set_yticks(range(len(jobs)))
    ax.set_yticklabels([f"{j} ({protocols[j]})" if protocols.get(j) else j for j in jobs])
    ax.set_ylim(-0.6, len(jobs) - 0.4)
    ax.invert_yaxis()
    ax.grid(False, axis="y")
    ax.set_xlim(left=0)
    ax.set_xlabel(with_unit("simulated time", unit))
    ax.set_ylabel("job")
    return save(plt, fig, out_dir, "timeline", formats)


def queue_figure(plt, series, out_dir, formats):
    """Queued bytes (all ports, largest port) and packets in flight over simulated time."""
    times = [r["time_s"] for r in series]
    t_unit, t_div = units.display_unit("time", times)
    queued = [r.get("queued_bytes_total") for r in series] + \
        [r.get("queued_bytes_max_port") for r in series]
    q_unit, q_div = units.display_unit("size", [v for v in queued if v is not None])
    has_flight = any(r.get("packets_in_flight") is not None for r in series)
    fig, axs = plt.subplots(2 if has_flight else 1, 1, sharex=True, layout="constrained",
                            figsize=(FIGSIZE[0], 4.0 if has_flight else FIGSIZE[1]), squeeze=False)
    ax = axs[0][0]
    xs = [t / t_div for t in times]
    for i, (column, label) in enumerate((("queued_bytes_total", "all ports"),
                                         ("queued_bytes_max_port", "fullest port"))):
        ys = [r.get(column) for r in series]
        if any(v is not None for v in ys):
            ax.plot(xs, [(v or 0) / q_div for v in ys], color=f"C{i}", label=label,
                    drawstyle="steps-post")
    ax.set_ylabel(with_unit("queue length", q_unit))
    _zero_based(ax, [(v or 0) / q_div for v in queued])
    _legend(ax, 2, None, ("all ports", "fullest port"))
    if has_flight:
        ax2 = axs[1][0]
        ax2.plot(xs, [r.get("packets_in_flight") or 0 for r in series], color="C2",
                 drawstyle="steps-post")
        ax2.set_ylabel("packets in flight")
        ax2.yaxis.set_major_locator(plt.MaxNLocator(integer=True))
        _zero_based(ax2, [r.get("packets_in_flight") or 0 for r in series])
    axs[-1][0].set_xlabel(with_unit("simulated time", t_unit))
    return save(plt, fig, out_dir, "queues", formats)


def aggregator_columns(columns):
    return [c for c in columns if re.search(r"aggregat|occupancy", c)]


def aggregator_figure(plt, series, columns, out_dir, formats):
    """Aggregator (pool slot) occupancy over simulated time, one line per recorded column."""
    times = [r["time_s"] for r in series]
    t_unit, t_div = units.display_unit("time", times)
    fig, ax = plt.subplots(figsize=FIGSIZE, layout="constrained")
    for i, column in enumerate(columns):
        ax.plot([t / t_div for t in times], [r.get(column) or 0 for r in series],
                color=f"C{i % 10}", label=column.replace("_", " "), drawstyle="steps-post")
    ax.set_xlabel(with_unit("simulated time", t_unit))
    ax.set_ylabel("aggregators in use")
    _zero_based(ax, [r.get(c) or 0 for r in series for c in columns])
    ax.yaxis.set_major_locator(plt.MaxNLocator(integer=True))
    _legend(ax, len(columns), None, [c.replace("_", " ") for c in columns], force=True)
    return save(plt, fig, out_dir, "aggregators", formats)


def fct_cdf_figure(plt, flows, out_dir, formats):
    """The distribution of flow completion times (completed flows)."""
    fcts = sorted(r["fct_s"] for r in flows if r.get("fct_s") is not None)
    unit, divisor = units.display_unit("time", fcts)
    fig, ax = plt.subplots(figsize=FIGSIZE, layout="constrained")
    n = len(fcts)
    # From 0 at the shortest FCT up to 1 at the longest.
    ax.step([fcts[0] / divisor] + [f / divisor for f in fcts],
            [0.0] + [(i + 1) / n for i in range(n)], where="post", color="C0")
    ax.set_xlabel(with_unit("flow completion time", unit))
    ax.set_ylabel("fraction of flows")
    ax.set_ylim(0, 1.02)
    return save(plt, fig, out_dir, "fct-cdf", formats)
