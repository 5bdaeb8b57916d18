"""docs/record-format.md defines the `fupan.deal/1` envelope itself: its complete 斗地主 example is EXAMPLE_RECORD
and checks with the result it states, and its `fupan check` reports are what the command prints, so the document
cannot drift from the code."""

from __future__ import annotations

import copy
import json
import re

from conftest import EXAMPLE_RECORD, EXAMPLE_SCORES
from paths import ROOT

from cli.main import main
from domain.records.format import check_record, check_text, fold, parse_record

DOCS = ROOT / "docs" / "record-format.md"
TEXT = DOCS.read_text(encoding="utf-8")


def blocks_after(heading: str, count: int) -> list[str]:
    """The first `count` fenced blocks (their contents) after the heading line `heading`."""
    start = TEXT.index(f"\n{heading}\n")
    found = re.findall(r"```[a-z]*\n(.*?)\n```", TEXT[start:], re.S)[:count]
    assert len(found) == count, f"docs/record-format.md has {count} blocks after {heading!r}"
    return found


def the_check_stream() -> str:
    """The stream the `fupan check` section reports on: the example, the example with action 17 made by the wrong
    seat, the example cut after 10 actions, and a line that is not JSON."""
    wrong_turn = copy.deepcopy(EXAMPLE_RECORD)
    wrong_turn["actions"][17]["seat"] = 0
    short = copy.deepcopy(EXAMPLE_RECORD)
    short["actions"] = short["actions"][:10]
    records = [EXAMPLE_RECORD, wrong_turn, short]
    return "\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\nnot json\n"


def test_the_documented_doudizhu_example_is_the_example_record_and_checks_with_its_stated_result():
    record, report = blocks_after("### The complete 斗地主 example", 2)
    example = json.loads(record)
    assert example == EXAMPLE_RECORD
    assert json.loads(report) == {"index": 0, "ok": True, "result": {"scores": EXAMPLE_SCORES}}
    assert check_record(example) == {"ok": True, "result": {"scores": EXAMPLE_SCORES}}
    assert check_record({**example, "result": {"scores": EXAMPLE_SCORES}})["ok"] is True
    assert "`scores` = `[2, 2, -6]`" in TEXT


def test_the_documented_facts_of_the_example_are_the_engines():
    _, _, whole = blocks_after("### The complete 斗地主 example", 3)
    engine, state = fold(*parse_record(EXAMPLE_RECORD)[:2])
    result = engine.result(state)
    assert json.loads(whole) == result
    assert check_record({**EXAMPLE_RECORD, "result": result}) == {"ok": True, "result": {"scores": EXAMPLE_SCORES}}


def test_the_documented_check_reports_are_what_fupan_check_prints(tmp_path, capsys):
    json_lines, human = blocks_after("### `fupan check`", 2)
    stream = the_check_stream()
    assert [json.loads(line) for line in json_lines.splitlines()] == check_text(stream)
    path = tmp_path / "deals.jsonl"
    path.write_text(stream, encoding="utf-8")
    assert main(["check", "--json", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == json_lines.splitlines()  # key order and text too
    assert main(["check", str(path)]) == 1
    assert capsys.readouterr().out.splitlines() == human.splitlines()


def test_the_document_is_self_contained():
    assert "RECORD-FORMAT.md" not in TEXT
    for field in ("format", "game", "options", "seats", "first", "hands", "kitty", "context", "actions", "result",
                  "meta", "annotations", "digest"):
        assert re.search(rf"^\| `{field}` \| (yes|no)", TEXT, re.M), f"the envelope's fields table has `{field}`"
