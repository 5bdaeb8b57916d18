"""The match page of a game without its own: each deal's scores, and their running totals as the chart. The
chart and the signed totals also serve the games whose table is a sum of per-seat scores (三打一, 挖坑)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def match_rows(match: dict[str, Any], deals: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    return [{"number": deal["number"], "id": deal["id"], "finished": deal["finished"], "first": names[deal["first"]],
             "scores": (deal["result"] or {}).get("scores")} for deal in deals]


def chart_lines(match: dict[str, Any], start: list[int], figures: Callable[[dict[str, Any]], list[int] | None],
                running: bool = False) -> tuple[list[int], list[list[int]]]:
    """A match chart's deal numbers (0: the start) and lines: each line's `start`, then its figure after every
    scored deal (`figures(entry)`, None for the live deal), or the running sum of them."""
    numbers, series = [0], [[value] for value in start]
    for entry in match["deals"]:
        values = figures(entry)
        if values is None:
            continue  # the live deal has no score yet
        numbers.append(entry["number"])
        for line, value in zip(series, values, strict=True):
            line.append(line[-1] + value if running else value)
    return numbers, series


def match_chart(match: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """Each seat's running total of its deal scores, from 0."""
    numbers, series = chart_lines(match, [0] * len(names), lambda entry: entry["scores"], running=True)
    return {"numbers": numbers, "names": names, "series": series, "target": None, "title": "match.chart.scores",
            "y_title": "chart.score"}


def standing_text(match: dict[str, Any], names: list[str]) -> str:
    totals = match_chart(match, names)["series"]
    return " / ".join(str(values[-1]) for values in totals)


def first_bidder(deal: dict[str, Any], names: list[str]) -> str | None:
    """Who bid first (首叫) as far as it is a fact: recorded by the play, or entered on the score slip (its
    `first`); a slip that did not say has None — the table's rotation is no record of who bid."""
    if deal.get("result_only") and "first" not in (deal.get("slip") or {}):
        return None
    return names[deal["first"]]


def signed_totals(match: dict[str, Any], length: int) -> str:
    """Each seat's total from the table's standing, then its counted deals of `length`: '+12 / -3 / 0 · 6/8'."""
    standing = match["standing"]
    totals = " / ".join(f"{score:+d}" if score else "0" for score in standing["scores"])
    return f"{totals} · {standing['deals']}/{length}"


def table_leaders(match: dict[str, Any]) -> list[int]:
    """The seats ahead at a table by its standing's scores (a table the organiser closed has no winner of its
    own: these are who it placed first)."""
    scores = (match.get("standing") or {}).get("scores")
    return top_seats(scores) if isinstance(scores, list) else []


def top_seats(figures: list[Any]) -> list[int]:
    best = max(figures, default=None)
    return [seat for seat, value in enumerate(figures) if value == best] if best is not None else []


def seat_marks(seats: int) -> list[tuple[str, str]]:
    """The game's own word for each seat, (zh, en): none where the game only numbers its seats — a person reads
    the player's name there, never a number (replay_ui/pages.py `seat_called`; the record and `data-seat` count
    from 0)."""
    return [("", "") for _ in range(seats)]


def deal_figures(match: dict[str, Any] | None, deal: dict[str, Any]) -> dict[str, Any]:
    """No figures of the table around a deal: the deal pages show the deal alone."""
    return {}
