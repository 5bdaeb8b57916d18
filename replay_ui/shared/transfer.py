"""What the viewer sends over the wire: gzip for its pages, scripts, styles and JSON, and a finished deal's frames
kept ready, encoded and compressed (venue wifi is slow; a 219-step 大怪路子 deal is 600 KB of JSON, 15 KB gzipped).

Compression is the viewer's own (stdlib gzip, no dependency), applied after each of its blueprints' requests
(`install`). A static file or plotly.js is compressed once per version (its ETag) and kept; a page once per
request. A finished deal's frames never change until its next event (an annotation), and look the same to every
reader once the deal is published (domain/services/visibility.py may_see_all), so they are kept per (deal, version,
viewpoint) with an ETag, and a browser's second visit is a 304.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import Any

from flask import Blueprint, Response, request

COMPRESSIBLE = frozenset({"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                          "image/svg+xml"})
SMALLEST = 1024  # below this, gzip's header costs more than it saves
LEVEL = 6


class Kept:
    """A small LRU of bytes by key, safe across the server's threads; at most `limit` bytes in all."""

    def __init__(self, limit: int):
        self.limit = limit
        self.size = 0
        self.items: OrderedDict[Any, bytes] = OrderedDict()
        self.lock = Lock()

    def get(self, key: Any, build: Callable[[], bytes]) -> bytes:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = build()  # outside the lock: another thread may build the same, and one of the two is kept
        with self.lock:
            if key not in self.items and len(value) <= self.limit:
                self.items[key] = value
                self.size += len(value)
                while self.size > self.limit:
                    _, dropped = self.items.popitem(last=False)
                    self.size -= len(dropped)
        return value


COMPRESSED = Kept(48 * 1024 * 1024)  # static files and plotly.js by ETag, finished deals' frames by version
FRAMES = Kept(64 * 1024 * 1024)


def _compress(response: Response) -> Response:
    if (response.status_code != 200 or "Content-Encoding" in response.headers
            or response.mimetype not in COMPRESSIBLE or "gzip" not in request.accept_encodings):
        return response
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    response.direct_passthrough = False  # a static file: read it (once per ETag, below)
    if etag:
        body = COMPRESSED.get((request.path, etag), lambda: gzip.compress(response.get_data(), LEVEL, mtime=0))
        close = getattr(response.response, "close", None)
        if close is not None:  # a file kept compressed was not read this time: close it
            close()
        response.set_etag(etag, weak=True)  # the same resource, another encoding: a weak validator (RFC 9110 8.8.1)
    else:
        data = response.get_data()
        if len(data) < SMALLEST:
            return response
        body = gzip.compress(data, LEVEL, mtime=0)
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    response.headers.pop("Accept-Ranges", None)  # a range of the compressed body is not offered
    return response


def install(*blueprints: Blueprint) -> None:
    for blueprint in blueprints:
        blueprint.after_request(_compress)


def finished_frames(key: tuple[str, int, str], build: Callable[[], dict[str, Any]]) -> Response:
    """A finished deal's frames for one viewpoint, as JSON kept by (deal, version, viewpoint), with its ETag."""
    body = FRAMES.get(key, lambda: json.dumps(build(), ensure_ascii=False, separators=(",", ":")).encode())
    response = Response(body, mimetype="application/json")
    response.set_etag(hashlib.sha256(repr(key).encode()).hexdigest()[:32])
    response.headers["Cache-Control"] = "no-cache"  # ask each time (an annotation may come): a 304 costs nothing
    return response.make_conditional(request)
