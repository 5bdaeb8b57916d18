"""Card codes of `fupan.deal/1` records: `S3 H10 CQ DA LJ BJ`; `SJ` is the jack of spades, never a joker.

Hands are multisets (several decks hold the same card more than once), so they are plain lists of codes
and are compared with `collections.Counter`. Chinese names are presentation only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from itertools import chain

from domain.kernel.errors import IllegalAction, seat_ref

SUITS = ("S", "H", "C", "D")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LITTLE_JOKER = "LJ"
BIG_JOKER = "BJ"
JOKERS = (LITTLE_JOKER, BIG_JOKER)

SUIT_ZH = {"S": "黑桃", "H": "红桃", "C": "梅花", "D": "方块"}
SUIT_EN = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
SUIT_SYMBOL = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RANK_EN = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
JOKER_ZH = {LITTLE_JOKER: "小王", BIG_JOKER: "大王"}
JOKER_EN = {LITTLE_JOKER: "little joker", BIG_JOKER: "big joker"}

ALL_CODES = frozenset([s + r for s in SUITS for r in RANKS] + list(JOKERS))


def cards_text(cards: Iterable[str]) -> str:
    """Cards as a message prints them, as a person reads them: "♣4 ♠4 大王", never codes nor a Python list. A
    joker is a reference the refusal reads in each of its languages (domain/kernel/errors.py)."""
    return " ".join(f"\ue002{code}\ue003" if code in JOKERS else SUIT_SYMBOL[code[0]] + code[1:]
                    if code in ALL_CODES else code for code in cards)


def normalize(code: object) -> str:
    """Return the canonical code; readers may accept `T` for 10."""
    if isinstance(code, str):
        if code in ALL_CODES:
            return code
        if len(code) == 2 and code[1] == "T" and code[0] in SUITS:
            return code[0] + "10"
    raise IllegalAction(
        "unknown_card",
        f"Unknown card code {code!r}: use S/H/C/D + 2-10/J/Q/K/A, or LJ/BJ for the jokers.",
        f"无法识别的牌代码 {code!r}：应为 S/H/C/D 加 2-10/J/Q/K/A，或 LJ（小王）/BJ（大王）。",
        {"card": code if isinstance(code, str) else repr(code)},
    )


def normalize_all(codes: object) -> list[str]:
    if not isinstance(codes, list):
        raise IllegalAction("bad_cards", "Cards must be a list of card codes.", "牌必须是牌代码的列表。")
    try:
        if ALL_CODES.issuperset(codes):  # canonical codes, as nearly every card of every record is: no step in Python
            return list(codes)
    except TypeError:  # a list or an object among them cannot even be looked up: `normalize` names it
        pass
    return [normalize(code) for code in codes]  # in order, so a refusal names the first card that is none


def rank_of(code: str) -> str:
    """'10' for H10, 'LJ'/'BJ' for jokers."""
    return code if code in JOKERS else code[1:]


def suit_of(code: str) -> str | None:
    return None if code in JOKERS else code[0]


def name_zh(code: str) -> str:
    if code in JOKERS:
        return JOKER_ZH[code]
    return SUIT_ZH[code[0]] + code[1:]


def name_en(code: str) -> str:
    if code in JOKERS:
        return JOKER_EN[code]
    rank = code[1:]
    return f"{RANK_EN.get(rank, rank)} of {SUIT_EN[code[0]]}"


def full_deck(decks: int = 1, jokers: bool = True) -> list[str]:
    one = [s + r for s in SUITS for r in RANKS] + (list(JOKERS) if jokers else [])
    return one * decks


@lru_cache(maxsize=8)
def _sorted_deck(decks: int, jokers: bool) -> list[str]:
    return sorted(full_deck(decks, jokers))


def check_complete(hands: Iterable[Iterable[str]], kitty: Iterable[str], decks: int = 1, jokers: bool = True) -> None:
    """Every card of every deck exactly once across hands + kitty, or IllegalAction('bad_deck')."""
    cards = list(chain.from_iterable(hands))
    cards.extend(kitty)
    if sorted(cards) == _sorted_deck(decks, jokers):
        return
    dealt = Counter(cards)
    expected = Counter(full_deck(decks, jokers))
    missing = sorted((expected - dealt).elements())
    extra = sorted((dealt - expected).elements())
    raise IllegalAction(
        "bad_deck",
        f"The hands and kitty are not {decks} complete deck(s): missing {cards_text(missing) or 'none'}, "
        f"extra {cards_text(extra) or 'none'}.",
        f"手牌与底牌不是完整的 {decks} 副牌：缺少 {cards_text(missing) or '无'}，多出 {cards_text(extra) or '无'}。",
        {"missing": missing, "extra": extra},
    )


def remove_from(hand: list[str], cards: list[str], seat: int | None = None) -> list[str]:
    """The hand without `cards` (multiset difference), or IllegalAction('card_not_in_hand') naming whose hand it
    is (`seat`, a reference the service reads as the player's name)."""
    rest = list(hand)
    missing = []
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            missing.append(card)
    if missing:
        raise IllegalAction(
            "card_not_in_hand",
            f"Not in {seat_ref(seat)}'s hand: {cards_text(sorted(missing))}." if seat is not None
            else f"Not in the hand: {cards_text(sorted(missing))}.",
            f"{seat_ref(seat) if seat is not None else ''}手中没有这些牌：{cards_text(sorted(missing))}。",
            {"cards": sorted(missing), **({"seat": seat} if seat is not None else {})},
        )
    return rest
