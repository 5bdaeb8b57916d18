"""Hands of a ranks-only shedding game packed into one integer, 4 bits of count per rank, the bit tricks the
search (domain/solver/shedding.py) runs on them, and the tables its queries share."""

from __future__ import annotations

import itertools
from typing import Any

Counts = tuple[int, ...]
BITS = 4  # a rank's count in a packed hand: up to 8 (三打一's two decks) fits in 4 bits
MASK = (1 << BITS) - 1
_LOW_BITS = sum(1 << (BITS * i) for i in range(16))  # the lowest bit of each rank's count


def pack(counts: Counts) -> int:
    """A hand of counts per rank as one integer, 4 bits a rank: a play leaves the hand by plain subtraction
    (no rank goes below 0, so nothing borrows) and an empty hand is 0."""
    return sum(c << (BITS * i) for i, c in enumerate(counts))


_HIGH_BITS = _LOW_BITS << (BITS - 1)  # the highest bit of each rank's count


def _within(part: int, hand: int) -> bool:
    """Whether the packed `part` is a sub-multiset of the packed `hand` (no rank's count above the hand's): the
    subtraction hand - part borrows out of a rank's 4 bits exactly when that rank's count is larger (the
    borrow-out bit of a subtractor, for all ranks at once); the lowest such rank borrows, so one check suffices."""
    return not ((~hand & part) | (~(hand ^ part) & (hand - part))) & _HIGH_BITS


def _ranks_in(packed: int) -> int:
    """The number of ranks a packed hand holds."""
    return bin((packed | packed >> 1 | packed >> 2 | packed >> 3) & _LOW_BITS).count("1")


def _rank_sum(packed: int) -> int:
    """The rank indices of a packed play summed, each as often as it is held: of two plays alike in the search's
    order, the one of the lower cards is tried first (the order only)."""
    total, rank = 0, 0
    while packed:
        total += rank * (packed & MASK)
        packed >>= BITS
        rank += 1
    return total


def unpack(packed: int, ranks: int) -> Counts:
    return tuple((packed >> (BITS * i)) & MASK for i in range(ranks))


def _size(packed: int) -> int:
    """The number of cards in a packed hand: the sum of its 4-bit counts."""
    total = 0
    while packed:
        total += packed & MASK
        packed >>= BITS
    return total


def submultisets(hand: Counts) -> list[Counts]:
    """Every non-empty sub-multiset of a hand of counts."""
    return [c for c in itertools.product(*(range(n + 1) for n in hand)) if any(c)]


def packed_submultisets(hand: int, ranks: int) -> list[int]:
    """Every non-empty sub-multiset of a packed hand, packed: the sums of one choice per rank."""
    found = [0]
    for i, count in enumerate(unpack(hand, ranks)):
        if count:
            steps = [c << (BITS * i) for c in range(count + 1)]
            found = [base + step for base in found for step in steps]
    return found[1:]


def as_dict(values: tuple[int, ...], counts: Counts) -> dict[int, int]:
    return {values[i]: c for i, c in enumerate(counts) if c}


def cards_for(values: tuple[int, ...], names: dict[int, str], counts: Counts) -> list[str]:
    """Representative card codes of a count vector (suits never matter to these patterns)."""
    return [names[values[i]] for i, c in enumerate(counts) for _ in range(c)]


_CACHE_LIMIT = 400_000  # entries per shared table before it is emptied (memory stays bounded)


class _Shared:
    """What every query of one game's rules shares, whoever's side it asks about: the readings of each packed
    play, its answers to each play on the table, each hand's leads, and what RankGame derives from them
    (each hand's plays and moves against each play on the table, its static-win splits, its transposition key
    over the ranks held). Rules are pure functions of the cards, so what one query learnt stays true for the
    next."""

    def __init__(self) -> None:
        self.readings: dict[int, tuple[tuple[Any, ...], bool] | None] = {}
        self.answers: dict[tuple[int, tuple[Any, ...]], tuple[tuple[Any, ...], bool] | None] = {}
        self.leads: dict[int, list[tuple[int, tuple[Any, ...], bool]]] = {}
        self.plays: dict[tuple[int, Any, bool], list[tuple[int, tuple[Any, ...], bool]]] = {}
        self.play_readings: dict[tuple[int, Any, bool], dict[int, tuple[tuple[Any, ...], bool]]] = {}
        self.moves: dict[tuple[int, Any, bool, bool], list[int | None]] = {}
        self.nodes: dict[tuple[int, Any, int | None, bool], tuple[list[tuple[int | None, Any, bool]], bool,
                                                                  list[tuple[Any, ...]]]] = {}
        self.splits: dict[tuple[int, Any, int | None], tuple[bool, list[tuple[Any, ...]]]] = {}
        self.compressed: dict[tuple[int, int], int] = {}
        self.plans: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.card_ones: dict[str, int] = {}
        self.lead_bombs: dict[int, dict[int, bool]] = {}
        self.held_hands: dict[tuple[int, ...], tuple[int, ...] | None] = {}
        self.greedy_plays: dict[int, int] = {}
        # The game's `answers` per (readings of a lead, readings on the table), for the compiled core (rankcore).
        self.reading_answers: dict[tuple[tuple[Any, ...], tuple[Any, ...]], tuple[Any, ...]] = {}

    def bound(self) -> None:
        """Empty every table once one is full (together: `play_readings` are made of `plays`)."""
        tables = list(vars(self).values())
        if any(len(table) > _CACHE_LIMIT for table in tables):
            for table in tables:
                table.clear()


_SHARED: dict[tuple[str, tuple[Any, ...]], _Shared] = {}


def forget_shared() -> None:
    """Empty the shared tables (the benchmark's cold runs)."""
    _SHARED.clear()
