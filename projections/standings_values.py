"""The values standings are computed from and made of: one tournament's projected facts (`TournamentFacts`,
loaded by projections/store.py), a player's line at one table (`Line`) and their figures over some rounds
(`Figures`); `plain` is a figure's JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from projections.facts import Facts

Number = int | Fraction


@dataclass
class TournamentFacts:
    """What the projection recorded about one tournament, as of one notification id (rows in log order)."""

    tournament: dict[str, Any]
    players: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    matches: list[dict[str, Any]]
    deals: list[dict[str, Any]]  # scored deals only
    adjustments: list[dict[str, Any]]
    appeals: list[dict[str, Any]] = field(default_factory=list)  # {appeal_id, deal_id, outcome (latest), …}


@dataclass
class Line:
    """One player at one table: the table, the seat, and each scored deal there with the seat's facts."""

    match: dict[str, Any]
    seat: int
    deals: list[tuple[dict[str, Any], Facts]] = field(default_factory=list)  # as they count (appeals applied)
    # every deal as played (a voided one too, and the replacement counted in its place): what explain lists
    recorded: list[tuple[dict[str, Any], Facts]] = field(default_factory=list)
    set_aside: list[dict[str, Any]] = field(default_factory=list)  # replacements whose appeal is no longer void

    @property
    def round(self) -> int:
        return self.match["round"]


@dataclass
class Figures:
    """A player's total and tiebreak values over some rounds, and what they were computed from."""

    total: Number
    base: int
    from_deals: Number
    adjustments: list[dict[str, Any]]
    tiebreaks: list[Number]
    lines: list[Line]
    playoff_lines: list[Line]


def plain(value: Any) -> Any:
    """JSON form of a figure: exact fractions (rates) are shown to 4 decimals, compared exactly."""
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 4)
    return value
