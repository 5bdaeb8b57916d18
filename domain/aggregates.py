"""Event-sourced aggregates: Tournament, Match (one table's session of deals) and Deal (one hand).

Every aggregate and every event class has an explicit, stable TOPIC, so stored events never depend on
Python module paths (DESIGN.md §4). IDs are uuid5 of natural keys, so re-submitting a create finds the
aggregate that already exists instead of making a second one.

A Deal never stores an event the rules engine has not accepted: its command methods run the engine first
and trigger the event only when the engine raised nothing. Each deal event also carries a running SHA-256
(`digest`) over the canonical JSON of the event (DESIGN.md §5); `digest_payload` is the exact input, so a
verifier can recompute the chain from storage.
"""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from datetime import datetime
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from domain import side_events
from domain.annotations import checked_annotation
from domain.cards import normalize_all
from domain.dealing import seed_commitment
from domain.engine import PENALTY_LIMIT, Action, DealSetup, Engine
from domain.errors import Conflict, IllegalAction, listed
from domain.games import get_engine, get_table
from domain.integrity import GENESIS, next_digest
from domain.match import MatchRules, Standing
from domain.record import judge
from domain.retraction import RETRACT, check_retraction, is_retraction, normalize_retraction, standing_state
from domain.slips import RESULT_ONLY

# Fixed forever: changing it would change every deterministic ID.
NAMESPACE = UUID("6f1d4c2e-5b7a-5e0c-9a51-46757061e1a0")

# Who recorded an event. Auth arrives later; until then every write is local.
LOCAL_RECORDER: dict[str, Any] = {"role": "local", "token_id": None}

def tournament_id(key: str) -> UUID:
    return uuid5(NAMESPACE, f"tournament:{key}")


def match_id(tournament: UUID, table: str) -> UUID:
    return uuid5(NAMESPACE, f"match:{tournament}:{table}")


def deal_id_in_match(match: UUID, number: int) -> UUID:
    return uuid5(NAMESPACE, f"deal:{match}:{number}")


def deal_id_for_key(key: str) -> UUID:
    """Deals outside a match (standalone or imported) are named by a caller-chosen or content-derived key."""
    return uuid5(NAMESPACE, f"deal-key:{key}")


# --- hash chain ---------------------------------------------------------------------------------------

# Fields that are bookkeeping of the library, the digest itself, or secret until revealed.
_UNCHAINED = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "digest", "sealed_seed"}
)


def _jsonable(value: Any) -> Any:
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    return value


def digest_payload(topic: str, deal: UUID, version: int, timestamp: datetime, fields: dict[str, Any]) -> dict:
    """The canonical content of one deal event that the hash chain covers."""
    payload = {key: _jsonable(value) for key, value in fields.items() if key not in _UNCHAINED}
    payload.update(type=topic, deal=str(deal), version=version, time=timestamp.isoformat())
    return payload


def event_fields(event: Any) -> dict[str, Any]:
    """The domain fields of a stored event (without the library's bookkeeping)."""
    return {f.name: getattr(event, f.name) for f in dataclasses.fields(event) if f.name not in _UNCHAINED}


def verify_chain(events: list[Any]) -> int | None:
    """The version of the first deal event whose digest does not match its content, or None if all do."""
    digest = GENESIS
    for event in events:
        fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
        payload = digest_payload(type(event).TOPIC, event.originator_id, event.originator_version,
                                 event.timestamp, fields)
        digest = next_digest(digest, payload)
        if event.digest != digest:
            return event.originator_version
    return None


# --- Tournament ---------------------------------------------------------------------------------------

# "tables": a round of tables (knockout or Swiss, as the format says); "final": the last tables; "playoff":
# extra deals that only break ties of the rounds before it.
ROUND_KINDS = ("tables", "final", "playoff")
ADJUSTMENT_KINDS = ("penalty", "adjustment")
ENTRY_RULES = ("department_limit",)


def adjustable(points: object) -> bool:
    """Whether an adjustment may move a total by `points`: a non-zero whole number within PENALTY_LIMIT."""
    return type(points) is int and 0 < abs(points) <= PENALTY_LIMIT


