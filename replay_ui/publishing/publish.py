"""`fupan publish TOURNAMENT --out DIR`: a tournament as a static site that works opened from the file system.

No second viewer: the publisher asks the real app (its Flask test client, as the anonymous public, so only what
is public is published — docs/SECURITY.md §4) for every page of the tournament and writes each answer to a file.
While it does, the app's `url_for` writes links relative to the page being written: pages become `.html` files,
static files and plotly.js (from the installed package) are copied, downloads and PDFs are saved beside them,
and links leave the tournament nowhere (a link to anything else becomes "#").

The scripts' data (a deal's frames for each viewpoint, the standings) cannot be fetched from file://, so each page
that asks for data gets a script beside it, `data/….js`, setting `window.FUPAN_STATIC` = {url: answer}; the
pages' one fetch function (`Fupan.getJSON`, static/fupan.js) answers from it and never touches the network.
"""

from __future__ import annotations

import html
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, urlsplit

from flask import Flask, has_request_context, request

from domain.games import GAMES

# Endpoints the page scripts fetch: their URLs stay as they are, keys into the page's embedded data.
# (the analysis panel asks the API itself: a JSON answer, never a page of the site)
DATA_ENDPOINTS = frozenset({"replay_ui_api.frames", "deals.get_deal", "deals.annotate", "analysis.analyse_deal",
                            "appeals_ui.appeal_may", "appeals_ui.tournament_may",
                            "replay_ui_api.broadcast_table"})  # asked by scripts: no page
# What a saved download is called (an /api answer has no file name of its own).
SUFFIXES = {"deals.export_record": ".json", "matches.export_match": ".jsonl",
            "tournaments.export_tournament": ".jsonl"}

Progress = Callable[[int, int], None]  # (files written, files known so far)


@dataclass
class LeftOut:
    """A page or file the site does not have, and why. `error`: the app failed to answer it or answered that it
    has no such page although a page of the tournament linked it — a fault, so `fupan publish` exits non-zero;
    otherwise a link to something outside the tournament, left out by design. Every link to it was removed."""

    url: str
    status: int | None  # the app's answer; None: not asked (outside the tournament)
    why: str  # in words, English
    why_zh: str
    error: bool
    linked_from: list[str] = field(default_factory=list)  # the written pages that linked it

    def as_json(self) -> dict[str, Any]:
        return {"url": self.url, "status": self.status, "why": self.why, "why_zh": self.why_zh, "error": self.error,
                "linked_from": sorted(set(self.linked_from))}


@dataclass
class Publication:
    """What `publish` wrote: counts for the summary, and what it left out (no link in the site points to it)."""

    out: Path
    pages: int = 0
    files: int = 0
    deals: int = 0
    bytes: int = 0
    seconds: float = 0.0
    left_out: list[LeftOut] = field(default_factory=list)

    @property
    def errors(self) -> list[LeftOut]:
        return [item for item in self.left_out if item.error]

    def as_json(self) -> dict[str, Any]:
        return {"out": str(self.out), "index": str(self.out / "index.html"), "pages": self.pages,
                "files": self.files, "deals": self.deals, "bytes": self.bytes, "errors": len(self.errors),
                "left_out": [item.as_json() for item in self.left_out]}


