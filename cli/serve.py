"""`fupan serve`: the web app (web/app.py: the JSON API and the pages) on waitress; `--demo` loads the demo
tournament into an empty store and prints fresh tokens for the run."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING

from cli.common import DEFAULT_DB, open_service
from domain.model.token import APPEALS, ORGANISER, REFEREE

if TYPE_CHECKING:  # `fupan` starts without the service layer; `open_service` imports it
    from domain.services.fupan import Fupan


def cmd_serve(args: argparse.Namespace) -> int:
    import waitress

    from web.app import create_app

    service = open_service(args.db)
    if args.demo:
        if not service.store.recorder.max_notification_id():
            from fixtures import load_demo, record_live_table

            load_demo(service)
            record_live_table(service)  # the table in play the printed referee token records (issue 23)
        print_demo_tokens(service)
    elif not service.tokens.has_active(ORGANISER):
        print("fupan: no organiser token yet; writes need one: fupan token create --role organiser"
              + (f" --db {args.db}" if args.db else ""), file=sys.stderr, flush=True)
    app = create_app({"FUPAN_APPLICATION": service, "FUPAN_STREAMS_MAX": args.streams,
                      **({"FUPAN_VENUE_URL": args.venue_url} if args.venue_url else {})})
    # waitress: a production WSGI server in pure Python that keeps a scorer's HTTP/1.1 connection open between
    # actions (werkzeug's development server closes every connection). `ident` keeps the Server header bare.
    # waitress reads a chunked body whole before the app sees it (so it is never cut short) and hands it on with
    # its length: the app then refuses it past the route's limit as any other (413, in the error shape). It
    # buffers at most this much (beyond, its own 413).
    logging.basicConfig()  # as waitress.serve does: its warnings (a full task queue) reach stderr
    # Live streams (docs/streams.md) each hold a thread while open: `--streams` more threads than requests get,
    # and the app refuses a stream past them (429: the page polls), so streams never starve ordinary requests.
    server = waitress.create_server(app, host=args.host, port=args.port, threads=args.threads + args.streams,
                                    ident="fupan",
                                    max_request_body_size=4 * app.config["MAX_CONTENT_LENGTH"])
    # The port bound, not the one asked for: with --port 0 the system picks a free one, and this line says which.
    port = getattr(server, "effective_port", args.port)
    print(f"fupan: serving on http://{args.host}:{port}/ (API docs: /api/docs)", flush=True)
    server.run()
    return 0


DEMO_LABEL = "demo (fupan serve --demo)"


def print_demo_tokens(service: Fupan) -> None:
    """Demo mode: fresh tokens for this run, printed once (the previous run's demo tokens are revoked), so a
    first-time user can write at once and nothing else about access control is relaxed."""
    for token in service.tokens.all():
        if token["label"].startswith(DEMO_LABEL) and not token["revoked"]:
            service.tokens.revoke(token["id"])
    _, organiser = service.tokens.create(ORGANISER, label=f"{DEMO_LABEL}: organiser")
    lines = [f"  organiser:          {organiser}"]
    # The referee of the demo's table in play (fixtures.LIVE_DEMO): it records the deal being played on the pad
    # and can file an appeal about the table's first deal; the committee's token decides it.
    from fixtures import LIVE_DEMO

    tables = [(t, m) for t in service.tournaments.all() if t["name"] == LIVE_DEMO for m in t["matches"]][:1]
    for tournament, match in tables:
        _, referee = service.tokens.create(REFEREE, [match["id"]], f"{DEMO_LABEL}: referee, table {match['table']}")
        lines.append(f"  referee of table {match['table']} ({tournament['name']}, in play): {referee}")
        lines.append(f"    its pad: /matches/{match['id']}/pad")
    _, committee = service.tokens.create(APPEALS, label=f"{DEMO_LABEL}: appeals committee")
    lines.append(f"  appeals committee:  {committee}")
    print("fupan: DEMO MODE — tokens for this run (shown once; a restart replaces them):", *lines,
          '  use: curl -H "Authorization: Bearer <token>" …', sep="\n", flush=True)


def register(commands: argparse._SubParsersAction) -> None:
    """The `serve` command."""
    serve = commands.add_parser("serve", help="run the HTTP API (and viewer)")
    serve.add_argument("--db", help=f"SQLite file (default ./{DEFAULT_DB})")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000, help="default 8000; 0: a free port, printed once bound")
    serve.add_argument("--venue-url", default="", help="the address referees' phones and tablets reach this server "
                       "at (e.g. http://192.168.1.20:8000), printed on the referee cards; default: the request's")
    serve.add_argument("--threads", type=int, default=8, help="request threads (default 8)")
    serve.add_argument("--streams", type=int, default=200, help="live streams held open at once, a thread each "
                       "(default 200; many more: the gunicorn command of README \"Production\")")
    serve.add_argument("--demo", action="store_true", help="load the demo fixtures into an empty store")
    serve.set_defaults(handler=cmd_serve)
