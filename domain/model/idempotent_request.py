"""Idempotency keys: a write sent again under the same key is answered as the first time, and stores nothing new.

A client that lost its connection (a venue's wifi) cannot tell whether its write was stored; it sends it
again under the same `Idempotency-Key`. One `IdempotentRequest` aggregate per (caller, key) remembers what was
asked (method, path, SHA-256 of the body) and what was answered (status, body). Its id is the uuid5 of the
caller's token id and the key, so one caller can never find another's answer, and because the first version of
an aggregate is unique in the store, two processes storing the same key at once cannot both succeed.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.kernel.errors import BadRequest, Conflict
from domain.model.ids import NAMESPACE

MAX_KEY = 255


def check_key(key: str) -> str:
    """The key as sent: 1–255 visible ASCII characters (a UUID is the usual choice); else 400."""
    if not 0 < len(key) <= MAX_KEY or not all("!" <= ch <= "~" for ch in key):
        raise BadRequest("bad_idempotency_key",
                         f"An Idempotency-Key is 1–{MAX_KEY} visible ASCII characters (a UUID, for example).",
                         f"Idempotency-Key 必须是 1–{MAX_KEY} 个可见 ASCII 字符（例如 UUID）。", {"length": len(key)})
    return key


@functools.lru_cache(maxsize=1024)  # asked four times a keyed write (its unit's probe, its look-up, its aggregate)
def request_id(caller: str, key: str) -> UUID:
    return uuid5(NAMESPACE, f"idempotency:{caller}:{key}")


def body_digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


class IdempotentRequest(Aggregate):
    """What one caller asked under one key, and what it was answered."""

    TOPIC = "fupan:IdempotentRequest"

    class Event(Aggregate.Event):
        pass

    class Created(Event, Aggregate.Created):
        TOPIC = "fupan:IdempotentRequest.Created"
        key: str
        method: str
        path: str
        body_sha256: str
        recorded_by: dict[str, Any]

    class Answered(Event):
        TOPIC = "fupan:IdempotentRequest.Answered"
        status: int
        body: str
        content_type: str
        recorded_by: dict[str, Any]

        def apply(self, aggregate: IdempotentRequest) -> None:
            aggregate.answer = {"status": self.status, "body": self.body, "content_type": self.content_type}

    def __init__(self, key: str, method: str, path: str, body_sha256: str, recorded_by: dict[str, Any]):
        self.key = key
        self.method = method
        self.path = path
        self.body_sha256 = body_sha256
        self.recorded_by = recorded_by
        self.answer: dict[str, Any] | None = None

    @classmethod
    def new(cls, caller: str, key: str, method: str, path: str, body: bytes,
            recorded_by: dict[str, Any]) -> IdempotentRequest:
        return cls._create(cls.Created, id=request_id(caller, key), key=key, method=method, path=path,
                           body_sha256=body_digest(body), recorded_by=recorded_by)

    def same_request(self, method: str, path: str, body: bytes) -> bool:
        return (self.method, self.path, self.body_sha256) == (method, path, body_digest(body))

    def check_same(self, method: str, path: str, body: bytes) -> None:
        """409 unless this is the request first sent under the key. A key without its answer is only ever one
        stored by a version before answers shared the write's transaction (its worker died before answering)."""
        if not self.same_request(method, path, body):
            raise Conflict(
                "idempotency_conflict",
                "This Idempotency-Key was already used for a different request (another body or route); nothing "
                "was written. Use a new key for a new request.",
                "该 Idempotency-Key 已用于另一个请求（请求体或地址不同），本次未写入任何内容。新的请求请使用新的键。",
                {"key": self.key, "method": self.method, "path": self.path},
            )
        if self.answer is None:
            raise Conflict(
                "idempotency_pending",
                "The request first sent under this Idempotency-Key is still being answered; send it again shortly.",
                "使用该 Idempotency-Key 的首个请求仍在处理中，请稍后重发。", {"key": self.key},
            )

    def record_answer(self, status: int, body: str, content_type: str) -> None:
        self.trigger_event(self.Answered, status=status, body=body, content_type=content_type,
                           recorded_by=self.recorded_by)
