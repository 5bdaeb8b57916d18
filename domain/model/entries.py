"""Entries pasted as a list or uploaded as CSV, read into the shape `Tournament.register_entries` checks.

One entry a line, fields separated by commas (also ，、; or tabs), CSV quoting allowed:

- individual events: `name[, department]`;
- pairs (升级) and teams (大怪路子): `entry name, department, member 1, …, member k` (k = the format's team size).

A first line naming its columns (姓名 / 名称 / 队名 / name / entry …) is skipped; blank lines are ignored. Nothing
is decided here but the reading: sizes, duplicates and department limits are the tournament's to refuse.
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from domain.kernel.errors import BadRequest

HEADERS = {"name", "entry", "player", "team", "姓名", "名称", "名字", "队名", "选手", "参赛者", "报名单位"}
_SEPARATORS = re.compile("[，、；;\t]")
MAX_LINES = 2000


def read_entries(text: str, team_size: int) -> list[dict[str, Any]]:
    """The entries of a pasted list or a CSV file, in order; BadRequest for a line that cannot be an entry."""
    lines = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    if len(lines) > MAX_LINES:
        raise BadRequest("too_many_entries", f"At most {MAX_LINES} lines at once.", f"一次最多 {MAX_LINES} 行。",
                         {"lines": len(lines)})
    rows = list(csv.reader(io.StringIO("\n".join(_SEPARATORS.sub(",", line) for line in lines))))
    if rows and rows[0] and rows[0][0].strip().lower() in HEADERS:
        rows = rows[1:]
    entries = []
    for number, row in enumerate(rows, start=1):
        cells = [cell.strip() for cell in row]
        while cells and not cells[-1]:
            cells.pop()
        if team_size == 1:
            if not 1 <= len(cells) <= 2 or not cells[0]:
                raise BadRequest("bad_entry_line", f"Line {number}: write `name, department`.",
                                 f"第 {number} 行：格式应为“姓名，部门”。", {"line": number, "cells": cells})
            name, department = cells[0], cells[1] if len(cells) > 1 else ""
            entries.append({"name": name, "department": department, "members": [{"id": name, "name": name}]})
            continue
        if len(cells) < 3 or not cells[0]:
            raise BadRequest("bad_entry_line", f"Line {number}: write `entry name, department, member 1, …`.",
                             f"第 {number} 行：格式应为“队名，部门，队员1，……”。", {"line": number, "cells": cells})
        members = [{"id": member, "name": member} for member in cells[2:]]
        entries.append({"name": cells[0], "department": cells[1], "members": members})
    if not entries:
        raise BadRequest("no_entries", "No entry to register.", "没有可登记的报名。")
    return entries
