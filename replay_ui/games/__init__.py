"""Per-game presentation: how each game's actions read in notation (the scripts draw the table).

A game plugs into the viewer with two modules and one line in NOTATION below:

- `replay_ui/games/<game>.py` with `describe(frame, previous, names) -> Notation` (one step in words) and
  `summarize(view, names) -> list[Notation]` (the outcome lines of the printable record);
- `replay_ui/static/games/<game>.js`, which registers `Fupan.games.<game>` with `render(frame, ctx)`.

Games without them fall back to `replay_ui.notation.generic_describe` and `static/games/generic.js`, which show any
engine's view (hands or counts, the last action) — enough to step through a new game's deals from day one.
"""

from __future__ import annotations

from typing import NamedTuple

from replay_ui.games import doudizhu
from replay_ui.notation import Describer, Summarizer, generic_describe, generic_summarize


class GameNotation(NamedTuple):
    describe: Describer
    summarize: Summarizer


GENERIC = GameNotation(generic_describe, generic_summarize)
NOTATION: dict[str, GameNotation] = {"doudizhu": GameNotation(doudizhu.describe, doudizhu.summarize)}


def notation_for(game: str) -> GameNotation:
    return NOTATION.get(game, GENERIC)
