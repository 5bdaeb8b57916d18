"""/api/…/stream: live server-sent events of a deal, a table and a tournament (docs/streams.md).

A stream says what changed and its new version, never more than the caller may see: a deal's event is computed
by the deal API's and the replay API's own view functions for the caller (`Deals.get` and `Deals.replay`, which
decide through domain/services/visibility.py), so whatever they withhold — a viewpoint the caller may not take,
a hidden card, a foul's note, a delay — the stream withholds too. Pages fetch what they show through the
ordinary API when told; the stream only tells them when.

Each event's `id` is a cursor on the notification log (domain/store/log_watch.py): the notification id, or with K
deal databases the K + 1 of them joined by dots. A client that reconnects with `Last-Event-ID` gets every
change it missed. A client that does not accept `text/event-stream` gets the events up to now and the answer
ends (a poll in the same format). A stream ends by itself after `FUPAN_STREAM_SECONDS` (300 s; the browser
reconnects at once and resumes), so a revoked token stops streaming soon, and a caller's token is checked again
at every change anyway.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

from flask import Blueprint, Response, current_app, g, request, stream_with_context

from api import schemas as s
from api.auth import ANYONE, current_principal, requires
from api.common import doc, load_query, service
from domain.kernel.errors import Refusal, TooManyAttempts
from domain.model.token import Principal
from domain.store.log_watch import Change, Cursor, LogWatcher

streams = Blueprint("streams", __name__, url_prefix="/api")
log = logging.getLogger(__name__)

DEFAULT_SECONDS = 300.0  # a stream's life before the client reconnects (FUPAN_STREAM_SECONDS)
HEARTBEAT = 15.0  # a comment line this often keeps proxies from closing an idle stream (FUPAN_STREAM_HEARTBEAT)
RETRY_MS = 2000  # the browser's reconnection delay, sent as `retry:`
# Changes of a table or a tournament that can move the standings (the projections' topics, docs/ARCHITECTURE.md).
STANDINGS_TOPICS = ("Match.DealScored", "Match.DealCorrected", "Match.Ended", "Match.Closed", "Match.Reopened",
                    "Tournament.")


def watcher() -> LogWatcher:
    """This process's log watcher, started with the first stream (a server that streams nothing runs no thread)."""
    app = current_app
    with _CREATING:
        found = app.extensions.get("fupan.streams")
        if found is None:
            interval = float(app.config.get("FUPAN_STREAM_POLL", 0.02))
            found = app.extensions["fupan.streams"] = LogWatcher(service().store, interval=interval)
    return found


_CREATING = threading.Lock()