class Tournament(Aggregate):
    """A competition: its game and ruleset options, its registered players and its tables (matches)."""

    TOPIC = "fupan:Tournament"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        """v2 declares the format and the ordered tiebreak list before play starts, and the seed lots use; v3 the
        entry rules (`register_entries`)."""

        TOPIC = "fupan:Tournament.Created"
        class_version = 3
        key: str
        name: str
        game: str
        options: dict[str, Any]
        recorded_by: dict[str, Any]
        format: str  # a code of projections/formats.py; "" = the game's default format
        tiebreaks: list[str]  # tiebreak codes in the order they apply; [] = the format's default list
        lots_seed: str  # "" = none was recorded: lots are drawn from the tournament id
        entry_rules: dict[str, int]  # {"department_limit": entries per 部门 at most}; {} = no limit

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state.update(format="", tiebreaks=[], lots_seed="")

        @staticmethod
        def upcast_v2_v3(state: dict[str, Any]) -> None:
            state["entry_rules"] = {}

    class PlayerRegistered(Event):
        """v2: the entry (pair or team) the player entered with and its department (部门); "" = none."""

        TOPIC = "fupan:Tournament.PlayerRegistered"
        class_version = 2
        player_id: str
        name: str
        recorded_by: dict[str, Any]
        entry: str
        department: str

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state.update(entry="", department="")

        def apply(self, aggregate: Tournament) -> None:
            aggregate.players[self.player_id] = self.name
            if self.entry or self.department:
                aggregate.entrants[self.player_id] = {"entry": self.entry, "department": self.department}

    class MatchOpened(Event):
        TOPIC = "fupan:Tournament.MatchOpened"
        class_version = 2
        match_id: UUID
        table: str
        recorded_by: dict[str, Any]
        round: int

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["round"] = 1  # before rounds existed every table was in round 1

        def apply(self, aggregate: Tournament) -> None:
            aggregate.matches.append({"id": self.match_id, "table": self.table, "round": self.round})

    class RoundStarted(Event):
        """v2: the players on a bye in the round (a Swiss bye, docs/rules/wakeng.md B11.9; a knockout bye goes on)."""

        TOPIC = "fupan:Tournament.RoundStarted"
        class_version = 2
        round: int
        label: str
        kind: str  # one of ROUND_KINDS
        recorded_by: dict[str, Any]
        byes: list[str]

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["byes"] = []

        def apply(self, aggregate: Tournament) -> None:
            aggregate.rounds.append({"round": self.round, "label": self.label, "kind": self.kind,
                                     **({"byes": list(self.byes)} if self.byes else {})})

    class Withdrew(Event):
        """A player left the event from `round` on (a Swiss round pairs them no more: docs/pairing.md)."""

        TOPIC = "fupan:Tournament.Withdrew"
        player_id: str
        round: int
        reason: str
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Tournament) -> None:
            aggregate.withdrawn[self.player_id] = {"round": self.round, "reason": self.reason}

    class SideEventOpened(Event):
        """A results-only knockout side event of the tournament (seed 001: 五子棋, 跳棋; domain/side_events.py)."""

        TOPIC = "fupan:Tournament.SideEventOpened"
        key: str
        game: str
        name: str
        entrants: list[str]
        table_size: int
        advance: int
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Tournament) -> None:
            aggregate.side_events[self.key] = {
                "key": self.key, "game": self.game, "name": self.name, "entrants": list(self.entrants),
                "table_size": self.table_size, "advance": self.advance, "results": []}

    class SideResultRecorded(Event):
        """One table's placing in a side event's round."""

        TOPIC = "fupan:Tournament.SideResultRecorded"
        key: str
        round: int
        table: int
        placing: list[str]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Tournament) -> None:
            aggregate.side_events[self.key]["results"].append(
                {"round": self.round, "table": self.table, "placing": list(self.placing)})

    class Adjusted(Event):
        """A penalty or manual adjustment of a player's total in one round: who recorded it and why."""

        TOPIC = "fupan:Tournament.Adjusted"
        player_id: str
        points: int
        round: int
        kind: str  # one of ADJUSTMENT_KINDS
        reason: str
        refers_to: dict[str, Any] | None  # {"deal_id", "version"} of the event a ruling concerns
        recorded_by: dict[str, Any]

    def __init__(self, key: str, name: str, game: str, options: dict[str, Any], format: str, tiebreaks: list[str],
                 lots_seed: str, entry_rules: dict[str, int]):
        self.key = key
        self.name = name
        self.game = game
        self.options = options
        self.format = format
        self.tiebreaks = tiebreaks
        self.lots_seed = lots_seed
        self.entry_rules = dict(entry_rules)
        self.players: dict[str, str] = {}
        self.entrants: dict[str, dict[str, str]] = {}  # player id → {entry, department}, when either was given
        self.withdrawn: dict[str, dict[str, Any]] = {}  # player id → {round, reason}
        self.side_events: dict[str, dict[str, Any]] = {}  # key → declaration and results (domain/side_events.py)
        self.matches: list[dict[str, Any]] = []
        self.rounds: list[dict[str, Any]] = []

    @classmethod
    def open(cls, key: str, name: str, game: str, options: dict[str, Any], recorded_by: dict[str, Any],
             format: str = "", tiebreaks: list[str] | None = None, lots_seed: str = "",
             entry_rules: dict[str, int] | None = None) -> Tournament:
        """Which format and tiebreak codes exist is the projections' registry's business; here only their shape."""
        engine = get_engine(game)
        tiebreaks = list(tiebreaks or [])
        if not all(isinstance(code, str) and code for code in tiebreaks) or len(set(tiebreaks)) != len(tiebreaks):
            raise IllegalAction("bad_tiebreaks", "Tiebreaks are distinct codes, in the order they apply.",
                                "破同分规则必须是互不相同的代码，按适用顺序排列。", {"tiebreaks": tiebreaks})
        rules = dict(entry_rules or {})
        if set(rules) - set(ENTRY_RULES) or not all(type(v) is int and 1 <= v <= 1000 for v in rules.values()):
            raise IllegalAction("bad_entry_rules", f"Entry rules are whole numbers 1–1000 named {listed(ENTRY_RULES)}.",
                                f"报名规则必须是 {listed(ENTRY_RULES, 'zh')} 中的 1–1000 的整数。",
                                {"entry_rules": rules})
        return cls._create(
            cls.Created, id=tournament_id(key), key=key, name=name, game=engine.game,
            options=engine.resolve_options(options), recorded_by=recorded_by, format=format, tiebreaks=tiebreaks,
            lots_seed=lots_seed, entry_rules=rules,
        )

    @property
    def current_round(self) -> int:
        """The round new tables open in: the latest started, or round 1 before any was started."""
        return self.rounds[-1]["round"] if self.rounds else 1

    def register_player(self, player_id: str, name: str, recorded_by: dict[str, Any]) -> bool:
        """Register once; the same registration again is a no-op (False), a different name is refused."""
        known = self.players.get(player_id)
        if known == name:
            return False
        if known is not None:
            raise IllegalAction(
                "player_exists", f"Player {player_id!r} is already registered as {known!r}.",
                f"选手 {player_id!r} 已登记为 {known!r}。", {"player_id": player_id, "name": known},
            )
        self.trigger_event(self.PlayerRegistered, player_id=player_id, name=name, recorded_by=recorded_by, entry="",
                           department="")
        return True

    def open_side_event(self, key: str, game: str, name: str, entrants: list[str], table_size: int, advance: int,
                        recorded_by: dict[str, Any]) -> dict[str, Any]:
        """A results-only knockout side event (seed 001's 五子棋 and 跳棋), its entrants numbered in order."""
        if not key.strip() or key.strip() in self.side_events:
            raise IllegalAction("side_event_exists", f"A side event needs a new key; {key!r} is taken or empty.",
                                f"附加赛需要一个新的代号；{key!r} 已被使用或为空。", {"key": key})
        declared = side_events.checked_event(game, name, entrants, table_size, advance)
        self.trigger_event(self.SideEventOpened, key=key.strip(), recorded_by=recorded_by, **declared)
        return self.side_event(key.strip())

    def side_event(self, key: str) -> dict[str, Any]:
        """The side event with its bracket: rounds, the current round's tables, byes, places once decided."""
        event = self.side_events.get(key)
        if event is None:
            raise IllegalAction("unknown_side_event", f"No side event {key!r} in this tournament.",
                                f"本赛事没有附加赛 {key!r}。", {"key": key})
        return {**{k: v for k, v in event.items() if k != "results"},
                **side_events.bracket(event, event["results"])}

    def record_side_result(self, key: str, number: int, table: int, placing: list[str],
                           recorded_by: dict[str, Any]) -> dict[str, Any]:
        """One table's placing in the side event's current round (checked first: the table's players, once)."""
        self.side_event(key)  # unknown → refused
        event = self.side_events[key]
        placing = side_events.checked_result(event, event["results"], number, table, placing)
        self.trigger_event(self.SideResultRecorded, key=key, round=number, table=table, placing=placing,
                           recorded_by=recorded_by)
        return self.side_event(key)

    def withdraw(self, player_id: str, reason: str, recorded_by: dict[str, Any]) -> dict[str, Any]:
        """The player leaves the event from the next round on; once, with the reason."""
        if player_id not in self.players:
            raise IllegalAction("unknown_player", f"Not registered in this tournament: {player_id}.",
                                f"未在本赛事登记的选手：{player_id}。", {"player_id": player_id})
        if player_id in self.withdrawn:
            raise IllegalAction("already_withdrawn", f"{self.players[player_id]} has already withdrawn.",
                                f"{self.players[player_id]} 已经退赛。", {"player_id": player_id})
        if not reason.strip():
            raise IllegalAction("bad_withdrawal", "Say why: a withdrawal needs a reason.", "退赛必须写明理由。")
        self.trigger_event(self.Withdrew, player_id=player_id, round=self.current_round, reason=reason.strip(),
                           recorded_by=recorded_by)
        return {"player_id": player_id, **self.withdrawn[player_id]}

    def entries(self) -> list[dict[str, Any]]:
        """Every entry in registration order: {name, department, members: [{id, name}]}; a player registered
        on their own is an entry of one, named as the player."""
        out: dict[str, dict[str, Any]] = {}
        for pid, name in self.players.items():
            info = self.entrants.get(pid, {"entry": "", "department": ""})
            entry = out.setdefault(info["entry"] or f"player:{pid}", {"name": info["entry"] or name,
                                                                      "department": info["department"], "members": []})
            entry["members"].append({"id": pid, "name": name})
        return list(out.values())

    def register_entries(self, entries: list[dict[str, Any]], team_size: int, recorded_by: dict[str, Any]
                         ) -> list[dict[str, Any]]:
        """Register entries all-or-nothing: every one is checked (with the others of the batch) before any is
        recorded. Each is {name, department, members: [{id, name}]}: `team_size` members (the format's: 升级 pairs,
        大怪路子 teams of three), none registered already or twice, at most `entry_rules.department_limit` entries
        of one department (seed 000: 每个部门最多报2个队; seed 002: 每个部门工会最多报3名参赛选手)."""
        entries = [{"name": e["name"].strip(), "department": e["department"].strip(),
                    "members": [{"id": m["id"].strip(), "name": m["name"].strip()} for m in e["members"]]}
                   for e in entries]
        size = team_size
        limit = self.entry_rules.get("department_limit")
        taken_names = {name for name in self.players.values()} | {e["name"] for e in self.entries()}
        taken_ids = set(self.players)
        per_department = Counter(e["department"] for e in self.entries() if e["department"])
        for index, entry in enumerate(entries):
            name, department, members = entry["name"], entry["department"], entry["members"]
            where = {"entry": index, "name": name}
            if len(members) != size:
                raise IllegalAction(
                    "wrong_team_size", f"Entry {name!r} has {len(members)} players; an entry here has {size}.",
                    f"报名 {name!r} 有 {len(members)} 名选手；本赛事每个报名单位须为 {size} 人。",
                    {**where, "members": len(members), "team_size": size})
            names = [m["name"] for m in members] + ([name] if size > 1 else [])
            ids = [m["id"] for m in members]
            twice = sorted({n for n in names if n in taken_names or names.count(n) > 1}
                           | {i for i in ids if i in taken_ids or ids.count(i) > 1})
            if twice or not all(names) or not all(ids):
                raise IllegalAction(
                    "duplicate_entry", f"Already entered, or twice: {twice or 'an empty name'}.",
                    f"重复报名：{twice or '名字为空'}。", {**where, "duplicates": twice})
            if limit is not None and department and per_department[department] >= limit:
                raise IllegalAction(
                    "department_limit", f"Department {department!r} already has {limit} entries, the most allowed.",
                    f"部门 {department!r} 已报满 {limit} 个（每个部门最多报 {limit} 个）。",
                    {**where, "department": department, "limit": limit})
            taken_names.update(names)
            taken_ids.update(ids)
            per_department[department] += 1
        for entry in entries:
            for member in entry["members"]:
                self.trigger_event(self.PlayerRegistered, player_id=member["id"], name=member["name"],
                                   recorded_by=recorded_by, entry=entry["name"] if size > 1 else "",
                                   department=entry["department"])
        return entries

    def check_round(self, number: int) -> None:
        if not 1 <= number <= self.current_round:
            raise IllegalAction("bad_round", f"Round {number} has not started; the current round is "
                                f"{self.current_round}.", f"第 {number} 轮尚未开始；当前是第 {self.current_round} 轮。",
                                {"round": number, "current_round": self.current_round})

    def check_same(self, other: Tournament, lots_seed: str | None) -> None:
        """Conflict unless `other` (a create with the same key) re-submits this tournament."""
        mine = (self.name, self.game, self.options, self.format, self.tiebreaks, self.entry_rules)
        if mine != (other.name, other.game, other.options, other.format, other.tiebreaks, other.entry_rules) or (
            lots_seed is not None and lots_seed != self.lots_seed
        ):
            raise Conflict("already_exists", f"A different tournament with key {self.key!r} exists.",
                           f"已存在键为 {self.key!r} 的另一个赛事。", {"id": str(self.id)})

    def open_match(self, match: UUID, table: str, recorded_by: dict[str, Any], round: int | None = None) -> None:
        number = self.current_round if round is None else round
        self.check_round(number)
        self.trigger_event(self.MatchOpened, match_id=match, table=table, recorded_by=recorded_by, round=number)

    def start_round(self, label: str, kind: str, recorded_by: dict[str, Any], byes: list[str] = ()
                    ) -> dict[str, Any]:
        """The next round, with its byes. Tables opened before any round was started are round 1, so the next one
        is 2."""
        if kind not in ROUND_KINDS:
            raise IllegalAction("bad_round_kind", f"A round's kind is one of {listed(ROUND_KINDS)}.",
                                f"轮次类型必须是 {listed(ROUND_KINDS, 'zh')} 之一。", {"kind": kind})
        strangers = [p for p in byes if p not in self.players]
        if strangers or len(set(byes)) != len(byes):
            named = strangers or list(byes)
            raise IllegalAction("bad_byes", f"Byes are registered players, each once: {listed(named)}.",
                                f"轮空的必须是已登记的选手，每人一次：{listed(named, 'zh')}。", {"byes": list(byes)})
        number = self.current_round + 1 if self.rounds or self.matches else 1
        label = label.strip() or f"第{number}轮"
        self.trigger_event(self.RoundStarted, round=number, label=label, kind=kind, recorded_by=recorded_by,
                           byes=list(byes))
        return dict(self.rounds[-1])

    def adjust(self, player_id: str, points: int, reason: str, kind: str, round: int | None,
               refers_to: dict[str, Any] | None, recorded_by: dict[str, Any]) -> dict[str, Any]:
        """Record a penalty or adjustment; never edits anything recorded before (DESIGN.md §4)."""
        if player_id not in self.players:
            raise IllegalAction("unknown_player", f"Not registered in this tournament: {player_id}.",
                                f"未在本赛事登记的选手：{player_id}。", {"player_id": player_id})
        if kind not in ADJUSTMENT_KINDS:
            raise IllegalAction("bad_adjustment", f"An adjustment's kind is one of {listed(ADJUSTMENT_KINDS)}.",
                                f"调整类型必须是 {listed(ADJUSTMENT_KINDS, 'zh')} 之一。", {"kind": kind})
        if not adjustable(points):
            raise IllegalAction("bad_adjustment", f"`points` is a non-zero whole number, at most {PENALTY_LIMIT} "
                                "either way.", f"`points` 必须是非零整数，绝对值不超过 {PENALTY_LIMIT}。",
                                {"points": repr(points), "limit": PENALTY_LIMIT})
        if not reason.strip():
            raise IllegalAction("bad_adjustment", "Say why: an adjustment needs a reason.", "调整必须写明理由。")
        number = self.current_round if round is None else round
        self.check_round(number)
        self.trigger_event(self.Adjusted, player_id=player_id, points=points, round=number, kind=kind,
                           reason=reason.strip(), refers_to=refers_to, recorded_by=recorded_by)
        return {"player_id": player_id, "points": points, "round": number, "kind": kind, "reason": reason.strip(),
                "refers_to": refers_to, "version": self.version}


