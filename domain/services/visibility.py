"""Hidden information, decided in one place (docs/SECURITY.md "Hidden cards").

While a deal is not published a reader without rights over its match sees only the `public` viewpoint,
the public form of each action, no annotations and no hands in events or exports. Every read that can carry
hands takes a `reader` (a `Principal`) that defaults to the anonymous public, so a caller that forgets to say
who is asking gets the public answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from domain.games import get_engine
from domain.kernel.engine import Action, DealSetup, Engine, Viewpoint
from domain.kernel.errors import BadRequest, Hidden, IllegalAction
from domain.model.deal import Deal
from domain.model.token import Principal
from domain.records.retraction import fold_entry


def published(deal: Deal, released: bool = True) -> bool:
    """Whether the whole record of a deal is public: once it is closed and its public delay has passed
    (`released`: `public_steps(...) is None`, below)."""
    return deal.finished and released


def may_see_all(is_published: bool, match_id: UUID | None, reader: Principal) -> bool:
    """Hands, every viewpoint, hidden actions and annotations: for everyone once published, else only for
    readers with rights over the deal's match."""
    return is_published or reader.sees_live_hands(match_id)


def require_record(deal: Deal, reader: Principal, released: bool = True) -> None:
    """A record holds every hand: before the deal is published (and its public delay has passed: `released`)
    only readers with rights over it get one."""
    if not may_see_all(published(deal, released), deal.match_id, reader):
        raise Hidden("deal_not_published", "The deal is still being played; its record is published when it is "
                     "closed.", "该牌局尚在进行中，结束后才公开记录。", {"deal_id": str(deal.id)})


def viewpoint_for(text: str, seats: int, *, full: bool, closed: bool, deal_id: UUID) -> Viewpoint:
    """The viewpoint a reader asked for, if they may take it: a seat or the referee's only with `full` rights;
    the public's of a closed deal is the whole record."""
    try:
        view_as = Viewpoint.parse(text, seats)
    except IllegalAction as error:
        raise BadRequest(error.code, error.message, error.message_zh, error.details) from None
    if not full and view_as.kind != "public":
        raise Hidden("hidden_view", "Seat and referee views of a live deal need a token with rights over its match.",
                     "进行中牌局的座位视角和裁判视角需要有该对局权限的令牌。",
                     {"deal_id": str(deal_id), "viewpoint": text})
    if view_as.kind == "public" and closed:
        return Viewpoint("referee")  # once a deal is closed (published) its hands are public
    return view_as


def shown_action(engine: Engine, action: Action, view_as: Viewpoint, full: bool) -> Action:
    """An action as `view_as` saw it at the table: a seat's viewpoint is what that seat could know, so another
    seat's action in its public form (a buried 升级 kitty as its size), even once the deal is published. A
    foul's note is withheld from readers without rights while the deal is live (`without_foul_note`)."""
    whole = full and (view_as.kind == "referee" or action.get("seat") == view_as.seat)
    if whole:
        return action
    public = engine.public_action(action)
    return public if full else without_foul_note(public)


def without_foul_note(action: Action) -> Action:
    """A foul is announced at the table, its note is the referee's words, which may name hidden cards ("played
    the 红桃A out of turn"): withheld like a retraction's reason while the deal is live (issue 27)."""
    return {**action, "note": None} if action.get("type") == "foul" and action.get("note") else action


def without_foul_notes(view: dict[str, Any]) -> dict[str, Any]:
    """An engine's view of a live deal for a reader without rights: its list of fouls without their notes."""
    if not view.get("fouls"):
        return view
    return {**view, "fouls": [without_foul_note(foul) for foul in view["fouls"]]}


def public_payload(event: Any, payload: dict[str, Any], engine: Engine) -> dict[str, Any]:
    """The part of a live deal's event payload that anyone may see; `withheld` names what is left out."""
    hidden: tuple[str, ...] = ()
    if isinstance(event, Deal.Created):
        hidden = ("hands", "kitty")
    elif isinstance(event, Deal.Annotated | Deal.Commented):
        hidden = ("text", "author") if isinstance(event, Deal.Annotated) else ("glyph", "text", "text_en", "author")
    elif isinstance(event, Deal.Retracted):
        hidden = ("reason",)  # the recorder's words may name hidden cards
    elif isinstance(event, Deal.ActionRecorded):
        payload["action"] = without_foul_note(engine.public_action(payload["action"]))
        if payload["action"] != event.action:
            payload["withheld"] = ["action"]
    if hidden:
        payload = {key: value for key, value in payload.items() if key not in hidden}
        payload["withheld"] = list(hidden)
    return payload


