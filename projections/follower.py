"""Following the notification log into the read model: an explicit catch-up loop with a tracking position.

DESIGN.md §4: the library's subscriptions and ProjectionRunner do not work on SQLite, so the follower pulls
`select_notifications` itself, filtered to the topics it projects, and applies each page in one transaction
together with the new position (projections/store.py explains the compare-and-set). That gives:

- incremental updates: each page touches only the rows its events name, then recomputes the standings of
  the tournaments it touched;
- restarts without reprocessing: the position is in the database, committed with the rows;
- no double counting: a page applies only if the position is still where it was read from;
- several processes: each may follow; whoever moves the position first wins, the others find it moved and
  carry on from there.

The follower decodes with the application's own mapper, so it shares the leader's transcodings and topics.
It runs when asked (`catch_up`, which every standings read calls first, so a reader sees every event stored
before its request) and, in a server, also on a background thread polling the log's head (service.py).
"""

from __future__ import annotations

import threading
from typing import Any

from eventsourcing.persistence import ApplicationRecorder, Mapper

from domain.aggregates import Deal, Match, Tournament
from domain.errors import IllegalAction
from projections.standings import Standings
from projections.store import PositionMoved, ViewStore

TOPICS = [
    Tournament.Created.TOPIC, Tournament.PlayerRegistered.TOPIC, Tournament.RoundStarted.TOPIC,
    Tournament.MatchOpened.TOPIC, Tournament.Adjusted.TOPIC, Match.Created.TOPIC, Match.DealStarted.TOPIC,
    Match.DealScored.TOPIC, Deal.Finished.TOPIC,
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

    def __init__(self, recorder: ApplicationRecorder, mapper: Mapper, store: ViewStore, page_size: int = 1000):
        self.recorder = recorder
        self.mapper = mapper
        self.store = store
        self.page_size = page_size
        self.applied = 0  # notifications this object applied (what a restart must not repeat)
        self._lock = threading.Lock()  # one catch-up at a time per follower; between followers: the position

    def catch_up(self, until: int | None = None) -> int:
        """Apply every followed notification up to `until` (default: the head of the log now); the position."""
        with self._lock:
            head = (self.recorder.max_notification_id() or 0) if until is None else until
            while True:
                position = self.store.position()
                if position >= head:
                    return position
                page = list(self.recorder.select_notifications(position + 1, self.page_size, stop=head,
                                                               topics=TOPICS))
                # A full page may have more after it; a short one is everything up to the head.
                reached = page[-1].id if len(page) == self.page_size else head
                try:
                    self._apply(position, reached, page)
                except PositionMoved:
                    continue  # someone else applied it first: go on from where they left the position
                self.applied += len(page)

    def _apply(self, position: int, reached: int, page: list[Any]) -> None:
        store = self.store
        with store.transaction(commit=True) as c:
            store.advance(c, position, reached)
            touched: set[str] = set()
            for notification in page:
                event = self.mapper.to_domain_event(notification)
                tournament = self._project(c, notification.id, event)
                if tournament is not None:
                    touched.add(tournament)
            for tournament in sorted(touched):
                store.put_standings(c, tournament, standings_document(store, c, tournament, reached))

    def _project(self, c: Any, nid: int, event: Any) -> str | None:
        """Write what one event says; the tournament whose standings it changes, if any."""
        store = self.store
        who = {"version": event.originator_version, "recorded_by": event.recorded_by,
               "time": event.timestamp.isoformat()}
        if isinstance(event, Deal.Finished):
            store.finish_deal(c, nid, str(event.originator_id), {"result": event.result, **who})
            return None  # counted when its table scores it, in the same transaction of the log
        if isinstance(event, Match.DealStarted):
            store.start_deal(c, nid, str(event.deal_id), str(event.originator_id), event.number)
            return None
        if isinstance(event, Match.DealScored):
            return store.score_deal(c, nid, str(event.deal_id), {"scores": event.scores, "chips": event.chips,
                                                                 "winner": event.winner, **who})
        if isinstance(event, Match.Created):
            store.seat_match(c, nid, str(event.originator_id), {"seats": event.seats, "start_chips": event.start_chips,
                                                                 "first": event.first, **who})
            return str(event.tournament_id)
        tournament = str(event.originator_id)
        if isinstance(event, Tournament.Created):
            store.add_tournament(c, nid, tournament, {
                "key": event.key, "name": event.name, "game": event.game, "format": event.format,
                "tiebreaks": event.tiebreaks, "lots_seed": event.lots_seed, **who})
        elif isinstance(event, Tournament.PlayerRegistered):
            store.add_player(c, nid, tournament, event.player_id,
                             {"player_id": event.player_id, "name": event.name, **who})
        elif isinstance(event, Tournament.RoundStarted):
            store.add_round(c, nid, tournament, event.round,
                            {"round": event.round, "label": event.label, "kind": event.kind, **who})
        elif isinstance(event, Tournament.MatchOpened):
            store.add_match(c, nid, str(event.match_id), tournament,
                            {"round": event.round, "table": event.table, **who})
        elif isinstance(event, Tournament.Adjusted):
            store.add_adjustment(c, nid, tournament, event.originator_version, {
                "player_id": event.player_id, "points": event.points, "round": event.round, "kind": event.kind,
                "reason": event.reason, "refers_to": event.refers_to, **who})
        else:
            raise TypeError(f"not a followed event: {type(event).__name__}")
        return tournament
