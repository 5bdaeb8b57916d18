"""What the `fupan` commands share: opening the store (`--db`, else the environment, else ./fupan.sqlite) and
closing what they opened, reading a path or standard input, naming a tournament by id or key, and drawing
progress on a terminal.

The CLI is trusted (docs/SECURITY.md): whoever runs it can read and write the store directly, so its commands
act as the `local` principal — exports include live hands, events name {"role": "local"}.

Progress of the long work (`fupan import`, `rebuild`, `verify`, `publish`): on a terminal (stderr is a tty) a
line redraws itself in place — "fupan publish: 37/120 files" — and the command's summary follows it; in a pipe
or a file nothing of this is written, so scripts read only the command's own output.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, TextIO
from uuid import UUID

from domain.model.ids import tournament_id

if TYPE_CHECKING:  # imported by the commands that open the store: `fupan check` starts without the service layer
    from domain.services.fupan import Fupan
    from projections import Projections

DEFAULT_DB = "fupan.sqlite"


# The services a command opened, closed when it ends (main): their connections and pools go with them, not
# whenever the garbage collector finds them (the commands also run in-process, in the tests).
OPENED: list[Fupan] = []


def open_service(db: str | None) -> Fupan:
    from domain.services.fupan import Fupan

    if db:
        service = Fupan.for_sqlite(db)
    elif "PERSISTENCE_MODULE" in os.environ or "FUPAN_PERSISTENCE_MODULE" in os.environ:
        service = Fupan()
    else:
        service = Fupan.for_sqlite(DEFAULT_DB)
    OPENED.append(service)
    return service


def read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def open_projections(db: str | None) -> Projections:
    from projections import Projections

    return Projections(open_service(db))


def tournament_ref(text: str) -> str:
    """A tournament id, or the key it was created with (its name unless a key was given)."""
    try:
        return str(UUID(text))
    except ValueError:
        return str(tournament_id(text))


def close_opened() -> None:
    """Close every service the command opened (main, when the command ends)."""
    while OPENED:
        OPENED.pop().close()


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
