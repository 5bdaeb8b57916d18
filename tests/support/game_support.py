"""What the game test files (tests/test_<game>_*.py) share, written once: the complete example record of each game in
docs/record-format.md; a record replayed through its engine, and checked as `fupan check` would; scripted actions on
an engine state and refusals that must leave it exactly as it was; a tournament opened through the service (the
example record's table too) or over HTTP; a deal recorded through the service from a random legal play; refusals
over HTTP that store nothing; the standings read and verified against a replay of the log.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from conftest import EXAMPLE_RECORD, LiveServer
from paths import ROOT
from test_api_http import assert_error, event_count

from domain.kernel.engine import Engine
from domain.kernel.errors import IllegalAction
from domain.model.token import LOCAL
from domain.records.format import check_record, fold, parse_record
from domain.services.fupan import Fupan
from projections import Projections

DOCS = ROOT / "docs" / "record-format.md"
Action = dict[str, Any]


# --- records -------------------------------------------------------------------------------------------------


def documented_example(heading: str) -> dict[str, Any]:
    """The complete example record of the section `## <heading>` of docs/record-format.md."""
    text = DOCS.read_text(encoding="utf-8")
    block = re.search(r"```json\n(\{.*?\})\n```", text[text.index(f"## {heading}"):], re.S)
    assert block, f"docs/record-format.md has a complete {heading} example"
    return json.loads(block.group(1))


def replayed(record: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The engine state at the end of a complete record, and its result."""
    setup, actions, _ = parse_record(record)
    engine, state = fold(setup, actions)
    result = engine.result(state)
    assert result is not None, "the record is complete"
    return state, result


def final_result(record: dict[str, Any]) -> dict[str, Any]:
    """The result a complete record comes to, replayed through its engine."""
    return replayed(record)[1]


def comes_to(record: dict[str, Any], stated: dict[str, Any]) -> dict[str, Any]:
    """`check_record` finds that a record stating no result comes to `stated` (scores, `redeal`) and accepts the
    record stating it; the whole result, replayed."""
    assert check_record(record) == {"ok": True, "result": stated}
    assert check_record({**record, "result": stated})["ok"] is True
    return final_result(record)


