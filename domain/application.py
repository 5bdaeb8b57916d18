"""The application service: every command and query of fupan over the event store (DESIGN.md §4).

SQLite is the embedded default; the usual eventsourcing environment variables (PERSISTENCE_MODULE,
POSTGRES_*) select another store without code changes. Answers are plain JSON-ready dicts, so the HTTP layer
only validates shapes and serialises.

Errors: `IllegalAction` (the rules or the record format refuse), `NotFound` (no such aggregate) and
`Conflict` (a stale or concurrent write; idempotent creates that disagree with what exists). Each carries a
stable code and English + Chinese messages. Whatever raises, nothing has been written: each command ends in a
single `save()` of every aggregate it touched, which is one transaction.

Speed: commands change the cached aggregates in place instead of deep-copying them on every request (the
copy cost more than the SQLite write). That is safe because (1) one lock per application serialises the
commands and the reads of cached aggregates in this process, (2) refusals (IllegalAction, NotFound, Conflict
before saving) happen before any aggregate changes, and (3) when anything fails after a change — a stale
write, a bug — the touched aggregates are evicted, so the next request reloads them from the store. Other
processes' writes reach the cache through the library's fast-forward on every `get`.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
import secrets
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Concatenate, ParamSpec, TypeVar
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

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
from domain.engine import Action, DealSetup, Viewpoint
from domain.errors import IllegalAction
from domain.games import get_engine
from domain.integrity import canonical_json
from domain.record import build_record, check_record, parse_record

A = TypeVar("A", bound=Aggregate)
P = ParamSpec("P")
R = TypeVar("R")

_TOPIC_PREFIX = "fupan:"


class ServiceError(Exception):
    """A refusal that is not about the rules; the API maps each subclass to one HTTP status."""

    code = "error"

    def __init__(self, message: str, message_zh: str, details: dict[str, Any] | None = None, code: str = ""):
        super().__init__(message)
        self.code = code or type(self).code
        self.message = message
        self.message_zh = message_zh
        self.details = details or {}

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "message_zh": self.message_zh, "details": self.details}


class NotFound(ServiceError):
    code = "not_found"


class Conflict(ServiceError):
    code = "conflict"


def _incomplete_zh(code: str) -> str:
    return {"incomplete": "记录的动作在本局结束前就停止了。",
            "result_mismatch": "记录中的结果与规则计算的结果不一致。"}.get(code, "记录无效。")


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
    """Tournaments, matches (chip tables) and deals, event-sourced."""

    name = "Fupan"
    env = {  # the library reads this class attribute, overridden by os.environ and the env argument
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": "fupan.sqlite",
        # Hot aggregates stay in memory and are fast-forwarded from the store, so recording an action does
        # not re-read the whole deal; fast-forwarding keeps several server processes consistent.
        "AGGREGATE_CACHE_MAXSIZE": "4096",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",  # see "Speed" above
    }

    def __init__(self, env: dict[str, str] | None = None):
        super().__init__(env)
        self._lock = threading.RLock()
        self._depth = 0  # nesting of _command (public methods call each other)
        self._touched: list[Aggregate] = []

    @classmethod
    def for_sqlite(cls, path: str) -> FupanApplication:
        return cls(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)})

    # --- plumbing -------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _command(self) -> Iterator[None]:
        """Run a command under the lock; if it fails after changing aggregates, forget those aggregates."""
        with self._lock:
            self._depth += 1
            try:
                yield
            except (IllegalAction, ServiceError):
                raise  # refused before any aggregate changed (or already forgotten by _commit)
            except BaseException:
                self._forget(self._touched)
                raise
            finally:
                self._depth -= 1
                if not self._depth:
                    self._touched = []

    def _forget(self, aggregates: Iterable[Aggregate]) -> None:
        cache = self.repository.cache
        for aggregate in aggregates:
            if cache is not None:
                with contextlib.suppress(KeyError):
                    cache.get(aggregate.id, evict=True)

    def _get(self, kind: type[A], aggregate_id: UUID | str, label: str) -> A:
        """The cached aggregate itself (callers hold the lock)."""
        try:
            uid = aggregate_id if isinstance(aggregate_id, UUID) else UUID(str(aggregate_id))
            aggregate = self.repository.get(uid)
        except (ValueError, AggregateNotFoundError):
            aggregate = None
        if not isinstance(aggregate, kind):
            raise NotFound(f"No {label} with id {aggregate_id}.", f"找不到 id 为 {aggregate_id} 的{_ZH[label]}。",
                           {"id": str(aggregate_id), "kind": label})
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
            self.save(*aggregates)
        except IntegrityError:
            self._forget(aggregates)
            raise Conflict(
                "Someone else changed this at the same time; nothing was written. Reload and retry.",
                "同时有其他人修改了这一记录，本次未写入任何内容。请刷新后重试。",
            ) from None

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
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        """(tournament, created). The same create again returns the existing tournament."""
        key = key or name
        tournament = Tournament.open(key, name, game, options or {}, recorded_by)
        existing = self._exists(tournament.id)
        if existing is not None:
            if not isinstance(existing, Tournament) or (existing.name, existing.game, existing.options) != (
                tournament.name, tournament.game, tournament.options
            ):
                raise Conflict(f"A different tournament with key {key!r} exists.", f"已存在键为 {key!r} 的另一个赛事。",
                               {"id": str(tournament.id)}, code="already_exists")
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
            "matches": [{"id": str(m["id"]), "table": m["table"]} for m in t.matches],
            "version": t.version, "created_at": t.created_on.isoformat(),
        }

    # --- matches --------------------------------------------------------------------------------------

    @_serialised
    def create_match(
        self, tournament: UUID | str, table: str, seats: list[str], first: int = 0,
        options: dict[str, Any] | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        """(match, created): a chip table of the tournament, named by `table` (idempotent)."""
        t = self._get(Tournament, tournament, "tournament")
        match = Match.open(t, table, seats, first, options or {}, recorded_by)
        existing = self._exists(match.id)
        if existing is not None:
            if not isinstance(existing, Match) or (existing.seats, existing.first, existing.options) != (
                match.seats, match.first, match.options
            ):
                raise Conflict(f"Table {table!r} already exists with other settings.",
                               f"桌 {table!r} 已存在且设置不同。", {"id": str(match.id)}, code="already_exists")
            return self._match_dict(existing, t), False
        t.open_match(match.id, table, recorded_by)
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
            "first": m.first, "start_chips": m.start_chips, "chips": list(m.chips),
            "status": "over" if m.over else "live", "winner": m.winner,
            "current_deal": str(live["deal_id"]) if live else None,
            "deals": [
                {"number": d["number"], "deal_id": str(d["deal_id"]), "first": d["first"], "status": d["status"],
                 "scores": _copy(d["scores"]), "chips": _copy(d["chips"])}
                for d in m.deals
            ],
            "version": m.version,
        }

    # --- deals ----------------------------------------------------------------------------------------

    @_serialised
    def start_deal(
        self, *, match: UUID | str | None = None, number: int | None = None, first: int | None = None,
        hands: list[list[str]] | None = None, kitty: list[str] | None = None, seed: str | None = None,
        context: dict[str, Any] | None = None, game: str | None = None, options: dict[str, Any] | None = None,
        seats: list[str] | None = None, key: str | None = None, recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> tuple[dict[str, Any], bool]:
        """(deal, created). Explicit `hands` + `kitty`, or server-dealt from `seed` (generated if absent).

        In a match the seats, game and options come from the match and `first` defaults to the rotation.
        Outside a match `game` and `seats` are required. Re-submitting the same create returns the deal.
        """
        explicit = hands is not None
        if explicit != (kitty is not None):
            raise IllegalAction("bad_setup", "Give both `hands` and `kitty`, or neither (server-dealt).",
                                "`hands` 与 `kitty` 要么都给出，要么都不给（由服务器发牌）。")
        if explicit and seed is not None:
            raise IllegalAction("bad_setup", "Give either explicit hands or a seed, not both.",
                                "明确的手牌与种子只能二选一。")
        m: Match | None = None
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
                return self._deal_dict(deal), False
            number = len(m.deals) + 1
            first = m.default_first(number) if first is None else first
            deal_id = deal_id_in_match(m.id, number)
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
                    raise Conflict("That key is taken.", "该键已被占用。", {"key": key}, code="already_exists")
                self._check_same(existing, hands, kitty, first, seed)
                return self._deal_dict(existing), False
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
        setup = DealSetup(game, options or {}, list(seats), first,
                          [normalize_all(hand) for hand in hands], normalize_all(kitty), dict(context or {}))
        deal = Deal.start(deal_id, setup, match=m.id if m else None, number=number if m else None, seed=seed,
                          seed_commitment=commitment, recorded_by=recorded_by)
        if m is None:
            self._commit(deal)
        else:
            m.start_deal(deal.id, number, first, recorded_by)  # type: ignore[arg-type]
            self._commit(m, deal)
        return self._deal_dict(deal), True

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
        same = (
            (hands is None or [normalize_all(h) for h in hands] == deal.setup.hands)
            and (kitty is None or normalize_all(kitty) == deal.setup.kitty)
            and (first is None or first == deal.setup.first)
            and (seed is None or seed_commitment(seed) == deal.seed_commitment)
        )
        if not same:
            raise Conflict("That deal already exists with a different setup.", "该牌局已存在，且设置不同。",
                           {"deal_id": str(deal.id)}, code="already_exists")

    @_serialised
    def get_deal(self, deal: UUID | str) -> dict[str, Any]:
        return self._deal_dict(self._get(Deal, deal, "deal"))

    def list_deals(self) -> list[dict[str, Any]]:
        return [self.get_deal(uid) for uid in self._ids_by_topic(Deal.Created.TOPIC)]

    def list_match_deals(self, match: UUID | str) -> list[dict[str, Any]]:
        return [self.get_deal(d["deal_id"]) for d in self.get_match(match)["deals"]]

    @staticmethod
    def _deal_dict(d: Deal) -> dict[str, Any]:
        status = d.status()
        return {
            "id": str(d.id), "game": d.setup.game, "options": dict(d.setup.options), "seats": list(d.setup.seats),
            "first": d.setup.first, "context": copy.deepcopy(d.setup.context),
            "match_id": str(d.match_id) if d.match_id else None, "number": d.number,
            "status": status, "finished": d.finished, "actions": len(d.actions), "version": d.version,
            "result": copy.deepcopy(d.result), "digest": d.digest, "seed_commitment": d.seed_commitment,
            "seed": d.seed, "annotations": [dict(a) for a in d.annotations], "created_at": d.created_on.isoformat(),
        }

    @_serialised
    def record_action(
        self, deal: UUID | str, action: Action, expected_version: int | None = None,
        recorded_by: dict[str, Any] = LOCAL_RECORDER,
    ) -> dict[str, Any]:
        """Validate and store one action; the deal's end (result, seed, chips) is stored in the same save."""
        d = self._get(Deal, deal, "deal")
        self._expect(d, expected_version)
        d.record(action, recorded_by)
        answer: dict[str, Any] = {
            "deal_id": str(d.id), "version": d.version, "step": len(d.actions), "action": dict(d.actions[-1]),
            "status": d.status(), "finished": d.finished, "result": copy.deepcopy(d.result), "digest": d.digest,
        }
        if d.finished and d.match_id is not None:
            m = self._get(Match, d.match_id, "match")
            assert d.result is not None and d.number is not None
            m.score_deal(d.id, d.number, d.result["scores"], recorded_by)
            self._commit(d, m)
            answer["match"] = {"id": str(m.id), "chips": list(m.chips), "status": "over" if m.over else "live",
                               "winner": m.winner}
        else:
            self._commit(d)
        if d.seed is not None:
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
        setup, actions, _declared = parse_record(doc)
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
            return self._deal_dict(existing), False
        meta = dict(doc.get("meta") or {})
        if doc.get("digest"):
            meta["source_digest"] = doc["digest"]
        deal = Deal.start(deal_id, setup, meta=meta, recorded_by=recorded_by)
        for index, action in enumerate(normal):
            try:
                deal.record(action, recorded_by)
            except IllegalAction as error:
                raise IllegalAction(error.code, error.message, error.message_zh,
                                    {**error.details, "action": index}) from None
        report = check_record(doc)  # the single definition of "complete" and "result agrees"
        if not report["ok"]:
            raise IllegalAction(report["code"], report["message"], _incomplete_zh(report["code"]))
        for note in doc.get("annotations") or []:
            if not isinstance(note, dict):
                raise IllegalAction("bad_annotation", "Each annotation must be an object.", "每条注释必须是对象。")
            deal.annotate(note.get("at", -1), str(note.get("text", "")), str(note.get("author", "")), recorded_by)
        self._commit(deal)
        return self._deal_dict(deal), True

    @_serialised
    def export_record(self, deal: UUID | str) -> dict[str, Any]:
        """The deal as a `fupan.deal/1` document with meta, annotations and the closing digest."""
        d = self._get(Deal, deal, "deal")
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
        return copy.deepcopy(build_record(d.setup, list(d.actions), d.result, meta=meta,
                                          annotations=list(d.annotations), digest=d.digest))

    def export_match(self, match: UUID | str) -> list[dict[str, Any]]:
        return [self.export_record(entry["deal_id"]) for entry in self.get_match(match)["deals"]]

    # --- history, replay and integrity ----------------------------------------------------------------

    def _deal_events(self, deal: UUID | str) -> list[Any]:
        """The deal's stored events; read under the lock, processed (folded, verified) outside it."""
        with self._command():
            d = self._get(Deal, deal, "deal")  # also answers "not found" for ids of other kinds
            return list(self.events.get(d.id, lte=d.version))

    def deal_events(self, deal: UUID | str) -> list[dict[str, Any]]:
        """Every stored event of a deal: version, time, recorder, type, digest and payload."""
        out = []
        for event in self._deal_events(deal):
            payload = event_fields(event)
            recorder = payload.pop("recorded_by", None)
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

    def _replay_frames(self, deal: UUID | str, viewpoint: str, steps: range | None) -> dict[str, Any]:
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
            raise ServiceError(error.message, error.message_zh, error.details, code=error.code) from None
        if view_as.kind == "public" and closed:
            view_as = Viewpoint("referee")  # DESIGN §6: once a deal is closed its hands are public
        total = len(actions)
        wanted = steps if steps is not None else range(total + 1)
        if wanted and not (wanted[0] >= 0 and wanted[-1] <= total):
            raise ServiceError(f"`step` must be 0–{total}.", f"`step` 必须在 0–{total} 之间。",
                               {"total": total}, code="bad_step")
        state = engine.new_deal(setup)
        frames = []
        done = 0
        for step in wanted:
            while done < step:
                engine.apply(state, actions[done])
                done += 1
            view = engine.view(state, view_as)
            view["viewpoint"] = viewpoint
            frames.append({
                "step": step, "action": actions[step - 1] if step else None, "status": engine.status(state),
                "annotations": [a for a in annotations if a["at"] == step - 1], "view": view,
            })
        return {"deal_id": str(created.originator_id), "total": total, "viewpoint": viewpoint,
                "closed": closed, "frames": frames}

    def replay(self, deal: UUID | str, step: int | None = None, viewpoint: str = "referee") -> dict[str, Any]:
        """The table after `step` actions (default: the latest) as `viewpoint` may see it."""
        if step is None:
            with self._command():
                step = len(self._get(Deal, deal, "deal").actions)
        folded = self._replay_frames(deal, viewpoint, range(step, step + 1))
        frame = folded.pop("frames")[0]
        return {**folded, **frame}

    def replay_all(self, deal: UUID | str, viewpoint: str = "referee") -> dict[str, Any]:
        """Every step's view, 0 … total, for one viewpoint (what the replay viewer steps through)."""
        return self._replay_frames(deal, viewpoint, None)


_ZH = {"tournament": "赛事", "match": "对局", "deal": "牌局"}


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

