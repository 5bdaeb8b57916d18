"""Retractions: the recorder takes back the last action still standing of a live deal, with a reason.

Nothing is edited or deleted. A retraction is an entry of its own in a deal's list of entries — the timeline's
steps, the record's `actions` (docs/record-format.md "Retractions") — `{"type": "retract", "at": i, "reason"}`,
where `i` is the index in that list of the action it takes back. The rules then stand on the actions still
standing: every action not retracted, in order. Because only the last one still standing may be retracted,
those actions are always a sequence the engine accepted in that very order, so the engine's state is
recomputed by applying them again from the deal's setup (`standing_state`).

A retraction is refused once the deal is over (its result may already have been scored), when no action is
standing, and for any action but the last one still standing (retracting again takes back the one before).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.kernel.engine import Action, DealSetup, Engine
from domain.kernel.errors import illegal

RETRACT = "retract"
MAX_REASON = 500


def is_retraction(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("type") == RETRACT


def normalize_retraction(entry: dict[str, Any]) -> dict[str, Any]:
    """A retraction in its stored form: `at` a whole number, `reason` 1–500 characters (trimmed)."""
    at, reason = entry.get("at"), entry.get("reason")
    if type(at) is not int or at < 0:
        raise illegal("bad_retraction", "A retraction names the action it takes back.",
                      "撤回必须指明所撤回的动作。", at=repr(at))
    if not isinstance(reason, str) or not 0 < len(reason.strip()) <= MAX_REASON:
        raise illegal("bad_reason", f"Say why the action is taken back (1–{MAX_REASON} characters).",
                      f"请写明撤回的理由（1–{MAX_REASON} 个字符）。", at=at)
    return {"type": RETRACT, "at": at, "reason": reason.strip()}


def retracted(entries: Sequence[Action]) -> dict[int, int]:
    """{index of a retracted action: index of the retraction that took it back}."""
    return {entry["at"]: index for index, entry in enumerate(entries) if is_retraction(entry)}


def standing(entries: Sequence[Action]) -> list[Action]:
    """The actions still standing, in order."""
    gone = retracted(entries)
    return [entry for index, entry in enumerate(entries) if not is_retraction(entry) and index not in gone]


def last_standing(entries: Sequence[Action]) -> int | None:
    """The index of the last action still standing, or None."""
    gone = retracted(entries)
    return next((index for index in range(len(entries) - 1, -1, -1)
                 if not is_retraction(entries[index]) and index not in gone), None)


def check_retraction(entries: Sequence[Action], at: int, over: bool) -> None:
    """IllegalAction unless `at` may be retracted now: the deal is live and `at` is the last action standing."""
    if over:
        raise illegal("deal_over", "The deal is over: its actions can no longer be taken back.",
                      "本局已结束，不能再撤回动作。", at=at)
    last = last_standing(entries)
    if last is None:
        raise illegal("nothing_to_retract", "No action is standing: there is nothing to take back.",
                      "没有可撤回的动作。", at=at)
    if at != last:
        raise illegal("not_last_action", f"Only the last action still standing (index {last}) can be taken back.",
                      f"只能撤回最后一个仍然有效的动作（序号 {last}）。", at=at, last=last)


def standing_state(engine: Engine, setup: DealSetup, entries: Sequence[Action]) -> Any:
    """The engine's state after the actions still standing (stored forms, so no second normalising)."""
    state = engine.new_deal(setup)
    for action in standing(entries):
        engine.apply_normalized(state, action)
    return state


def fold_entry(engine: Engine, setup: DealSetup, state: Any, entries: list[Action], entry: Action,
               normalized: bool = False) -> Any:
    """Apply one entry of a record (an action, or a retraction) to `state` after `entries`; the state after
    it (a new object after a retraction). `entries` gets the entry's stored form appended."""
    if is_retraction(entry):
        normal = normalize_retraction(entry) if not normalized else entry
        check_retraction(entries, normal["at"], engine.result(state) is not None)
        entries.append(normal)
        return standing_state(engine, setup, entries)
    if normalized:
        engine.apply_normalized(state, entry)
        entries.append(entry)
    else:
        entries.append(engine.apply(state, entry))
    return state
