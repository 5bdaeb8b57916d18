"""竞技挖坑 play patterns and their comparison — docs/rules/wakeng.md B2–B3 and clarification B11.5.

One deck without jokers. Ranks: 4 < 5 < … < K < A < 2 < 3 [S-WK1; S-WK2]; suits never compare (hearts only
decide who bids and leads first, B4). The patterns are exactly single, pair, triple, quad, run (3–10 distinct
consecutive ranks within 4…K: "3、2、A不能做连牌") and pair run (3–10 consecutive pairs within 4…K). A play
answers only the same kind and size with a strictly higher top rank; there are no bombs unless
`wk.quadIsBomb` makes a quad beat every other kind (B3 [REC] switch, default off).
"""

from __future__ import annotations

from domain.games.shedding import Pattern

# 4..10 = 4..10, J=11, Q=12, K=13, A=14, 2=15, 3=16 (B2).
RANK_VALUE = {str(n): n for n in range(4, 11)} | {"J": 11, "Q": 12, "K": 13, "A": 14, "2": 15, "3": 16}
RUN_TOP = 13  # runs stay within 4…K
SUIT_ORDER = {"D": 0, "C": 1, "H": 2, "S": 3}  # only for the timeout's lowest card: ♦ < ♣ < ♥ < ♠ (B11.6)


# A play's reading is a shedding.Pattern; the key: the rank value of the set, or a run's top.
PATTERN_NAMES: dict[str, tuple[str, str]] = {
    "single": ("单张", "single"),
    "pair": ("对子", "pair"),
    "triple": ("三条", "triple"),
    "quad": ("四条", "quad"),
    "run": ("连牌", "run"),
    "pair_run": ("对子连牌", "pair run"),
}
SAME_RANK = {1: "single", 2: "pair", 3: "triple", 4: "quad"}


def card_value(code: str) -> int:
    return RANK_VALUE[code[1:]]


def card_order(code: str) -> tuple[int, int]:
    """Lowest first: by rank, then ♦ < ♣ < ♥ < ♠ (B11.6)."""
    return RANK_VALUE[code[1:]], SUIT_ORDER[code[0]]


def parse(cards: list[str]) -> Pattern | None:
    counts: dict[int, int] = {}
    for code in cards:
        value = RANK_VALUE[code[1:]]
        counts[value] = counts.get(value, 0) + 1
    values = sorted(counts)
    if len(values) == 1:
        kind = SAME_RANK.get(len(cards))
        return None if kind is None else Pattern(kind, len(cards), values[0])
    width = next(iter(counts.values()))
    consecutive = values[-1] <= RUN_TOP and values[-1] - values[0] == len(values) - 1
    if width in (1, 2) and consecutive and 3 <= len(values) <= 10 and all(c == width for c in counts.values()):
        return Pattern("run" if width == 1 else "pair_run", len(cards), values[-1])
    return None


def beats(play: Pattern, previous: Pattern, quad_is_bomb: bool = False) -> bool:
    if quad_is_bomb and play.kind == "quad" and previous.kind != "quad":
        return True
    return play.kind == previous.kind and play.size == previous.size and play.key > previous.key


def describe(pattern: Pattern) -> dict[str, object]:
    zh, en = PATTERN_NAMES[pattern.kind]
    return {"kind": pattern.kind, "size": pattern.size, "key": pattern.key, "zh": zh, "en": en}
