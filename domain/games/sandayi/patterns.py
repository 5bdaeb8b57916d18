"""快乐三打一 play patterns (牌型) and their comparison — docs/rules/sandayi.md §1.2–1.4 and clarifications §1.10a.1–4.

Two decks with four jokers. Ranks (singles, pairs, triples, bombs): 3 < … < K < A < 2 < LJ < BJ. Sequences
(straights, pair runs, triple runs, planes) use *sequence positions* 1..14: A sits at 1 (below 2) or at 14
(above K), 2 at 2, 3..K at 3..13, jokers nowhere [S002 "A即可以连在K后，又可以连在2前…不可出JQKA2"]. Positions
are a line, so nothing wraps through K-A-2 (§1.10a.2). A set that reads several ways (an ace low or high) has
one key: the highest of its readings (§1.10a.1; there is no declared parse). Every card set is at most one
kind of pattern, so a play is compared by that one reading.
"""

from __future__ import annotations

from typing import NamedTuple

from domain.games.shedding import BIG, LITTLE, rank_counts

# Singles, pairs, triples and bombs rank as in 斗地主 (§1.2 = docs/rules/doudizhu.md §2.1): 3..10, J=11, Q=12,
# K=13, A=14, 2=15, LJ=16, BJ=17 — the same values, so the same helpers.
ACE, TWO = 14, 15
BOMB_SIZES = range(4, 9)  # 4–8 of one rank; two decks hold 8 of each (§1.3)


class Pattern(NamedTuple):
    kind: str  # stable code, see PATTERN_NAMES
    size: int  # number of cards
    key: int  # rank value (single … bomb, the triple of 三带二), or top sequence position (runs, planes)
    pair_key: int = 0  # 三带二: the pair's rank value, for `sdy.fullHouseCompare = tripleThenPair`


PATTERN_NAMES: dict[str, tuple[str, str]] = {
    "king_bomb": ("天王炸弹", "four jokers"),
    "bomb": ("炸弹", "bomb"),
    "single": ("单牌", "single"),
    "pair": ("对牌", "pair"),
    "triple": ("三张", "triple"),
    "full_house": ("三带二", "triple with a pair"),
    "straight": ("单顺", "straight"),
    "pair_run": ("双顺", "pair run"),
    "triple_run": ("三顺", "triple run"),
    "plane": ("飞机带翅膀", "airplane with pair wings"),
}


def _rank_at(position: int) -> int:
    """The rank value standing at a sequence position: 1 and 14 are both the ace, 2 is the two."""
    return ACE if position in (1, 14) else TWO if position == 2 else position


def run_top(counts: dict[int, int], width: int) -> int | None:
    """The highest top position of a run of `width` cards per position (1 straight, 2 pair run, 3 triple run)
    that uses exactly these cards, or None. An ace may stand at 1, at 14, or at both (A2…KA)."""
    if LITTLE in counts or BIG in counts:
        return None  # jokers never take part in sequences (§1.2)
    total = sum(counts.values())
    if total % width:
        return None
    length = total // width
    best = None
    for low in range(1, 15 - length + 1):
        needed: dict[int, int] = {}
        for position in range(low, low + length):
            rank = _rank_at(position)
            needed[rank] = needed.get(rank, 0) + width
        if needed == counts:
            best = low + length - 1
    return best


def parse(cards: list[str], counts: dict[int, int] | None = None) -> Pattern | None:
    """The one reading of a card set (its highest key), or None when it is no 三打一 pattern (§1.3: the list is
    exhaustive)."""
    counts = rank_counts(cards) if counts is None else counts
    size = len(cards)
    values = sorted(counts)
    if size == 4 and counts == {LITTLE: 2, BIG: 2}:
        return Pattern("king_bomb", 4, BIG)  # exactly BJ BJ LJ LJ (§1.10a.4)
    if len(values) == 1:
        rank = values[0]
        if size == 1:
            return Pattern("single", 1, rank)
        if size == 2:
            return Pattern("pair", 2, rank)  # LJ LJ and BJ BJ are pairs; BJ+LJ is two ranks, so no pair
        if rank in (LITTLE, BIG):
            return None  # three jokers are no triple ("三张王只可以当一对和单张")
        if size == 3:
            return Pattern("triple", 3, rank)
        if size in BOMB_SIZES:
            return Pattern("bomb", size, rank)
        return None
    if size == 5 and sorted(counts.values()) == [2, 3]:
        triple = next(v for v, c in counts.items() if c == 3)
        pair = next(v for v, c in counts.items() if c == 2)
        if triple not in (LITTLE, BIG):
            return Pattern("full_house", 5, triple, pair)  # a joker pair may be the pair (§1.10a.3)
    for width, kind, shortest in ((1, "straight", 5), (2, "pair_run", 3), (3, "triple_run", 2)):
        if size >= width * shortest and all(c == width or (c == 2 * width and v == ACE) for v, c in counts.items()):
            top = run_top(counts, width)
            if top is not None:
                return Pattern(kind, size, top)
    if size >= 10 and size % 5 == 0:
        return _plane(counts, size)
    return None


def _plane(counts: dict[int, int], size: int) -> Pattern | None:
    """飞机带翅膀: k ≥ 2 consecutive triples plus k pairs of distinct ranks that are consecutive too (aces low or
    high independently of the triples); no wing rank is a triple rank and jokers are never wings (§1.10a.3)."""
    k = size // 5
    triples = {v: 3 for v, c in counts.items() if c == 3}
    wings = {v: 2 for v, c in counts.items() if c == 2}
    if len(triples) != k or len(wings) != k or len(triples) + len(wings) != len(counts):
        return None
    top = run_top(triples, 3)
    if top is None or run_top(wings, 2) is None:
        return None
    return Pattern("plane", size, top)


def is_bomb(pattern: Pattern) -> bool:
    return pattern.kind in ("bomb", "king_bomb")


def beats(play: Pattern, previous: Pattern, full_house_compare: str = "tripleOnly") -> bool:
    """天王炸弹 beats everything; a bomb beats any non-bomb, bombs compare by size then rank; other plays must be
    the same pattern and size with a strictly higher key (§1.4). Plane wings never count."""
    if previous.kind == "king_bomb":
        return False
    if play.kind == "king_bomb":
        return True
    if play.kind == "bomb":
        return previous.kind != "bomb" or (play.size, play.key) > (previous.size, previous.key)
    if play.kind != previous.kind or play.size != previous.size:
        return False
    if play.kind == "full_house" and full_house_compare == "tripleThenPair":
        # S000 "会影响大小": the triple decides, then the pair (3 < … < A < 2 < LJ < BJ, §1.10a.11).
        return (play.key, play.pair_key) > (previous.key, previous.pair_key)
    return play.key > previous.key


def describe(pattern: Pattern) -> dict[str, object]:
    zh, en = PATTERN_NAMES[pattern.kind]
    return {"kind": pattern.kind, "size": pattern.size, "key": pattern.key, "zh": zh, "en": en}
