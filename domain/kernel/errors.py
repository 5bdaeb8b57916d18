"""Every refusal in fupan is one of these: a stable `code`, an English and a Chinese message, and details.

Whatever raises one, nothing has been written. Each kind says why the request was refused; the API maps each
kind to one HTTP status in one place (api/errors.py), `fupan check` and the CLI print the code and message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

# A seat in a message is a reference (`seat_ref`), never a number: the domain cannot know who sits there, the
# service that handles a deal of a match can (`Refusal.name_seats`, domain/services/seat_names.py). Until it is
# named, a seat reads "座位 N" / "seat N", counted from 1 as directors count (`details` count from 0).
_SEAT = re.compile("\ue000(\\d+)\ue001")
_AND = "\ue004"  # between the seats of a list: "、" or ", "
_JOKER = re.compile("\ue002(LJ|BJ)\ue003")  # a joker in a message reads in its language (domain/kernel/cards.py)
_JOKER_NAMES = {("LJ", "zh"): "小王", ("BJ", "zh"): "大王", ("LJ", "en"): "Little Joker", ("BJ", "en"): "Big Joker"}
SeatNamer = Callable[[int, str], str]  # (seat counted from 0, "zh" | "en") → how a person reads it


def seat_ref(seat: int | None) -> str:
    """A seat as a message template holds it; no seat is "—"."""
    return "—" if seat is None else f"\ue000{seat}\ue001"


def seats_ref(seats: Iterable[int]) -> str:
    """Several seats in a message: "张伟、李娜" in Chinese, "Zhang Wei, Li Na" in English."""
    return _AND.join(seat_ref(seat) for seat in seats)


def seat_numbered(seat: int, lang: str) -> str:
    """The last resort, where nobody's name is known: "座位 2" / "seat 2"."""
    return f"座位 {seat + 1}" if lang == "zh" else f"seat {seat + 1}"


def named_seats(template: str, lang: str, namer: SeatNamer = seat_numbered) -> str:
    """A message template with its seat references read as `namer` names them (and its jokers in `lang`)."""
    read = _SEAT.sub(lambda m: _capital(namer(int(m.group(1)), lang), lang, m.start() == 0), template)
    return _JOKER.sub(lambda m: _JOKER_NAMES[m.group(1), lang], read).replace(_AND, "、" if lang == "zh" else ", ")


def _capital(name: str, lang: str, first: bool) -> str:
    """An English sentence that starts with a seat starts with a capital: "Seat 2 may …"."""
    return name[:1].upper() + name[1:] if first and lang == "en" else name


class Refusal(Exception):
    """Refused: nothing has been changed.

    `message` and `message_zh` may hold seat references (`seat_ref`): they read "座位 N" until the service that
    knows the players names them (`name_seats`); `template`/`template_zh` keep the references, so a refusal
    quoted inside another (an appeal's line) is named once, at the end."""

    def __init__(self, code: str, message: str, message_zh: str, details: dict[str, Any] | None = None):
        self.template, self.template_zh = message, message_zh
        self.code = code
        self.details = details or {}
        self.name_seats(seat_numbered)

    @property
    def mentions_seats(self) -> bool:
        return bool(_SEAT.search(self.template) or _SEAT.search(self.template_zh))

    def name_seats(self, namer: SeatNamer) -> Refusal:
        """Read the message's seats as `namer` names them (domain/services/seat_names.py)."""
        self.message = named_seats(self.template, "en", namer)
        self.message_zh = named_seats(self.template_zh, "zh", namer)
        self.args = (self.message,)
        return self

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "message_zh": self.message_zh, "details": self.details}


class IllegalAction(Refusal):
    """The rules (or the record format) forbid this."""


class BadRequest(Refusal):
    """The request itself is malformed: its body, its query, a step or viewpoint out of range."""


class Unauthenticated(Refusal):
    """No token, or one that is malformed, unknown, wrong or revoked."""


class Forbidden(Refusal):
    """The caller may not do or see this: a role or scope it lacks, hidden cards of a deal not yet published."""


class Hidden(Forbidden):
    """Hidden cards of a deal not yet published: a token with rights over its match would see them."""


class NotFound(Refusal):
    """No such tournament, table, deal, player or token."""


class Conflict(Refusal):
    """A stale or concurrent write, or a create that disagrees with what exists."""


class LengthRequired(Refusal):
    """A body sent without a declared length (chunked)."""


class TooManyAttempts(Refusal):
    """Too many failed authentications from one client: wait."""


def illegal(code: str, message: str, message_zh: str, **details: Any) -> IllegalAction:
    """Shorthand for the engines' many refusals: details as keyword arguments."""
    return IllegalAction(code, message, message_zh, details)


def not_a_player(code: str, who_en: str, who_zh: str, seats: int, **details: Any) -> IllegalAction:
    """A seat given that is none of the table's: said in words — who it should have been, and the table's players
    (seat references, read as their names by the service; "seat 1 … seat N" where nobody's name is known). The
    `details` keep the seat as given, counted from 0."""
    players = seats_ref(range(seats))
    return IllegalAction(code, f"{who_en} must be one of the table's players: {players}.",
                         f"{who_zh}必须是本桌的一位玩家：{players}。", details)


def listed(items: Iterable[object], lang: str = "en") -> str:
    """Names as a message reads them — "a, b, c" in English, "a、b、c" in Chinese — never a Python list's repr."""
    return ("、" if lang == "zh" else ", ").join(str(item) for item in items)
