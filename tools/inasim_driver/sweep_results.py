# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""A sweep's folder: its plan, each run's status file, and the results table built from them.

Layout of a sweep folder (docs/sweeps.md):
  sweep.json            the expansion (`inasim-config expand-sweep`) the runs came from
  runs/<run-id>/        one run: inasim-run's outputs, stdout.log, stderr.log, and status.json
  results.csv           one row per run (columns: `table_columns`)
  results.sqlite        the same rows in table `runs`, plus tables `sweep` and `axes`

status.json is written last, by rename, after the run's process has ended: a run folder without
it is unfinished, whatever else it holds, so a sweep killed at any moment loses no finished run.
"""

import contextlib
import csv
import hashlib
import io
import json
import math
import os
import sqlite3
import tempfile
from pathlib import Path

#: The states of a run in status.json and in the table ("pending": not run, or unfinished).
OK, INCOMPLETE, FAILED, PENDING = "ok", "incomplete", "failed", "pending"
FINISHED_STATES = (OK, INCOMPLETE, FAILED)

STATUS_FILE = "status.json"
PLAN_FILE = "sweep.json"
CSV_FILE = "results.csv"
SQLITE_FILE = "results.sqlite"

#: Summary fields that are not metrics: the scenario name (a string) and the seed (its own column).
_SKIPPED_TOP = {"name", "seed"}
#: Job fields that are host ids, not measurements.
_SKIPPED_JOB = {"worker_hosts", "ps_hosts"}


class PlanError(Exception):
    """A plan (sweep.json) that is not what `inasim-config expand-sweep` prints."""


# ---------------------------------------------------------------------------------------------
# Writing files atomically


def _file_mode():
    """The mode a plain open() would give a new file: 0666 less the umask.

    mkstemp makes its files 0600 whatever the umask; results are meant to be shared like any
    other file the user writes, so the temporary file gets this mode before it is renamed.
    """
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def _beside(path):
    """A temporary file beside `path`, as (fd, name), for the block to write.

    When the block ends it is renamed over `path`; when the block raises it is removed. Readers
    see the old file or the whole new one.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        yield fd, tmp
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_atomic(path, data):
    """Write `data` (str or bytes) to `path` so that readers see the old file or the whole new one.

    The data is flushed to disk before the rename: a status file that exists is complete.
    """
    mode = "wb" if isinstance(data, bytes) else "w"
    with _beside(path) as (fd, tmp):
        with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _file_mode())


def write_json_atomic(path, obj):
    write_atomic(path, json.dumps(obj, indent=2) + "\n")


def file_sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


# ---------------------------------------------------------------------------------------------
# The plan


def check_plan(plan, source):
    """Raise PlanError unless `plan` has the keys and types of `inasim-config expand-sweep`."""
    if not isinstance(plan, dict):
        raise PlanError(f"{source}: expected a JSON object, got {type(plan).__name__}")
    for key, kind in (("name", str), ("base", str), ("axes", list), ("runs", list)):
        if not isinstance(plan.get(key), kind):
            raise PlanError(f"{source}: key '{key}' missing or not a {kind.__name__}")
    seen = set()
    for i, run in enumerate(plan["runs"]):
        where = f"{source}: runs[{i}]"
        if not isinstance(run, dict):
            raise PlanError(f"{where}: expected an object")
        for key, kind in (("id", str), ("index", int), ("seed", int), ("values", dict),
                          ("overrides", list)):
            if not isinstance(run.get(key), kind):
                raise PlanError(f"{where}: key '{key}' missing or not a {kind.__name__}")
        run_id = run["id"]
        if not run_id or "/" in run_id or run_id in (".", "..") or run_id in seen:
            raise PlanError(f"{where}: run id {run_id!r} is empty, repeated or not a folder name")
        seen.add(run_id)


def load_plan(out_dir):
    """The plan stored in a sweep folder, or raise PlanError / OSError."""
    path = Path(out_dir) / PLAN_FILE
    with open(path, encoding="utf-8") as f:
        try:
            plan = json.load(f)
        except json.JSONDecodeError as e:
            raise PlanError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    check_plan(plan, str(path))
    return plan


# ---------------------------------------------------------------------------------------------
# Run status


def run_dir(out_dir, run):
    return Path(out_dir) / "runs" / run["id"]


