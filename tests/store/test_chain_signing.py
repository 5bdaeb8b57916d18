"""Signed and unsigned links in one store-wide chain (docs/SECURITY.md §9, "Without a key"): a verifier holding the
key fails unsigned links written after signed ones (`unsigned_after_signed`), and notes that links written before
the key was first configured are vouched for by the first signed link. On a real SQLite file, written by the
service with and without the key as an operator would run it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from domain.services.audit import audit_store
from domain.services.fupan import Fupan

KEY = "5f0e1d2c3b4a59687786a5b4c3d2e1f05f0e1d2c3b4a5968"


def write(db: Path, name: str, key: str | None) -> None:
    """One write (a tournament created: one link) by a service run with or without the signing key."""
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)}
    app = Fupan(env={**env, "FUPAN_SIGNING_KEY": key} if key else env)
    try:
        app.tournaments.create(name, "doudizhu")
    finally:
        app.close()


def audited(db: Path) -> dict:
    app = Fupan(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db), "FUPAN_SIGNING_KEY": KEY})
    try:
        return audit_store(app.store)
    finally:
        app.close()


def test_unsigned_links_after_signed_ones_are_named_and_earlier_unsigned_ones_are_vouched_for(tmp_path: Path):
    db = tmp_path / "store.sqlite"
    write(db, "未签杯", None)  # link 1: before the key was configured
    write(db, "签名杯", KEY)  # link 2: the first signed
    report = audited(db)
    assert report["ok"] and (report["links"], report["signed"], report["unsigned"]) == (2, 1, 1)
    assert any("Links #1–#1 were written unsigned" in notice and "#2" in notice for notice in report["notices"])

    write(db, "无钥杯", None)  # link 3: someone without the key
    write(db, "又无钥杯", None)  # link 4
    report = audited(db)
    assert not report["ok"] and (report["signed"], report["unsigned"]) == (1, 3)
    (after,) = [f for f in report["findings"] if f["kind"] == "unsigned_after_signed"]
    assert after["link"] == 3 and "Links #3–4 " in after["message"]


def test_a_link_edited_into_something_unreadable_is_named_and_the_rest_is_still_checked(tmp_path: Path):
    db = tmp_path / "store.sqlite"
    for name in ("一杯", "二杯", "三杯"):
        write(db, name, KEY)
    with sqlite3.connect(db) as raw:  # as someone with the database open: link 2's events are no longer JSON
        raw.execute("UPDATE stored_events_chain SET events = 'not json' WHERE seq = 2")
    raw.close()
    report = audited(db)
    kinds = [(f["kind"], f["link"]) for f in report["findings"]]
    assert ("link_edited", 2) in kinds and report["links"] == 3 and report["signed"] == 3
    (unreadable,) = [f for f in report["findings"] if f["kind"] == "link_edited"]
    assert "cannot be read" in unreadable["message"]
    assert not any("written unsigned" in notice for notice in report["notices"])  # signed from link 1 on
    # link 2's event is in no readable link now: it reads as stored outside the service; links 1 and 3 still check
    (inserted,) = [f for f in report["findings"] if f["kind"] != "link_edited"]
    assert (inserted["kind"], inserted["aggregate"], inserted["version"], inserted["position"]) == (
        "inserted", "Tournament", 1, 2)


def test_without_a_key_the_verifier_says_how_many_signed_links_it_could_not_check(tmp_path: Path):
    db = tmp_path / "store.sqlite"
    write(db, "一杯", None)
    for name in ("二杯", "三杯"):
        write(db, name, KEY)
    app = Fupan(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    try:
        report = audit_store(app.store)
    finally:
        app.close()
    assert report["ok"] and (report["signed"], report["unsigned"]) == (2, 1)
    (not_proven,) = [notice for notice in report["notices"] if notice.startswith("NOT PROVEN")]
    assert not_proven == ("NOT PROVEN: no signing key is configured (FUPAN_SIGNING_KEY or FUPAN_SIGNING_KEY_FILE), "
                          "so the store-wide chain was checked but proves nothing against someone who can write the "
                          "database: they can recompute it. 2 signed links were not checked.")


def test_a_store_never_signed_verified_without_a_key_is_not_proven_and_names_no_unchecked_link(tmp_path: Path):
    db = tmp_path / "store.sqlite"
    write(db, "一杯", None)
    app = Fupan(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    try:
        report = audit_store(app.store)
    finally:
        app.close()
    (not_proven,) = [notice for notice in report["notices"] if notice.startswith("NOT PROVEN")]
    assert not_proven.endswith("database: they can recompute it.")
