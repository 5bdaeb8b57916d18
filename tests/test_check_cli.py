"""`fupan check` as README ("Everyday commands") documents it: the real console script, run as a user runs it."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLE_RECORD

from domain.games.doudizhu.random_play import random_record


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
