"""What the recording pad asks the rules (docs/pad.md): every seat's choices now other than which cards, and a
dry run of one action, as pure functions of a deal's state (the deals service, domain/services/deals.py, reads
the state and answers the pad with them). Nothing here stores anything.

Every verdict is the engine's own: an offer without cards or typed fields is kept only if `Engine.apply`
accepts it on a copy of the deal's state, and a dry run is that same apply. The engines say what to offer
(`Engine.offered_actions`: their `legal_actions`, a timeout, a play, and what each game adds, such as 斗地主's
明牌 or 升级's declarations while dealing) and how a play reads (`Engine.reading`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from domain.games import get_game
from domain.kernel.engine import Action, Engine
from domain.kernel.errors import IllegalAction, SeatNamer, seat_numbered

# An offer's fields that the pad fills (seat), the recorder selects (cards) or types (a None value).
Choice = dict[str, Any]


def choices(engine: Engine, state: Any) -> list[Choice]:
    """Each seat's choices now, in seat order: `{"seat", "action", "cards", "typed"}` where `action` is the
    action as the record format writes it without `seat`, `cards` and typed fields (what a pad button carries
    as `data-action`), `cards` the cards that may take part (None: the action carries none) and `typed` the
    fields the recorder types (a foul's code, note and penalty; 升级's `received`)."""
    found: list[Choice] = []
    finished = state.phase == "finished"
    for seat in range(engine.seat_count):
        merged: dict[str, Choice] = {}
        for offer in engine.offered_actions(state, seat):
            choice = _choice(offer)
            if choice["cards"] is None and not choice["typed"] and not _legal(engine, state, offer):
                continue
            key = repr(sorted(choice["action"].items()))
            if key in merged:  # 升级: a declaration while dealing and in the round after it are one button
                known = merged[key]
                if choice["cards"] is not None:
                    known["cards"] = sorted({*(known["cards"] or []), *choice["cards"]})
                known["typed"] = sorted({*known["typed"], *choice["typed"]})
            else:
                merged[key] = choice
        typed = ["code", "note"] + (["penalty"] if engine.foul_unit is not None and not finished else [])
        merged["foul"] = {"seat": seat, "action": {"type": "foul"}, "cards": None, "typed": typed}
        found += merged.values()
    return found


def _choice(offer: Action) -> Choice:
    action = {k: v for k, v in offer.items() if k not in ("seat", "cards") and v is not None}
    typed = sorted(k for k, v in offer.items() if v is None)
    cards = offer.get("cards")
    return {"seat": offer["seat"], "action": action, "cards": None if cards is None else sorted(set(cards)),
            "typed": typed}


def _legal(engine: Engine, state: Any, action: Action) -> bool:
    try:
        engine.apply(copy.deepcopy(state), action)
    except IllegalAction:
        return False
    return True


def dry_run(engine: Engine, state: Any, action: object,
            namer: Callable[[], SeatNamer] = lambda: seat_numbered) -> dict[str, Any]:
    """Whether `action` would be recorded now: `{"legal": true, "action": its stored form, "reads_as": {kind, zh,
    en} or None}`, or `{"legal": false, "refusal": {code, message, message_zh, details}}` with its seats as
    `namer()` names them (domain/services/seat_names.py; read only for a refusal that names a seat). `state` is
    not changed."""
    trial = copy.deepcopy(state)
    try:
        normal = engine.apply(trial, action)
    except IllegalAction as error:
        named = error.name_seats(namer()) if error.mentions_seats else error
        return {"legal": False, "refusal": named.as_dict()}
    return {"legal": True, "action": normal, "reads_as": engine.reading(trial, normal)}


def game_table(engine: Engine) -> dict[str, Any]:
    """A game's table as the pad draws it: seats, cards per hand, the kitty (and the phases it lies apart from
    every hand in: the game's descriptor's pad facts), and the deck a full grid shows."""
    return {"game": engine.game, "zh": engine.name_zh, "en": engine.name_en, "seats": engine.seat_count,
            "hand_size": engine.hand_size, "kitty_size": engine.kitty_size, "decks": engine.decks,
            "jokers": engine.jokers, "kitty_apart": list(get_game(engine.game).pad.kitty_apart)}
