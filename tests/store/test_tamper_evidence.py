"""Tamper evidence (docs/SECURITY.md §9): someone who can write the database but does not hold the signing key
edits the stored rows directly — on a real SQLite file and on the real PostgreSQL server — and `fupan verify`
names each break: which aggregate, which version or link, what kind, with a non-zero exit.

Each test builds a small store in-process (a 斗地主 table: one server-dealt deal played to its end, one in
play; an access token), tampers with it as issue 16 measured, and runs the real `fupan verify`.
"""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import psycopg
import pytest
from conftest import Store
from paths import DATA

from cli.main import main as fupan
from domain.games import get_engine
from domain.kernel.integrity import GENESIS, next_digest
from domain.model.chain import digest_payload
from domain.model.token import LOCAL
from domain.records.format import parse_record
from domain.services.audit import audit_store
from domain.services.fupan import Fupan
from domain.store.logchain import link_digest
from fixtures.random_play.doudizhu import play_out

KEY = "e3b1c4f09a2d4c6b8e7f1a3c5d7e9f0b2c4d6e8f0a1b3c5d"
PLAYERS = ["甲", "乙", "丙"]


class Raw:
    """The store's tables as someone with the database open sees them: rows, not aggregates."""

    def __init__(self, store: Any):
        self.env = store.env
        self.postgres = store.backend == "postgres"
        if self.postgres:
            schema = store.env["POSTGRES_SCHEMA"]
            self.events, self.chain = f'"{schema}"."fupan_events"', f'"{schema}"."fupan_events_chain"'
        else:
            self.events, self.chain = "stored_events", '"stored_events_chain"'

    def _connect(self) -> Any:
        if self.postgres:
            env = self.env
            return psycopg.connect(host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                                   password=env["POSTGRES_PASSWORD"], dbname=env["POSTGRES_DBNAME"])
        return sqlite3.connect(self.env["SQLITE_DBNAME"])

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        sql = sql.format(events=self.events, chain=self.chain)
        if self.postgres:
            sql = sql.replace("?", "%s")
        with self._connect() as conn:
            cursor = conn.execute(sql, params)
            rows = cursor.fetchall() if cursor.description else []
        conn.close()
        return rows

    def many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """One statement for many rows, on one connection (as cheap as the attacker likes)."""
        sql = sql.format(events=self.events, chain=self.chain)
        if self.postgres:
            sql = sql.replace("?", "%s")
        with self._connect() as conn:
            conn.cursor().executemany(sql, rows)
        conn.close()

    def oid(self, uid: str) -> Any:
        return UUID(uid) if self.postgres else UUID(uid).hex

    def state(self, uid: str, version: int) -> dict[str, Any]:
        (row,) = self.run("SELECT state FROM {events} WHERE originator_id = ? AND originator_version = ?",
                          (self.oid(uid), version))
        return json.loads(bytes(row[0]))

    def set_state(self, uid: str, version: int, state: dict[str, Any]) -> None:
        self.run("UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                 (json.dumps(state, ensure_ascii=False, separators=(",", ":")).encode(), self.oid(uid), version))

    def versions(self, uid: str) -> list[tuple[int, str]]:
        return [(int(v), t) for v, t in self.run("SELECT originator_version, topic FROM {events} WHERE "
                                                 "originator_id = ? ORDER BY originator_version", (self.oid(uid),))]

    def delete(self, uid: str, version: int | None = None) -> None:
        if version is None:
            self.run("DELETE FROM {events} WHERE originator_id = ?", (self.oid(uid),))
        else:
            self.run("DELETE FROM {events} WHERE originator_id = ? AND originator_version = ?",
                     (self.oid(uid), version))

    def links(self) -> list[dict[str, Any]]:
        columns = ("seq", "prev", "at", "events", "adopted", "digest", "key_id", "signature")
        return [dict(zip(columns, row, strict=True))
                for row in self.run(f"SELECT {', '.join(columns)} FROM {{chain}} ORDER BY seq")]



class Built:
    """A small store: a finished server-dealt deal at table 1 and deal 2 in play there; a referee token."""

    def __init__(self, store: Any):
        self.store = store
        self.raw = Raw(store)
        app = self.open()
        try:
            tournament, _ = app.tournaments.create("校验杯", "doudizhu")
            self.tournament = tournament["id"]
            for name in PLAYERS:
                app.tournaments.register_player(self.tournament, name)
            match, _ = app.tables.open(self.tournament, "1", PLAYERS, first=0)
            self.match = match["id"]
            self.finished = self._deal(app, "seed-one", to_the_end=True)
            self.live = self._deal(app, "seed-two", to_the_end=False)
            self.token = app.tokens.create("referee", [self.match], "table 1")[0]["id"]
            self.round_digest = app.records.round_digests(self.tournament)[0]["digest"]
        finally:
            app.close()

    def open(self) -> Fupan:
        return Fupan(env={**self.store.env, "FUPAN_SIGNING_KEY": KEY})

    def _deal(self, app: Fupan, seed: str, *, to_the_end: bool) -> str:
        deal, _ = app.deals.start(match=self.match, seed=seed)
        setup, _, _ = parse_record(app.records.export_record(deal["id"], LOCAL))
        engine = get_engine("doudizhu")
        for attempt in range(50):  # a play long enough that its first four actions do not end it
            actions: list[dict[str, Any]] = []
            play_out(engine.new_deal(setup), random.Random(attempt), actions)
            if len(actions) > 5:
                break
        for action in actions if to_the_end else actions[:4]:
            app.deals.record(deal["id"], action)
        assert app.deals.get(deal["id"])["finished"] is to_the_end
        return deal["id"]

    def verify(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str,
               key: str | None = KEY) -> tuple[int, dict[str, Any]]:
        """`fupan verify --json` on this store (with the signing key in the environment unless `key` is None)."""
        for name, value in self.store.env.items():
            monkeypatch.setenv(name, value)
        if key is None:
            monkeypatch.delenv("FUPAN_SIGNING_KEY", raising=False)
        else:
            monkeypatch.setenv("FUPAN_SIGNING_KEY", key)
        capsys.readouterr()
        status = fupan(["verify", "--json", *args])
        return status, json.loads(capsys.readouterr().out)

    def findings(self, report: dict[str, Any]) -> list[tuple[str, str | None, str | None]]:
        return [(f["kind"], f["aggregate"], f["id"]) for f in report["store"]["findings"]]


@pytest.fixture
def built(store: Any) -> Iterator[Built]:
    yield Built(store)


def rechain(built: Built, uid: str) -> None:
    """What an attacker who read docs/ARCHITECTURE.md "Integrity" does after an edit: recompute the deal's hash
    chain (decoding and encoding the rows with the library's own transcoder)."""
    app = built.open()
    transcoder = app.store.mapper.transcoder
    try:
        digest, rows = GENESIS, []
        for version, topic, stored in built.raw.run("SELECT originator_version, topic, state FROM {events} WHERE "
                                                    "originator_id = ? ORDER BY originator_version",
                                                    (built.raw.oid(uid),)):
            state = transcoder.decode(bytes(stored))
            fields = {k: v for k, v in state.items() if k not in ("originator_id", "originator_version", "timestamp")}
            digest = next_digest(digest, digest_payload(topic, UUID(uid), version, state["timestamp"], fields))
            rows.append((transcoder.encode({**state, "digest": digest}), built.raw.oid(uid), version))
        built.raw.many("UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = ?", rows)
    finally:
        app.close()


def relink(raw: Raw, log: str, *, strip: bool = False) -> None:
    """Recompute every link from the stored rows (the documented scheme), keeping the old signatures (the
    attacker has no key) or stripping them."""
    hashes = {(UUID(str(o)).hex if not raw.postgres else str(o), int(v)): hashlib.sha256(bytes(s)).hexdigest()
              for o, v, s in raw.run("SELECT originator_id, originator_version, state FROM {events}")}
    prev, rows = GENESIS, []
    for link in raw.links():
        events = json.loads(link["events"])
        for entry in events:
            key = (UUID(entry[0]).hex if not raw.postgres else entry[0], entry[1])
            entry[3] = hashes.get(key, entry[3])
        digest = link_digest(log, link["seq"], prev, link["at"], events, link["adopted"])
        kid, signature = (None, None) if strip else (link["key_id"], link["signature"])
        rows.append((prev, json.dumps(events, separators=(",", ":")), digest, kid, signature, link["seq"]))
        prev = digest
    raw.many("UPDATE {chain} SET prev = ?, events = ?, digest = ?, key_id = ?, signature = ? WHERE seq = ?", rows)


def log_name(built: Built) -> str:
    return "fupan_events" if built.raw.postgres else "stored_events"


# --- the untouched store -----------------------------------------------------------------------------------


def test_an_untouched_signed_store_verifies(built, monkeypatch, capsys):
    status, report = built.verify(monkeypatch, capsys)
    assert status == 0 and report["ok"], report["store"]["findings"]
    store = report["store"]
    assert store["links"] > 0 and store["unsigned"] == 0 and store["signed"] == store["links"]
    assert store["events"] == sum(len(json.loads(link["events"])) for link in built.raw.links())
    assert set(store["aggregates"]) >= {"Tournament", "Match", "Deal", "AccessToken"}


# --- deleted and truncated streams ---------------------------------------------------------------------------


def test_deleting_all_of_a_deals_rows_is_named(built, monkeypatch, capsys):
    built.raw.delete(built.finished)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and not report["ok"]
    found = built.findings(report)
    assert ("deleted", "Deal", built.finished) in found
    assert ("missing_stream", "Match", built.match) in found  # the table names a deal with no stored events
    deleted = next(f for f in report["store"]["findings"] if f["kind"] == "deleted")
    assert "whole stream" in deleted["message"] and deleted["versions"][0] == 1
    (missing,) = [f for f in report["store"]["findings"] if f["kind"] == "missing_stream"]
    assert missing["message"] == (f"Match {built.match}: its deal 1 ({built.finished}) has no stored events: the "
                                  "deal's rows were deleted.")


def test_deleting_only_a_deals_created_event_is_named(built, monkeypatch, capsys):
    built.raw.delete(built.finished, 1)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    deleted = [f for f in report["store"]["findings"] if f["kind"] == "deleted"]
    assert [(f["id"], f["versions"]) for f in deleted] == [(built.finished, [1])]
    # with a chain the deleted creation is named once, as deleted (not also as a stream without its creation)
    assert sorted(f["kind"] for f in report["store"]["findings"]) == ["deleted", "missing_stream"]
    assert "Deal.Created" in deleted[0]["message"]
    assert ("missing_stream", "Match", built.match) in built.findings(report)
    (missing,) = [f for f in report["store"]["findings"] if f["kind"] == "missing_stream"]
    assert missing["message"] == (f"Match {built.match}: its deal 1 ({built.finished}) has no Deal.Created: the "
                                  "deal's rows were deleted.")


def test_deleting_the_last_action_of_a_live_deal_is_named(built, monkeypatch, capsys):
    last, topic = built.raw.versions(built.live)[-1]
    assert topic == "fupan:Deal.ActionRecorded"
    built.raw.delete(built.live, last)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    (deleted,) = report["store"]["findings"]
    assert (deleted["kind"], deleted["id"], deleted["versions"]) == ("deleted", built.live, [last])
    assert "cut short" in deleted["message"]
    assert report["chains"]["ok"]  # the deal's own chain cannot see a cut-off end: the store-wide one does


# --- commitments ---------------------------------------------------------------------------------------------


def test_a_replaced_sealed_seed_is_named(built, monkeypatch, capsys):
    created = built.raw.state(built.live, 1)
    built.raw.set_state(built.live, 1, {**created, "sealed_seed": "another seed"})
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    found = built.findings(report)
    assert ("sealed_seed", "Deal", built.live) in found  # the seed it would reveal is not the committed one
    assert ("edited", "Deal", built.live) in found
    (sealed,) = [f for f in report["store"]["findings"] if f["kind"] == "sealed_seed"]
    assert (sealed["version"], sealed["message"]) == (1, (
        f"Deal {built.live}: the sealed seed no longer hashes to the commitment published when it started; the seed "
        "it would reveal is not the one it committed to."))


def test_a_revealed_seed_that_misses_its_commitment_is_named_even_with_its_chain_recomputed(built, monkeypatch,
                                                                                            capsys):
    version = next(v for v, t in built.raw.versions(built.finished) if t == "fupan:Deal.SeedRevealed")
    revealed = built.raw.state(built.finished, version)
    built.raw.set_state(built.finished, version, {**revealed, "seed": "not the seed"})
    rechain(built, built.finished)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and report["chains"]["ok"]  # the deal's chain was recomputed: it holds
    found = built.findings(report)
    assert ("commitment", "Deal", built.finished) in found
    assert ("edited", "Deal", built.finished) in found
    (commitment,) = [f for f in report["store"]["findings"] if f["kind"] == "commitment"]
    assert (commitment["version"], commitment["message"]) == (version, (
        f"Deal {built.finished}: the revealed seed (version {version}) does not hash to the commitment published "
        "when it started."))


def test_hands_that_the_revealed_seed_does_not_deal_are_named(built, monkeypatch, capsys):
    created = built.raw.state(built.finished, 1)
    hands = created["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # two cards swapped between seats
    built.raw.set_state(built.finished, 1, {**created, "hands": hands})
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    assert ("redeal", "Deal", built.finished) in built.findings(report)
    (redeal,) = [f for f in report["store"]["findings"] if f["kind"] == "redeal"]
    assert (redeal["version"], redeal["message"]) == (1, (
        f"Deal {built.finished}: the revealed seed does not deal the stored hands and kitty "
        "(domain/kernel/dealing.py): the hands were changed after they were dealt."))


# --- recomputed chains without the key -------------------------------------------------------------------------


def test_an_edit_with_every_digest_recomputed_but_no_key_is_found(built, monkeypatch, capsys):
    version = next(v for v, t in built.raw.versions(built.finished) if t == "fupan:Deal.ActionRecorded")
    action = built.raw.state(built.finished, version)
    built.raw.set_state(built.finished, version, {**action, "recorded_by": {"role": "organiser", "token_id": None}})
    rechain(built, built.finished)
    relink(built.raw, log_name(built))  # every link recomputed; the signatures cannot be
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and report["chains"]["ok"]
    kinds = {f["kind"] for f in report["store"]["findings"]}
    assert kinds == {"bad_signature"}, report["store"]["findings"]

    relink(built.raw, log_name(built), strip=True)  # or with every signature stripped
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and {f["kind"] for f in report["store"]["findings"]} == {"unsigned"}


def test_without_a_key_verify_says_what_it_cannot_prove(built, monkeypatch, capsys):
    status, report = built.verify(monkeypatch, capsys, key=None)
    assert status == 0
    assert any(notice.startswith("NOT PROVEN") for notice in report["store"]["notices"])
    capsys.readouterr()
    assert fupan(["verify"]) == 0
    assert "NOT PROVEN: no signing key is configured" in capsys.readouterr().out


# --- tables against their deals ----------------------------------------------------------------------------------


def test_an_edited_deal_scored_is_found_even_after_a_rebuild(built, monkeypatch, capsys):
    versions = built.raw.versions(built.match)
    version = next(v for v, t in versions if t == "fupan:Match.DealScored")
    scored = built.raw.state(built.match, version)
    scores = scored["scores"]
    forged = [scores[1], scores[0], scores[2]] if scores[0] != scores[1] else [s + 1 for s in scores]
    built.raw.set_state(built.match, version, {**scored, "scores": forged})
    for name, value in built.store.env.items():
        monkeypatch.setenv(name, value)
    assert fupan(["rebuild"]) == 0  # the read models now project the edited event faithfully
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and report["difference"] is None  # the rebuild agrees with itself …
    found = built.findings(report)
    assert ("score_mismatch", "Match", built.match) in found  # … but not with the deal's own result
    assert ("edited", "Match", built.match) in found


# --- every aggregate, not only deals ----------------------------------------------------------------------------


def test_edits_of_a_token_and_a_tournament_are_found(built, monkeypatch, capsys):
    token = built.raw.state(built.token, 1)
    built.raw.set_state(built.token, 1, {**token, "role": "organiser", "matches": []})
    version = next(v for v, t in built.raw.versions(built.tournament) if t == "fupan:Tournament.PlayerRegistered")
    player = built.raw.state(built.tournament, version)
    built.raw.set_state(built.tournament, version, {**player, "name": "冒名"})
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    edited = {(f["aggregate"], f["id"], f["version"]) for f in report["store"]["findings"] if f["kind"] == "edited"}
    assert edited == {("AccessToken", built.token, 1), ("Tournament", built.tournament, version)}


def test_an_event_inserted_into_the_database_is_found(built, monkeypatch, capsys):
    last, _ = built.raw.versions(built.live)[-1]
    forged = {**built.raw.state(built.live, last), "originator_version": last + 1}
    built.raw.run("INSERT INTO {events} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
                  (built.raw.oid(built.live), last + 1, "fupan:Deal.ActionRecorded",
                   json.dumps(forged, separators=(",", ":")).encode()))
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    assert [(f["kind"], f["id"], f["version"]) for f in report["store"]["findings"]] == [
        ("inserted", built.live, last + 1)]


def test_a_deleted_link_is_found_and_a_cut_off_tail_by_the_printed_head(built, monkeypatch, capsys):
    links = built.raw.links()
    status, report = built.verify(monkeypatch, capsys)
    head = report["store"]["head"]["digest"]
    built.raw.run("DELETE FROM {chain} WHERE seq = ?", (links[2]["seq"],))
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and ("link_missing", None, None) in built.findings(report)

    # The tail: the live deal's last action and its link both removed. The chain alone cannot see it; the
    # head printed (or kept) before can.
    built.raw.run("INSERT INTO {chain} (seq, prev, at, events, adopted, digest, key_id, signature) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", tuple(links[2].values()))
    last, _ = built.raw.versions(built.live)[-1]
    tail = [link for link in links if f'"{built.live}",{last},' in link["events"]]
    built.raw.delete(built.live, last)
    built.raw.run("DELETE FROM {chain} WHERE seq >= ?", (tail[0]["seq"],))
    status, report = built.verify(monkeypatch, capsys, "--digest", head)
    assert status == 1
    assert [f["kind"] for f in report["digests"][0]["findings"]] == ["digest_not_found"]


# --- published digests --------------------------------------------------------------------------------------


def test_an_emptied_chain_is_found(built, monkeypatch, capsys):
    built.raw.run("DELETE FROM {chain}")
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and [f["kind"] for f in report["store"]["findings"]] == ["unchained"]
    status, report = built.verify(monkeypatch, capsys, key=None)  # without the key too: no store is left unlinked
    assert status == 1 and [f["kind"] for f in report["store"]["findings"]] == ["unchained"]


def test_a_printed_round_digest_checks_against_the_store(built, monkeypatch, capsys):
    status, report = built.verify(monkeypatch, capsys, "--digest", built.round_digest[:20])
    assert status == 0, report
    (found,) = report["digests"][0]["matches"]
    assert (found["kind"], found["tournament"], found["round"], found["deals"]) == ("round", "校验杯", 1, 1)

    # The finished deal's chain recomputed after an edit: its closing digest, hence the round's, is another.
    version = next(v for v, t in built.raw.versions(built.finished) if t == "fupan:Deal.ActionRecorded")
    action = built.raw.state(built.finished, version)
    built.raw.set_state(built.finished, version, {**action, "recorded_by": {"role": "referee", "token_id": None}})
    rechain(built, built.finished)
    status, report = built.verify(monkeypatch, capsys, "--digest", built.round_digest)
    assert status == 1 and report["digests"][0]["matches"] == []


def test_an_old_store_without_a_chain_says_so_and_does_not_fail(tmp_path, monkeypatch, capsys):
    """A store written before the chain existed: the first time this code opens it (the upgrade) link 1 adopts
    its events, signed if a key is configured; verify passes and says from when they are proven."""
    import shutil

    copy = tmp_path / "legacy.sqlite"
    shutil.copyfile(DATA / "legacy_store.sqlite", copy)
    with sqlite3.connect(copy) as raw:  # as written: no chain table at all
        assert raw.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'stored_events_chain'").fetchone() == (0,)
    monkeypatch.setenv("FUPAN_SIGNING_KEY", KEY)
    capsys.readouterr()
    assert fupan(["verify", "--db", str(copy), "--json"]) == 0
    store = json.loads(capsys.readouterr().out)["store"]
    assert store["ok"] and store["links"] == 1 and store["signed"] == 1 and store["events"] == 1347
    assert any("adopted the 1347 events stored before the chain existed" in notice for notice in store["notices"])
    app = Fupan(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(copy),
                                "FUPAN_SIGNING_KEY": KEY})
    try:
        # and every write from then on is linked
        app.tournaments.register_player(app.tournaments.all()[0]["id"], "新人")
        report = audit_store(app.store)
        assert report["ok"] and report["links"] == 2
    finally:
        app.close()


def test_writers_racing_from_two_applications_keep_one_unbroken_chain(store):
    """Two applications (two processes' worth of connections and caches) writing at once: every link follows
    the one before, each writer's remembered head goes stale and is read again, and nothing is unchained."""
    import threading

    env = {**store.env, "FUPAN_SIGNING_KEY": KEY}
    apps = [Fupan(env=env) for _ in range(2)]
    try:
        def register(app: Fupan, prefix: str) -> None:
            for n in range(50):  # aggregates of its own: no version conflicts, only a race for the chain
                app.tournaments.create(f"{prefix}杯{n}", "doudizhu")

        threads = [threading.Thread(target=register, args=(app, f"p{i}-")) for i, app in enumerate(apps)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        report = audit_store(apps[0].store)
        assert report["ok"], report["findings"]
        assert report["links"] == 2 * 50 and report["signed"] == report["links"] and report["events"] == 2 * 50
        from domain.model.ids import tournament_id

        writer = {str(tournament_id(f"p{i}-杯{n}")): i for i in range(2) for n in range(50)}
        order = [writer[json.loads(link["events"])[0][0]] for link in Raw(store).links()]
        assert sum(a != b for a, b in zip(order, order[1:], strict=False)) >= 1  # the writers did interleave
    finally:
        for app in apps:
            app.close()


def test_a_rotated_key_still_verifies_old_links_and_a_bad_key_is_refused(tmp_path, monkeypatch, capsys):
    from conftest import Store

    built = Built(Store.sqlite(tmp_path / "rotated.sqlite"))  # signed with KEY
    new_key = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a6978"
    keys = tmp_path / "signing.keys"
    keys.write_text(f"# fupan signing keys: the first signs, all verify\n{new_key}\n{KEY}\n", encoding="utf-8")
    monkeypatch.setenv("FUPAN_SIGNING_KEY_FILE", str(keys))
    status, report = built.verify(monkeypatch, capsys, key=None)
    assert status == 0 and len(report["store"]["keys"]) == 2
    app = Fupan(env={**built.store.env, "FUPAN_SIGNING_KEY_FILE": str(keys)})
    app.tournaments.register_player(built.tournament, "新来的")  # signed with the new key from now on
    app.close()
    status, report = built.verify(monkeypatch, capsys, key=None)
    assert status == 0 and len(report["store"]["keys"]) == 2

    keys.write_text(f"{new_key}\n", encoding="utf-8")  # the old key dropped from the file: its links cannot be checked
    status, report = built.verify(monkeypatch, capsys, key=None)
    assert status == 1 and {f["kind"] for f in report["store"]["findings"]} == {"unknown_key"}

    monkeypatch.setenv("FUPAN_SIGNING_KEY", "too short")
    capsys.readouterr()
    assert fupan(["verify"]) == 2
    assert "A signing key has at least 32 characters." in capsys.readouterr().err


def test_the_text_report_names_the_aggregate_the_version_and_the_break(built, monkeypatch, capsys):
    last, _ = built.raw.versions(built.live)[-1]
    built.raw.delete(built.live, last)
    for name, value in built.store.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("FUPAN_SIGNING_KEY", KEY)
    capsys.readouterr()
    assert fupan(["verify"]) == 1
    out, err = capsys.readouterr()
    assert (f"TAMPERED [deleted] Deal {built.live}: it was cut short: version {last} (Deal.ActionRecorded) was "
            "deleted") in err
    assert "store-wide chain of" in out and "signed (keys" in out


def test_a_store_in_several_databases_is_audited_log_by_log(tmp_path):
    """Deal streams kept in other databases (issue 16's K databases): each log's chain is audited on its own,
    and a break in the second database is named with the log it is in."""
    from conftest import Store

    main, other = (Built(Store.sqlite(tmp_path / f"{name}.sqlite")) for name in ("main", "deals"))
    apps = [main.open(), other.open()]
    try:
        assert audit_store(apps[0].store, [apps[1].store])["ok"]
        other.raw.delete(other.finished, 1)  # its creation only: the rest of its stream is still there
        assert audit_store(apps[0].store)["ok"]  # the main database alone does not know
        report = audit_store(apps[0].store, [apps[1].store])
        assert ("deleted", other.finished, 1) in {(f["kind"], f["id"], f.get("log")) for f in report["findings"]}
        assert len(report["logs"]) == 2
        # named with its database (a store without a label of its own is "log N") and only once: with a chain
        (deleted,) = [f for f in report["findings"] if f["kind"] == "deleted"]
        assert (deleted["database"], deleted["message"][:12]) == ("log 1", "log 1: Deal ")
        assert "missing_created" not in {f["kind"] for f in report["findings"]}
        second = audit_store(apps[1].store)
        assert report["logs"][1] == {**{k: second[k] for k in ("log", "links", "signed", "unsigned", "events", "head",
                                                             "keys")}, "database": "log 1"}
    finally:
        for app in apps:
            app.close()
    bare = [Fupan(env=built.store.env) for built in (main, other)]  # verified without the key: each log says so
    try:
        notices = audit_store(bare[0].store, [bare[1].store])["notices"]
        assert [notice[:33] for notice in notices] == ["NOT PROVEN: no signing key is con",
                                                       "log 1 (stored_events): NOT PROVEN"]
    finally:
        for app in bare:
            app.close()
    main.raw.run("DELETE FROM {chain}")  # the main database's chain emptied: the further one's still names the
    apps = [main.open(), other.open()]  # deleted creation, once (as deleted, not also as a missing creation)
    try:
        kinds = sorted((f["kind"], f.get("database")) for f in audit_store(apps[0].store, [apps[1].store])["findings"])
        assert kinds == [("deleted", "log 1"), ("missing_stream", None), ("unchained", None)]
    finally:
        for app in apps:
            app.close()


def test_an_event_edited_into_something_unreadable_is_named(built, monkeypatch, capsys):
    built.raw.run("UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = 2",
                  (b"{not json", built.raw.oid(built.finished)))
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    found = built.findings(report)
    assert ("unreadable", "Deal", built.finished) in found and ("edited", "Deal", built.finished) in found
    assert not any(kind == "missing_stream" for kind, _, _ in found)


def test_a_followed_event_edited_into_something_unreadable_is_named_without_a_traceback(built, monkeypatch, capsys):
    version = next(v for v, t in built.raw.versions(built.match) if t == "fupan:Match.DealScored")
    built.raw.run("UPDATE {events} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                  (b"{not json", built.raw.oid(built.match), version))
    status, report = built.verify(monkeypatch, capsys)  # the read models cannot be rebuilt past it
    assert status == 1 and "cannot be rebuilt" in report["difference"]["error"]
    found = built.findings(report)
    assert ("unreadable", "Match", built.match) in found and ("edited", "Match", built.match) in found


# --- the links themselves: each link's digest against its content, each `prev` against the link before ------------


def _link_holding(built: Built, uid: str, version: int) -> dict[str, Any]:
    """The link of the store-wide chain that lists event (uid, version)."""
    return next(link for link in built.raw.links()
                if any(entry[0] == uid and entry[1] == version for entry in json.loads(link["events"])))


def test_a_token_made_organiser_with_its_hash_rewritten_in_its_link_is_named_as_an_edited_link(built, monkeypatch,
                                                                                                capsys):
    """Issue 26: the referee token's role changed to organiser, and that event's hash rewritten in its link row so
    that the events agree with the chain; the link's digest (and so its signature) stays the old one. Only the
    check of a link's digest against its content sees it: `link_edited`, naming that link, and nothing else."""
    token = built.raw.state(built.token, 1)
    assert token["role"] == "referee"
    built.raw.set_state(built.token, 1, {**token, "role": "organiser", "matches": []})
    link = _link_holding(built, built.token, 1)
    (stored,) = built.raw.run("SELECT state FROM {events} WHERE originator_id = ? AND originator_version = 1",
                              (built.raw.oid(built.token),))
    events = json.loads(link["events"])
    for entry in events:
        if entry[0] == built.token and entry[1] == 1:
            entry[3] = hashlib.sha256(bytes(stored[0])).hexdigest()
    built.raw.run("UPDATE {chain} SET events = ? WHERE seq = ?",
                  (json.dumps(events, separators=(",", ":")), link["seq"]))
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1 and not report["ok"]
    assert [(f["kind"], f["link"]) for f in report["store"]["findings"]] == [("link_edited", link["seq"])]
    assert "changed after it was written" in report["store"]["findings"][0]["message"]


def test_a_link_whose_prev_was_rewritten_is_named_as_a_broken_link(built, monkeypatch, capsys):
    """A link in the middle made to follow something else and its digest recomputed (without the key): `prev`
    is checked on every link, not only the first — the rewritten link and the one after it no longer follow."""
    links = built.raw.links()
    assert len(links) > 4
    middle = links[len(links) // 2]
    seq, forged_prev = middle["seq"], "f" * 64
    digest = link_digest(log_name(built), seq, forged_prev, middle["at"], json.loads(middle["events"]),
                         int(middle["adopted"]))
    built.raw.run("UPDATE {chain} SET prev = ?, digest = ? WHERE seq = ?", (forged_prev, digest, seq))
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    found = [(f["kind"], f["link"]) for f in report["store"]["findings"]]
    assert found == [("link_broken", seq), ("bad_signature", seq), ("link_broken", seq + 1)], found


def test_a_digest_that_is_not_16_to_64_hex_digits_is_refused(db_path):
    """§9: `fupan verify --digest HEX` takes 16 or more hex digits (spaces and dashes between groups ignored); anything
    else is named as such, matches nothing and fails."""
    app = Store.sqlite(db_path).open()
    try:
        for text in ("12ab 34cd 56ef", "zz" * 10, "ab" * 33, "a" * 15, "a" * 65):  # and one digit short or over
            assert app.audit.check_digest(text) == {"digest": text, "ok": False, "matches": [], "findings": [{
                "kind": "bad_digest", "aggregate": None, "id": None, "version": None, "position": None, "link": None,
                "message": "A digest is 16 to 64 hexadecimal digits (spaces and dashes between groups are ignored)."}]}
        assert [f["kind"] for f in app.audit.check_digest("12AB-34cd 56ef-7890")["findings"]] == ["digest_not_found"]
    finally:
        app.close()


# --- the link as documented (docs/SECURITY.md §9, domain/store/logchain.py's table) ------------------------------


def documented_digest(log: str, link: dict[str, Any]) -> str:
    """A link's digest from the documented scheme, computed here and not by the code under test: SHA-256 of the
    canonical JSON (keys sorted, no white space, UTF-8) of {format: "fupan.chain/1", log, seq, prev, at, events,
    adopted}."""
    content = {"format": "fupan.chain/1", "log": log, "seq": int(link["seq"]), "prev": link["prev"],
               "at": link["at"], "events": json.loads(link["events"]), "adopted": int(link["adopted"])}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def stored_rows(raw: Raw) -> list[list[Any]]:
    """Every stored event in storage order as a link lists it: [aggregate id, version, topic, SHA-256 of its bytes]."""
    order = "notification_id" if raw.postgres else "rowid"
    return [[str(UUID(str(o))), int(v), t, hashlib.sha256(bytes(s)).hexdigest()]
            for o, v, t, s in raw.run(f"SELECT originator_id, originator_version, topic, state FROM {{events}} "
                                      f"ORDER BY {order}")]


def test_every_link_is_the_documented_record_of_its_write_chained_and_signed(built, monkeypatch, capsys):
    """Anyone can recompute the chain from the rows with §9's scheme alone: links 1, 2, 3 … each following the
    digest of the one before (64 zeros for link 1), listing every stored event once and in order, each digest
    SHA-256 of the documented content and signed with HMAC-SHA-256 by the key the link names. `fupan verify`
    says what it checked: the log, its links, signed and unsigned, the events, the keys it holds and the head."""
    import hmac
    from datetime import datetime, timedelta

    links = built.raw.links()
    assert [int(link["seq"]) for link in links] == list(range(1, len(links) + 1))
    prev = "0" * 64
    for link in links:
        assert link["prev"] == prev and link["digest"] == documented_digest(log_name(built), link)
        assert int(link["adopted"]) == 0  # a store written by this code from its start adopts nothing
        assert datetime.fromisoformat(link["at"]).utcoffset() == timedelta(0)
        assert link["key_id"] == hashlib.sha256(f"fupan-key-id:{KEY}".encode()).hexdigest()[:16]
        assert link["signature"] == hmac.new(KEY.encode(), f"fupan.chain/1:{link['digest']}".encode(),
                                             hashlib.sha256).hexdigest()
        prev = link["digest"]
    assert [entry for link in links for entry in json.loads(link["events"])] == stored_rows(built.raw)
    status, report = built.verify(monkeypatch, capsys)
    summary = {k: report["store"][k] for k in ("log", "links", "signed", "unsigned", "events", "keys", "head")}
    assert status == 0 and summary == {
        "log": log_name(built), "links": len(links), "signed": len(links), "unsigned": 0,
        "events": len(stored_rows(built.raw)), "keys": [links[0]["key_id"]],
        "head": {"seq": len(links), "digest": links[-1]["digest"], "at": links[-1]["at"]}}
    # one database: `store.logs` lists its chain alone, with the same figures and its notices
    assert report["store"]["logs"] == [{**summary, "notices": report["store"]["notices"]}]

    # one write transaction, one link: listing exactly the events that write stored
    before = len(stored_rows(built.raw))
    app = built.open()
    try:
        app.tournaments.register_player(built.tournament, "丁")
    finally:
        app.close()
    (new,) = built.raw.links()[len(links):]
    assert new["prev"] == prev and new["digest"] == documented_digest(log_name(built), new)
    assert json.loads(new["events"]) == stored_rows(built.raw)[before:] != []


def test_the_chain_read_a_page_at_a_time_is_every_link_in_order(built):
    """The audit reads the chain in pages; whatever their size (one link, a few, exactly the chain's length or
    more), every link comes back once, in order."""
    links = built.raw.links()
    app = built.open()
    try:
        recorder = app.store.recorder
        for page in (1, 2, 3, len(links), len(links) + 1):
            read = [(int(link["seq"]), link["digest"]) for link in recorder.chain_links(page=page)]
            assert read == [(int(link["seq"]), link["digest"]) for link in links], page
    finally:
        app.close()


def test_a_sqlite_writer_reads_the_chains_head_only_when_another_process_wrote_since(tmp_path, monkeypatch):
    """§9's cost of a link on SQLite: the process remembers the head it wrote last and links its next write with
    one conditional INSERT; only when another process wrote since does it read the head, and the chain stays whole.
    The statements are watched on the library's own SQLite connections (sqlite3's trace), nothing replaced."""
    from eventsourcing.sqlite import SQLiteConnectionPool

    head_reads: list[str] = []
    create = SQLiteConnectionPool._create_connection

    def traced(pool: SQLiteConnectionPool) -> Any:
        connection = create(pool)
        connection._sqlite_conn.set_trace_callback(
            lambda sql: head_reads.append(sql) if "ORDER BY seq DESC LIMIT 1" in sql else None)
        return connection

    monkeypatch.setattr(SQLiteConnectionPool, "_create_connection", traced)
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "store.sqlite"),
           "FUPAN_SIGNING_KEY": KEY}
    first, second = Fupan(env=env), Fupan(env=env)
    try:
        def reads_while(write: Any) -> int:
            before = len(head_reads)
            write()
            return len(head_reads) - before

        assert reads_while(lambda: first.tournaments.create("一杯", "doudizhu")) == 1  # a new process: head unknown
        assert reads_while(lambda: first.tournaments.create("二杯", "doudizhu")) == 0  # its own head: no read
        assert reads_while(lambda: first.tournaments.create("二杯乙", "doudizhu")) == 0  # and the one it linked
        assert reads_while(lambda: second.tournaments.create("三杯", "doudizhu")) == 1
        assert reads_while(lambda: first.tournaments.create("四杯", "doudizhu")) == 1  # the other wrote since
        assert reads_while(lambda: first.tournaments.create("五杯", "doudizhu")) == 0
        report = audit_store(first.store)
        assert report["ok"], report["findings"]
        assert (report["links"], report["signed"], report["events"]) == (6, 6, 6)
    finally:
        first.close()
        second.close()
    with sqlite3.connect(env["SQLITE_DBNAME"]) as raw:
        raw.execute('DROP TABLE "stored_events_chain"')
    raw.close()
    third = Fupan(env=env)  # takes the store for an old one: its link 1 adopts the six events
    try:
        assert reads_while(lambda: third.tournaments.create("六杯", "doudizhu")) == 0  # the link it wrote is the head
        report = audit_store(third.store)
        assert report["ok"] and (report["links"], report["events"]) == (2, 7)
    finally:
        third.close()


def test_each_shape_of_deletion_is_named_with_its_versions_and_the_link_that_recorded_them(built, monkeypatch,
                                                                                           capsys):
    """§9: a `deleted` finding says how much of the aggregate went — its creation and more, a run in the middle,
    its end — naming the versions (runs written a–b) and the link that recorded the first of them. A table whose
    `Match.DealScored` went names the finished deal it no longer scores (`unscored`)."""
    links = built.raw.links()

    def recorded_in(uid: str, version: int) -> int:
        return next(int(link["seq"]) for link in links if [uid, version] in [e[:2] for e in json.loads(link["events"])])

    for version in (3, 4, 6):
        built.raw.delete(built.finished, version)  # a run and one more, in the middle
    for version in (1, 2, 3):
        built.raw.delete(built.tournament, version)  # its creation, and more
    last, _ = built.raw.versions(built.live)[-1]
    built.raw.delete(built.live, last - 1)
    built.raw.delete(built.live, last)  # its end: two actions
    built.raw.delete(built.match, 3)  # the table's Match.DealScored
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    deleted = {f["id"]: f for f in report["store"]["findings"] if f["kind"] == "deleted"}
    assert {uid: (f["aggregate"], f["versions"], f["version"], f["link"]) for uid, f in deleted.items()} == {
        built.finished: ("Deal", [3, 4, 6], 3, recorded_in(built.finished, 3)),
        built.tournament: ("Tournament", [1, 2, 3], 1, recorded_in(built.tournament, 1)),
        built.live: ("Deal", [last - 1, last], last - 1, recorded_in(built.live, last - 1)),
        built.match: ("Match", [3], 3, recorded_in(built.match, 3)),
    }
    assert deleted[built.finished]["message"] == (
        f"Deal {built.finished}: versions 3–4, 6 (Deal.ActionRecorded, Deal.ActionRecorded, Deal.ActionRecorded) "
        f"were deleted; link #{recorded_in(built.finished, 3)} recorded them.")
    assert deleted[built.tournament]["message"] == (
        f"Tournament {built.tournament}: version 1 (Tournament.Created) was deleted, and versions 2–3; "
        f"link #{recorded_in(built.tournament, 1)} recorded them.")
    assert deleted[built.live]["message"] == (
        f"Deal {built.live}: it was cut short: versions {last - 1}–{last} (Deal.ActionRecorded last) were deleted; "
        f"link #{recorded_in(built.live, last - 1)} recorded them.")
    assert deleted[built.match]["message"] == (
        f"Match {built.match}: version 3 (Match.DealScored) was deleted; link #{recorded_in(built.match, 3)} "
        "recorded it.")
    (unscored,) = [f for f in report["store"]["findings"] if f["kind"] == "unscored"]
    assert (unscored["aggregate"], unscored["id"]) == ("Match", built.match)
    assert built.finished in unscored["message"] and "Match.DealScored" in unscored["message"]


def test_a_standing_edited_with_its_scores_left_alone_is_named(built, monkeypatch, capsys):
    """§9: each `Match.DealScored` is what the table's rules make of the standing before it; a standing edited
    alone (the chips moved, the deal's scores kept) is `standing_mismatch`."""
    version = next(v for v, t in built.raw.versions(built.match) if t == "fupan:Match.DealScored")
    scored = built.raw.state(built.match, version)
    chips = scored["standing"]["chips"]
    forged = {**scored, "standing": {**scored["standing"], "chips": [chips[0] + 5, chips[1] - 5, *chips[2:]]}}
    built.raw.set_state(built.match, version, forged)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    found = [(f["kind"], f["aggregate"], f["id"], f["version"]) for f in report["store"]["findings"]]
    assert sorted(found) == [("edited", "Match", built.match, version),
                             ("standing_mismatch", "Match", built.match, version)]


def test_a_table_whose_rows_were_deleted_is_named_by_its_tournament(built, monkeypatch, capsys):
    """§9: every table a tournament opened has its stream: all of a table's rows deleted is named by the
    tournament (`missing_stream`, with the table's number), besides the `deleted` rows themselves."""
    built.raw.delete(built.match)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    missing = [f for f in report["store"]["findings"] if f["kind"] == "missing_stream"]
    assert [(f["aggregate"], f["id"], f["version"]) for f in missing] == [
        ("Tournament", built.tournament, built.raw.versions(built.tournament)[-1][0])]
    assert "its table 1 " in missing[0]["message"] and built.match in missing[0]["message"]
    assert ("deleted", "Match", built.match) in built.findings(report)


def test_after_an_emptied_chain_the_next_write_adopts_every_earlier_event_and_verify_notes_it(built, monkeypatch,
                                                                                             capsys):
    """§9: the chain emptied is `unchained`; once the service writes again its link 1 adopts every event stored
    before it, as at an upgrade, so they are covered from then on — and `fupan verify` notes the adoption and its
    time, which on a store that had a chain from the start is the alarm."""
    rows = stored_rows(built.raw)
    built.raw.run("DELETE FROM {chain}")
    app = built.open()
    try:
        app.tournaments.register_player(built.tournament, "丁")
    finally:
        app.close()
    (link,) = built.raw.links()
    listed = json.loads(link["events"])
    assert int(link["seq"]) == 1 and link["prev"] == "0" * 64 and int(link["adopted"]) == len(rows)
    assert listed[:len(rows)] == rows and listed == stored_rows(built.raw)
    assert link["digest"] == documented_digest(log_name(built), link)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 0, report["store"]["findings"]
    assert report["store"]["events"] == len(listed)
    assert any(f"Link #1 ({link['at']}) adopted the {len(rows)} events stored before the chain existed" in notice
               for notice in report["store"]["notices"])


def test_canonical_json_is_the_documented_one_and_a_chain_step_hashes_it_after_the_previous_digest():
    """docs/record-format.md "Round digests": d_n = SHA-256(d_{n−1} + canonical JSON of event n), canonical JSON
    being keys sorted, no insignificant white space, UTF-8 — a player's name kept as its characters, not escaped,
    so any implementation recomputes the same digest."""
    from domain.kernel.integrity import canonical_json

    event = {"seats": ["甲", "乙"], "type": "fupan:Deal.Created", "deal": "d", "version": 1, "kitty": None}
    text = '{"deal":"d","kitty":null,"seats":["甲","乙"],"type":"fupan:Deal.Created","version":1}'
    assert canonical_json(event) == text
    assert next_digest("0" * 64, event) == hashlib.sha256(("0" * 64 + text).encode("utf-8")).hexdigest()
    assert GENESIS == "0" * 64


def test_a_dropped_chain_table_is_taken_for_an_old_store_and_its_adoption_is_noted(built, monkeypatch, capsys):
    """§9, "The chain table dropped altogether, then the service opened again": it takes the store for an old one
    and its link 1 adopts every event there, signed; `fupan verify` passes and notes the adoption and its time —
    on a store that had a chain from the start, that note is the alarm."""
    rows = stored_rows(built.raw)
    built.raw.run("DROP TABLE {chain}")
    built.open().close()  # the service opened again
    (link,) = built.raw.links()
    assert json.loads(link["events"]) == rows and int(link["adopted"]) == len(rows) and link["prev"] == "0" * 64
    assert link["digest"] == documented_digest(log_name(built), link) and link["key_id"] is not None
    status, report = built.verify(monkeypatch, capsys)
    assert status == 0, report["store"]["findings"]
    assert f"Link #1 ({link['at']}) adopted the {len(rows)} events stored before the chain existed: they are " \
           "proven as they stood then, not before." in report["store"]["notices"]
    built.open().close()  # opened once more: nothing adopted again
    assert built.raw.links() == [link]


def test_a_stream_cut_short_names_its_last_deleted_event_and_a_lone_creation_is_named_alone(built, monkeypatch,
                                                                                            capsys):
    """§9's "it was cut short" names the versions deleted from a stream's end and the kind of the last of them;
    a deleted creation alone is named alone, and with one more event as "and version 2"."""
    links = built.raw.links()

    def recorded_in(uid: str, version: int) -> int:
        return next(int(link["seq"]) for link in links if [uid, version] in [e[:2] for e in json.loads(link["events"])])

    for version in (2, 3, 4):  # DealStarted, DealScored, DealStarted: the table's whole tail
        built.raw.delete(built.match, version)
    built.raw.delete(built.finished, 1)
    for version in (1, 2):  # its creation and exactly one more
        built.raw.delete(built.tournament, version)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    deleted = {f["id"]: f["message"] for f in report["store"]["findings"] if f["kind"] == "deleted"}
    assert deleted == {
        built.match: f"Match {built.match}: it was cut short: versions 2–4 (Match.DealStarted last) were deleted; "
                     f"link #{recorded_in(built.match, 2)} recorded them.",
        built.finished: f"Deal {built.finished}: version 1 (Deal.Created) was deleted; "
                        f"link #{recorded_in(built.finished, 1)} recorded it.",
        built.tournament: f"Tournament {built.tournament}: version 1 (Tournament.Created) was deleted, and version 2; "
                          f"link #{recorded_in(built.tournament, 1)} recorded them.",
    }


def test_a_deal_scored_after_time_was_called_checks_against_the_time_cap(tmp_path):
    """§9: each `Match.DealScored` is what the table's rules make of the standing before it — once time was
    called during the deal (升级's time limit), what they make of it at the time cap: an untouched table whose
    clock ran out mid-deal verifies, and its standing edited afterwards is named."""
    from domain.kernel.engine import DealSetup
    from fixtures.random_play.shengji import play_deal

    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "store.sqlite"),
           "FUPAN_SIGNING_KEY": KEY}
    seats = ["赵一", "钱二", "孙三", "李四"]
    app = Fupan(env=env)
    try:
        tournament, _ = app.tournaments.create("限时杯", "shengji", {"sj.preset": "s001"})
        for name in seats:
            app.tournaments.register_player(tournament["id"], name)
        match = app.tables.open(tournament["id"], "1", seats)[0]["id"]
        deal, _ = app.deals.start(match=match, seed="time-cap")
        record = app.records.export_record(deal["id"], LOCAL)
        setup = DealSetup(record["game"], record["options"], record["seats"], record["first"], record["hands"],
                          record["kitty"], record["context"])
        _, actions = play_deal(setup, random.Random(5), foul_rate=0.0, timeout_rate=0.0, irregularity_rate=0.0)
        for action in actions[:8]:
            app.deals.record(deal["id"], action)
        app.tables.record_clock(match, 10_000, "时间到")  # past any limit, a deal in play: the cap decides after it
        for action in actions[8:]:
            app.deals.record(deal["id"], action)
        table = app.tables.get(match)
        assert table["time_up"] and table["status"] == "over"  # the cap ended the table after that deal
        assert audit_store(app.store)["ok"]
    finally:
        app.close()
    raw = Raw(Store.sqlite(tmp_path / "store.sqlite"))
    version = next(v for v, t in raw.versions(match) if t == "fupan:Match.DealScored")
    scored = raw.state(match, version)
    raw.set_state(match, version, {**scored, "standing": {**scored["standing"], "end": None}})
    app = Fupan(env=env)
    try:
        found = [(f["kind"], f["version"]) for f in audit_store(app.store)["findings"]]
    finally:
        app.close()
    assert sorted(found) == [("edited", version), ("standing_mismatch", version)]


def test_without_a_chain_a_stream_missing_its_creation_is_still_named(built, monkeypatch, capsys):
    """§9's third layer needs neither chain nor key: with the chain emptied, a stream whose creation was deleted
    is named by the domain's checks (`missing_created`, from the version it starts at)."""
    built.raw.run("DELETE FROM {chain}")
    built.raw.delete(built.finished, 1)
    status, report = built.verify(monkeypatch, capsys)
    assert status == 1
    found = {f["kind"]: f for f in report["store"]["findings"]}
    assert sorted(found) == ["missing_created", "missing_stream", "unchained"]
    missing = found["missing_created"]
    assert (missing["aggregate"], missing["id"], missing["version"]) == ("Deal", built.finished, 2)
    assert missing["message"] == (f"Deal {built.finished}: its events start at version 2 (Deal.ActionRecorded); "
                                  "version 1, its creation, is not stored.")


def test_a_whole_stream_of_one_event_deleted_is_named_in_the_singular():
    """§9's `deleted` finding counts what went: a stream of one event is "version 1", not "versions 1"."""
    from uuid import uuid4

    from domain.services.audit import _deleted
    uid = str(uuid4())
    (found,) = _deleted({(uid, 1): ("fupan:Deal.Created", "", 7)}, {})
    assert found["message"] == f"Deal {uid}: its whole stream (version 1) was deleted; link #7 recorded it."
    assert found["versions"] == [1]
