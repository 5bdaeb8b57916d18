"""Per-game presentation: how each game's actions read in notation and how its matches are shown (the scripts
draw the table).

A game plugs into the viewer with these and one entry in GAMES below:

- `replay_ui/games/<game>.py` with `describe(frame, previous, names) -> Notation` (one step in words),
  `summarize(view, names) -> list[Notation]` (the outcome lines of the printable record), `match_rows(match,
  deals, names)` (the match page's table of deals, drawn by `templates/games/<game>_deals.html`),
  `match_chart(match, names)` (the match page's chart, drawn by static/charts.js), `standing_text(match,
  names)` (a table's standing in one line, on the tournament page) and, if its deal pages show figures of the
  table around the deal, `deal_figures(match, deal)` (斗地主: the chips before and after it);
- `replay_ui/games/<game>_strings.toml`: every UI string only this game uses (its name, its table, its match
  page, its steps in words), which replay_ui.shared.i18n adds to the common ones;
- `replay_ui/viewer/static/games/<game>.js`, which registers `Fupan.games.<game>` with `render(frame, ctx)`.

Games without them fall back to the generic ones (`replay_ui.shared.notation`, `replay_ui.games.generic`,
`static/games/generic.js`), which show any engine's view and any match's scores — enough to step through a
new game's deals from day one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from replay_ui.games import daguai, doudizhu, generic, sandayi, shengji, wakeng
from replay_ui.shared.i18n import Strings, load_strings
from replay_ui.shared.notation import Describer, Summarizer, generic_describe, generic_summarize

Match = dict[str, Any]
HERE = Path(__file__).parent


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


def _strings(game: str) -> Strings:
    return load_strings(HERE / f"{game}_strings.toml")


GENERIC = GameUI(generic_describe, generic_summarize, generic.match_rows, generic.match_chart, generic.standing_text,
                 {})
GAMES: dict[str, GameUI] = {
    "doudizhu": GameUI(doudizhu.describe, doudizhu.summarize, doudizhu.match_rows, doudizhu.match_chart,
                       doudizhu.standing_text, _strings("doudizhu"), doudizhu.deal_figures,
                       table_leaders=doudizhu.table_leaders),
    "shengji": GameUI(shengji.describe, shengji.summarize, shengji.match_rows, shengji.match_chart,
                      shengji.standing_text, _strings("shengji"), seat_marks=shengji.seat_marks,
                      seat_called="sj.seat.called"),
    # Tables summed seat by seat: the generic running totals are their chart.
    "sandayi": GameUI(sandayi.describe, sandayi.summarize, sandayi.match_rows, generic.match_chart,
                      sandayi.standing_text, _strings("sandayi")),
    "wakeng": GameUI(wakeng.describe, wakeng.summarize, wakeng.match_rows, generic.match_chart,
                     wakeng.standing_text, _strings("wakeng")),
    "daguai": GameUI(daguai.describe, daguai.summarize, daguai.match_rows, daguai.match_chart,
                     daguai.standing_text, _strings("daguai")),
}


def ui_for(game: str) -> GameUI:
    return GAMES.get(game, GENERIC)
