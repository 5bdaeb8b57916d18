"""Idempotency keys: a write sent again under the same key is answered as the first time, and stores nothing new.

A client that lost its connection (a venue's wifi) cannot tell whether its write was stored; it sends it
again under the same `Idempotency-Key`. One `IdempotentRequest` aggregate per (caller, key) remembers what was
asked (method, path, SHA-256 of the body) and what was answered (status, body). Its id is the uuid5 of the
caller's token id and the key, so one caller can never find another's answer, and because the first version of
an aggregate is unique in the store, two processes storing the same key at once cannot both succeed.

A key and its answer (`Created` and `Answered`) are saved in the same transaction as the write they belong
to: the request's unit holds its commits (`Store.defer`) until the view has built its answer, then saves all
of it at once (`finish`). So a key is either absent — nothing of the request was stored, and a resend does the
write — or stored with its answer; a worker killed in between leaves nothing behind. The HTTP side, which
refusals are kept and which are not, is api/idempotency.py.
"""

from __future__ import annotations

import hashlib
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.aggregates import NAMESPACE
from domain.errors import BadRequest, Conflict
from domain.store import Store

MAX_KEY = 255


def check_key(key: str) -> str:
    """The key as sent: 1–255 visible ASCII characters (a UUID is the usual choice); else 400."""
    if not 0 < len(key) <= MAX_KEY or not all("!" <= ch <= "~" for ch in key):
        raise BadRequest("bad_idempotency_key",
                         f"An Idempotency-Key is 1–{MAX_KEY} visible ASCII characters (a UUID, for example).",
                         f"Idempotency-Key 必须是 1–{MAX_KEY} 个可见 ASCII 字符（例如 UUID）。", {"length": len(key)})
    return key


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


def begin(store: Store, caller: str, key: str, method: str, path: str, body: bytes,
          recorded_by: dict[str, Any], deal: str | None = None) -> tuple[IdempotentRequest, bool]:
    """(request, first): the stored request under this key if there is one (checked to be the same request,
    with its answer: 409 otherwise), else a new one, not stored, and the unit's commits are held from now on
    until `finish` saves them with the answer. Called in the request's unit of work. `deal`: the deal the
    request's route names, whose database keeps the key when there are deal databases (Store.place_with_deal)."""
    store.place_with_deal(request_id(caller, key), deal)
    found = store.find(request_id(caller, key))
    if found is not None:
        if not isinstance(found, IdempotentRequest):
            raise Conflict("idempotency_conflict", "That key cannot be used.", "该键不可用。", {"key": key})
        found.check_same(method, path, body)
        return found, False
    store.defer()
    return IdempotentRequest.new(caller, key, method, path, body, recorded_by), True


def finish(store: Store, request: IdempotentRequest, status: int, body: str, content_type: str, keep: bool,
           body_of_request: bytes) -> IdempotentRequest | None:
    """End a first request, in its unit. Kept (`keep`: an answer, or a refusal that judged the request): its
    writes, its key and its answer are saved in one transaction; not kept (a passing conflict, a 5xx): none of
    them. None: ours stands. If another process stored this key first (our save is then refused whole), that
    stored request is returned: its answer is the answer. Conflict (409): our save lost a race to another
    write, or the key was used for another request meanwhile; nothing of ours was stored."""
    if not keep:
        store.drop_deferred()
        return None
    request.record_answer(status, body, content_type)
    try:
        store.commit_deferred(request)
        return None
    except Conflict as lost:
        other = store.find(request.id)
        if not isinstance(other, IdempotentRequest):
            raise lost from None
        other.check_same(request.method, request.path, body_of_request)
        return other
