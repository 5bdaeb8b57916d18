"""The write path kept cheap without giving anything up (docs/PERFORMANCE.md, "Load"): the background poller of
the projections skips what it has seen yet follows every scored deal; on real stores (a SQLite file, a PostgreSQL
server)."""

from __future__ import annotations

import random

from test_projections import deal_where, tournament_with_table

from fixtures.random_play.doudizhu import random_record
from projections import Projections
from projections.follower import Follower


def test_a_polling_follower_skips_a_deals_actions_yet_counts_every_scored_deal(service):
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"])
    projections = Projections(service)  # no background thread: the poller below is the background's kind
    poller = Follower(service.store.recorder, service.store.mapper, projections.live)
    rng = random.Random(16)
    for deals, table in ((1, "1"), (2, "2")):  # a chip table may end after one deal: a table each
        if table != "1":
            match, _ = service.tables.open(tournament["id"], table, ["甲", "乙", "丙"])
        record = deal_where(rng, lambda r: not r.get("redeal"))
        deal, _ = service.deals.start(match=match["id"], first=record["first"], hands=record["hands"],
                                      kitty=record["kitty"])
        assert poller.poll() == service.store.recorder.max_notification_id()  # Match.DealStarted: followed, applied
        position = projections.live.position()
        for action in record["actions"][:-1]:
            service.deals.record(deal["id"], action)
            assert poller.poll() == service.store.recorder.max_notification_id()  # reflects the actions
            assert projections.live.position() == position  # nothing written for them
        service.deals.record(deal["id"], record["actions"][-1])  # Deal.Finished, Match.DealScored
        assert poller.poll() == projections.live.position() == service.store.recorder.max_notification_id()
        _, stored = projections.live.standings(tournament["id"], 0)  # the stored page, no catching up
        assert stored is not None and sum(t["deals"] for t in stored["tables"]) == deals
    assert poller.applied > 0
    projections.close()


def test_a_polling_follower_still_moves_the_stored_position_past_a_long_run_of_actions(service, monkeypatch):
    """So that a restarted server does not scan them again (IDLE_GAP, made small here)."""
    import projections.follower as follower

    monkeypatch.setattr(follower, "IDLE_GAP", 12)
    projections = Projections(service)
    poller = Follower(service.store.recorder, service.store.mapper, projections.live)
    poller.poll()
    start = projections.live.position()
    rng = random.Random(3)
    record = random_record(rng, foul_rate=0, timeout_rate=0)
    while len(record["actions"]) < 30:
        record = random_record(rng, foul_rate=0, timeout_rate=0)
    deal, _ = service.deals.start(first=record["first"], hands=record["hands"], kitty=record["kitty"],
                                  game="doudizhu", seats=["甲", "乙", "丙"])
    moved = []
    for action in record["actions"][:-1]:  # a stand-alone deal, unfinished: nothing in it is followed
        service.deals.record(deal["id"], action)
        assert poller.poll() == service.store.recorder.max_notification_id()
        moved.append(projections.live.position())
    assert moved[0] == start and moved[-1] > start  # it stayed, then moved on within 12 events of the head
    assert all(service.store.recorder.max_notification_id() - p <= len(record["actions"]) for p in moved)
    assert max(b - a for a, b in zip(moved, moved[1:], strict=False)) >= 12
    projections.close()


def test_a_keys_absence_is_learnt_with_the_units_start_and_a_stored_key_is_still_found(service, store):
    """A keyed write's look-up of its key rides on the unit's synchronisation (one round trip on PostgreSQL);
    a key that is stored is found as before, by another process's write too."""
    from domain.model.idempotent_request import IdempotentRequest, request_id

    caller, key = "caller", "k-1"
    asked: list[object] = []
    select_events = service.store.recorder.select_events

    def counted(*args: object, **kwargs: object) -> object:  # the real read, noted
        asked.append(kwargs.get("originator_id", args[:1]))
        return select_events(*args, **kwargs)

    service.store.recorder.select_events = counted
    try:
        with service.requests.open(probe=(request_id(caller, key),)):
            assert service.store.find(request_id(caller, key)) is None
        assert asked == ([] if store.backend == "postgres" else [request_id(caller, key)])
        other = store.open()  # another process stores the key
        try:
            with other.requests.open():
                other.store.commit(IdempotentRequest.new(caller, key, "POST", "/x", b"{}", {"role": "organiser"}))
        finally:
            other.close()
        with service.requests.open(probe=(request_id(caller, key),)):
            found = service.store.find(request_id(caller, key))
        assert isinstance(found, IdempotentRequest) and found.path == "/x"
    finally:
        service.store.recorder.select_events = select_events


def test_one_worker_polls_in_the_background_and_another_takes_over_when_it_goes(service, store):
    """On PostgreSQL one poller among the processes (an advisory lock per schema); SQLite's each poll."""
    import time

    from projections.store import PollerLease

    first, second = (PollerLease(service.store.factory.datastore) for _ in range(2))
    try:
        assert first.held()
        assert second.held() is (store.backend == "sqlite")
        first.release()  # its process went away: its session, and the lock with it
        deadline = time.monotonic() + 5
        while not second.held() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert second.held()
        assert first.held() is (store.backend == "sqlite")
    finally:
        first.release()
        second.release()


def test_a_look_at_the_log_that_sees_this_process_s_own_save_first_keeps_its_aggregate_cached(service, store):
    """A save that committed but has not yet noted its notification (another unit looked at the log in between,
    as units side by side do) must not cost the next write a reload of every event of its deal; a newer version
    stored by another process still evicts it (docs/ARCHITECTURE.md "Units of work")."""
    from eventsourcing.application import Application

    from domain.model.deal import Deal

    deal, _ = service.deals.start(game="doudizhu", seats=["甲", "乙", "丙"], first=0, seed="own-save")
    with service.store.unit():
        cached = service.store.load(Deal, deal["id"], "deal")
    cached.annotate({"step": 0, "glyph": "!", "text": "好", "author": "甲"}, {"role": "organiser"})
    Application.save(service.store, cached)  # stored, its notification not yet noted as this process's own
    with service.store.unit():
        assert service.store.load(Deal, deal["id"], "deal") is cached  # still cached: it is the stored version

    other = store.open()  # another process stores a newer version: the cached one is stale and goes
    try:
        other.deals.annotate(deal["id"], {"step": 0, "glyph": "?", "text": "疑", "author": "乙"})
    finally:
        other.close()
    with service.store.unit():
        reloaded = service.store.load(Deal, deal["id"], "deal")
    assert reloaded is not cached and reloaded.version == cached.version + 1
    assert [a["glyph"] for a in reloaded.annotations] == ["!", "?"]
