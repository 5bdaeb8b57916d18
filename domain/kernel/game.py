"""A game as one descriptor: everything the rest of fupan reads about a game, declared once in its own folder.

Each game's folder (`domain/games/<game>/`) declares one `Game` in its `descriptor.py`; the registry
(domain/games/__init__.py) is the list of them. Every registry of the project reads it — the recording path
(engine, table), the score slips (`slip`), the analysis (`analysis`), the standings and the console's draws
(`formats`), the recording pad (`pad`) — so no module outside a game's folders names a game. The viewer finds
the game's plugin by convention, the folder `replay_ui/games/<code>/` (the generic one when there is none).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.kernel.engine import DealSetup, Engine
from domain.kernel.formats import Format
from domain.kernel.table import MatchRules

# A score slip's scorer: (engine, setup, facts) → (the facts as stored, the result the engine's scoring gives);
# IllegalAction for facts that cannot be (domain/records/slips.py).
SlipScorer = Callable[[Engine, DealSetup, dict[str, Any]], tuple[dict[str, Any], dict[str, Any]]]


class Analysis(Protocol):
    """A game's analysis adapter (domain/games/<game>/analysis.py, on the game-agnostic search in domain/solver/):
    the search's position for an engine state in card play. `points`: the search values points the attackers
    still take (升级) rather than a win or a loss."""

    points: bool
    suitless: bool  # the same ranks in other suits are one play (the viewer's analysis panel groups them)

    def position(self, engine: Engine, state: Any) -> Any:
        """A `domain.solver.position.Position`; IllegalAction `not_analysable` when the state cannot be searched."""
        ...


@dataclass(frozen=True)
class PadFacts:
    """What the recording pad draws from a game beyond its engine's views (served in the pad's JSON).

    `kitty_apart`: the phases during which the kitty lies apart from every hand (docs/pad.md "The kitty")."""

    kitty_apart: tuple[str, ...] = ()


@dataclass(frozen=True)
class Preset:
    """A ruleset preset the organiser console offers when a tournament of the game is created: the option it
    sets unless the options given name it, and its values (the first is the default)."""

    option: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Game:
    """One game: its record-format code, rules engine and table (how its deals chain into a match), and what
    each other part of fupan needs of it. A game without slips, analysis or formats leaves them empty: slips are
    refused, the analysis finds no card play to search (`not_in_play`), a tournament of it cannot be created."""

    code: str
    engine: Engine
    table: MatchRules
    formats: tuple[Format, ...] = ()  # the first is the default a tournament gets
    slip: SlipScorer | None = None
    analysis: Analysis | None = None
    pad: PadFacts = field(default_factory=PadFacts)
    preset: Preset | None = None
    # The game's own word for each seat, (zh, en), where it has one (升级's 东 南 西 北): a refusal names a seat
    # "张伟（东）" (domain/services/seat_names.py), as the pages do (replay_ui/pages.py `seat_named`).
    seat_words: tuple[tuple[str, str], ...] = ()
    # Played in tricks the engine's public view counts (`tricks_played`): a tournament's public delay may be set
    # in tricks (docs/SECURITY.md "Broadcast delay").
    delay_in_tricks: bool = False

    def __post_init__(self) -> None:
        assert self.engine.game == self.code and self.table.game == self.code, self.code
        assert all(f.game == self.code for f in self.formats), self.code
