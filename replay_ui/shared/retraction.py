"""A retraction in the viewer's words (domain/records/retraction.py): the retraction's own step, and the mark on the
entry it took back, which the timeline strikes through with the reason and who retracted it."""

from __future__ import annotations

from typing import Any

from domain.records.retraction import is_retraction
from replay_ui.shared.i18n import text
from replay_ui.shared.notation import Frame, Notation, say


def _who(recorded_by: dict[str, Any] | None) -> Any:
    """Who retracted it, by role (a token's id says nothing to a reader)."""
    role = (recorded_by or {}).get("role", "")
    key = f"retract.by.{role}" if role in ("referee", "organiser") else "retract.by.other"
    return lambda lang: text(key, lang)


def _reason(reason: str | None) -> Any:
    return lambda lang: reason if reason is not None else text("retract.withheld", lang)


def is_retraction_step(frame: Frame) -> bool:
    return is_retraction(frame["action"])


def describe_retraction(frame: Frame) -> Notation:
    """'裁判撤回第 5 步：误点' — the retraction's step (its reason withheld from who may not see the deal yet)."""
    action = frame["action"]
    return say("retract.step", ["retract"], step=action["at"] + 1, who=_who(action.get("by")),
               reason=_reason(action.get("reason")))


def mark_retracted(frame: Frame, notation: dict[str, Any]) -> None:
    """Mark a notation (as JSON) whose step was taken back later: tag `retracted`, and what to say about it."""
    taken = frame.get("retracted")
    if not taken:
        return
    words = say("retract.mark", step=taken["step"], who=_who(taken.get("by")), reason=_reason(taken.get("reason")))
    notation["tags"].append("retracted")
    notation["retracted"] = {"zh": words.zh, "en": words.en, "step": taken["step"]}
