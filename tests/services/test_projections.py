"""The projections on real stores (a SQLite file, a PostgreSQL server): incremental standings equal a rebuild
after every recorded event (hypothesis), restarts and several followers never count an event twice, lots are
reproducible from the recorded seed, time travel, previews store nothing, verify finds tampering, and the
demo tournament explains down to single events."""

from __future__ import annotations

import hashlib
import random
import threading
import time
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.games.doudizhu.formats import DOUDIZHU_S001
from domain.kernel.errors import IllegalAction, NotFound
from domain.services.fupan import Fupan
from fixtures import load_demo
from fixtures.random_play.doudizhu import random_record
from projections import Projections
from projections.follower import TOPICS


def play(service: Fupan, match_id: str, record: dict[str, Any]) -> dict[str, Any]:
    """Record a generated deal at a table action by action; the last answer."""
    deal, _ = service.deals.start(match=match_id, first=record["first"], hands=record["hands"], kitty=record["kitty"])
    answer: dict[str, Any] = {}
    for action in record["actions"]:
        answer = service.deals.record(deal["id"], action)
    return answer


def deal_where(rng: random.Random, wanted: Any) -> dict[str, Any]:
    """The first generated legal deal whose (engine-computed) result satisfies `wanted`."""
    from domain.records.format import fold, parse_record

    while True:
        record = random_record(rng, foul_rate=0, timeout_rate=0)
        setup, actions, _ = parse_record(record)
        engine, state = fold(setup, actions)
        if wanted(engine.result(state)):
            return record


def followed_after(service: Fupan, position: int) -> int:
    return len(service.store.recorder.select_notifications(position + 1, 10**9, topics=TOPICS))


def tournament_with_table(service: Fupan, players: list[str], **declared: Any) -> tuple[dict, dict]:
    tournament, _ = service.tournaments.create(f"t-{uuid4().hex[:8]}", "doudizhu", **declared)
    for name in players:
        service.tournaments.register_player(tournament["id"], name)
    match, _ = service.tables.open(tournament["id"], "1", players[:3])
    return tournament, match


# --- incremental = rebuild ----------------------------------------------------------------------------


class Scenario:
    """A random tournament driven through the service, one command at a time."""

    def __init__(self, service: Fupan, data: st.DataObject):
        self.service, self.data = service, data
        menu = [c.code for c in DOUDIZHU_S001.tiebreaks]
        tiebreaks = data.draw(st.permutations(menu).flatmap(lambda p: st.integers(1, len(p)).map(lambda n: p[:n])))
        self.tournament, _ = service.tournaments.create(f"h-{uuid4().hex}", "doudizhu", format="doudizhu.s001",
                                                        tiebreaks=tiebreaks)
        self.players = [f"p{i}" for i in range(data.draw(st.integers(3, 7)))]
        for player in self.players:
            service.tournaments.register_player(self.tournament["id"], player)
        self.tables: list[str] = []
        self.rng = random.Random(data.draw(st.integers(0, 2**32)))

    def step(self) -> None:
        tid = self.tournament["id"]
        choice = self.data.draw(st.sampled_from(["table", "deal", "deal", "deal", "adjust", "round"]))
        if choice == "table" or not self.tables:
            seats = self.data.draw(st.permutations(self.players)).__getitem__(slice(0, 3))
            match, _ = self.service.tables.open(tid, f"T{len(self.tables) + 1}", list(seats))
            self.tables.append(match["id"])
        elif choice == "deal":
            match = self.service.tables.get(self.data.draw(st.sampled_from(self.tables)))
            if match["status"] == "live":
                play(self.service, match["id"], random_record(self.rng))
        elif choice == "adjust":
            self.service.tournaments.adjust(tid, self.data.draw(st.sampled_from(self.players)),
                                            self.data.draw(st.integers(-5, 5).filter(bool)), "hypothesis ruling",
                                            kind=self.data.draw(st.sampled_from(["penalty", "adjustment"])))
        else:
            kind = self.data.draw(st.sampled_from(["tables", "final", "playoff"]))
            self.service.tournaments.start_round(tid, kind=kind)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(data=st.data())
