"""The one exception every rules engine and the record layer raise when something is refused.

The API turns it into the error shape of DESIGN.md §7; `fupan check` prints its code and message.
"""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):
    """The rules (or the record format) forbid this. Nothing has been changed."""

    def __init__(self, code: str, message: str, message_zh: str, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_zh = message_zh
        self.details = details or {}

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "message_zh": self.message_zh, "details": self.details}


def illegal(code: str, message: str, message_zh: str, **details: Any) -> IllegalAction:
    """Shorthand for the engines' many refusals: details as keyword arguments."""
    return IllegalAction(code, message, message_zh, details)
