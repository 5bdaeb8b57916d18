"""Progress of the CLI's long work (`fupan import`, `rebuild`, `verify`, `publish`) on a terminal.

On a terminal (stderr is a tty) a line redraws itself in place — "fupan publish: 37/120 files" — and the
command's summary follows it; in a pipe or a file nothing of this is written, so scripts read only the
command's own output.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """`step(done, total)` as work advances (at most every 0.1 s is drawn), `done(summary)` at the end."""

    def __init__(self, label: str, unit: str, stream: TextIO | None = None):
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.shown = self.stream.isatty()
        self._drawn = 0.0
        self._width = 0

    def step(self, done: int, total: int | None = None, unit: str | None = None) -> None:
        """Draw `done/total unit` (the unit given at the start unless another is named for this stage)."""
        if not self.shown:
            return
        now = time.monotonic()
        if now - self._drawn < 0.1 and done != total:
            return
        self._drawn = now
        unit = self.unit if unit is None else unit
        line = f"{self.label}: {done}/{total} {unit}" if total else f"{self.label}: {done} {unit}"
        self.stream.write("\r" + line.ljust(self._width))
        self._width = len(line)
        self.stream.flush()

    def interrupt(self) -> None:
        """Clear the drawn line, so the command's own output to the same terminal starts on a clean line."""
        if self.shown and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def done(self, summary: str) -> None:
        """The summary, on the progress line's place (a terminal only)."""
        if self.shown:
            self.stream.write("\r" + summary.ljust(self._width) + "\n")
            self.stream.flush()
