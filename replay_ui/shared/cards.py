"""Cards as text for notation and the printable record: ♠3 ♥10 大王 — presentation only."""

from __future__ import annotations

from domain.kernel.cards import JOKER_EN, JOKER_ZH, JOKERS, SUIT_SYMBOL

RED_SUITS = frozenset("HD")


def card_text(code: str, lang: str) -> str:
    """'♠3', '♥10', '大王' (zh) or 'Big Joker' (en)."""
    if code in JOKERS:
        return JOKER_ZH[code] if lang == "zh" else JOKER_EN[code].title()
    return SUIT_SYMBOL[code[0]] + code[1:]


def cards_text(cards: list[str], lang: str) -> str:
    return " ".join(card_text(code, lang) for code in cards)


def is_red(code: str) -> bool:
    """Hearts, diamonds and the big joker print red; spades, clubs and the little joker black."""
    return code == "BJ" or code[0] in RED_SUITS and code not in JOKERS
