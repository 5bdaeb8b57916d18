"""`fupan standings`, `explain` and `rebuild`: the projections (projections/) read from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from cli.common import Progress, open_projections, tournament_ref
from domain.kernel.errors import Refusal


def _figure(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _asked(command: str, ask: Callable[[], dict[str, Any]], as_json: bool) -> dict[str, Any] | int:
    """The projections' answer to print in words, or the exit code once it was refused (1) or printed as JSON."""
    try:
        answer = ask()
    except Refusal as error:
        print(f"fupan {command}: {error.message}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(answer, ensure_ascii=False, indent=1))
        return 0
    return answer


def cmd_standings(args: argparse.Namespace) -> int:
    answer = _asked("standings", lambda: open_projections(args.db).standings(
        tournament_ref(args.tournament), round_limit=args.round, as_of=args.as_of), args.json)
    if isinstance(answer, int):
        return answer
    codes = [t["code"] for t in answer["tiebreaks"]]
    print(f"{answer['name']} · {answer['format']} · as of notification {answer['as_of']}"
          + (f" · after round {answer['round']}" if answer["round"] else ""))
    print(f"{'rank':>4}  {'player':<12} {answer['total_measure']['code']:>8}  " + "  ".join(codes) + "  status")
    for row in answer["rows"]:
        values = "  ".join(f"{_figure(v):>{len(c)}}" for c, v in zip(codes, row["tiebreak_values"], strict=True))
        decided = f"  (tie decided by {row['decided_by']})" if row["decided_by"] else ""
        gone = "  withdrawn 退赛" if row.get("withdrawn") else ""
        team = f"  [{row['entry']}]" if row.get("entry") else ""
        print(f"{row['rank']:>4}  {row['name']:<12} {_figure(row['total']):>8}  {values}  {row['status']}{decided}"
              f"{gone}{team}")
    if answer.get("teams"):  # a team format: the entries ranked as entries
        print("teams 各队:")
        for entry in answer["teams"]:
            department = f" ({entry['department']})" if entry.get("department") else ""
            gone = "  withdrawn 退赛" if entry.get("withdrawn") else ""
            print(f"{entry['rank']:>4}  {entry['entry']}{department}: {' · '.join(entry['names'])}  "
                  f"{_figure(entry['total'])}  {entry['status']}{gone}")
    for direction in answer.get("directions", []):
        print(f"{direction['en']} ({direction['zh']}) pairs:")
        for pair in direction["rows"]:
            names = " / ".join(pair["names"])
            print(f"{pair['rank']:>4}  {names:<25} {_figure(pair['total']):>8}  table {pair['table']}")
    return 0


def _part(part: dict[str, Any]) -> str:
    """A part of an explained total in words: 'start', 'from deals', 'correction of deal 3', 'penalty'."""
    named = {"start": "start", "deals": "from deals", "recorded": "from deals as recorded"}
    if part["kind"] in ("correction", "appeal"):
        return f"{part['kind']} of deal {part['number']}"
    return named.get(part["kind"], part["kind"])


def cmd_explain(args: argparse.Namespace) -> int:
    answer = _asked("explain", lambda: open_projections(args.db).explain(
        tournament_ref(args.tournament), args.player, round_limit=args.round, as_of=args.as_of), args.json)
    if isinstance(answer, int):
        return answer
    # The total as a sum that adds up, each part named (a correction or an appeal counted in a deal included).
    summed = " + ".join(f"{_figure(p['points'])} {_part(p)}" for p in answer["total_explained"]["parts"]
                        if not p.get("included"))
    inside = [_part(p) for p in answer["total_explained"]["parts"] if p.get("included")]
    print(f"{answer['name']}: rank {answer['rank']}, {answer['status']}, total {_figure(answer['total'])} = "
          f"{summed}{' (counted in the deals: ' + ', '.join(inside) + ')' if inside else ''}"
          f" (as of notification {answer['as_of']})")
    for tiebreak in answer["tiebreak_values"]:
        rule = ("drawn from the recorded lots seed" if tiebreak["measure"] == "lots"
                else f"{tiebreak['measure']} of {tiebreak['fact']} over {tiebreak['scope']} deals")
        print(f"  tiebreak {tiebreak['code']} ({tiebreak['zh']}): {_figure(tiebreak['value'])} — {rule}")
    for table in answer["matches"]:
        if table.get("bye"):  # no table, no seat: the boards credited (B11.9 in 挖坑) or going on in a knockout
            credited = ", ".join(f"deal {d['number']} rate {_figure(d['facts'].get('mp_rate'))}"
                                 for d in table["deals"] if "mp_rate" in d["facts"])
            print(f"  {table['label']} bye (counts for {table['counts_for']})" + (f": {credited}" if credited else ""))
            continue
        at = " · ".join(table.get("names", []))  # the table's players by name, never a seat number
        print(f"  {table['label']} table {table['table']} ({at}; counts for {table['counts_for']}): "
              f"place {table['place']}, total {_figure(table['table_total'])}")
        for deal in table["deals"]:
            finished, scored = deal["finished"], deal["events"][-1]
            print(f"    deal {deal['number']} {deal['deal_id']}: {deal['score']:+d}; result at Deal "
                  f"v{finished['version']} recorded by {finished['recorded_by']['role']}, "
                  f"counted at Match v{scored['version']}")
    for adjustment in answer["adjustments"]:
        who = adjustment["recorded_by"]
        by = who["role"] + (f" token {who['token_id']}" if who.get("token_id") else "")
        print(f"  {adjustment['kind']} {adjustment['points']:+d} in round {adjustment['round']} (Tournament "
              f"v{adjustment['version']}, recorded by {by}): {adjustment['reason']}"
              + ("" if adjustment["counted"] else " — not counted in this round's total"))
    return 0


def cmd_rebuild(args: argparse.Namespace) -> int:
    progress = Progress("fupan rebuild", "notifications")
    report = open_projections(args.db).rebuild(progress.step)
    progress.interrupt()
    print(f"fupan rebuild: replayed {report['notifications']} notifications up to {report['position']} "
          f"({report['tournaments']} tournaments, {report['deals']} deals) in {report['seconds']:.2f} s")
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """The `standings`, `explain` and `rebuild` commands."""
    for name, handler, help_text in (
        ("standings", cmd_standings, "a tournament's standings (now, after a round, or as of a notification)"),
        ("explain", cmd_explain, "a player's standing down to tables, deals, events and adjustments"),
    ):
        verb = commands.add_parser(name, help=help_text)
        verb.add_argument("tournament", help="tournament id or key")
        if name == "explain":
            verb.add_argument("player", help="player id")
        verb.add_argument("--round", type=int, help="as after this round")
        verb.add_argument("--as-of", type=int, help="as of this notification id")
        verb.add_argument("--json", action="store_true", help="the whole answer as JSON")
        verb.add_argument("--db")
        verb.set_defaults(handler=handler)
    rebuild = commands.add_parser("rebuild", help="replay the whole event log into fresh read models")
    rebuild.add_argument("--db")
    rebuild.set_defaults(handler=cmd_rebuild)
