"""The application service: every command and query of fupan over the event store (DESIGN.md §4).

SQLite is the embedded default; the usual eventsourcing environment variables (PERSISTENCE_MODULE,
POSTGRES_*) select another store without code changes. Answers are plain JSON-ready dicts, so the HTTP layer
only validates shapes and serialises.

Errors: every refusal is a `domain.errors.Refusal` (the rules refuse, no such aggregate, a stale write, a bad
or revoked token, hidden cards…), with a stable code and English + Chinese messages. Whatever raises, nothing
has been written: each command ends in a single `save()` of every aggregate it touched, one transaction.

Speed: commands change the cached aggregates in place instead of deep-copying them on every request (the
copy cost more than the SQLite write). That is safe because (1) one lock per application serialises the
commands and the reads of cached aggregates in this process, (2) refusals (IllegalAction, NotFound, Conflict
before saving) happen before any aggregate changes, and (3) when anything fails after a change — a stale
write, a bug — the touched aggregates are evicted, so the next request reloads them from the store.

Other processes' writes (the CLI revoking a token, a second server worker) reach the cache through the
notification log, which numbers every stored event of every aggregate in commit order: each command first
asks the store for the highest number (`_synchronise`, one indexed query). If it is the last one this process
has seen, nobody else wrote, and the cached aggregates are current; otherwise the cached aggregates named by
the notifications in between are evicted and reloaded on use. That replaces the library's fast-forward
(one query per aggregate per `get`), so a request that authenticates and records an action asks the store
once instead of twice before writing. Whatever slips past this (a write committed between the check and our
save) is still caught by the store's version constraint: the save fails, Conflict, nothing written.

Hidden information (DESIGN §6): every read that can carry hands takes a `reader` (a `Principal`), and it
defaults to the anonymous public, so a caller that forgets to say who is asking gets the public answer. While
a deal is not published (`published`), a reader without rights over its match sees only the `public`
viewpoint, the public form of each action, no annotations and no hands in events or exports.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import hashlib
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Concatenate, ParamSpec, TypeVar
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import ApplicationRecorder, DatabaseError, IntegrityError

from domain.aggregates import (
    LOCAL_RECORDER,
    Deal,
    Match,
    Tournament,
    deal_id_for_key,
    deal_id_in_match,
    event_fields,
    verify_chain,
)
from domain.cards import normalize_all
from domain.dealing import deal_from_seed, seed_commitment
from domain.engine import Action, DealSetup, Engine, Viewpoint
from domain.errors import BadRequest, Conflict, Hidden, IllegalAction, NotFound, Refusal, Unauthenticated
from domain.games import get_engine
from domain.integrity import canonical_json
from domain.record import build_record, judge, parse_record
from domain.tokens import PUBLIC, REFEREE, ROLES, AccessToken, Principal, format_token, parse_token

A = TypeVar("A", bound=Aggregate)
P = ParamSpec("P")
R = TypeVar("R")

_TOPIC_PREFIX = "fupan:"


def published(deal: Deal) -> bool:
    """Whether the whole record of a deal is public. For now a deal is published as soon as it is closed; an
    organiser's hold-back (a later event) would be checked here and nowhere else."""
    return deal.finished


def public_action(engine: Engine, action: Action) -> Action:
    """What everyone at the table sees of an action while the deal is live.

    An engine whose actions are all announced at the table says so with a `public_action` method; for any
    other engine only who acted and how is shown, so a hidden choice (升级's buried kitty) cannot leak from an
    engine that has not said what is public.
    """
    shown = getattr(engine, "public_action", None)
    if shown is not None:
        return shown(action)
    return {key: action[key] for key in ("seat", "type") if key in action}


def created_by_whoever_comes_first(create: Callable[[], R], attempts: int = 60, pause: float = 0.05,
                                   start_again: Callable[[], None] = lambda: None) -> R:
    """Run `create` (CREATE … IF NOT EXISTS) when other processes may run it at the same moment — several
    workers starting on a fresh store. SQLite then refuses the slower one with "database is locked" (its read
    snapshot went stale under the other's commit, or two connections deadlocked switching the new file to
    WAL), PostgreSQL with a unique violation in its catalogue or "tuple concurrently updated"; all mean that
    someone else is creating the same tables, so try again until they are there (a store that is really
    unreachable still fails, after `attempts` tries). `start_again` runs before each new try."""
    for attempt in range(attempts):
        try:
            return create()
        except (DatabaseError, sqlite3.OperationalError):
            # eventsourcing switches a new SQLite file to WAL outside its error translation, so that
            # "database is locked" arrives as the driver's own error.
            if attempt == attempts - 1:
                raise
            start_again()
            time.sleep(pause)
    raise AssertionError("unreachable")


def _serialised(
    method: Callable[Concatenate[FupanApplication, P], R],
) -> Callable[Concatenate[FupanApplication, P], R]:
    """Run a public method as one command: under the lock, forgetting what it changed if it fails."""

    @functools.wraps(method)
    def run(self: FupanApplication, *args: P.args, **kwargs: P.kwargs) -> R:
        with self._command():
            return method(self, *args, **kwargs)

    return run


