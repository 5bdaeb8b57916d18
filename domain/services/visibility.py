"""Hidden information, decided in one place (docs/SECURITY.md "Hidden cards").

While a deal is not published a reader without rights over its match sees only the `public` viewpoint,
the public form of each action, no annotations and no hands in events or exports. Every read that can carry
hands takes a `reader` (a `Principal`) that defaults to the anonymous public, so a caller that forgets to say
who is asking gets the public answer.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.kernel.engine import Action, Engine, Viewpoint
from domain.kernel.errors import BadRequest, Hidden, IllegalAction
from domain.model.deal import Deal
from domain.model.token import Principal


def published(deal: Deal) -> bool:
    """Whether the whole record of a deal is public. For now a deal is published as soon as it is closed; an
    organiser's hold-back (a later event) would be checked here and nowhere else."""
    return deal.finished


def may_see_all(is_published: bool, match_id: UUID | None, reader: Principal) -> bool:
    """Hands, every viewpoint, hidden actions and annotations: for everyone once published, else only for
    readers with rights over the deal's match."""
    return is_published or reader.sees_live_hands(match_id)


def require_record(deal: Deal, reader: Principal) -> None:
    """A record holds every hand: before the deal is published only readers with rights over it get one."""
    if not may_see_all(published(deal), deal.match_id, reader):
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
