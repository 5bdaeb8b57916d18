"""`fupan import`, `rebuild`, `verify` and `publish` show their progress and a summary on a terminal, and stay
quiet in a pipe (cli/common.py). The real `fupan` command in a subprocess, its stderr a pseudo-terminal or a
pipe, on a real SQLite file."""

from __future__ import annotations

import copy
import json
import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import EXAMPLE_RECORD
from game_support import example_table

from domain.services.fupan import Fupan

FUPAN = shutil.which("fupan") or str(Path(sys.executable).with_name("fupan"))


def on_a_terminal(*args: str) -> tuple[int, str, str]:
    """Run `fupan ARGS` with stderr on a pseudo-terminal: (status, stdout, what the terminal showed)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen([FUPAN, *args], stdout=subprocess.PIPE, stderr=follower, text=True)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the command closed the terminal: it has ended
            break
        if not chunk:
            break
        shown += chunk
    out = process.stdout.read() if process.stdout else ""
    os.close(leader)
    return process.wait(timeout=120), out, shown.decode()


def in_a_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([FUPAN, *args], capture_output=True, text=True, timeout=120)


def test_long_commands_show_progress_on_a_terminal_and_nothing_in_a_pipe(tmp_path: Path):
    db = str(tmp_path / "fupan.sqlite")
    records = []
    for seats in (["张三", "李四", "王五"], ["甲", "乙", "丙"], ["赵", "钱", "孙"]):
        record = copy.deepcopy(EXAMPLE_RECORD)
        record["seats"] = seats
        records.append(json.dumps(record, ensure_ascii=False))
    broken = copy.deepcopy(EXAMPLE_RECORD)
    broken["actions"] = broken["actions"][:3]  # not over: refused
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join([*records, json.dumps(broken)]) + "\n", encoding="utf-8")

    status, out, shown = on_a_terminal("import", str(path), "--db", db)
    assert status == 1 and len(out.splitlines()) == 4  # one report per record on stdout, as before
    assert "fupan import: 4/4 records" in shown
    assert "fupan import: 4 records — 3 stored, 1 refused" in shown
    piped = in_a_pipe("import", str(path), "--db", db)  # the same again: already there, and the refusal
    assert piped.returncode == 1 and piped.stderr == "" and len(piped.stdout.splitlines()) == 4

    service = Fupan.for_sqlite(db)
    try:
        example_table(service, "进度杯")
    finally:
        service.close()

    status, out, shown = on_a_terminal("rebuild", "--db", db)
    assert status == 0 and "fupan rebuild: replayed" in out
    assert "fupan rebuild: " in shown and " notifications" in shown
    status, out, shown = on_a_terminal("verify", "--db", db)
    assert status == 0, out + shown
    assert "fupan verify: 4/4 deals" in shown and "notifications" in shown
    piped = in_a_pipe("verify", "--db", db)
    assert piped.returncode == 0 and "fupan verify:" not in piped.stderr

    exported = in_a_pipe("export", "--tournament", "进度杯", "--db", db)  # every table's records, JSON Lines
    assert exported.returncode == 0 and [json.loads(line)["meta"]["table"] for line in exported.stdout.splitlines()] \
        == ["1"]
    site = tmp_path / "site"
    status, out, shown = on_a_terminal("publish", "进度杯", "--out", str(site), "--db", db)
    assert status == 0 and out == ""
    assert "fupan publish: " in shown and " files" in shown
    assert "for 1 deals in" in shown and str(site / "index.html") in shown
    assert (site / "index.html").is_file()