class _Failures(logging.Handler):
    """The app's logged exceptions while publishing, by request path: said in the report, not as tracebacks."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.by_path: dict[str, str] = {}

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        said = f"{type(error).__name__}: {error}" if error is not None else record.getMessage()
        self.by_path.setdefault(request.path if has_request_context() else "", said)


class Publisher:
    """One publication of one tournament from `app` (an app of its own: its `url_for` is replaced)."""

    def __init__(self, app: Flask, tournament_id: str, out: Path):
        self.app = app
        self.out = out
        self.service = app.extensions["fupan"]
        tournament = self.service.tournaments.get(tournament_id)
        self.tournament_id = tournament["id"]
        self.matches = self.service.tables.of_tournament(self.tournament_id)
        self.deals = [entry["deal_id"] for match in self.matches for entry in match["deals"]]
        self.seats = {entry["deal_id"]: len(match["seats"]) for match in self.matches for entry in match["deals"]}
        # The ids a published link may name: the tournament's own, its tables', its deals', and the rules.
        self.allowed = {self.tournament_id, *(m["id"] for m in self.matches), *self.deals, *GAMES}
        self.home = f"/tournaments/{self.tournament_id}"
        self.queue: list[tuple[str, str]] = []  # (URL to ask for, file to write)
        self.known: set[str] = set()
        self.links: dict[str, set[tuple[str, str]]] = {}  # target file → (page file, the link as written there)
        self.outside: dict[str, LeftOut] = {}  # URL → the links to it, left out by design
        self.missing: dict[str, LeftOut] = {}  # target file → why it was not written
        self.report = Publication(out, deals=len(self.deals))
        self._url_for = app.url_for
        app.url_for = self.url_for  # type: ignore[method-assign]  # flask.url_for calls current_app.url_for
        app.jinja_env.globals["url_for"] = self.url_for
        app.config["FUPAN_PUBLISHING"] = True  # pages leave out what needs a server (the pad's 更正 link)
        app.context_processor(self._page_data)

    # --- links ---------------------------------------------------------------------------------------

    def file_for(self, endpoint: str, path: str, query: str = "") -> str:
        """The file a URL's answer is written to, relative to the publication's root."""
        if path in ("/", self.home):
            return "index.html"
        name = path.strip("/")
        if endpoint in SUFFIXES:
            return name + SUFFIXES[endpoint]
        if endpoint.startswith("documents.") and name.endswith(".pdf") and "lang=en" in query:
            return name.removesuffix(".pdf") + ".en.pdf"  # the English PDF beside the Chinese one
        if PurePosixPath(name).suffix or endpoint.endswith(".static") or endpoint.endswith("plotly_js"):
            return name
        return name + ".html"

    def url_for(self, endpoint: str, **values: Any) -> str:
        url = self._url_for(endpoint, **values)
        if endpoint in DATA_ENDPOINTS:
            return url
        parts = urlsplit(url)
        _, path_args = self.app.url_map.bind("localhost").match(parts.path)
        # Only the ids say whose page it is (a round's number or a file's name belongs to the page that has it).
        ids = [str(value) for key, value in path_args.items() if key.endswith("_id") or key == "game"]
        page = self.file_for(request.endpoint or "", request.path)
        if not all(value in self.allowed for value in ids):
            left = self.outside.setdefault(url, LeftOut(
                url, None, "it belongs to another tournament or to no tournament: not published with this one",
                "属于其他赛事或不属于任何赛事，不随本赛事发布", error=False))
            left.linked_from.append(page)
            return "#"
        target = self.file_for(endpoint, parts.path, parts.query)
        self.want(parts.path + (f"?{parts.query}" if parts.query and not target.endswith(".html") else ""), target)
        here = PurePosixPath(page).parent
        link = os.path.relpath(target, start=str(here) if str(here) != "." else os.curdir)
        keep = f"?{parts.query}" if parts.query and target.endswith(".html") else ""
        written = link + keep + (f"#{parts.fragment}" if parts.fragment else "")
        self.links.setdefault(target, set()).add((page, written))
        return written

    def want(self, url: str, target: str) -> None:
        if target not in self.known:
            self.known.add(target)
            self.queue.append((url, target))

    # --- the scripts' data ----------------------------------------------------------------------------

    def _page_data(self) -> dict[str, Any]:
        """Templates render `published_data`, the page's data script, before their own scripts; `published_copy`
        tells every page it is a copy without a server (no live stream: docs/streams.md)."""
        name = self.data_name(request.endpoint or "", request.view_args or {})
        if name is None:
            return {"published_copy": True}
        here = PurePosixPath(self.file_for(request.endpoint or "", request.path)).parent
        return {"published_copy": True,
                "published_data": os.path.relpath(name, start=str(here) if str(here) != "." else os.curdir)}

    def data_name(self, endpoint: str, args: dict[str, Any]) -> str | None:
        if endpoint == "replay_ui.deal_viewer":
            return f"data/deal-{args['deal_id']}.js"
        if endpoint == "replay_ui.standings_page":
            return f"data/standings-{args['tournament_id']}.js"
        if endpoint == "replay_ui.broadcast_page":
            return f"data/broadcast-{args['tournament_id']}.js"
        return None

    def page_data(self, endpoint: str, args: dict[str, Any]) -> dict[str, Any]:
        """Every answer the page's scripts may ask for, keyed by the URL they ask with."""
        client = self.app.test_client()
        if endpoint == "replay_ui.standings_page":
            url = f"/api/tournaments/{args['tournament_id']}/standings"  # templates/standings.html's data-url
            answer = client.get(url)
            return {url: answer.get_json()} if answer.status_code == 200 else {}
        if endpoint == "replay_ui.broadcast_page":  # every table as the public follows it, under the delay
            with self.app.test_request_context():
                urls = [self._url_for("replay_ui_api.broadcast_table", match_id=m["id"]) for m in self.matches]
            return {url: client.get(url).get_json() for url in urls}
        deal = args["deal_id"]
        with self.app.test_request_context():
            frames = self._url_for("replay_ui_api.frames", deal_id=deal)  # the boot's frames_url, as the page has it
        data = {}
        views = ["public", "referee", *(f"seat:{seat}" for seat in range(self.seats.get(deal, 0)))]
        for view in views:  # what viewer.js asks: frames_url?viewpoint=encodeURIComponent(view)
            answer = client.get(f"{frames}?viewpoint={quote(view, safe='')}")
            if answer.status_code == 200:  # a seat's view of a deal still in play is not public: left out
                data[f"{frames}?viewpoint={quote(view, safe='')}"] = answer.get_json()
        return data

    # --- writing -------------------------------------------------------------------------------------

    def write(self, target: str, body: bytes) -> None:
        path = self.out / target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        self.report.files += 1
        self.report.bytes += len(body)

    def publish(self, progress: Progress | None = None) -> Publication:
        started = time.monotonic()
        # The pages in reading order first (so progress moves as a reader would), then what they link to.
        self.want(self.home, "index.html")
        self.want(self.home + "/standings", f"tournaments/{self.tournament_id}/standings.html")
        for match in self.matches:
            self.want(f"/matches/{match['id']}", f"matches/{match['id']}.html")
        for deal in self.deals:
            self.want(f"/deals/{deal}", f"deals/{deal}.html")
            self.want(f"/deals/{deal}/record", f"deals/{deal}/record.html")
        client = self.app.test_client()
        failures = _Failures()
        logger, handlers, propagate = self.app.logger, self.app.logger.handlers[:], self.app.logger.propagate
        logger.handlers, logger.propagate = [failures], False
        try:
            self._crawl(client, failures, progress)
        finally:
            logger.handlers, logger.propagate = handlers, propagate
        self.report.left_out = [*self.report.left_out, *self.outside.values()]
        self._unlink_missing()
        self.report.seconds = time.monotonic() - started
        return self.report

    def _crawl(self, client: Any, failures: _Failures, progress: Progress | None) -> None:
        """Ask for every page and file the site links, writing each answer; note what could not be written."""
        done = 0
        while self.queue:
            url, target = self.queue.pop(0)
            answer = client.get(url)
            if answer.status_code != 200:
                self.report.left_out.append(self._failed(url, target, answer, failures))
            else:
                self.write(target, answer.get_data())
                self.report.pages += target.endswith(".html")
                adapter = self.app.url_map.bind("localhost")
                endpoint, args = adapter.match(urlsplit(url).path)
                name = self.data_name(endpoint, args)
                if name is not None:
                    payload = json.dumps(self.page_data(endpoint, args), ensure_ascii=False, separators=(",", ":"))
                    self.write(name, f"window.FUPAN_STATIC = Object.assign(window.FUPAN_STATIC || {{}}, "
                                     f"{payload});\n".encode())
            done += 1
            if progress is not None:
                progress(done, done + len(self.queue))

    def _failed(self, url: str, target: str, answer: Any, failures: _Failures) -> LeftOut:
        """What a page the site links said instead of itself, in words."""
        error = (answer.get_json(silent=True) or {}).get("error", {}) if answer.is_json else {}
        path = urlsplit(url).path
        if answer.status_code >= 500:
            said = failures.by_path.get(path, error.get("message", ""))
            why = f"the app failed to make it ({answer.status_code}: {said})"
            why_zh = f"应用生成该页时出错（{answer.status_code}：{said}）"
        else:
            why = f"the app answered {answer.status_code} {error.get('code', '')}: {error.get('message', '')}".strip()
            why_zh = f"应用答复 {answer.status_code} {error.get('code', '')}：{error.get('message_zh', '')}".strip()
        self.missing[target] = LeftOut(url, answer.status_code, why, why_zh, error=True)
        return self.missing[target]

    def _unlink_missing(self) -> None:
        """No written page links a file that was not written: each such link loses its address (an `<a>` without
        `href` is no link) and says it was left out."""
        written = {str(path.relative_to(self.out)) for path in self.out.rglob("*") if path.is_file()}
        edits: dict[str, list[str]] = {}
        for target, linked in self.links.items():
            if target in written:
                continue
            if target in self.missing:
                self.missing[target].linked_from = sorted({page for page, _ in linked if page in written})
            for page, link in linked:
                if page in written and page.endswith(".html"):
                    edits.setdefault(page, []).append(link)
        for page, links in edits.items():
            path = self.out / page
            text = path.read_text(encoding="utf-8")
            for link in links:
                text = text.replace(f'href="{html.escape(link)}"', 'aria-disabled="true" data-left-out')
            path.write_text(text, encoding="utf-8")


def publish(app: Flask, tournament_id: str, out: Path, progress: Progress | None = None) -> Publication:
    """Write the tournament's static site into `out` (created if missing; files already there are replaced)."""
    publisher = Publisher(app, tournament_id, out)  # NotFound for an unknown tournament, before any file is made
    out.mkdir(parents=True, exist_ok=True)
    return publisher.publish(progress)
