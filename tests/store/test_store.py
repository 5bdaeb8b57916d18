"""The event store and application service on real stores (a SQLite file, a PostgreSQL server): aggregates,
atomic saves, conflicts, hash chains, commit–reveal dealing, chip tables, import/export and the CLI's
import/export verbs."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from typing import Any
from uuid import UUID, uuid4

import pytest
from conftest import EXAMPLE_RECORD, EXAMPLE_SCORES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main as fupan
from domain.games import get_engine
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import Viewpoint
from domain.kernel.errors import Conflict, IllegalAction, NotFound, Unauthenticated
from domain.model.chain import verify_chain
from domain.model.token import LOCAL, parse_token
from domain.records.format import check_record, fold, parse_record
from domain.services.fupan import Fupan

PLAYERS = ["张三", "李四", "王五"]


def open_table(service: Fupan, first: int = 2, options: dict[str, Any] | None = None) -> dict:
    tournament, _ = service.tournaments.create("校园杯", "doudizhu")
    for name in PLAYERS:
        service.tournaments.register_player(tournament["id"], name)
    match, _ = service.tables.open(tournament["id"], "1", PLAYERS, first=first, options=options)
    return match


def play_example(service: Fupan, match: dict, record: dict, first: int | None = 2) -> dict:
    deal, created = service.deals.start(match=match["id"], hands=record["hands"], kitty=record["kitty"], first=first)
    assert created
    answer: dict = {}
    for action in record["actions"]:
        answer = service.deals.record(deal["id"], action)
    return answer


def test_every_stored_topic_is_explicit_and_stable(service, store, example_record):
    match = open_table(service)
    play_example(service, match, example_record)
    topics = {topic for _, _, topic in store.stored_events()}
    assert topics == {
        "fupan:Tournament.Created", "fupan:Tournament.PlayerRegistered", "fupan:Tournament.MatchOpened",
        "fupan:Match.Created", "fupan:Match.DealStarted", "fupan:Match.DealScored",
        "fupan:Deal.Created", "fupan:Deal.ActionRecorded", "fupan:Deal.Finished",
    }


def test_a_whole_deal_scores_and_moves_the_chips(service, example_record):
    match = open_table(service)
    last = play_example(service, match, example_record)
    assert last["finished"] and last["result"]["scores"] == EXAMPLE_SCORES
    assert last["match"] == {"id": match["id"], "chips": [12, 12, 4], "standing": {"chips": [12, 12, 4], "end": None},
                             "status": "live", "winner": None, "winners": []}
    state = service.tables.get(match["id"])
    assert state["deals"][0]["chips"] == [12, 12, 4] and state["deals"][0]["status"] == "finished"
    assert state["current_deal"] is None


def test_the_deals_end_and_the_chips_are_one_save(service, store, example_record):
    """The last action, Finished and Match.DealScored land in the same transaction (consecutive rows)."""
    match = open_table(service)
    play_example(service, match, example_record)
    topics = [topic for _, _, topic in store.stored_events()]
    assert topics[-3:] == ["fupan:Deal.ActionRecorded", "fupan:Deal.Finished", "fupan:Match.DealScored"]


def test_a_refused_action_stores_nothing(service, store, example_record):
    match = open_table(service)
    deal, _ = service.deals.start(match=match["id"], hands=example_record["hands"], kitty=example_record["kitty"],
                                  first=2)
    before = store.stored_events()
    for action, code in [
        ({"seat": 0, "type": "call"}, "not_your_turn"),
        ({"seat": 2, "type": "play", "cards": ["S3"]}, "bad_bid"),
        ({"seat": 2, "type": "fly"}, "unknown_action"),
        ({"seat": 2, "type": "play", "cards": ["S1"]}, "unknown_card"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            service.deals.record(deal["id"], action)
        assert refused.value.code == code
    assert store.stored_events() == before
    assert service.deals.get(deal["id"])["version"] == 1


def test_expected_version_guards_against_stale_clients(service, store, example_record):
    match = open_table(service)
    deal, _ = service.deals.start(match=match["id"], hands=example_record["hands"], kitty=example_record["kitty"],
                                  first=2)
    service.deals.record(deal["id"], example_record["actions"][0], expected_version=1)
    before = store.stored_events()
    with pytest.raises(Conflict) as stale:
        service.deals.record(deal["id"], example_record["actions"][1], expected_version=1)
    assert stale.value.details == {"expected_version": 1, "version": 2}
    assert store.stored_events() == before


def test_a_concurrent_write_from_another_process_is_a_conflict(store, example_record):
    """Two application objects on one store stand for two server processes; the slower write loses."""
    first = store.open()
    second = store.open()
    try:
        match = open_table(first)
        deal, _ = first.deals.start(match=match["id"], hands=example_record["hands"], kitty=example_record["kitty"],
                                    first=2)
        # Both processes hold the deal at version 1 in their caches.
        assert second.deals.get(deal["id"])["version"] == 1
        loaded_by_second = second.store.repository.get(UUID(deal["id"]))
        first.deals.record(deal["id"], example_record["actions"][0])
        before = store.stored_events()
        loaded_by_second.record(example_record["actions"][0], {"role": "local", "token_id": None})
        with pytest.raises(Conflict):
            second.store.commit(loaded_by_second)
        assert store.stored_events() == before
        # The second process catches up from the store and carries on.
        assert second.deals.record(deal["id"], example_record["actions"][1])["version"] == 3
    finally:
        first.close()
        second.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(turns=st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from("ab-")), min_size=33, max_size=33))
def test_any_interleaving_of_two_processes_keeps_both_caches_current(store, turns):
    """Two processes on one store, each action written by either and then read by either (or by nobody): every
    write succeeds (no stale cache, so no false conflict) and every read sees the latest version; at the end
    both agree with a process that just started."""
    record = EXAMPLE_RECORD
    assert len(turns) == len(record["actions"])
    apps = {"a": store.open(), "b": store.open()}
    try:
        deal, _ = apps["a"].deals.start(game="doudizhu", seats=record["seats"], first=record["first"],
                                        hands=record["hands"], kitty=record["kitty"], key=str(uuid4()))
        apps["b"].deals.get(deal["id"])  # cached by both from the start
        for action, (writer, reader) in zip(record["actions"], turns, strict=True):
            written = apps[writer].deals.record(deal["id"], action)
            if reader != "-":
                seen = apps[reader].deals.get(deal["id"], LOCAL)  # live: its digest only for readers with rights
                assert (seen["version"], seen["digest"]) == (written["version"], written["digest"])
        fresh = store.open()
        try:
            assert apps["a"].deals.get(deal["id"]) == apps["b"].deals.get(deal["id"]) == fresh.deals.get(deal["id"])
            assert fresh.deals.get(deal["id"])["result"]["scores"] == EXAMPLE_SCORES
        finally:
            fresh.close()
    finally:
        for app in apps.values():
            app.close()


def test_processes_taking_turns_see_each_others_writes_at_once(store, example_record):
    """Cached aggregates stay current across processes: each command first checks the notification log, so
    alternating writers never conflict, and a revocation or a new token elsewhere counts at the next request."""
    first, second = store.open(), store.open()
    try:
        match = open_table(first)
        deal, _ = first.deals.start(match=match["id"], hands=example_record["hands"], kitty=example_record["kitty"],
                                    first=2)
        assert second.deals.get(deal["id"])["version"] == 1  # now cached by both
        for n, action in enumerate(example_record["actions"]):
            writer, reader = (first, second) if n % 2 == 0 else (second, first)
            version = writer.deals.record(deal["id"], action)["version"]
            assert reader.deals.get(deal["id"])["version"] == version
        assert version == len(example_record["actions"]) + 2  # the created event, the actions, the end
        for app in (first, second):
            assert app.tables.get(match["id"])["chips"] == [10 + s for s in EXAMPLE_SCORES]
            assert app.audit.verify_deal(deal["id"])["ok"]

        _, bearer = first.tokens.create("organiser")
        assert second.tokens.authenticate(bearer).role == "organiser"  # created after `second` started
        token = str(parse_token(bearer)[0])  # type: ignore[index]
        second.tokens.revoke(token)
        with pytest.raises(Unauthenticated):
            first.tokens.authenticate(bearer)
    finally:
        first.close()
        second.close()


def test_creates_are_idempotent_and_refuse_different_content(service):
    tournament, created = service.tournaments.create("校园杯", "doudizhu")
    again, created_again = service.tournaments.create("校园杯", "doudizhu")
    assert created and not created_again and again["id"] == tournament["id"]
    with pytest.raises(Conflict):
        service.tournaments.create("校园杯", "doudizhu", {"ddz.payout": "zeroSum21"})
    for name in PLAYERS:
        assert service.tournaments.register_player(tournament["id"], name)[1]
        assert not service.tournaments.register_player(tournament["id"], name)[1]
    with pytest.raises(IllegalAction):
        service.tournaments.register_player(tournament["id"], "别人", player_id="张三")
    match, created = service.tables.open(tournament["id"], "A", PLAYERS)
    same, created_again = service.tables.open(tournament["id"], "A", PLAYERS)
    assert created and not created_again and same["id"] == match["id"]
    assert [m["table"] for m in service.tournaments.get(tournament["id"])["matches"]] == ["A"]
    with pytest.raises(Conflict):
        service.tables.open(tournament["id"], "A", list(reversed(PLAYERS)))
    with pytest.raises(IllegalAction) as unknown:
        service.tables.open(tournament["id"], "B", ["张三", "李四", "路人"])
    assert unknown.value.code == "unknown_player"


def test_starting_the_same_deal_twice_returns_it(service, example_record):
    match = open_table(service)
    hands, kitty = example_record["hands"], example_record["kitty"]
    deal, created = service.deals.start(match=match["id"], hands=hands, kitty=kitty, first=2)
    again, created_again = service.deals.start(match=match["id"], hands=hands, kitty=kitty, first=2)
    by_number, _ = service.deals.start(match=match["id"], number=1, hands=hands, kitty=kitty)
    assert created and not created_again and again["id"] == deal["id"] == by_number["id"]
    with pytest.raises(IllegalAction) as busy:
        service.deals.start(match=match["id"], seed="another")
    assert busy.value.code == "deal_in_progress"
    assert len(service.tables.get(match["id"])["deals"]) == 1


def test_first_bidder_rotates_by_default(service):
    match = open_table(service, first=1)
    firsts = []
    for _ in range(4):
        deal, _ = service.deals.start(match=match["id"], seed=f"s{len(firsts)}")
        firsts.append(deal["first"])
        for offset in range(3):  # all pass → redeal, the deal is complete
            service.deals.record(deal["id"], {"seat": (deal["first"] + offset) % 3, "type": "pass"})
    assert firsts == [1, 2, 0, 1]
    assert [d["first"] for d in service.tables.get(match["id"])["deals"]] == firsts
    assert service.tables.get(match["id"])["chips"] == [10, 10, 10]


def test_the_table_ends_by_hold20_breaking_ties_with_extra_deals(service, example_record):
    match = open_table(service)
    for number in range(1, 6):
        last = play_example(service, match, example_record)
        assert last["match"]["chips"] == [10 + 2 * number, 10 + 2 * number, 10 - 6 * number]
    # (20, 20, -20): two players hold 20 with equal chips → extra deals.
    assert last["match"]["status"] == "live"
    # A redeal with a referee's chip penalty on seat 1 separates them: (20, 19, -20) → seat 0 wins.
    deal, _ = service.deals.start(match=match["id"], seed="tiebreak", first=2)
    service.deals.record(deal["id"], {"seat": 1, "type": "foul", "code": "signalling", "note": "暗示队友",
                                       "penalty": 1})
    for seat in (2, 0, 1):
        last = service.deals.record(deal["id"], {"seat": seat, "type": "pass"})
    assert last["match"] == {"id": match["id"], "chips": [20, 19, -20], "status": "over", "winner": 0, "winners": [0],
                             "standing": {"chips": [20, 19, -20], "end": {"winner": 0, "by": "chips"}}}
    with pytest.raises(IllegalAction) as over:
        service.deals.start(match=match["id"], seed="one more")
    assert over.value.code == "match_over"
    assert len(service.tables.get(match["id"])["deals"]) == 6


def test_a_misdeal_at_a_chip_table_is_dealt_again_and_changes_nothing_else(service, store, example_record):
    match = open_table(service)
    before = service.tables.get(match["id"])
    after = service.tables.record_misdeal(match["id"], 1, "少发一张，重新发牌")
    assert after["misdeals"] == [{"seat": 1, "note": "少发一张，重新发牌", "before_deal": 1}]
    assert (after["standing"], after["status"]) == (before["standing"], "live")  # seed 001 counts nothing
    assert store.stored_events()[-1][2] == "fupan:Match.MisdealRecorded"
    deal, _ = service.deals.start(match=match["id"], hands=example_record["hands"], kitty=example_record["kitty"])
    assert deal["first"] == 2 and deal["number"] == 1  # the same deal, dealt again: same number, same first bidder


def test_the_organiser_closes_a_table_with_a_reason_never_over_a_live_deal(service, store, example_record):
    match = open_table(service)
    deal, _ = service.deals.start(match=match["id"], hands=example_record["hands"], kitty=example_record["kitty"],
                                  first=2)
    before = store.stored_events()
    with pytest.raises(IllegalAction) as refused:
        service.tables.close(match["id"], "加赛已分出名次")
    assert refused.value.code == "deal_in_progress"
    for action in example_record["actions"]:
        service.deals.record(deal["id"], action)
    for reason in ("", "   ", "长" * 501):
        with pytest.raises(IllegalAction) as refused:
            service.tables.close(match["id"], reason)
        assert refused.value.code == "bad_reason"
    assert [e for e in store.stored_events() if e[2].startswith("fupan:Match.")][-1][2] == "fupan:Match.DealScored"
    assert len(store.stored_events()) == len(before) + len(example_record["actions"]) + 2  # + Finished, DealScored

    closed = service.tables.close(match["id"], " 加赛已分出名次 ")
    assert (closed["status"], closed["ended_by"], closed["closed_because"]) == ("over", "closed", "加赛已分出名次")
    assert closed["winner"] is None and closed["winners"] == [] and closed["chips"] == [12, 12, 4]
    assert [e[2] for e in store.stored_events()[-2:]] == ["fupan:Match.Closed", "fupan:Match.Ended"]
    for attempt in (lambda: service.tables.close(match["id"], "again"),
                    lambda: service.deals.start(match=match["id"], seed="one more")):
        with pytest.raises(IllegalAction) as over:
            attempt()
        assert over.value.code == "match_over"
    fresh = store.open()
    try:
        assert fresh.tables.get(match["id"]) == service.tables.get(match["id"])  # as stored
    finally:
        fresh.close()


def test_net20_needs_twenty_above_the_start(service, example_record):
    match = open_table(service, options={"ddz.tableTarget": "net20"})
    assert service.tables.get(match["id"])["options"]["ddz.tableTarget"] == "net20"
    deal, _ = service.deals.start(match=match["id"], seed="x", first=0)
    service.deals.record(deal["id"], {"seat": 2, "type": "foul", "code": "late", "note": "迟到", "penalty": 25})
    for seat in (0, 1, 2):
        last = service.deals.record(deal["id"], {"seat": seat, "type": "pass"})
    # Nobody is +20 although seat 2 fell far behind.
    assert last["match"]["chips"] == [10, 10, -15] and last["match"]["status"] == "live"


def test_hash_chain_covers_every_event_and_detects_tampering(service, example_record):
    match = open_table(service)
    play_example(service, match, example_record)
    deal_id = service.tables.get(match["id"])["deals"][0]["deal_id"]
    service.deals.annotate(deal_id, {"step": 5, "text": "王炸太早了", "author": "解说"})
    report = service.audit.verify_deal(deal_id)
    assert report["ok"] and report["digest"] == service.deals.get(deal_id)["digest"]
    events = list(service.store.events.get(UUID(deal_id)))
    tampered = list(events)
    changed = dict(events[5].action, cards=["S7"])
    tampered[5] = dataclasses.replace(events[5], action=changed)
    assert verify_chain(tampered) == events[5].originator_version
    assert service.records.export_record(deal_id)["digest"] == events[-1].digest


def test_seeded_deal_commits_then_reveals(service):
    match = open_table(service, first=0)
    deal, _ = service.deals.start(match=match["id"], seed="公开的种子")
    commitment = hashlib.sha256("公开的种子".encode()).hexdigest()
    assert deal["seed_commitment"] == commitment and deal["seed"] is None
    hands, kitty = deal_from_seed("公开的种子", get_engine("doudizhu"), 0)
    record = service.records.export_record(deal["id"], LOCAL)  # a live deal's record: for trusted local code only
    assert record["hands"] == hands and record["kitty"] == kitty
    assert "seed" not in record["meta"] and record["meta"]["seed_commitment"] == commitment
    assert "公开的种子" not in json.dumps(service.deals.events(deal["id"]), ensure_ascii=False)
    for seat in (0, 1):
        assert "seed" not in service.deals.record(deal["id"], {"seat": seat, "type": "pass"})
    last = service.deals.record(deal["id"], {"seat": 2, "type": "pass"})
    assert last["seed"] == "公开的种子"
    closed = service.deals.get(deal["id"])
    assert closed["seed"] == "公开的种子" and hashlib.sha256(closed["seed"].encode()).hexdigest() == commitment
    assert service.deals.events(deal["id"])[-1]["type"] == "Deal.SeedRevealed"
    assert service.audit.verify_deal(deal["id"])["ok"]


def test_server_generates_a_seed_when_none_is_given(service):
    deal, _ = service.deals.start(game="doudizhu", seats=PLAYERS)
    other, _ = service.deals.start(game="doudizhu", seats=PLAYERS)
    assert deal["id"] != other["id"] and deal["seed_commitment"] != other["seed_commitment"]
    assert len(deal["seed_commitment"]) == 64 and deal["seed"] is None


def test_replay_matches_a_fresh_fold_at_every_step(service, example_record):
    match = open_table(service)
    play_example(service, match, example_record)
    deal_id = service.tables.get(match["id"])["deals"][0]["deal_id"]
    setup, actions, _ = parse_record(example_record)
    engine = get_engine("doudizhu")
    everything = service.deals.replay_all(deal_id, "seat:1")
    assert everything["total"] == len(actions) and len(everything["frames"]) == len(actions) + 1
    for step in range(len(actions) + 1):
        _, state = fold(setup, actions[:step])
        expected = engine.view(state, Viewpoint("seat", 1))
        single = service.deals.replay(deal_id, step, "seat:1")
        assert single["view"] == expected == everything["frames"][step]["view"]
        assert single["step"] == step and single["total"] == len(actions)
    # A closed deal's public view shows every hand; a seat's view still hides the others' hands.
    public = service.deals.replay(deal_id, 0, "public")["view"]
    assert all("hand" in seat for seat in public["seats"])
    assert [("hand" in seat) for seat in service.deals.replay(deal_id, 0, "seat:1")["view"]["seats"]] == [
        False, True, False]


def test_replay_of_a_live_deal_hides_hands_from_the_public(service, example_record):
    deal, _ = service.deals.start(game="doudizhu", seats=PLAYERS, first=2, hands=example_record["hands"],
                                  kitty=example_record["kitty"])
    service.deals.record(deal["id"], example_record["actions"][0])
    view = service.deals.replay(deal["id"], None, "public")
    assert view["step"] == 1 and not any("hand" in seat for seat in view["view"]["seats"])
    with pytest.raises(Exception) as bad:
        service.deals.replay(deal["id"], 5, "referee", LOCAL)
    assert getattr(bad.value, "code", None) == "bad_step"


def test_unknown_ids_are_not_found(service):
    for call in (service.deals.get, service.tables.get, service.tournaments.get, service.deals.events):
        with pytest.raises(NotFound):
            call("00000000-0000-0000-0000-000000000000")
        with pytest.raises(NotFound):
            call("not-a-uuid")
    tournament, _ = service.tournaments.create("T", "doudizhu")
    with pytest.raises(NotFound):
        service.deals.get(tournament["id"])  # an id of another kind


def test_import_export_round_trip(service, example_record):
    example_record["options"] = get_engine("doudizhu").resolve_options({})
    example_record["annotations"] = [{"at": 4, "text": "王炸", "author": "解说员"}]
    deal, created = service.records.import_record(copy.deepcopy(example_record))
    assert created and deal["result"]["scores"] == EXAMPLE_SCORES
    again, created_again = service.records.import_record(copy.deepcopy(example_record))
    assert not created_again and again["id"] == deal["id"]
    exported = service.records.export_record(deal["id"])
    assert exported.pop("result") == {"scores": EXAMPLE_SCORES}
    assert exported.pop("digest") == service.deals.get(deal["id"])["digest"]
    assert exported.pop("meta")["deal_id"] == deal["id"]
    # The note in the older spelling (`at`) is exported with its step beside it (docs/record-format.md "Annotations").
    assert exported.pop("annotations") == [{"step": 5, "glyph": "", "text": "王炸", "text_en": "", "author": "解说员",
                                           "at": 4}]
    assert exported == {k: v for k, v in example_record.items() if k != "annotations"}


@pytest.mark.parametrize("part", [{"meta": "x"}, {"annotations": {"at": 0}}, {"annotations": [{"at": 4}]},
                                  {"annotations": [{"at": "4", "text": "t"}]}, {"annotations": [["at", 4]]}])
def test_a_record_with_a_malformed_meta_or_annotation_is_refused_alike_by_check_and_import(
        service, store, example_record, part):
    bad = {**copy.deepcopy(example_record), **part}
    assert check_record(bad) == {"ok": False, "code": "bad_record", "message": check_record(bad)["message"]}
    before = store.stored_events()
    with pytest.raises(IllegalAction) as refused:
        service.records.import_record(bad)
    assert refused.value.code == "bad_record" and store.stored_events() == before


def test_import_refuses_a_bad_record_and_stores_nothing(service, store, example_record):
    before = store.stored_events()
    bad = copy.deepcopy(example_record)
    bad["actions"][17]["cards"] = ["D5", "SJ"]  # not a 斗地主 pattern
    with pytest.raises(IllegalAction) as refused:
        service.records.import_record(bad)
    assert refused.value.details["action"] == 17
    short = copy.deepcopy(example_record)
    del short["actions"][-1]
    with pytest.raises(IllegalAction) as incomplete:
        service.records.import_record(short)
    assert incomplete.value.code == "incomplete"
    wrong = copy.deepcopy(example_record)
    wrong["result"] = {"scores": [6, -3, -3]}
    with pytest.raises(IllegalAction) as mismatch:
        service.records.import_record(wrong)
    assert mismatch.value.code == "result_mismatch"
    assert store.stored_events() == before


def test_cli_import_and_export(tmp_path, db_path, example_record, capsys):
    records = tmp_path / "records.jsonl"
    broken = copy.deepcopy(example_record)
    broken["actions"][1]["seat"] = 1
    records.write_text(json.dumps(example_record, ensure_ascii=False) + "\n" + json.dumps(broken) + "\n{oops\n",
                       encoding="utf-8")
    assert fupan(["import", str(records), "--db", str(db_path)]) == 1
    reports = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["ok"] for r in reports] == [True, False, False]
    assert reports[1]["code"] == "not_your_turn" and reports[1]["action"] == 1
    assert reports[2]["code"] == "bad_json"
    assert fupan(["export", reports[0]["deal_id"], "--db", str(db_path)]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["actions"] == example_record["actions"] and exported["result"]["scores"] == EXAMPLE_SCORES
    assert fupan(["export", "00000000-0000-0000-0000-000000000000", "--db", str(db_path)]) == 1


def test_cli_exports_a_match_as_json_lines(db_path, example_record, capsys):
    service = Fupan.for_sqlite(str(db_path))
    try:
        match = open_table(service)
        play_example(service, match, example_record)
        play_example(service, match, example_record)
    finally:
        service.close()
    assert fupan(["export", "--match", match["id"], "--db", str(db_path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["meta"]["deal_number"] for line in lines] == [1, 2]
    assert all(line["result"]["scores"] == EXAMPLE_SCORES for line in lines)


def test_export_names_the_first_pre_bid_reveal_as_first(service, example_record):
    """docs/rules/doudizhu.md §2.7a.2: with a pre-bid 明牌 the record's `first` is the first such player."""
    match = open_table(service, first=2)
    deal, _ = service.deals.start(match=match["id"], hands=example_record["hands"], kitty=example_record["kitty"],
                                  first=2)
    service.deals.record(deal["id"], {"seat": 0, "type": "reveal", "stage": "start"})
    for seat in (0, 1, 2):
        service.deals.record(deal["id"], {"seat": seat, "type": "pass"})  # all pass: seat 0 becomes landlord
    exported = service.records.export_record(deal["id"], LOCAL)
    assert exported["first"] == 0
    report = check_record(exported)  # every action is accepted under first = 0; the deal is still live
    assert report["code"] == "incomplete" and "action" not in report
