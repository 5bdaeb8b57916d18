"""Benchmark (b)'s two references: the bare `eventsourcing` application, and the same appends behind HTTP.

`BareApplication` / `BareDeal` store the facts of a deal with nothing checked: one event per action, one
`save` (one SQLite transaction) each, as fupan does. `create_floor_app` puts exactly those appends behind a
minimal Flask endpoint — no token, no schema, no rules, no hash chain, no security headers — so serving it
with the same WSGI server as `fupan serve` shows what HTTP and Flask alone cost on this machine: the best
ratio any Flask service that commits each action before answering could reach here.

Run as a server: python benchmarks/floor_app.py --db PATH --port N (waitress, like `fupan serve`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from flask import Flask, request

from web.app import DATA_CSP, SECURITY_HEADERS


class BareDeal(Aggregate):
    """The same facts as a fupan Deal, with nothing checked."""

    @event("Created")
    def __init__(self, hands: list[list[str]], kitty: list[str], first: int):
        self.hands, self.kitty, self.first = hands, kitty, first
        self.actions: list[dict[str, Any]] = []

    @event("ActionRecorded")
    def record(self, action: dict[str, Any]) -> None:
        self.actions.append(action)


class BareApplication(Application):
    pass


def bare_application(db: str) -> BareApplication:
    return BareApplication(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": db})


def create_floor_app(db: str, answer: bool = False) -> Flask:
    """The bare appends behind the same routes the benchmark calls on fupan (the body's extra keys ignored).
    `answer`: each action is answered as fupan answers it — its security headers and an answer of the same
    size — so the floor then shows what HTTP and Flask cost with fupan's answer, and nothing else of it."""
    headers = {"Content-Type": "application/json", **(SECURITY_HEADERS | {"Content-Security-Policy": DATA_CSP,
                                                                          "Cache-Control": "no-store"} if answer
                                                         else {})}
    padding = "x" * 420 if answer else ""  # a recorded action's answer is ~450 bytes of JSON
    bare = bare_application(db)
    deals: dict[UUID, BareDeal] = {}  # held in memory, as the bare side holds its deal
    app = Flask(__name__)

    @app.post("/api/deals")
    def create() -> tuple[str, int, dict[str, str]]:
        body = json.loads(request.get_data())
        deal = BareDeal(body["hands"], body["kitty"], body["first"])
        bare.save(deal)
        deals[deal.id] = deal
        return json.dumps({"id": str(deal.id)}), 201, {"Content-Type": "application/json"}

    @app.post("/api/deals/<deal_id>/actions")
    def record(deal_id: str) -> tuple[str, int, dict[str, str]]:
        deal = deals[UUID(deal_id)]
        deal.record(json.loads(request.get_data())["action"])
        bare.save(deal)
        return json.dumps({"version": deal.version, "padding": padding}), 201, headers

    return app


if __name__ == "__main__":
    import waitress

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--answer", action="store_true", help="answer with fupan's headers and answer size")
    args = parser.parse_args()
    waitress.serve(create_floor_app(args.db, args.answer), host="127.0.0.1", port=args.port, threads=8, _quiet=True)