def read_json_object(directory, name):
    """The JSON object in DIRECTORY/NAME, or None when the file is missing, broken or holds
    something else than an object."""
    try:
        with open(Path(directory) / name, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def read_status(directory):
    """The status.json of a run folder, or None when it has none (or a broken one)."""
    status = read_json_object(directory, STATUS_FILE)
    return status if status is not None and status.get("status") in FINISHED_STATES else None


ERROR_FILE = "error.json"


def read_error_report(directory):
    """inasim-run's error.json of a failed run (its kind, key, file and line), or None."""
    return read_json_object(directory, ERROR_FILE)


def error_where(report):
    """Where an error report points: "FILE:LINE", "override 'KEY=VALUE'", "FILE" or ""."""
    if report.get("override"):
        return f"override '{report['override']}'"
    where = str(report.get("file") or "")
    line = report.get("line")
    if where and isinstance(line, int) and line > 0:
        where += f":{line}"
    return where


def read_summary(directory):
    """A run's summary.json as a dict, or None."""
    try:
        with open(Path(directory) / "summary.json", encoding="utf-8") as f:
            summary = json.load(f)
    except (OSError, ValueError):
        return None
    return summary if isinstance(summary, dict) else None


# ---------------------------------------------------------------------------------------------
# Flattening summary.json into columns


def _number(value):
    """A JSON value as a table number, or None when it is not numeric. Booleans are 0/1."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return None


def _is_number_list(value):
    return isinstance(value, list) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)


def _flatten(value, prefix, out, skip=()):
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                _flatten(item, f"{prefix}.{key}", out)
    elif _is_number_list(value):
        # A series (iteration_time_s): its mean and its length; the values are in the CSV tables.
        out[f"{prefix}.mean"] = (math.fsum(value) / len(value)) if value else None
        out[f"{prefix}.count"] = len(value)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, dict):
                _flatten(item, f"{prefix}.{i}", out)
    elif value is None or isinstance(value, (int, float)):
        out[prefix] = _number(value)  # NaN and infinities become empty cells


def _flatten_switches(switches, out):
    """Switch fields over all switches: the count, max and sum of each number, pipeline use max."""
    if not isinstance(switches, list):
        return
    entries = [s for s in switches if isinstance(s, dict)]
    out["switches.count"] = len(entries)
    fields = {}
    for sw in entries:
        for key, value in sw.items():
            number = _number(value)
            if number is not None:
                fields.setdefault(key, []).append(number)
    for key, values in fields.items():
        out[f"switches.{key}.max"] = max(values)
        out[f"switches.{key}.sum"] = sum(values)
    used = {}
    for sw in entries:
        pipeline = sw.get("pipeline")
        if isinstance(pipeline, dict):
            for resource, usage in pipeline.items():
                if isinstance(usage, dict) and _number(usage.get("used")) is not None:
                    used.setdefault(resource, []).append(_number(usage["used"]))
    for resource, values in used.items():
        out[f"switches.pipeline.{resource}.used.max"] = max(values)


def flatten_summary(summary):
    """The numeric fields of a summary.json as {dotted column name: number}, in file order.

    - numbers as they are, booleans as 0/1 (`completed`), strings left out;
    - `jobs.<i>.<field>`, `flows.<field>`, `links.<field>` and any other nested object by dotted
      path; `protocol_counters` as `jobs.<i>.protocol_counters.<name>`;
    - a list of numbers (`iteration_time_s`) as `<path>.mean` and `<path>.count`;
    - `switches`: `switches.count`, and for every numeric field of a switch its maximum and sum over
      the switches (`switches.peak_aggregators_in_use.max`), and the largest pipeline use of each
      resource (`switches.pipeline.sram_bytes.used.max`);
    - `name`, `seed` (a column of its own) and the host id lists of jobs are left out.
    """
    out = {}
    for key, value in summary.items():
        if key in _SKIPPED_TOP:
            continue
        if key == "switches":
            _flatten_switches(value, out)
        elif key == "jobs" and isinstance(value, list):
            for i, job in enumerate(value):
                if isinstance(job, dict):
                    _flatten(job, f"jobs.{i}", out, skip=_SKIPPED_JOB)
        else:
            _flatten(value, key, out)
    return out


# ---------------------------------------------------------------------------------------------
# The table


def axis_value(text):
    """An axis value as written in the sweep file, as a number where it is a plain number."""
    try:
        return int(text)
    except (TypeError, ValueError):
        pass
    try:
        value = float(text)
    except (TypeError, ValueError):
        return text
    return value if math.isfinite(value) else text


#: Columns every table starts with, before the axes; `seed` ... `duration_s` follow the axes.
LEAD_COLUMNS = ("run_id", "index")
STATUS_COLUMNS = ("seed", "repeat", "status", "exit_code", "error", "error_key", "error_where",
                  "duration_s")


def collect(plan, out_dir):
    """(columns, rows) of the results table: one row per run of `plan`, in plan order.

    A row is a dict column -> value (None where there is no value). Runs without a usable
    status.json are rows with status "pending". A summary field with the name of an axis is left
    out: the axis column holds the value as written in the sweep file.
    """
    axes = list(plan["axes"])
    fixed = list(LEAD_COLUMNS) + [a for a in axes if a not in STATUS_COLUMNS] + list(STATUS_COLUMNS)
    taken = set(fixed)
    metric_columns = {}
    rows = []
    for run in plan["runs"]:
        directory = run_dir(out_dir, run)
        status = read_status(directory)
        if status is not None and status.get("overrides") != run["overrides"]:
            status = None  # left from an earlier expansion with other values
        row = {"run_id": run["id"], "index": run["index"], "seed": run["seed"],
               "repeat": run.get("repeat", 0)}
        for axis in axes:
            if axis not in STATUS_COLUMNS:
                row[axis] = axis_value(run["values"].get(axis))
        if status is None:
            row.update(status=PENDING, exit_code=None, error="", error_key="", error_where="",
                       duration_s=None)
        else:
            row.update(status=status["status"], exit_code=status.get("exit_code"),
                       error=status.get("error") or "", error_key=status.get("error_key") or "",
                       error_where=status.get("error_where") or "",
                       duration_s=status.get("duration_s"))
            summary = read_summary(directory) if status["status"] != FAILED else None
            if summary is not None:
                for column, value in flatten_summary(summary).items():
                    if column not in taken:
                        metric_columns.setdefault(column, None)
                        row[column] = value
        rows.append(row)
    columns = fixed + list(metric_columns)
    return columns, rows


def _csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return value


def write_csv(path, columns, rows):
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_csv_cell(row.get(c)) for c in columns])
    write_atomic(path, text.getvalue())


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


_SQL_TYPES = {"run_id": "TEXT PRIMARY KEY", "index": "INTEGER", "seed": "INTEGER",
              "repeat": "INTEGER", "status": "TEXT", "exit_code": "INTEGER", "error": "TEXT",
              "error_key": "TEXT", "error_where": "TEXT", "duration_s": "REAL"}


def write_sqlite(path, plan, columns, rows):
    """results.sqlite: table `runs` (the rows), `axes` (position, key), `sweep` (key, value).

    Axis and metric columns have no declared type, so each value keeps the type it has (numbers
    as numbers, "10Gbps" as text). Written beside the target and renamed over it.
    """
    with _beside(path) as (fd, tmp):
        os.close(fd)
        os.unlink(tmp)
        db = sqlite3.connect(tmp)
        try:
            spec = ", ".join(f"{_quote(c)} {_SQL_TYPES.get(c, '')}".rstrip() for c in columns)
            db.execute(f"CREATE TABLE runs ({spec})")
            marks = ", ".join("?" for _ in columns)
            db.executemany(f"INSERT INTO runs VALUES ({marks})",
                           [[row.get(c) for c in columns] for row in rows])
            db.execute("CREATE TABLE axes (position INTEGER PRIMARY KEY, key TEXT)")
            db.executemany("INSERT INTO axes VALUES (?, ?)", list(enumerate(plan["axes"])))
            db.execute("CREATE TABLE sweep (key TEXT PRIMARY KEY, value)")
            meta = [(k, plan.get(k)) for k in ("name", "sweep_file", "base", "repeats",
                                               "base_seed")]
            db.executemany("INSERT INTO sweep VALUES (?, ?)", meta)
            db.commit()
        finally:
            db.close()
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())


def write_tables(plan, out_dir):
    """Collect every run folder into results.csv and results.sqlite; returns the rows."""
    columns, rows = collect(plan, out_dir)
    write_csv(Path(out_dir) / CSV_FILE, columns, rows)
    write_sqlite(Path(out_dir) / SQLITE_FILE, plan, columns, rows)
    return columns, rows


def read_csv_table(path):
    """(columns, rows) of a results.csv, numbers converted back (empty cells: None)."""
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        try:
            columns = next(reader)
        except StopIteration:
            return [], []
        rows = []
        for cells in reader:
            row = {}
            for column, cell in zip(columns, cells):
                if cell == "":
                    row[column] = None
                elif column in ("run_id", "status", "error", "error_key", "error_where"):
                    row[column] = cell
                else:
                    row[column] = axis_value(cell)
            rows.append(row)
    return columns, rows
