"""The Tournament aggregate: players and entries, rounds, tables opened, side events, withdrawals and
adjustments (never edits).

Every aggregate and every event class has an explicit, stable TOPIC, so stored events never depend on
Python module paths (DESIGN.md §4).
"""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate

from domain.games import get_engine, get_game
from domain.kernel.engine import PENALTY_LIMIT
from domain.kernel.errors import BadRequest, Conflict, IllegalAction, listed
from domain.model import entries as entries_text
from domain.model import side_events
from domain.model.ids import tournament_id

# "tables": a round of tables (knockout or Swiss, as the format says); "final": the last tables; "playoff":
# extra deals that only break ties of the rounds before it.
ROUND_KINDS = ("tables", "final", "playoff")


ADJUSTMENT_KINDS = ("penalty", "adjustment")


ENTRY_RULES = ("department_limit",)


# The public delay of a live deal (docs/SECURITY.md "Broadcast delay"): its kinds and the amounts each allows.
# 0 deals is no delay (the public follows each play at once, as before the delay existed); tricks are 升级's.
DELAY_LIMITS = {"deals": (0, 10), "tricks": (1, 24), "minutes": (1, 180)}
DEFAULT_DELAY = {"kind": "deals", "amount": 1}


def _entry_error(found: list[dict[str, Any]], at: str, at_zh: str, details: dict[str, Any], code: str, message: str,
                 message_zh: str, **more: Any) -> None:
    """One error of an entry batch, its place named in both languages (domain/model/entries.py)."""
    found.append({"code": code, "message": f"{at}: {message}", "message_zh": f"{at_zh}：{message_zh}", **details,
                  **more})


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
        """v2: the players on a bye in the round (a Swiss bye, the 挖坑 rules B11.9; a knockout bye goes on)."""

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

    class PairingOverridden(Event):
        """The organiser opened `round` with other tables or byes than the pairing rules proposed (a Swiss round:
        docs/pairing.md "The organiser's override"), for the reason given. `proposed` and the chosen `tables`
        (seats in seat order) and `byes` are player ids; `broken` the codes of the rules the override breaks, as
        the checker (projections/pairing.py check_override) named them. Recorded right after the round's
        RoundStarted, in the same transaction."""

        TOPIC = "fupan:Tournament.PairingOverridden"
        round: int
        proposed: dict[str, Any]  # {"tables": [[id, …], …], "byes": [id, …]}
        tables: list[list[str]]
        byes: list[str]
        broken: list[str]
        reason: str
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Tournament) -> None:
            for info in aggregate.rounds:
                if info["round"] == self.round:
                    info["override"] = {"reason": self.reason, "broken": list(self.broken)}

    class EntryRemoved(Event):
        """An entry taken off the list before round 1 (a typo, a double entry): its players are registered no more.
        A new fact, so a new event; a player who leaves once play started withdraws (`Withdrew`)."""

        TOPIC = "fupan:Tournament.EntryRemoved"
        name: str
        player_ids: list[str]
        reason: str
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Tournament) -> None:
            for pid in self.player_ids:
                aggregate.players.pop(pid, None)
                aggregate.entrants.pop(pid, None)

    class SideEventOpened(Event):
        """A results-only knockout side event of the tournament (seed 001: 五子棋, 跳棋;
        domain/model/side_events.py)."""

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

    class DelaySet(Event):
        """The organiser set the public delay of the tournament's live deals: `kind` one of DELAY_LIMITS, `amount`
        deals, tricks or minutes. Before any, a tournament's delay is DEFAULT_DELAY (one deal)."""

        TOPIC = "fupan:Tournament.DelaySet"
        kind: str
        amount: int
        recorded_by: dict[str, Any]

        def apply(self, aggregate: Tournament) -> None:
            aggregate.delay = {"kind": self.kind, "amount": self.amount}

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
        self.side_events: dict[str, dict[str, Any]] = {}  # key → declaration and results (domain/model/side_events.py)
        self.matches: list[dict[str, Any]] = []
        self.rounds: list[dict[str, Any]] = []
        self.delay: dict[str, Any] = dict(DEFAULT_DELAY)

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

    def override_pairing(self, proposed: dict[str, Any], tables: list[list[str]], byes: list[str], broken: list[str],
                         reason: str, recorded_by: dict[str, Any]) -> None:
        """Record that the round just started is not the proposed pairing, with the reason (the checker's refusals
        were made before: only its warnings, `broken`, are left)."""
        reason = reason.strip()
        if not reason or len(reason) > 500:
            raise IllegalAction("override_needs_reason", "Say why the pairing is changed (1–500 characters).",
                                "请写明调整编排的理由（1–500 个字符）。", {"length": len(reason)})
        self.trigger_event(self.PairingOverridden, round=self.current_round, proposed=proposed, tables=tables,
                           byes=byes, broken=broken, reason=reason, recorded_by=recorded_by)

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

    def register_entries(self, entries: list[dict[str, Any]], team_size: int, recorded_by: dict[str, Any],
                         errors: list[dict[str, Any]] = ()) -> list[dict[str, Any]]:
        """Register entries all-or-nothing: every one is checked (with the others of the batch) before any is
        recorded, and every error is reported at once (with `errors` the caller found reading the text), each with
        its line (domain/model/entries.py). Each is {name, department, members: [{id, name}], line?}: `team_size`
        members (the format's: 升级 pairs, 大怪路子 teams of three), none registered already or twice, at most
        `entry_rules.department_limit` entries of one department (seed 000: 每个部门最多报2个队; seed 002:
        每个部门工会最多报3名参赛选手)."""
        entries = [{"name": e["name"].strip(), "department": e["department"].strip(),
                    "members": [{"id": m["id"].strip(), "name": m["name"].strip()} for m in e["members"]],
                    **({"line": e["line"]} if "line" in e else {})}
                   for e in entries]
        size = team_size
        limit = self.entry_rules.get("department_limit")
        taken_names = {name for name in self.players.values()} | {e["name"] for e in self.entries()}
        taken_ids = set(self.players)
        per_department = Counter(e["department"] for e in self.entries() if e["department"])
        found: list[dict[str, Any]] = []
        for index, entry in enumerate(entries):
            name, department, members = entry["name"], entry["department"], entry["members"]
            line, at, at_zh = entries_text.where(entry, index)
            refuse = partial(_entry_error, found, at, at_zh, {"line": line, "entry": index, "name": name})
            if len(members) != size:
                refuse("wrong_team_size", f"{name} has {len(members)} players; an entry here has {size}.",
                       f"“{name}”有 {len(members)} 名选手；本赛事每个报名单位须为 {size} 人。",
                       members=len(members), team_size=size)
            names = [m["name"] for m in members] + ([name] if size > 1 else [])
            ids = [m["id"] for m in members]
            twice = sorted({n for n in names if n and (n in taken_names or names.count(n) > 1)}
                           | {i for i in ids if i and (i in taken_ids or ids.count(i) > 1)})
            if twice:
                refuse("duplicate_entry", f"already entered, or twice: {listed(twice)}.",
                       f"重复报名：{listed(twice, 'zh')}。", duplicates=twice)
            if not all(names) or not all(ids):
                refuse("duplicate_entry", "a name is empty.", "有名字为空。", duplicates=[])
            refused_already = any(error["entry"] == index for error in found)  # a duplicate takes no place
            if limit is not None and department and not refused_already and per_department[department] >= limit:
                refuse("department_limit", f"department {department} already has {limit} entries, the most allowed.",
                       f"部门“{department}”已报满 {limit} 个（每个部门最多报 {limit} 个）。",
                       department=department, limit=limit)
            taken_names.update(names)
            taken_ids.update(ids)
            if department and not any(error["entry"] == index for error in found):
                per_department[department] += 1
        if found:
            raise entries_text.refused([*errors, *found], IllegalAction)
        if errors:
            raise entries_text.refused(list(errors), BadRequest)
        for entry in entries:
            for member in entry["members"]:
                self.trigger_event(self.PlayerRegistered, player_id=member["id"], name=member["name"],
                                   recorded_by=recorded_by, entry=entry["name"] if size > 1 else "",
                                   department=entry["department"])
        return [{k: v for k, v in entry.items() if k != "line"} for entry in entries]

    def remove_entry(self, name: str, reason: str, recorded_by: dict[str, Any]) -> dict[str, Any]:
        """Take an entry (a player, or a pair / team with its members) off the list before round 1 is drawn — a
        typo, a double entry, a team that did not come. From round 1 on a player withdraws instead (`withdraw`)."""
        entry = next((e for e in self.entries() if e["name"] == name.strip()), None)
        if entry is None:
            raise IllegalAction("unknown_entry", f"No entry named {name.strip()} in this tournament.",
                                f"本赛事没有名为“{name.strip()}”的报名。", {"name": name.strip()})
        if self.rounds or self.matches:
            raise IllegalAction("entries_closed", "Round 1 has started: an entrant who leaves now withdraws.",
                                "第 1 轮已经开始：现在离开的选手请登记退赛。", {"name": entry["name"]})
        self.trigger_event(self.EntryRemoved, name=entry["name"], player_ids=[m["id"] for m in entry["members"]],
                           reason=reason.strip(), recorded_by=recorded_by)
        return entry

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
            raise IllegalAction("bad_adjustment", f"An adjustment's points are a non-zero whole number, at most "
                                f"{PENALTY_LIMIT} either way.", f"调整分必须是非零整数，绝对值不超过 {PENALTY_LIMIT}。",
                                {"points": repr(points), "limit": PENALTY_LIMIT})
        if not reason.strip():
            raise IllegalAction("bad_adjustment", "Say why: an adjustment needs a reason.", "调整必须写明理由。")
        number = self.current_round if round is None else round
        self.check_round(number)
        self.trigger_event(self.Adjusted, player_id=player_id, points=points, round=number, kind=kind,
                           reason=reason.strip(), refers_to=refers_to, recorded_by=recorded_by)
        return {"player_id": player_id, "points": points, "round": number, "kind": kind, "reason": reason.strip(),
                "refers_to": refers_to, "version": self.version}

    def set_delay(self, kind: object, amount: object, recorded_by: dict[str, Any]) -> dict[str, Any]:
        """Set the public delay (`DelaySet`); refused (`bad_delay`) outside DELAY_LIMITS or for a game the kind
        does not fit. The same delay again stores nothing."""
        if kind not in DELAY_LIMITS:
            raise IllegalAction("bad_delay", "The delay is counted in deals, tricks or minutes.",
                                "直播延迟的单位必须是局、墩或分钟。", {"kind": str(kind), "kinds": list(DELAY_LIMITS)})
        low, high = DELAY_LIMITS[str(kind)]
        unit, unit_zh = {"deals": ("deals", "局"), "tricks": ("tricks", "墩"),
                         "minutes": ("minutes", "分钟")}[str(kind)]
        if type(amount) is not int or not low <= amount <= high:
            raise IllegalAction("bad_delay", f"A delay in {unit} is a whole number from {low} to {high}.",
                                f"以{unit_zh}计的直播延迟必须是 {low} 到 {high} 之间的整数。",
                                {"kind": kind, "amount": repr(amount), "min": low, "max": high})
        if kind == "tricks" and not get_game(self.game).delay_in_tricks:
            raise IllegalAction("bad_delay", "A delay in tricks is for Shengji tournaments only.",
                                "以墩计的直播延迟只适用于升级赛事。", {"kind": kind, "game": self.game})
        if self.delay != {"kind": kind, "amount": amount}:
            self.trigger_event(self.DelaySet, kind=kind, amount=amount, recorded_by=recorded_by)
        return {"tournament_id": str(self.id), "delay": dict(self.delay), "version": self.version}