class FupanApplication(Application):
    """Tournaments, matches (tables) and deals, event-sourced."""

    name = "Fupan"
    env = {  # the library reads this class attribute, overridden by os.environ and the env argument
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": "fupan.sqlite",
        # Hot aggregates stay in memory, so recording an action does not re-read the whole deal.
        "AGGREGATE_CACHE_MAXSIZE": "4096",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",  # see "Speed" above
        "AGGREGATE_CACHE_FASTFORWARD": "n",  # `_synchronise` keeps the cache current instead
    }

    def __init__(self, env: dict[str, str] | None = None):
        super().__init__(env)
        self._lock = threading.RLock()
        self._depth = 0  # nesting of _command (public methods call each other)
        self._touched: list[Aggregate] = []
        self._seen = self.recorder.max_notification_id() or 0  # the cache is empty: nothing to evict yet
        self._own: set[int] = set()  # notification ids of our own saves after `_seen` (their aggregates are current)

    def construct_recorder(self) -> ApplicationRecorder:
        def with_a_new_datastore() -> None:
            # A failed first connection can leave eventsourcing's connection pool holding its writer lock
            # (it is taken before the connection is made and not given back), so the next try would wait on it.
            self.factory.close()
            self.factory = self.construct_factory(self.env)

        # Creates the tables if missing.
        return created_by_whoever_comes_first(super().construct_recorder, start_again=with_a_new_datastore)

    @classmethod
    def for_sqlite(cls, path: str) -> FupanApplication:
        return cls(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})

    # --- plumbing -------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _command(self) -> Iterator[None]:
        """Run a command under the lock; if it fails after changing aggregates, forget those aggregates."""
        with self._lock:
            if not self._depth:
                self._synchronise()
            self._depth += 1
            try:
                yield
            except Refusal:
                raise  # refused before any aggregate changed (or already forgotten by _commit)
            except BaseException:
                self._forget(self._touched)
                raise
            finally:
                self._depth -= 1
                if not self._depth:
                    self._touched = []

    def _synchronise(self) -> None:
        """Evict the cached aggregates that others changed since this process last looked (see "Speed")."""
        latest = self.recorder.max_notification_id() or 0
        if latest == self._seen:
            return
        changed: set[UUID] = set()
        start = self._seen + 1
        while start <= latest:
            page = self.recorder.select_notifications(start, 1000, stop=latest)
            changed.update(n.originator_id for n in page if n.id not in self._own)
            if not page:
                break
            start = page[-1].id + 1
        self._evict(changed)
        self._seen = latest
        self._own = {n for n in self._own if n > latest}

    def _forget(self, aggregates: Iterable[Aggregate]) -> None:
        self._evict(aggregate.id for aggregate in aggregates)

    def _evict(self, aggregate_ids: Iterable[UUID]) -> None:
        cache = self.repository.cache
        if cache is not None:
            for aggregate_id in aggregate_ids:
                with contextlib.suppress(KeyError):
                    cache.get(aggregate_id, evict=True)

    def _get(self, kind: type[A], aggregate_id: UUID | str, label: str) -> A:
        """The cached aggregate itself (callers hold the lock)."""
        try:
            uid = aggregate_id if isinstance(aggregate_id, UUID) else UUID(str(aggregate_id))
            aggregate = self.repository.get(uid)
        except (ValueError, AggregateNotFoundError):
            aggregate = None
        if not isinstance(aggregate, kind):
            raise NotFound(
                "not_found",
                f"No {label} with id {aggregate_id}.",
                f"找不到 id 为 {aggregate_id} 的{_ZH[label]}。",
                {"id": str(aggregate_id), "kind": label},
            )
        self._touched.append(aggregate)
        return aggregate

    def _exists(self, aggregate_id: UUID) -> Aggregate | None:
        try:
            aggregate = self.repository.get(aggregate_id)
        except AggregateNotFoundError:
            return None
        self._touched.append(aggregate)
        return aggregate

    def _commit(self, *aggregates: Aggregate) -> None:
        try:
            recordings = self.save(*aggregates)
        except IntegrityError:
            self._forget(aggregates)
            raise Conflict(
                "conflict",
                "Someone else changed this at the same time; nothing was written. Reload and retry.",
                "同时有其他人修改了这一记录，本次未写入任何内容。请刷新后重试。",
            ) from None
        self._own.update(r.notification.id for r in recordings)
        while self._seen + 1 in self._own:  # our own writes, in order: the cache already holds their result
            self._seen += 1
            self._own.discard(self._seen)

    def _ids_by_topic(self, topic: str) -> Iterator[UUID]:
        start = 1
        while True:
            page = self.recorder.select_notifications(start, 500, topics=[topic])
            for notification in page:
                yield notification.originator_id
            if len(page) < 500:
                return
            start = page[-1].id + 1

    # --- tournaments and players ----------------------------------------------------------------------

    @_serialised
    def create_tournament(
        self, name: str, game: str, options: dict[str, Any] | None = None, key: str | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER, format: str = "", tiebreaks: list[str] | None = None,
        lots_seed: str | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """(tournament, created). The same create again returns the existing tournament.

        `format` and `tiebreaks` are declared here, before play starts (callers check the codes against
        projections/formats.py); lots are drawn from `lots_seed`, a fresh random one unless given.
        """
        key = key or name
        tournament = Tournament.open(key, name, game, options or {}, recorded_by, format, tiebreaks,
                                     secrets.token_hex(16) if lots_seed is None else lots_seed)
        existing = self._exists(tournament.id)
        if existing is not None:
            if not isinstance(existing, Tournament) or (
                existing.name, existing.game, existing.options, existing.format, existing.tiebreaks
            ) != (tournament.name, tournament.game, tournament.options, tournament.format, tournament.tiebreaks) or (
                lots_seed is not None and lots_seed != existing.lots_seed
            ):
                raise Conflict(
                    "already_exists",
                    f"A different tournament with key {key!r} exists.",
                    f"已存在键为 {key!r} 的另一个赛事。",
                    {"id": str(tournament.id)},
                )
            return self._tournament_dict(existing), False
        self._commit(tournament)
        return self._tournament_dict(tournament), True

    @_serialised
    def get_tournament(self, tournament: UUID | str) -> dict[str, Any]:
        return self._tournament_dict(self._get(Tournament, tournament, "tournament"))

    def list_tournaments(self) -> list[dict[str, Any]]:
        # Not one command: each item takes the lock on its own, so a long listing never blocks recording.
        return [self.get_tournament(uid) for uid in self._ids_by_topic(Tournament.Created.TOPIC)]

    @_serialised
    def register_player(
        self, tournament: UUID | str, name: str, player_id: str | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        aggregate = self._get(Tournament, tournament, "tournament")
        player_id = player_id or name
        created = aggregate.register_player(player_id, name, recorded_by)
        if created:
            self._commit(aggregate)
        return {"id": player_id, "name": name, "tournament_id": str(aggregate.id)}, created

    @_serialised
    def list_players(self, tournament: UUID | str) -> list[dict[str, Any]]:
        return self.get_tournament(tournament)["players"]

    @staticmethod
    def _tournament_dict(t: Tournament) -> dict[str, Any]:
        return {
            "id": str(t.id), "key": t.key, "name": t.name, "game": t.game, "options": dict(t.options),
            "players": [{"id": pid, "name": name} for pid, name in t.players.items()],
            "matches": [{"id": str(m["id"]), "table": m["table"], "round": m["round"]} for m in t.matches],
            "version": t.version, "created_at": t.created_on.isoformat(),
            "format": t.format, "tiebreaks": list(t.tiebreaks), "lots_seed": t.lots_seed,
            "rounds": [dict(r) for r in t.rounds], "current_round": t.current_round,
        }

    @_serialised
    def start_round(self, tournament: UUID | str, label: str = "", kind: str = "tables",
                    recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Start the tournament's next round; tables opened from now on belong to it."""
        t = self._get(Tournament, tournament, "tournament")
        started = t.start_round(label, kind, recorded_by)
        self._commit(t)
        return started

    @_serialised
    def adjust(
        self, tournament: UUID | str, player_id: str, points: int, reason: str, kind: str = "adjustment",
        round: int | None = None, refers_to: dict[str, Any] | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Record a penalty or manual adjustment of a player's total (in `round`, default the current one).

        `refers_to` = {"deal_id", "version"}: the recorded event a ruling concerns; it must exist.
        """
        t = self._get(Tournament, tournament, "tournament")
        if refers_to is not None:
            refers_to = self._event_reference(refers_to)
        adjustment = t.adjust(player_id, points, reason, kind, round, refers_to, recorded_by)
        self._commit(t)
        return {"tournament_id": str(t.id), **adjustment}

    def _event_reference(self, reference: dict[str, Any]) -> dict[str, Any]:
        deal_id, version = reference.get("deal_id"), reference.get("version")
        deal = None
        with contextlib.suppress(ValueError, TypeError):
            deal = self._exists(UUID(str(deal_id)))
        if not isinstance(deal, Deal) or isinstance(version, bool) or not isinstance(version, int) or not (
            1 <= version <= deal.version
        ):
            raise IllegalAction(
                "bad_reference",
                "`refers_to` must name a recorded deal event (deal_id, version).",
                "`refers_to` 必须指向已记录的牌局事件（deal_id, version）。",
                {"refers_to": reference},
            )
        return {"deal_id": str(deal.id), "version": version}

    # --- matches --------------------------------------------------------------------------------------

    @_serialised
    def create_match(
        self, tournament: UUID | str, table: str, seats: list[str], first: int = 0,
        options: dict[str, Any] | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER, round: int | None = None,
    ) -> tuple[dict[str, Any], bool]:
        """(match, created): a table of the tournament, named by `table` (idempotent), in `round` (default:
        the current round)."""
        t = self._get(Tournament, tournament, "tournament")
        match = Match.open(t, table, seats, first, options or {}, recorded_by)
        existing = self._exists(match.id)
        if existing is not None:
            if not isinstance(existing, Match) or (existing.seats, existing.first, existing.options) != (
                match.seats, match.first, match.options
            ):
                raise Conflict(
                    "already_exists",
                    f"Table {table!r} already exists with other settings.",
                    f"桌 {table!r} 已存在且设置不同。",
                    {"id": str(match.id)},
                )
            return self._match_dict(existing, t), False
        t.open_match(match.id, table, recorded_by, round)
        self._commit(t, match)
        return self._match_dict(match, t), True

    def list_matches(self, tournament: UUID | str) -> list[dict[str, Any]]:
        return [self.get_match(entry["id"]) for entry in self.get_tournament(tournament)["matches"]]

    @_serialised
    def get_match(self, match: UUID | str) -> dict[str, Any]:
        m = self._get(Match, match, "match")
        return self._match_dict(m, self._get(Tournament, m.tournament_id, "tournament"))

    @staticmethod
    def _match_dict(m: Match, t: Tournament) -> dict[str, Any]:
        live = m.live_deal
        return {
            "id": str(m.id), "tournament_id": str(m.tournament_id), "table": m.table, "game": m.game,
            "options": dict(m.options), "seats": list(m.seats), "seat_names": [t.players.get(s, s) for s in m.seats],
            "first": m.first, "start_chips": m.start_chips, "chips": _copy(m.chips),
            "standing": copy.deepcopy(m.standing), "next_context": None if m.over else m.next_context(),
            "status": "over" if m.over else "live", "winner": m.winner, "winners": m.winners,
            "ended_by": m.standing["end"]["by"] if m.over else None,
            "closed_because": m.standing["end"].get("reason") if m.over else None,
            "time_limit": m.time_limit, "time_up": m.time_up, "clock": [dict(reading) for reading in m.clock],
            "misdeals": [dict(misdeal) for misdeal in m.misdeals],
            "current_deal": str(live["deal_id"]) if live else None,
            "deals": [
                {"number": d["number"], "deal_id": str(d["deal_id"]), "first": d["first"], "status": d["status"],
                 "scores": _copy(d["scores"]), "chips": _copy(d["chips"]), "standing": copy.deepcopy(d["standing"])}
                for d in m.deals
            ],
            "version": m.version,
        }

    @_serialised
    def record_misdeal(self, match: UUID | str, seat: int, note: str = "",
                       recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Record a misdeal by `seat` before the deal is recorded; it is dealt again (Match.record_misdeal)."""
        m = self._get(Match, match, "match")
        m.record_misdeal(seat, note, recorded_by)
        self._commit(m)
        return self._match_dict(m, self._get(Tournament, m.tournament_id, "tournament"))

    @_serialised
    def close_match(self, match: UUID | str, reason: str, recorded_by: dict[str, Any] = LOCAL_RECORDER
                    ) -> dict[str, Any]:
        """End a table by the organiser's decision, with the reason (Match.close)."""
        m = self._get(Match, match, "match")
        m.close(reason, recorded_by)
        self._commit(m)
        return self._match_dict(m, self._get(Tournament, m.tournament_id, "tournament"))

    @_serialised
    def record_clock(self, match: UUID | str, minutes: int, note: str = "",
                     recorded_by: dict[str, Any] = LOCAL_RECORDER) -> dict[str, Any]:
        """Record the match clock (minutes played). A reading at or past the game's time limit calls time:
        the time cap then decides the match, at once or after the deal in play (domain/match.py)."""
        m = self._get(Match, match, "match")
        m.record_clock(minutes, note, recorded_by)
        self._commit(m)
        return self._match_dict(m, self._get(Tournament, m.tournament_id, "tournament"))

    # --- deals ----------------------------------------------------------------------------------------

    @_serialised
    def start_deal(
        self, *, match: UUID | str | None = None, number: int | None = None, first: int | None = None,
        hands: list[list[str]] | None = None, kitty: list[str] | None = None, seed: str | None = None,
        context: dict[str, Any] | None = None, game: str | None = None, options: dict[str, Any] | None = None,
        seats: list[str] | None = None, key: str | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        """(deal, created). Explicit `hands` + `kitty`, or server-dealt from `seed` (generated if absent).

        In a match the seats, game, options and context come from the match and `first` defaults to the seat
        its match rules name (the 斗地主 rotation, the 升级 dealer).
        Outside a match `game` and `seats` are required. Re-submitting the same create returns the deal.
        """
        explicit, first_given = hands is not None, first is not None
        if explicit != (kitty is not None):
            raise IllegalAction("bad_setup", "Give both `hands` and `kitty`, or neither (server-dealt).",
                                "`hands` 与 `kitty` 要么都给出，要么都不给（由服务器发牌）。")
        if explicit and seed is not None:
            raise IllegalAction("bad_setup", "Give either explicit hands or a seed, not both.",
                                "明确的手牌与种子只能二选一。")
        m: Match | None = None
        twin: Deal | None = None  # the same duplicate board, already dealt at another table of the round
        if match is not None:
            m = self._get(Match, match, "match")
            game, options, seats = m.game, m.options, list(m.seats)
            if number is None and m.live_deal is not None and hands is not None:
                # A re-submitted create of the live deal (same hands) is answered with that deal.
                live = self._get(Deal, m.live_deal["deal_id"], "deal")
                if [normalize_all(h) for h in hands] == live.setup.hands:
                    number = live.number
            existing_number = self._existing_match_deal(m, number)
            if existing_number is not None:
                deal = self._get(Deal, deal_id_in_match(m.id, existing_number), "deal")
                self._check_same(deal, hands, kitty, first, seed)
                return self._deal_dict(deal, full=True), False
            number = len(m.deals) + 1
            first = m.default_first(number) if first is None else first
            expected = m.next_context()
            if context is not None and context != expected:
                raise IllegalAction(
                    "context_from_match",
                    f"In a match the deal's context comes from the match (the levels and dealer so far): {expected}.",
                    f"对局中牌局的 context 由对局决定（目前的级数和庄家）：{expected}。",
                    {"expected": expected, "given": context},
                )
            context = expected
            deal_id = deal_id_in_match(m.id, number)
            twin = self._board_twin(m, number) if "board" in context else None
            if twin is not None and hands is None and seed is None:
                # Duplicate (挖坑 B1, B11.8): the board is dealt once; every table of the round gets its cards.
                hands, kitty, explicit = twin.setup.hands, twin.setup.kitty, True
        else:
            if game is None or seats is None:
                raise IllegalAction("bad_setup", "A deal outside a match needs `game` and `seats`.",
                                    "不属于任何对局的牌局需要 `game` 和 `seats`。")
            first = 0 if first is None else first
            if key is None:
                key = self._setup_key(game, options or {}, seats, first, hands, kitty, context or {}, seed)
            deal_id = deal_id_for_key(key)
            existing = self._exists(deal_id)
            if existing is not None:
                if not isinstance(existing, Deal):
                    raise Conflict("already_exists", "That key is taken.", "该键已被占用。", {"key": key})
                self._check_same(existing, hands, kitty, first, seed)
                return self._deal_dict(existing, full=True), False
        engine = get_engine(game)
        commitment: str | None = None
        if not explicit:
            seed = seed or secrets.token_hex(16)
            commitment = seed_commitment(seed)
            if not 0 <= first < engine.seat_count:
                raise IllegalAction("bad_setup", f"`first` must be a seat 0–{engine.seat_count - 1}.",
                                    f"`first` 必须是座位 0–{engine.seat_count - 1}。", {"first": first})
            hands, kitty = deal_from_seed(seed, engine, first)
        assert hands is not None and kitty is not None
        if not explicit or not first_given:
            # A game may name its first actor from the cards (挖坑: the lowest heart); `first` was where dealing
            # started. A seat the caller chose for explicit hands is kept, and refused by the engine if wrong.
            first = engine.first_actor(hands, first)
        setup = DealSetup(game, options or {}, list(seats), first,
                          [normalize_all(hand) for hand in hands], normalize_all(kitty), dict(context or {}))
        if twin is not None and (setup.hands, setup.kitty) != (twin.setup.hands, twin.setup.kitty):
            raise IllegalAction(
                "board_mismatch",
                f"Board {context['board']} was dealt differently at another table of this round: "
                "in duplicate every table plays the same cards in the same seats. Give the same hands or seed, or "
                "neither (the server then deals the board's cards).",
                f"本轮另一桌的第 {context['board']} 副牌与此不同：复式赛每桌同一方位须拿相同的牌。"
                "请给出相同的手牌或种子，或都不给（由服务器按该副牌发牌）。",
                {"board": context["board"], "deal_id": str(twin.id)},
            )
        deal = Deal.start(deal_id, setup, match=m.id if m else None, number=number if m else None, seed=seed,
                          seed_commitment=commitment, recorded_by=recorded_by)
        if m is None:
            self._commit(deal)
        else:
            m.start_deal(deal.id, number, first, recorded_by)  # type: ignore[arg-type]
            self._commit(m, deal)
        return self._deal_dict(deal, full=True), True

    def _board_twin(self, m: Match, number: int) -> Deal | None:
        """Deal `number` of another table in `m`'s round, if one has started: the same duplicate board."""
        tournament = self._get(Tournament, m.tournament_id, "tournament")
        rounds = {entry["id"]: entry["round"] for entry in tournament.matches}
        for other_id, other_round in rounds.items():
            if other_id != m.id and other_round == rounds.get(m.id):
                other = self._get(Match, other_id, "match")
                if len(other.deals) >= number:
                    return self._get(Deal, deal_id_in_match(other.id, number), "deal")
        return None

    @staticmethod
    def _existing_match_deal(m: Match, number: int | None) -> int | None:
        """The number of an already-started deal this request re-submits, if it is one."""
        if number is not None:
            if number > len(m.deals) + 1 or number < 1:
                raise IllegalAction("bad_deal_number", f"The next deal of this table is {len(m.deals) + 1}.",
                                    f"本桌下一局是第 {len(m.deals) + 1} 局。", {"next": len(m.deals) + 1})
            return number if number <= len(m.deals) else None
        return None

    @staticmethod
    def _setup_key(game: str, options: dict, seats: list, first: int, hands: Any, kitty: Any, context: dict,
                   seed: str | None) -> str:
        if hands is None and seed is None:
            return f"random:{uuid4()}"  # a fresh server seed: every request is a new deal
        content = {"game": game, "options": options, "seats": seats, "first": first, "hands": hands,
                   "kitty": kitty, "context": context,
                   "seed_commitment": seed_commitment(seed) if seed is not None else None}
        return "setup:" + hashlib.sha256(canonical_json(content).encode()).hexdigest()

    @staticmethod
    def _check_same(deal: Deal, hands: Any, kitty: Any, first: int | None, seed: str | None) -> None:
        if hands is None and first is not None:  # with a seed, `first` said where dealing started
            first = get_engine(deal.setup.game).first_actor(deal.setup.hands, first)
        same = (
            (hands is None or [normalize_all(h) for h in hands] == deal.setup.hands)
            and (kitty is None or normalize_all(kitty) == deal.setup.kitty)
            and (first is None or first == deal.setup.first)
            and (seed is None or seed_commitment(seed) == deal.seed_commitment)
        )
        if not same:
            raise Conflict(
                "already_exists",
                "That deal already exists with a different setup.",
                "该牌局已存在，且设置不同。",
                {"deal_id": str(deal.id)},
            )

    @_serialised
    def get_deal(self, deal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        d = self._get(Deal, deal, "deal")
        return self._deal_dict(d, full=self._may_see_all(published(d), d.match_id, reader))

    def list_deals(self, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        return [self.get_deal(uid, reader) for uid in self._ids_by_topic(Deal.Created.TOPIC)]

    def list_match_deals(self, match: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        return [self.get_deal(d["deal_id"], reader) for d in self.get_match(match)["deals"]]

    @_serialised
    def deal_match(self, deal: UUID | str) -> str | None:
        """The id of the match a deal belongs to (what a referee token's scope is checked against)."""
        d = self._get(Deal, deal, "deal")
        return str(d.match_id) if d.match_id is not None else None

    @staticmethod
    def _may_see_all(is_published: bool, match_id: UUID | None, reader: Principal) -> bool:
        """Hands, every viewpoint, hidden actions and annotations: for everyone once published, else only for
        readers with rights over the deal's match (DESIGN §6)."""
        return is_published or reader.sees_live_hands(match_id)

    @staticmethod
    def _deal_dict(d: Deal, *, full: bool) -> dict[str, Any]:
        """The deal's summary; `full=False` leaves out the annotations (a referee's note may name hidden cards)."""
        status = d.status()
        return {
            "id": str(d.id), "game": d.setup.game, "options": dict(d.setup.options), "seats": list(d.setup.seats),
            "first": d.setup.first, "context": copy.deepcopy(d.setup.context),
            "match_id": str(d.match_id) if d.match_id else None, "number": d.number,
            "status": status, "finished": d.finished, "actions": len(d.actions), "version": d.version,
            "result": copy.deepcopy(d.result), "digest": d.digest, "seed_commitment": d.seed_commitment,
            "seed": d.seed, "annotations": [dict(a) for a in d.annotations] if full else [],
            "created_at": d.created_on.isoformat(),
        }

    @_serialised
    def record_action(
        self, deal: UUID | str, action: Action, expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Validate and store one action; the deal's end (result, seed, the match's standing) is stored in the
        same save."""
        d = self._get(Deal, deal, "deal")
        self._expect(d, expected_version)
        was_finished = d.finished
        d.record(action, recorded_by)
        answer: dict[str, Any] = {
            "deal_id": str(d.id), "version": d.version, "step": len(d.actions), "action": dict(d.actions[-1]),
            "status": d.status(), "finished": d.finished, "result": copy.deepcopy(d.result), "digest": d.digest,
        }
        if d.finished and not was_finished and d.match_id is not None:
            m = self._get(Match, d.match_id, "match")
            assert d.result is not None and d.number is not None
            m.score_deal(d.id, d.number, d.result, recorded_by)
            self._commit(d, m)
            answer["match"] = {"id": str(m.id), "chips": _copy(m.chips), "standing": copy.deepcopy(m.standing),
                               "status": "over" if m.over else "live", "winner": m.winner, "winners": m.winners}
        else:
            self._commit(d)
        if d.seed is not None and not was_finished:
            answer["seed"] = d.seed
        return answer

    @_serialised
    def annotate(
        self, deal: UUID | str, at: int, text: str, author: str, expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        d = self._get(Deal, deal, "deal")
        self._expect(d, expected_version)
        d.annotate(at, text, author, recorded_by)
        self._commit(d)
        return {"deal_id": str(d.id), "version": d.version, "annotation": dict(d.annotations[-1]), "digest": d.digest}

    @staticmethod
    def _expect(d: Deal, expected_version: int | None) -> None:
        if expected_version is not None and expected_version != d.version:
            raise Conflict(
                "conflict",
                f"The deal is at version {d.version}, not {expected_version}; nothing was written.",
                f"牌局当前版本为 {d.version}，不是 {expected_version}；本次未写入。",
                {"expected_version": expected_version, "version": d.version},
            )

    # --- records: import and export -------------------------------------------------------------------

    @_serialised
    def import_record(self, doc: Any, recorded_by: dict[str, Any] = LOCAL_RECORDER) -> tuple[dict[str, Any], bool]:
        """Store one `fupan.deal/1` record as a deal, all or nothing; the same record again is a no-op.

        Accepts exactly what `fupan check` accepts: every action goes through the engine, and the deal must
        be complete with the declared result (if any) equal to the computed one.
        """
        setup, actions, declared = parse_record(doc)
        engine = get_engine(setup.game)
        setup = DealSetup(setup.game, setup.options, setup.seats, setup.first,
                          [normalize_all(h) for h in setup.hands], normalize_all(setup.kitty), setup.context)
        normal: list[Action] = []
        for index, action in enumerate(actions):
            try:
                normal.append(engine.normalize_action(action))
            except IllegalAction as error:
                raise IllegalAction(error.code, error.message, error.message_zh,
                                    {**error.details, "action": index}) from None
        content = {"setup": vars(setup), "actions": normal}
        deal_id = deal_id_for_key("record:" + hashlib.sha256(canonical_json(content).encode()).hexdigest())
        existing = self._exists(deal_id)
        if isinstance(existing, Deal):
            return self._deal_dict(existing, full=True), False
        meta = dict(doc.get("meta") or {})
        if doc.get("digest"):
            meta["source_digest"] = doc["digest"]
        deal = Deal.start(deal_id, setup, meta=meta, recorded_by=recorded_by)
        for index, action in enumerate(normal):
            try:
                deal.record(action, recorded_by, normalized=True)
            except IllegalAction as error:
                raise IllegalAction(error.code, error.message, error.message_zh,
                                    {**error.details, "action": index}) from None
        judge(engine, deal._state, declared)  # the single definition of "complete" and "result agrees"
        for note in doc.get("annotations") or []:
            if not isinstance(note, dict):
                raise IllegalAction("bad_annotation", "Each annotation must be an object.", "每条注释必须是对象。")
            deal.annotate(note.get("at", -1), str(note.get("text", "")), str(note.get("author", "")), recorded_by)
        self._commit(deal)
        return self._deal_dict(deal, full=True), True

    @_serialised
    def export_record(self, deal: UUID | str, reader: Principal = PUBLIC) -> dict[str, Any]:
        """The deal as a `fupan.deal/1` document with meta, annotations and the closing digest.

        A record holds every hand, so before the deal is published only readers with rights over it get one.
        """
        d = self._get(Deal, deal, "deal")
        if not self._may_see_all(published(d), d.match_id, reader):
            raise Hidden(
                "deal_not_published",
                "The deal is still being played; its record is published when it is closed.",
                "该牌局尚在进行中，结束后才公开记录。",
                {"deal_id": str(d.id)},
            )
        meta: dict[str, Any] = copy.deepcopy(d.meta)
        meta.update(deal_id=str(d.id), recorded_at=d.created_on.isoformat())
        if d.match_id is not None:
            m = self._get(Match, d.match_id, "match")
            meta.update(tournament_id=str(m.tournament_id), match_id=str(m.id), table=m.table, deal_number=d.number)
        if d.seed_commitment is not None:
            meta["seed_commitment"] = d.seed_commitment
            if d.seed is not None:
                meta["seed"] = d.seed
        # Deep copies: the aggregate is the cached object itself and callers may change what they get.
        setup = dataclasses.replace(d.setup, first=d.status().get("first", d.setup.first))
        return copy.deepcopy(build_record(setup, list(d.actions), d.result, meta=meta,
                                          annotations=list(d.annotations), digest=d.digest))

    def export_match(self, match: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """The records of the match's deals that `reader` may have: all of them, or the published ones."""
        m = self.get_match(match)
        every = reader.sees_live_hands(m["id"])
        return [self.export_record(entry["deal_id"], reader) for entry in m["deals"]
                if every or entry["status"] == "finished"]

    # --- history, replay and integrity ----------------------------------------------------------------

    def _deal_events(self, deal: UUID | str) -> list[Any]:
        """The deal's stored events; read under the lock, processed (folded, verified) outside it."""
        with self._command():
            d = self._get(Deal, deal, "deal")  # also answers "not found" for ids of other kinds
            return list(self.events.get(d.id, lte=d.version))

    def deal_events(self, deal: UUID | str, reader: Principal = PUBLIC) -> list[dict[str, Any]]:
        """Every stored event of a deal: version, time, recorder, type, digest and payload.

        Before the deal is published a reader without rights gets the public part of each payload: no hands
        or kitty (`Deal.Created`), the public form of actions, no annotation text; `withheld` names what is
        left out. The digests are all there (they reveal nothing about the hidden fields).
        """
        events = self._deal_events(deal)
        full = self._may_see_all(any(isinstance(e, Deal.Finished) for e in events), events[0].match_id, reader)
        engine = get_engine(events[0].game)
        out = []
        for event in events:
            payload = event_fields(event)
            recorder = payload.pop("recorded_by", None)
            if not full:
                payload = _public_payload(event, payload, engine)
            out.append({
                "version": event.originator_version, "time": event.timestamp.isoformat(),
                "type": type(event).TOPIC.removeprefix(_TOPIC_PREFIX), "recorded_by": recorder,
                "digest": event.digest, "payload": _plain(payload),
            })
        return out

    def verify_deal(self, deal: UUID | str) -> dict[str, Any]:
        """Recompute the hash chain from storage; name the first event that does not match."""
        events = self._deal_events(deal)
        bad = verify_chain(events)
        return {"deal_id": str(events[0].originator_id), "ok": bad is None, "first_bad_version": bad,
                "digest": events[-1].digest}

    def verify_chains(self) -> dict[str, Any]:
        """Every deal's hash chain recomputed from storage (`fupan verify`): the deals whose chain breaks, each
        with the version of its first event that does not match (or why it could not be read at all)."""
        checked, broken = 0, []
        for deal_id in self._ids_by_topic(Deal.Created.TOPIC):
            checked += 1
            try:
                bad = verify_chain(list(self.events.get(deal_id)))
            except Exception as error:  # a stored event that no longer decodes is as broken as a wrong digest
                broken.append({"deal_id": str(deal_id), "first_bad_version": None, "error": str(error)})
                continue
            if bad is not None:
                broken.append({"deal_id": str(deal_id), "first_bad_version": bad})
        return {"ok": not broken, "deals": checked, "broken": broken}

    def _replay_frames(self, deal: UUID | str, viewpoint: str, steps: range | None,
                       reader: Principal) -> dict[str, Any]:
        """Fold the deal's events through the engine once, taking the view after each requested step."""
        events = self._deal_events(deal)
        created = events[0]
        setup = DealSetup(created.game, created.options, created.seats, created.first, created.hands,
                          created.kitty, created.context)
        engine = get_engine(setup.game)
        actions = [e.action for e in events if isinstance(e, Deal.ActionRecorded)]
        annotations = [{"at": e.at, "text": e.text, "author": e.author}
                       for e in events if isinstance(e, Deal.Annotated)]
        closed = any(isinstance(e, Deal.Finished) for e in events)
        try:
            view_as = Viewpoint.parse(viewpoint, len(setup.seats))
        except IllegalAction as error:
            raise BadRequest(error.code, error.message, error.message_zh, error.details) from None
        full = self._may_see_all(closed, created.match_id, reader)
        if not full and view_as.kind != "public":
            raise Hidden(
                "hidden_view",
                "Seat and referee views of a live deal need a token with rights over its match.",
                "进行中牌局的座位视角和裁判视角需要有该对局权限的令牌。",
                {"deal_id": str(created.originator_id), "viewpoint": viewpoint},
            )
        if view_as.kind == "public" and closed:
            view_as = Viewpoint("referee")  # DESIGN §6: once a deal is closed (published) its hands are public
        total = len(actions)
        wanted = steps if steps is not None else range(total + 1)
        if wanted and not (wanted[0] >= 0 and wanted[-1] <= total):
            raise BadRequest(
                "bad_step", f"`step` must be 0–{total}.", f"`step` 必须在 0–{total} 之间。", {"total": total}
            )
        state = engine.new_deal(setup)
        frames = []
        done = 0
        for step in wanted:
            while done < step:
                engine.apply_normalized(state, actions[done])
                done += 1
            view = engine.view(state, view_as)
            view["viewpoint"] = viewpoint
            action = actions[step - 1] if step else None
            # A seat's viewpoint is what that seat could know: another seat's action in the form the table saw
            # it (a buried kitty as its size), even once the deal is published.
            whole = full and (view_as.kind == "referee" or (action is not None and action.get("seat") == view_as.seat))
            frames.append({
                "step": step, "action": action if whole or action is None else public_action(engine, action),
                "status": engine.status(state),
                "annotations": [a for a in annotations if a["at"] == step - 1] if full else [], "view": view,
            })
        return {"deal_id": str(created.originator_id), "total": total, "viewpoint": viewpoint,
                "closed": closed, "frames": frames}

    def replay(self, deal: UUID | str, step: int | None = None, viewpoint: str = "referee",
               reader: Principal = PUBLIC) -> dict[str, Any]:
        """The table after `step` actions (default: the latest) as `viewpoint` may see it.

        Forbidden (`hidden_view`) if `reader` may not take that viewpoint of this deal yet.
        """
        if step is None:
            with self._command():
                step = len(self._get(Deal, deal, "deal").actions)
        folded = self._replay_frames(deal, viewpoint, range(step, step + 1), reader)
        frame = folded.pop("frames")[0]
        return {**folded, **frame}

    def replay_all(self, deal: UUID | str, viewpoint: str = "referee", reader: Principal = PUBLIC) -> dict[str, Any]:
        """Every step's view, 0 … total, for one viewpoint (what the replay viewer steps through)."""
        return self._replay_frames(deal, viewpoint, None, reader)

    # --- access tokens (DESIGN §7; domain/tokens.py) --------------------------------------------------

    @_serialised
    def create_token(
        self, role: str, matches: Iterable[UUID | str] = (), label: str = "",
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], str]:
        """(token, bearer token): a new token; the bearer token (with its secret) is in no later answer."""
        if role not in ROLES:
            raise IllegalAction("bad_role", f"The role must be one of {list(ROLES)}.",
                                f"角色必须是 {list(ROLES)} 之一。", {"role": role})
        scope: set[str] = set()
        for match in matches:
            found = None
            with contextlib.suppress(ValueError):
                found = self._exists(match if isinstance(match, UUID) else UUID(str(match)))
            if not isinstance(found, Match):
                raise IllegalAction(
                    "unknown_match",
                    f"No match with id {match}.",
                    f"找不到 id 为 {match} 的对局。",
                    {"match_id": str(match)},
                )
            scope.add(str(found.id))
        if (role == REFEREE) != bool(scope):
            raise IllegalAction(
                "bad_scope",
                "A referee token names the matches it records; other roles are not scoped.",
                "裁判令牌必须指定其负责的对局；其他角色不按对局限定。",
                {"role": role, "matches": sorted(scope)},
            )
        if len(label) > 200:
            raise IllegalAction("bad_label", "The label is at most 200 characters.", "标签最多 200 个字符。")
        token, secret = AccessToken.issue(role, sorted(scope), label, recorded_by)
        self._commit(token)
        return self._token_dict(token), format_token(token.id, secret)

    @_serialised
    def get_token(self, token: UUID | str) -> dict[str, Any]:
        return self._token_dict(self._get(AccessToken, token, "token"))

    def list_tokens(self) -> list[dict[str, Any]]:
        return [self.get_token(uid) for uid in self._ids_by_topic(AccessToken.Created.TOPIC)]

    @_serialised
    def revoke_token(
        self, token: UUID | str, recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        """(token, revoked now). Revoking a revoked token changes nothing."""
        t = self._get(AccessToken, token, "token")
        changed = t.revoke(recorded_by)
        if changed:
            self._commit(t)
        return self._token_dict(t), changed

    @_serialised
    def authenticate(self, bearer: str) -> Principal:
        """The principal of a bearer token; Unauthenticated if it is malformed, unknown, wrong or revoked.

        A revocation by another process (the CLI, another worker) is seen by the next request: the command
        starts with `_synchronise`, which evicts the cached token when the notification log shows it changed.
        """
        parsed = parse_token(bearer)
        token = self._exists(parsed[0]) if parsed else None
        if parsed is None or not isinstance(token, AccessToken) or not token.matches_secret(parsed[1]):
            raise Unauthenticated("invalid_token", "The token is not valid.", "令牌无效。")
        if token.revoked:
            raise Unauthenticated("revoked_token", "This token has been revoked.", "该令牌已被吊销。")
        return token.principal()

    def has_active_token(self, role: str) -> bool:
        return any(t["role"] == role and not t["revoked"] for t in self.list_tokens())

    @staticmethod
    def _token_dict(t: AccessToken) -> dict[str, Any]:
        """A token as listed: never its secret, nor the secret's hash."""
        return {
            "id": str(t.id), "role": t.role, "matches": list(t.matches), "label": t.label,
            "created_at": t.created_on.isoformat(), "created_by": dict(t.created_by), "revoked": t.revoked,
            "revoked_at": t.revoked_at.isoformat() if t.revoked else None,
            "revoked_by": dict(t.revoked_by) if t.revoked_by else None,
        }


_ZH = {"tournament": "赛事", "match": "对局", "deal": "牌局", "token": "令牌"}


def _public_payload(event: Any, payload: dict[str, Any], engine: Engine) -> dict[str, Any]:
    """The part of a live deal's event payload that anyone may see."""
    hidden: tuple[str, ...] = ()
    if isinstance(event, Deal.Created):
        hidden = ("hands", "kitty")
    elif isinstance(event, Deal.Annotated):
        hidden = ("text", "author")
    elif isinstance(event, Deal.ActionRecorded):
        payload["action"] = public_action(engine, payload["action"])
        if payload["action"] != event.action:
            payload["withheld"] = ["action"]
    if hidden:
        payload = {key: value for key, value in payload.items() if key not in hidden}
        payload["withheld"] = list(hidden)
    return payload


def _copy(value: list[int] | None) -> list[int] | None:
    return None if value is None else list(value)


def _plain(value: Any) -> Any:
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value

