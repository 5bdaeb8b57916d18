"""Following the notification log into the read model: an explicit catch-up loop with a tracking position.

The library's subscriptions and ProjectionRunner do not work on SQLite (docs/ARCHITECTURE.md "Projections"), so
the follower pulls `select_notifications` itself, filtered to the topics it projects, and applies each page in one
transaction together with the new position (projections/store.py explains the compare-and-set). That gives:

- incremental updates: each page touches only the rows its events name, then recomputes the standings of
  the tournaments it touched;
- restarts without reprocessing: the position is in the database, committed with the rows;
- no double counting: a page applies only if the position is still where it was read from;
- several processes: each may follow; whoever moves the position first wins, the others find it moved and
  carry on from there.

With K deal databases (domain/store/deal_databases.py) the deals' events are not in this log: the one input the
read model takes from a deal stream, its `Deal.Finished` (the result), is read from the deal's database when its
table's `Match.DealScored` arrives (`deal_events`) — stored before it, since a commit across databases saves
the deal's part first — and stamped with the `DealScored`'s notification id. So the read model still follows
one log, and a rebuild replays the same.

The follower decodes with the application's own mapper, so it shares the leader's transcodings and topics.
It runs when asked (`catch_up`, which every standings read calls first, so a reader sees every event stored
before its request) and, in a server, also on a background thread polling the log's head (service.py).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Mapper

from domain.kernel.errors import IllegalAction
from domain.model.appeal import Appeal
from domain.model.deal import Deal
from domain.model.match import Match
from domain.model.tournament import Tournament
from projections.standings import Standings
from projections.store import WRITES, PositionMoved, ViewStore, dumps, key

# Unfollowed notifications after which the stored position is advanced even with nothing to apply, so that
# a restart or a poll never rescans long runs of them.
IDLE_GAP = 1000

TOPICS = [
    Tournament.Created.TOPIC, Tournament.PlayerRegistered.TOPIC, Tournament.RoundStarted.TOPIC,
    Tournament.MatchOpened.TOPIC, Tournament.Adjusted.TOPIC, Match.Created.TOPIC, Match.DealStarted.TOPIC,
    Match.DealScored.TOPIC, Match.Ended.TOPIC, Match.Reopened.TOPIC, Deal.Finished.TOPIC, Match.DealCorrected.TOPIC,
    Appeal.Created.TOPIC, Appeal.Ruled.TOPIC, Appeal.Decided.TOPIC, Appeal.Redealt.TOPIC, Appeal.RedealScored.TOPIC,
    Tournament.Withdrew.TOPIC, Tournament.EntryRemoved.TOPIC,
]


def standings_document(store: ViewStore, cursor: Any, tournament_id: str, as_of: int) -> dict[str, Any]:
    """The stored standings page; a tournament whose declaration cannot be resolved stores the refusal."""
    facts = store.load(cursor, tournament_id, as_of)
    assert facts is not None
    try:
        return Standings(facts).document()
    except IllegalAction as error:
        return {"error": error.as_dict()}


class Follower:
    """Applies the followed notifications of an application's log to one `ViewStore`, page by page."""

    def __init__(self, recorder: ApplicationRecorder, mapper: Mapper, store: ViewStore, page_size: int = 1000,
                 deal_events: Callable[[UUID], list[Any]] | None = None):
        self.recorder = recorder
        self.deal_events = deal_events  # a deal's events in its deal database, when deals are kept apart
        self.mapper = mapper
        self.store = store
        self.page_size = page_size
        self.applied = 0  # notifications this object applied (what a restart must not repeat)
        self._lock = threading.Lock()  # one catch-up at a time per follower; between followers: the position
        # (a, b): the log holds no followed notification with an id in a < id <= b (a fact about the log, which
        # only grows, whatever the stored position does since): a poll need not scan those again.
        self._quiet = (0, 0)

    def catch_up(self, until: int | None = None, *, exact: bool = False,
                 progress: Callable[[int, int], None] | None = None) -> int:
        """Apply every followed notification up to `until` (default: the head of the log now); the notification
        id the read model now reflects. `progress(position, head)` after each page (the CLI's progress line).

        While only unfollowed events (a deal's actions) arrived, nothing is written: the read model already
        reflects them, and a commit per poll would compete with recording for the database. The stored
        position catches up with the next page, after IDLE_GAP such events, or when `exact` asks for it.
        Meanwhile this follower remembers how far it found nothing to follow, so it scans those events once.
        """
        with self._lock:
            return self._catch_up((self.recorder.max_notification_id() or 0) if until is None else until, exact,
                                  progress)

    def poll(self) -> int:
        """`catch_up` as a background poller asks it, cheaply: when nothing followed was stored since this
        follower last looked, one query for the log's head (nothing new) or two (only a deal's actions: the new
        events' followed ones, none), without reading the stored position. (A rebuild elsewhere may move the
        position back meanwhile; its own process catches up after it, and every read catches up itself.)"""
        with self._lock:
            head = self.recorder.max_notification_id() or 0
            quiet_from, quiet_to = self._quiet
            if quiet_to and head <= quiet_to:
                return head
            if quiet_to and head - quiet_from < IDLE_GAP and not self.recorder.select_notifications(
                    quiet_to + 1, 1, stop=head, topics=TOPICS):
                self._quiet = (quiet_from, head)
                return head
            return self._catch_up(head, False, None)

    def _catch_up(self, head: int, exact: bool, progress: Callable[[int, int], None] | None) -> int:
        """catch_up's loop, under the lock."""
        while True:
            position = self.store.position()
            if position >= head:
                return position
            quiet_from, quiet_to = self._quiet
            start = quiet_to if quiet_from <= position < quiet_to else position
            page = list(self.recorder.select_notifications(start + 1, self.page_size, stop=head,
                                                           topics=TOPICS))
            if not page and not exact and head - position < IDLE_GAP:
                self._quiet = (position, head)
                return head
            # A full page may have more after it; a short one is everything up to the head.
            reached = page[-1].id if len(page) == self.page_size else head
            try:
                self._apply(position, reached, page)
            except PositionMoved:
                continue  # someone else applied it first: go on from where they left the position
            self.applied += len(page)
            if progress is not None:
                progress(reached, head)

    def _apply(self, position: int, reached: int, page: list[Any]) -> None:
        """Decode the page, then write its rows, the touched standings and the new position in one transaction."""
        rows: dict[str, list[tuple[Any, ...]]] = {kind: [] for kind in WRITES}
        touched: set[str] = set()
        scored_at: set[str] = set()  # tables that scored a deal or ended: their tournaments' standings changed
        ruled: set[str] = set()  # appeals that recorded an outcome: their tournaments' standings changed
        for notification in page:
            event = self.mapper.to_domain_event(notification)
            kind, row = self._row(notification.id, event)
            if kind == "scored" and self.deal_events is not None:
                finished = next((e for e in self.deal_events(event.deal_id) if isinstance(e, Deal.Finished)), None)
                if finished is not None:  # none: the deal is on this log (stored before deal databases)
                    rows["finished"].append(self._row(notification.id, finished)[1])
            if kind == "reopened":  # an end earlier in this page is undone too (deletes run before inserts)
                rows["ended"] = [r for r in rows["ended"] if r[0] != row[0]]
            rows[kind].append(row)
            # by a table, or by an appeal for its redeal (which names the table); a correction, by the table
            if kind in ("scored", "ended", "reopened", "correction"):
                scored_at.add(str(getattr(event, "match_id", None) or event.originator_id))
            elif kind == "redeal":
                scored_at.add(str(event.match_id))
            elif kind == "outcome":
                ruled.add(str(event.originator_id))
            elif kind in ("seats", "appeal"):
                touched.add(str(event.tournament_id))
            elif kind not in ("deal", "finished"):  # a deal counts once scored; these rows are the tournament's
                touched.add(str(event.originator_id))
        store = self.store
        with store.transaction(commit=True) as c:
            store.advance(c, position, reached)
            store.write(c, rows)
            touched |= {store.tournament_of(c, match) for match in scored_at}
            touched |= {store.tournament_of_appeal(c, appeal) for appeal in ruled}
            for tournament in sorted(touched):
                store.put_standings(c, tournament, standings_document(store, c, tournament, reached))

    @staticmethod
    def _row(nid: int, event: Any) -> tuple[str, tuple[Any, ...]]:
        """The row one event writes: (kind of row in WRITES, its values)."""
        who = {"version": event.originator_version, "recorded_by": event.recorded_by,
               "time": event.timestamp.isoformat()}
        me = str(event.originator_id)
        if isinstance(event, Deal.Finished):
            return "finished", (nid, dumps({"result": event.result, **who}), me)
        if isinstance(event, Match.DealStarted):
            return "deal", (str(event.deal_id), event.number, nid, me)
        if isinstance(event, Match.DealScored):
            return "scored", (nid, dumps({"scores": event.scores, "chips": event.chips, "winner": event.winner,
                                          "standing": event.standing, **who}), str(event.deal_id))
        if isinstance(event, Match.DealCorrected):
            return "correction", (me, event.originator_version, nid, dumps({
                "match_id": me, "deal_id": str(event.deal_id), "number": event.number, "result": event.result,
                "scores": event.scores, "was": event.was, "reason": event.reason, "standings": event.standings,
                **who}), me)
        if isinstance(event, Match.Ended):
            return "ended", (me, nid, dumps({"winner": event.winner, "winners": event.winners, "by": event.by,
                                             "time_up": event.time_up, **who}), me)
        if isinstance(event, Match.Reopened):
            return "reopened", (me,)
        if isinstance(event, Match.Created):
            return "seats", (nid, dumps({"seats": event.seats, "start_chips": event.start_chips,
                                         "first": event.first, **who}), me)
        if isinstance(event, Tournament.Created):
            return "tournament", (me, nid, dumps({
                "key": event.key, "name": event.name, "game": event.game, "format": event.format,
                "tiebreaks": event.tiebreaks, "lots_seed": event.lots_seed, **who}))
        if isinstance(event, Tournament.PlayerRegistered):
            # the entry (pair, team) and department only when given, so rows of players without them stay as
            # they were written before these were read
            entrant = {name: value for name, value in (("entry", event.entry), ("department", event.department))
                       if value}
            return "player", (me, key(event.player_id), nid, dumps({"player_id": event.player_id, "name": event.name,
                                                               **entrant, **who}))
        if isinstance(event, Tournament.Withdrew):
            return "departure", (me, nid, dumps({"kind": "withdrew", "player_ids": [event.player_id],
                                                 "round": event.round, "reason": event.reason, **who}))
        if isinstance(event, Tournament.EntryRemoved):
            return "departure", (me, nid, dumps({"kind": "removed", "name": event.name, "player_ids": event.player_ids,
                                                 "reason": event.reason, **who}))
        if isinstance(event, Tournament.RoundStarted):
            return "round", (me, event.round, nid, dumps({"round": event.round, "label": event.label,
                                                          "kind": event.kind, **who,
                                                          **({"byes": event.byes} if event.byes else {})}))
        if isinstance(event, Tournament.MatchOpened):
            return "match", (str(event.match_id), me, nid, dumps({"round": event.round, "table": event.table, **who}))
        if isinstance(event, Tournament.Adjusted):
            return "adjustment", (me, event.originator_version, nid, dumps({
                "player_id": event.player_id, "points": event.points, "round": event.round, "kind": event.kind,
                "reason": event.reason, "refers_to": event.refers_to, **who}))
        if isinstance(event, Appeal.Created):
            return "appeal", (me, str(event.tournament_id), nid, dumps({
                "match_id": str(event.match_id), "deal_id": event.against.get("deal_id"), **who}))
        if isinstance(event, Appeal.Ruled | Appeal.Decided):
            step = "ruling" if isinstance(event, Appeal.Ruled) else "decision"
            return "outcome", (me, event.originator_version, nid, dumps({"outcome": event.outcome, "step": step,
                                                                          **who}), me)
        if isinstance(event, Appeal.Redealt):
            return "redeal", (event.deal_id, event.number, nid, event.match_id)
        if isinstance(event, Appeal.RedealScored):  # scored as a table scores its deals, by the appeal
            return "scored", (nid, dumps({"scores": event.scores, "chips": None, "winner": None, "standing": None,
                                          "replaces": event.replaces, "appeal_id": me, **who}), event.deal_id)
        raise TypeError(f"not a followed event: {type(event).__name__}")
