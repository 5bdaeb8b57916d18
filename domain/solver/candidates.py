"""Candidate plays of a packed hand by pattern family, for the ranks-only shedding games' move generation
(domain/solver/shedding.py `RankGame._leads`).

Listing a hand's leads by parsing every sub-multiset costs the product of (count + 1) over its ranks: hundreds of
thousands of parses for a 20-card 斗地主 hand, millions for a 33-card 三打一 one. Every pattern of these games is
made of a few shapes instead — one rank, a few cards of any ranks, a run of consecutive ranks with as many cards
each, a run with kickers (wings) from the other ranks, a body with kickers — so each game's adapter names the
families its patterns fall in (`RankRules.candidates`), and the search parses only those. The families are a
superset of the game's patterns, never the patterns themselves: the game's own `readings` still decide what is
a play, so the listing is the sub-multiset listing's, play for play and in the same order
(tests/services/test_analysis_shortcuts.py checks it on random hands of every game).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from domain.solver.packed import BITS, MASK


def counts_of(hand: int, ranks: int) -> list[int]:
    return [(hand >> (BITS * i)) & MASK for i in range(ranks)]


def sized(hand: int, ranks: Sequence[int], size: int) -> Iterator[int]:
    """Every sub-multiset of exactly `size` cards of `hand` among the rank indices `ranks`."""
    held = [(BITS * i, (hand >> (BITS * i)) & MASK) for i in ranks]
    held = [(shift, count) for shift, count in held if count]

    def walk(at: int, left: int, base: int) -> Iterator[int]:
        if not left:
            yield base
            return
        if at == len(held):
            return
        shift, count = held[at]
        for take in range(min(count, left), -1, -1):
            yield from walk(at + 1, left - take, base + (take << shift))

    yield from walk(0, size, 0)


def small(hand: int, ranks: int, most: int) -> Iterator[int]:
    """Every sub-multiset of 1..`most` cards (the short patterns: singles, pairs, a rocket, 三带一 …)."""
    every = range(ranks)
    for size in range(1, most + 1):
        yield from sized(hand, every, size)


def same_rank(hand: int, ranks: int) -> Iterator[int]:
    """Every set of cards of one rank (singles up to bombs)."""
    for i in range(ranks):
        count = (hand >> (BITS * i)) & MASK
        for take in range(1, count + 1):
            yield take << (BITS * i)


def runs(hand: int, line: Sequence[int], width: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every run of 2+ consecutive places of `line` (rank indices in sequence order; a rank may stand at two
    places, as an ace low and high) with `width` cards a place, and the rank indices it uses."""
    for start in range(len(line)):
        play, used = 0, []
        for place in range(start, len(line)):
            rank = line[place]
            shift = BITS * rank
            if ((hand >> shift) & MASK) < ((play >> shift) & MASK) + width:
                break
            play += width << shift
            used.append(rank)
            if len(used) >= 2:
                yield play, tuple(used)


def with_kickers(hand: int, ranks: int, body: int, kicker_sizes: Sequence[int]) -> Iterator[int]:
    """A body (a packed set of cards, e.g. a trio or a run of trios) with every set of `kicker_sizes` cards
    from the ranks the body does not use."""
    others = [i for i in range(ranks) if not (body >> (BITS * i)) & MASK]
    rest = hand - body
    for size in kicker_sizes:
        for kickers in sized(rest, others, size):
            yield body + kickers


def with_pairs(hand: int, ranks: int, body: int, pairs: int) -> Iterator[int]:
    """A body with `pairs` pairs of distinct ranks the body does not use."""
    others = [i for i in range(ranks) if not (body >> (BITS * i)) & MASK and (hand >> (BITS * i)) & MASK >= 2]

    def walk(at: int, left: int, base: int) -> Iterator[int]:
        if not left:
            yield base
            return
        for j in range(at, len(others) - left + 1):
            yield from walk(j + 1, left - 1, base + (2 << (BITS * others[j])))

    yield from walk(0, pairs, body)


def of_width(hand: int, ranks: int, width: int) -> Iterator[int]:
    """Every set of exactly `width` cards of one rank (the body of a 三带 / 四带)."""
    for i in range(ranks):
        if (hand >> (BITS * i)) & MASK >= width:
            yield width << (BITS * i)
