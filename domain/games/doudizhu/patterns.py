"""斗地主 play patterns (牌型) and their comparison — docs/rules/doudizhu.md §2.2 [S001 + REC constraints].

A card set may parse several ways (e.g. 333444555666 is a 三顺 of four or a 飞机 444555666 with single wings
3,3,3). `parses` returns every parse; following is legal when any parse of the play beats any parse of the
play it answers in the same pattern and size (§2.2 "Several readings": when
following, a play is legal if any parse matches the led pattern and length and beats it).
"""

from __future__ import annotations

from domain.games.shedding import BIG, CARD_VALUE, LITTLE, RANK_VALUE, Pattern, rank_counts

# Rank values: 3..10 = 3..10, J=11, Q=12, K=13, A=14, 2=15, LJ=16, BJ=17 [S001 2.1].
VALUE_NAME = {v: k for k, v in RANK_VALUE.items()}
SEQUENCE_TOP = 14  # sequences use only 3..A; 2 and jokers never appear in any sequence [S001]


# A play's reading is a shedding.Pattern; the key: the main part's rank value (the triple, the quad, or the
# top of the sequence).
PATTERN_NAMES: dict[str, tuple[str, str]] = {
    "rocket": ("火箭", "rocket"),
    "bomb": ("炸弹", "bomb"),
    "single": ("单牌", "single"),
    "pair": ("对牌", "pair"),
    "trio": ("三张", "trio"),
    "trio_single": ("三带一", "trio with a single"),
    "trio_pair": ("三带一对", "trio with a pair"),
    "straight": ("单顺", "straight"),
    "pair_run": ("双顺", "pair run"),
    "trio_run": ("三顺", "trio run"),
    "plane_single": ("飞机带单翅膀", "airplane with single wings"),
    "plane_pair": ("飞机带对翅膀", "airplane with pair wings"),
    "four_two_single": ("四带二", "four with two singles"),
    "four_two_pair": ("四带两对", "four with two pairs"),
}


def _is_run(values: list[int]) -> bool:
    """Sorted distinct values consecutive and inside 3..A."""
    return values[-1] <= SEQUENCE_TOP and values[-1] - values[0] == len(values) - 1


# The readings of each multiset of values met so far: a record's plays repeat (singles, pairs, the same trios) from
# deal to deal, so `fupan check` parses each only once. Bounded: emptied when full.
_READINGS: dict[tuple[int, ...], tuple[Pattern, ...]] = {}
_READINGS_LIMIT = 100_000


def parses(cards: list[str]) -> list[Pattern]:
    """Every legal reading of the card set; [] when it is no pattern at all."""
    values = tuple(sorted([CARD_VALUE[code] for code in cards]))
    found = _READINGS.get(values)
    if found is None:
        if len(_READINGS) >= _READINGS_LIMIT:
            _READINGS.clear()
        found = _READINGS[values] = tuple(parses_of_counts(rank_counts(cards), len(cards)))
    return list(found)


def parses_of_counts(counts: dict[int, int], size: int) -> list[Pattern]:
    values = sorted(counts)
    distinct = len(values)
    if size == 1:
        return [Pattern("single", 1, values[0])]
    if size == 2:
        if counts.get(LITTLE) == 1 and counts.get(BIG) == 1:
            return [Pattern("rocket", 2, BIG)]
        return [Pattern("pair", 2, values[0])] if distinct == 1 else []
    shape = sorted(counts.values())
    found: list[Pattern] = []
    if distinct == 1:
        if size == 3:
            return [Pattern("trio", 3, values[0])]
        if size == 4:
            return [Pattern("bomb", 4, values[0])]
        return []
    if size == 4 and shape == [1, 3]:
        found.append(Pattern("trio_single", 4, _rank_with(counts, 3)))
    if size == 5 and shape == [2, 3]:
        found.append(Pattern("trio_pair", 5, _rank_with(counts, 3)))
    if size >= 5 and distinct == size and _is_run(values):
        found.append(Pattern("straight", size, values[-1]))
    if size >= 6 and all(c == 2 for c in shape) and distinct >= 3 and _is_run(values):
        found.append(Pattern("pair_run", size, values[-1]))
    if 6 <= size <= 18 and all(c == 3 for c in shape) and _is_run(values):  # 2–6 triples
        found.append(Pattern("trio_run", size, values[-1]))
    if 4 in shape:
        found.extend(_four_with_two(counts, size))
    if size >= 8:
        found.extend(_planes(counts, size))
    return found


def _rank_with(counts: dict[int, int], count: int) -> int:
    return next(value for value, c in counts.items() if c == count)


def _four_with_two(counts: dict[int, int], size: int) -> list[Pattern]:
    """四带二: 4 of a rank + 2 singles (not BJ+LJ together), or + 2 pairs of distinct ranks. Not a bomb."""
    found = []
    for quad in (v for v, c in counts.items() if c == 4):
        rest = {v: c for v, c in counts.items() if v != quad}
        if size == 6 and not (rest.get(LITTLE) == 1 and rest.get(BIG) == 1):
            found.append(Pattern("four_two_single", 6, quad))
        if size == 8 and len(rest) == 2 and all(c == 2 for c in rest.values()):
            found.append(Pattern("four_two_pair", 8, quad))
    return found


def _planes(counts: dict[int, int], size: int) -> list[Pattern]:
    """飞机带翅膀: k≥2 consecutive triples in 3..A plus k singles or k pairs (§2.2 [REC] constraints:
    wing ranks are not body ranks; single wings are not BJ+LJ together; pair wings have distinct ranks)."""
    found = []
    for wing_size, kind in ((1, "plane_single"), (2, "plane_pair")):
        if size % (3 + wing_size):
            continue
        k = size // (3 + wing_size)
        if k < 2:
            continue
        for top in range(3 + k - 1, SEQUENCE_TOP + 1):
            body = range(top - k + 1, top + 1)
            # Body ranks hold exactly 3: a 4th card would be a wing of a body rank.
            if any(counts.get(v) != 3 for v in body):
                continue
            wings = {v: c for v, c in counts.items() if v not in body}
            if wing_size == 1:
                if not (wings.get(LITTLE) == 1 and wings.get(BIG) == 1):
                    found.append(Pattern(kind, size, top))
            elif len(wings) == k and all(c == 2 for c in wings.values()):
                found.append(Pattern(kind, size, top))
    return found


def is_bomb(pattern: Pattern) -> bool:
    return pattern.kind in ("bomb", "rocket")


def beats(play: Pattern, previous: Pattern) -> bool:
    """Rocket beats all; a bomb beats any non-bomb; otherwise same pattern, same size, higher key."""
    if play.kind == "rocket":
        return True
    if previous.kind == "rocket":
        return False
    if play.kind == "bomb":
        return previous.kind != "bomb" or play.key > previous.key
    return play.kind == previous.kind and play.size == previous.size and play.key > previous.key


def answers(play: list[Pattern], previous: list[Pattern]) -> list[Pattern]:
    """The parses of `play` that beat some parse of `previous` ([] = it does not beat)."""
    return [p for p in play if any(beats(p, q) for q in previous)]


def lead_reading(found: list[Pattern]) -> Pattern:
    """The reading shown for a play: the highest class (rocket > bomb > other), then the highest key."""
    if len(found) == 1:
        return found[0]
    order = {"rocket": 2, "bomb": 1}
    return max(found, key=lambda p: (order.get(p.kind, 0), p.key))
