"""How a refusal about a deal names its seats: by the players sitting there, never by a number (issue 23).

The rules engines cannot know who sits where, so their refusals hold seat references (domain/kernel/errors.py
`seat_ref`); the services that handle a request about a deal, a table or an appeal know the match, and name
them here, once: "张伟", with the game's own word for the seat where it has one ("张伟（东）", "Zhang Wei (E)").
A deal outside any match names its seats by the labels it was dealt with; "座位 N" is left only where no deal
is known. `details` keep their seats counted from 0 (the API's contract).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from domain.games import seat_namer
from domain.kernel.errors import Refusal, SeatNamer, seat_numbered
from domain.model.appeal import Appeal
from domain.model.deal import Deal
from domain.model.match import Match
from domain.model.tournament import Tournament
from domain.store.event_store import Store

F = TypeVar("F", bound=Callable[..., Any])


def match_namer(store: Store, match: UUID | str) -> SeatNamer:
    """A match's seats by its players' names (as `match_dict`'s `seat_names`)."""
    with store.unit():
        m = store.load(Match, match, "match")
        t = store.load(Tournament, m.tournament_id, "tournament")
        return seat_namer(m.game, [t.players.get(s, s) for s in m.seats])


def deal_namer(store: Store, deal: UUID | str) -> SeatNamer:
    """A deal's seats: its match's players, or the labels a deal outside any match was dealt with."""
    with store.unit():
        d = store.load(Deal, deal, "deal")
        match_id, game, labels = d.match_id, d.setup.game, list(d.setup.seats)
    return match_namer(store, match_id) if match_id is not None else seat_namer(game, labels)


def appeal_namer(store: Store, appeal: UUID | str) -> SeatNamer:
    """The seats of the match an appeal is about."""
    with store.unit():
        match_id = store.load(Appeal, appeal, "appeal").match_id
    return match_namer(store, match_id)


NAMERS: dict[str, Callable[[Store, Any], SeatNamer]] = {"deal": deal_namer, "match": match_namer,
                                                          "appeal": appeal_namer}


def names_seats(of: str) -> Callable[[F], F]:
    """A service method whose refusals name the seats of the deal, match or appeal (`of`) its first argument
    (or that keyword) names. The names are read only for a refusal that mentions a seat."""
    def decorate(method: F) -> F:
        @functools.wraps(method)
        def named(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except Refusal as refusal:
                subject = kwargs.get(of, args[0] if args else None)
                if subject is not None and refusal.mentions_seats:
                    refusal.name_seats(namer_of(self.store, of, subject))
                raise
        return named  # type: ignore[return-value]
    return decorate


def namer_of(store: Store, of: str, subject: Any) -> SeatNamer:
    """The namer of a deal, match or appeal; numbers when it is not there to read (the refusal may be that it is
    unknown or malformed). The refusal is what the request answers: that second refusal never replaces it."""
    try:
        return NAMERS[of](store, subject)
    except Refusal:  # NotFound / BadRequest for the subject: its seats stay numbered
        return seat_numbered
