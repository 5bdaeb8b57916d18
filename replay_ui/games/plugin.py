"""What a game's viewer plugin declares (`UI = GameUI(...)` in `replay_ui/games/<game>/__init__.py`), and the
generic plugin every game without one falls back to."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from replay_ui.games import generic
from replay_ui.shared.i18n import Strings, load_strings
from replay_ui.shared.notation import Describer, Summarizer, generic_describe, generic_summarize

Match = dict[str, Any]


class GameUI(NamedTuple):
    describe: Describer
    summarize: Summarizer
    match_rows: Callable[[Match, list[dict[str, Any]], list[str]], list[dict[str, Any]]]
    match_chart: Callable[[Match, list[str]], dict[str, Any]]
    standing_text: Callable[[Match, list[str]], str]
    strings: Strings
    # The deal pages' figures of the table around one deal (match None for a stand-alone deal): template
    # variables of the viewer and the record, and keys of the viewer's boot data for the game's script.
    deal_figures: Callable[[Match | None, dict[str, Any]], dict[str, Any]] = generic.deal_figures
    # What people call each seat, (zh, en) — 1, 2, 3 …; 升级's by the compass, as its pairs are named — and the
    # string that says it in a sentence ("2 号位").
    seat_marks: Callable[[int], list[tuple[str, str]]] = generic.seat_marks
    seat_called: str = "seat.called"
    # Who a table the organiser closed placed first (its winner column): generic by scores, 斗地主 by chips.
    table_leaders: Callable[[Match], list[int]] = generic.table_leaders


def strings_of(module_file: str) -> Strings:
    """A plugin's strings: the `strings.toml` beside its `__init__.py`."""
    return load_strings(Path(module_file).parent / "strings.toml")


GENERIC = GameUI(generic_describe, generic_summarize, generic.match_rows, generic.match_chart, generic.standing_text,
                 {})
