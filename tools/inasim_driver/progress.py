# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""The one-line progress bar of a sweep: redrawn in place on a terminal, periodic lines in a log."""

import shutil
import time


def format_duration(seconds):
    """12 s -> "0:12", 3725 s -> "1:02:05"."""
    seconds = int(round(max(0.0, seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class SweepProgress:
    """Counts of a sweep's runs and the line that shows them.

    `total` runs in the sweep, of which `finished_before` had finished before this invocation
    (they count as finished but not towards the rate). The ETA is the remaining runs divided by
    the rate at which runs finished in this invocation, so it accounts for running N at a time.
    """

    BAR = 20

    def __init__(self, stream, name, total, finished_before=0, failed_before=0,
                 log_interval=10.0, clock=time.monotonic):
        self.stream = stream
        self.name = name
        self.total = total
        self.finished_before = finished_before
        self.finished = finished_before
        self.failed = failed_before
        self.running = 0
        self.queued = None  # Slurm: tasks waiting in the queue
        self.clock = clock
        self.start = clock()
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.log_interval = log_interval
        self._last_log = None
        self._last_line = None
        self._shown = False

    # -- counts

    def set_counts(self, finished, failed, running, queued=None):
        self.finished, self.failed, self.running, self.queued = finished, failed, running, queued

    def eta_seconds(self):
        """Seconds left at this invocation's rate, or None before a run has finished."""
        done_now = self.finished - self.finished_before
        remaining = self.total - self.finished
        if remaining <= 0:
            return 0.0
        if done_now <= 0:
            return None
        elapsed = self.clock() - self.start
        return remaining * elapsed / done_now

    def line(self, width=None):
        """The progress line; when it is wider than `width`, the bar, then the elapsed time,
        then the name go, so that the counts and the ETA stay visible."""
        total = max(self.total, 1)
        filled = int(self.BAR * self.finished / total)
        bar = "[" + "#" * filled + "-" * (self.BAR - filled) + "]"
        remaining = self.total - self.finished
        extra = [f"{self.running} running"]
        if self.queued is not None:
            extra.append(f"{self.queued} queued")
        counts = (f"{self.finished}/{self.total} finished, {self.failed} failed, "
                  f"{remaining} remaining ({', '.join(extra)})")
        eta = self.eta_seconds()
        eta_text = "ETA " + ("--" if eta is None else format_duration(eta))
        elapsed = f"{format_duration(self.clock() - self.start)} elapsed"
        candidates = (f"{self.name} {bar} {counts} | {elapsed}, {eta_text}",
                      f"{self.name} {counts} | {elapsed}, {eta_text}",
                      f"{self.name} {counts} | {eta_text}",
                      f"{counts} | {eta_text}")
        for text in candidates:
            if width is None or len(text) <= width:
                return text
        return candidates[-1][:width]

    # -- drawing

    def show(self, force=False):
        """Redraw (terminal) or, in a log, print a line every log_interval seconds or on force."""
        if self.tty:
            text = self.line(shutil.get_terminal_size((100, 20)).columns - 1)
            self.stream.write("\r\x1b[K" + text)
            self.stream.flush()
            self._shown = True
            return
        text = self.line()
        now = self.clock()
        changed = text.split(" | ")[0] != (self._last_line or "").split(" | ")[0]
        since = None if self._last_log is None else now - self._last_log
        # A log line when the counts changed, at most every log_interval; and now and then
        # without a change, so that a long run does not look like a hang.
        if (force or since is None or (changed and since >= self.log_interval)
                or since >= 6 * self.log_interval):
            print(text, file=self.stream, flush=True)
            self._last_log = now
            self._last_line = text

    def message(self, text):
        """A line of its own above the bar (a failed run, a warning)."""
        if self.tty and self._shown:
            self.stream.write("\r\x1b[K")
        print(text, file=self.stream, flush=True)
        if self.tty and self._shown:
            self.show()

    def close(self):
        """Leave the final state on screen: a last line in a log, the bar ended on a terminal."""
        if self.tty:
            self.show()
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False
        elif self._last_line != self.line():
            self.show(force=True)
