"""K deal databases (issue 16, docs/OPERATIONS.md "K deal databases"): a tournament played over HTTP with its deals'
streams in two PostgreSQL databases stores each deal in the database its id maps to and nothing of it anywhere
else, answers the same standings, records and frames as the same actions with one database, rebuilds to the
same read models, and `fupan verify` checks every database's chains — naming the database a deleted row was in.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest
from conftest import LiveServer, Store
from postgres_cluster import application_env, create_schema, drop_schema
from test_processes import test_two_processes_taking_turns_record_one_deal_and_see_each_others_writes as taking_turns
from test_processes import two_servers

from cli.main import main as fupan
from domain.kernel.dealing import deal_from_seed
from domain.kernel.engine import DealSetup
from domain.store.deal_databases import configured, home
from fixtures.random_play import doudizhu as doudizhu_play

PLAYERS = [["甲", "乙", "丙"], ["丁", "戊", "己"]]
DEALS_PER_TABLE = 2
K = 2


@dataclass
class Run:
    """One store (K = 1 or K = 2) with the same tournament played on it over HTTP."""

    server: LiveServer
    env: dict[str, str]
    schema: str
    tournament: str = ""
    deals: list[str] = field(default_factory=list)
    keyed: list[str] = field(default_factory=list)  # deals whose actions were sent with an Idempotency-Key


def play(run: Run) -> None:
    """Two tables of 斗地主, two server-dealt deals each, every action over HTTP; table 1's with keys, one resent."""
    server = run.server
    created = server.post("/api/tournaments", {"name": "分库杯", "game": "doudizhu", "lots_seed": "分库"})
    assert created.status_code == 201, created.text
    run.tournament = created.json()["id"]
    path = f"/api/tournaments/{run.tournament}"
    for players in PLAYERS:
        for player in players:
            assert server.post(f"{path}/players", {"name": player}).status_code == 201
    assert server.post(f"{path}/rounds", {"label": "第1轮"}).status_code == 201
    for table, players in enumerate(PLAYERS, start=1):
        match = server.post(f"{path}/matches", {"table": str(table), "seats": players, "first": 0})
        assert match.status_code == 201, match.text
        for number in range(1, DEALS_PER_TABLE + 1):
            seed = f"分库-{table}-{number}"
            started = server.post(f"/api/matches/{match.json()['id']}/deals", {"seed": seed},
                                  headers={"Idempotency-Key": f"start-{table}-{number}"})
            assert started.status_code == 201, started.text
            deal = started.json()  # a live deal's hands are not answered: dealt again from the seed here
            hands, kitty = deal_from_seed(seed, doudizhu_play.ENGINE, deal["first"])
            setup = DealSetup("doudizhu", {}, players, deal["first"], hands, kitty, {})
            state = doudizhu_play.ENGINE.new_deal(setup)
            actions: list[dict[str, Any]] = []
            doudizhu_play.play_out(state, random.Random(f"{table}-{number}"), actions)
            for index, action in enumerate(actions):
                headers = {"Idempotency-Key": f"{deal['id']}-{index}"} if table == 1 else {}
                answer = server.post(f"/api/deals/{deal['id']}/actions", {"action": action}, headers=headers)
                assert answer.status_code == 201, answer.text
                if table == 1 and index == len(actions) - 1:  # the closing action sent again: answered, not stored
                    again = server.post(f"/api/deals/{deal['id']}/actions", {"action": action}, headers=headers)
                    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
                    assert again.json() == answer.json()
            run.deals.append(deal["id"])
            if table == 1:
                run.keyed.append(deal["id"])


def connect(params: dict[str, str], dbname: str) -> psycopg.Connection:
    return psycopg.connect(**{**params, "dbname": dbname}, autocommit=True)


def stream_counts(params: dict[str, str], dbname: str, schema: str) -> dict[str, dict[str, int]]:
    """{stream id: {topic: events}} of one database's events table."""
    with connect(params, dbname) as conn:
        rows = conn.execute(f'SELECT originator_id, topic, count(*) FROM "{schema}".fupan_events '
                            "GROUP BY originator_id, topic").fetchall()
    found: dict[str, dict[str, int]] = {}
    for uid, topic, count in rows:
        found.setdefault(str(uid), {})[topic.removeprefix("fupan:")] = count
    return found


