"""`fupan check` as README ("Everyday commands") documents it: the real console script, run as a user runs it."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLE_RECORD

from fixtures.random_play.doudizhu import random_record


def fupan_check(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    command = shutil.which("fupan") or str(Path(sys.executable).with_name("fupan"))
    return subprocess.run([command, "check", *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_a_stream_of_legal_and_illegal_records(tmp_path):
    legal = [random_record(random.Random(seed)) for seed in range(5)]
    wrong_turn = json.loads(json.dumps(EXAMPLE_RECORD))
    wrong_turn["actions"][17]["seat"] = 0  # seat 1 is to lead here
    short = json.loads(json.dumps(EXAMPLE_RECORD))
    short["actions"] = short["actions"][:10]
    stream = tmp_path / "deals.jsonl"
    stream.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in [*legal, wrong_turn, short, EXAMPLE_RECORD])
                      + "\nnot json\n")
    done = fupan_check("--json", str(stream))
    assert done.returncode == 1
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["index"] for line in lines] == list(range(9))
    for line, record in zip(lines[:5], legal, strict=True):
        assert line == {"index": line["index"], "ok": True, "result": record["result"]}
    assert lines[5]["ok"] is False and lines[5]["action"] == 17 and lines[5]["code"] == "not_your_turn"
    assert lines[6] == {"index": 6, "ok": False, "code": "incomplete", "message": lines[6]["message"]}
    assert lines[7] == {"index": 7, "ok": True, "result": {"scores": [2, 2, -6]}}
    assert lines[8]["ok"] is False and lines[8]["code"] == "bad_json" and "action" not in lines[8]


def test_all_legal_exits_zero_and_reads_stdin():
    done = fupan_check("-", stdin=json.dumps(EXAMPLE_RECORD))
    assert done.returncode == 0 and done.stdout.strip() == "record 0: ok"


def test_human_output_names_the_action(tmp_path):
    bad = json.loads(json.dumps(EXAMPLE_RECORD))
    bad["actions"][4]["cards"] = ["S7"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad, indent=2))  # one pretty-printed record
    done = fupan_check(str(path))
    assert done.returncode == 1
    assert done.stdout.startswith("record 0: does_not_beat at action 4:")


def test_records_no_store_can_keep_are_reported_one_by_one_and_import_stores_the_others(tmp_path):
    """Issue 16, defects 2 and 3 at the command line: a hand holding a non-card, a NUL, a lone surrogate and JSON
    nested too deep each get their record's refusal; the stream's other records are checked and imported (before,
    both commands died with a traceback and reported none)."""
    bad_hand = {**json.loads(json.dumps(EXAMPLE_RECORD)), "hands": [[{}], [], []]}
    stream = tmp_path / "deals.jsonl"
    stream.write_text("\n".join([json.dumps(EXAMPLE_RECORD), json.dumps(bad_hand), json.dumps({"seats": ["x\x00"]}),
                                 json.dumps({"seats": ["\ud800"]}), "[" * 50_000 + "]" * 50_000]) + "\n")
    checked = fupan_check("--json", str(stream))
    imported = subprocess.run([shutil.which("fupan") or str(Path(sys.executable).with_name("fupan")), "import",
                               str(stream), "--db", str(tmp_path / "store.sqlite")],
                              capture_output=True, text=True, timeout=120)
    for done in (checked, imported):
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-1000:]
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert [(line["index"], line["ok"], line.get("code")) for line in lines] == [
            (0, True, None), (1, False, "unknown_card"), (2, False, "bad_json"), (3, False, "bad_json"),
            (4, False, "bad_json")]
        assert "NUL character or a lone surrogate" in lines[2]["message"] and "nested too deeply" in lines[4]["message"]
    assert "deal_id" in json.loads(imported.stdout.splitlines()[0])


def test_check_starts_without_the_store_or_the_services():
    """Issue 25 (scope 4): `fupan check` imports the rules and the record format, not the event store, the
    services, the projections or a database driver, which other commands import when they run (each
    process pays its imports: 0.15 s was a tenth of checking a thousand deals)."""
    probe = ("import sys\nfrom cli.main import build_parser\nbuild_parser()\n"
             "print(' '.join(sorted(name for name in sys.modules if name.split('.')[0] in "
             "('psycopg', 'psycopg_pool', 'projections', 'web', 'api') or name.startswith(('domain.services', "
             "'domain.store', 'eventsourcing.postgres', 'eventsourcing.sqlite')))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == []
