"""Commit–reveal dealing (docs/ARCHITECTURE.md "Integrity"): publish SHA-256(seed) first, reveal the seed at the end.

The shuffle is documented so anyone can recompute the hands from the revealed seed without our code:

1. Start from the game's deck in canonical order: for each deck, suits S H C D, ranks 2 3 … 10 J Q K A
   within each suit, then LJ BJ (if the game uses jokers) — `domain.kernel.cards.full_deck`.
2. Fisher–Yates from the top index down: for i = n-1 … 1, draw j uniformly in 0..i and swap cards i and j.
   The random numbers are 8-byte big-endian integers from SHA-256(seed ‖ ":" ‖ counter) (counter = 0, 1,
   … in decimal ASCII, one digest per draw); a draw x is accepted when x < 2^64 − (2^64 mod (i+1)) and
   gives j = x mod (i+1), otherwise the next counter is used (rejection sampling, no modulo bias).
3. Deal one card at a time, starting with seat `first` and going round in playing order, until each seat has
   its hand size; the remaining cards are the kitty, in order.
"""

from __future__ import annotations

import hashlib
import secrets

from domain.kernel.cards import full_deck
from domain.kernel.engine import Engine

_SPAN = 1 << 64


def new_seed() -> str:
    return secrets.token_hex(16)


def seed_commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def shuffled_deck(seed: str, decks: int, jokers: bool) -> list[str]:
    cards = full_deck(decks, jokers)
    counter = 0
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        limit = _SPAN - (_SPAN % bound)
        while True:
            x = int.from_bytes(hashlib.sha256(f"{seed}:{counter}".encode()).digest()[:8], "big")
            counter += 1
            if x < limit:
                break
        j = x % bound
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_from_seed(seed: str, engine: Engine, first: int) -> tuple[list[list[str]], list[str]]:
    """Hands (in the order received) and kitty for a server-dealt deal of `engine`'s game."""
    cards = shuffled_deck(seed, engine.decks, engine.jokers)
    seats, dealt = engine.seat_count, engine.seat_count * engine.hand_size
    hands: list[list[str]] = [[] for _ in range(seats)]
    for n in range(dealt):
        hands[(first + n) % seats].append(cards[n])
    return hands, cards[dealt:]
