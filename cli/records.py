"""`fupan import`, `export` and `check`: records in and out of the store (fupan.deal/1, docs/record-format.md),
and records checked without storing anything."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from cli.common import Progress, open_service, read_input, tournament_ref
from domain.kernel.errors import IllegalAction, Refusal
from domain.model.token import LOCAL
from domain.records.format import Unreadable, check_text, read_records


def cmd_import(args: argparse.Namespace) -> int:
    """Store each record all-or-nothing and report each; exit 1 if any was refused."""
    service = open_service(args.db)
    failed = False
    docs = list(read_records(read_input(args.file)))
    progress, counts, started = Progress("fupan import", "records"), Counter[str](), time.monotonic()
    for index, doc in enumerate(docs):
        report: dict[str, Any] = {"index": index}
        try:
            if isinstance(doc, Unreadable):
                raise IllegalAction("bad_json", f"Not valid JSON: {doc}", "不是合法的 JSON。")
            deal, created = service.records.import_record(doc, LOCAL.recorded_by)
        except Refusal as error:
            failed = True
            report.update(ok=False, code=error.code, message=error.message)
            if "action" in error.details:
                report["action"] = error.details["action"]
        else:
            report.update(ok=True, deal_id=deal["id"], created=created, result=deal["result"])
        counts["stored" if report["ok"] and created else "already there" if report["ok"] else "refused"] += 1
        progress.interrupt()
        print(json.dumps(report, ensure_ascii=False), flush=True)
        progress.step(index + 1, len(docs))
    progress.done(f"fupan import: {len(docs)} records — " + ", ".join(f"{n} {what}" for what, n in counts.items())
                  + f" in {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


def cmd_export(args: argparse.Namespace) -> int:
    service = open_service(args.db)
    try:
        if args.match or args.tournament:
            records = (service.records.export_match(args.match, LOCAL) if args.match
                       else service.records.export_tournament(tournament_ref(args.tournament), LOCAL))
            for record in records:
                print(json.dumps(record, ensure_ascii=False))
        else:
            print(json.dumps(service.records.export_record(args.deal, LOCAL), ensure_ascii=False, indent=1))
    except Refusal as error:
        print(f"fupan export: {error.message}", file=sys.stderr)
        return 1
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    reports = check_text(read_input(args.file))
    for report in reports:
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
        else:
            where = f" at action {report['action']}" if "action" in report else ""
            verdict = "ok" if report["ok"] else f"{report['code']}{where}: {report['message']}"
            print(f"record {report['index']}: {verdict}")
    return 0 if all(report["ok"] for report in reports) else 1


def register(commands: argparse._SubParsersAction) -> None:
    """The `import`, `export` and `check` commands."""
    importer = commands.add_parser("import", help="store records (a record, a list or JSON Lines)")
    importer.add_argument("file", help="path, or - for standard input")
    importer.add_argument("--db")
    importer.set_defaults(handler=cmd_import)

    exporter = commands.add_parser("export", help="write a deal's record (JSON), or a match's or a tournament's "
                                                  "records (JSON Lines)")
    target = exporter.add_mutually_exclusive_group(required=True)
    target.add_argument("deal", nargs="?", help="deal id")
    target.add_argument("--match", help="match id")
    target.add_argument("--tournament", help="tournament id or key: every table's records, table by table")
    exporter.add_argument("--db")
    exporter.set_defaults(handler=cmd_export)

    checker = commands.add_parser("check", help="validate records without storing anything")
    checker.add_argument("file", help="path, or - for standard input")
    checker.add_argument("--json", action="store_true", help="one JSON line per record")
    checker.set_defaults(handler=cmd_check)
