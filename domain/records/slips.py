"""Score slips: a deal entered as the facts that decide its score, for a table without a recorder.

Most tables of a staff tournament have nobody recording the cards; their result reaches the organiser on a
slip the players signed. A slip gives, per game, only what the score depends on (docs/record-format.md
"Result-only records"); the game's `slip` module (domain/games/<game>/slip.py) checks the facts against the
rules and the options in force — a combination that cannot happen is refused with its reason — and computes
the result with the engine's own scoring: it builds the engine's end-of-deal state from the facts and asks
`engine.result` for it, so a slip and a recorded deal with the same facts score alike by construction.

The stored deal is **result-only**: a `Deal.Created` without cards (meta `result_only`, the checked facts in
meta `slip`) and its `Deal.Finished`, scored into the match like any deal. It has no actions and no replay.
"""

from __future__ import annotations

from typing import Any

from domain.games import GAMES, get_engine
from domain.games.slip import bad
from domain.kernel.engine import DealSetup
from domain.kernel.errors import illegal
from domain.kernel.game import SlipScorer

RESULT_ONLY = "result_only"


def scorer(game: str) -> SlipScorer:
    """The game's `score_slip(engine, setup, facts) -> (facts as stored, result)`, named by its descriptor."""
    found = GAMES.get(game)
    if found is None or found.slip is None:
        raise illegal("no_slips", f"{game} has no score slips.", f"{game} 不支持成绩单。", game=game)
    return found.slip


def score(setup: DealSetup, facts: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(facts as stored, the result the engine's scoring gives); IllegalAction for facts that cannot be."""
    if not isinstance(facts, dict):
        raise bad("A slip's facts are a JSON object.", "成绩单的内容必须是 JSON 对象。")
    engine = get_engine(setup.game)
    setup = DealSetup(setup.game, engine.resolve_options(setup.options), list(setup.seats), setup.first, [], [],
                      dict(setup.context))
    return scorer(engine.game)(engine, setup, facts)
