"""Write requests: each one unit of work, and a keyed one (`Idempotency-Key`) answered once.

A key and its answer (`Created` and `Answered`) are saved in the same transaction as the write they belong
to: the request's unit holds its commits (`Store.defer`) until the view has built its answer, then saves all
of it at once (`finish`). So a key is either absent — nothing of the request was stored, and a resend does the
write — or stored with its answer; a worker killed in between leaves nothing behind. The HTTP side, which
refusals are kept and which are not, is api/idempotency.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from domain.kernel.errors import Conflict
from domain.model.idempotent_request import IdempotentRequest, request_id
from domain.services.service import Service
from domain.store.units import Unit


class Requests(Service):
    """What the API's write requests ask of the store as a whole (api/idempotency.py, the request middleware)."""

    def open(self, probe: Sequence[UUID] = (), writes_to: Sequence[UUID] | None = None) -> Unit:
        """The unit of work of one write request, entered before it is authenticated and left after its answer:
        authentication, the referee's scope and the command share it and its one look at the notification log
        (domain/store/event_store.py). `probe`: the key the request carries, asked with that look. `writes_to`:
        the deal a write to one deal names (none for a new deal): the unit locks it and what else it changes,
        and runs beside other such units; without, it runs alone (`Store.unit`)."""
        return self.store.unit(probe, writes_to)

    def begin(self, caller: str, key: str, method: str, path: str, body: bytes,
              recorded_by: dict[str, Any], deal: str | None = None) -> tuple[IdempotentRequest, bool]:
        """(request, first): the stored request under this key if there is one (checked to be the same request,
        with its answer: 409 otherwise), else a new one, not stored, and the unit's commits are held from now on
        until `finish` saves them with the answer. Called in the request's unit of work. `deal`: the deal the
        request's route names, whose database keeps the key when there are deal databases (Store.place_with_deal)."""
        self.store.place_with_deal(request_id(caller, key), deal)
        found = self.store.find(request_id(caller, key))
        if found is not None:
            if not isinstance(found, IdempotentRequest):
                raise Conflict("idempotency_conflict", "That key cannot be used.", "该键不可用。", {"key": key})
            found.check_same(method, path, body)
            return found, False
        self.store.defer()
        return IdempotentRequest.new(caller, key, method, path, body, recorded_by), True

    def finish(self, request: IdempotentRequest, status: int, body: str, content_type: str, keep: bool,
               body_of_request: bytes) -> IdempotentRequest | None:
        """End a first request, in its unit. Kept (`keep`: an answer, or a refusal that judged the request): its
        writes, its key and its answer are saved in one transaction; not kept (a passing conflict, a 5xx): none of
        them. None: ours stands. If another process stored this key first (our save is then refused whole), that
        stored request is returned: its answer is the answer. Conflict (409): our save lost a race to another
        write, or the key was used for another request meanwhile; nothing of ours was stored."""
        if not keep:
            self.store.drop_deferred()
            return None
        request.record_answer(status, body, content_type)
        try:
            self.store.commit_deferred(request)
            return None
        except Conflict as lost:
            other = self.store.find(request.id)
            if not isinstance(other, IdempotentRequest):
                raise lost from None
            other.check_same(request.method, request.path, body_of_request)
            return other
