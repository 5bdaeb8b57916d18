"""How deals chain at a 斗地主 chip table (seed 001, digest §2.5–2.6): pure functions the Match aggregate uses.

Each player starts with 10 chips (赌资). After each deal the chips move by the deal's scores; balances may go
to 0 or below and nobody is eliminated [REC].
"""

from __future__ import annotations

START_CHIPS = 10
TARGET = 20


def chips_after(chips: list[int], scores: list[int]) -> list[int]:
    return [c + s for c, s in zip(chips, scores, strict=True)]


def table_winner(chips: list[int], start: list[int], target_rule: str) -> int | None:
    """The seat that wins the table now, or None to play on.

    `ddz.tableTarget`: `hold20` — someone holds ≥ 20 chips ("赢满20张", "赌注达到20张"); `net20` — someone is
    ≥ +20 net. Several qualify → the most chips wins; an equal top count plays extra deals [REC].
    """
    if target_rule == "hold20":
        qualifying = [s for s, c in enumerate(chips) if c >= TARGET]
    else:
        qualifying = [s for s, c in enumerate(chips) if c - start[s] >= TARGET]
    if not qualifying:
        return None
    best = max(chips[s] for s in qualifying)
    top = [s for s in qualifying if chips[s] == best]
    return top[0] if len(top) == 1 else None


def places(chips: list[int]) -> list[int]:
    """Final places by chips remaining (1 = most), equal chips sharing a place until extra deals split them."""
    return [1 + sum(1 for other in chips if other > mine) for mine in chips]
