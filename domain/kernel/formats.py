"""Tournament formats and tiebreaks as data types: what ranks players, and in which order ties are broken.

A tournament declares a format code and an ordered list of tiebreak codes when it is created (FIDE-style:
published before play starts, shown on every standings page). Each game declares its formats in its own folder
(`domain/games/<game>/formats.py`, named by its descriptor); the standings (projections/) read a `Format` and its
`Criterion`s and evaluate them over per-seat facts of finished deals, knowing no game.

A criterion is a measure (`sum`, `count`, `mean`, `max` of one per-seat fact, or `lots`) over a scope of deals:
`ranking` — the deals that rank the player (knockout: the tables of the deepest round they reached;
cumulative: every round), or `playoff` — the deals of play-off rounds after them.

What each format needs from its game's `result()` is listed in `Format.facts` (and docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MEASURES = ("sum", "count", "mean", "max", "lots")
SCOPES = ("ranking", "playoff")


@dataclass(frozen=True)
class Criterion:
    """One figure of a standings row: the total, or a tiebreak."""

    code: str
    zh: str
    en: str
    measure: str
    fact: str = ""  # the per-seat fact measured (not used by `lots`)
    scope: str = "ranking"
    higher_wins: bool = True
    source: str = ""  # where the rule comes from: a seed, a digest section, or [REC] (a project decision)

    def __post_init__(self) -> None:
        assert self.measure in MEASURES and self.scope in SCOPES, self
        assert (self.measure == "lots") == (not self.fact), self

    def describe(self) -> dict[str, Any]:
        return {"code": self.code, "zh": self.zh, "en": self.en, "measure": self.measure, "fact": self.fact,
                "scope": self.scope, "higher_wins": self.higher_wins, "source": self.source}


@dataclass(frozen=True)
class Direction:
    """Seats that form one direction of the table (E-W, N-S): a format with directions also ranks the pairs of
    each direction among themselves."""

    code: str
    zh: str
    en: str
    seats: tuple[int, ...]

    def describe(self) -> dict[str, Any]:
        return {"code": self.code, "zh": self.zh, "en": self.en, "seats": list(self.seats)}


@dataclass(frozen=True)
class Format:
    """How one kind of tournament ranks its players.

    `structure`: `knockout` — players are ranked first by the round they reached (advancing from a finished
    table counts as reaching the next round), then within it; `cumulative` — every round counts (Swiss).
    `advance`: how many of each finished table go on (knockout). `team_size` > 1: partners share their team's
    figures and draw one lot together. `start_chips`: the total starts from the table's starting chips (a chip
    table). `duplicate`: the comparison group of duplicate scoring (deal facts `mp` and `mp_rate`).
    `directions`: the pairs of each direction are also ranked among themselves (S004's E-W and N-S awards).
    """

    code: str
    game: str
    zh: str
    en: str
    source: str
    structure: str
    table_size: int
    total: Criterion
    tiebreaks: tuple[Criterion, ...]
    default_tiebreaks: tuple[str, ...]
    facts: dict[str, str]  # per-seat fact → what the game's result must say for it
    advance: int | None = None
    team_size: int = 1
    start_chips: bool = False
    duplicate: tuple[str, ...] = ()
    directions: tuple[Direction, ...] = ()
    notes: tuple[str, ...] = field(default=())
    # Under an appeal's assigned or weighted score (docs/appeals.md): the facts that follow the adjusted score,
    # fact → "won" (1 if the seat's adjusted score is positive) or a role fact (its value if so, else 0).
    adjusted_facts: dict[str, str] = field(default_factory=dict)
    # The console's draws (projections/draws.py): options a stage's tables open with (stage → option → value)
    # while the tournament keeps each such option at its value in `stage_defaults`; whether a table's first
    # seat is drawn by lot; `pairing` "swiss": the rounds are paired by projections/pairing.py.
    stage_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    stage_defaults: dict[str, Any] = field(default_factory=dict)
    first_by_lot: bool = False
    pairing: str = ""

    def __post_init__(self) -> None:
        menu = {c.code for c in self.tiebreaks}
        assert self.structure in ("knockout", "cumulative"), self.code
        assert set(self.default_tiebreaks) <= menu, self.code
        assert (self.advance is not None) == (self.structure == "knockout"), self.code

    def tiebreak(self, code: str) -> Criterion:
        for criterion in self.tiebreaks:
            if criterion.code == code:
                return criterion
        raise KeyError(code)

    def describe(self) -> dict[str, Any]:
        return {
            "code": self.code, "game": self.game, "zh": self.zh, "en": self.en, "source": self.source,
            "structure": self.structure, "table_size": self.table_size, "advance": self.advance,
            "team_size": self.team_size, "start_chips": self.start_chips, "duplicate": list(self.duplicate),
            "directions": [d.describe() for d in self.directions],
            "total": self.total.describe(), "tiebreaks": [c.describe() for c in self.tiebreaks],
            "default_tiebreaks": list(self.default_tiebreaks), "facts": dict(self.facts), "notes": list(self.notes),
            "first_by_lot": self.first_by_lot,
        }


LOTS = Criterion("lots", "抽签", "drawing of lots", "lots", higher_wins=False,  # lot 1 is drawn first
                 source="seeded draw: the tournament's recorded lots seed (digest §1.10a.10)")


def playoff(fact: str, zh: str, en: str, source: str) -> Criterion:
    return Criterion("playoff", zh, en, "sum", fact, scope="playoff", source=source)
