"""升级's deal state (docs/rules/shengji.md): the table's sizes, a declaration (亮主) and everything a deal holds
between two actions. The engine's phases (declaring.py, tricks.py, referee.py) change it; scoring.py reads it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.games.shengji.cards import NO_TRUMP, Order, Shape
from domain.kernel.engine import DealState

SEATS = 4
HAND_SIZE = 25
KITTY_SIZE = 8
DEAL_CARDS = SEATS * HAND_SIZE
TOP_LEVEL = 14  # A: a team's level never goes past it (§3.14a.10)

SUIT_TEXT = {"S": ("黑桃", "spades"), "H": ("红桃", "hearts"), "C": ("梅花", "clubs"), "D": ("方块", "diamonds"),
             NO_TRUMP: ("无主", "no-trump")}


@dataclass
class Declaration:
    seat: int
    cards: list[str]
    strength: int  # 1 single L card, 2 identical L pair, 3 joker pair (no-trump) (§3.4)
    suit: str  # S/H/C/D or NT
    received: int | None  # None: made in the round after the last card

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "cards": list(self.cards), "strength": self.strength,
                               "trump": self.suit}
        if self.received is not None:
            out["received"] = self.received
        return out


@dataclass
class ShengjiState(DealState):
    options: dict[str, Any]
    seats: list[str]
    first: int
    dealt_hands: list[list[str]]  # as recorded, in the order received
    hands: list[list[str]]
    kitty: list[str]
    levels: list[int]
    dealer: int | None
    deal_number: int
    level: int
    phase: str = "dealing"
    to_act: int | None = None
    dealt: int = 0  # cards dealt so far, as far as the declarations show (§3.4 timing)
    declarations: list[Declaration] = field(default_factory=list)
    final_turns: int = 0
    order: Order | None = None
    trump: str | None = None
    kitty_shown: list[str] = field(default_factory=list)  # kitty cards turned up to fix the trump (§3.4)
    buried: list[str] = field(default_factory=list)
    counts: list[list[int]] = field(default_factory=list)  # cards per seat per effective suit, during play
    trick: list[dict[str, Any]] = field(default_factory=list)
    shape: Shape | None = None
    best_key: int = -1
    best_seat: int = -1
    tricks: list[dict[str, Any]] = field(default_factory=list)
    captured: list[int] = field(default_factory=lambda: [0, 0])  # card points won in tricks, by team
    kitty_bonus: int = 0
    kitty_multiplier: int = 0
    penalties: list[dict[str, Any]] = field(default_factory=list)
    irregularities: list[dict[str, Any]] = field(default_factory=list)
    ended_by: str | None = None  # play | revoke | miscount | kitty_mishandled | redeal
    offender: int | None = None