class Views:
    """What the view functions answered, shared by the streams of one process that ask the same (the same deal
    at the same version, viewpoint and caller): 500 spectators of one table cost one replay per change."""

    def __init__(self, size: int = 4096):
        self._answers: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._pending: dict[tuple[Any, ...], threading.Event] = {}  # asked and being computed: the others wait
        self._lock = threading.Lock()
        self.size = size

    def get(self, key: tuple[Any, ...], compute: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        if None in key:  # the state now (a stream's first event): never shared, it is stale at the next change
            return compute()
        with self._lock:
            found = self._answers.get(key)
            pending = self._pending.get(key) if found is None else None
            mine = found is None and pending is None
            if mine:
                self._pending[key] = threading.Event()
        if found is not None:
            return found
        if not mine:
            assert pending is not None
            pending.wait(30)
            with self._lock:
                found = self._answers.get(key)
            return found if found is not None else compute()  # the first asker failed: this one asks itself
        try:
            found = compute()
            with self._lock:
                if len(self._answers) >= self.size:
                    self._answers.clear()
                self._answers[key] = found
            return found
        finally:
            with self._lock:
                self._pending.pop(key).set()


def views() -> Views:
    with _CREATING:
        return current_app.extensions.setdefault("fupan.stream_views", Views())


def deal_event(deal_id: str, version: int | str | None, viewpoint: str, reader: Principal) -> dict[str, Any]:
    """A `deal` event: the deal's version and the caller's latest frame of the replay API — its step, total,
    whether closed, and that step's action as the caller may see it (the public form; none at step 0)."""

    def compute() -> dict[str, Any]:
        fupan = service()
        summary = fupan.deals.get(deal_id, reader)
        if summary["result_only"]:  # a score slip (成绩单): a result, no steps to replay
            return {"deal_id": summary["id"], "version": summary["version"], "step": 0, "total": 0,
                    "closed": summary["finished"], "action": None}
        frame = fupan.deals.replay(deal_id, None, viewpoint, reader)
        return {"deal_id": summary["id"], "version": summary["version"], "step": frame["step"],
                "total": frame["total"], "closed": frame["closed"], "action": frame["action"]}

    return views().get(("deal", deal_id, version, viewpoint, reader), compute)


def table_event(match_id: str, version: int | str | None) -> dict[str, Any]:
    """A `table` event: the table's version, its deals' count, the deal in play and whether it is over (the
    table API's answer, public)."""

    def compute() -> dict[str, Any]:
        m = service().tables.get(match_id)
        live = m.get("current_deal")
        return {"match_id": m["id"], "version": m["version"], "deals": len(m["deals"]),
                "current_deal": live if isinstance(live, str) or live is None else live.get("deal_id"),
                "deal_ids": [d["deal_id"] for d in m["deals"]], "status": m["status"]}

    return views().get(("table", match_id, version), compute)


def tournament_event(tournament_id: str, version: int | str | None) -> dict[str, Any]:
    def compute() -> dict[str, Any]:
        t = service().tournaments.get(tournament_id)
        return {"tournament_id": t["id"], "version": t["version"], "tables": [m["id"] for m in t["matches"]]}

    return views().get(("tournament", tournament_id, version), compute)


def frame(name: str, data: dict[str, Any], cursor: str) -> str:
    return f"id: {cursor}\nevent: {name}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


class Stream:
    """One open stream: the aggregates it follows and the events a batch of their changes makes."""

    def __init__(self, reader: Principal, viewpoint: str):
        self.reader = reader
        self.viewpoint = viewpoint
        self.versions: dict[UUID, int] = {}  # the last version each followed aggregate was told at
        self.told: dict[str, dict[str, Any]] = {}  # the last `deal` event sent of each deal

    def aggregates(self) -> set[UUID]:
        raise NotImplementedError

    def snapshot(self, at: str) -> list[tuple[str, dict[str, Any]]]:
        """The state now, the log read up to `at` (streams opened at the same position share these answers)."""
        raise NotImplementedError

    def events(self, changes: list[Change]) -> list[tuple[str, dict[str, Any]]]:
        raise NotImplementedError

    def deal(self, deal_id: str, version: int | str | None) -> tuple[str, dict[str, Any]]:
        """A `deal` event of `deal_id` at `version` (None: now), kept as the last told of that deal."""
        self.told[deal_id] = event = deal_event(deal_id, version, self.viewpoint, self.reader)
        return "deal", event

    def live_deal(self) -> str | None:
        """The deal whose frame time alone can move on (`released`): none by default."""
        return None

    def released(self, tick: str) -> list[tuple[str, dict[str, Any]]]:
        """What time alone released since the last event, asked at each quiet heartbeat (`tick` names it, so the
        streams asking at the same one share the answer): under a minutes delay (docs/SECURITY.md §4b) the public's
        frame moves on with no new change — a deal's last plays, once nobody records any more. Seats and
        referees see no delay."""
        deal_id = self.live_deal()
        last = self.told.get(deal_id) if deal_id else None
        if self.viewpoint != "public" or deal_id is None or last is None or last["closed"]:
            return []
        now = deal_event(deal_id, tick, self.viewpoint, self.reader)
        if (now["step"], now["total"], now["closed"]) == (last["step"], last["total"], last["closed"]):
            return []
        self.told[deal_id] = now
        return [("deal", now)]

    @staticmethod
    def latest(changes: list[Change]) -> dict[UUID, Change]:
        """Each aggregate's last change of the batch (one event says where it is now)."""
        return {change.aggregate: change for change in changes}


class DealStream(Stream):
    def __init__(self, deal_id: UUID, reader: Principal, viewpoint: str):
        super().__init__(reader, viewpoint)
        self.deal_id = deal_id

    def aggregates(self) -> set[UUID]:
        return {self.deal_id}

    def snapshot(self, at: str) -> list[tuple[str, dict[str, Any]]]:
        return [self.deal(str(self.deal_id), at)]

    def events(self, changes: list[Change]) -> list[tuple[str, dict[str, Any]]]:
        return [self.deal(str(c.aggregate), c.version) for c in self.latest(changes).values()]

    def live_deal(self) -> str | None:
        return str(self.deal_id)


class TableStream(Stream):
    """A table and its deals: a `table` event when the table changes (a deal started or scored, a clock
    reading …), a `deal` event when one of its deals does."""

    def __init__(self, match_id: UUID, reader: Principal, viewpoint: str):
        super().__init__(reader, viewpoint)
        self.match_id = match_id
        self.table = table_event(str(match_id), None)

    def aggregates(self) -> set[UUID]:
        return {self.match_id, *(UUID(d) for d in self.table["deal_ids"])}

    def snapshot(self, at: str) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = [("table", self.table)]
        if self.table["current_deal"]:
            out.append(self.deal(self.table["current_deal"], at))
        return out

    def live_deal(self) -> str | None:
        return self.table["current_deal"]

    def events(self, changes: list[Change]) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        latest = self.latest(changes)
        table = latest.pop(self.match_id, None)
        if table is not None:
            self.table = table_event(str(self.match_id), table.version)
            out.append(("table", self.table))
        out += [self.deal(str(c.aggregate), c.version) for c in latest.values()]
        return out


class TournamentStream(Stream):
    """A tournament: `tournament` when it changes (a round, an entry, a table opened), `table` when one of its
    tables does, `standings` when a change can move the standings (then read GET …/standings)."""

    def __init__(self, tournament_id: UUID, reader: Principal):
        super().__init__(reader, "public")
        self.tournament_id = tournament_id
        self.tournament = tournament_event(str(tournament_id), None)

    def aggregates(self) -> set[UUID]:
        return {self.tournament_id, *(UUID(m) for m in self.tournament["tables"])}

    def snapshot(self, at: str) -> list[tuple[str, dict[str, Any]]]:
        return [("tournament", self.tournament)]

    def events(self, changes: list[Change]) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        latest = self.latest(changes)
        mine = latest.pop(self.tournament_id, None)
        if mine is not None:
            self.tournament = tournament_event(str(self.tournament_id), mine.version)
            out.append(("tournament", self.tournament))
        out += [("table", table_event(str(c.aggregate), c.version)) for c in latest.values()]
        if any(any(topic in c.topic for topic in STANDINGS_TOPICS) for c in changes):
            out.append(("standings", {"tournament_id": str(self.tournament_id)}))
        return out


def places() -> threading.BoundedSemaphore:
    """How many streams this process holds open at once (`FUPAN_STREAMS_MAX`; `fupan serve --streams`, since
    waitress gives each a thread; 1,000 a gevent worker otherwise): past it a stream is refused with 429 and the
    page polls instead, so streams never take the threads that answer everything else."""
    with _CREATING:
        found = current_app.extensions.get("fupan.stream_places")
        if found is None:
            found = threading.BoundedSemaphore(int(current_app.config.get("FUPAN_STREAMS_MAX", 1000)))
            current_app.extensions["fupan.stream_places"] = found
    return found


def serve(stream: Stream) -> Response:
    """The stream as `text/event-stream`: the state now (or, with `Last-Event-ID`, every change since), then each
    change as it is stored, until the stream's life ends or the client goes."""
    watch = watcher()
    live = "text/event-stream" in request.headers.get("Accept", "")
    place = places()
    if live and not place.acquire(blocking=False):
        g.fupan_retry_after = RETRY_MS // 1000 * 5
        raise TooManyAttempts("too_many_streams", "This server holds as many live streams as it may; poll instead, "
                              "or try again later.", "本服务器的实时推送连接已满，请改用轮询或稍后再试。")
    resumed = watch.parse(request.headers.get("Last-Event-ID"))
    seconds = float(current_app.config.get("FUPAN_STREAM_SECONDS", DEFAULT_SECONDS))
    heartbeat = float(current_app.config.get("FUPAN_STREAM_HEARTBEAT", HEARTBEAT))
    secret = _bearer()
    # The caller's token is followed too: revoked, it is a change, and the check below ends the stream at once.
    token = UUID(stream.reader.token_id) if secret is not None and stream.reader.token_id else None
    interest = watch.follow(stream.aggregates() | ({token} if token else set()))

    def closed() -> None:  # however the stream ends: the client gone, its life over, or never started
        watch.leave(interest)
        if live:
            place.release()

    try:
        watch.catch_up()
        cursor: Cursor = resumed or watch.cursor()
        first = stream.snapshot("at " + watch.text(cursor)) if resumed is None else []
    except BaseException:
        closed()
        raise

    def run() -> Iterator[str]:
        nonlocal cursor
        try:
            yield f"retry: {RETRY_MS}\n\n"
            for name, data in first:
                yield frame(name, data, watch.text(cursor))
            ends = time.monotonic() + seconds
            while True:
                interest.woken.clear()  # before reading: a change stored meanwhile wakes the wait below
                changes, now = watch.changes(cursor, interest.aggregates)
                if changes and secret is not None:
                    service().tokens.authenticate(secret)  # revoked meanwhile: the stream ends here
                changes = [change for change in changes if change.aggregate != token]
                if changes:
                    before = stream.aggregates()
                    events = stream.events(changes)
                    grown = stream.aggregates() - before  # a table's new deal, a tournament's new table …
                    if grown:
                        watch.widen(interest, grown)
                        more, _ = watch.changes(cursor, grown)  # … stored with the change that named it
                        events += stream.events([c for c in more if c.id <= now[c.log]])
                    for name, data in events:
                        yield frame(name, data, watch.text(now))
                cursor = now
                left = ends - time.monotonic()
                if not live or left <= 0 or watch.closed:
                    return
                if not interest.woken.wait(min(heartbeat, left)):
                    released = stream.released(f"tick {time.time() // heartbeat:.0f}")
                    for name, data in released:
                        yield frame(name, data, watch.text(cursor))
                    if not released:
                        yield ": keep-alive\n\n"
        except Refusal:
            return  # the token was revoked, or what the stream follows went away: the client sees the end
        except Exception:
            log.exception("streams: a stream failed; its client reconnects and resumes")
            return

    response = Response(stream_with_context(run()), mimetype="text/event-stream")
    response.call_on_close(closed)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a reverse proxy must pass each event on at once
    return response


def _bearer() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


STREAM_QUERY = s.StreamQuerySchema()


def _viewpoint() -> str:
    return load_query(STREAM_QUERY)["viewpoint"]


def _uuid(text: str, label: str) -> UUID:
    try:
        return UUID(text)
    except ValueError:
        from domain.kernel.errors import NotFound

        raise NotFound("not_found", f"No {label} with id {text}.", f"找不到 id 为 {text} 的{label}。",
                       {"id": text, "kind": label}) from None


_STREAM_DOC = ("Server-sent events (docs/streams.md): `Last-Event-ID` resumes; without `Accept: text/event-stream` "
               "the events up to now, then the answer ends")


@streams.get("/deals/<deal_id>/stream")
@requires(ANYONE)
@doc("A deal's live stream: a `deal` event per change, as the caller may see it (`viewpoint`, as the replay "
     "API's). " + _STREAM_DOC, query=STREAM_QUERY, errors=(400, 401, 403, 404), content_type="text/event-stream")
def deal_stream(deal_id: str) -> Response:
    uid = _uuid(deal_id, "deal")
    viewpoint = _viewpoint()
    deal_event(str(uid), None, viewpoint, current_principal())  # 404, or 401/403 for a viewpoint not the caller's
    return serve(DealStream(uid, current_principal(), viewpoint))


@streams.get("/matches/<match_id>/stream")
@requires(ANYONE)
@doc("A table's live stream: `table` when the table changes, `deal` when one of its deals does (`viewpoint` for "
     "them). " + _STREAM_DOC, query=STREAM_QUERY, errors=(400, 401, 403, 404),
     content_type="text/event-stream")
def table_stream(match_id: str) -> Response:
    uid = _uuid(match_id, "match")
    viewpoint = _viewpoint()
    stream = TableStream(uid, current_principal(), viewpoint)
    if viewpoint != "public" and stream.table["current_deal"]:
        deal_event(stream.table["current_deal"], None, viewpoint, current_principal())  # the viewpoint's rights
    return serve(stream)


@streams.get("/tournaments/<tournament_id>/stream")
@requires(ANYONE)
@doc("A tournament's live stream: `tournament`, `table` and `standings` events. " + _STREAM_DOC,
     errors=(404,), content_type="text/event-stream")
def tournament_stream(tournament_id: str) -> Response:
    return serve(TournamentStream(_uuid(tournament_id, "tournament"), current_principal()))