def drop_everywhere(params: dict[str, str], schema: str) -> None:
    """Drop `schema` from the main database and from each deal database that has it."""
    drop_schema(params, schema)
    for index in range(K):
        try:
            with connect(params, deal_database(params, index)) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        except psycopg.OperationalError:  # not created (the run failed before)
            pass


@contextmanager
def k_server(params: dict[str, str]) -> Iterator[tuple[LiveServer, dict[str, str], str]]:
    """A server on a store of its own with K deal databases: (server, its environment, its schema)."""
    schema = f"kt_{uuid4().hex[:12]}"
    create_schema(params, schema)
    env = {**application_env(params, schema), "FUPAN_DEAL_DATABASES": str(K)}
    server = LiveServer(Store("postgres", env))
    try:
        yield server.start(), env, schema
    finally:
        server.stop()
        drop_everywhere(params, schema)


@pytest.fixture
def own_run(postgres_params: dict[str, str]) -> Iterator[Run]:
    """The tournament played on a K-database store of this test's own, for a test that breaks or adds to it (the
    module's `runs` are only read, so no test depends on which ran before it)."""
    with k_server(postgres_params) as (server, env, schema):
        run = Run(server, env, schema)
        play(run)
        yield run


@pytest.fixture(scope="module")
def runs(postgres_params: dict[str, str]) -> Iterator[dict[int, Run]]:
    """The same tournament played with one database and with K, read (never written) by the tests using it."""
    made: dict[int, Run] = {}
    try:
        for k in (1, K):
            schema = f"k{k}_{uuid4().hex[:12]}"
            create_schema(postgres_params, schema)
            env = {**application_env(postgres_params, schema), **({"FUPAN_DEAL_DATABASES": str(k)} if k > 1 else {})}
            made[k] = Run(LiveServer(Store("postgres", env)).start(), env, schema)
            play(made[k])
        yield made
    finally:
        for run in made.values():
            run.server.stop()
            drop_schema(postgres_params, run.schema)
        for index in range(K):
            try:
                with connect(postgres_params, deal_database(postgres_params, index)) as conn:
                    for run in made.values():
                        conn.execute(f'DROP SCHEMA IF EXISTS "{run.schema}" CASCADE')
            except psycopg.OperationalError:  # not created (the run failed before)
                pass


def comparable(document: Any) -> Any:
    """A document without what differs between two runs of the same actions: when and by which token, and the
    notification numbers (the deals' events are not in the main log with deal databases)."""
    if isinstance(document, dict):
        return {k: comparable(v) for k, v in document.items() if k not in ("as_of", "time", "recorded_by", "nid")}
    if isinstance(document, list):
        return [comparable(v) for v in document]
    return document


def deal_database(params: dict[str, str], index: int) -> str:
    return f"{params['dbname']}_deals_{index}"


def test_each_deals_events_and_keys_are_in_its_database_and_nothing_of_them_elsewhere(runs, postgres_params):
    run = runs[K]
    main = stream_counts(postgres_params, postgres_params["dbname"], run.schema)
    apart = [stream_counts(postgres_params, deal_database(postgres_params, i), run.schema) for i in range(K)]
    homes = {deal: home(UUID(deal), K) for deal in run.deals}
    assert set(homes.values()) == set(range(K)), "the tournament's deals should use both databases"
    for deal, index in homes.items():
        assert apart[index][deal]["Deal.Created"] == 1 and apart[index][deal]["Deal.Finished"] == 1
        assert deal not in main and all(deal not in apart[i] for i in range(K) if i != index)
    # A deal write's idempotency key is stored beside the deal, in its transaction (one per action: the closing
    # action's resend stored nothing); the tables', tournament's and tokens' streams and keys are on main.
    for index in range(K):
        keys = {uid: topics for uid, topics in apart[index].items() if uid not in homes}
        assert all(topics == {"IdempotentRequest.Created": 1, "IdempotentRequest.Answered": 1}
                   for topics in keys.values())
        assert len(keys) == sum(apart[index][deal]["Deal.ActionRecorded"] for deal in run.keyed
                                if homes[deal] == index)
    kinds = {topic.split(".")[0] for topics in main.values() for topic in topics}
    assert kinds == {"Tournament", "Match", "AccessToken", "IdempotentRequest"}
    assert sum("IdempotentRequest.Created" in topics for topics in main.values()) == len(PLAYERS) * DEALS_PER_TABLE
    # One database: everything on main, as before.
    assert set(runs[1].deals) <= set(stream_counts(postgres_params, postgres_params["dbname"], runs[1].schema))


