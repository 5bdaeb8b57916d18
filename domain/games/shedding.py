"""What the shedding games share (斗地主, 快乐三打一, 大怪路子; 挖坑 has its own card order): the usual rank values
(3 … 10, J 11, Q 12, K 13, A 14, 2 15, small joker 16, big joker 17 — docs/rules/: 斗地主 §2.1, 三打一 §1.2,
大怪路子 A2) and a round of plays as the views show it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from domain.kernel.cards import ALL_CODES, rank_of
from domain.kernel.engine import DealState
from domain.kernel.errors import illegal

K = TypeVar("K")


class Pattern(NamedTuple, Generic[K]):
    """One reading of a play: its kind (the game's code, named in its PATTERN_NAMES), its number of cards (plays
    compare only at equal size) and its key, compared within a kind — what the key is, each game's patterns
    module says."""

    kind: str
    size: int
    key: K


RANK_VALUE = {str(n): n for n in range(3, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14, "2": 15, "LJ": 16, "BJ": 17}
LITTLE, BIG = 16, 17
# Each card code's value, read once here: a play's cards are valued on every action of every deal checked.
CARD_VALUE = {code: RANK_VALUE[rank_of(code)] for code in ALL_CODES}


def card_value(code: str) -> int:
    """The value of a card code (canonical, as `normalize_all` leaves it)."""
    return CARD_VALUE[code]


def rank_counts(cards: list[str]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for code in cards:
        value = CARD_VALUE[code]
        counts[value] = counts.get(value, 0) + 1
    return counts


@dataclass(kw_only=True)
class SheddingState(DealState):
    """The rounds a shedding game keeps in its deal state: who leads the round in play and its plays so far, the
    rounds played, the seat of the last play, the passes since it, and each seat's plays and cards played. A
    game's state extends it (with its own `seats` and its own last pattern)."""

    leader: int | None = None
    last_seat: int | None = None
    current_round: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[list[dict[str, Any]]] = field(default_factory=list)
    passes_in_row: int = 0
    plays_by_seat: list[int] = field(default_factory=list)  # one per seat, from __post_init__
    played: list[list[str]] = field(default_factory=list)  # likewise

    def __post_init__(self) -> None:
        seats = len(self.seats)  # type: ignore[attr-defined]
        self.plays_by_seat = self.plays_by_seat or [0] * seats
        self.played = self.played or [[] for _ in range(seats)]


def round_json(plays: list[dict[str, Any]], describe: Callable[[Any], Any]) -> list[dict[str, Any]]:
    """A round's plays for a view: each play's pattern (an engine's own object) as `describe` writes it."""
    return [{**p, "pattern": describe(p["pattern"])} if "pattern" in p else dict(p) for p in plays]


def rounds_view(state: SheddingState, describe: Callable[[Any], Any]) -> dict[str, Any]:
    """A shedding game's rounds in its view: the round in play (its leader and plays), how many were played,
    and the last one."""
    return {"round": {"leader": state.leader, "plays": round_json(state.current_round, describe)},
            "rounds_played": len(state.rounds),
            "last_round": round_json(state.rounds[-1], describe) if state.rounds else None}


def following(state: SheddingState, seat: int) -> bool:
    """Whether `seat` answers a play in the current round (else it leads)."""
    return state.last_seat is not None and state.last_seat != seat


def pass_turn(state: SheddingState, seat: int, seats: int) -> bool:
    """不出 while following: the next seat acts; once every other seat has passed, the last player leads a new
    round (True: the caller forgets the round's last pattern). A leader may not pass."""
    if not following(state, seat):
        raise illegal("must_lead", "The leader must play; 不出 is only for following.", "首家必须出牌，不能不出。")
    state.current_round.append({"seat": seat, "type": "pass"})
    state.passes_in_row += 1
    state.to_act = (seat + 1) % seats
    if state.passes_in_row < seats - 1:
        return False
    state.rounds.append(state.current_round)
    state.current_round, state.passes_in_row = [], 0
    state.last_seat = None
    state.leader = state.to_act
    return True


def take_play(state: SheddingState, seat: int, cards: list[str], rest: list[str], pattern: Any, seats: int) -> bool:
    """Commit a checked play (`rest`: the hand without its cards); True when the seat went out, which closes the
    round (the caller ends the deal); else the next seat acts. The caller keeps the round's last pattern."""
    state.hands[seat] = rest
    state.played[seat].extend(cards)
    state.plays_by_seat[seat] += 1
    if not state.current_round:
        state.leader = seat
    state.current_round.append({"seat": seat, "type": "play", "cards": cards, "pattern": pattern})
    state.last_seat, state.passes_in_row = seat, 0
    if rest:
        state.to_act = (seat + 1) % seats
        return False
    state.rounds.append(state.current_round)
    state.current_round = []
    return True
