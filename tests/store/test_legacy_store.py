"""A store written by the code before the house move (tests/data/build_legacy_store.py, commit 419118b) opens,
replays and verifies with today's code, and reads as it did then: the same standings, exports and digests."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from paths import DATA

from domain.services.fupan import Fupan
from projections.service import Projections

EXPECTED = json.loads((DATA / "legacy_store.expected.json").read_text(encoding="utf-8"))


@pytest.fixture
def legacy_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "legacy.sqlite"
    shutil.copyfile(DATA / "legacy_store.sqlite", copy)  # never write the committed file
    return copy


def with_steps(record: dict) -> dict:
    """An export of then, as exports write its annotations now: the `at` it had, and beside it the step the
    viewer shows it at (at + 1), no glyph and no English text (docs/record-format.md "Annotations")."""
    notes = [{**note, "step": note["at"] + 1, "glyph": "", "text_en": ""} for note in record.get("annotations", [])]
    return {**record, "annotations": notes} if notes else record


def test_the_legacy_store_reads_as_it_did(legacy_copy: Path):
    app = Fupan.for_sqlite(str(legacy_copy))
    projections = Projections(app)
    try:
        assert app.store.recorder.max_notification_id() == EXPECTED["notifications"]
        assert app.audit.verify_chains()["broken"] == []
        assert {d["id"]: d["digest"] for d in app.deals.all()} == EXPECTED["digests"]
        for deal_id, record in EXPECTED["exports"].items():
            assert app.records.export_record(deal_id) == with_steps(record)
        assert projections.rebuild()["position"] == EXPECTED["notifications"]
        for tournament_id, rows in EXPECTED["tournaments"].items():
            assert projections.standings(tournament_id)["rows"] == rows
        assert projections.verify()["ok"]
        revoked = [t for t in app.tokens.all() if t["revoked"]]
        assert [t["label"] for t in revoked] == ["legacy"]
    finally:
        projections.close()


def test_fupan_verify_passes_on_the_legacy_store(legacy_copy: Path):
    command = shutil.which("fupan") or str(Path(sys.executable).with_name("fupan"))
    done = subprocess.run([command, "verify", "--db", str(legacy_copy)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "hash chains ok — 13 deals" in done.stdout