def test_standings_records_frames_and_a_rebuild_equal_the_single_database_run(runs, postgres_params):
    one, two = runs[1], runs[K]
    assert one.deals == two.deals  # the ids are uuid5 of natural keys: the same actions, the same ids

    def standings(run: Run) -> dict[str, Any]:
        answer = run.server.get(f"/api/tournaments/{run.tournament}/standings")
        assert answer.status_code == 200, answer.text
        return comparable(answer.json())

    first = standings(one)
    assert first["rows"] and all(row["matches"] for row in first["rows"])
    assert standings(two) == first
    explain = [run.server.get(f"/api/tournaments/{run.tournament}/standings/{first['rows'][0]['player_id']}/explain")
               for run in (one, two)]
    assert all(answer.status_code == 200 for answer in explain)

    assert comparable(explain[1].json()) == comparable(explain[0].json())
    assert '"Deal.ActionRecorded"' in explain[1].text  # the deals' events, read from their databases

    def records(run: Run) -> list[dict[str, Any]]:
        answer = run.server.get(f"/api/tournaments/{run.tournament}/records", token=run.server.organiser)
        assert answer.status_code == 200, answer.text
        return [{k: record[k] for k in ("hands", "kitty", "actions", "result")}
                for record in map(__import__("json").loads, answer.text.splitlines())]

    assert records(two) == records(one)
    # A record imported into a store with two deal databases (one of its own: `runs` are only read) lands in its
    # own, and reads back the same.
    exported = one.server.get(f"/api/deals/{one.deals[0]}/record", token=one.server.organiser).json()
    with k_server(postgres_params) as (fresh, _, _):
        imported = fresh.post("/api/records", {k: v for k, v in exported.items() if k != "match"})
        assert imported.status_code == 201, imported.text
        uid = UUID(imported.json()["id"])
        assert fresh.service is not None and fresh.service.store.deal_home_label(uid) == (
            fresh.service.store.where_stored(uid)["database"])
        again = fresh.get(f"/api/deals/{uid}/record", token=fresh.organiser).json()
        assert (again["actions"], again["result"]) == (exported["actions"], exported["result"])
    for deal in two.deals[:1]:
        frames = [run.server.get(f"/ui-api/deals/{deal}/frames?viewpoint=referee") for run in (one, two)]
        assert frames[0].status_code == frames[1].status_code == 200
        assert frames[1].json()["frames"] == frames[0].json()["frames"]
    for run in (one, two):
        assert run.server.post("/api/admin/rebuild").status_code == 200
        assert run.server.get("/api/admin/verify", token=run.server.organiser).json()["ok"]
    assert standings(two) == standings(one) == first


