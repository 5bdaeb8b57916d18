"""大怪路子 play patterns with wildcards (自由牌) — docs/rules/daguai.md A2–A4 and clarifications A10.1–4.

Three decks with jokers. Plays have 1, 2, 3 or 5 cards and answer only a play of the same size. Singles rank
大怪 > 小怪 > 2 (trump) > A > K > … > 3; suits never compare and equal never beats. Pairs and triples take the
rank of their natural cards (jokers stand in); joker-only pairs, triples and fives rank above 2 (大怪 only if
every card is 大怪, else 小怪: BB > BS = SS > 22). Five-card classes: 五同 > 同花顺 > 四带一 > 三带二 > 同花 > 杂顺.

Jokers in a play with natural cards stand for whatever makes the strongest class (A4 (d)); within it, the lowest
key for straights, straight flushes and flushes (A4 (c): "在顺子里和同花里只按小牌计算") and the highest key
otherwise (A4 (b)). Rather than trying every face for every joker, each class is checked directly: which ranks
and suits the naturals have, and how many jokers fill the rest.
"""

from __future__ import annotations

from domain.games.shedding import BIG, LITTLE, Pattern, card_value

# Single order (A2): 3..10, J=11, Q=12, K=13, A=14, 2=15 (trump), LJ=16, BJ=17 — the shedding games' values.
TWO, ACE = 15, 14
# Inside a flush (A10.2): A high … 3, 2 lowest.
FLUSH_VALUE = {**{v: v for v in range(3, 15)}, TWO: 2}
FIVE_CLASSES = ("straight", "flush", "full_house", "four_one", "straight_flush", "five")  # low → high (A3)


# A play's reading is a shedding.Pattern; the key: a tuple compared lexicographically within a kind.
PATTERN_NAMES: dict[str, tuple[str, str]] = {
    "single": ("单张", "single"),
    "pair": ("对子", "pair"),
    "triple": ("三张", "triple"),
    "straight": ("杂顺", "straight"),
    "flush": ("同花", "flush"),
    "full_house": ("三带二（俘虏）", "full house"),
    "four_one": ("四带一（拖）", "four plus one"),
    "straight_flush": ("同花顺", "straight flush"),
    "five": ("五同", "five of a kind"),
}


def _position_options(value: int) -> tuple[int, ...]:
    """Where a natural card can stand in a straight (A2): A at 1 or 14, 2 only at 2 (it cannot wrap), else itself."""
    return (1, 14) if value == ACE else (2,) if value == TWO else (value,)


def _lowest_straight_top(values: list[int], jokers: int) -> int | None:
    """The lowest top of a 5-card straight A2345 … 10JQKA the naturals fit, jokers filling the gaps (A4 (c))."""
    if len(set(values)) != len(values):
        return None
    for low in range(1, 11):
        window = range(low, low + 5)
        used: set[int] = set()
        for value in values:
            spot = next((p for p in _position_options(value) if p in window and p not in used), None)
            if spot is None:
                break
            used.add(spot)
        else:
            if len(used) + jokers == 5:
                return low + 4
    return None


def parse(cards: list[str]) -> Pattern | None:
    """The play's reading, or None when no pattern fits (A3: only 1, 2, 3 or 5 cards)."""
    size = len(cards)
    values = [card_value(c) for c in cards]
    naturals = [(c[0], v) for c, v in zip(cards, values, strict=True) if v < LITTLE]
    jokers = size - len(naturals)
    if size == 1:
        return Pattern("single", 1, (values[0],))  # a joker alone is just itself (A3)
    if size not in (2, 3, 5):
        return None
    if not naturals:  # joker-only: BB… above any other joker play, and those above 2 (A10.4)
        kind = {2: "pair", 3: "triple", 5: "five"}[size]
        return Pattern(kind, size, (BIG if all(v == BIG for v in values) else LITTLE,))
    ranks = {v for _, v in naturals}
    if size in (2, 3):
        return Pattern("pair" if size == 2 else "triple", size, (ranks.pop(),)) if len(ranks) == 1 else None
    return _five(naturals, jokers)


def _five(naturals: list[tuple[str, int]], jokers: int) -> Pattern | None:
    values = [v for _, v in naturals]
    counts: dict[int, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    one_suit = len({s for s, _ in naturals}) == 1
    if len(counts) == 1:
        return Pattern("five", 5, (values[0],))
    top = _lowest_straight_top(values, jokers)
    if one_suit and top is not None:  # naturals of one suit that make a straight are a straight flush (A10.1)
        return Pattern("straight_flush", 5, (top,))
    # 四带一: a rank of four (naturals + jokers) and one other card; the highest such rank (A4 (b)).
    quads = [r for r, c in counts.items() if c + jokers >= 4 and len(values) - c + max(0, jokers - (4 - c)) == 1]
    if quads:
        return Pattern("four_one", 5, (max(quads),))
    # 三带二: naturals of two ranks, at most 3 of the triple's and 2 of the pair's (jokers make up the rest, the
    # five cards add up); the triple is the higher rank that fits (A4 (b)); only it compares (A10.3).
    if len(counts) == 2:
        fits = [t for t in counts if counts[t] <= 3 and all(c <= 2 for r, c in counts.items() if r != t)]
        if fits:
            return Pattern("full_house", 5, (max(fits),))
    if one_suit:  # a joker is the suit's 2, the lowest card (A10.2)
        flush = sorted([FLUSH_VALUE[v] for v in values] + [FLUSH_VALUE[TWO]] * jokers, reverse=True)
        return Pattern("flush", 5, tuple(flush))
    if top is not None:
        return Pattern("straight", 5, (top,))
    return None


def beats(play: Pattern, previous: Pattern) -> bool:
    """Same number of cards, strictly greater: by class among five-card plays, then by key (A3)."""
    if play.size != previous.size:
        return False
    if play.size == 5 and play.kind != previous.kind:
        return FIVE_CLASSES.index(play.kind) > FIVE_CLASSES.index(previous.kind)
    return play.key > previous.key


def describe(pattern: Pattern) -> dict[str, object]:
    zh, en = PATTERN_NAMES[pattern.kind]
    return {"kind": pattern.kind, "size": pattern.size, "key": list(pattern.key), "zh": zh, "en": en}
