"""The `fupan` command: serve, import, export, check, token, and the projections' standings, explain, rebuild,
verify.

The store is the SQLite file given by `--db`; without it, the process environment decides when it names a
persistence module (PERSISTENCE_MODULE=eventsourcing.postgres …), else ./fupan.sqlite.

The CLI is trusted (docs/SECURITY.md): whoever runs it can read and write the store directly, so its commands
act as the `local` principal — exports include live hands, events name {"role": "local"}.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from api import analysis_cli, publish_cli, verify_cli
from api.pair_cli import register as register_pair
from api.progress import Progress
from domain.kernel.errors import IllegalAction, Refusal
from domain.model.ids import tournament_id
from domain.model.token import LOCAL, ORGANISER, REFEREE, ROLES
from domain.records.format import Unreadable, check_text, read_records
from domain.services.application import FupanApplication
from projections import Projections

DEFAULT_DB = "fupan.sqlite"


# The services a command opened, closed when it ends (main): their connections and pools go with them, not
# whenever the garbage collector finds them (the commands also run in-process, in the tests).
OPENED: list[FupanApplication] = []


def open_service(db: str | None) -> FupanApplication:
    if db:
        service = FupanApplication.for_sqlite(db)
    elif "PERSISTENCE_MODULE" in os.environ or "FUPAN_PERSISTENCE_MODULE" in os.environ:
        service = FupanApplication()
    else:
        service = FupanApplication.for_sqlite(DEFAULT_DB)
    OPENED.append(service)
    return service


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def cmd_serve(args: argparse.Namespace) -> int:
    import waitress

    from api.app import create_app

    service = open_service(args.db)
    if args.demo:
        if not service.recorder.max_notification_id():
            from fixtures import load_demo

            load_demo(service)
        print_demo_tokens(service)
    elif not service.has_active_token(ORGANISER):
        print("fupan: no organiser token yet; writes need one: fupan token create --role organiser"
              + (f" --db {args.db}" if args.db else ""), file=sys.stderr, flush=True)
    app = create_app({"FUPAN_APPLICATION": service})
    # waitress: a production WSGI server in pure Python that keeps a scorer's HTTP/1.1 connection open between
    # actions (werkzeug's development server closes every connection). `ident` keeps the Server header bare.
    # waitress reads a chunked body whole before the app sees it (so it is never cut short) and hands it on with
    # its length: the app then refuses it past the route's limit as any other (413, in the error shape). It
    # buffers at most this much (beyond, its own 413).
    logging.basicConfig()  # as waitress.serve does: its warnings (a full task queue) reach stderr
    server = waitress.create_server(app, host=args.host, port=args.port, threads=args.threads, ident="fupan",
                                    max_request_body_size=4 * app.config["MAX_CONTENT_LENGTH"])
    # The port bound, not the one asked for: with --port 0 the system picks a free one, and this line says which.
    port = getattr(server, "effective_port", args.port)
    print(f"fupan: serving on http://{args.host}:{port}/ (API docs: /api/docs)", flush=True)
    server.run()
    return 0


DEMO_LABEL = "demo (fupan serve --demo)"


def print_demo_tokens(service: FupanApplication) -> None:
    """Demo mode: fresh tokens for this run, printed once (the previous run's demo tokens are revoked), so a
    first-time user can write at once and nothing else about access control is relaxed."""
    for token in service.list_tokens():
        if token["label"].startswith(DEMO_LABEL) and not token["revoked"]:
            service.revoke_token(token["id"])
    _, organiser = service.create_token(ORGANISER, label=f"{DEMO_LABEL}: organiser")
    lines = [f"  organiser:          {organiser}"]
    tables = [m for t in service.list_tournaments() for m in t["matches"]][:1]  # the demo chip table
    for match in tables:
        _, referee = service.create_token(REFEREE, [match["id"]], f"{DEMO_LABEL}: referee, table {match['table']}")
        lines.append(f"  referee of table {match['table']}: {referee}")
    print("fupan: DEMO MODE — tokens for this run (shown once; a restart replaces them):", *lines,
          '  use: curl -H "Authorization: Bearer <token>" …', sep="\n", flush=True)


def cmd_import(args: argparse.Namespace) -> int:
    """Store each record all-or-nothing and report each; exit 1 if any was refused."""
    service = open_service(args.db)
    failed = False
    docs = list(read_records(_read(args.file)))
    progress, counts, started = Progress("fupan import", "records"), Counter[str](), time.monotonic()
    for index, doc in enumerate(docs):
        report: dict[str, Any] = {"index": index}
        try:
            if isinstance(doc, Unreadable):
                raise IllegalAction("bad_json", f"Not valid JSON: {doc}", "不是合法的 JSON。")
            deal, created = service.import_record(doc, LOCAL.recorded_by)
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
            records = (service.export_match(args.match, LOCAL) if args.match
                       else service.export_tournament(tournament_ref(args.tournament), LOCAL))
            for record in records:
                print(json.dumps(record, ensure_ascii=False))
        else:
            print(json.dumps(service.export_record(args.deal, LOCAL), ensure_ascii=False, indent=1))
    except Refusal as error:
        print(f"fupan export: {error.message}", file=sys.stderr)
        return 1
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    reports = check_text(_read(args.file))
    for report in reports:
        if args.json:
            print(json.dumps(report, ensure_ascii=False))
        else:
            where = f" at action {report['action']}" if "action" in report else ""
            verdict = "ok" if report["ok"] else f"{report['code']}{where}: {report['message']}"
            print(f"record {report['index']}: {verdict}")
    return 0 if all(report["ok"] for report in reports) else 1


def cmd_token_create(args: argparse.Namespace) -> int:
    """The bearer token alone on stdout (`TOKEN=$(fupan token create …)`); what it is on stderr."""
    service = open_service(args.db)
    try:
        token, bearer = service.create_token(args.role, args.match or [], args.label, LOCAL.recorded_by)
    except Refusal as error:
        print(f"fupan token: {error.message}", file=sys.stderr)
        return 1
    scope = f" for matches {', '.join(token['matches'])}" if token["matches"] else ""
    print(bearer, flush=True)
    print(f"fupan token: created {token['role']} token {token['id']}{scope}; the line above is its only copy.",
          file=sys.stderr)
    return 0


def cmd_token_list(args: argparse.Namespace) -> int:
    for token in open_service(args.db).list_tokens():
        if args.json:
            print(json.dumps(token, ensure_ascii=False))
            continue
        state = f"revoked {token['revoked_at']} by {token['revoked_by']['role']}" if token["revoked"] else "active"
        issuer = token["created_by"]
        by = issuer["role"] + (f" {issuer['token_id']}" if issuer["token_id"] else "")
        print(f"{token['id']}  {token['role']:<9}  {state}  created {token['created_at']} by {by}"
              + (f"  matches {','.join(token['matches'])}" if token["matches"] else "")
              + (f"  {token['label']!r}" if token["label"] else ""))
    return 0


def cmd_token_revoke(args: argparse.Namespace) -> int:
    try:
        token, changed = open_service(args.db).revoke_token(args.id, LOCAL.recorded_by)
    except Refusal as error:
        print(f"fupan token: {error.message}", file=sys.stderr)
        return 1
    print(f"fupan token: {token['id']} {'revoked' if changed else 'was already revoked'}")
    return 0


# --- projections ------------------------------------------------------------------------------------------


def open_projections(db: str | None) -> Projections:
    return Projections(open_service(db))


def tournament_ref(text: str) -> str:
    """A tournament id, or the key it was created with (its name unless a key was given)."""
    try:
        return str(UUID(text))
    except ValueError:
        return str(tournament_id(text))


def _figure(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def cmd_standings(args: argparse.Namespace) -> int:
    try:
        answer = open_projections(args.db).standings(tournament_ref(args.tournament), round_limit=args.round,
                                                     as_of=args.as_of)
    except Refusal as error:
        print(f"fupan standings: {error.message}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(answer, ensure_ascii=False, indent=1))
        return 0
    codes = [t["code"] for t in answer["tiebreaks"]]
    print(f"{answer['name']} · {answer['format']} · as of notification {answer['as_of']}"
          + (f" · after round {answer['round']}" if answer["round"] else ""))
    print(f"{'rank':>4}  {'player':<12} {answer['total_measure']['code']:>8}  " + "  ".join(codes) + "  status")
    for row in answer["rows"]:
        values = "  ".join(f"{_figure(v):>{len(c)}}" for c, v in zip(codes, row["tiebreak_values"], strict=True))
        decided = f"  (tie decided by {row['decided_by']})" if row["decided_by"] else ""
        print(f"{row['rank']:>4}  {row['name']:<12} {_figure(row['total']):>8}  {values}  {row['status']}{decided}")
    for direction in answer.get("directions", []):
        print(f"{direction['en']} ({direction['zh']}) pairs:")
        for pair in direction["rows"]:
            names = " / ".join(pair["names"])
            print(f"{pair['rank']:>4}  {names:<25} {_figure(pair['total']):>8}  table {pair['table']}")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    try:
        answer = open_projections(args.db).explain(tournament_ref(args.tournament), args.player,
                                                   round_limit=args.round, as_of=args.as_of)
    except Refusal as error:
        print(f"fupan explain: {error.message}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(answer, ensure_ascii=False, indent=1))
        return 0
    parts = answer["total_explained"]
    print(f"{answer['name']}: rank {answer['rank']}, {answer['status']}, total {_figure(answer['total'])} = "
          f"{parts['start_chips']} start + {_figure(parts['deals'])} from deals + {parts['adjustments']} adjustments"
          f" (as of notification {answer['as_of']})")
    for tiebreak in answer["tiebreak_values"]:
        rule = ("drawn from the recorded lots seed" if tiebreak["measure"] == "lots"
                else f"{tiebreak['measure']} of {tiebreak['fact']} over {tiebreak['scope']} deals")
        print(f"  tiebreak {tiebreak['code']} ({tiebreak['zh']}): {_figure(tiebreak['value'])} — {rule}")
    for table in answer["matches"]:
        print(f"  {table['label']} table {table['table']} (seat {table['seat']}, counts for {table['counts_for']}): "
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


def cmd_verify(args: argparse.Namespace) -> int:
    """Every check of the store (api/verify_cli.py); exit 1 naming what is wrong."""
    return verify_cli.cmd_verify(args, open_projections)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fupan", description="复盘 — record and replay card-game deals")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the HTTP API (and viewer)")
    serve.add_argument("--db", help=f"SQLite file (default ./{DEFAULT_DB})")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0: a free port, printed once bound")
    serve.add_argument("--threads", type=int, default=8, help="request threads (default 8)")
    serve.add_argument("--demo", action="store_true", help="load the demo fixtures into an empty store")
    serve.set_defaults(handler=cmd_serve)

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
    analysis_cli.register(commands)  # fupan analyse (api/analysis_cli.py)

    token = commands.add_parser("token", help="issue, list and revoke bearer tokens (docs/SECURITY.md)")
    token_commands = token.add_subparsers(dest="token_command", required=True)
    create = token_commands.add_parser("create", help="issue a token; prints it once")
    create.add_argument("--role", required=True, choices=ROLES)
    create.add_argument("--match", action="extend", nargs="+", metavar="ID", help="matches a referee token records")
    create.add_argument("--label", default="", help="who holds it, e.g. 'table 3 scorer'")
    create.add_argument("--db")
    create.set_defaults(handler=cmd_token_create)
    lister = token_commands.add_parser("list", help="every token, who issued it and whether it is revoked")
    lister.add_argument("--json", action="store_true", help="one JSON line per token")
    lister.add_argument("--db")
    lister.set_defaults(handler=cmd_token_list)
    revoke = token_commands.add_parser("revoke", help="revoke a token by id")
    revoke.add_argument("id")
    revoke.add_argument("--db")
    revoke.set_defaults(handler=cmd_token_revoke)

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
    verify = commands.add_parser("verify", help="recompute every deal's hash chain, and rebuild the read models "
                                                "into scratch tables to compare with the live ones; exit 1 if a "
                                                "chain breaks or they differ")
    verify.add_argument("--json", action="store_true")
    verify.add_argument("--db")
    verify_cli.add_arguments(verify)
    verify.set_defaults(handler=cmd_verify)
    register_pair(commands)
    publish_cli.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for stream in (sys.stdout, sys.stderr):
        # Text stored before the API refused lone surrogates is printed as its escape rather than failing.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    try:
        return args.handler(args)
    except Refusal as error:
        # the store cannot be opened with the configured key (domain/store/signing.py)
        if error.code != "bad_signing_key":
            raise
        print(f"fupan: {error.message}", file=sys.stderr)
        return 2
    finally:
        while OPENED:
            OPENED.pop().close()


if __name__ == "__main__":
    sys.exit(main())
