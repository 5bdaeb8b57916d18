"""What the API and the CLI ask of the projections: standings (now, as of a round or a point of the log),
explanations down to single events, previews of an adjustment, rebuild and verify.

Every read first catches the read model up with the log, so an answer reflects every event stored before
the request; `as_of` in each answer is the notification id it reflects.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID, uuid4

from domain.kernel.errors import BadRequest, IllegalAction, NotFound
from domain.model.deal import Deal
from domain.model.tournament import ADJUSTMENT_KINDS, adjustable
from domain.records.slips import RESULT_ONLY
from domain.services.fupan import Fupan
from domain.store.chained_application import created_by_whoever_comes_first
from projections.follower import Follower
from projections.pairing import export_history
from projections.standings import Standings
from projections.standings_values import TournamentFacts
from projections.store import TABLES, PollerLease, ViewStore

log = logging.getLogger(__name__)

# Rebuild and verify replay in bigger pages than live following: fewer recomputations of the same standings.
REPLAY_PAGE = 5000


def _tournament_key(tournament_id: str) -> str:
    try:
        return str(UUID(str(tournament_id)))
    except ValueError:
        raise NotFound(
            "not_found",
            f"No tournament with id {tournament_id}.",
            f"找不到 id 为 {tournament_id} 的赛事。",
            {"id": str(tournament_id), "kind": "tournament"},
        ) from None


def _bad_query(message: str, message_zh: str, details: dict[str, Any]) -> BadRequest:
    return BadRequest("bad_query", message, message_zh, details)


def first_difference(path: str, live: Any, rebuilt: Any) -> dict[str, Any] | None:
    """Where two JSON values first differ (depth first, in order), or None if they are equal."""
    if isinstance(live, dict) and isinstance(rebuilt, dict):
        for key in sorted(set(live) | set(rebuilt)):
            found = first_difference(f"{path}.{key}", live.get(key), rebuilt.get(key))
            if found:
                return found
        return None
    if isinstance(live, list) and isinstance(rebuilt, list) and len(live) == len(rebuilt):
        for index, (a, b) in enumerate(zip(live, rebuilt, strict=True)):
            found = first_difference(f"{path}[{index}]", a, b)
            if found:
                return found
        return None
    return None if live == rebuilt else {"path": path, "live": live, "rebuilt": rebuilt}


class Projections:
    """The read model of one store (its services: `fupan`), and what is asked of it."""

    def __init__(self, fupan: Fupan, *, follow_every: float | None = None, page_size: int = 1000):
        self.fupan = fupan
        self.store = store = fupan.store
        self.live = ViewStore(store.factory.datastore)  # type: ignore[attr-defined]
        outdated = self.live.outdated()
        created_by_whoever_comes_first(self.live.create)
        self.follower = Follower(store.recorder, store.mapper, self.live, page_size, self._deal_streams())
        if outdated:  # its position is past events of tables it did not have: replay them all once
            self.rebuild()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if follow_every:
            self._thread = threading.Thread(target=self._follow, args=(follow_every,), name="fupan-projections",
                                            daemon=True)
            self._thread.start()

    def _follow(self, every: float) -> None:
        """Keep the read model following the log (events stored by other processes too) until `close` or the
        application closes. The thread has connections of its own: closing the application's pool under a
        query running in another thread is unsafe (SQLite), and these the thread closes itself."""
        factory = self.store.reading_factory()
        follower: Follower | None = None
        lease = PollerLease(factory.datastore)  # type: ignore[attr-defined]  # one poller among the workers
        try:
            while not self._stop.wait(every) and not self.store.closing.is_set():
                try:
                    if not lease.held():
                        continue
                    if follower is None:  # opening the recorder touches the database: inside the try
                        follower = Follower(factory.application_recorder(), self.store.mapper,
                                            ViewStore(factory.datastore),  # type: ignore[attr-defined]
                                            self.follower.page_size, self._deal_streams())
                    follower.poll()  # cheap while only a deal's actions arrive (Follower.poll)
                except Exception:
                    with contextlib.suppress(Exception):
                        lease.release()  # its connection may be gone (a restarted server): try again later
                    if self.store.closing.is_set():
                        break  # the store went away with the application: nothing is wrong
                    log.exception("projections: catching up failed; trying again in %s s", every)
        finally:
            with contextlib.suppress(Exception):
                lease.release()
            factory.close()

    def close(self) -> None:
        """Stop following in the background (reads still catch up)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    # --- reads ----------------------------------------------------------------------------------------

    def _facts(self, tournament_id: str, as_of: int | None, round_limit: int | None) -> tuple[int, TournamentFacts]:
        if as_of is not None and as_of < 0:
            raise _bad_query("A moment of the log is a notification number, 0 or more.",
                             "记录中的时刻是不小于 0 的通知编号。",
                             {"as_of": as_of})
        if round_limit is not None and round_limit < 1:
            raise _bad_query("A round is numbered from 1.", "轮次从 1 开始编号。",
                             {"round": round_limit})
        reflects = self.follower.catch_up()
        key = _tournament_key(tournament_id)
        at, facts = self.live.facts(key, reflects, as_of)
        if facts is None:
            raise NotFound(
                "not_found",
                f"No tournament with id {tournament_id} as of notification {at}.",
                f"截至通知 {at}，没有 id 为 {tournament_id} 的赛事。",
                {"id": key, "as_of": at},
            )
        return at, facts

    def facts(self, tournament_id: str) -> TournamentFacts:
        """A stored tournament's facts from the read model caught up with the log (the standings' own read; NotFound
        for an unknown tournament): what the console's standings and pairings start from."""
        return self._facts(tournament_id, None, None)[1]

    def pairing_history(self, tournament_id: str) -> dict[str, Any]:
        """A stored tournament's history in the pairing file's format (projections/pairing.py): what the console
        pairs, what `fupan pair --export` writes."""
        withdrawn = self.fupan.tournaments.entries(tournament_id)["withdrawn"]  # the aggregate's: not a read model
        return export_history(self.facts(tournament_id), list(withdrawn))

    def standings(self, tournament_id: str, *, round_limit: int | None = None,
                  as_of: int | None = None) -> dict[str, Any]:
        """The standings page; the stored one unless a round or an earlier point of the log is asked for."""
        if round_limit is None and as_of is None:
            reflects = self.follower.catch_up()
            key = _tournament_key(tournament_id)
            at, document = self.live.standings(key, reflects)
            if document is None:
                raise NotFound(
                    "not_found",
                    f"No tournament with id {tournament_id}.",
                    f"找不到 id 为 {tournament_id} 的赛事。",
                    {"id": key, "kind": "tournament"},
                )
            if "error" in document:
                error = document["error"]
                raise IllegalAction(error["code"], error["message"], error["message_zh"], error["details"])
            return {"tournament_id": key, "as_of": at, **document}
        at, facts = self._facts(tournament_id, as_of, round_limit)
        document = Standings(facts, round_limit=round_limit).document()
        return {"tournament_id": document["tournament_id"], "as_of": at, **document}

    def explain(self, tournament_id: str, player_id: str, *, round_limit: int | None = None,
                as_of: int | None = None) -> dict[str, Any]:
        """A player's standing broken down into tables, deals, the deals' stored events and adjustments."""
        at, facts = self._facts(tournament_id, as_of, round_limit)
        standings = Standings(facts, round_limit=round_limit)
        if player_id not in standings.names:
            raise NotFound(
                "not_found",
                f"No player {player_id!r} in this tournament.",
                f"本赛事没有选手 {player_id!r}。",
                {"player_id": player_id, "kind": "player"},
            )
        explained = standings.explain(player_id)
        for table in explained["matches"]:
            for deal in table["deals"]:  # a bye's boards were played by nobody: no events
                deal["events"] = [] if table.get("bye") else self._deal_events(deal, table["match_id"])
                # 成绩单: a deal entered as a score slip (domain/records/slips.py) shows the slip instead of actions.
                deal["result_only"] = any("slip" in event for event in deal["events"])
        for adjustment in explained["adjustments"]:
            adjustment["event"] = {"aggregate": "Tournament", "id": explained["tournament_id"],
                                   "type": "Tournament.Adjusted", "version": adjustment["version"],
                                   "recorded_by": adjustment["recorded_by"], "time": adjustment["time"]}
            appeal = (adjustment.get("refers_to") or {}).get("appeal_id")
            if appeal:  # an appeal's outcome (domain/model/appeal.py): link to it
                adjustment["appeal"] = {"id": appeal, "href": f"/api/appeals/{appeal}", "page": f"/appeals/{appeal}"}
        return {"tournament_id": explained["tournament_id"], "as_of": at, **explained}

    def _deal_events(self, deal: dict[str, Any], match_id: str) -> list[dict[str, Any]]:
        """The deal's stored events up to its result (all of them public once it is finished), then the
        table's `DealScored` that counted it."""
        events = []
        # A deal the tournament's public delay still holds (docs/SECURITY.md §4b): its events without their cards
        # and words; the scores its table counted stay (they name no card).
        held = not self.fupan.deals.public_record(deal["deal_id"])
        for event in self.store.stream(UUID(deal["deal_id"]), deal=True, lte=deal["finished"]["version"]):
            entry: dict[str, Any] = {"aggregate": "Deal", "id": deal["deal_id"], "version": event.originator_version,
                                     "type": type(event).TOPIC.removeprefix("fupan:"),
                                     "recorded_by": event.recorded_by, "time": event.timestamp.isoformat()}
            if held and isinstance(event, Deal.ActionRecorded | Deal.Finished | Deal.Annotated | Deal.Commented):
                entry["withheld"] = True
            elif isinstance(event, Deal.ActionRecorded):
                entry["action"] = event.action
            elif isinstance(event, Deal.Finished):
                entry["result"] = event.result
            elif isinstance(event, Deal.Annotated | Deal.Commented):
                entry["annotation"] = event.note()
            elif isinstance(event, Deal.Created):
                entry.update(seats=event.seats, first=event.first)
                if event.meta.get(RESULT_ONLY):
                    entry["slip"] = event.meta["slip"]
            events.append(entry)
        scored = deal["scored"]
        if "replaces" in scored:  # a voided deal's replacement: counted by its appeal's Redealt, not by the table
            events.append({"aggregate": "Appeal", "id": scored["appeal_id"], "version": scored["version"],
                           "type": "Appeal.Redealt", "recorded_by": scored["recorded_by"], "time": scored["time"],
                           "replaces": scored["replaces"]})
            return events
        events.append({"aggregate": "Match", "id": match_id, "version": scored["version"], "type": "Match.DealScored",
                       "recorded_by": scored["recorded_by"], "time": scored["time"], "scores": scored["scores"],
                       "chips": scored["chips"]})
        return events

    def preview(self, tournament_id: str, adjustments: list[dict[str, Any]], *,
                round_limit: int | None = None, appeal_outcome: tuple[str, dict[str, Any]] | None = None
                ) -> dict[str, Any]:
        """The standings before and after hypothetical adjustments, and what changes; nothing is stored.
        `appeal_outcome` (appeal id, outcome): the appeal's outcome as it would be in effect with them."""
        at, facts = self._facts(tournament_id, None, round_limit)
        players = {p["player_id"] for p in facts.players}
        started = {r["round"] for r in facts.rounds} | {m["round"] for m in facts.matches} | {1}
        hypothetical = [self._hypothetical(a, players, started) for a in adjustments]
        before = Standings(facts, round_limit=round_limit).document()
        if appeal_outcome is not None:
            appeal, outcome = appeal_outcome
            facts = dataclasses.replace(facts, appeals=[
                {**a, "outcome": outcome, "outcome_nid": at + 1} if a["appeal_id"] == appeal else a
                for a in facts.appeals])
        after = Standings(facts, round_limit=round_limit, extra_adjustments=hypothetical).document()
        was = {row["player_id"]: row for row in before["rows"]}
        changes = []
        for row in after["rows"]:
            old = was[row["player_id"]]
            changed = {key: [old[key], row[key]] for key in ("rank", "total", "status", "stage")
                       if old[key] != row[key]}
            if changed:
                changes.append({"player_id": row["player_id"], "name": row["name"], **changed})
        return {"tournament_id": before["tournament_id"], "as_of": at, "adjustments": hypothetical,
                "before": {**before, "as_of": at}, "after": {**after, "as_of": at}, "changes": changes}

    @staticmethod
    def _hypothetical(adjustment: dict[str, Any], players: set[str], started: set[int]) -> dict[str, Any]:
        """Checked as `Tournament.adjust` would check it, so a preview shows what recording it would do."""
        player, points = adjustment.get("player_id"), adjustment.get("points")
        kind, reason = adjustment.get("kind", "adjustment"), str(adjustment.get("reason", "")).strip()
        number = adjustment.get("round") or max(started)
        problems = {
            "player_id": player not in players,
            "points": not adjustable(points),
            "kind": kind not in ADJUSTMENT_KINDS, "reason": not reason, "round": number not in started,
        }
        wrong = sorted(name for name, bad in problems.items() if bad)
        if wrong:
            raise IllegalAction(
                "bad_adjustment",
                f"The adjustment cannot be recorded as given: {wrong}.",
                f"该调整无法按所给内容记录：{wrong}。",
                {"fields": wrong, "adjustment": adjustment},
            )
        return {"player_id": player, "points": points, "round": number, "kind": kind, "reason": reason,
                "refers_to": adjustment.get("refers_to"), "version": None, "recorded_by": None, "time": None,
                "hypothetical": True}

    # --- rebuild and verify ---------------------------------------------------------------------------

    def _scratch(self) -> tuple[ViewStore, Follower]:
        scratch = ViewStore(self.live.datastore, prefix=f"proj_scratch_{uuid4().hex[:12]}_")
        scratch.create()
        return scratch, Follower(self.store.recorder, self.store.mapper, scratch, REPLAY_PAGE, self._deal_streams())

    def _deal_streams(self) -> Callable[[UUID], list[Any]] | None:
        """Where the follower reads a scored deal's result when deals are kept in deal databases."""
        return self.store.deal_stream_elsewhere if self.store.deal_stores else None

    def rebuild(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Replay the whole log into fresh tables, then swap them in at once (readers never see half a
        rebuild); events stored meanwhile are then followed as usual. `progress(notification, head)` as the
        replay advances."""
        started = time.perf_counter()
        scratch, follower = self._scratch()
        try:
            follower.catch_up(exact=True, progress=progress)
            position = self.live.replace_with(scratch)
        finally:
            scratch.drop()
        self.follower.catch_up()
        counts = self._counts()
        return {"position": position, "notifications": follower.applied, "seconds": time.perf_counter() - started,
                **counts}

    def verify(self, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
        """Rebuild into scratch tables and compare them with the live ones at the same position;
        `progress(notification, head)` as the replay advances."""
        started = time.perf_counter()
        scratch, follower = self._scratch()
        try:
            follower.catch_up(progress=progress)
            while True:  # both at the same stored position, then compared in one snapshot
                live_at = self.follower.catch_up(exact=True)
                follower.catch_up(until=live_at, exact=True)
                with self.live.snapshot() as c:
                    if self.live.position(c) == scratch.position(c):
                        difference = self._first_difference(c, scratch)
                        position = self.live.position(c)
                        break
        finally:
            scratch.drop()
        return {"ok": difference is None, "position": position, "difference": difference,
                "seconds": time.perf_counter() - started, **self._counts()}

    def _first_difference(self, c: Any, scratch: ViewStore) -> dict[str, Any] | None:
        for table, (_columns, key) in TABLES.items():
            live, rebuilt = self.live.table_rows(c, table), scratch.table_rows(c, table)
            names = [name.strip() for name in key.split(",")]
            for index in range(max(len(live), len(rebuilt))):
                a = live[index] if index < len(live) else None
                b = rebuilt[index] if index < len(rebuilt) else None
                if a == b:
                    continue
                where = {name: (a or b)[name] for name in names}  # type: ignore[index]
                if a is None or b is None or any(a[n] != b[n] for n in names):
                    return {"table": table, "key": where, "live": a, "rebuilt": b}
                column = next(name for name in a if a[name] != b[name])
                values = a[column], b[column]
                if column in ("body", "created", "finished", "scored", "document"):
                    found = first_difference("$", *(json.loads(v) if v else v for v in values))
                    return {"table": table, "key": where, "column": column, **(found or {})}
                return {"table": table, "key": where, "column": column, "live": values[0], "rebuilt": values[1]}
        return None

    def _counts(self) -> dict[str, int]:
        with self.live.transaction(commit=False) as c:
            return {table: self.live.count(c, table) for table in ("tournaments", "deals")}
