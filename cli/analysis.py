"""`fupan analyse FILE [--json] [--limit-ms N]`: perfect open-hand play at the position after a record's last
action (docs/analysis.md). Exit 0 on an answer, "too large" and "not in play" (bidding, burying, a finished deal)
included; 1 on an unreadable or illegal record, the refusal printed as `fupan check` prints it."""

from __future__ import annotations

import argparse
import json
from typing import Any

from cli.common import read_input
from domain.kernel.errors import IllegalAction
from domain.records.format import ActionRejected, Unreadable, parse_record, read_records, record_namer
from domain.solver.search import DEFAULT_LIMIT_MS, Budget


def register(commands: Any) -> None:
    """The `analyse` command, added to `fupan`'s subcommands (cli/main.py build_parser)."""
    verb = commands.add_parser("analyse", help="perfect open-hand play at the position after a record's last action")
    verb.add_argument("file", help="one record (complete or not); path, or - for standard input")
    verb.add_argument("--json", action="store_true", help="the answer as one JSON object")
    verb.add_argument("--limit-ms", type=int, default=DEFAULT_LIMIT_MS,
                      help=f"time budget in milliseconds (default {DEFAULT_LIMIT_MS}); beyond it: too large")
    verb.set_defaults(handler=cmd_analyse)


def _refusal(report: dict[str, Any], as_json: bool) -> int:
    """A refused record, printed as `fupan check` prints its report."""
    if as_json:
        print(json.dumps({"index": 0, **report}, ensure_ascii=False))
    else:
        where = f" at action {report['action']}" if "action" in report else ""
        print(f"record 0: {report['code']}{where}: {report['message']}")
    return 1


def cmd_analyse(args: argparse.Namespace) -> int:
    from domain.services.analysis import analyse_actions  # when it runs: `fupan` starts without the store

    records = list(read_records(read_input(args.file)))
    if len(records) != 1:
        return _refusal({"ok": False, "code": "bad_record", "message": f"FILE must hold one record, not "
                         f"{len(records)}."}, args.json)
    if isinstance(records[0], Unreadable):
        return _refusal({"ok": False, "code": "bad_json", "message": f"Not valid JSON: {records[0]}"}, args.json)
    try:
        setup, actions, _ = parse_record(records[0])
        answer = analyse_actions(setup, actions, Budget(limit_ms=max(1, args.limit_ms)))
    except ActionRejected as error:
        error.name_seats(record_namer(records[0]))  # a record's seats by its labels
        return _refusal({"ok": False, "action": error.index, "code": error.code, "message": error.message}, args.json)
    except IllegalAction as error:
        error.name_seats(record_namer(records[0]))
        return _refusal({"ok": False, "code": error.code, "message": error.message}, args.json)
    if args.json:
        print(json.dumps(answer, ensure_ascii=False))
    else:
        print(summary(answer, list(setup.seats)))
    return 0


def _play(action: dict[str, Any]) -> str:
    if action["type"] == "pass":
        return "不出 pass"
    return "出 play " + " ".join(action["cards"])


def summary(answer: dict[str, Any], names: list[str] | None = None) -> str:
    """The answer in words, Chinese first; a seat is its player's name (the record's `seats`), never a number."""
    def who(seat: int) -> str:
        return names[seat] if names and 0 <= seat < len(names) else f"#{seat + 1}"

    if answer.get("too_large"):
        lines = [f"局面太大，预算内未能证明胜负 · too large for the budget: no verdict proven ({answer['nodes']} 节点 "
                 f"nodes, {answer['ms']:.0f} ms)"]
        lines += [f"  负  {_play(move['action'])}" for move in answer.get("moves", [])]
        lines += [f"  未证 not proven  {_play(action)}" for action in answer.get("unproven", [])]
        return "\n".join(lines)
    if answer.get("not_in_play"):
        return f"此步不在出牌阶段（{answer['phase']}），无可分析 · no card play to analyse (phase {answer['phase']})"
    lines = []
    if "points" in answer:
        acting = who(answer["to_act"])
        lines.append(f"{acting}（{answer['side']}）行动：攻方最多还能得 {answer['points']} 分 · "
                     f"{acting} ({answer['side']}) to act: the attackers take at most {answer['points']}")
        for move in answer["moves"]:
            lines.append(f"  {move['points']:>4} 分  {_play(move['action'])}")
    else:
        verdict = "胜 wins" if answer["side_wins"] else "负 loses"
        lines.append(f"{who(answer['to_act'])}（{answer['side']}）行动：{verdict} · {who(answer['to_act'])} "
                     f"({answer['side']}) to act")
        for move in answer["moves"]:
            lines.append(f"  {'胜' if move['wins'] else '负'}  {_play(move['action'])}")
        for action in answer.get("unproven", []):
            lines.append(f"  未证 not proven  {_play(action)}")
    line = "；".join(f"{who(a['seat'])}: {_play(a).split(' ', 1)[0]} {' '.join(a.get('cards', []))}".strip()
                    for a in answer["line"])
    lines.append(f"最佳线路 line: {line}")
    lines.append(f"{answer['nodes']} 节点 nodes · {answer['ms']:.0f} ms")
    return "\n".join(lines)