# --- the public delay of a live deal (docs/SECURITY.md "Broadcast delay") ---------------------------------------

@dataclass(frozen=True)
class TableSoFar:
    """What a delay in deals needs from a deal's table: how many of its deals after this one are over, and
    whether the table itself is over (no later deal will come to release the last ones)."""

    later_finished: int
    over: bool


def public_steps(delay: dict[str, Any] | None, events: list[Any], table: TableSoFar | None,
                 now: datetime) -> int | None:
    """How many steps of a deal the public may see now: None = every step and the whole record (the delay has
    passed, or the deal has none: a deal outside any tournament); k = the steps 0 … k only.

    A pure function of the deal's stored events and their recorded times, its table's deals and the tournament's
    delay (its `DelaySet` events), so every worker answers the same, before and after a restart. `now` is the
    caller's clock (the service's, which tests set).

    - `deals` N: nothing of the deal's actions while it is played; the deal is shown once it and the N − 1 deals
      after it at its table are over (or the table is): one deal = the deal just finished while the next is
      played. 0 = no delay.
    - `tricks` N (升级): the steps up to the close of the trick N tricks before the last one closed; the whole deal
      once it is over.
    - `minutes` N: the steps recorded at least N minutes before `now`; the whole deal once its end is that old.
    """
    if delay is None:
        return None
    finished = next((e for e in events if isinstance(e, Deal.Finished)), None)
    if finished is not None:
        return None if released(delay, table, finished.timestamp, now) else 0
    kind, amount = delay["kind"], delay["amount"]
    steps = [e for e in events if isinstance(e, Deal.ActionRecorded | Deal.Retracted)]
    if kind == "deals":
        return None if amount == 0 else 0
    if kind == "minutes":
        cutoff = now - timedelta(minutes=amount)
        return next((i for i, e in enumerate(steps) if e.timestamp > cutoff), len(steps))
    if kind == "tricks":
        return trick_horizon(events, steps, amount)
    raise ValueError(f"unknown delay kind {kind!r}")


def released(delay: dict[str, Any] | None, table: TableSoFar | None, finished_at: datetime, now: datetime) -> bool:
    """Whether a finished deal's delay has passed, so its whole record is public (`published`)."""
    if delay is None:
        return True
    kind, amount = delay["kind"], delay["amount"]
    if kind == "deals":
        return amount == 0 or table is None or table.over or table.later_finished >= amount - 1
    if kind == "minutes":
        return finished_at <= now - timedelta(minutes=amount)
    return True  # tricks: the last tricks are shown when the deal ends, nothing is left to play in it


def trick_horizon(events: list[Any], steps: list[Any], amount: int) -> int:
    """The step at which the trick `amount` tricks before the last closed one closed (0 before that): the
    public follows a 升级 deal whole tricks behind the table."""
    created = events[0]
    setup = DealSetup(created.game, created.options, created.seats, created.first, created.hands, created.kitty,
                      created.context)
    engine = get_engine(setup.game)
    state = engine.new_deal(setup)
    folded: list[Any] = []
    closed_at = [0]  # closed_at[t] = the step at which t tricks had closed
    public = Viewpoint("public")
    for index, event in enumerate(steps):
        entry = event.action if isinstance(event, Deal.ActionRecorded) else event.entry()
        state = fold_entry(engine, setup, state, folded, entry, normalized=True)
        played = int(engine.view(state, public).get("tricks_played") or 0)
        while len(closed_at) <= played:
            closed_at.append(index + 1)
    target = len(closed_at) - 1 - amount
    return closed_at[target] if target > 0 else 0


def public_notes(notes: list[tuple[dict[str, Any], dict[str, Any]]], horizon: int) -> list[dict[str, Any]]:
    """A commentator's notes (note, recorded_by) at the steps the public sees under a delay: they appear at their
    step, delayed with it. Other annotations (a referee's, which may name hidden cards) wait for the record."""
    return [note for note, by in notes if by.get("role") == "commentator" and note["step"] <= horizon]


def held_back(events: list[Any], horizon: int) -> list[Any]:
    """A deal's events as the public may read them under a delay: those of the first `horizon` steps, the
    annotations among them; nothing recorded after the step the delay holds (its end neither)."""
    shown, steps = [], 0
    for event in events:
        if isinstance(event, Deal.ActionRecorded | Deal.Retracted):
            steps += 1
            if steps > horizon:
                break
        elif isinstance(event, Deal.Finished | Deal.SeedRevealed):
            break
        shown.append(event)
    return shown
