"""Entries pasted as a list or uploaded as CSV, read into the shape `Tournament.register_entries` checks.

The line format (docs/console.md "Entries"), one entry a line:

- individual events: `name[, department]`;
- pairs (升级) and teams (大怪路子): `entry name, department, member 1, …, member k` (k = the format's team size).

Fields are separated by commas (also ，、;； or tabs), CSV quoting allowed. A line with none of those separators is
split at its runs of spaces (also the full-width space), as people type 张伟 计算机学院; a name that holds a space
must then be written with commas. Every field is trimmed (full-width spaces too). A first line naming its columns
(姓名 / 名称 / 队名 / name / entry …) is skipped; blank lines are ignored.

Nothing is decided here but the reading: every line that cannot be an entry is reported, each with its line
number (`EntryError`), and the readable lines are returned with theirs, so that the tournament's own checks
(sizes, duplicates, department limits) can report their errors in the same answer.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any, TypedDict

from domain.kernel.errors import BadRequest, Refusal

HEADERS = {"name", "entry", "player", "team", "姓名", "名称", "名字", "队名", "选手", "参赛者", "报名单位"}
_SEPARATORS = re.compile("[，、；;\t]")
_SPACES = re.compile(r"[\s\u3000]+")
_TRIM = " \t\u3000\u00a0"
MAX_LINES = 2000


class EntryError(TypedDict):
    """One refused line or entry: where it is (`line`, 1-based, as the organiser numbers the pasted text) and why,
    in both languages."""

    line: int
    code: str
    message: str
    message_zh: str


def entry_error(line: int, code: str, message: str, message_zh: str) -> EntryError:
    return {"line": line, "code": code, "message": message, "message_zh": message_zh}


def _fields(line: str) -> str:
    """The line with its fields separated by commas: the separators above, or runs of spaces when it has none."""
    if "," in line or _SEPARATORS.search(line):
        return _SEPARATORS.sub(",", line)
    return ",".join(_SPACES.split(line.strip(_TRIM)))


def read_entries(text: str, team_size: int) -> tuple[list[dict[str, Any]], list[EntryError]]:
    """(entries, errors): the readable entries in order, each with the `line` it was on, and an error for every
    line that cannot be an entry. BadRequest only for a text too long to read at all."""
    numbered = [(number, line) for number, line in enumerate(text.replace("\r\n", "\n").replace("\r", "\n")
                                                              .split("\n"), start=1) if line.strip(_TRIM)]
    if len(numbered) > MAX_LINES:
        raise BadRequest("too_many_entries", f"At most {MAX_LINES} lines at once.", f"一次最多 {MAX_LINES} 行。",
                         {"lines": len(numbered)})
    entries: list[dict[str, Any]] = []
    errors: list[EntryError] = []
    for index, (number, line) in enumerate(numbered):
        row = next(csv.reader(io.StringIO(_fields(line))), [])
        cells = [cell.strip(_TRIM) for cell in row]
        while cells and not cells[-1]:
            cells.pop()
        if index == 0 and cells and cells[0].lower() in HEADERS:
            continue
        if cells and not cells[0]:  # a separator with nothing before it: the name (or team) left out
            errors.append(entry_error(
                number, "bad_entry_line",
                f"Line {number}: no {'name' if team_size == 1 else 'team name'} before the first comma.",
                f"第 {number} 行：没有{'姓名' if team_size == 1 else '队名'}（第一个逗号前是空的）。"))
            continue
        if team_size == 1:
            if not 1 <= len(cells) <= 2:
                errors.append(entry_error(
                    number, "bad_entry_line",
                    f"Line {number}: write the name, then the department (two fields at most); found {len(cells)}.",
                    f"第 {number} 行：应写“姓名，部门”（最多两项），这一行有 {len(cells)} 项。"))
                continue
            name, department = cells[0], cells[1] if len(cells) > 1 else ""
            entries.append({"name": name, "department": department, "members": [{"id": name, "name": name}],
                            "line": number})
            continue
        if len(cells) < 3 or not cells[0]:
            errors.append(entry_error(
                number, "bad_entry_line",
                f"Line {number}: write the team's name, its department, then its {team_size} players.",
                f"第 {number} 行：应写“队名，部门，队员1，……”（{team_size} 名队员）。"))
            continue
        members = [{"id": member, "name": member} for member in cells[2:]]
        entries.append({"name": cells[0], "department": cells[1], "members": members, "line": number})
    if not entries and not errors:
        raise BadRequest("no_entries", "No entry to register.", "没有可登记的报名。")
    return entries, errors


def where(entry: dict[str, Any], index: int) -> tuple[int, str, str]:
    """(number, English, Chinese) naming an entry in a message: its line in pasted text, else its place in the
    batch."""
    if "line" in entry:
        return entry["line"], f"Line {entry['line']}", f"第 {entry['line']} 行"
    return index + 1, f"Entry {index + 1}", f"第 {index + 1} 个报名"


def refused(errors: list[dict[str, Any]], refusal: type[Refusal]) -> Refusal:
    """Every error of a batch in one refusal, in line order: the first one's code and details (so a client that
    reads one error still reads the first), every message on its own line, and all of them in `details.errors`."""
    errors = sorted(errors, key=lambda error: error["line"])
    first = errors[0]
    extra = {k: v for k, v in first.items() if k not in ("code", "message", "message_zh")}
    return refusal(first["code"], "\n".join(e["message"] for e in errors),
                   "\n".join(e["message_zh"] for e in errors), {**extra, "errors": errors})
