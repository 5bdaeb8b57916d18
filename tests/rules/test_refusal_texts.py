"""What the rules engines' refusals print, as people read them (issue 23): cards as ♠A ♥10 大王, never a card
code like S10, CK or BJ; seats as references the service names (never a bare number in a template).

Random deals of every game (fixtures/random_play) are replayed, and at every step a handful of illegal actions
is tried — another seat's turn, another seat's cards, a random handful of one's own, the right seat with the
wrong kind of action — and every refusal's two messages are scanned."""

from __future__ import annotations

import ast
import copy
import dataclasses
import importlib
import random
import re
from pathlib import Path
from typing import Any

import pytest
from paths import ROOT

from domain.games import get_engine, get_game, seat_namer
from domain.kernel.errors import Refusal, illegal, seat_ref, seats_ref
from domain.records.format import parse_record
from replay_ui.games import ui_for

CARD_CODE = re.compile(r"(?<![A-Za-z0-9])(?:[SHCD](?:10|[2-9JQKA])|LJ|BJ)(?![A-Za-z0-9])")
SEAT_NUMBER = re.compile(r"座位 ?\d|[Ss]eats? \d")  # a seat written by its number into a template
# What a person should never read in a refusal: a backticked field name, or seats counted from 0 ("座位 0–2",
# "seats (0–3)", "0–{n}" beside a seat).
BACKTICK = re.compile("`")
ZERO_BASED_SEATS = re.compile(r"(?:座位|[Ss]eats?)\W{0,3}0\s*[–-]|0\s*[–-]\s*\{?[^ ]*\}?\W{0,3}(?:座位|seats?)")
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
    unplain = [m for m in messages if BACKTICK.search(m[1] + m[2]) or ZERO_BASED_SEATS.search(m[1] + m[2])]
    assert not unplain, unplain[:5]


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


def test_a_card_not_in_hand_names_whose_hand_it_is() -> None:
    """"Not in this seat's hand" named nobody: the refusal holds the seat, read as the player's name."""
    engine = get_engine("doudizhu")
    setup, actions, _ = parse_record(importlib.import_module("fixtures.random_play.doudizhu")
                                     .random_record(random.Random("not-in-hand")))
    state = engine.new_deal(setup)
    while state.phase != "play":
        engine.apply(state, actions[state.actions])
    seat = state.to_act
    theirs = [card for card in state.hands[(seat + 1) % 3] if card not in state.hands[seat]][:1]
    with pytest.raises(Refusal) as refused:
        engine.apply(copy.deepcopy(state), {"seat": seat, "type": "play", "cards": theirs})
    assert refused.value.code == "card_not_in_hand" and refused.value.mentions_seats
    names = ["张伟", "李娜", "王芳"]
    refused.value.name_seats(lambda s, lang: names[s])
    assert names[seat] in refused.value.message and refused.value.message_zh.startswith(names[seat])
    assert "this seat" not in refused.value.message and "该座位" not in refused.value.message_zh


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_outside_the_table_is_refused_by_naming_the_tables_players(game: str) -> None:
    """`first` or an action's `seat` out of range: the person reads who sits at the table, never "0–2"; the
    details keep the seat as given."""
    engine = get_engine(game)
    seats = engine.seat_count
    names = ["张伟", "李娜", "王芳", "刘洋", "陈静", "黄磊"][:seats]
    setup, actions, _ = parse_record(importlib.import_module(f"fixtures.random_play.{game}")
                                     .random_record(random.Random(f"outside-{game}")))
    state = engine.new_deal(setup)
    with pytest.raises(Refusal) as acting:
        engine.apply(state, {**actions[0], "seat": seats})
    with pytest.raises(Refusal) as first:
        engine.new_deal(dataclasses.replace(setup, first=seats + 1))
    for refusal, field in ((acting.value, "seat"), (first.value, "first")):
        assert field in refusal.details and refusal.mentions_seats, refusal.as_dict()
        refusal.name_seats(lambda s, lang: names[s])
        text = refusal.message + refusal.message_zh
        assert all(name in refusal.message_zh for name in names), refusal.message_zh
        assert not BACKTICK.search(text) and not re.search(r"\d\s*[–-]\s*\d", text), text


# The constructors of refusals: the classes of domain/kernel/errors.py, and every function (found below) that
# returns one built from the message it is given.
REFUSAL_CLASSES = {"Refusal", "IllegalAction", "BadRequest", "Unauthenticated", "Forbidden", "Hidden", "NotFound",
                   "Conflict", "LengthRequired", "TooManyAttempts"}


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _refusal_constructors(trees: list[ast.Module]) -> set[str]:
    names = set(REFUSAL_CLASSES)
    while True:
        found = set(names)
        for tree in trees:
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") in names for b in node.bases):
                    found.add(node.name)
                if isinstance(node, ast.FunctionDef):
                    returns = [n.value for n in ast.walk(node) if isinstance(n, ast.Return)]
                    if any(isinstance(r, ast.Call) and _called_name(r) in names for r in returns):
                        found.add(node.name)
        if found == names:
            return names
        names = found


def _literal_text(node: ast.AST, local: dict[str, str] | None = None) -> str:
    """The literal parts of a string argument ("" for anything else); an f-string's fields left out, a name
    assigned a string in the same function (`hint_en = "…"`, then `"…" + hint_en`) read as that string."""
    local = local or {}
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else local.get(getattr(v.value, "id", ""), "{}")
                       for v in node.values if isinstance(v, ast.Constant | ast.FormattedValue))
    if isinstance(node, ast.IfExp):
        return _literal_text(node.body, local) + " " + _literal_text(node.orelse, local)
    if isinstance(node, ast.BinOp):
        return _literal_text(node.left, local) + _literal_text(node.right, local)
    if isinstance(node, ast.Name):
        return local.get(node.id, "")
    return ""


def _local_strings(function: ast.AST) -> dict[str, str]:
    """The names a function assigns string literals to (every assignment's text, joined)."""
    found: dict[str, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            text = _literal_text(node.value)
            for target in node.targets:
                if isinstance(target, ast.Name) and text:
                    found[target.id] = found.get(target.id, "") + " " + text
    return found


def test_no_refusal_in_the_code_backticks_a_field_or_counts_seats_from_0() -> None:
    """Every message any refusal is built with, read from the source of the server's packages: plain words, no
    backticked field name, no seat range counted from 0 (the API's details keep their 0-based seats)."""
    files = [path for package in ("domain", "api", "projections", "web", "cli", "replay_ui")
             for path in sorted((ROOT / package).rglob("*.py"))]
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in files]
    constructors = _refusal_constructors(trees)
    assert {"illegal", "bad", "impossible", "_refuse", "refuse", "not_a_player"} <= constructors
    found, scanned = [], 0
    for path, tree in zip(files, trees, strict=True):
        scopes = [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))]
        strings = [(scope, _local_strings(scope)) for scope in scopes]  # inner scopes last: they win
        local_of = {id(node): found for scope, found in strings for node in ast.walk(scope)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _called_name(node) in constructors:
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    text = _literal_text(arg, local_of.get(id(node)))
                    scanned += bool(text)
                    if BACKTICK.search(text) or ZERO_BASED_SEATS.search(text):
                        found.append(f"{Path(path).relative_to(ROOT)}:{arg.lineno}: {text[:80]}")
    assert scanned > 300, scanned  # the scan reached the refusals
    assert not found, "\n".join(found)
