"""Every refusal in fupan is one of these: a stable `code`, an English and a Chinese message, and details.

Whatever raises one, nothing has been written. Each kind says why the request was refused; the API maps each
kind to one HTTP status in one place (api/errors.py), `fupan check` and the CLI print the code and message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Refusal(Exception):
    """Refused: nothing has been changed."""

    def __init__(self, code: str, message: str, message_zh: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_zh = message_zh
        self.details = details or {}

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


def listed(items: Iterable[object], lang: str = "en") -> str:
    """Names as a message reads them — "a, b, c" in English, "a、b、c" in Chinese — never a Python list's repr."""
    return ("、" if lang == "zh" else ", ").join(str(item) for item in items)
