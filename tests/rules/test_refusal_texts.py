"""What the rules engines' refusals print, as people read them (issue 23): cards as ♠A ♥10 大王, never a card
code like S10, CK or BJ; seats as references the service names (never a bare number in a template).

Random deals of every game (fixtures/random_play) are replayed, and at every step a handful of illegal actions
is tried — another seat's turn, another seat's cards, a random handful of one's own, the right seat with the
wrong kind of action — and every refusal's two messages are scanned."""

from __future__ import annotations

import copy
import importlib
import random
import re
from typing import Any

import pytest

from domain.games import get_engine, get_game, seat_namer
from domain.kernel.errors import Refusal, illegal, seat_ref, seats_ref
from domain.records.format import parse_record
from replay_ui.games import ui_for

CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[SHCD](?:10|[2-9JQKA])|LJ|BJ)(?![A-Za-z0-9])")
SEAT_NUMBER = re.compile(r"座位 ?\d|[Ss]eats? \d")  # a seat written by its number into a template
GAMES = ("doudizhu", "shengji", "sandayi", "wakeng", "daguai")


def attempts(state: Any, real: dict[str, Any], seats: int, hands: list[list[str]], rng: random.Random
             ) -> list[dict[str, Any]]:
    """Illegal (or at least doubtful) actions to try where `real` was recorded."""
    seat = real.get("seat", 0) if isinstance(real.get("seat"), int) else 0
    other = (seat + 1) % seats
    own = list(hands[seat]) or ["S3"]
    theirs = [c for c in hands[other] if c not in own] or ["BJ", "LJ"]
    pick = rng.sample(own, min(len(own), rng.choice((1, 2, 3, 5))))
    return [
        {**real, "seat": other},  # not this seat's turn
        {"seat": seat, "type": "play", "cards": theirs[:2]},  # cards this seat does not hold
        {"seat": seat, "type": "play", "cards": pick},  # a random handful: a bad pattern, too weak, out of turn
        {"seat": seat, "type": "declare", "cards": pick[:2], "received": 1},
        {"seat": seat, "type": "bury", "cards": pick},
        {"seat": seat, "type": "bid", "value": 2},
        {"seat": other, "type": "pass"},
    ]


@pytest.mark.parametrize("game", GAMES)
def test_no_refusal_of_the_engines_prints_a_card_code(game: str) -> None:
    random_play = importlib.import_module(f"fixtures.random_play.{game}")
    engine = get_engine(game)
    rng = random.Random(f"refusal-texts-{game}")
    messages: list[tuple[str, str, str]] = []
    for _ in range(2):
        setup, actions, _ = parse_record(random_play.random_record(rng))
        state = engine.new_deal(setup)
        for real in actions:
            hands = [list(hand) for hand in getattr(state, "hands", setup.hands)]
            for trial in attempts(state, real, len(setup.seats), hands, rng):
                try:
                    engine.apply(copy.deepcopy(state), trial)
                except Refusal as refusal:
                    messages.append((refusal.code, refusal.message, refusal.message_zh))
            engine.apply(state, real)
    codes = {code for code, _, _ in messages}
    assert "not_your_turn" in codes and len(codes) >= 4, codes  # the scan reached the refusals that name things
    printed = [m for m in messages if CARD_CODE.search(m[1]) or CARD_CODE.search(m[2])]
    assert not printed, printed[:5]
    leaked = [m for m in messages if re.search("[\ue000-\ue004]", m[1] + m[2])]
    assert not leaked, leaked[:5]  # a seat reference is always read, at worst as "座位 N"


def test_templates_hold_seats_as_references_never_as_numbers() -> None:
    """The engines write a seat as `seat_ref` (read as the player's name by the service); this is what their
    templates look like once none is named — and a template never spells a seat's number itself."""
    refusal = illegal("not_your_turn", f"It is {seat_ref(0)}'s turn.", f"现在轮到{seat_ref(0)}。")
    assert (refusal.message, refusal.message_zh) == ("It is seat 1's turn.", "现在轮到座位 1。")
    assert refusal.name_seats(lambda seat, lang: "张伟").message_zh == "现在轮到张伟。"
    listed = illegal("x", f"{seats_ref([1, 3])} can beat it.", f"{seats_ref([1, 3])} 能管住。")
    assert (listed.message, listed.message_zh) == ("Seat 2, seat 4 can beat it.", "座位 2、座位 4 能管住。")
    listed.name_seats(lambda seat, lang: ["张伟", "李娜", "王芳", "刘洋"][seat])
    assert (listed.message, listed.message_zh) == ("李娜, 刘洋 can beat it.", "李娜、刘洋 能管住。")
    engine = get_engine("doudizhu")
    setup, actions, _ = parse_record(importlib.import_module("fixtures.random_play.doudizhu")
                                     .random_record(random.Random("templates")))
    state = engine.new_deal(setup)
    with pytest.raises(Refusal) as refused:
        engine.apply(state, {**actions[0], "seat": (actions[0]["seat"] + 1) % 3})
    assert not SEAT_NUMBER.search(refused.value.template + refused.value.template_zh), refused.value.template
    assert refused.value.mentions_seats


@pytest.mark.parametrize("game", GAMES)
def test_a_refusal_words_a_seat_as_the_pages_do(game: str) -> None:
    """The game's seat words a refusal uses (the descriptor's `seat_words`) are the pages' (`seat_marks`)."""
    engine = get_engine(game)
    marks = ui_for(game).seat_marks(engine.seat_count)
    words = get_game(game).seat_words
    assert list(words) == marks or not words and all(mark == ("", "") for mark in marks), (words, marks)
    named = seat_namer(game, [f"P{seat}" for seat in range(engine.seat_count)])
    for seat, (zh, en) in enumerate(marks):
        assert named(seat, "zh") == (f"P{seat}（{zh}）" if zh else f"P{seat}")
        assert named(seat, "en") == (f"P{seat} ({en})" if en else f"P{seat}")
