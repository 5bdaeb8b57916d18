"""`fupan pair`: the Swiss pairing of a 挖坑 round re-derived from a history file, or a stored tournament's
history written in that format (projections/pairing.py; docs/pairing.md has the file format).

    fupan pair --history FILE --round R [--json]   the pairing of round R (R = the rounds given + 1)
    fupan pair --export TOURNAMENT [--db FILE]     the stored tournament's history, as JSON
    fupan pair --history FILE --round R --check PAIRING [--json]
                                                   the rules a pairing chosen by hand breaks ({"tables", "byes"}:
                                                   the organiser's override, docs/pairing.md); exit 1 if refused

The console pairs the same way (api/console.py: the projections' `pairing_history`, then `pair`), so a published
pairing can be checked by anyone holding the history. An inconsistent history is refused on stderr with exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from cli.common import open_projections, tournament_ref
from domain.kernel.errors import Refusal


def register(commands: Any) -> None:
    """The `pair` command."""
    verb = commands.add_parser("pair", help="Swiss pairing (挖坑, 瑞士移位法) of a round from a history file, or a "
                                            "stored tournament's history (docs/pairing.md)")
    source = verb.add_mutually_exclusive_group(required=True)
    source.add_argument("--history", metavar="FILE", help="the history file (JSON; - for standard input)")
    source.add_argument("--export", metavar="TOURNAMENT", help="write this tournament's history (id or key)")
    verb.add_argument("--round", type=int, help="the round to pair: one more than the rounds in the history")
    verb.add_argument("--json", action="store_true", help="print the pairing as JSON (the audit format)")
    verb.add_argument("--db", help="SQLite file, for --export")
    verb.add_argument("--check", metavar="FILE", help="a pairing chosen by hand, {\"tables\": [[p0, p1, p2], …], "
                      "\"byes\": […]}: name the rules it breaks instead of pairing")
    verb.set_defaults(handler=cmd_pair)


def _fail(message: str) -> int:
    print(f"fupan pair: {message}", file=sys.stderr)
    return 1


def cmd_pair(args: argparse.Namespace) -> int:
    from projections.pairing import pair, read_history  # when it runs: `fupan` starts without the store

    if args.export is not None:
        return _export(args)
    if args.round is None:
        return _fail("--round R is needed with --history (R: one more than the rounds in the history).")
    document = _read_json(args.history)
    if isinstance(document, str):
        return _fail(document)
    if args.check is not None:
        return _check(args, document)
    try:
        pairing = pair(read_history(document), args.round)
    except Refusal as error:
        return _fail(f"{error.message} / {error.message_zh}")
    if args.json:
        print(json.dumps(pairing, ensure_ascii=False))
        return 0
    print(f"round {pairing['round']}")
    for number, seats in enumerate(pairing["tables"], start=1):
        print(f"  table {number}: " + " · ".join(seats))
    if pairing["byes"]:
        print("  byes: " + " · ".join(pairing["byes"]))
    return 0


def _read_json(path: str) -> Any:
    """The JSON document in `path` (- for standard input), or what is wrong with it as a string."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        return f"cannot read {path}: {error.strerror}"
    except UnicodeDecodeError:
        return f"{path} is not UTF-8 text"
    try:
        return json.loads(text)
    except ValueError as error:
        return f"{path} is not valid JSON: {error}"


def _check(args: argparse.Namespace, document: Any) -> int:
    """The rules the pairing in --check breaks, one a line (Chinese, then English); exit 1 if it is refused."""
    from projections.pairing import REFUSED, check_override, read_history

    chosen = _read_json(args.check)
    if isinstance(chosen, str):
        return _fail(chosen)
    tables, byes = (chosen.get("tables"), chosen.get("byes", [])) if isinstance(chosen, dict) else (None, None)
    if not (isinstance(tables, list) and all(isinstance(t, list) and all(isinstance(n, str) for n in t)
                                             for t in tables)
            and isinstance(byes, list) and all(isinstance(n, str) for n in byes)):
        return _fail(f'{args.check}: a pairing is {{"tables": [[name, name, name], …], "byes": [name, …]}}.')
    try:
        problems = check_override(read_history(document), args.round, tables, byes)
    except Refusal as error:
        return _fail(f"{error.message} / {error.message_zh}")
    if args.json:
        print(json.dumps({"round": args.round, "problems": problems}, ensure_ascii=False))
    elif not problems:
        print(f"round {args.round}: breaks no pairing rule / 没有违反编排规则")
    for problem in [] if args.json else problems:
        print(f"  {problem['severity']} ({problem['rule']}): {problem['zh']} / {problem['en']}")
    return 1 if any(problem["severity"] == REFUSED for problem in problems) else 0


def _export(args: argparse.Namespace) -> int:
    try:
        history = open_projections(args.db).pairing_history(tournament_ref(args.export))
    except Refusal as error:
        return _fail(f"{error.message} / {error.message_zh}")
    print(json.dumps(history, ensure_ascii=False, indent=1))
    return 0
