"""升级 card order, effective suits, tractors, throws and follow obligations — docs/rules/shengji.md §3.2–3.8.

A deal is played at a level L with a trump suit or no-trump. `order_for(L, trump)` maps every card code to
its *effective* suit (0–3 = ♠♥♣♦ plain, 4 = trump) and a value inside that suit, chosen so that tractor
adjacency is simply "values differ by one" (§3.3):

- plain suits: the twelve ranks 2…A without L → 0…11 (so with L = 10, ♥J and ♥9 are adjacent);
- trump suit: its plain ranks 0…11, then every 副级牌 (L of another suit) 12, 主级牌 13, LJ 14, BJ 15
  (the S001 chain TS A → 副级 → 主级 → LJ → BJ; with L = A, TS K is 11 and so still meets 副级);
- no-trump: the four L cards 13 (all equal), LJ 14, BJ 15 (chain L → LJ → BJ, §3.3 [REC = EXT-RBT]).

Two cards are a pair only when identical (same code); the three 副级 pairs all have value 12, so they are
never adjacent to each other (§3.3 "两对副10" is not a tractor).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from domain.kernel.cards import JOKERS, RANKS, SUITS

TRUMP = 4  # the effective suit of every trump card
NO_TRUMP = "NT"
OFF_LEVEL, MAIN_LEVEL, LITTLE_JOKER_VALUE, BIG_JOKER_VALUE = 12, 13, 14, 15

LEVEL_RANK = {n: str(n) for n in range(2, 11)} | {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_LEVEL = {rank: level for level, rank in LEVEL_RANK.items()}
SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}

# 5 = 5 points, 10 and K = 10 points: 200 in two decks (§3.1).
POINTS: dict[str, int] = {
    s + r: (5 if r == "5" else 10 if r in ("10", "K") else 0) for s in SUITS for r in RANKS
} | dict.fromkeys(JOKERS, 0)


@dataclass(frozen=True)
class Order:
    """The card order of one deal: effective suit and value of every card code."""

    level: int
    trump: str  # "S" | "H" | "C" | "D" | "NT"
    suit: dict[str, int]
    value: dict[str, int]

    def sort_key(self, code: str) -> tuple[int, int, str]:
        return (self.suit[code], self.value[code], code)


@lru_cache(maxsize=128)
def order_for(level: int, trump: str) -> Order:
    level_rank = LEVEL_RANK[level]
    plain_ranks = [r for r in RANKS if r != level_rank]
    suit: dict[str, int] = {}
    value: dict[str, int] = {}
    for s in SUITS:
        for i, r in enumerate(plain_ranks):
            suit[s + r] = TRUMP if s == trump else SUIT_INDEX[s]
            value[s + r] = i
        code = s + level_rank
        suit[code] = TRUMP
        value[code] = MAIN_LEVEL if (s == trump or trump == NO_TRUMP) else OFF_LEVEL
    suit["LJ"] = suit["BJ"] = TRUMP
    value["LJ"], value["BJ"] = LITTLE_JOKER_VALUE, BIG_JOKER_VALUE
    return Order(level, trump, suit, value)


# -- pairs and tractors ------------------------------------------------------------------------------------


def pair_counts(cards: Iterable[str], value: dict[str, int]) -> dict[int, int]:
    """Value → number of distinct identical pairs among `cards` (two decks: at most two copies of a code)."""
    seen: set[str] = set()
    counts: dict[int, int] = {}
    for code in cards:
        if code in seen:
            v = value[code]
            counts[v] = counts.get(v, 0) + 1
        else:
            seen.add(code)
    return counts


def longest_run_top(counts: dict[int, int], length: int) -> int:
    """The highest top of a run of ≥ `length` consecutive pair values, or -1 (a tractor of that length)."""
    best = -1
    run = 0
    previous = -2
    for v in sorted(counts):
        run = run + 1 if v == previous + 1 else 1
        previous = v
        if run >= length:
            best = v
    return best


def _search(avail: dict[int, int], lengths: tuple[int, ...], i: int, shorter: bool,
            placements: list[tuple[int, int]], best: list) -> None:
    """Depth-first over disjoint tractor placements for lengths[i:]; keeps the best (score, placements)."""
    score = sum(n for _, n in placements)
    if score + sum(lengths[i:]) <= best[0]:
        return
    if i == len(lengths):
        best[0], best[1] = score, list(placements)
        return
    k = lengths[i]
    keys = [v for v in sorted(avail, reverse=True) if avail[v]]
    for top in keys:
        # Longest run ending at `top`, capped at k.
        run = 1
        while run < k and avail.get(top - run, 0):
            run += 1
        sizes = [k] if run == k else []
        if shorter:
            sizes = list(range(min(run, k), 1, -1))
        for size in sizes:
            for v in range(top - size + 1, top + 1):
                avail[v] -= 1
            placements.append((top, size))
            _search(avail, lengths, i + 1, shorter, placements, best)
            placements.pop()
            for v in range(top - size + 1, top + 1):
                avail[v] += 1
            if best[0] == score + sum(lengths[i:]):
                return
    _search(avail, lengths, i + 1, shorter, placements, best)


def tractor_match(counts: dict[int, int], lengths: tuple[int, ...], shorter: bool = False
                  ) -> tuple[int, list[tuple[int, int]]]:
    """Best set of disjoint tractors a holding can set against the lead's tractor `lengths` (longest first).

    The score is the total matched length (§3.14a.4: the best disjoint set, not a greedy choice); with
    `shorter` (`sj.preferShorterTractor`) a shorter tractor partly matches a longer one. Returns the score and
    the placements as (top value, length).
    """
    if not lengths or len(counts) < 2:
        return 0, []
    best: list = [0, []]
    _search(dict(counts), lengths, 0, shorter, [], best)
    return best[0], best[1]


def lowest_tractor_set(counts: dict[int, int], lengths: tuple[int, ...], shorter: bool = False
                       ) -> list[tuple[int, int]]:
    """Of the best sets of disjoint tractors (`tractor_match`'s score), the one with the lowest tops: what a
    timeout plays, "the lowest legal cards" (docs/rules/shengji.md, Engine additions)."""
    best = tractor_match(counts, lengths, shorter)[0]
    return min(_all_placements(counts, lengths, shorter, best), key=lambda placements: sorted(placements))


def full_match_top(counts: dict[int, int], lengths: tuple[int, ...]) -> int | None:
    """With every tractor of `lengths` matched exactly, the highest top possible for the first (longest) one."""
    k = lengths[0]
    avail = dict(counts)
    rest = lengths[1:]
    for top in sorted(avail, reverse=True):
        if all(avail.get(v, 0) for v in range(top - k + 1, top + 1)):
            for v in range(top - k + 1, top + 1):
                avail[v] -= 1
            fits = not rest or tractor_match(avail, rest)[0] == sum(rest)
            for v in range(top - k + 1, top + 1):
                avail[v] += 1
            if fits:
                return top
    return None


# -- leads ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Component:
    """One part of a lead: a single (pairs = 0), a pair (1) or a tractor (≥ 2 pairs)."""

    pairs: int
    top: int  # value of its highest card
    cards: tuple[str, ...]
    index: int  # position of its first card in the cards as listed (tie-breaks, §3.14a.2–3)


@dataclass(frozen=True, slots=True)
class Shape:
    """What a lead demands of the others: its suit, size, tractor lengths (longest first) and pairs."""

    suit: int
    size: int
    tractors: tuple[int, ...]
    pairs: int  # every pair, those inside tractors included
    largest: int  # pairs in the largest component (0 = single): the 抠底 basis `leadFormat`


def decompose(cards: list[str], value: dict[str, int]) -> list[Component]:
    """A one-suit card set as a lead: longest tractors first, then pairs, then singles (§3.6 [REC]).

    Equal values (the 副级 pairs) are used in the order listed (§3.14a.3).
    """
    first: dict[str, int] = {}
    paired: list[str] = []
    for i, code in enumerate(cards):
        if code in first:
            paired.append(code)
        else:
            first[code] = i
    by_value: dict[int, list[str]] = {}
    for code in sorted(paired, key=first.__getitem__):
        by_value.setdefault(value[code], []).append(code)
    components: list[Component] = []
    while True:
        best_len, best_top, run, previous = 1, -1, 0, -2
        for v in sorted(v for v, codes in by_value.items() if codes):
            run = run + 1 if v == previous + 1 else 1
            previous = v
            if run > best_len:
                best_len, best_top = run, v
        if best_len < 2:
            break
        codes = [by_value[v].pop(0) for v in range(best_top - best_len + 1, best_top + 1)]
        components.append(Component(best_len, best_top, tuple(c for code in codes for c in (code, code)),
                                    min(first[c] for c in codes)))
    for codes in by_value.values():
        components.extend(Component(1, value[code], (code, code), first[code]) for code in codes)
    paired_set = set(paired)
    components.extend(Component(0, value[code], (code,), i) for code, i in first.items() if code not in paired_set)
    components.sort(key=lambda c: (-c.pairs, -c.top, c.index))
    return components


def shape_of(components: list[Component], suit: int) -> Shape:
    return Shape(
        suit=suit,
        size=sum(len(c.cards) for c in components),
        tractors=tuple(sorted((c.pairs for c in components if c.pairs >= 2), reverse=True)),
        pairs=sum(c.pairs for c in components),
        largest=max(c.pairs for c in components),
    )


def beats_component(component: Component, holding: list[str], value: dict[str, int]) -> bool:
    """Could a player holding `holding` (cards of the throw's suit) beat this component? (§3.6)"""
    top = component.top
    if component.pairs == 0:
        return any(value[c] > top for c in holding)
    counts = pair_counts(holding, value)
    if component.pairs == 1:
        return any(v > top for v in counts)
    return longest_run_top(counts, component.pairs) > top


def forced_component(components: list[Component], beaten: list[Component]) -> Component:
    """The part a failed throw must play: the beatable component with the lowest top, then the fewest cards,
    then the one listed first (§3.6 [REC]; §3.14a.2)."""
    return min(beaten, key=lambda c: (c.top, len(c.cards), c.index))


# -- following and winning -----------------------------------------------------------------------------------


def principal(cards: list[str], shape: Shape, value: dict[str, int]) -> int | None:
    """The value that ranks a one-suit play against the lead, or None if it does not match the lead's format.

    The play must hold every lead tractor (exact lengths, disjoint) and at least as many pairs; it is ranked
    by its best tractor of the lead's longest length, else its highest pair, else its highest card (§3.8).
    """
    if shape.size == 1:
        return value[cards[0]]
    if shape.pairs == 0:
        return max(value[c] for c in cards)
    counts = pair_counts(cards, value)
    if sum(counts.values()) < shape.pairs:
        return None
    if not shape.tractors:
        return max(counts)
    return full_match_top(counts, shape.tractors)


def follow_problem(holding: list[str], played: list[str], shape: Shape, value: dict[str, int], shorter: bool
                   ) -> str | None:
    """Why the led-suit part of a follow breaks the shape obligation of §3.7.2, or None.

    `holding` is the follower's cards of the led suit, `played` those of them played; the suit obligation
    (§3.7.1) has already been checked, so when the holding exceeds the lead there is a real choice.
    """
    if shape.pairs == 0 or len(holding) <= shape.size:
        return None
    have = pair_counts(holding, value)
    if not have:
        return None
    got = pair_counts(played, value)
    if shape.tractors:
        need = tractor_match(have, shape.tractors, shorter)[0]
        if need and tractor_match(got, shape.tractors, shorter)[0] < need:
            return "must_play_tractor"
    if min(sum(got.values()), shape.pairs) < min(sum(have.values()), shape.pairs):
        return "must_play_pair"
    return None


def wrong_card_count(holding: list[str], played: list[str], shape: Shape, value: dict[str, int], shorter: bool
                     ) -> int:
    """n of S004's 10 × n for a follow that breaks the shape obligation: the fewest of its led-suit cards that
    must be exchanged for a legal follow (§3.13 "n为出错的牌数")."""
    have = pair_counts(holding, value)
    need_pairs = min(sum(have.values()), shape.pairs)
    # Pair codes by value with their weight: how many of the pair's two cards were played.
    played_count: dict[str, int] = {}
    for code in played:
        played_count[code] = played_count.get(code, 0) + 1
    seen: set[str] = set()
    weights: dict[int, list[int]] = {}
    for code in holding:
        if code in seen:
            weights.setdefault(value[code], []).append(played_count.get(code, 0))
        seen.add(code)
    for ws in weights.values():
        ws.sort(reverse=True)
    target = tractor_match(have, shape.tractors, shorter)[0] if shape.tractors else 0
    best = 0
    for placements in _all_placements(have, shape.tractors, shorter, target):
        used: dict[int, int] = {}
        for top, size in placements:
            for v in range(top - size + 1, top + 1):
                used[v] = used.get(v, 0) + 1
        total = sum(sum(weights[v][:n]) for v, n in used.items())
        rest = sorted((w for v, ws in weights.items() for w in ws[used.get(v, 0):]), reverse=True)
        total += sum(rest[: need_pairs - sum(used.values())])
        best = max(best, total)
    return 2 * need_pairs - best


def _all_placements(counts: dict[int, int], lengths: tuple[int, ...], shorter: bool, target: int
                    ) -> list[list[tuple[int, int]]]:
    """Every set of disjoint tractor placements reaching `target` matched length (only for adjudication)."""
    out: list[list[tuple[int, int]]] = []

    def walk(avail: dict[int, int], i: int, chosen: list[tuple[int, int]]) -> None:
        score = sum(n for _, n in chosen)
        if score == target:
            out.append(list(chosen))
            return
        if i == len(lengths):
            return
        k = lengths[i]
        for top in sorted(v for v in avail if avail[v]):
            run = 1
            while run < k and avail.get(top - run, 0):
                run += 1
            sizes = range(min(run, k), 1, -1) if shorter else [k] if run == k else []
            for size in sizes:
                for v in range(top - size + 1, top + 1):
                    avail[v] -= 1
                chosen.append((top, size))
                walk(avail, i + 1, chosen)
                chosen.pop()
                for v in range(top - size + 1, top + 1):
                    avail[v] += 1
        walk(avail, i + 1, chosen)

    walk(dict(counts), 0, [])
    return out
