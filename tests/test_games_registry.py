"""A game is one descriptor (docs/ARCHITECTURE.md "Adding a game"): every registry reads the games' list in
domain/games/__init__.py, no module outside a game's folders names a game code, and a new game writes only its
own folder(s) plus one registry line — shown by a toy game, "higher card" (two seats, one card each, the higher
rank wins), registered here and nowhere else, that the API records and replays, the pad offers choices for and
the viewer shows, with no other change."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from marshmallow import Schema
from paths import ROOT

from domain.games import GAMES, get_game, register, unregister
from domain.kernel.cards import RANKS
from domain.kernel.engine import Action, DealSetup, DealState, Engine, Viewpoint, check_turn, checked_deal
from domain.kernel.errors import illegal
from domain.kernel.game import Game
from domain.kernel.options import OptionsResolver
from domain.kernel.table import DealsTable, Standing, chips_after

CODES = ("doudizhu", "shengji", "sandayi", "wakeng", "daguai")
# Where a game's code may be written: its own folders, the registry's one line, and docs, fixtures and tests.
SCANNED = ("domain", "projections", "api", "replay_ui")


def _own_folder(path: str) -> bool:
    return bool(re.match(r"(domain/games|replay_ui/games)/[a-z0-9_]+/", path)) or path == "domain/games/__init__.py"


def test_no_module_outside_a_games_folders_names_a_game_code():
    found = subprocess.run(["grep", "-rnwE", "|".join(CODES), *SCANNED], cwd=ROOT, capture_output=True, text=True)
    outside = [line for line in found.stdout.splitlines() if not _own_folder(line.split(":", 1)[0])]
    assert outside == []
    # …and the check bites: the registry itself names each game (its one line per game).
    assert all(re.search(rf"\b{code}\b", (ROOT / "domain/games/__init__.py").read_text()) for code in CODES)


def test_every_registered_game_is_one_descriptor_each_registry_reads():
    assert list(GAMES) == list(CODES)
    for code, game in GAMES.items():
        assert game.engine.game == game.table.game == code
        assert game.formats and all(f.game == code for f in game.formats)
        assert game.slip is not None and game.analysis is not None
        assert (ROOT / "replay_ui" / "games" / code / "__init__.py").is_file()  # its viewer plugin, by its name


# --- the toy game: everything a new game writes ---------------------------------------------------------------

TOY = "highcard"
VALUE = {rank: value for value, rank in enumerate(RANKS[1:] + RANKS[:1])}  # 3 lowest … A, 2 highest


@dataclass(kw_only=True)
class HighCardState(DealState):
    hands: list[list[str]]
    first: int
    to_act: int | None
    played: list[str | None] = field(default_factory=lambda: [None, None])
    phase: str = "play"


class HighCardEngine(Engine):
    """Two seats, 26 cards each; each plays one card in turn and the higher rank wins (a tie is a draw)."""

    game, name_zh, name_en = TOY, "比大小", "higher card"
    seat_count, hand_size, kitty_size, decks, jokers = 2, 26, 0, 1, False
    source = "tests/test_games_registry.py"
    options = OptionsResolver(Schema())
    action_fields = {"play": set(), "timeout": set(), "foul": set()}

    def new_deal(self, setup: DealSetup) -> HighCardState:
        hands, _ = checked_deal(self, setup, 0, self.source)
        return HighCardState(hands=hands, first=setup.first, to_act=setup.first)

    def act(self, state: HighCardState, action: Action) -> None:
        seat = action["seat"]
        check_turn(state, seat)
        cards = action["cards"] if action["type"] == "play" else [min(state.hands[seat], key=self._value)]
        if len(cards) != 1 or cards[0] not in state.hands[seat]:
            raise illegal("bad_play", "Play one card of your hand.", "请出手中的一张牌。", cards=cards)
        state.hands[seat].remove(cards[0])
        state.played[seat] = cards[0]
        state.to_act = None if all(state.played) else 1 - seat
        state.phase = "finished" if state.to_act is None else "play"

    @staticmethod
    def _value(code: str) -> int:
        return VALUE[code[1:]]

    def status(self, state: HighCardState) -> dict[str, Any]:
        return {"phase": state.phase, "to_act": state.to_act, "finished": state.phase == "finished"}

    def legal_actions(self, state: HighCardState, seat: int) -> list[Action]:
        return []

    def view(self, state: HighCardState, viewpoint: Viewpoint) -> dict[str, Any]:
        seats = [{"hand": list(hand)} if viewpoint.sees_hand(seat, False) else {"cards": len(hand)}
                 for seat, hand in enumerate(state.hands)]
        return {**self.view_head(state, viewpoint), "seats": seats, "played": list(state.played)}

    def result(self, state: HighCardState) -> dict[str, Any] | None:
        if state.phase != "finished":
            return None
        a, b = (self._value(code) for code in state.played)  # type: ignore[arg-type]
        scores = [0, 0] if a == b else [1, -1] if a > b else [-1, 1]
        return {"scores": scores, "seat_facts": {"won": [int(s > 0) for s in scores]}}


class HighCardTable(DealsTable):
    """A match of three deals, seats taking turns to lead; the totals are summed."""

    game = TOY

    def start(self, options: dict[str, Any], seat_count: int) -> Standing:
        return {"scores": [0] * seat_count, "deals": 0, "end": None}

    def first_seat(self, standing: Standing, first: int, number: int, seat_count: int) -> int:
        return (first + number - 1) % seat_count

    def after_deal(self, standing: Standing, options: dict[str, Any], result: dict[str, Any]) -> Standing:
        deals = standing["deals"] + 1
        return {"scores": chips_after(standing["scores"], result["scores"]), "deals": deals,
                "end": {"winner": None, "by": "deals"} if deals >= 3 else None}


HIGH_CARD = Game(code=TOY, engine=HighCardEngine(), table=HighCardTable())  # its descriptor: the one line


@pytest.fixture
def toy_game() -> Iterator[Game]:
    register(HIGH_CARD)
    yield HIGH_CARD
    unregister(TOY)


HANDS = [[s + r for s in "SH" for r in RANKS], [s + r for s in "CD" for r in RANKS]]


def test_a_toy_game_registered_in_one_line_is_recorded_replayed_offered_and_shown(server, toy_game):
    assert get_game(TOY) is HIGH_CARD
    created = server.post("/api/deals", {"game": TOY, "seats": ["甲", "乙"], "first": 0, "hands": HANDS, "kitty": []})
    assert created.status_code == 201, created.text
    deal = created.json()["id"]

    # The pad's choices: the seat to act may play its cards.
    pad = server.get(f"/api/deals/{deal}/pad", token=server.organiser)
    assert pad.status_code == 200, pad.text
    offered = pad.json()
    assert offered["table"]["kitty_apart"] == [] and offered["status"]["to_act"] == 0
    play = next(c for c in offered["choices"] if c["seat"] == 0 and c["action"] == {"type": "play"})
    assert play["cards"] == sorted(HANDS[0])
    assert not any(c["seat"] == 1 and c["action"]["type"] != "foul" for c in offered["choices"])

    for step, action in enumerate([{"seat": 0, "type": "play", "cards": ["HK"]},
                                   {"seat": 1, "type": "play", "cards": ["C2"]}], start=1):
        recorded = server.post(f"/api/deals/{deal}/actions", {"action": action, "expected_version": step})
        assert recorded.status_code == 201, recorded.text
    assert recorded.json()["finished"] and recorded.json()["result"]["scores"] == [-1, 1]  # a 2 beats a king

    replay = server.get(f"/api/deals/{deal}/replay", params={"step": 1, "viewpoint": "public"})
    assert replay.status_code == 200 and replay.json()["view"]["played"] == ["HK", None]
    assert server.get(f"/api/deals/{deal}/verify").json()["ok"]

    page = server.get(f"/deals/{deal}")  # the viewer: the generic plugin shows any engine's view
    assert page.status_code == 200, page.text
    assert "games/generic.js" in page.text and f"games/{TOY}.js" not in page.text
    assert server.get(f"/ui/static/games/{TOY}.js").status_code == 404


def test_a_toy_game_without_analysis_or_formats_has_none_and_no_tournament(server, toy_game):
    created = server.post("/api/deals", {"game": TOY, "seats": ["甲", "乙"], "first": 0, "hands": HANDS, "kitty": []})
    deal = created.json()["id"]
    server.post(f"/api/deals/{deal}/actions", {"action": {"seat": 0, "type": "play", "cards": ["S3"]},
                                               "expected_version": 1})
    analysed = server.get(f"/api/deals/{deal}/analysis", params={"step": 1}, token=server.organiser)
    assert analysed.status_code == 200 and analysed.json()["not_in_play"] is True  # nothing the solver can read
    tournament = server.post("/api/tournaments", {"name": "比大小杯", "game": TOY})
    assert tournament.status_code == 422 and tournament.json()["error"]["code"] == "unknown_format"
