"""The typed values every game's engine answers with: a deal's result and the head of its view.

They are TypedDicts, not classes of their own: they are JSON as they stand, so the record format, the stored
events and the API's answers keep their shape, and a type checker reads every `result["landlord_won"]` against
the game's declared result. Each key carries its description (`Doc`); the API's schemas are made from these
declarations (api/typed.py), so the shape is written once, here, by the layer that computes it. Each game
extends `DealResult` with its own facts in its engine module (`DoudizhuResult`, `ShengjiResult` …).
"""


from dataclasses import dataclass
from typing import Annotated, Any, Required, TypedDict


@dataclass(frozen=True)
class Doc:
    """A key's description, for people reading the code and the API document alike."""

    text: str


class DealResult(TypedDict, total=False):
    """What every game's finished deal gives (`Engine.result`); a game's result adds its own facts."""

    scores: Required[Annotated[list[int], Doc("each seat's score for the deal, penalties for fouls included")]]
    seat_facts: Annotated[dict[str, list[Any]], Doc("per-seat facts the formats and tiebreaks read, by name")]
    winner: Annotated[int | None, Doc("the winning seat, in games with one")]
    redeal: Annotated[bool, Doc("true: the deal is void and dealt again (its scores are the penalties only)")]


class ViewHead(TypedDict):
    """What every game's view begins with (`Engine.view_head`)."""

    game: Annotated[str, Doc("the game's code")]
    viewpoint: Annotated[str, Doc("who looks: public, referee or seat:N")]
    phase: Annotated[str, Doc("the engine's phase: bidding, play, finished …")]
    to_act: Annotated[int | None, Doc("the seat to act, none when the deal is over")]
    first: Annotated[int, Doc("the seat that acted first")]