def checked(record: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """`replayed`, once `check_record` has accepted the record with the result it states."""
    assert check_record(record) == {"ok": True, "result": record["result"]}
    return replayed(record)


# --- deals built by hand, scripted on an engine state ---------------------------------------------------------


def deal_the_rest(zones: list[list[str]], sizes: list[int], rest: Iterable[str]) -> None:
    """Deal `rest` round-robin into the zones (the hands, then the kitty), skipping a zone once it holds its size,
    after each zone has been given the cards a test places (at most its size)."""
    assert all(len(z) <= n for z, n in zip(zones, sizes, strict=True)), [len(z) for z in zones]
    zone = 0
    for code in rest:
        while len(zones[zone]) == sizes[zone]:
            zone = (zone + 1) % len(zones)
        zones[zone].append(code)
        zone = (zone + 1) % len(zones)


class Scripted:
    """Actions applied to one engine's states, as the rules tests script them. `act` also keeps each action on
    `state.record` (a rules test's state carries the record of what it applied, for `check_record`)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def act(self, state: Any, seat: int, action_type: str, **fields: Any) -> None:
        action = {"seat": seat, "type": action_type, **fields}
        self.engine.apply(state, action)
        state.record["actions"].append(action)

    def bid(self, state: Any, *values: int | None) -> None:
        """Bids from the seat to act on: a number is a bid, None is 不叫."""
        for value in values:
            if value is None:
                self.act(state, state.to_act, "pass")
            else:
                self.act(state, state.to_act, "bid", value=value)

    def passes(self, state: Any, n: int | None = None) -> None:
        """`n` passes from the seat to act on (default: every other seat)."""
        for _ in range(self.engine.seat_count - 1 if n is None else n):
            self.act(state, state.to_act, "pass")

    def refused(self, state: Any, action: Any, code: str) -> IllegalAction:
        """The action is refused with `code` and the state is exactly as before (engine.py: validate, then apply)."""
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction) as error:
            self.engine.apply(state, action)
        assert error.value.code == code, error.value.message
        assert state == before
        return error.value

    def undone(self, state: Any, action: Any) -> Any:
        """A wrong action tried on `state`: refused, it must leave the state as it was; accepted after all (a lucky
        legal one), it is undone. The state to go on with."""
        before = copy.deepcopy(state)
        try:
            self.engine.apply(state, copy.deepcopy(action))
        except IllegalAction:
            assert state == before
            return state
        return before

    def scores(self, state: Any) -> list[int]:
        result = self.engine.result(state)
        assert result is not None
        return result["scores"]


# --- through the service -------------------------------------------------------------------------------------


def open_tournament(service: Fupan, name: str, game: str, players: Iterable[str],
                    options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A tournament of `game` with `players` registered and its first round started."""
    tournament, _ = service.tournaments.create(name, game, options=options)
    for player in players:
        service.tournaments.register_player(tournament["id"], player)
    service.tournaments.start_round(tournament["id"], "第1轮")
    return tournament


def example_table(service: Fupan, name: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A 斗地主 tournament `name` with the example record's players and table "1", the example record played out
    there as its first deal: the tournament, the match and the deal."""
    tournament, _ = service.tournaments.create(name, "doudizhu")
    for player in EXAMPLE_RECORD["seats"]:
        service.tournaments.register_player(tournament["id"], player)
    match, deal = example_deal(service, tournament["id"], "1")
    return tournament, match, deal


def example_deal(service: Fupan, tournament_id: str, table: str, actions: int | None = None
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Table `table` of the example record's players, with the example record's deal and its first `actions`
    actions (all by default) recorded: the match and the deal."""
    record = EXAMPLE_RECORD
    match, _ = service.tables.open(tournament_id, table, record["seats"], first=record["first"])
    deal, _ = service.deals.start(match=match["id"], first=record["first"], hands=record["hands"],
                                  kitty=record["kitty"])
    for action in record["actions"][:actions]:
        service.deals.record(deal["id"], action)
    return match, deal


def record_random_play(service: Fupan, deal_id: str, engine: Engine, play_out: Callable[..., None],
                       rng: random.Random, prefix: Iterable[Action] = (), **rates: float) -> tuple[dict[str, Any], Any]:
    """Apply `prefix`, then random legal actions from `play_out`, to an engine state built from the deal's setup,
    and record every action through the service; the finished deal (with the engine's scores) and the state."""
    setup, _, _ = parse_record(service.records.export_record(deal_id, LOCAL))  # a live deal's hands: local code only
    state = engine.new_deal(setup)
    actions: list[Action] = []
    for action in prefix:
        engine.apply(state, action)
        actions.append(action)
    play_out(state, rng, actions, **rates)
    for action in actions:
        service.deals.record(deal_id, action)
    deal = service.deals.get(deal_id)
    assert deal["finished"] and deal["result"]["scores"] == engine.result(state)["scores"]
    return deal, state


def verified_standings(service: Fupan, tournament_id: str) -> dict[str, Any]:
    """The tournament's standings, once a replay of the whole log has verified the read model."""
    projections = Projections(service)
    try:
        document = projections.standings(tournament_id)
        assert projections.verify()["ok"]
        return document
    finally:
        projections.close()


# --- over HTTP -----------------------------------------------------------------------------------------------


def open_http_table(server: LiveServer, name: str, game: str, players: list[str], first: int,
                    options: dict[str, Any] | None = None) -> tuple[dict[str, Any], str]:
    """A tournament of `game` created over HTTP with `players` at table "1": the tournament and the match id."""
    body: dict[str, Any] = {"name": name, "game": game, **({"options": options} if options is not None else {})}
    created = server.post("/api/tournaments", body)
    assert created.status_code == 201, created.text
    tournament = created.json()
    path = f"/api/tournaments/{tournament['id']}"
    for player in players:
        assert server.post(f"{path}/players", {"name": player}).status_code == 201
    match = server.post(f"{path}/matches", {"table": "1", "seats": players, "first": first})
    assert match.status_code == 201, match.text
    return tournament, match.json()["id"]


class HttpDeal:
    """A deal recorded over HTTP: an action accepted (201), or refused (422 with its code and a Chinese message)
    with nothing stored."""

    def __init__(self, server: LiveServer, deal: str):
        self.server, self.deal = server, deal

    def accepted(self, action: Action) -> None:
        response = self.server.post(f"/api/deals/{self.deal}/actions", {"action": action})
        assert response.status_code == 201, (action, response.text)

    def refused(self, action: Any, code: str) -> None:
        count = event_count(self.server, self.deal)
        error = assert_error(self.server.post(f"/api/deals/{self.deal}/actions", {"action": action}), 422, code)
        assert event_count(self.server, self.deal) == count
        assert any("\u4e00" <= ch <= "\u9fff" for ch in error["message_zh"])