# --- Match --------------------------------------------------------------------------------------------


class Match(Aggregate):
    """One table's session of deals. How its deals chain — where each starts, with which context, how a
    result moves the standing, when the match ends and what the time cap means — is its game's `MatchRules`
    (domain/match.py); the aggregate only records what they decide."""

    TOPIC = "fupan:Match"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        TOPIC = "fupan:Match.Created"
        tournament_id: UUID
        table: str
        game: str
        options: dict[str, Any]
        seats: list[str]
        first: int
        start_chips: int | None  # None: the game keeps no chips (升级)
        recorded_by: dict[str, Any]

    class DealStarted(Event):
        TOPIC = "fupan:Match.DealStarted"
        deal_id: UUID
        number: int
        first: int
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.deals.append(
                {"number": self.number, "deal_id": self.deal_id, "first": self.first, "status": "live",
                 "scores": None, "chips": None, "standing": None}
            )

    class DealScored(Event):
        """v2 carries the standing after the deal (domain/match.py); `winner` is the side that won the match
        with this deal, if it did."""

        TOPIC = "fupan:Match.DealScored"
        class_version = 2
        deal_id: UUID
        number: int
        scores: list[int]
        chips: list[int] | None  # the standing's chips, for a chip game
        winner: int | None
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            # Before v2 only 斗地主 chip tables were scored: their standing is the chips.
            winner = state["winner"]
            state["standing"] = {"chips": state["chips"],
                                 "end": None if winner is None else {"winner": winner, "by": "chips"}}

        def apply(self, aggregate: Match) -> None:
            entry = aggregate.deals[self.number - 1]
            entry.update(status="finished", scores=self.scores, chips=self.chips, standing=self.standing)
            aggregate.standing = self.standing

    class ClockRecorded(Event):
        """A reading of the match clock (minutes played) by the referee; one at or past the game's time limit
        calls time, and the standing then says what the time cap decided."""

        TOPIC = "fupan:Match.ClockRecorded"
        minutes: int
        note: str
        time_up: bool
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.clock.append({"minutes": self.minutes, "note": self.note, "time_up": self.time_up,
                                    "after_deal": len(aggregate.deals)})
            aggregate.standing = self.standing

    class MisdealRecorded(Event):
        """A wrong number of cards found while dealing, by the seat that dealt: the deal is dealt again (no deal
        was recorded for it) and the game's match rules may count it against that seat's side (升级: §3.13,
        more than three disqualify the side)."""

        TOPIC = "fupan:Match.MisdealRecorded"
        seat: int
        note: str
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.misdeals.append({"seat": self.seat, "note": self.note, "before_deal": len(aggregate.deals) + 1})
            aggregate.standing = self.standing

    class Closed(Event):
        """The organiser ended the table before its own end rule did, for the reason given — e.g. a play-off
        table of extra deals once they have separated the tied players (S001 §2.6 [REC]), which no chip
        target ends. The standing's end is `{"winner": None, "by": "closed", "reason": …}`: the table's
        ranking (chips, then the declared tiebreaks) places its players."""

        TOPIC = "fupan:Match.Closed"
        reason: str
        standing: dict[str, Any]
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Match) -> None:
            aggregate.standing = self.standing

    class Ended(Event):
        """The match is over: the side that won (None: a draw), its seats, and why. The aggregate's own state
        follows from the standing recorded with the event before it; this one is for readers of the log."""

        TOPIC = "fupan:Match.Ended"
        winner: int | None
        winners: list[int]
        by: str
        time_up: bool
        recorded_by: dict[str, Any]

    def __init__(
        self, tournament_id: UUID, table: str, game: str, options: dict[str, Any], seats: list[str], first: int,
        start_chips: int | None, recorded_by: dict[str, Any],
    ):
        self.tournament_id = tournament_id
        self.table = table
        self.game = game
        self.options = options
        self.seats = seats
        self.first = first
        self.start_chips = start_chips
        self.standing: Standing = self.rules.start(options, len(seats))
        self.deals: list[dict[str, Any]] = []
        self.clock: list[dict[str, Any]] = []
        self.misdeals: list[dict[str, Any]] = []

    @classmethod
    def open(
        cls, tournament: Tournament, table: str, seats: list[str], first: int, options: dict[str, Any],
        recorded_by: dict[str, Any],
    ) -> Match:
        engine = get_engine(tournament.game)
        rules = get_table(engine.game)
        if len(seats) != engine.seat_count or len(set(seats)) != len(seats):
            raise IllegalAction(
                "bad_seats", f"{engine.name_en} needs {engine.seat_count} different players.",
                f"{engine.name_zh}需要 {engine.seat_count} 名不同的选手。", {"seats": seats},
            )
        unknown = [seat for seat in seats if seat not in tournament.players]
        if unknown:
            raise IllegalAction(
                "unknown_player", f"Not registered in this tournament: {listed(unknown)}.",
                f"未在本赛事登记的选手：{listed(unknown, 'zh')}。", {"players": unknown},
            )
        if not 0 <= first < engine.seat_count:
            raise IllegalAction("bad_setup", f"`first` must be a seat 0–{engine.seat_count - 1}.",
                                f"`first` 必须是座位 0–{engine.seat_count - 1}。", {"first": first})
        merged = {**tournament.options, **options}
        return cls._create(
            cls.Created, id=match_id(tournament.id, table), tournament_id=tournament.id, table=table,
            game=engine.game, options=engine.resolve_options(merged), seats=list(seats), first=first,
            start_chips=rules.start_chips, recorded_by=recorded_by,
        )

    @property
    def rules(self) -> MatchRules:
        return get_table(self.game)

    def check_same(self, other: Match) -> None:
        """Conflict unless `other` (a create of the same table) re-submits this one."""
        if (self.seats, self.first, self.options) != (other.seats, other.first, other.options):
            raise Conflict("already_exists", f"Table {self.table!r} already exists with other settings.",
                           f"桌 {self.table!r} 已存在且设置不同。", {"id": str(self.id)})

    @property
    def chips(self) -> list[int] | None:
        return self.standing.get("chips")

    @property
    def over(self) -> bool:
        return self.standing["end"] is not None

    @property
    def winner(self) -> int | None:
        """The side that won (a seat at a 斗地主 table, a team in 升级); None while live or for a draw."""
        return self.standing["end"]["winner"] if self.over else None

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else self.rules.side_seats(self.winner, len(self.seats))

    @property
    def time_limit(self) -> int | None:
        return self.rules.time_limit(self.options)

    @property
    def time_up(self) -> bool:
        return any(reading["time_up"] for reading in self.clock)

    @property
    def live_deal(self) -> dict[str, Any] | None:
        return self.deals[-1] if self.deals and self.deals[-1]["status"] == "live" else None

    def default_first(self, number: int) -> int:
        """The `first` seat of deal `number` (1-based), as the game's match rules place it."""
        return self.rules.first_seat(self.standing, self.first, number, len(self.seats))

    def next_context(self) -> dict[str, Any]:
        """The `context` the next deal is set up with (levels and dealer in 升级; nothing at a chip table)."""
        return self.rules.context(self.standing)

    def context_for_next_deal(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """The next deal's context, which comes from the match: a caller may repeat it, never choose another."""
        expected = self.next_context()
        if given is not None and given != expected:
            raise IllegalAction("context_from_match", "In a match the deal's context comes from the match "
                                f"(the levels and dealer so far): {expected}.",
                                f"对局中牌局的 context 由对局决定（目前的级数和庄家）：{expected}。",
                                {"expected": expected, "given": given})
        return expected

    def started_deal(self, number: int | None) -> int | None:
        """The number of an already-started deal that a create naming deal `number` re-submits, if it is one."""
        if number is None:
            return None
        if number > len(self.deals) + 1 or number < 1:
            raise IllegalAction("bad_deal_number", f"The next deal of this table is {len(self.deals) + 1}.",
                                f"本桌下一局是第 {len(self.deals) + 1} 局。", {"next": len(self.deals) + 1})
        return number if number <= len(self.deals) else None

    def _refuse_if_over(self) -> None:
        if self.over:
            raise IllegalAction(
                "match_over", "This table is over: no more deals, clock readings or misdeals.",
                "本桌比赛已结束，不能再开新局、记录比赛时间或发牌错误。",
                {"winner": self.winner, "standing": self.standing},
            )

    def _refuse_if_live(self, message: str, message_zh: str) -> None:
        live = self.live_deal
        if live is not None:
            raise IllegalAction("deal_in_progress", message.format(n=live["number"]),
                                message_zh.format(n=live["number"]), {"deal_id": str(live["deal_id"])})

    def check_next_deal(self) -> None:
        """IllegalAction unless a next deal may start now (the table is not over, no deal is in play)."""
        self._refuse_if_over()
        self._refuse_if_live("Deal {n} is still being played.", "第 {n} 局尚未结束。")

    def start_deal(self, deal: UUID, number: int, first: int, recorded_by: dict[str, Any]) -> None:
        self.check_next_deal()
        self.trigger_event(self.DealStarted, deal_id=deal, number=number, first=first, recorded_by=recorded_by)

    def score_deal(self, deal: UUID, number: int, result: dict[str, Any], recorded_by: dict[str, Any]) -> None:
        """Fold a finished deal's result into the standing; when time was called during it, apply the cap."""
        rules = self.rules
        standing = rules.after_deal(self.standing, self.options, result)
        if self.time_up:
            standing = rules.time_up(standing, self.options)
        end = standing["end"]
        self.trigger_event(self.DealScored, deal_id=deal, number=number, scores=list(result["scores"]),
                           chips=standing.get("chips"), winner=end["winner"] if end else None, standing=standing,
                           recorded_by=recorded_by)
        self._ended(recorded_by)

    def record_clock(self, minutes: int, note: str, recorded_by: dict[str, Any]) -> None:
        """Record a reading of the match clock. At or past the time limit time is called: with no deal in
        play the time cap decides now, else after the deal in play (MatchRules.time_up)."""
        self._refuse_if_over()
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
            raise IllegalAction("bad_clock", "`minutes` is the whole number of minutes played, ≥ 0.",
                                "`minutes` 是已进行的整数分钟数（≥ 0）。", {"minutes": minutes})
        last = self.clock[-1]["minutes"] if self.clock else 0
        if minutes < last:
            raise IllegalAction("clock_backwards", f"The clock read {last} minutes before; it cannot go back.",
                                f"上次记录的比赛时间是 {last} 分钟，时间不能倒退。", {"minutes": minutes, "last": last})
        limit = self.time_limit
        time_up = limit is not None and minutes >= limit
        standing = self.standing
        if time_up and self.live_deal is None:
            standing = self.rules.time_up(standing, self.options)
        self.trigger_event(self.ClockRecorded, minutes=minutes, note=note, time_up=time_up, standing=standing,
                           recorded_by=recorded_by)
        self._ended(recorded_by)

    def record_misdeal(self, seat: int, note: str, recorded_by: dict[str, Any]) -> None:
        """Record that `seat` misdealt (found while dealing, before the deal is recorded); it is dealt again."""
        self._refuse_if_over()
        self._refuse_if_live("The misdeal belongs before the deal: deal {n} is already being recorded.",
                             "发牌错误应在开局前记录：第 {n} 局已在记录中。")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise IllegalAction("bad_seat", f"`seat` must be a seat 0–{len(self.seats) - 1}.",
                                f"`seat` 必须是座位 0–{len(self.seats) - 1}。", {"seat": seat})
        standing = self.rules.misdeal(self.standing, seat, len(self.seats))
        self.trigger_event(self.MisdealRecorded, seat=seat, note=note, standing=standing, recorded_by=recorded_by)
        self._ended(recorded_by)

    def close(self, reason: str, recorded_by: dict[str, Any]) -> None:
        """End the table now (the organiser's decision, with its reason); never while a deal is in play."""
        self._refuse_if_over()
        self._refuse_if_live("Deal {n} is still being played: finish it first.", "第 {n} 局尚未结束，请先打完这一局。")
        reason = reason.strip()
        if not reason or len(reason) > 500:
            raise IllegalAction("bad_reason", "Say why the table ends (1–500 characters).",
                                "请写明结束本桌的理由（1–500 个字符）。", {"length": len(reason)})
        standing = {**self.standing, "end": {"winner": None, "by": "closed", "reason": reason}}
        self.trigger_event(self.Closed, reason=reason, standing=standing, recorded_by=recorded_by)
        self._ended(recorded_by)

    def _ended(self, recorded_by: dict[str, Any]) -> None:
        if self.over:
            self.trigger_event(self.Ended, winner=self.winner, winners=self.winners, by=self.standing["end"]["by"],
                               time_up=self.time_up, recorded_by=recorded_by)


# --- Deal ---------------------------------------------------------------------------------------------


class Deal(Aggregate):
    """One hand: its setup, every accepted action, the result, annotations — each event hash-chained.

    `_state` is the engine's state after the recorded actions. It is not an event field: it is rebuilt by
    applying the events, and on the write path the already-validated state is reused (see `record`).
    """

    TOPIC = "fupan:Deal"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        TOPIC = "fupan:Deal.Created"
        game: str
        options: dict[str, Any]
        seats: list[str]
        first: int
        hands: list[list[str]]
        kitty: list[str]
        context: dict[str, Any]
        match_id: UUID | None
        number: int | None
        seed_commitment: str | None
        sealed_seed: str | None  # kept out of the chain and out of every API answer until SeedRevealed
        meta: dict[str, Any]
        recorded_by: dict[str, Any]
        digest: str

    class ActionRecorded(Event):
        TOPIC = "fupan:Deal.ActionRecorded"
        action: dict[str, Any]
        recorded_by: dict[str, Any]
        digest: str

        def apply(self, aggregate: Deal) -> None:
            # The command already ran the engine on this very action object: don't do the work twice.
            if aggregate._validated is not self.action:
                aggregate.engine.apply_normalized(aggregate._state, self.action)
            aggregate._validated = None
            aggregate.actions.append(self.action)
            aggregate.digest = self.digest

    class Retracted(Event):
        """The recorder took back the action at index `at` of the deal's entries (domain/retraction.py)."""

        TOPIC = "fupan:Deal.Retracted"
        at: int
        reason: str
        recorded_by: dict[str, Any]
        digest: str

        def entry(self) -> dict[str, Any]:
            """The deal's entry it adds (the record's form)."""
            return {"type": RETRACT, "at": self.at, "reason": self.reason}

        def apply(self, aggregate: Deal) -> None:
            aggregate.actions.append(self.entry())
            aggregate._state = standing_state(aggregate.engine, aggregate.setup, aggregate.actions)
            aggregate.digest = self.digest

    class Finished(Event):
        TOPIC = "fupan:Deal.Finished"
        result: dict[str, Any]
        recorded_by: dict[str, Any]
        digest: str

        def apply(self, aggregate: Deal) -> None:
            aggregate.result = self.result
            aggregate.digest = self.digest
            # What a round's digest covers (domain/digests.py): the deal as it closed, whatever follows.
            aggregate.finished_at, aggregate.finished_digest = self.timestamp, self.digest

    class SeedRevealed(Event):
        TOPIC = "fupan:Deal.SeedRevealed"
        seed: str
        recorded_by: dict[str, Any]
        digest: str

        def apply(self, aggregate: Deal) -> None:
            aggregate.seed = self.seed
            aggregate.digest = self.digest

    class Annotated(Event):
        """An annotation as stored before glyphs and English text (read, no longer written): `at` is the index
        of the action it follows, so its step is at + 1. Commented replaced it rather than a class_version
        upcast, which would change the fields the hash chain covers."""

        TOPIC = "fupan:Deal.Annotated"
        at: int
        text: str
        author: str
        recorded_by: dict[str, Any]
        digest: str

        def note(self) -> dict[str, Any]:
            return {"step": self.at + 1, "glyph": "", "text": self.text, "text_en": "", "author": self.author}

        def apply(self, aggregate: Deal) -> None:
            aggregate.annotations.append(self.note())
            aggregate.digest = self.digest

    class Commented(Event):
        """A commentator's annotation at a step (domain/annotations.py): glyph, Chinese and English text."""

        TOPIC = "fupan:Deal.Commented"
        step: int
        glyph: str
        text: str
        text_en: str
        author: str
        recorded_by: dict[str, Any]
        digest: str

        def note(self) -> dict[str, Any]:
            return {"step": self.step, "glyph": self.glyph, "text": self.text, "text_en": self.text_en,
                    "author": self.author}

        def apply(self, aggregate: Deal) -> None:
            aggregate.annotations.append(self.note())
            aggregate.digest = self.digest

    def __init__(
        self, game: str, options: dict[str, Any], seats: list[str], first: int, hands: list[list[str]],
        kitty: list[str], context: dict[str, Any], match_id: UUID | None, number: int | None,
        seed_commitment: str | None, sealed_seed: str | None, meta: dict[str, Any], digest: str,
    ):
        self.setup = DealSetup(game, options, seats, first, hands, kitty, context)
        self.match_id = match_id
        self.number = number
        self.seed_commitment = seed_commitment
        self._sealed_seed = sealed_seed
        self.seed: str | None = None
        self.meta = meta
        self.digest = digest
        self.actions: list[Action] = []
        self.annotations: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self.finished_at: datetime | None = None
        self.finished_digest: str | None = None
        # A result-only deal (a score slip, domain/slips.py) has no cards, so no engine state: it is over.
        self._state = None if meta.get(RESULT_ONLY) else self.engine.new_deal(self.setup)
        self._validated: Action | None = None

    @classmethod
    def start(
        cls, deal: UUID, setup: DealSetup, *, match: UUID | None = None, number: int | None = None,
        seed: str | None = None, seed_commitment: str | None = None, meta: dict[str, Any] | None = None,
        recorded_by: dict[str, Any],
    ) -> Deal:
        """A new deal; IllegalAction (bad deck, bad options…) before any event exists."""
        engine = get_engine(setup.game)
        setup = dataclasses.replace(setup, options=engine.resolve_options(setup.options))
        engine.new_deal(setup)  # validates seats, first and the deck before the Created event exists
        fields: dict[str, Any] = {
            "game": engine.game, "options": setup.options, "seats": list(setup.seats), "first": setup.first,
            "hands": [list(hand) for hand in setup.hands], "kitty": list(setup.kitty),
            "context": dict(setup.context), "match_id": match, "number": number,
            "seed_commitment": seed_commitment, "sealed_seed": seed, "meta": dict(meta or {}),
            "recorded_by": recorded_by,
        }
        return cls._chained_create(deal, fields)

    @classmethod
    def _chained_create(cls, deal: UUID, fields: dict[str, Any]) -> Deal:
        timestamp = cls.Created.create_timestamp()
        digest = next_digest(GENESIS, digest_payload(cls.Created.TOPIC, deal, cls.INITIAL_VERSION, timestamp, fields))
        return cls._create(cls.Created, id=deal, timestamp=timestamp, digest=digest, **fields)

    @classmethod
    def from_slip(cls, deal: UUID, setup: DealSetup, facts: dict[str, Any], result: dict[str, Any], *,
                  match: UUID | None, number: int | None, recorded_by: dict[str, Any],
                  meta: dict[str, Any] | None = None) -> Deal:
        """A result-only deal: the score slip's checked facts and the result they score (domain/slips.py), no
        cards and no actions; created and finished at once."""
        fields: dict[str, Any] = {
            "game": setup.game, "options": setup.options, "seats": list(setup.seats), "first": setup.first,
            "hands": [], "kitty": [], "context": dict(setup.context), "match_id": match, "number": number,
            "seed_commitment": None, "sealed_seed": None, "meta": {**(meta or {}), RESULT_ONLY: True, "slip": facts},
            "recorded_by": recorded_by,
        }
        slip = cls._chained_create(deal, fields)
        slip._trigger_chained(cls.Finished, result=result, recorded_by=recorded_by)
        return slip

    @property
    def result_only(self) -> bool:
        return bool(self.meta.get(RESULT_ONLY))

    def _slip_has_no_cards(self) -> IllegalAction:
        return IllegalAction("result_only", "This deal was entered as a score slip: it has no cards to play.",
                             "该牌局是以成绩单录入的，没有可出的牌。", {"deal_id": str(self.id)})

    @property
    def engine(self) -> Engine:
        return get_engine(self.setup.game)

    def expect_version(self, expected: int | None) -> None:
        """Conflict if the caller's `expected` version (when given) is not the stored one."""
        if expected is not None and expected != self.version:
            raise Conflict("conflict", f"The deal is at version {self.version}, not {expected}; nothing was written.",
                           f"牌局当前版本为 {self.version}，不是 {expected}；本次未写入。",
                           {"expected_version": expected, "version": self.version})

    def check_same(self, hands: Any, kitty: Any, first: int | None, seed: str | None) -> None:
        """Conflict unless a create with these (optional) parts re-submits this deal."""
        if hands is None and first is not None:  # with a seed, `first` said where dealing started
            first = self.engine.first_actor(self.setup.hands, first)
        same = ((hands is None or [normalize_all(h) for h in hands] == self.setup.hands)
                and (kitty is None or normalize_all(kitty) == self.setup.kitty)
                and (first is None or first == self.setup.first)
                and (seed is None or seed_commitment(seed) == self.seed_commitment))
        if not same:
            raise Conflict("already_exists", "That deal already exists with a different setup.",
                           "该牌局已存在，且设置不同。", {"deal_id": str(self.id)})

    def outcome(self, declared: dict[str, Any] | None) -> dict[str, Any]:
        """The result a record of this deal states: IllegalAction unless it is over, as `declared` says."""
        return judge(self.engine, self._state, declared)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def status(self) -> dict[str, Any]:
        if self._state is None:
            return {"phase": "finished", "to_act": None, "finished": True, RESULT_ONLY: True}
        return self.engine.status(self._state)

    def state_copy(self) -> Any:
        """A copy of the engine's state after the recorded actions, for questions that must change nothing (the
        recording pad's choices and dry runs, domain/pad.py). A score slip's deal has none: refused."""
        if self._state is None:
            raise self._slip_has_no_cards()
        return copy.deepcopy(self._state)

    def _trigger_chained(self, event_class: type[Aggregate.Event], **fields: Any) -> None:
        timestamp = event_class.create_timestamp()
        payload = digest_payload(event_class.TOPIC, self.id, self.version + 1, timestamp, fields)
        self.trigger_event(event_class, timestamp=timestamp, digest=next_digest(self.digest, payload), **fields)

    def record(self, action: Action, recorded_by: dict[str, Any], *, normalized: bool = False) -> None:
        """Validate `action` with the engine, then record it; when it ends the deal, record the end too.
        `normalized`: the action is already in its stored form (an import normalises a record's actions first).

        An IllegalAction leaves the aggregate exactly as it was: the engine validates completely before it
        mutates, and no event has been triggered yet.
        """
        if self._state is None:
            raise self._slip_has_no_cards()
        engine = self.engine
        if normalized:
            normal = action
            engine.apply_normalized(self._state, normal)
        else:
            normal = engine.apply(self._state, action)
        self._validated = normal
        self._trigger_chained(self.ActionRecorded, action=normal, recorded_by=recorded_by)
        result = None if self.finished else engine.result(self._state)  # a foul after the end changes nothing
        if result is not None:
            self._trigger_chained(self.Finished, result=result, recorded_by=recorded_by)
            if self._sealed_seed is not None:
                self._trigger_chained(self.SeedRevealed, seed=self._sealed_seed, recorded_by=recorded_by)

    def retract(self, at: int, reason: str, recorded_by: dict[str, Any]) -> None:
        """Take back the last action still standing of a live deal, with the reason; the engine's state is
        then the one after the actions still standing (domain/retraction.py)."""
        entry = normalize_retraction({"at": at, "reason": reason})
        check_retraction(self.actions, entry["at"], self.finished)
        self._trigger_chained(self.Retracted, at=entry["at"], reason=entry["reason"], recorded_by=recorded_by)

    @classmethod
    def imported(cls, deal: UUID, setup: DealSetup, actions: list[Action], declared: dict[str, Any] | None,
                 meta: dict[str, Any], annotations: list[Any], recorded_by: dict[str, Any]) -> Deal:
        """A deal from a record (its setup and actions already normalised): every action through the engine,
        complete, with the declared result if it states one, then its annotations; IllegalAction names the
        first refused action by its index."""
        imported = cls.start(deal, setup, meta=meta, recorded_by=recorded_by)
        for index, action in enumerate(actions):
            try:
                if is_retraction(action):
                    imported.retract(action["at"], action["reason"], recorded_by)
                else:
                    imported.record(action, recorded_by, normalized=True)
            except IllegalAction as error:
                raise IllegalAction(error.code, error.message, error.message_zh,
                                    {**error.details, "action": index}) from None
        imported.outcome(declared)
        for note in annotations:
            imported.annotate(note, recorded_by)
        return imported

    def annotate(self, note: dict[str, Any], recorded_by: dict[str, Any]) -> None:
        """A comment at a step of the deal, 0 … the actions so far (domain/annotations.py checks it, or
        `bad_annotation`); allowed during and after the deal, never edited."""
        self._trigger_chained(self.Commented, **checked_annotation(note, len(self.actions)),
                              recorded_by=recorded_by)