def test_fupan_verify_checks_every_database_and_names_the_one_a_deleted_row_was_in(own_run, postgres_params,
                                                                                   monkeypatch, capsys):
    run = own_run
    for name, value in run.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("FUPAN_SIGNING_KEY", raising=False)
    capsys.readouterr()
    assert fupan(["verify"]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "store-wide chain of deal database 0" in out and "store-wide chain of deal database 1" in out
    # A printed digest is found wherever it is: a deal's closing digest, a deal database's chain head.
    head = next(line for line in out.splitlines() if "store-wide chain of deal database 1" in line)
    head_digest = head.split("head link #")[1].split()[1]
    closing = run.server.get(f"/api/deals/{run.deals[0]}").json()["digest"]
    assert fupan(["verify", "--digest", head_digest, "--digest", closing]) == 0
    found = capsys.readouterr().out
    assert f"of the store-wide chain of deal database 1 ({deal_database(postgres_params, 1)}.{run.schema})" in found
    assert f"digest of deal {run.deals[0]}" in found
    victim = next(deal for deal in run.deals if home(UUID(deal), K) == 1)
    with connect(postgres_params, deal_database(postgres_params, 1)) as conn:
        deleted = conn.execute(f'DELETE FROM "{run.schema}".fupan_events WHERE originator_id = %s AND '
                               "originator_version = 3 RETURNING topic", (UUID(victim),)).fetchall()
    assert deleted
    assert fupan(["verify"]) == 1
    err = capsys.readouterr().err
    label = f"deal database 1 ({deal_database(postgres_params, 1)}.{run.schema})"
    assert f"TAMPERED [deleted] {label}: Deal {victim}: version 3" in err
    assert f"hash chain BROKEN in deal {victim} ({label})" in err


def test_the_setting_is_checked_and_one_database_is_the_default():
    main = {"POSTGRES_DBNAME": "fupan", "POSTGRES_HOST": "db", "POSTGRES_SCHEMA": "public"}
    assert configured(None, main, "eventsourcing.postgres") == configured("1", main, "eventsourcing.postgres") == []
    two = configured("postgresql://u:p%40ss@other:6543/deals_a?schema=s, postgresql:///deals_b", main,
                     "eventsourcing.postgres")
    assert [d.overrides for d in two] == [
        {"POSTGRES_DBNAME": "deals_a", "POSTGRES_HOST": "other", "POSTGRES_PORT": "6543", "POSTGRES_USER": "u",
         "POSTGRES_PASSWORD": "p@ss", "POSTGRES_SCHEMA": "s"},
        {"POSTGRES_DBNAME": "deals_b", "POSTGRES_HOST": "db", "POSTGRES_SCHEMA": "public"}]
    assert [d.overrides["POSTGRES_DBNAME"] for d in configured("3", main, "eventsourcing.postgres")] == [
        "fupan_deals_0", "fupan_deals_1", "fupan_deals_2"]
    for bad, persistence in (("2", "eventsourcing.sqlite"), ("mysql://x/y", "eventsourcing.postgres")):
        with pytest.raises(ValueError, match="FUPAN_DEAL_DATABASES"):
            configured(bad, main, persistence)
    # The home of a deal is its id's alone, spread evenly.
    counts = [0] * 4
    for _ in range(4000):
        counts[home(uuid4(), 4)] += 1
    assert min(counts) > 850
    assert home(UUID(int=5), 4) == home(UUID(int=5), 4)


@contextmanager
def main_refuses_writes(params: dict[str, str], schema: str) -> Iterator[None]:
    """While inside, the main database refuses every insert into its events table as a conflicting writer's
    insert would be refused (a unique violation, raised by a trigger in the database itself); the deal databases
    write on."""
    with connect(params, params["dbname"]) as conn:
        conn.execute(f'CREATE FUNCTION "{schema}".refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN '
                     "RAISE EXCEPTION 'the main database refused the table''s part' "
                     "USING ERRCODE = 'unique_violation'; END $$")
        conn.execute(f'CREATE TRIGGER refuse_write BEFORE INSERT ON "{schema}".fupan_events FOR EACH ROW '
                     f'EXECUTE FUNCTION "{schema}".refuse_write()')
    try:
        yield
    finally:
        with connect(params, params["dbname"]) as conn:
            conn.execute(f'DROP TRIGGER refuse_write ON "{schema}".fupan_events')
            conn.execute(f'DROP FUNCTION "{schema}".refuse_write()')


def test_a_write_whose_main_part_failed_is_completed_by_the_next_write_that_needs_it(own_run, postgres_params):
    """The main database refuses the second transaction of a cross-database write (as a conflicting writer
    would): the closing action leaves its deal finished and the table unscored, which the table's next deal
    start scores first; a start whose table part failed leaves its deal's stream, which the resend adopts."""
    run = own_run
    server, service = run.server, run.server.service
    assert service is not None
    match = server.post(f"/api/tournaments/{run.tournament}/matches", {"table": "3", "seats": PLAYERS[0], "first": 0})
    assert match.status_code == 201, match.text
    match_id = match.json()["id"]

    first = server.post(f"/api/matches/{match_id}/deals", {"seed": "断开-1"}).json()
    hands, kitty = deal_from_seed("断开-1", doudizhu_play.ENGINE, first["first"])
    for attempt in range(100):  # a deal that leaves every seat chips (so the table goes on after it)
        state = doudizhu_play.ENGINE.new_deal(DealSetup("doudizhu", {}, PLAYERS[0], first["first"], hands, kitty, {}))
        actions: list[dict[str, Any]] = []
        doudizhu_play.play_out(state, random.Random(f"断开-{attempt}"), actions)
        if 0 < max(abs(score) for score in doudizhu_play.ENGINE.result(state)["scores"]) < 5:
            break
    for action in actions[:-1]:
        assert server.post(f"/api/deals/{first['id']}/actions", {"action": action}).status_code == 201
    head = service.store.recorder.max_notification_id()
    with main_refuses_writes(postgres_params, run.schema):
        closing = server.post(f"/api/deals/{first['id']}/actions", {"action": actions[-1]},
                              headers={"Idempotency-Key": "closing"})
    # The deal's part and its key were stored: the answer is the stored one (the table's part is the repair's).
    assert closing.status_code == 201 and closing.json()["finished"]
    assert service.store.recorder.max_notification_id() == head  # nothing of it on main
    assert server.get(f"/api/deals/{first['id']}").json()["finished"]
    assert [d["status"] for d in server.get(f"/api/matches/{match_id}").json()["deals"]] == ["live"]
    again = server.post(f"/api/deals/{first['id']}/actions", {"action": actions[-1]},
                        headers={"Idempotency-Key": "closing"})
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"  # the deal's part stood
    unscored = [f for f in service.audit.verify_store()["findings"] if f["kind"] == "unscored"]
    assert [f["id"] for f in unscored] == [match_id]

    # The next start at the table: its table part refused once (the deal's stream is stored), then resent.
    with main_refuses_writes(postgres_params, run.schema):
        refused = server.post(f"/api/matches/{match_id}/deals", {"seed": "断开-2"})
    assert refused.status_code == 409, refused.text
    second = server.post(f"/api/matches/{match_id}/deals", {"seed": "断开-2"})
    assert second.status_code == 201, second.text
    table = server.get(f"/api/matches/{match_id}").json()
    assert [d["status"] for d in table["deals"]] == ["finished", "live"]
    assert table["deals"][1]["deal_id"] == second.json()["id"]
    assert not [f for f in service.audit.verify_store()["findings"] if f.get("id") == match_id]


def test_two_server_processes_on_deals_in_two_databases_see_each_others_writes(postgres_params, tmp_path):
    """test_processes' turn-taking between two `fupan serve` processes, with the deals in two databases: each
    process's cache follows every deal database's log too (a stale write is 409, nothing stored)."""
    schema = f"kp_{uuid4().hex[:12]}"
    create_schema(postgres_params, schema)
    store = Store("postgres", {**application_env(postgres_params, schema), "FUPAN_DEAL_DATABASES": str(K)})
    try:
        with two_servers(store, tmp_path) as started:
            taking_turns(store, started)
    finally:
        drop_schema(postgres_params, schema)
        for index in range(K):
            with connect(postgres_params, deal_database(postgres_params, index)) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_deals_stored_before_deal_databases_were_configured_stay_on_main_and_are_recorded_there(
        postgres_params, monkeypatch, capsys):
    schema = f"kl_{uuid4().hex[:12]}"
    create_schema(postgres_params, schema)
    env = application_env(postgres_params, schema)
    setup = DealSetup("doudizhu", {}, PLAYERS[0], 0, *deal_from_seed("旧库", doudizhu_play.ENGINE, 0), {})
    state = doudizhu_play.ENGINE.new_deal(setup)
    actions: list[dict[str, Any]] = []
    doudizhu_play.play_out(state, random.Random("旧库"), actions)
    body = {"game": "doudizhu", "seats": PLAYERS[0], "first": 0, "hands": setup.hands, "kitty": setup.kitty}
    before = LiveServer(Store("postgres", env)).start()
    try:
        deal = before.post("/api/deals", body).json()["id"]
        assert before.post(f"/api/deals/{deal}/actions", {"action": actions[0]}).status_code == 201
    finally:
        before.stop()
    later = {**env, "FUPAN_DEAL_DATABASES": str(K)}
    after = LiveServer(Store("postgres", later)).start()
    try:
        for index, action in enumerate(actions[1:]):
            answer = after.post(f"/api/deals/{deal}/actions", {"action": action},
                                headers={"Idempotency-Key": f"late-{index}"})
            assert answer.status_code == 201, answer.text
        assert after.get(f"/api/deals/{deal}").json()["finished"]
        main = stream_counts(postgres_params, postgres_params["dbname"], schema)
        assert main[deal]["Deal.ActionRecorded"] == len(actions)  # all of it on main, as before
        assert sum("IdempotentRequest.Created" in topics for topics in main.values()) == len(actions) - 1
        for index in range(K):
            assert stream_counts(postgres_params, deal_database(postgres_params, index), schema) == {}
        for name, value in later.items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("FUPAN_SIGNING_KEY", raising=False)
        capsys.readouterr()
        assert fupan(["verify"]) == 0, capsys.readouterr()
    finally:
        after.stop()
        drop_schema(postgres_params, schema)
        for index in range(K):
            with connect(postgres_params, deal_database(postgres_params, index)) as conn:
                conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def test_a_table_stream_follows_deals_in_their_deal_databases_and_resumes_by_every_logs_position(
        postgres_params: dict[str, str]):
    """docs/streams.md "Resuming": with K deal databases an event's id is the K + 1 logs' positions, and a stream
    resumed with it gets what it missed in every one of them."""
    from conftest import EXAMPLE_RECORD
    from streams import Events, parse

    with k_server(postgres_params) as (server, _, _):
        tournament = server.post("/api/tournaments", {"name": "分库推送", "game": "doudizhu"}).json()["id"]
        server.post(f"/api/tournaments/{tournament}/delay", {"kind": "deals", "amount": 0})  # the public sees each play
        for name in EXAMPLE_RECORD["seats"]:
            server.post(f"/api/tournaments/{tournament}/players", {"name": name})
        match = server.post(f"/api/tournaments/{tournament}/matches",
                            {"table": "1", "seats": EXAMPLE_RECORD["seats"], "first": 2}).json()["id"]
        events = Events(f"{server.url}/api/matches/{match}/stream")
        try:
            opened = events.next()
            assert len(opened["id"].split(".")) == K + 1
            body = {"hands": EXAMPLE_RECORD["hands"], "kitty": EXAMPLE_RECORD["kitty"], "first": 2}
            deals = [server.post(f"/api/matches/{match}/deals", body).json()["id"]]
            version = 0
            for action in EXAMPLE_RECORD["actions"][:3]:
                version = server.post(f"/api/deals/{deals[0]}/actions", {"action": action}).json()["version"]
            told = events.until(lambda e: e["event"] == "deal" and e["data"]["version"] == version)
            assert told["data"]["step"] == 3
        finally:
            events.close()
        missed = parse(server.get(f"/api/matches/{match}/stream", headers={"Last-Event-ID": opened["id"]}).text)
        assert {e["event"] for e in missed} == {"table", "deal"}
        assert [e["data"]["version"] for e in missed if e["event"] == "deal"] == [version]
        # Nothing new since: at most the told version again (an event read just after its id's positions were
        # taken may be told twice on resuming, never missed).
        after = parse(server.get(f"/api/matches/{match}/stream", headers={"Last-Event-ID": told["id"]}).text)
        assert all(e["event"] == "deal" and e["data"]["version"] == version for e in after), (told, after)


def test_fupan_verify_names_a_deal_stored_in_the_wrong_database_and_where_a_missing_one_belongs(
        own_run, postgres_params, monkeypatch, capsys):
    """docs/SECURITY.md §9: a deal stream in a database its id does not map to is `misplaced` (rows copied between
    databases, or the list reordered); a table's deal with no stored events names the database it belongs in."""
    import json

    run = own_run
    for name, value in run.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("FUPAN_SIGNING_KEY", raising=False)
    label = {i: f"deal database {i} ({deal_database(postgres_params, i)}.{run.schema})" for i in range(K)}
    moved = next(deal for deal in run.deals if home(UUID(deal), K) == 1)
    gone = next(deal for deal in run.deals if deal != moved)
    events = f'"{run.schema}".fupan_events'
    with connect(postgres_params, deal_database(postgres_params, 1)) as conn:  # moved: from database 1 to 0
        rows = conn.execute(f"DELETE FROM {events} WHERE originator_id = %s RETURNING originator_id, "
                            "originator_version, topic, state", (UUID(moved),)).fetchall()
    with connect(postgres_params, deal_database(postgres_params, 0)) as conn:
        conn.cursor().executemany(f"INSERT INTO {events} (originator_id, originator_version, topic, state) "
                                  "VALUES (%s, %s, %s, %s)", rows)
    with connect(postgres_params, deal_database(postgres_params, home(UUID(gone), K))) as conn:
        conn.execute(f"DELETE FROM {events} WHERE originator_id = %s", (UUID(gone),))
    capsys.readouterr()
    assert fupan(["verify", "--json"]) == 1
    findings = json.loads(capsys.readouterr().out)["store"]["findings"]
    (misplaced,) = [f for f in findings if f["kind"] == "misplaced"]
    assert (misplaced["aggregate"], misplaced["id"], misplaced["database"]) == ("Deal", moved, label[0])
    assert misplaced["message"].startswith(f"{label[0]}: Deal {moved} is stored here, but its id maps to {label[1]} ")
    (missing,) = [f for f in findings if f["kind"] == "missing_stream"]
    assert missing["database"] == label[home(UUID(gone), K)]
    assert f"({gone}) has no stored events in {label[home(UUID(gone), K)]}: " in missing["message"]
