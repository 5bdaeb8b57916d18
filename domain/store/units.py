"""Units of work: the `with` block a command runs in (`Unit`, what `Store.unit()` returns) and the `command`
decorator that runs a service method as one. What a unit does on entering and leaving — its locks, the cache's
synchronisation, forgetting what a failure changed — is the store's (domain/store/event_store.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar
from uuid import UUID

from domain.kernel.errors import Refusal


class UnitHost(Protocol):
    """What a unit asks of its store (domain/store/event_store.py `Store`)."""

    _depth: int  # nesting of units: 1 inside the outermost one

    def _enter_unit(self, probe: Sequence[UUID], writes_to: Sequence[UUID] | None = None) -> None: ...

    def _leave_unit(self, failed: bool) -> None: ...


class OpensUnits(Protocol):
    """A service whose commands run in its store's units."""

    def unit(self) -> Unit: ...


S = TypeVar("S", bound=OpensUnits)
P = ParamSpec("P")
R = TypeVar("R")


def command(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """Run a public method of the service as one unit (or inside the unit already open)."""

    @functools.wraps(method)
    def run(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.unit():
            return method(self, *args, **kwargs)

    return run


class Unit:
    """A `with` block of `Store.unit()` (a class rather than a generator: every request enters several)."""

    __slots__ = ("store", "probe", "writes_to")

    def __init__(self, store: UnitHost, probe: Sequence[UUID] = (), writes_to: Sequence[UUID] | None = None):
        self.store, self.probe, self.writes_to = store, probe, writes_to

    def __enter__(self) -> None:
        self.store._enter_unit(self.probe, self.writes_to)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        # Refusals come before any aggregate changed (or `commit` already forgot them); anything else may have
        # left changed aggregates in the cache.
        self.store._leave_unit(kind is not None and not issubclass(kind, Refusal))