def test_incremental_standings_equal_a_rebuild_after_every_recorded_event(service, data):
    projections = Projections(service, page_size=data.draw(st.integers(1, 5)))  # small pages split saves
    scenario = Scenario(service, data)
    for _ in range(data.draw(st.integers(3, 14))):
        before = service.store.recorder.max_notification_id()
        scenario.step()
        if followed_after(service, before):
            projections.follower.catch_up()
            report = projections.verify()
            assert report["ok"], report["difference"]
    standings = projections.standings(scenario.tournament["id"])
    assert sorted(row["player_id"] for row in standings["rows"]) == sorted(scenario.players)
    assert [row["rank"] for row in standings["rows"]] == sorted(row["rank"] for row in standings["rows"])


# --- restarts and several followers -------------------------------------------------------------------


def test_restart_mid_tournament_continues_without_counting_anything_twice(store):
    rng = random.Random(7)
    first = store.open()
    projections = Projections(first)
    tournament, match = tournament_with_table(first, ["甲", "乙", "丙", "丁", "戊", "己"])
    second_table, _ = first.tables.open(tournament["id"], "2", ["丁", "戊", "己"])
    play(first, match["id"], random_record(rng))
    projections.follower.catch_up()
    before = projections.standings(tournament["id"])
    first.close()

    restarted = store.open()
    projections = Projections(restarted)
    position = projections.live.position()
    assert projections.follower.catch_up() >= position
    assert projections.follower.applied == 0  # nothing reprocessed
    assert projections.standings(tournament["id"]) == before
    play(restarted, second_table["id"], random_record(rng))
    restarted.tournaments.adjust(tournament["id"], "丁", -2, "late", kind="penalty")
    projections.follower.catch_up()
    assert projections.follower.applied == followed_after(restarted, position)
    assert projections.verify()["ok"]
    after = {row["player_id"]: row for row in projections.standings(tournament["id"])["rows"]}
    chips = dict(zip(second_table["seats"], restarted.tables.get(second_table["id"])["chips"], strict=True))
    assert after["丁"]["total"] == chips["丁"] - 2 and after["戊"]["total"] == chips["戊"]
    restarted.close()


