"""`fupan pair`: the Swiss pairing of a 挖坑 round re-derived from a history file, or a stored tournament's
history written in that format (projections/pairing.py; docs/pairing.md has the file format).

    fupan pair --history FILE --round R [--json]   the pairing of round R (R = the rounds given + 1)
    fupan pair --export TOURNAMENT [--db FILE]     the stored tournament's history, as JSON

The console pairs with the same function (api/console.py exports, then pairs), so a published pairing can be
checked by anyone holding the history. An inconsistent history is refused on stderr with exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from domain.kernel.errors import Refusal
from projections.pairing import pair, read_history


def register(commands: Any) -> None:
    """Add the `pair` command to the CLI's subparsers (api/cli.py build_parser)."""
    verb = commands.add_parser("pair", help="Swiss pairing (挖坑, 瑞士移位法) of a round from a history file, or a "
                                            "stored tournament's history (docs/pairing.md)")
    source = verb.add_mutually_exclusive_group(required=True)
    source.add_argument("--history", metavar="FILE", help="the history file (JSON; - for standard input)")
    source.add_argument("--export", metavar="TOURNAMENT", help="write this tournament's history (id or key)")
    verb.add_argument("--round", type=int, help="the round to pair: one more than the rounds in the history")
    verb.add_argument("--json", action="store_true", help="print the pairing as JSON (the audit format)")
    verb.add_argument("--db", help="SQLite file, for --export")
    verb.set_defaults(handler=cmd_pair)


def _fail(message: str) -> int:
    print(f"fupan pair: {message}", file=sys.stderr)
    return 1


def cmd_pair(args: argparse.Namespace) -> int:
    if args.export is not None:
        return _export(args)
    if args.round is None:
        return _fail("--round R is needed with --history (R: one more than the rounds in the history).")
    try:
        if args.history == "-":
            text = sys.stdin.read()
        else:
            with open(args.history, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        return _fail(f"cannot read {args.history}: {error.strerror}")
    except UnicodeDecodeError:
        return _fail(f"{args.history} is not UTF-8 text")
    try:
        document = json.loads(text)
    except ValueError as error:
        return _fail(f"{args.history} is not valid JSON: {error}")
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


def _export(args: argparse.Namespace) -> int:
    from api.cli import open_projections, tournament_ref

    try:
        history = open_projections(args.db).pairing_history(tournament_ref(args.export))
    except Refusal as error:
        return _fail(f"{error.message} / {error.message_zh}")
    print(json.dumps(history, ensure_ascii=False, indent=1))
    return 0
