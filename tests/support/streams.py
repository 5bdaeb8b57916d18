"""Reading the server-sent events of /api/…/stream (docs/streams.md) over real HTTP, for the tests."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import requests

EVENT_STREAM = {"Accept": "text/event-stream"}


class Events:
    """A live stream opened with `Accept: text/event-stream`, read event by event (a read waits at most
    `timeout` seconds for the next line: a stream that says nothing fails the test rather than hanging it)."""

    def __init__(self, url: str, *, token: str | None = None, last_event_id: str | None = None,
                 params: dict[str, str] | None = None, timeout: float = 15):
        headers = dict(EVENT_STREAM)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.response = requests.get(url, headers=headers, params=params, stream=True, timeout=timeout)
        self.status = self.response.status_code
        self._lines = self.response.iter_lines(decode_unicode=True)
        self.texts: list[str] = []  # every event's raw text as it came

    def __iter__(self) -> Iterator[dict[str, Any]]:
        while True:
            yield self.next()

    def next(self) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        raw: list[str] = []
        for line in self._lines:
            if line == "":
                if "data" in fields:
                    self.texts.append("\n".join(raw))
                    return {"id": fields.get("id"), "event": fields.get("event", "message"),
                            "data": json.loads(fields["data"]), "raw": "\n".join(raw)}
                fields, raw = {}, []
                continue
            if line.startswith(":"):
                continue
            raw.append(line)
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value
        raise EOFError("the stream ended")

    def until(self, found: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        for event in self:
            if found(event):
                return event
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.response.close()


def parse(text: str) -> list[dict[str, Any]]:
    """The events of a whole answer (a stream read without `Accept: text/event-stream` ends by itself)."""
    events = []
    for block in text.split("\n\n"):
        fields = {}
        for line in block.splitlines():
            if line and not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value[1:] if value.startswith(" ") else value
        if "data" in fields:
            events.append({"id": fields.get("id"), "event": fields.get("event", "message"),
                           "data": json.loads(fields["data"]), "raw": block})
    return events