def test_two_followers_racing_apply_every_event_exactly_once(store):
    """Two applications on one store, as two server processes would be, catching up at the same time."""
    rng = random.Random(11)
    writer, other = store.open(), store.open()
    try:
        mine, theirs = Projections(writer, page_size=1), Projections(other, page_size=1)
        tournament, match = tournament_with_table(writer, ["甲", "乙", "丙"])
        while writer.tables.get(match["id"])["status"] == "live":
            play(writer, match["id"], random_record(rng))
        for name in ("丁", "戊"):
            writer.tournaments.register_player(tournament["id"], name)
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def follow(projections: Projections) -> None:
            try:
                barrier.wait()
                projections.follower.catch_up()
            except BaseException as error:  # re-raised in the test thread
                errors.append(error)

        threads = [threading.Thread(target=follow, args=(p,)) for p in (mine, theirs)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        assert mine.follower.applied + theirs.follower.applied == followed_after(writer, 0)
        assert mine.verify()["ok"]
        assert mine.standings(tournament["id"]) == theirs.standings(tournament["id"])
    finally:
        writer.close()
        other.close()


def test_a_deals_actions_alone_write_nothing_yet_the_answer_reflects_them(service):
    """Recording competes with nothing: only followed events (a deal's end, not its actions) are written."""
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"])
    projections = Projections(service)
    record = random_record(random.Random(4))
    deal, _ = service.deals.start(match=match["id"], first=record["first"], hands=record["hands"],
                                  kitty=record["kitty"])
    projections.follower.catch_up()
    stored = projections.live.position()
    for action in record["actions"][:-1]:
        service.deals.record(deal["id"], action)
    head = service.store.recorder.max_notification_id()
    assert projections.follower.catch_up() == head and projections.live.position() == stored
    assert projections.standings(tournament["id"])["as_of"] == head
    service.deals.record(deal["id"], record["actions"][-1])
    head = service.store.recorder.max_notification_id()
    assert projections.follower.catch_up() == projections.live.position() == head


def test_a_server_follows_in_the_background_without_anyone_reading(service):
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"])
    projections = Projections(service, follow_every=0.01)
    try:
        play(service, match["id"], deal_where(random.Random(6), lambda r: not r.get("redeal")))
        head = service.store.recorder.max_notification_id()
        deadline = time.monotonic() + 10
        while projections.live.position() < head and time.monotonic() < deadline:
            time.sleep(0.01)
        _, stored = projections.live.standings(tournament["id"], 0)  # the stored page, no catching up
        assert stored is not None and stored["tables"][0]["deals"] == 1
        assert projections.follower.applied == 0  # the background thread did it, with its own follower
    finally:
        projections.close()


def test_the_background_follower_never_creates_the_event_log_again(store, service, caplog):
    """The follower's thread opens its recorder lazily, on its first poll. Had the events table gone by then (here
    renamed under the running application), creating it again would start a new, empty log that the server's
    next write would land in: the poll fails and says so instead (a flake of test_api_http's 500 test)."""
    from test_api_http import break_the_store

    break_the_store(store)
    projections = Projections(service, follow_every=0.01)
    try:
        deadline = time.monotonic() + 10
        while not any("catching up failed" in r.getMessage() for r in caplog.records) and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        projections.close()
    assert any("catching up failed" in r.getMessage() for r in caplog.records)
    assert not events_table_exists(store)


def events_table_exists(store: Any) -> bool:
    from test_tamper_evidence import Raw  # the store's tables as rows

    raw = Raw(store)
    if raw.postgres:
        return raw.run("SELECT to_regclass(?)", (raw.events,))[0][0] is not None
    return bool(raw.run("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (raw.events,)))


# --- tiebreaks and lots -------------------------------------------------------------------------------


def test_a_tie_on_chips_is_decided_by_the_declared_list_down_to_lots(service):
    """The landlord loses the only deal: both farmers hold the same chips, won one deal each and never won
    as landlord, so the declared list falls through to the seeded lots."""
    record = deal_where(random.Random(3), lambda r: not r.get("redeal") and not r["landlord_won"])
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"],
                                              tiebreaks=["deals_won", "landlord_wins", "lots"], lots_seed="seed-1")
    play(service, match["id"], record)
    rows = Projections(service).standings(tournament["id"])["rows"]
    farmers = [row for row in rows if row["total"] == rows[0]["total"]]
    assert len(farmers) == 2 and farmers[0]["tiebreak_values"][:2] == farmers[1]["tiebreak_values"][:2] == [1, 0]
    draw = sorted(["甲", "乙", "丙"], key=lambda p: hashlib.sha256(f"seed-1:{p}".encode()).hexdigest())
    assert [row["player_id"] for row in farmers] == sorted((r["player_id"] for r in farmers), key=draw.index)
    assert [row["rank"] for row in farmers] == [1, 2] and farmers[1]["decided_by"] == "lots"
    assert [row["tiebreak_values"][2] for row in farmers] == sorted(draw.index(r["player_id"]) + 1 for r in farmers)


def test_without_lots_a_complete_tie_shares_the_rank(service):
    record = deal_where(random.Random(3), lambda r: not r.get("redeal") and not r["landlord_won"])
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"], tiebreaks=["deals_won"])
    play(service, match["id"], record)
    rows = Projections(service).standings(tournament["id"])["rows"]
    assert [row["rank"] for row in rows] == [1, 1, 3] and rows[1]["decided_by"] is None


def test_unknown_format_or_tiebreak_is_refused_when_standings_are_asked(service):
    tournament, _ = service.tournaments.create("odd", "doudizhu", tiebreaks=["coin_toss"])
    with pytest.raises(IllegalAction) as refused:
        Projections(service).standings(tournament["id"])
    assert refused.value.code == "unknown_tiebreak"


# --- time travel, preview, rebuild and verify ---------------------------------------------------------


def test_time_travel_by_notification_id_and_by_round(service):
    rng = random.Random(5)
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"])
    projections = Projections(service)
    play(service, match["id"], random_record(rng))
    early = projections.standings(tournament["id"])
    play(service, match["id"], deal_where(rng, lambda r: not r.get("redeal")))
    later = projections.standings(tournament["id"])
    assert later["as_of"] > early["as_of"]
    past = projections.standings(tournament["id"], as_of=early["as_of"])
    assert past["rows"] == early["rows"] and past["as_of"] == early["as_of"]
    assert projections.standings(tournament["id"], as_of=10**9)["as_of"] == later["as_of"]
    with pytest.raises(NotFound):
        projections.standings(tournament["id"], as_of=0)
    service.tournaments.start_round(tournament["id"], "决赛", "final")
    service.tables.open(tournament["id"], "决赛", ["甲", "乙", "丙"])
    assert projections.standings(tournament["id"], round_limit=1)["rows"] == later["rows"]
    assert [p["round"] for p in projections.standings(tournament["id"])["progression"]] == [1, 2]


def test_preview_shows_an_adjustment_without_storing_it(service, store):
    rng = random.Random(9)
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"])
    play(service, match["id"], deal_where(rng, lambda r: not r.get("redeal")))
    projections = Projections(service)
    leader = projections.standings(tournament["id"])["rows"][0]
    stored = len(store.stored_events())
    preview = projections.preview(tournament["id"], [{"player_id": leader["player_id"], "points": -100,
                                                      "reason": "appeal upheld", "kind": "penalty"}])
    assert len(store.stored_events()) == stored
    assert preview["before"]["rows"][0]["player_id"] == leader["player_id"]
    assert preview["after"]["rows"][-1]["player_id"] == leader["player_id"]
    change = next(c for c in preview["changes"] if c["player_id"] == leader["player_id"])
    assert change["total"] == [leader["total"], leader["total"] - 100] and change["rank"][1] == 3
    with pytest.raises(IllegalAction):
        projections.preview(tournament["id"], [{"player_id": "nobody", "points": 1, "reason": "x"}])


def test_verify_names_the_first_difference_and_rebuild_repairs_it(service):
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"])
    play(service, match["id"], random_record(random.Random(1)))
    projections = Projections(service)
    assert projections.verify()["ok"]
    with projections.live.transaction(commit=True) as c:
        c.execute(projections.live.sql("UPDATE {players} SET body = ? WHERE player_id = ?"),
                  ('{"name":"假"}', "乙"))
    report = projections.verify()
    assert not report["ok"]
    assert report["difference"]["table"] == "players" and report["difference"]["key"]["player_id"] == "乙"
    rebuilt = projections.rebuild()
    assert rebuilt["deals"] == 1 and projections.verify()["ok"]


# --- the demo tournament ------------------------------------------------------------------------------


def test_the_demo_tournament_ranks_its_final_and_explains_down_to_single_events(service):
    tournament = load_demo(service)
    projections = Projections(service)
    standings = projections.standings(tournament["id"])
    rows = standings["rows"]
    assert [t["code"] for t in standings["tiebreaks"]] == ["playoff", "deals_won", "landlord_wins", "lots"]
    assert [(row["status"], row["reached"]["kind"]) for row in rows[:3]] == [
        ("champion", "final"), ("placed", "final"), ("placed", "final")]
    second, third = rows[1], rows[2]
    assert second["total"] == third["total"] and third["decided_by"] == "playoff"  # equal chips → extra deals
    (playoff,) = [table for table in standings["tables"] if table["kind"] == "playoff"]
    assert playoff["over"] and playoff["ended"]["by"] == "closed"  # the organiser closed it once the tie broke
    assert [p["label"] for p in standings["progression"]] == [r["label"] for r in standings["rounds"]]
    assert projections.verify()["ok"]

    penalised = next(row for row in rows if row["adjustments"])
    explained = projections.explain(tournament["id"], penalised["player_id"])
    parts = explained["total_explained"]
    assert parts["start_chips"] + parts["deals"] + parts["adjustments"] == explained["total"] == penalised["total"]
    counted = [m for m in explained["matches"] if m["counts_for"] == "ranking"]
    assert sum(d["score"] for m in counted for d in m["deals"]) == parts["deals"]
    (adjustment,) = explained["adjustments"]
    assert adjustment["reason"] and adjustment["recorded_by"] and adjustment["event"]["version"] > 1
    deal = counted[0]["deals"][0]
    versions = [e["version"] for e in deal["events"] if e["aggregate"] == "Deal"]
    assert versions == list(range(1, len(versions) + 1))  # every event of the deal, in order
    finished = next(e for e in deal["events"] if e["type"] == "Deal.Finished")
    assert finished["result"]["scores"][counted[0]["seat"]] == deal["score"]
    assert all(e["recorded_by"] for e in deal["events"])
    assert deal["events"][-1]["type"] == "Match.DealScored"

    champion = projections.explain(tournament["id"], rows[0]["player_id"])
    assert {m["counts_for"] for m in champion["matches"]} == {"earlier round", "ranking", "playoff"}


# --- what the tournament records ----------------------------------------------------------------------


def test_rounds_and_adjustments_are_events_with_who_and_why(service):
    organiser = {"role": "organiser", "token_id": "t-1"}
    tournament, match = tournament_with_table(service, ["甲", "乙", "丙"])
    assert match["id"] in [m["id"] for m in service.tournaments.get(tournament["id"])["matches"]]
    final = service.tournaments.start_round(tournament["id"], "决赛", "final", recorded_by=organiser)
    assert final == {"round": 2, "label": "决赛", "kind": "final"}  # the table opened before was round 1
    refused = [
        dict(player_id="无名", points=-1, reason="x"), dict(player_id="甲", points=0, reason="x"),
        dict(player_id="甲", points=-1, reason=" "), dict(player_id="甲", points=-1, reason="x", kind="bonus"),
        dict(player_id="甲", points=-1, reason="x", round=3),
        dict(player_id="甲", points=-1, reason="x", refers_to={"deal_id": str(uuid4()), "version": 1}),
    ]
    for arguments in refused:
        with pytest.raises(IllegalAction):
            service.tournaments.adjust(tournament["id"], **arguments)
    with pytest.raises(IllegalAction):
        service.tournaments.start_round(tournament["id"], kind="semi")
    with pytest.raises(IllegalAction):
        service.tables.open(tournament["id"], "9", ["甲", "乙", "丙"], round=3)
    deal, _ = service.deals.start(match=match["id"], seed="s")
    recorded = service.tournaments.adjust(tournament["id"], "甲", -1, "说话 / talking", kind="penalty", round=1,
                                          refers_to={"deal_id": deal["id"], "version": 1}, recorded_by=organiser)
    assert recorded["round"] == 1 and recorded["refers_to"] == {"deal_id": deal["id"], "version": 1}
    (row,) = Projections(service).explain(tournament["id"], "甲")["adjustments"]
    assert row["recorded_by"] == organiser and row["reason"] == "说话 / talking" and row["kind"] == "penalty"


def test_tournaments_recorded_before_formats_existed_still_load_and_rank(service):
    """Version-1 events (no format, tiebreaks, lots seed; tables without a round) are upcast on reading."""
    from eventsourcing.persistence import StoredEvent

    from domain.model.ids import LOCAL_RECORDER, tournament_id
    from domain.model.tournament import Tournament

    uid = tournament_id("old")
    old = {"key": "old", "name": "old", "game": "doudizhu", "options": get_options(), "recorded_by": LOCAL_RECORDER,
           "timestamp": datetime(2024, 1, 1, tzinfo=UTC), "originator_topic": "fupan:Tournament"}
    opened = {"match_id": uuid4(), "table": "1", "recorded_by": LOCAL_RECORDER,
              "timestamp": datetime(2024, 1, 1, tzinfo=UTC)}
    service.store.recorder.insert_events([
        StoredEvent(uid, 1, Tournament.Created.TOPIC, service.store.mapper.transcoder.encode(old)),
        StoredEvent(uid, 2, Tournament.MatchOpened.TOPIC, service.store.mapper.transcoder.encode(opened)),
    ])
    loaded = service.tournaments.get(uid)
    assert (loaded["format"], loaded["tiebreaks"], loaded["lots_seed"]) == ("", [], "")
    assert loaded["matches"][0]["round"] == 1
    service.tournaments.register_player(uid, "甲")
    standings = Projections(service).standings(str(uid))
    assert standings["format"] == "doudizhu.s001"
    assert [t["code"] for t in standings["tiebreaks"]] == list(DOUDIZHU_S001.default_tiebreaks)


def get_options() -> dict[str, Any]:
    from domain.games import get_engine

    return get_engine("doudizhu").resolve_options({})
